/*
** libtfresolve: evaluate Terraform/OpenTofu input variables offline.
**
** This header is the library's public API.  Everything a call returns is
** owned by the tfr_arena passed to it; diagnostics are appended to a
** tfr_diags list and never printed by the library.
**
** Threads.  The library keeps no mutable global state that a call can
** see another thread's run through: what one run needs travels with the
** call (the editor's open files given in tfr_resolve_opts.overlays) or
** is the calling thread's own (scratch buffers), and process-wide tables
** are built once, safely, on first use.  So any number of threads may call the
*library at once,
** each with its own objects.  What may be shared:
**   - a tfr_module from tfr_module_load, read-only: several threads may
**     tfr_resolve_module it at once (each with its own arena and diags);
**   - a tfr_cache (tfr_cache_new), which is locked inside;
**   - results (resolutions, values, files) once the call that made them
**     has returned, for reading, as long as their arena lives.
** What may not: a tfr_arena and a tfr_diags are one thread's at a time
** (every call allocating from an arena or appending to a list writes to
** it), and tfr_set_memory_budget is set before any run starts.
*/
#ifndef TFRESOLVE_H
#define TFRESOLVE_H

#include "tfresolve/export.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "tfresolve/arena.h"
#include "tfresolve/diag.h"
#include "tfresolve/version.h"
#include "tfresolve/value.h"
#include "tfresolve/syntax.h"
#include "tfresolve/resolution.h"
#include "tfresolve/interface.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the library ---------------------------------------------------- */

/** The version of the library the program runs with, e.g. "0.2.0"
 *  (TFR_VERSION_STRING is the one it was compiled against). */
TFR_API const char *tfr_version(void);

/** The same as a number, 10000 * major + 100 * minor + patch
 *  (TFR_VERSION_NUMBER is the one it was compiled against): what a
 *  program checks before reading a result field added after the oldest
 *  library it runs with (see resolution.h). */
TFR_API int tfr_version_number(void);

/** The libraries inside libtfresolve and their versions, as one line
 *  ("utf8proc 2.8.0, MPFR 4.2.0, ..."): the versions it runs with where
 *  a library can say (tfresolve -version; bug reports).  Since 0.3.0. */
TFR_API const char *tfr_library_versions(void);

/** Which Terraform and OpenTofu the library follows, as one line
 *  ("Terraform 1.16 and its development head (1.17.0-dev, commit ...)
 *  and, with -engine=opentofu, OpenTofu ..."): the releases and the
 *  development heads whose source its rules and texts come from.  Since
 *  0.4.0. */
TFR_API const char *tfr_semantics(void);

/** Whether the engine (OpenTofu's with @p opentofu) reads configuration
 *  file @p name of a directory whose files are @p names[0..@p n): .tf and
 *  .tf.json; OpenTofu's .tofu and .tofu.json too, each instead of the .tf
 *  (.tf.json) of the same name.  For a program that lists a module's
 *  files as the engine reads them.  Since 0.4.0. */
TFR_API bool tfr_config_file_read(const char *const *names, size_t n,
                                  const char *name, bool opentofu);

/** Terraform's "Did you mean" rule (its didyoumean.NameSuggestion): of
 *  @p names[0..@p n), the one closest to @p given if its Levenshtein
 *  distance is below 3 (the first of equals), else NULL.  For the names a
 *  program's user types (commands, options).  Since 0.3.0. */
TFR_API const char *tfr_suggest_name(const char *given,
                                     const char *const *names, size_t n);

/* ---- parsing (tfresolve/syntax.h: what an editor asks of a file) ----- */

/**
 * Parse one file.
 * @param[in]  a      Arena that owns the returned file and its AST.
 * @param[out] diags  Appended to, never cleared; the file's text is
 *                    registered with it so that renderers can quote it.
 * @param[in]  path   File to read.
 * @returns the file, or NULL when it could not be read or has syntax
 *          errors (see diags).
 */
