/*
** tfresolve inspect -json [DIR]: the module's interface as JSON
** (doc/json-format.md, "inspect"), a superset of the JSON of HashiCorp's
** terraform-config-inspect: the fields it writes keep its names and
** shapes (tfconfig/module.go:8-27 Module, variable.go:7-22 Variable,
** output.go:7-14 Output, provider_ref.go:17-26 ProviderRef and
** ProviderRequirement, resource.go:13-21 Resource, module_call.go:8-14
** ModuleCall, source_pos.go:17-20 SourcePos, diagnostic.go:15-23
** Diagnostic), including its omitempty fields left out when empty; ours
** are added beside them.  With -var-file FILE (repeatable), each FILE is
** one environment: each module call's source and version are given as
** they are there, and each variable's value.  A sensitive default or
** value is null unless -show-sensitive.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_module.h"
#include "iface_out.h"
#include "options.h"

struct out {
  FILE *f;
  tfr_arena *a;
  const struct iface_run *r;
  bool show_sensitive;
};

static void key(FILE *f, const char *k, bool *first) {
  fputs(*first ? "" : ",", f);
  *first = false;
  tfr_json_write_cstr(f, k);
  fputc(':', f);
}

static void str_field(FILE *f, const char *k, const char *v, bool *first) {
  if (!v)
    return;
  key(f, k, first);
  tfr_json_write_cstr(f, v);
}

static void bool_field(FILE *f, const char *k, bool v, bool *first) {
  key(f, k, first);
  fputs(v ? "true" : "false", f);
}

/* A JSON array of strings. */
static void json_strs(FILE *f, const char *const *v, size_t n) {
  fputc('[', f);
  for (size_t i = 0; i < n; i++) {
    fputs(i ? "," : "", f);
    tfr_json_write_cstr(f, v[i]);
  }
  fputc(']', f);
}

/* The i-th member of an object whose members are one a line. */
static void member(FILE *f, size_t i, const char *k) {
  bool first = true;
  fputs(i ? ",\n" : "\n", f);
  key(f, k, &first);
}

/* ,"environments":{FILE: ..., ...}: write gives each environment's
** value (of the variable or call ctx), nothing without -var-file. */
static void environments(const struct out *o,
                         void (*write)(const struct out *o,
                                       const struct iface_env *e,
                                       const void *ctx),
                         const void *ctx) {
  if (!o->r->nenvs)
    return;
  fputs(",\"environments\":{", o->f);
  for (size_t i = 0; i < o->r->nenvs; i++) {
    bool first = i == 0;
    key(o->f, o->r->envs[i].file, &first);
    write(o, &o->r->envs[i], ctx);
  }
  fputc('}', o->f);
}

/* SourcePos: {"filename", "line"}. */
static void pos(FILE *f, const struct tfr_range *r, bool *first) {
  key(f, "pos", first);
  fputs("{\"filename\":", f);
  tfr_json_write_cstr(f, r->filename ? r->filename : "");
  fprintf(f, ",\"line\":%d}", r->start.line);
}

static void value(const struct out *o, const tfr_value *v, bool hide) {
  if (!v || hide || !tfr_value_json_encodable(v))
    fputs("null", o->f);
  else
    tfr_value_write_json(o->f, o->a, v);
}

/* ---- variables ---------------------------------------------------------- */

static void bounds(FILE *f, const char *k, const char *min, bool min_excl,
                   const char *max, bool max_excl, bool *first) {
  if (!min && !max)
    return;
  key(f, k, first);
  bool one = true;
  fputc('{', f);
  if (min) {
    key(f, min_excl ? "greater_than" : "min", &one);
    fputs(min, f);
  }
  if (max) {
    key(f, max_excl ? "less_than" : "max", &one);
    fputs(max, f);
  }
  fputc('}', f);
}

