/*
** tfresolve check [DIR]: the module's input variables resolved and
** validated as `terraform plan` would; the exit status says whether they
** are valid.  With -var-file-each or -recursive, many at once
** (check_many.c).
*/
#include <stdio.h>

#include "cli.h"
#include "options.h"
#include "cli_module.h"

/* How many of v's validation rules are deferred (known only after
** apply). */
static size_t deferred_rules(const struct tfr_variable *v) {
  size_t n = 0;
  for (size_t k = 0; k < v->nrules; k++)
    n += tfr_variable_rule(v, k)->result == TFR_RULE_DEFERRED;
  return n;
}

/* The diagnostics, then one line: how many variables are valid, or how
** many errors there are. */
static int check_out(const struct cli_opts *o,
                     const struct cli_module_result *r) {
  const struct tfr_resolution *res = r->res;
  cli_print_diags(r->d, &o->o);
  size_t errors = 0, deferred = 0, nchild = 0;
  for (size_t i = 0; i < tfr_diags_count(r->d); i++)
    errors += tfr_diags_get(r->d, i)->sev == TFR_DIAG_ERROR;
  for (size_t i = 0; i < res->n; i++)
    deferred += deferred_rules(tfr_resolution_variable(res, i));
  for (size_t i = 0; i < res->ninstances; i++) {
    const struct tfr_instance *in = tfr_resolution_instance(res, i);
    nchild += in->n;
    for (size_t j = 0; j < in->n; j++)
      deferred += deferred_rules(tfr_instance_variable(in, j));
  }
  const char *children =
      res->ninstances
          ? tfr_arena_printf(r->a, " (and %zu in %zu module instance%s)",
                             nchild, res->ninstances,
                             res->ninstances == 1 ? "" : "s")
          : "";
  const char *also = deferred
                         ? tfr_arena_printf(r->a,
                                            "; %zu validation rule%s deferred "
                                            "(known only after apply)",
                                            deferred, deferred == 1 ? "" : "s")
                         : "";
  const char *end =
      res->nunchecked
          ? tfr_arena_printf(r->a, "; %s:", cli_unchecked_count(r->a, res))
          : ".";
  if (res->valid)
    printf("Success! %zu variable%s resolved%s, all valid%s%s\n", res->n,
           res->n == 1 ? "" : "s", children, also, end);
  else
    printf("%zu error%s%s%s\n", errors, errors == 1 ? "" : "s", also, end);
  cli_print_unchecked(stdout, res, "  ");
  return r->rc;
}

static int run(struct cli_opts *o) {
  o->warn_dropped = true; /* what Terraform drops silently is said */
  return cli_module_run(o, check_out, false);
}

static const struct cli_choice formats[] = {
    {"human", FMT_HUMAN, NULL},
    {"json", FMT_JSON, NULL},
    {"sarif", FMT_SARIF, "SARIF 2.1.0"},
    {"github", FMT_GITHUB, "workflow commands"},
    {"junit", FMT_JUNIT, "JUnit XML"},
    {"plan-json", FMT_PLAN_JSON, "Terraform's plan JSON shape, for policies"},
    {NULL, 0, NULL}};

static const struct cli_option options[] = {
    CLI_OPT_INCLUDE(cli_opts_module),
    CLI_OPT_LIST("var-file-each", "GLOB", each,
                 "Check the module once per matching var file (repeatable), "
                 "in parallel, with a summary"),
    CLI_OPT_FLAG("recursive", recursive,
                 "Every root module below DIR, each with its own tfvars, "
                 "and every module they call through them",
                 0),
    CLI_OPT_LIST("affected-by", "FILE", affected,
                 "With -recursive: only the roots that use FILE "
                 "(repeatable; the pre-commit hook's changed files)"),
    CLI_OPT_VALUE("policy", "DIR", policy,
                  "Evaluate the module_policy blocks of the Terraform Policy "
                  "files (*.policy.hcl, a beta language) in DIR on every "
                  "module instance: mandatory failures are errors, "
                  "advisory ones warnings"),
    CLI_OPT_INCLUDE(cli_opts_module_end),
    CLI_OPT_END};

const struct cli_command cli_cmd_check = {
    .name = "check",
    .summary = "Resolve and validate; exit status says pass or fail",
    .run = run,
    .options = options,
    .formats = formats,
    .usage = "Usage: tfresolve check [options] [DIR]\n"
             "\n"
             "Resolve every input variable of the module in DIR (default: the\n"
             "current directory) as `terraform plan` would, print only the\n"
             "diagnostics, and say whether the inputs are valid.\n",
    .footer = cli_module_footer,
    .tfcmd = "plan",
    .flags = CLI_TF_FLAGS};
