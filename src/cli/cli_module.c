/*
** What show, check and explain share: their options (they stand for
** `terraform plan`, whose options that change no value they accept), the
** module directory operand, the resolution and its output in the formats
** every one of them has.  Each command's own output is in its file.
*/
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "options.h"
#include "cli_module.h"
#include "cli_util.h"

extern char **environ;

static const struct cli_choice levels[] = {
    {"error", 0, NULL}, {"info", 1, NULL}, {NULL, 0, NULL}};

static const struct cli_choice unchecked_levels[] = {
    {"warning", 0, NULL}, {"error", 1, NULL}, {NULL, 0, NULL}};

#define PLAN_FLAG(n)                                                           \
  { .kind = CLI_FLAG, .name = (n), .flags = CLI_IGNORED }
#define PLAN_VALUE(n)                                                          \
  { .kind = CLI_VALUE, .name = (n), .arg = "V", .flags = CLI_IGNORED }

/* terraform plan's options that change no variable's value, accepted so
** that a plan command line works unchanged (a value as "=" or the next
** argument, as Go's flag package reads them); nothing is stored. */
static const struct cli_option plan_options[] = {
    PLAN_FLAG("compact-warnings"),
    PLAN_FLAG("destroy"),
    PLAN_FLAG("detailed-exitcode"),
    PLAN_VALUE("exclude"),
    PLAN_VALUE("generate-config-out"),
    PLAN_FLAG("input"),
    PLAN_FLAG("lock"),
    PLAN_VALUE("lock-timeout"),
    PLAN_VALUE("out"),
    PLAN_VALUE("parallelism"),
    PLAN_FLAG("refresh"),
    PLAN_FLAG("refresh-only"),
    PLAN_VALUE("replace"),
    PLAN_VALUE("state"),
    PLAN_VALUE("target"),
    CLI_OPT_END};

/* The options of every module command, before its own. */
const struct cli_option cli_opts_module[] = {
    CLI_OPT_INCLUDE(cli_opts_sources),
    CLI_OPT_INCLUDE(cli_opts_chdir),
    CLI_OPT_INCLUDE(cli_opts_no_env),
    CLI_OPT_INCLUDE(cli_opts_format),
    CLI_OPT_INCLUDE(cli_opts_engine),
    CLI_OPT_FLAG("strict", strict,
                 "Stricter than Terraform: values for undeclared variables "
                 "in files are errors, and so is every object attribute a "
                 "variable's type drops (misspelt ones) in your own code; a "
                 "-var or TF_VAR_ value of an any-typed variable that is "
                 "not valid HCL is explained; Terraform's own errors are "
                 "all still reported",
                 0),
    CLI_OPT_INCLUDE(cli_opts_no_modules),
    CLI_OPT_VALUE("terragrunt", "FILE", terragrunt,
                  "Read the terragrunt unit FILE (terragrunt.hcl) and check "
                  "its module with the values terragrunt would pass; a DIR "
                  "holding terragrunt.hcl is read so by itself"),
    CLI_OPT_FLAG("third-party-warnings", o.third_party_warnings,
                 "Show each warning about code inside a third-party module "
                 "(under .terraform/modules, or outside the checked "
                 "directory); by default they are counted in one line",
                 0),
    {.kind = CLI_CHOICE,
     .name = "missing-required",
     .arg = "info",
     .off = CLI_OFF(missing),
     .choices = levels,
     .help = "A required variable without a value is a warning, not an "
             "error (reusable modules: the caller sets it); the rest is "
             "checked (default: error)"},
    {.kind = CLI_CHOICE,
     .name = "unchecked",
     .arg = "error",
     .off = CLI_OFF(unchecked),
     .choices = unchecked_levels,
     .help = "A module whose instances are not checked (not installed, "
             "directory missing, instances that depend on data sources) is "
             "an error, not a warning (default: warning; -strict too)"},
    CLI_OPT_END};

/* What every module command has after its own options. */
const struct cli_option cli_opts_module_end[] = {
    CLI_OPT_INCLUDE(cli_opts_sensitive), CLI_OPT_INCLUDE(cli_opts_no_color),
    CLI_OPT_INCLUDE(cli_opts_help), CLI_OPT_INCLUDE(plan_options), CLI_OPT_END};

const char cli_module_footer[] =
    "terraform plan's options that change no value (-out, -target,\n"
    "-refresh, -parallelism, -lock...) are accepted and change nothing.\n"
    "TF_CLI_ARGS_plan and TF_CLI_ARGS come before the arguments, as in\n"
    "Terraform.\n"
    "\n"
    "Exit status: 0 valid, 1 invalid inputs, 2 usage error.\n";

