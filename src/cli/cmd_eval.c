/*
** tfresolve eval EXPRESSION...: expressions evaluated as Terraform
** evaluates tfvars values (constants), or with -functions as its console
** does, each printed as it is evaluated.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cli.h"
#include "options.h"
#include "cli_eval.h"

static int run(struct cli_opts *co) {
  struct options o = co->o;
  struct eval_env env = {0};
  env.type_text = co->type;
  const char *const *exprs = co->operands.v;
  size_t nexprs = co->operands.n;
  if (!nexprs)
    return cli_usage_error(co->cmd, "no expression given");
  if (co->scope) /* a module instance's values: console mode */
    o.functions = true;
  tfr_arena *a = tfr_arena_new();
  int status;
  if (o.functions && !cli_eval_setup(a, &env, co, &o, &status)) {
    tfr_arena_free(a);
    return status;
  }
  /* Each expression in turn, in the same scope; "-" stands for the lines
  ** of standard input, one expression each. */
  bool all = true;
  for (size_t i = 0; i < nexprs; i++) {
    if (strcmp(exprs[i], "-") != 0) {
      all &= cli_eval_one(exprs[i], &env, &o);
      continue;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = cli_getline(&line, &cap, stdin)) > 0) {
      if (line[n - 1] == '\n')
        line[n - 1] = '\0';
      all &= cli_eval_one(line, &env, &o);
    }
    free(line);
  }
  tfr_arena_free(a);
  return all ? EXIT_OK : EXIT_INVALID;
}

static const struct cli_choice formats[] = {
    {"console", FMT_HUMAN, NULL},
    {"json", FMT_JSON,
     "{\"type\": T, \"value\": V}, cty's JSON encodings, or "
     "{\"error\": {\"summary\": ..., \"detail\": ...}}"},
    {"yaml", FMT_YAML, NULL},
    {NULL, 0, NULL}};

static const struct cli_option options[] = {
    CLI_OPT_FLAG("functions", o.functions,
                 "Console mode: functions and the module's values (tfvars "
                 "values may not call functions or refer to anything)",
                 0),
    CLI_OPT_INCLUDE(cli_opts_scope),
    CLI_OPT_VALUE("type", "TYPE", type,
                  "Convert the result to a type constraint, as Terraform "
                  "converts a variable value (optional() defaults apply)"),
    CLI_OPT_INCLUDE(cli_opts_format),
    CLI_OPT_INCLUDE(cli_opts_engine),
    CLI_OPT_INCLUDE(cli_opts_chdir),
    CLI_OPT_INCLUDE(cli_opts_sources),
    CLI_OPT_INCLUDE(cli_opts_no_env),
    CLI_OPT_INCLUDE(cli_opts_sensitive),
    CLI_OPT_INCLUDE(cli_opts_no_color),
    CLI_OPT_INCLUDE(cli_opts_help),
    CLI_OPT_END};

const struct cli_command cli_cmd_eval = {
    .name = "eval",
    .summary = "Evaluate a constant expression, optionally converted to a "
               "type",
    .run = run,
    .options = options,
    .formats = formats,
    .usage =
        "Usage: tfresolve eval [options] [--] EXPRESSION...\n"
        "       tfresolve eval [options] -\n"
        "\n"
        "Evaluate an expression the way Terraform evaluates tfvars values\n"
        "(constants: no variables, no function calls) and print the result in\n"
        "Terraform console style.  Several expressions are evaluated in turn,\n"
        "each printed as it is evaluated; \"-\" reads one expression per line\n"
        "from standard input; after \"--\", an expression may start with "
        "\"-\".\n"
        "With -functions, evaluate it as `terraform console`\n"
        "does in the module of the current directory: Terraform's functions,\n"
        "var.* (resolved from every value source), local.*, module.NAME,\n"
        "path.* and terraform.workspace; -scope=ADDRESS (which implies\n"
        "-functions) evaluates in that module instance of the tree instead,\n"
        "as `terraform console -scope` does.  -var, -var-file and -no-env\n"
        "are the value sources of the module's variables, as for show.\n"
        "A sensitive value\n"
        "is printed only with -show-sensitive (otherwise the console shows\n"
        "\"(sensitive value)\", JSON null with \"sensitive\": true, YAML a\n"
        "comment).\n",
    .footer = "Exit status: 0 evaluated, 1 errors (in any expression), 2 "
              "usage error.\n"};