/* One validation rule: its texts and what its condition allows. */
static void rule(const struct out *o, const struct tfr_iface_rule *r,
                 bool hide) {
  FILE *f = o->f;
  bool first = true;
  fputc('{', f);
  /* a sensitive variable's condition may hold the secret (a literal to
  ** compare with): null, as check does not quote its source; so is a
  ** message that is not one plain string */
  key(f, "condition", &first);
  if (hide || !r->condition)
    fputs("null", f);
  else
    tfr_json_write_cstr(f, r->condition);
  key(f, "error_message", &first);
  if ((hide && !r->message) || !r->error_message)
    fputs("null", f);
  else
    tfr_json_write_cstr(f, r->error_message);
  str_field(f, "message", r->message, &first);
  if (!hide && r->allowed) {
    key(f, "allowed_values", &first);
    json_strs(f, r->allowed, r->nallowed);
  }
  if (!hide && r->nforbidden) {
    key(f, "forbidden_values", &first);
    json_strs(f, r->forbidden, r->nforbidden);
  }
  const struct tfr_iface_bound *b = &r->bounds, *l = &r->length_bounds;
  if (!hide) {
    bounds(f, "range", b->min, b->min_excl, b->max, b->max_excl, &first);
    bounds(f, "length_range", l->min, l->min_excl, l->max, l->max_excl, &first);
  }
  pos(f, &r->range, &first);
  fputc('}', f);
}

/* Our fields of a variable, after terraform-config-inspect's. */
static void variable_ours(const struct out *o,
                          const struct tfr_iface_variable *v, bool hide) {
  FILE *f = o->f;
  bool first = false;
  key(f, "type_constraint", &first);
  tfr_type_write_json(f, v->constraint);
  if (v->ndefaults) {
    key(f, "optional_defaults", &first);
    fputc('[', f);
    for (size_t i = 0; i < v->ndefaults; i++) {
      const struct tfr_iface_default *d = tfr_iface_variable_default(v, i);
      fputs(i ? ",{\"path\":" : "{\"path\":", f);
      tfr_json_write_cstr(f, d->path);
      fputs(",\"default\":", f);
      value(o, d->value, hide);
      fputc('}', f);
    }
    fputc(']', f);
  }
  if (v->default_value && v->default_given != v->default_value) {
    key(f, "default_converted", &first);
    value(o, v->default_value, hide);
  }
  bool_field(f, "nullable", v->nullable, &first);
  bool_field(f, "ephemeral", v->ephemeral, &first);
  bool_field(f, "const", v->is_const, &first);
  key(f, "validations", &first);
  fputc('[', f);
  for (size_t i = 0; i < v->nrules; i++) {
    fputs(i ? "," : "", f);
    rule(o, tfr_iface_variable_rule(v, i), hide);
  }
  fputc(']', f);
}

/* A variable's value in environment e. */
static void variable_env(const struct out *o, const struct iface_env *e,
                         const void *ctx) {
  const struct tfr_iface_variable *v = ctx;
  const struct tfr_variable *rv = tfr_resolution_find(e->res, v->name);
  bool hide = v->sensitive && !o->show_sensitive;
  fputs("{\"value\":", o->f);
  value(o, rv ? rv->value : NULL, hide || (rv && rv->sensitive));
  fprintf(o->f, ",\"source\":\"%s\"",
          tfr_source_kind_name(rv ? rv->source : TFR_SRC_NONE));
  if (rv && rv->error)
    fputs(",\"error\":true", o->f);
  fputc('}', o->f);
}

static void variable(const struct out *o, const struct tfr_iface_variable *v) {
  FILE *f = o->f;
  bool hide = v->sensitive && !o->show_sensitive;
  bool first = true;
  fputc('{', f);
  str_field(f, "name", v->name, &first);
  str_field(f, "type", iface_type_text(o->a, v, o->show_sensitive), &first);
  str_field(f, "description", v->description, &first);
  key(f, "default", &first);
  value(o, v->default_given, hide);
  bool_field(f, "required", v->required, &first);
  if (v->sensitive)
    bool_field(f, "sensitive", true, &first);
  str_field(f, "deprecated", v->deprecated, &first);
  pos(f, &v->decl, &first);
  variable_ours(o, v, hide);
  environments(o, variable_env, v);
  fputc('}', f);
}

/* ---- the rest ----------------------------------------------------------- */

static void output(const struct out *o, const struct tfr_iface_output *x) {
  FILE *f = o->f;
  bool first = true;
  fputc('{', f);
  str_field(f, "name", x->name, &first);
  str_field(f, "description", x->description, &first);
  if (x->sensitive)
    bool_field(f, "sensitive", true, &first);
  str_field(f, "deprecated", x->deprecated, &first);
  pos(f, &x->decl, &first);
  str_field(f, "type", x->type, &first);
  bool_field(f, "ephemeral", x->ephemeral, &first);
  fputc('}', f);
}

