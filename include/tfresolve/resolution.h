/*
** libtfresolve: the types of a resolution (value sources, options, what
** each variable resolved to).  tfresolve.h declares the functions.
**
** How these structs grow without breaking programs built against an
** older header (fields are only ever appended, never removed, reordered
** or retyped):
**
** - Options the caller allocates (tfr_resolve_opts; tfr_eval_opts in
**   tfresolve.h, tfr_test_opts in tftest.h, tfr_render_opts in diag.h)
**   begin with `size`, set by their _INIT macro to the sizeof the
**   program was compiled with:
**
**     struct tfr_resolve_opts o = TFR_RESOLVE_OPTS_INIT;
**     o.dir = "path/to/module";
**
**   The library reads only the first `size` bytes; the fields an older
**   program does not know keep their defaults, which are always zero.
**   A size of 0 (the macro not used) or below the first sized layout is
**   an error diagnostic (TFR_CODE_BAD_OPTIONS); for tfr_render_opts,
**   which has no list to report to, it renders with the defaults.  An
**   older library reads the fields it knows and no further (see below:
**   what a program has).
** - tfr_cli_arg arrays are read with the stride opts.arg_size (set by
**   TFR_RESOLVE_OPTS_INIT and TFR_TEST_OPTS_INIT to the program's
**   sizeof(struct tfr_cli_arg)),
**   under the same rules: a size in the opts, not one in every element,
**   so that an array is still built with calloc or `= {0}` per element.
** - Results the library allocates (tfr_resolution, tfr_variable,
**   tfr_attempt, tfr_rule) may be larger than the program's sizeof: read
**   their fields through the pointers the library gives, and reach the
**   elements of their arrays only through tfr_resolution_variable(),
**   tfr_variable_attempt() and tfr_variable_rule(), never by indexing
**   `vars`, `attempts` or `rules` (which would step with the program's
**   sizeof).  Those array members stay visible rather than hidden behind
**   an opaque type, as everything else a result holds is plain data, and
**   the counts (n, nattempts, nrules) are plain fields to read.
** - What a program has: a field appended later says since when ("since
**   0.2.0"; the fields without such a note are in every library that
**   has `size`).  A program that sets such an option, or reads such a
**   result field, and may run with an older library checks
**   tfr_version_number() >= that version (10000 * major + 100 * minor +
**   patch, as TFR_VERSION_NUMBER) first: an older library ignores the
**   option and does not allocate the field.  No layout version macro is
**   needed beside the sizes.
*/
#ifndef TFRESOLVE_RESOLUTION_H
#define TFRESOLVE_RESOLUTION_H

#include <stdbool.h>
#include <stddef.h>

#include "tfresolve/diag.h"
#include "tfresolve/value.h"
#include "tfresolve/syntax.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A -var or -var-file option, in command-line order (an element of
 *  tfr_resolve_opts.args, whose arg_size gives the stride). */
struct tfr_cli_arg {
  bool file; /* -var-file PATH (else -var NAME=VALUE) */
  const char *value;
  const char *content; /* with file: parse these content_len bytes as the
                          variables file named value, instead of reading
                          value from disk (NULL: read it) */
  size_t content_len;
  /* since 0.2.0: where the option came from when not the command line
  ** itself ("TF_CLI_ARGS_plan"), shown as its provenance; NULL: the
  ** command line */
  const char *via;
};

/* A loaded module (tfr_module_load; opaque). */
struct tfr_module;

