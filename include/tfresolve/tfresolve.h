/*
** libtfresolve: evaluate Terraform/OpenTofu input variables offline.
**
** This header is the library's public API.  Everything a call returns is
** owned by the tfr_arena passed to it; diagnostics are appended to a
** tfr_diags list and never printed by the library.
*/
#ifndef TFRESOLVE_H
#define TFRESOLVE_H

#include "tfresolve/export.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "tfresolve/arena.h"
#include "tfresolve/diag.h"
#include "tfresolve/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The library version, e.g. "0.1.0". */
TFR_API const char *tfr_version(void);

/** A parsed configuration or variables file (opaque). */
typedef struct tfr_file tfr_file;

enum tfr_syntax {
  TFR_SYNTAX_AUTO, /* by file name: *.json is JSON, anything else HCL */
  TFR_SYNTAX_HCL,
  TFR_SYNTAX_JSON,
};

/**
 * Parse one file.
 * @param[in]  a      Arena that owns the returned file and its AST.
 * @param[out] diags  Appended to, never cleared; the file's text is
 *                    registered with it so that renderers can quote it.
 * @param[in]  path   File to read.
 * @returns the file, or NULL when it could not be read or has syntax
 *          errors (see diags).
 */
TFR_API tfr_file *tfr_parse_file(tfr_arena *a, tfr_diags *diags, const char *path,
                         enum tfr_syntax syntax);

/**
 * Parse bytes already in memory, named @p name in diagnostics.  The bytes
 * are copied into @p a.
 */
TFR_API tfr_file *tfr_parse_bytes(tfr_arena *a, tfr_diags *diags, const char *name,
                          const char *text, size_t len,
                          enum tfr_syntax syntax);

/**
 * Parse one HCL expression (as `-var` values and `terraform console`
 * input are parsed): newlines are insignificant, nothing may follow it.
 * @returns a file whose body is the expression, or NULL on errors.
 */
TFR_API tfr_file *tfr_parse_expr(tfr_arena *a, tfr_diags *diags, const char *name,
                         const char *text, size_t len);

/**
 * Evaluate a parsed expression as a constant: no variables, no functions
 * (how Terraform evaluates tfvars values and variable defaults).
 * @returns the value (owned by @p a); errors go to @p diags.
 */
TFR_API const struct tfr_value *tfr_eval_const(tfr_arena *a, tfr_diags *diags,
                                       const tfr_file *expr);

/**
 * Evaluate a parsed expression with Terraform's built-in functions (still
 * no variables): what `terraform console` does in an empty module.
 */
TFR_API const struct tfr_value *tfr_eval_functions(tfr_arena *a, tfr_diags *diags,
                                           const tfr_file *expr);

/** Options of console-style evaluation. */
struct tfr_eval_opts {
  const char *dir;   /* base directory of file functions (NULL: current) */
  bool opentofu;     /* OpenTofu's function set */
  const struct tfr_resolution *module; /* var.* and local.* of a resolved
                                          module (NULL: none declared) */
};

/**
 * tfr_eval_functions with options: what `terraform console` does in a
 * module, with its resolved variables (unresolved ones unknown), local
 * values, path.*, terraform.workspace and the functions.
 */
TFR_API const struct tfr_value *tfr_eval_functions_opts(tfr_arena *a,
                                                tfr_diags *diags,
                                                const tfr_file *expr,
                                                const struct tfr_eval_opts *o);

/** Defaults of the optional attributes of a type constraint (opaque). */
struct tfr_defaults;

/**
 * Read a parsed expression as a type constraint (`list(object({a =
 * optional(number, 1)}))`), as Terraform reads a variable's `type`.
 * @param[out] defaults  the optional-attribute defaults, or NULL if none.
 * @returns the type, or NULL after adding diagnostics.
 */
TFR_API const tfr_type *tfr_parse_type(tfr_arena *a, tfr_diags *diags,
                               const tfr_file *expr,
                               const struct tfr_defaults **defaults);

/**
 * Convert a value to a type constraint as Terraform converts variable
 * values: optional-attribute defaults (may be NULL) first, then cty's
 * conversion.  On failure returns NULL and sets *err to the reason.
 */
TFR_API const tfr_value *tfr_convert(tfr_arena *a, const tfr_value *v,
                             const tfr_type *want,
                             const struct tfr_defaults *defaults,
                             const char **err);

/** Terraform console style (tolist([...]), tostring(null), heredocs). */
TFR_API const char *tfr_value_console(tfr_arena *a, const tfr_value *v);

/** The value in HCL syntax, as a tfvars file would set it. */
TFR_API const char *tfr_value_hcl(tfr_arena *a, const tfr_value *v);

/** The value as a YAML document; false if writing failed. */
TFR_API bool tfr_value_write_yaml(FILE *out, tfr_arena *a, const tfr_value *v);

/** False when the value has no JSON encoding (an infinite number). */
TFR_API bool tfr_value_json_encodable(const tfr_value *v);

/** cty's JSON encoding of a value / of a type. */
TFR_API void tfr_value_write_json(FILE *out, tfr_arena *a, const tfr_value *v);
TFR_API void tfr_type_write_json(FILE *out, const tfr_type *t);

/* ---- resolving a module's variables ------------------------------------ */

/** A -var or -var-file option, in command-line order. */
struct tfr_cli_arg {
  bool file;         /* -var-file PATH (else -var NAME=VALUE) */
  const char *value;
  const char *content; /* with file: parse these content_len bytes as the
                          variables file named value, instead of reading
                          value from disk (NULL: read it) */
  size_t content_len;
};