/* ProviderRef {"name", "alias"} of "aws.east". */
static void provider_ref(FILE *f, const char *name, const char *alias) {
  fputs("{\"name\":", f);
  tfr_json_write_cstr(f, name);
  if (alias) {
    fputs(",\"alias\":", f);
    tfr_json_write_cstr(f, alias);
  }
  fputc('}', f);
}

static void provider(const struct out *o, const struct tfr_iface_provider *p) {
  FILE *f = o->f;
  bool first = true;
  fputc('{', f);
  str_field(f, "source", p->source, &first);
  if (p->nversions) {
    key(f, "version_constraints", &first);
    json_strs(f, p->versions, p->nversions);
  }
  if (p->naliases) {
    key(f, "aliases", &first);
    fputc('[', f);
    for (size_t i = 0; i < p->naliases; i++) {
      const char *al = p->aliases[i], *dot = strchr(al, '.');
      fputs(i ? "," : "", f);
      provider_ref(f,
                   dot ? tfr_arena_strndup(o->a, al, (size_t)(dot - al)) : al,
                   dot ? dot + 1 : NULL);
    }
    fputc(']', f);
  }
  fputc('}', f);
}

static void resources(const struct out *o, bool data) {
  FILE *f = o->f;
  bool first = true;
  fputc('{', f);
  for (size_t i = 0; i < o->r->f->nresources; i++) {
    const struct tfr_iface_resource *x = tfr_interface_resource(o->r->f, i);
    if (x->data != data)
      continue;
    key(f,
        tfr_arena_printf(o->a, "%s%s.%s", data ? "data." : "", x->type,
                         x->name),
        &first);
    fprintf(f, "{\"mode\":\"%s\",\"type\":", data ? "data" : "managed");
    tfr_json_write_cstr(f, x->type);
    fputs(",\"name\":", f);
    tfr_json_write_cstr(f, x->name);
    fputs(",\"provider\":", f);
    provider_ref(f, x->provider, x->alias);
    bool one = false;
    pos(f, &x->decl, &one);
    fputc('}', f);
  }
  fputc('}', f);
}

/* A call's source and version in each environment. */
static void call_env(const struct out *o, const struct iface_env *e,
                     const void *ctx) {
  const struct tfr_iface_call *c = ctx;
  FILE *f = o->f;
  const char *why = NULL;
  const char *src = c->source_expr
                        ? iface_call_source(o->r, e->res, c->source_expr, &why)
                        : c->source;
  fputs("{\"source\":", f);
  if (src)
    tfr_json_write_cstr(f, src);
  else
    fputs("null", f);
  if (why) {
    fputs(",\"source_unknown\":", f);
    tfr_json_write_cstr(f, why);
  }
  fputc('}', f);
}

static void call(const struct out *o, const struct tfr_iface_call *c) {
  FILE *f = o->f;
  bool first = true;
  const char *why = NULL;
  const char *src =
      c->source_expr ? iface_call_source(o->r, o->r->base, c->source_expr, &why)
                     : c->source;
  fputc('{', f);
  str_field(f, "name", c->name, &first);
  str_field(f, "source", src ? src : "", &first);
  str_field(f, "version", c->version, &first);
  pos(f, &c->decl, &first);
  str_field(f, "source_expression", c->source_expr, &first);
  environments(o, call_env, c);
  fputc('}', f);
}

/* Left out when there are none, as Go's omitempty does. */
static void diagnostics(const struct out *o, const tfr_diags *d) {
  FILE *f = o->f;
  if (!tfr_diags_count(d))
    return;
  fputs(",\n\"diagnostics\":[", f);
  for (size_t i = 0; i < tfr_diags_count(d); i++) {
    const struct tfr_diag *g = tfr_diags_get(d, i);
    bool first = true;
    fputs(i ? ",\n{" : "\n{", f);
    str_field(f, "severity", g->sev == TFR_DIAG_ERROR ? "error" : "warning",
              &first);
    str_field(f, "summary", g->summary, &first);
    str_field(f, "detail", g->detail && *g->detail ? g->detail : NULL, &first);
    if (g->subject.filename) {
      pos(f, &g->subject, &first);
      key(f, "range", &first);
      tfr_range_write_json(f, &g->subject);
    }
    if (g->ours)
      str_field(f, "origin", "tfresolve", &first);
    fputc('}', f);
  }
  fputs("]", f);
}