/* The module directory (and explain's names) from the operands; false
** after a usage message. */
static bool operands(struct cli_opts *o, bool explain, const char **dir,
                     struct cli_strs *names) {
  const struct cli_command *c = o->cmd;
  struct cli_strs *ops = &o->operands;
  *dir = ".";
  if (!explain) {
    if (ops->n > 1) {
      cli_usage_error(c, "too many arguments: \"%s\" (one module directory)",
                      ops->v[1]);
      return false;
    }
    *dir = ops->n ? ops->v[0] : ".";
    return cli_unit_here(*dir) || cli_module_dir_ok(c->name, *dir);
  }
  /* explain NAME... [DIR]: a last operand that is a directory is DIR
  ** (with -all, the only operand) */
  *names = *ops;
  struct stat st;
  const char *last = names->n ? names->v[names->n - 1] : "";
  if (names->n && (o->all || names->n > 1) &&
      ((stat(last, &st) == 0 && S_ISDIR(st.st_mode)) ||
       (strchr(last, '/') && cli_unit_here(last)))) /* a stack's unit */
    *dir = names->v[--names->n];
  if (o->all && names->n) {
    cli_usage_error(c, "-all or names, not both");
    return false;
  }
  if (!names->n && !o->all) {
    cli_usage_error(c, "which variable?");
    return false;
  }
  return cli_unit_here(*dir) || cli_module_dir_ok(c->name, *dir);
}

/* terraform plan's options given: said to do nothing here. */
static void note_ignored(const struct cli_opts *o) {
  if (!o->nignored)
    return;
  fputs("tfresolve: note: ", stderr);
  for (size_t i = 0; i < o->nignored; i++)
    fprintf(stderr, "%s-%s", i ? ", " : "", o->ignored[i]);
  fputs(": options of terraform plan that change no variable's value, so "
        "nothing here (no plan is written, no state is read)\n",
        stderr);
}

/* check -policy=DIR: DIR can be listed; else a message and false (the
** tool cannot run: exit status 2, as for the module directory). */
static bool policy_dir_ok(const struct cli_opts *o) {
  struct stat st;
  bool ok = stat(o->policy, &st) == 0 && S_ISDIR(st.st_mode);
  DIR *d = ok ? opendir(o->policy) : NULL;
  if (d)
    closedir(d);
  else
    fprintf(stderr, "tfresolve %s: cannot read the policy directory %s\n",
            o->cmd->name, o->policy);
  return d != NULL;
}

/* check -var-file-each / -recursive: many resolutions at once. */
static int check_many(const struct cli_opts *o, const char *dir) {
  struct many_opts mo = {&o->o,
                         dir,
                         o->no_env ? NULL : environ,
                         o->args,
                         o->nargs,
                         o->o.opentofu,
                         o->strict,
                         o->o.show_sensitive,
                         o->each.v,
                         o->each.n,
                         o->recursive,
                         o->affected.v,
                         o->affected.n,
                         o->missing == 1,
                         !o->no_modules,
                         o->unchecked == 1,
                         NULL,
                         o->policy};
  return cli_check_many(&mo);
}

/* The resolution options of the module in dir, as the options say. */
static void resolve_opts(tfr_arena *a, tfr_diags *d, const struct cli_opts *o,
                         const char *dir, bool explain,
                         struct tfr_resolve_opts *ro) {
  ro->dir = dir;
  ro->env = o->no_env ? NULL : environ;
  ro->args = o->args;
  ro->nargs = o->nargs;
  ro->opentofu = o->o.opentofu;
  ro->declarations_only = o->bad_flag != NULL;
  ro->strict = o->strict;
  ro->tree = !o->no_modules;
  ro->missing_required_info = o->missing == 1;
  ro->unchecked_error = o->unchecked == 1;
  /* explain shows the conversion; plan JSON has the values as given */
  ro->keep_given = explain || o->o.format == FMT_PLAN_JSON;
  /* explain tells the whole story, check warns before apply: the
  ** attributes the type drops too, as warnings (-strict: errors); the
  ** verdict stays Terraform's */
  ro->warn_dropped = explain || o->warn_dropped;
  if (o->bad_flag) {
    /* as Terraform: the variables are listed, none is resolved */
    tfr_diags_add(
        d, TFR_DIAG_ERROR, NULL, "Failed to parse command-line flags",
        tfr_arena_printf(a, "flag provided but not defined: %s", o->bad_flag));
    if (o->suggested) /* ours, after Terraform's words */
      tfr_diags_set_note(
          d, tfr_arena_printf(a, "Did you mean \"%s\"?", o->suggested));
  }
}

void cli_show_json(tfr_arena *a, const struct tfr_resolution *res,
                   const tfr_diags *d, bool show_sensitive) {
  tfr_resolution_write_json(stdout, a, res, d, show_sensitive);
}

