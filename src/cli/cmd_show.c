/*
** tfresolve show [DIR]: every input variable of the module, resolved as
** `terraform plan` would, with its value, type and source.
*/
#include <stdio.h>

#include "cli.h"
#include "options.h"
#include "cli_module.h"
#include "cli_util.h"

/* One variable of the human table: name, value, type and source (ind:
** the indentation of a child instance's). */
static void show_variable(tfr_arena *a, const struct tfr_variable *v,
                          bool show_sensitive, bool mark_required,
                          const char *ind) {
  /* plan's value, or (when plan stops before it) the preview */
  const tfr_value *shown = v->value ? v->value : v->preview;
  bool hidden = shown && v->sensitive && !show_sensitive;
  /* a required variable no source sets ("No value for required
  ** variable"): its error is that it is not set */
  bool unset = !shown && v->error && v->source == TFR_SRC_NONE &&
               !v->default_value && !v->preview_error;
  printf("%s%s = ", ind, v->name);
  if (shown && !hidden && !*ind) /* written as it is made: it may be large */
    tfr_value_write_console(stdout, a, shown);
  else if (shown && !hidden) /* a child's: its lines indented */
    for (const char *p = tfr_value_console(a, shown); *p; p++) {
      putchar(*p);
      if (*p == '\n' && p[1])
        fputs(ind, stdout);
    }
  else
    fputs(hidden ? "(sensitive value)"
          : v->preview_error
              ? tfr_arena_printf(a, "(would fail: %s)",
                                 cli_preview_failure(a, v->preview_error))
          : unset ? "(not set)" /* the whole story */
                  : "(not resolved: see the errors below)",
          stdout);
  const char *src =
      unset ? NULL
            : cli_source_text(a, v->source, v->source_file, v->source_line,
                              v->name, v->source_via);
  printf("\n%s    # %s%s%s%s\n", ind,
         tfr_type_friendly(a, shown ? shown->type : v->type),
         src ? ", from " : "", src ? src : "",
         !mark_required || v->default_value ? (src ? "" : ", not set")
         : !src                             ? " (required: not set)"
                                            : " (required: set)");
  if (!v->value && (v->preview || v->preview_error))
    printf("%s    # preview only: %s\n", ind, v->reason);
}

/* The human table: the root's variables, then each child instance's
** under its address. */
static void show_table(tfr_arena *a, const struct tfr_resolution *res,
                       bool show_sensitive, bool mark_required) {
  for (size_t i = 0; i < res->n; i++)
    show_variable(a, tfr_resolution_variable(res, i), show_sensitive,
                  mark_required, "");
  for (size_t i = 0; res->tree && i < res->ninstances; i++) {
    const struct tfr_instance *in = tfr_resolution_instance(res, i);
    printf("\n%s (%s)%s\n", in->address, in->source,
           in->n ? ":" : ": no variables");
    for (size_t k = 0; k < in->n; k++)
      show_variable(a, tfr_instance_variable(in, k), show_sensitive,
                    mark_required, "  ");
  }
}

static int show_out(const struct cli_opts *o,
                    const struct cli_module_result *r) {
  show_table(r->a, r->res, o->o.show_sensitive, o->required);
  cli_print_diags(r->d, &o->o);
  return r->rc;
}

static int run(struct cli_opts *o) {
  return cli_module_run(o, show_out, false);
}

static const struct cli_choice formats[] = {
    {"human", FMT_HUMAN, NULL},
    {"json", FMT_JSON, NULL},
    {"yaml", FMT_YAML, NULL},
    {"plan-json", FMT_PLAN_JSON, "Terraform's plan JSON shape, for policies"},
    {"tfvars", FMT_TFVARS, "a variables file"},
    {"env", FMT_ENV, "export TF_VAR_... lines"},
    {NULL, 0, NULL}};

static const struct cli_option options[] = {
    CLI_OPT_INCLUDE(cli_opts_module),
    CLI_OPT_FLAG("changed", changed,
                 "Only the variables set to something other than their "
                 "default",
                 0),
    CLI_OPT_FLAG("required", required,
                 "Only the variables without a default, and whether each is "
                 "set",
                 0),
    CLI_OPT_INCLUDE(cli_opts_module_end), CLI_OPT_END};

const struct cli_command cli_cmd_show = {
    .name = "show",
    .summary = "Resolve and print every input variable of a module",
    .run = run,
    .options = options,
    .formats = formats,
    .usage =
        "Usage: tfresolve show [options] [DIR]\n"
        "\n"
        "Resolve every input variable of the module in DIR (default: the\n"
        "current directory) as `terraform plan` would, and print each one:\n"
        "its value, its type and where the value came from.\n",
    .footer = cli_module_footer,
    .tfcmd = "plan",
    .flags = CLI_TF_FLAGS};
