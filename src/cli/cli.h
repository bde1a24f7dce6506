/*
** The CLI's core (src/cli/main.c, cli.c and one cmd_NAME.c per command):
** exit statuses, output formats, diagnostics on stderr, the output check.
** Other shared pieces have their own headers: options.h (the command and
** option tables and their parser), cli_util.h (lists, paths),
** cli_types.h (types for people), cli_module.h (what show, check,
** explain and diff share), cli_eval.h (eval and console).
*/
#ifndef TFR_CLI_H
#define TFR_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "tfresolve/tfresolve.h"

enum { EXIT_OK = 0, EXIT_INVALID = 1, EXIT_USAGE = 2 };

/* The stack every thread of the CLI has: the evaluator, the YAML and JSON
** readers recurse once per nesting level of their input, up to their
** limits (10,000 levels), whatever the caller's `ulimit -s`. */
#define CLI_STACK_BYTES ((size_t)256 << 20)
/* The least stack cli_run_with_stack tries before the caller's own: the
** usual `ulimit -s`. */
#define CLI_MIN_STACK_BYTES ((size_t)8 << 20)

/* Memory ran out (in the CLI, or in the library: main.c makes it the
** library's handler, tfr_set_oom_handler): "tfresolve: out of memory" on
** stderr and exit status 2 (the tool could not run), at once: nothing
** more is allocated, no partial output is flushed. */
_Noreturn void cli_oom(void);

/* The CLI's one way to the C heap (it sees the library's public API
** only, not src/base/heap.h): malloc, calloc, realloc, strdup and
** strndup that never return NULL but end in cli_oom(); a size of 0 asks
** for 1 byte.  tests/alloc_lint.py fails on a raw call elsewhere. */
void *cli_alloc(size_t n);
void *cli_calloc(size_t n, size_t size);
void *cli_realloc(void *p, size_t n);
char *cli_strdup(const char *s);
char *cli_strndup(const char *s, size_t n);
/* getline, whose growing the line failing is cli_oom(), not the input's
** end. */
ssize_t cli_getline(char **line, size_t *cap, FILE *f);
/* open_memstream, and its fclose, whose failure (a write that found no
** memory) is cli_oom() too: the text is whole or the run ends. */
FILE *cli_memstream(char **buf, size_t *len);
void cli_memstream_close(FILE *f);

/* Run main_fn(argc, argv) on a thread with a stack of CLI_STACK_BYTES
** (reserved, committed only as it is used; not bound by `ulimit -s`), or
** of half that, a quarter... down to CLI_MIN_STACK_BYTES when the address
** space is short (`ulimit -v`), or on this thread if none can be
** started.  Returns its exit status, or
** EXIT_USAGE (said on stderr) when its output could not all be written:
** the one place where the output of every command is checked. */
int cli_run_with_stack(int (*main_fn)(int, char **), int argc, char **argv);

enum out_format {
  FMT_HUMAN,
  FMT_JSON,
  FMT_SHORT,
  FMT_YAML,
  FMT_TFVARS,
  FMT_ENV,
  FMT_SARIF,
  FMT_GITHUB,
  FMT_JUNIT,
  FMT_PLAN_JSON
};

struct options {
  enum out_format format;
  bool functions;
  bool ast;
  bool no_color;
  bool opentofu;
  bool show_sensitive;       /* eval, console: print sensitive values */
  bool third_party_warnings; /* each warning about a third-party module's
                                code, not only their count */
};

/* Diagnostics on stderr: framed as Terraform prints them (colour only on
** a terminal and without NO_COLOR), or one line each (FMT_SHORT). */
void cli_print_diags(const tfr_diags *d, const struct options *o);

/* src/lsp/server.c: the language server, reading its own arguments. */
int cmd_lsp(int argc, char **argv);

#endif