struct tfr_resolve_opts {
  const char *dir;                 /* the module directory */
  char *const *env;                /* environ-style TF_VAR_* source, or NULL */
  const struct tfr_cli_arg *args;  /* -var / -var-file, in order */
  size_t nargs;
  bool opentofu;                   /* OpenTofu's file rules (.tofu) */
  bool load_only;                  /* stop after loading (a flag error) */
  bool strict;                     /* stricter than Terraform: undeclared
                                      file values are errors, and a failed
                                      HCL parse of an any-typed -var or
                                      TF_VAR_ value is explained */
  bool keep_given;                 /* fill tfr_variable.given even where a
                                      faster path does not need it */
};

enum tfr_source_kind {
  TFR_SRC_NONE,
  TFR_SRC_DEFAULT,
  TFR_SRC_ENV,
  TFR_SRC_AUTO_FILE,
  TFR_SRC_NAMED_FILE,
  TFR_SRC_CLI,
};

/** One attempt to set a variable, from one source. */
struct tfr_attempt {
  enum tfr_source_kind source;
  const char *file;         /* for file sources */
  int line;                 /* for file sources */
  const char *text;         /* the value as written (text_len bytes, not
                               NUL-terminated: it points into the file) */
  size_t text_len;
  bool won;                 /* the value Terraform uses */
  bool failed;              /* it could not be parsed or evaluated */
};

/** What a validation rule came to. */
enum tfr_rule_result {
  TFR_RULE_SKIPPED,  /* not evaluated; detail says why */
  TFR_RULE_PASSED,
  TFR_RULE_FAILED,   /* detail: its error message */
  TFR_RULE_DEFERRED, /* cannot be known offline; detail says why */
  TFR_RULE_INVALID,  /* the rule itself has errors; detail: the first */
};

/** "skipped", "passed", "failed", "deferred" or "invalid". */
TFR_API const char *tfr_rule_result_name(enum tfr_rule_result r);

/** One `validation` block of a variable and its outcome. */
struct tfr_rule {
  struct tfr_range range;   /* the validation block */
  enum tfr_rule_result result;
  const char *detail;       /* NULL when it passed */
};

/** One declared variable and what it resolved to. */
struct tfr_variable {
  const char *name;
  const tfr_type *type;     /* final type; the declared one on error */
  const tfr_value *value;   /* NULL when it could not be resolved */
  bool sensitive;
  bool error;
  enum tfr_source_kind source;
  const char *source_file;  /* for file sources */
  int source_line;          /* for file sources, else 0 */
  struct tfr_range decl;    /* `variable "x"` */
  const struct tfr_attempt *attempts; /* every source, lowest first */
  size_t nattempts;
  const tfr_value *default_value;    /* NULL when there is none */
  const tfr_type *declared;          /* the type constraint (any if none) */
  const tfr_value *given;            /* the winning value before conversion
                                        (may be NULL without keep_given) */
  bool literal_mode;                 /* env/-var strings taken literally */
  bool typed;                        /* it has a `type` */
  bool nullable;
  const char *description;
  const struct tfr_rule *rules;      /* its validation rules, in order
                                        (NULL when it has none) */
  size_t nrules;
  const char *deprecated;            /* its `deprecated` message, or NULL */
  bool ephemeral;
};

struct tfr_resolution {
  const struct tfr_variable *vars; /* sorted by name */
  size_t n;
  bool valid;                      /* no error diagnostics */
  bool has_config;                 /* the directory has configuration */
  const void *module;              /* internal: the loaded module */
};

/**
 * Resolve every input variable of a module as `terraform plan` would:
 * load the configuration, collect values from the environment, the
 * auto-loaded tfvars files and the command line, apply precedence, parse
 * modes, defaults, nullability, optional attributes and conversion.
 * @returns the resolution (owned by @p a); problems go to @p diags, each
 *          naming its variable where there is one.
 */
TFR_API const struct tfr_resolution *tfr_resolve(tfr_arena *a, tfr_diags *diags,
                                         const struct tfr_resolve_opts *o);

/**
 * The resolution as the JSON document of `show -json` (SPEC section 2):
 * every variable with its type, value (null when sensitive unless
 * @p show_sensitive), source and rules, then the diagnostics.
 */
TFR_API void tfr_resolution_write_json(FILE *out, tfr_arena *a,
                               const struct tfr_resolution *res,
                               const tfr_diags *d, bool show_sensitive);

/** A module's configuration, loaded once (opaque). */
typedef struct tfr_module tfr_module;

/**
 * Load the configuration of the module in @p dir (every file, override
 * files, the `variable` and `locals` blocks); its problems go to @p diags.
 */
TFR_API tfr_module *tfr_module_load(tfr_arena *a, tfr_diags *diags, const char *dir,
                            bool opentofu);

/**
 * tfr_resolve on a module from tfr_module_load (o->dir and o->opentofu
 * are taken from the module; its load diagnostics are not repeated).
 * Several threads may resolve one module at once, each with its own
 * arena and diagnostics.
 */
TFR_API const struct tfr_resolution *tfr_resolve_module(tfr_arena *a,
                                                tfr_diags *diags,
                                                const tfr_module *m,
                                                const struct tfr_resolve_opts *o);

/** Let @p d show excerpts of the source files registered in @p from. */
TFR_API void tfr_diags_share_sources(tfr_diags *d, const tfr_diags *from);

/** Write a NUL-terminated string as a JSON string literal. */
TFR_API void tfr_json_write_cstr(FILE *out, const char *s);

/** Write the file's syntax tree as JSON (for debugging and tests). */
TFR_API void tfr_file_dump_json(const tfr_file *f, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
