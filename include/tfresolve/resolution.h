/*
** libtfresolve: the types of a resolution (value sources, options, what
** each variable resolved to).  No functions: tfresolve.h declares them.
*/
#ifndef TFRESOLVE_RESOLUTION_H
#define TFRESOLVE_RESOLUTION_H

#include <stdbool.h>
#include <stddef.h>

#include "tfresolve/diag.h"
#include "tfresolve/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A -var or -var-file option, in command-line order. */
struct tfr_cli_arg {
  bool file; /* -var-file PATH (else -var NAME=VALUE) */
  const char *value;
  const char *content; /* with file: parse these content_len bytes as the
                          variables file named value, instead of reading
                          value from disk (NULL: read it) */
  size_t content_len;
};

/* A loaded module (tfr_module_load; opaque). */
struct tfr_module;

struct tfr_resolve_opts {
  const char *dir;                /* the module directory */
  char *const *env;               /* environ-style TF_VAR_* source, or NULL */
  const struct tfr_cli_arg *args; /* -var / -var-file, in order */
  size_t nargs;
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
  const char *file; /* for file sources */
  int line;         /* for file sources */
  const char *text; /* the value as written (text_len bytes, not
                       NUL-terminated: it points into the file) */
  size_t text_len;
  bool won;    /* the value Terraform uses */
  bool failed; /* it could not be parsed or evaluated */
};

/** What a validation rule came to. */
enum tfr_rule_result {
  TFR_RULE_SKIPPED, /* not evaluated; detail says why */
  TFR_RULE_PASSED,
  TFR_RULE_FAILED,   /* detail: its error message */
  TFR_RULE_DEFERRED, /* cannot be known offline; detail says why */
  TFR_RULE_INVALID,  /* the rule itself has errors; detail: the first */
};

/** One `validation` block of a variable and its outcome. */
struct tfr_rule {
  struct tfr_range range; /* the validation block */
  enum tfr_rule_result result;
  const char *detail; /* NULL when it passed */
};

/** One declared variable and what it resolved to. */
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
  const struct tfr_attempt *attempts; /* every source, lowest first */
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
                                   (NULL when it has none) */
  size_t nrules;
  const char *deprecated; /* its `deprecated` message, or NULL */
  bool ephemeral;
};

struct tfr_resolution {
  const struct tfr_variable *vars; /* sorted by name */
  size_t n;
  bool valid;                      /* no error diagnostics */
  bool has_config;                 /* the directory has configuration */
  const struct tfr_module *module; /* the loaded module it resolves
                                      (for tfr_eval_functions_opts) */
};

#ifdef __cplusplus
}
#endif

#endif
