/*
** tfresolve parse FILE|DIR...: syntax-check configuration and variables
** files, reporting errors the way Terraform reports them.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "options.h"
#include "cli_util.h"

static bool is_config_name(const char *name) {
  static const char *const exts[] = {".tf",        ".tf.json", ".tofu",
                                     ".tofu.json", ".tfvars",  ".tfvars.json"};
  if (name[0] == '.' || name[0] == '#' || cli_has_suffix(name, "~"))
    return false;
  for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
    if (cli_has_suffix(name, exts[i]))
      return true;
  return false;
}

/* Every configuration file below dir, in lexical order. */
static void walk(struct cli_names *out, const char *dir) {
  struct cli_names here = {0};
  if (!cli_list_dir(dir, NULL, NULL, &here))
    return;
  for (size_t i = 0; i < here.n; i++) {
    char *full = cli_path_join(dir, here.v[i]);
    struct stat st;
    if (stat(full, &st) == 0 && S_ISDIR(st.st_mode))
      walk(out, full);
    else if (is_config_name(here.v[i]))
      cli_names_add(out, full);
    free(full);
  }
  cli_names_free(&here);
}

static int run(struct cli_opts *co) {
  struct options o = co->o;
  struct cli_names files = {0};
  int rc = EXIT_OK;
  for (size_t i = 0; i < co->operands.n; i++) {
    const char *arg = co->operands.v[i];
    struct stat st;
    if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode))
      walk(&files, arg);
    else
      cli_names_add(&files, arg);
  }
  if (!files.n)
    return cli_usage_error(co->cmd, "no files to parse");
  tfr_arena *a = tfr_arena_new();
  tfr_diags *diags = tfr_diags_new(a);
  size_t bad = 0;
  if (o.format == FMT_JSON)
    fputs("{\"files\": [", stdout);
  for (size_t i = 0; i < files.n; i++) {
    size_t before = tfr_diags_count(diags);
    tfr_file *f = tfr_parse_file(a, diags, files.v[i], TFR_SYNTAX_AUTO);
    if (!f && tfr_diags_count(diags) > before)
      bad++;
    if (o.format == FMT_JSON)
      printf("%s\"%s\"", i ? ", " : "", files.v[i]);
    if (f && o.ast && o.format != FMT_JSON)
      tfr_file_dump_json(f, stdout);
    free(files.v[i]);
  }
  size_t nfiles = files.n;
  free(files.v);
  bool errors = tfr_diags_has_errors(diags);
  if (o.format == FMT_JSON) {
    printf("], \"valid\": %s, \"diagnostics\": ", errors ? "false" : "true");
    tfr_diags_render_json(diags, stdout);
    fputs("}\n", stdout);
  } else {
    cli_print_diags(diags, &o);
    if (o.format == FMT_HUMAN && !o.ast)
      printf("Parsed %zu file%s: %s.\n", nfiles, nfiles == 1 ? "" : "s",
             bad ? tfr_arena_printf(a, "%zu with errors", bad)
                 : "no syntax errors");
  }
  if (errors)
    rc = EXIT_INVALID;
  tfr_arena_free(a);
  return rc;
}

static const struct cli_choice formats[] = {
    {"human", FMT_HUMAN, NULL},
    {"json", FMT_JSON, NULL},
    {"short", FMT_SHORT, "one \"file:line:column: error: summary\" line"},
    {NULL, 0, NULL}};

static const struct cli_option options[] = {
    CLI_OPT_FLAG("ast", o.ast, "Print each file's syntax tree as JSON", 0),
    CLI_OPT_INCLUDE(cli_opts_format), CLI_OPT_INCLUDE(cli_opts_no_color),
    CLI_OPT_INCLUDE(cli_opts_help), CLI_OPT_END};

const struct cli_command cli_cmd_parse = {
    .name = "parse",
    .summary = "Syntax-check .tf, .tf.json, .tfvars and .tfvars.json files",
    .run = run,
    .options = options,
    .formats = formats,
    .usage = "Usage: tfresolve parse [options] FILE|DIR...\n"
             "\n"
             "Parse every given file, and every .tf, .tf.json, .tofu, "
             ".tofu.json,\n"
             ".tfvars and .tfvars.json file below each given directory, and "
             "report\n"
             "syntax errors the way Terraform reports them.\n",
    .footer = "Exit status: 0 no errors, 1 syntax errors, 2 usage error.\n"};
