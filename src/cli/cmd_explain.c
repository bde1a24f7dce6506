/*
** tfresolve explain NAME... [DIR]: the whole story of a variable (the
** story itself is told by explain.c).
*/
#include <stdio.h>

#include "cli.h"
#include "options.h"
#include "cli_module.h"

static int explain_out(const struct cli_opts *o,
                       const struct cli_module_result *r) {
  return cli_explain(r->a, r->res, r->d, r->names, r->nnames, o->all,
                     o->o.show_sensitive, &o->o);
}

static int run(struct cli_opts *o) {
  return cli_module_run(o, explain_out, true);
}

static const struct cli_choice formats[] = {
    {"human", FMT_HUMAN, NULL}, {"json", FMT_JSON, NULL}, {NULL, 0, NULL}};

static const struct cli_option options[] = {
    CLI_OPT_INCLUDE(cli_opts_module),
    CLI_OPT_FLAG("all", all, "Every variable (and every child instance's)",
                 CLI_NOVAL),
    CLI_OPT_INCLUDE(cli_opts_module_end), CLI_OPT_END};

const struct cli_command cli_cmd_explain = {
    .name = "explain",
    .summary = "Every source that set one variable, and which won",
    .run = run,
    .options = options,
    .formats = formats,
    .usage =
        "Usage: tfresolve explain [options] NAME... [DIR]\n"
        "       tfresolve explain [options] -all [DIR]\n"
        "\n"
        "Resolve the input variables of the module in DIR (default: the\n"
        "current directory) as `terraform plan` would, and tell the whole\n"
        "story of each one named: every source that tried to set it, in\n"
        "precedence order, which one won and why, and the conversion.  With\n"
        "-json, each variable's whole story as JSON (doc/json-format.md).\n",
    .footer = cli_module_footer,
    .tfcmd = "plan",
    .flags = CLI_TF_FLAGS};