TFR_API tfr_file *tfr_parse_file(tfr_arena *a, tfr_diags *diags,
                                 const char *path, enum tfr_syntax syntax);

/**
 * Parse bytes already in memory, named @p name in diagnostics.  The bytes
 * are copied into @p a.
 */
TFR_API tfr_file *tfr_parse_bytes(tfr_arena *a, tfr_diags *diags,
                                  const char *name, const char *text,
                                  size_t len, enum tfr_syntax syntax);

/**
 * Parse one HCL expression (as `-var` values and `terraform console`
 * input are parsed): newlines are insignificant, nothing may follow it.
 * @returns a file whose body is the expression, or NULL on errors.
 */
TFR_API tfr_file *tfr_parse_expr(tfr_arena *a, tfr_diags *diags,
                                 const char *name, const char *text,
                                 size_t len);

/**
 * The references of a parsed expression (tfr_parse_expr, or
 * tfr_variable.arg_expr) as Terraform's plan JSON lists an expression's
 * "references": each reference with every step after its address, then
 * shorter down to the address ("var.net.cidr", "var.net"), then the
 * address without its instance key ("module.a[\"k\"].id",
 * "module.a[\"k\"]"), in the expression's order, repeats kept.
 * @param[out] n  how many.
 * @returns the strings (owned by @p a); NULL when there are none.
 * Since 0.4.0.
 */
TFR_API const char **tfr_expr_references(tfr_arena *a, const tfr_file *expr,
                                         size_t *n);

/* ---- evaluating, types and conversion ------------------------------- */

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
TFR_API const struct tfr_value *
tfr_eval_functions(tfr_arena *a, tfr_diags *diags, const tfr_file *expr);

/** Options of console-style evaluation: start from TFR_EVAL_OPTS_INIT
 *  (the struct grows as resolution.h says). */
struct tfr_eval_opts {
  size_t size;     /* sizeof(struct tfr_eval_opts) */
  const char *dir; /* base directory of file functions (NULL: current) */
  bool opentofu;   /* OpenTofu's function set */
  const struct tfr_resolution *module; /* var.* and local.* of a resolved
                                          module (NULL: none declared) */
  const struct tfr_scope *scope;       /* since 0.4.0: evaluate in this module
                                          instance of a resolution's tree
                                          (tfr_resolution_scope) instead;
                                          module is then not read */
};

/** The defaults of tfr_eval_opts, with the program's struct size. */
#define TFR_EVAL_OPTS_INIT                                                     \
  { .size = sizeof(struct tfr_eval_opts) }

/**
 * tfr_eval_functions with options: what `terraform console` does in a
 * module, with its resolved variables (unresolved ones unknown), local
 * values, path.*, terraform.workspace and the functions.  @p o may be
 * NULL (the defaults); options of a size this library cannot read are an
 * error diagnostic (TFR_CODE_BAD_OPTIONS) and an unknown value.
 */
