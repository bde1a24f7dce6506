/*
** eval and console: one expression evaluated (constants as in a tfvars
** file, or with functions and the module's values as Terraform's
** console) and printed as the console, JSON or YAML.
*/
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli_eval.h"
#include "cli_util.h"
#include "options.h"

extern char **environ;

static void json_error(FILE *out, const char *summary, const char *detail,
                       const char *note, bool ours) {
  fputs("{\"error\":{\"summary\":", out);
  tfr_json_write_cstr(out, summary);
  fputs(",\"detail\":", out);
  tfr_json_write_cstr(out, detail ? detail : "");
  if (note) { /* ours, after Terraform's words */
    fputs(",\"note\":", out);
    tfr_json_write_cstr(out, note);
  }
  if (ours) /* a diagnostic Terraform does not give */
    fputs(",\"origin\":\"tfresolve\"", out);
  fputs("}}\n", out);
}

/* Whether t has an object type anywhere: its attribute names may come
** from a value's keys (a sensitive value's keys are secret too). */
static bool has_object_type(const tfr_type *t) {
  if (t->kind == TFR_OBJECT)
    return true;
  if (t->elem && has_object_type(t->elem))
    return true;
  for (uint32_t i = 0; t->kind == TFR_TUPLE && i < t->n; i++)
    if (has_object_type(t->types[i]))
      return true;
  return false;
}

/* The note after Terraform's "Functions may not be called here." */
static const char functions_note[] =
    "eval evaluates constants, as in a .tfvars file: add -functions to call "
    "functions, as terraform console does.";

/* (cli_eval.h) */
bool cli_eval_one(const char *text, struct eval_env *env,
                  const struct options *o) {
  FILE *out = env->out ? env->out : stdout;
  tfr_arena *a = tfr_arena_new();
  tfr_diags *d = tfr_diags_new(a);
  const tfr_value *v = NULL;
  const char *cerr = NULL;
  const char *type_text = env->type_text;
  tfr_file *e = tfr_parse_expr(a, d, env->name ? env->name : "<eval>", text,
                               strlen(text));
  if (e && o->functions) {
    struct tfr_eval_opts eo = TFR_EVAL_OPTS_INIT;
    eo.opentofu = o->opentofu;
    eo.module = env->module;
    eo.scope = env->scope;
    v = tfr_eval_functions_opts(a, d, e, &eo);
  } else if (e) {
    v = tfr_eval_const(a, d, e);
    /* eval without -functions evaluates as a tfvars file does: say how
    ** to call one (after Terraform's words) */
    size_t nd = tfr_diags_count(d);
    const struct tfr_diag *g = nd ? tfr_diags_get(d, nd - 1) : NULL;
    if (g && !strcmp(g->summary, "Function calls not allowed"))
      tfr_diags_set_note(d, functions_note);
  }
  if (v && !tfr_diags_has_errors(d) && type_text) {
    tfr_file *te = tfr_parse_expr(a, d, "<type>", type_text, strlen(type_text));
    const struct tfr_defaults *defs = NULL;
    const tfr_type *t = te ? tfr_parse_type(a, d, te, &defs) : NULL;
    if (t) {
      v = tfr_convert(a, v, t, defs, &cerr);
      if (!v) { /* -type is ours: Terraform's console has no such option */
        tfr_diags_add(d, TFR_DIAG_ERROR, NULL, "Invalid value",
                      tfr_arena_printf(a, "Unsuitable value: %s.",
                                       cerr ? cerr : "incorrect type"));
        tfr_diags_set_ours(d);
      }
    }
  }
  bool ok = v && !tfr_diags_has_errors(d);
  if (ok && (v->flags & TFR_V_TYPE) && tfr_value_has_mark(v, TFR_V_SENSITIVE) &&
      !o->show_sensitive) {
    /* a sensitive value's type: its attribute names may be its keys */
    fputs(o->format == FMT_JSON
              ? "{\"type\":\"type\",\"value\":null,\"sensitive\":true}\n"
              : "(sensitive value)\n",
          out);
    fflush(out);
    tfr_arena_free(a);
    return true;
  }
  if (ok && (v->flags & TFR_V_TYPE)) { /* the console's type(x) */
    if (o->format == FMT_JSON) {
      fputs("{\"type\":\"type\",\"value\":", out);
      tfr_json_write_cstr(out, v->s);
      fputs("}\n", out);
    } else {
      fprintf(out, "%s\n", v->s);
    }
    fflush(out);
    tfr_arena_free(a);
    return true;
  }
  /* A sensitive value, or one with a sensitive part, is not printed
  ** unless asked for: the console shows "(sensitive value)" in its place,
  ** JSON null with "sensitive": true, YAML a comment. */
  bool sensitive = ok && tfr_value_has_mark(v, TFR_V_SENSITIVE);
  bool hide = sensitive && !o->show_sensitive;
  if (sensitive && o->show_sensitive && o->format != FMT_JSON)
    v = tfr_value_unmark(a, v, TFR_V_SENSITIVE, NULL);
  if (o->format == FMT_JSON && ok && !hide && !tfr_value_json_encodable(v)) {
    json_error(out, "Value cannot be encoded as JSON",
               "cannot serialize infinity as JSON", NULL, true);
    ok = false;
  } else if (o->format == FMT_JSON) {
    if (!ok) {
      const struct tfr_diag *g = tfr_diags_get(d, 0);
      const char *note = g ? g->note : NULL;
      if (g && !note && !o->functions &&
          !strcmp(g->summary, "Function calls not allowed"))
        note = functions_note; /* the first of several: noted too */
      json_error(out, g ? g->summary : "Error", g ? g->detail : "", note,
                 !g || g->ours);
    } else {
      fputs("{\"type\":", out);
      if (hide && has_object_type(v->type)) /* its names may be secrets */
        fputs("\"dynamic\"", out);
      else
        tfr_type_write_json(out, v->type);
      fputs(",\"value\":", out);
      if (hide)
        fputs("null", out);
      else
        tfr_value_write_json(out, a, v);
      if (!tfr_value_is_wholly_known(v))
        fputs(",\"unknown\":true", out);
      if (sensitive)
        fputs(",\"sensitive\":true", out);
      if (tfr_value_has_mark(v, TFR_V_EPHEMERAL))
        fputs(",\"ephemeral\":true", out);
      fputs("}\n", out);
    }
  } else if (!ok) {
    cli_print_diags(d, o);
  } else if (o->format == FMT_YAML) {
    if (env->yaml_docs++) /* several values: a stream of documents */
      fputs("---\n", out);
    if (hide)
      fputs("# (sensitive value: use -show-sensitive to print it)\n", out);
    else
      tfr_value_write_yaml(out, a, v);
  } else {
    fprintf(out, "%s\n", tfr_value_console(a, v));
  }
  fflush(out);
  tfr_arena_free(a);
  return ok;
}

