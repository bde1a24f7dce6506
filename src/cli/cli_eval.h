/*
** What eval and console share (src/cli/cli_eval.c): one expression
** evaluated and printed in the command's format, and the module of the
** current directory as their scope.
*/
#ifndef TFR_CLI_EVAL_H
#define TFR_CLI_EVAL_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"

struct cli_opts; /* options.h */

/* What eval and console evaluate in. */
struct eval_env {
  const char *name;                    /* the input's name in diagnostics */
  const char *type_text;               /* convert results to this type */
  const struct tfr_resolution *module; /* console scope, or NULL */
  const struct tfr_scope *scope;       /* -scope's module instance, or NULL */
  size_t yaml_docs;                    /* YAML documents written so far */
  FILE *out;                           /* where results go: stdout */
};

/* Evaluate one expression (and convert it to env->type_text if given),
** print its value or its errors: whether it had none. */
bool cli_eval_one(const char *text, struct eval_env *env,
                  const struct options *o);

/* Resolve the module of the current directory for console scope; NULL
** when it has no configuration.  Its problems are shown once, on stderr:
** a variable that could not be resolved is unknown in expressions. */
const struct tfr_resolution *cli_console_module(tfr_arena *a,
                                                const struct tfr_cli_arg *args,
                                                size_t nargs, bool no_env,
                                                const struct options *o);

/* The scope of console and eval -functions, in a: the module of the
** current directory resolved (cli_console_module) into env->module and,
** with -scope=ADDRESS, the module instance of its tree into env->scope.
** False after the error is shown (Terraform's, or ours: OpenTofu's
** console has no -scope); *status is then the exit status. */
bool cli_eval_setup(tfr_arena *a, struct eval_env *env,
                    const struct cli_opts *co, const struct options *o,
                    int *status);

#endif