TFR_API const struct tfr_value *
tfr_eval_functions_opts(tfr_arena *a, tfr_diags *diags, const tfr_file *expr,
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

/* ---- writing values -------------------------------------------------- */

/** Terraform console style (tolist([...]), tostring(null), heredocs). */
TFR_API const char *tfr_value_console(tfr_arena *a, const tfr_value *v);

/** The same written to @p out as it is made: a large value is never held
 * whole in memory. */
TFR_API void tfr_value_write_console(FILE *out, tfr_arena *a,
                                     const tfr_value *v);

/** The first @p keep lines of tfr_value_console's text (at least one),
 * and in *lines how many lines the whole text has: the rest is counted,
 * never held in memory. */
TFR_API const char *tfr_value_console_head(tfr_arena *a, const tfr_value *v,
                                           size_t keep, size_t *lines);

/** The value in HCL syntax, as a tfvars file would set it. */
TFR_API const char *tfr_value_hcl(tfr_arena *a, const tfr_value *v);

/** The same on one line (`[a, b]`, `{ k = v, k2 = w }`): for a value
 *  beside other text, where a value (or a part of one) known only after
 *  apply is `(known after apply)`, as Terraform's plan writes it.  Since
 *  0.3.0. */
TFR_API const char *tfr_value_hcl_line(tfr_arena *a, const tfr_value *v);

/** The value as a YAML document; false if writing failed. */
TFR_API bool tfr_value_write_yaml(FILE *out, tfr_arena *a, const tfr_value *v);

/** False when the value has no JSON encoding (an infinite number). */
TFR_API bool tfr_value_json_encodable(const tfr_value *v);

/** cty's JSON encoding of a value / of a type. */
TFR_API void tfr_value_write_json(FILE *out, tfr_arena *a, const tfr_value *v);
TFR_API void tfr_type_write_json(FILE *out, const tfr_type *t);

/* ---- resolving a module's variables ------------------------------------ */

/** "skipped", "passed", "failed", "deferred" or "invalid". */
TFR_API const char *tfr_rule_result_name(enum tfr_rule_result r);

/** A source kind as JSON names it: "default", "env", "auto_file",
 *  "named_file", "cli", "none".  Since 0.2.0. */
TFR_API const char *tfr_source_kind_name(enum tfr_source_kind k);

/**
 * Resolve every input variable of a module as `terraform plan` would:
 * load the configuration, collect values from the environment, the
 * auto-loaded tfvars files and the command line, apply precedence, parse
 * modes, defaults, nullability, optional attributes and conversion.
 * @param[in] o  Options from TFR_RESOLVE_OPTS_INIT.  Options (or an
 *               arg_size) of a size this library cannot read are an error
 *               diagnostic with TFR_CODE_BAD_OPTIONS, and a resolution
 *               with no variables.
 * @returns the resolution (owned by @p a); problems go to @p diags, each
 *          naming its variable where there is one.
 */
TFR_API const struct tfr_resolution *
tfr_resolve(tfr_arena *a, tfr_diags *diags, const struct tfr_resolve_opts *o);

/**
 * The i-th variable of a resolution (sorted by name), or NULL when @p i
 * is not below res->n (or @p res is NULL).  Always reach the variables
 * this way: the library's struct may be larger than the program's.
 */
TFR_API const struct tfr_variable *
tfr_resolution_variable(const struct tfr_resolution *res, size_t i);

/** The resolution with only the variables @p keep accepts (in the same
 *  order; the module and validity of @p res), for output that lists
 *  fewer (show -changed, show -required).  Since 0.2.0; since 0.3.0 the
 *  child instances' variables too, an instance left with none dropped. */
TFR_API const struct tfr_resolution *
tfr_resolution_select(tfr_arena *a, const struct tfr_resolution *res,
                      bool (*keep)(const struct tfr_variable *v, void *ctx),
                      void *ctx);

/** The string values the validation rules of root variable @p name
 *  allow, read from their conditions as written (for an editor's
 *  completion): an allow-list -- contains([...], var.x),
 *  anytrue([var.x == "a", ...]) or anytrue([for v in [...] : var.x == v]),
 *  var.x == "a", or a disjunction of these -- alone or joined by &&
 *  (a value must be in every one), less what a negated one (!..., var.x
 *  != "a", alltrue([var.x != "a", ...])) forbids; *n of them.  NULL when
 *  no rule reads that way.  Since 0.4.0. */
TFR_API const char **tfr_resolution_allowed(tfr_arena *a,
                                            const struct tfr_resolution *res,
                                            const char *name, size_t *n);

/** The default of the optional attribute at @p path (".a[2].b", as
 *  tfr_locus.path names it; a map's keys and a collection's indexes
 *  step into its element type) of variable @p name's type constraint, or
 *  NULL when that attribute has none.  Since 0.2.0. */
TFR_API const tfr_value *
tfr_resolution_attr_default(const struct tfr_resolution *res, const char *name,
                            const char *path);

/** The variable named @p name, or NULL (a binary search: the variables
 *  are sorted by name).  Since 0.2.0. */
TFR_API const struct tfr_variable *
tfr_resolution_find(const struct tfr_resolution *res, const char *name);

/** The declared variable whose name is closest to @p name (a misspelling
 *  of it: at most two edits, as the "did you mean" of the diagnostics), or
 *  NULL.  Since 0.2.0. */
TFR_API const char *tfr_resolution_suggest(const struct tfr_resolution *res,
                                           const char *name);

/** The i-th attempt to set a variable (lowest precedence first), or NULL
 *  when @p i is not below v->nattempts. */
TFR_API const struct tfr_attempt *
tfr_variable_attempt(const struct tfr_variable *v, size_t i);

/** The i-th validation rule of a variable, or NULL when @p i is not below
 *  v->nrules. */
TFR_API const struct tfr_rule *tfr_variable_rule(const struct tfr_variable *v,
                                                 size_t i);

/** A cache that resolutions share (tfr_resolve_opts.cache): each child
 *  module directory of their trees parsed once.  Thread-safe.  Since
 *  0.3.0. */
TFR_API struct tfr_cache *tfr_cache_new(void);

/** Free a cache and every module in it, after the results that use it. */
TFR_API void tfr_cache_free(struct tfr_cache *cache);

/** The i-th child module instance of a resolution's tree, or NULL when
 *  @p i is not below res->ninstances.  Since 0.3.0. */
TFR_API const struct tfr_instance *
tfr_resolution_instance(const struct tfr_resolution *res, size_t i);

/** A module instance of a resolution's tree as an evaluation scope
 *  (tfr_resolution_scope); opaque.  Since 0.4.0. */
typedef struct tfr_scope tfr_scope;

/**
 * The module instance @p address of @p res as `terraform console
 * -scope=ADDRESS` (Terraform 1.16) names it -- "module.app",
 * "module.app[\"eu\"].module.db", "module.node[0]"; NULL or "" is the
 * root module -- for tfr_eval_opts.scope: an expression evaluated there
 * sees the instance's var.* (the values the tree's walk gave them; one it
 * could not give is Terraform's "Reference to uninitialized variable"),
 * local.* (likewise), module.NAME of its own calls (their outputs),
 * path.* and terraform.workspace.  In the root module, module.NAME
 * comes from the tree too.
 * @param[in] res  A resolution of tfr_resolve or tfr_resolve_module with
 *                 tfr_resolve_opts.tree; it and its arena must outlive
 *                 the scope, which only reads it (threads may share it).
 *                 NULL: no module (the root has no variables; every
 *                 module address names no instance).
 * @returns the scope (owned by @p a), or NULL after an error in @p diags:
 *          Terraform's for an address that does not parse (its text is
 *          the source "<module scope address>") or names no instance;
 *          one of ours (tfr_diag.ours) for an instance the tree has not
 *          evaluated (a module not installed, instances known only after
 *          apply, a walk stopped by errors).  Since 0.4.0.
 */
TFR_API const tfr_scope *tfr_resolution_scope(tfr_arena *a, tfr_diags *diags,
                                              const struct tfr_resolution *res,
                                              const char *address);

/** The i-th module call whose instances were not checked, or NULL when
 *  @p i is not below res->nunchecked.  Since 0.3.0. */
TFR_API const struct tfr_unchecked *
tfr_resolution_unchecked(const struct tfr_resolution *res, size_t i);

/** "not_installed", "no_directory", "data_sources" or "not_set".  Since
 *  0.3.0. */
TFR_API const char *tfr_unchecked_reason_name(enum tfr_unchecked_reason r);

/** The i-th variable of a child module instance (sorted by name), or NULL
 *  when @p i is not below inst->n.  Since 0.3.0. */
TFR_API const struct tfr_variable *
tfr_instance_variable(const struct tfr_instance *inst, size_t i);

/**
 * The resolution as the JSON document of `show -json` (doc/json-format.md):
 * every variable with its type, value (null when sensitive unless
 * @p show_sensitive), source and rules, then the diagnostics.
 */
TFR_API void tfr_resolution_write_json(FILE *out, tfr_arena *a,
                                       const struct tfr_resolution *res,
                                       const tfr_diags *d, bool show_sensitive);

/** Options of tfr_policy_check: start from TFR_POLICY_OPTS_INIT (the
 *  struct grows as resolution.h says).  Since 0.4.0. */
struct tfr_policy_opts {
  size_t size;      /* sizeof(struct tfr_policy_opts) */
  const char *dir;  /* the directory of the *.policy.hcl files */
  char *const *env; /* environ-style TFPOLICY_INPUT_* source, or NULL */
};

/** The defaults of tfr_policy_opts, with the program's struct size. */
#define TFR_POLICY_OPTS_INIT                                                   \
  { .size = sizeof(struct tfr_policy_opts) }

/**
 * HashiCorp Terraform Policy (a beta language) offline: every
 * `module_policy` block of every *.policy.hcl file in o->dir, each file on
 * its own, on every child module instance of @p res (a resolution with
 * tfr_resolve_opts.tree) whose source it names, with `attrs` the
 * instance's resolved variables and `meta` its source, installed version
 * and address.  A failed enforce block of a mandatory policy is an error
 * diagnostic, of an advisory one (the default) a warning, at the module
 * call, with tfr_diag.element the var file line the value came from
 * where there is one; every diagnostic it adds is tfresolve's own
 * (tfr_diag.ours).
 * @returns @p res, or a copy of it (owned by @p a) with valid false when
 *          a policy added an error.  Since 0.4.0.
 */
TFR_API const struct tfr_resolution *
tfr_policy_check(tfr_arena *a, tfr_diags *diags,
                 const struct tfr_resolution *res,
                 const struct tfr_policy_opts *o);

/** A module's configuration, loaded once (opaque). */
typedef struct tfr_module tfr_module;

/* ---- a module loaded once, resolved many times ---------------------- */

/**
 * Load the configuration of the module in @p dir (every file, override
 * files, the `variable` and `locals` blocks); its problems go to @p diags.
 */
TFR_API tfr_module *tfr_module_load(tfr_arena *a, tfr_diags *diags,
                                    const char *dir, bool opentofu);

/**
 * tfr_resolve on a module from tfr_module_load (o->dir and o->opentofu
 * are taken from the module; its load diagnostics are not repeated).
 * Several threads may resolve one module at once, each with its own
 * arena and diagnostics.
 */
TFR_API const struct tfr_resolution *
tfr_resolve_module(tfr_arena *a, tfr_diags *diags, const tfr_module *m,
                   const struct tfr_resolve_opts *o);

/** Where output goes instead of a FILE: called with each piece of text;
 *  returns how many bytes it took (fewer: an error, the writer stops). */
typedef size_t (*tfr_write_fn)(void *ctx, const char *data, size_t n);

/* ---- output streams and dumps -------------------------------------- */

/**
 * A FILE whose output goes to @p fn (with @p ctx), so that every writer
 * of this API (resolution JSON, values, diagnostics...) can write to a
 * buffer, a socket or a log of the caller's.  Close it with fclose(),
 * which sends what is buffered.  NULL when no stream can be made.
 */
TFR_API FILE *tfr_writer_open(tfr_write_fn fn, void *ctx);

/** Write a NUL-terminated string as a JSON string literal. */
TFR_API void tfr_json_write_cstr(FILE *out, const char *s);

/** Write the file's syntax tree as JSON (for debugging and tests). */
TFR_API void tfr_file_dump_json(const tfr_file *f, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
