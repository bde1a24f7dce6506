/*
** What `inspect` and `docs` share (iface_out.c): the module loaded once,
** its interface (tfresolve/interface.h), and its values in each
** environment (one var file each, as `check -var-file-each` resolves
** them), and the texts of a rule in words.
*/
#ifndef TFR_CLI_IFACE_OUT_H
#define TFR_CLI_IFACE_OUT_H

#include <stdbool.h>
#include <stddef.h>

#include "tfresolve/tfresolve.h"

struct cli_opts;

/* The command's one operand, the module directory (default "."), or
** NULL after a usage message (more operands, or not a directory): its
** exit status is then EXIT_USAGE. */
const char *iface_dir_operand(struct cli_opts *co);

/* One environment: the module resolved with one var file. */
struct iface_env {
  const char *file;
  tfr_diags *d;
  const struct tfr_resolution *res;
};

struct iface_run {
  tfr_arena *a;
  tfr_diags *d; /* the load's */
  const char *dir;
  tfr_module *mod;
  const struct tfr_interface *f;
  const struct tfr_resolution *base; /* no var file: the auto-loaded files
                                        only (what init sees) */
  struct iface_env *envs;
  size_t nenvs;
};

/* Load dir and resolve it once with no var file and once with each of
** files[0..n) (none reads TF_VAR_*).  False when dir has no
** configuration or does not load (r->d says why); r is filled all the
** same, with what could be read. */
bool iface_load(struct iface_run *r, const char *dir, bool opentofu,
                const char *const *files, size_t n);

/* The var files of -var-file-each patterns (brace and glob patterns);
** false after a message when a pattern matches nothing. */
bool iface_var_files(const char *const *patterns, size_t n, const char ***files,
                     size_t *nfiles);

/* A module call's source expression evaluated in res as init evaluates
** it, with res's const variables only: a known string, or NULL (*why:
** "not const" (it reads a variable that is not const), "unknown",
** "sensitive", "null", or the error's summary).  res NULL: no variable. */
const char *iface_call_source(const struct iface_run *r,
                              const struct tfr_resolution *res,
                              const char *expr, const char **why);

/* A variable's type as written, or, for a sensitive one whose
** optional attributes have defaults (its type's text holds values of
** the secret) unless show_sensitive, the type without them
** ("object({a=optional(string)})"); NULL when it has no type. */
const char *iface_type_text(tfr_arena *a, const struct tfr_iface_variable *v,
                            bool show_sensitive);

/* What a rule's condition says in words, when it reads as an allow-list
** or bounds ("one of \"a\", \"b\"", "at least 1 and at most 9",
** "length at most 63"), or NULL. */
const char *iface_rule_words(tfr_arena *a, const struct tfr_iface_rule *r);

#endif