/** Options of tfr_resolve: start from TFR_RESOLVE_OPTS_INIT. */
struct tfr_resolve_opts {
  size_t size;                    /* sizeof(struct tfr_resolve_opts) */
  const char *dir;                /* the module directory */
  char *const *env;               /* environ-style TF_VAR_* source, or NULL */
  const struct tfr_cli_arg *args; /* -var / -var-file, in order */
  size_t nargs;
  size_t arg_size;        /* sizeof(struct tfr_cli_arg): the stride of args */
  bool opentofu;          /* OpenTofu's file rules (.tofu) */
  bool declarations_only; /* the declared variables only (type, default,
                             rules, where declared): no value is read or
                             resolved, as a template or a listing needs */
  bool strict;            /* stricter than Terraform: undeclared
                             file values are errors, and a failed
                             HCL parse of an any-typed -var or
                             TF_VAR_ value is explained */
  bool keep_given;        /* fill tfr_variable.given even where a
                             faster path does not need it */
  bool missing_required_info; /* since 0.2.0: a required variable without
                                 a value is a warning, not an error (a
                                 reusable module, whose caller sets it):
                                 the rest resolves, that one has no
                                 value */
  const struct tfr_overlay *overlays; /* since 0.2.0: files read from
                                         here, not from disk */
  size_t noverlays;
  bool warn_dropped; /* since 0.2.0: without strict, the object attributes
                        a variable's type drops are warnings (strict makes
                        them errors) */
  bool tree; /* since 0.3.0: follow `module` blocks into every child module
                instance, as plan does (tfr_resolution.instances); a root
                without module blocks resolves as without it */
  struct tfr_cache *cache; /* since 0.3.0, with tree: child modules loaded
                              once for every resolution given this cache
                              (tfr_cache_new), in any thread; it must
                              outlive their results */
  bool skip_editor_files;  /* since 0.3.0: an auto-loaded variables file
                              named as an editor's lock, backup or swap
                              file (.#NAME, #NAME#, NAME~, .NAME.swp,
                              .NAME.swo: Emacs's lock of an unsaved
                              buffer is a dangling symbolic link
                              .#NAME.auto.tfvars) is not read, as a
                              language server needs (the open document is
                              the truth); Terraform reads every
                              *.auto.tfvars, and so does the default */
  const char *own_dir;     /* since 0.4.0, with tree: the top of the user's
                              own code (check -recursive's DIR): modules with
                              their files below it, and not under the root's
                              data directory, are the user's; others are
                              third-party (tfr_diag.third_party, -strict's
                              reach).  NULL: the module's own directory */
  bool unchecked_error;    /* since 0.4.0, with tree: a module call whose
                              instances are not checked
                              (tfr_resolution.unchecked) is an error, not a
                              warning; strict does the same */
  /* since 0.4.0: variables whose value only another tool knows when it
  ** runs (a terragrunt dependency output without a mock): each is set, as
  ** TF_VAR_ would set it, to a value unknown until then; the rules that
  ** read it are deferred */
  const char *const *unknown;
  size_t nunknown;
  bool undeclared_each; /* since 0.4.0: each value a file sets for an
                           undeclared variable is its own warning, in
                           Terraform's words, at the name that sets it
                           (Terraform names the first two without a
                           place and folds the rest): what an editor
                           shows on each line */
};

/** A cache of loaded child modules (tfr_cache_new); opaque.  Since 0.3.0. */
struct tfr_cache;

/** A file whose text replaces what is on disk while resolving (an editor's
 *  unsaved buffer): path as the library names the file, "DIR/NAME" with
 *  the DIR given in the options (or NAME when DIR is "."), or a -var-file
 *  path as given.  Since 0.2.0; this struct does not grow. */
struct tfr_overlay {
  const char *path;
  const char *text;
  size_t len;
};

/** The defaults of tfr_resolve_opts, with the program's struct sizes:
 *  `struct tfr_resolve_opts o = TFR_RESOLVE_OPTS_INIT;` */
#define TFR_RESOLVE_OPTS_INIT                                                  \
  {                                                                            \
    .size = sizeof(struct tfr_resolve_opts),                                   \
    .arg_size = sizeof(struct tfr_cli_arg)                                     \
  }

enum tfr_source_kind {
  TFR_SRC_NONE,
  TFR_SRC_DEFAULT,
  TFR_SRC_ENV,
  TFR_SRC_AUTO_FILE,
  TFR_SRC_NAMED_FILE,
  TFR_SRC_CLI,
  TFR_SRC_CONFIG, /* since 0.3.0: a module argument in the calling module
                     (a child instance's variable) */
};

/** One attempt to set a variable, from one source
 *  (tfr_variable_attempt). */
struct tfr_attempt {
  enum tfr_source_kind source;
  const char *file; /* for file sources */
  int line;         /* for file sources */
  const char *text; /* the value as written (text_len bytes, not
                       NUL-terminated: it points into the file) */
  size_t text_len;
  bool won;        /* the value Terraform uses */
  bool failed;     /* it could not be parsed or evaluated */
  const char *via; /* since 0.2.0: a -var or -var-file given through an
                      environment variable ("TF_CLI_ARGS_plan"), or NULL */
};