/* The document: terraform-config-inspect's fields in its order
** (tfconfig/module.go:8-27), then ours. */
static void document(const struct out *o) {
  const struct tfr_interface *fc = o->r->f;
  FILE *f = o->f;
  fputs("{\"format_version\":\"1.0\",\n\"path\":", f);
  tfr_json_write_cstr(f, o->r->dir);
  fputs(",\n\"variables\":{", f);
  for (size_t i = 0; i < fc->nvars; i++) {
    member(f, i, fc->vars[i].name);
    variable(o, tfr_interface_variable(fc, i));
  }
  fputs("},\n\"outputs\":{", f);
  for (size_t i = 0; i < fc->noutputs; i++) {
    member(f, i, fc->outputs[i].name);
    output(o, tfr_interface_output(fc, i));
  }
  fputc('}', f);
  if (fc->nrequired_core) {
    fputs(",\n\"required_core\":", f);
    json_strs(f, fc->required_core, fc->nrequired_core);
  }
  fputs(",\n\"required_providers\":{", f);
  for (size_t i = 0; i < fc->nproviders; i++) {
    member(f, i, fc->providers[i].name);
    provider(o, tfr_interface_provider(fc, i));
  }
  fputc('}', f);
  if (fc->nconfigs) { /* omitempty (tfconfig/module.go:18) */
    fputs(",\n\"provider_configs\":{", f);
    for (size_t i = 0; i < fc->nconfigs; i++) {
      const struct tfr_iface_provider_config *p =
          tfr_interface_provider_config(fc, i);
      bool first = i == 0;
      key(f,
          p->alias ? tfr_arena_printf(o->a, "%s.%s", p->name, p->alias)
                   : p->name,
          &first);
      provider_ref(f, p->name, p->alias);
    }
    fputc('}', f);
  }
  fputs(",\n\"managed_resources\":", f);
  resources(o, false);
  fputs(",\n\"data_resources\":", f);
  resources(o, true);
  fputs(",\n\"module_calls\":{", f);
  for (size_t i = 0; i < fc->ncalls; i++) {
    member(f, i, fc->calls[i].name);
    call(o, tfr_interface_call(fc, i));
  }
  fputc('}', f);
}

/* The document is printed whatever the load said, as
** terraform-config-inspect prints what it could read with its
** diagnostics; errors among them make the exit status 1. */
static int run(struct cli_opts *co) {
  const char *dir = iface_dir_operand(co);
  if (!dir)
    return EXIT_USAGE;
  struct iface_run r = {0};
  iface_load(&r, dir, co->o.opentofu, co->each.v, co->each.n);
  struct out o = {stdout, r.a, &r, co->o.show_sensitive};
  document(&o);
  diagnostics(&o, r.d);
  fputs("}\n", stdout);
  int rc = tfr_diags_has_errors(r.d) ? EXIT_INVALID : EXIT_OK;
  tfr_arena_free(r.a);
  return rc;
}

static const struct cli_choice formats[] = {{"json", FMT_JSON, NULL},
                                            {NULL, 0, NULL}};

static const struct cli_option options[] = {
    CLI_OPT_INCLUDE(cli_opts_format),
    CLI_OPT_LIST("var-file", "FILE", each,
                 "One environment (repeatable): each variable's value and "
                 "each module call's source as they are with FILE"),
    CLI_OPT_INCLUDE(cli_opts_sensitive), CLI_OPT_INCLUDE(cli_opts_dir_end),
    CLI_OPT_END};

const struct cli_command cli_cmd_inspect = {
    .name = "inspect",
    .summary = "The module's interface as JSON (variables, outputs, calls)",
    .run = run,
    .options = options,
    .formats = formats,
    .usage =
        "Usage: tfresolve inspect -json [options] [DIR]\n"
        "\n"
        "Print the interface of the module in DIR (default: the current\n"
        "directory) as JSON: its variables (type as written, optional\n"
        "attributes' defaults, default, every argument, each validation\n"
        "rule's condition and message and the values it allows), outputs,\n"
        "required_version, required_providers, resources, data sources and\n"
        "module calls -- a superset of terraform-config-inspect's JSON\n"
        "(doc/json-format.md).  Sensitive defaults are null unless\n"
        "-show-sensitive.\n",
    .footer = "Exit status: 0 printed, 1 printed but the module has errors "
              "(in\n\"diagnostics\"), 2 usage error.\n"};
