/*
** tfresolve cli-tables (not listed): the command and option tables, one
** line each, for tests/cli_docs.py to hold the help, the man page and the
** shell completions against:
**   command NAME [own-help]
**   option COMMAND -NAME flag|value|list [hidden] [ignored]
**   format COMMAND NAME
**   global -NAME
*/
#include <stdio.h>

#include "cli.h"
#include "options.h"

static const char *kind(const struct cli_option *opt) {
  switch (opt->kind) {
  case CLI_LIST:
    return "list";
  case CLI_VALUE:
  case CLI_CHOICE:
    return "value";
  case CLI_CALL:
    return opt->arg ? "value" : "flag";
  default:
    return "flag";
  }
}

static void line(const struct cli_option *opt, void *ctx) {
  printf("option %s -%s %s%s%s\n", (const char *)ctx, opt->name, kind(opt),
         opt->flags & CLI_HIDDEN ? " hidden" : "",
         opt->flags & CLI_IGNORED ? " ignored" : "");
}

static int run(struct cli_opts *o) {
  (void)o;
  for (const struct cli_command *const *c = cli_commands; *c; c++) {
    if ((*c)->flags & CLI_SECRET)
      continue;
    /* own-help: the command prints a help of its own (src/lsp/server.c's) */
    printf("command %s%s\n", (*c)->name,
           (*c)->flags & CLI_RAW ? " own-help" : "");
    cli_each_option(*c, line, (void *)(*c)->name);
    for (const struct cli_choice *f = (*c)->formats; f && f->name; f++)
      printf("format %s %s\n", (*c)->name, f->name);
  }
  for (const struct cli_global *g = cli_globals; g->name; g++)
    printf("global -%s\n", g->name);
  return EXIT_OK;
}

const struct cli_command cli_cmd_tables = {
    .name = "cli-tables",
    .summary = "The command and option tables (for the tests)",
    .run = run,
    .options = NULL,
    .usage = "Usage: tfresolve cli-tables\n",
    .flags = CLI_SECRET | CLI_RAW};