/** What a validation rule came to. */
enum tfr_rule_result {
  TFR_RULE_SKIPPED, /* not evaluated; detail says why */
  TFR_RULE_PASSED,
  TFR_RULE_FAILED,   /* detail: its error message */
  TFR_RULE_DEFERRED, /* cannot be known offline; detail says why */
  TFR_RULE_INVALID,  /* the rule itself has errors; detail: the first */
};

/** One `validation` block of a variable and its outcome
 *  (tfr_variable_rule). */
struct tfr_rule {
  struct tfr_range range; /* the validation block */
  enum tfr_rule_result result;
  const char *detail; /* NULL when it passed */
};

/** One declared variable and what it resolved to
 *  (tfr_resolution_variable). */
struct tfr_variable {
  const char *name;
  const tfr_type *type;   /* final type; the declared one on error */
  const tfr_value *value; /* NULL when it could not be resolved */
  bool sensitive;
  bool error;
  enum tfr_source_kind source;
  const char *source_file;            /* for file sources */
  int source_line;                    /* for file sources, else 0 */
  struct tfr_range decl;              /* `variable "x"` */
  const struct tfr_attempt *attempts; /* every source, lowest first:
                                         use tfr_variable_attempt() */
  size_t nattempts;
  const tfr_value *default_value; /* NULL when there is none */
  const tfr_type *declared;       /* the type constraint (any if none) */
  const tfr_value *given;         /* the winning value before conversion
                                     (may be NULL without keep_given) */
  bool literal_mode;              /* env/-var strings taken literally */
  bool typed;                     /* it has a `type` */
  bool nullable;
  const char *description;
  const struct tfr_rule *rules; /* its validation rules, in order
                                   (NULL when it has none): use
                                   tfr_variable_rule() */
  size_t nrules;
  const char *deprecated; /* its `deprecated` message, or NULL */
  bool ephemeral;
  /* Why value is NULL (NULL when it is resolved): the summary of its own
  ** first error ("No value for required variable"), or, when plan stops
  ** before it at another variable's error, "plan stops before this: "
  ** and that error ("var.project has no value"). */
  const char *reason; /* since 0.2.0, like the fields below */
  /* When plan stops before it: the value it would have if the errors that
  ** stop plan were not there (its own sources, conversion and validation
  ** rules), or NULL with the error it would meet in preview_error (NULL
  ** too when nothing could be computed).  A preview is never plan's
  ** value: value stays NULL and error true. */
  const tfr_value *preview;
  const struct tfr_diag *preview_error;
  /* the winning -var or -var-file came through this environment variable
  ** ("TF_CLI_ARGS_plan"), or NULL */
  const char *source_via;
  bool is_const; /* declared `const = true` (OpenTofu) */
  /* its `type` expression (filename NULL when it has none), and whether
  ** an override file replaced the type */
  struct tfr_range type_range;
  bool type_overridden;
  /* since 0.3.0, a child instance's variable (TFR_SRC_CONFIG): the
  ** argument's expression in the calling module, and the calling
  ** instance's variables it reads (directly or through local values) */
  struct tfr_range arg_range;
  const char *const *reads;
  size_t nreads;
  /* since 0.3.0: a value from a file, its expression there */
  struct tfr_range value_range;
  /* since 0.4.0, a child instance's variable whose argument takes its
  ** value whole from an element of a root variable set in a var file
  ** (through var., each.value and attribute or key steps): that element
  ** ("var.pools[\"spot\"].size"), where it is written, and the value it
  ** gave (also when a rule rejected it; NULL for a secret) */
  const char *from_element;
  struct tfr_range from_range;
  const tfr_value *from_value;
  /* since 0.4.0, a child instance's variable (TFR_SRC_CONFIG): the
  ** argument's expression as a parsed file (tfr_parse_expr's kind: for
  ** tfr_eval_const, tfr_expr_references); NULL otherwise */
  const tfr_file *arg_expr;
  /* since 0.4.0, a child instance's variable: declared `sensitive =
  ** true` (sensitive is true too when a sensitive value reaches it) */
  bool declared_sensitive;
};