/* show -changed: a variable something sets (a value, or its preview,
** unlike its default; or one without a default that is set). */
static bool is_changed(const struct tfr_variable *v, void *ctx) {
  (void)ctx;
  if (v->source == TFR_SRC_DEFAULT || v->source == TFR_SRC_NONE)
    return false;
  const tfr_value *val = v->value ? v->value : v->preview;
  return !(val && v->default_value && tfr_value_equal(val, v->default_value));
}

/* show -required: a variable without a default. */
static bool is_required(const struct tfr_variable *v, void *ctx) {
  (void)ctx;
  return !v->default_value;
}

/* The output every module command has in the machine formats; false
** when the format is the command's own (human). */
static bool write_format(tfr_arena *a, const struct tfr_resolution *res,
                         const tfr_diags *d, const struct cli_opts *o) {
  enum out_format f = o->o.format;
  if (f == FMT_JSON) {
    cli_show_json(a, res, d, o->o.show_sensitive);
  } else if (f == FMT_PLAN_JSON) {
    cli_plan_json(a, res, d, o->o.show_sensitive);
  } else if (f == FMT_SARIF || f == FMT_GITHUB || f == FMT_JUNIT) {
    struct report_env env = {NULL, res, d};
    report_write(stdout, f, &env, 1);
  } else if (f == FMT_YAML || f == FMT_TFVARS || f == FMT_ENV) {
    cli_show_values(a, res, f, o->o.show_sensitive);
    cli_print_diags(d, &o->o);
  } else {
    return false;
  }
  return true;
}

int cli_module_run(struct cli_opts *o, cli_module_out *out, bool explain) {
  const char *dir;
  struct cli_strs names = {0};
  if (!operands(o, explain, &dir, &names))
    return EXIT_USAGE;
  note_ignored(o);
  if (o->policy && !policy_dir_ok(o))
    return EXIT_USAGE;
  bool stack = !strcmp(o->cmd->name, "check") && !o->terragrunt &&
               cli_stack_here(dir) && !cli_unit_here(dir);
  if ((o->each.n || o->recursive || o->affected.n || stack) && !o->bad_flag) {
    if (o->o.format == FMT_PLAN_JSON) { /* a plan is of one module */
      cli_usage_error(o->cmd, "-format=plan-json describes one module "
                              "with one set of values: not with "
                              "-var-file-each, -recursive or -affected-by");
      return EXIT_USAGE;
    }
    return check_many(o, dir);
  }
  tfr_arena *a = tfr_arena_new();
  tfr_diags *d = tfr_diags_new(a);
  const struct tfr_resolution *res;
  const char *tg = o->terragrunt                               ? o->terragrunt
                   : cli_unit_here(dir) || cli_stack_here(dir) ? dir
                                                               : NULL;
  struct tfr_resolve_opts ro = TFR_RESOLVE_OPTS_INIT;
  bool unit_unread = false; /* a unit not read, or its module not checked */
  resolve_opts(a, d, o, dir, explain, &ro);
  if (tg && !o->bad_flag) {
    int urc = EXIT_OK;
    res = cli_unit_resolve(a, &d, tg, &ro, &urc);
    if (!res && (explain || o->o.format == FMT_HUMAN)) {
      cli_print_diags(d, &o->o);
      tfr_arena_free(a);
      return urc;
    }
    if (!res) { /* the machine formats: a document without variables */
      struct tfr_resolution *none = tfr_arena_alloc(a, sizeof *none);
      none->valid = urc == EXIT_OK;
      res = none;
      unit_unread = true;
    }
  } else {
    res = tfr_resolve(a, d, &ro);
  }
  if (o->policy && !o->bad_flag && !unit_unread) { /* check -policy=DIR */
    struct tfr_policy_opts po = TFR_POLICY_OPTS_INIT;
    po.dir = o->policy;
    po.env = o->no_env ? NULL : environ;
    res = tfr_policy_check(a, d, res, &po);
  }
  int rc = res->valid ? EXIT_OK : EXIT_INVALID;
  if (o->changed)
    res = tfr_resolution_select(a, res, is_changed, NULL);
  if (o->required)
    res = tfr_resolution_select(a, res, is_required, NULL);
  struct cli_module_result r = {a, res, d, names.v, names.n, rc};
  if (explain || !write_format(a, res, d, o))
    rc = out(o, &r);
  if (o->bad_flag) {
    rc = EXIT_USAGE;
    if (o->o.format != FMT_JSON && o->o.format != FMT_PLAN_JSON) {
      fputc('\n', stderr);
      cli_help(o->cmd, stderr);
    }
  }
  tfr_arena_free(a);
  return rc;
}