/* (cli_eval.h) */
const struct tfr_resolution *cli_console_module(tfr_arena *a,
                                                const struct tfr_cli_arg *args,
                                                size_t nargs, bool no_env,
                                                const struct options *o) {
  tfr_diags *d = tfr_diags_new(a);
  struct tfr_resolve_opts ro = TFR_RESOLVE_OPTS_INIT;
  ro.dir = ".";
  ro.env = no_env ? NULL : environ;
  ro.args = args;
  ro.nargs = nargs;
  ro.opentofu = o->opentofu;
  ro.tree = true; /* module.NAME, and -scope's instances */
  const struct tfr_resolution *res = tfr_resolve(a, d, &ro);
  if (!res->has_config)
    return NULL;
  if (tfr_diags_count(d))
    cli_print_diags(d, o);
  return res;
}

/* The first error of d as the console shows one: JSON's error line on
** standard output, or the diagnostics. */
static void show_error(const tfr_diags *d, const struct options *o) {
  const struct tfr_diag *g = NULL;
  for (size_t i = 0; i < tfr_diags_count(d) && !g; i++)
    if (tfr_diags_get(d, i)->sev == TFR_DIAG_ERROR)
      g = tfr_diags_get(d, i);
  if (o->format == FMT_JSON && g)
    json_error(stdout, g->summary, g->detail, g->note, g->ours);
  else
    cli_print_diags(d, o);
  fflush(stdout);
}

/* (cli_eval.h) */
bool cli_eval_setup(tfr_arena *a, struct eval_env *env,
                    const struct cli_opts *co, const struct options *o,
                    int *status) {
  const char *address = co->scope;
  tfr_diags *d = tfr_diags_new(a);
  if (address && o->opentofu) {
    /* OpenTofu's console takes no -scope (internal/command/arguments/
    ** console.go): its flag parser would refuse it */
    tfr_diags_add(d, TFR_DIAG_ERROR, NULL, "Option not in OpenTofu",
                  "OpenTofu's console has no -scope option: it evaluates in "
                  "the root module only.  -scope=MODULE_INSTANCE is "
                  "Terraform's (1.16 and later): use -engine=terraform.");
    tfr_diags_set_ours(d);
    show_error(d, o);
    *status = EXIT_USAGE;
    return false;
  }
  env->module = cli_console_module(a, co->args, co->nargs, co->no_env, o);
  if (!address)
    return true;
  env->scope = tfr_resolution_scope(a, d, env->module, address);
  if (env->scope)
    return true;
  show_error(d, o);
  *status = EXIT_INVALID;
  return false;
}