/** A child module instance of the tree (tfr_resolution_instance); since
 *  0.3.0. */
struct tfr_instance {
  const char *address; /* module.a["k"].module.b */
  const char *call;    /* its module block's address: module.a.module.b */
  const char *source;  /* the block's source */
  const char *dir;     /* its directory, relative to the root module's */
  const struct tfr_variable *vars; /* sorted by name: use
                                      tfr_instance_variable() */
  size_t n;
  struct tfr_range call_range; /* `module "b"` in the calling module */
  const char *parent;          /* the calling instance's address ("" for
                                  the root module) */
  /* since 0.4.0: the module block's `version` (NULL: none), and its
  ** `count` or `for_each` expression as a parsed file (NULL: none; see
  ** tfr_variable.arg_expr) */
  const char *version;
  const tfr_file *count_expr;
  const tfr_file *for_each_expr;
  /* since 0.4.0: the version `terraform init` installed (its
  ** .terraform/modules/modules.json record), or NULL (a local module) */
  const char *installed_version;
};

/** Why the instances of a module call were not checked
 *  (tfr_unchecked); since 0.3.0. */
enum tfr_unchecked_reason {
  TFR_UNCHECKED_NOT_INSTALLED, /* a remote source (registry, git...) that
                                  `terraform init` has not installed: not
                                  in .terraform/modules/modules.json, or
                                  its directory there is gone */
  TFR_UNCHECKED_NO_DIRECTORY,  /* a local source whose directory does not
                                  exist */
  TFR_UNCHECKED_DATA_SOURCES,  /* its count or for_each comes from data
                                  sources, which only plan reads: how many
                                  instances, and which, is not known */
  TFR_UNCHECKED_NOT_SET,       /* its count or for_each reads a root
                                  variable without a value that
                                  missing_required_info lets pass */
};

/** A module call of the tree whose instances were not checked: their
 *  variables are neither resolved nor validated, nor are the modules
 *  they call (tfr_resolution_unchecked).  Since 0.3.0. */
struct tfr_unchecked {
  const char *address; /* the call in its calling instance
                          (module.a["k"].module.b), or, for a module
                          not installed or not found, the call path
                          (module.a.module.b: in every instance of
                          module.a) */
  enum tfr_unchecked_reason reason;
  const char *why;        /* the reason in a few words, for a summary
                             ("not installed: run \"terraform init\"") */
  struct tfr_range range; /* the module block, or its count/for_each */
};

/** The variables of a module and what they resolved to. */
struct tfr_resolution {
  const struct tfr_variable *vars; /* sorted by name: use
                                      tfr_resolution_variable() */
  size_t n;
  bool valid;                      /* no error diagnostics */
  bool has_config;                 /* the directory has configuration */
  const struct tfr_module *module; /* the loaded module it resolves
                                      (for tfr_eval_functions_opts) */
  /* since 0.3.0: with tfr_resolve_opts.tree and module blocks in the
  ** root, the child module instances, in the tree's order (depth first,
  ** calls by name, instances by key): use tfr_resolution_instance() */
  bool tree;
  const struct tfr_instance *instances;
  size_t ninstances;
  /* since 0.3.0: plan stopped while loading the configuration (an error
  ** of a .tf file), before reading any value; the values it can read are
  ** previews (tfr_variable.preview) */
  bool config_failed;
  /* since 0.3.0: when plan stopped before reading the values as it does
  ** (config_failed, or a variables file that cannot be read), what
  ** reading the others said: the diagnostics plan will give once the
  ** stopping error is fixed (an editor can show them); NULL otherwise */
  const tfr_diags *preview_diags;
  /* since 0.3.0: with tree, the module calls whose instances were not
  ** checked, by address: use tfr_resolution_unchecked() */
  const struct tfr_unchecked *unchecked;
  size_t nunchecked;
  /* since 0.4.0: the library's own, opaque (the module tree walked, which
  ** tfr_resolution_scope and tfr_resolution_config_modules read): a copy
  ** of the struct keeps it, one made from nothing has NULL */
  const void *walked;
};

#ifdef __cplusplus
}
#endif

#endif
