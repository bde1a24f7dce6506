/*
** tfresolve lsp: the language server (src/lsp/), which reads its own
** arguments; its options are declared here for the help, the man page
** and the completions to be checked against.
*/
#include "cli.h"
#include "options.h"

static int run(struct cli_opts *o) { return cmd_lsp(o->argc, o->argv); }

static const struct cli_option options[] = {
    CLI_OPT_INCLUDE(cli_opts_help),
    /* what editors pass: stdio is the only transport */
    {.kind = CLI_FLAG, .name = "stdio", .flags = CLI_HIDDEN},
    CLI_OPT_END};

const struct cli_command cli_cmd_lsp = {
    .name = "lsp",
    .summary = "A language server for editors (LSP over stdio)",
    .run = run,
    .options = options,
    .flags = CLI_RAW};
