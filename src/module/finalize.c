/*
** A variable's value made final, the root's and a child instance's by
** the same steps: Terraform's PrepareFinalInputVariableValue
** (internal/terraform/eval_variable.go:25-229; OpenTofu's
** internal/tofu/eval_variable.go, where the engine table says how it
** differs), the deprecation warning and the attributes a type drops.
*/
#include "module/finalize.h"

#include <string.h>

#include "base/diag_int.h"
#include "base/strutil.h"
#include "module/engine_tofu.h"
#include "values/convert.h"
#include "values/secret.h"

static bool no_range(const struct given_value *g) {
  return g->kind == TFR_SRC_ENV || g->kind == TFR_SRC_CLI;
}

/* Where the value is: its expression, or the declaration. */
static struct tfr_range value_at(const struct finalizer *f,
                                 const struct given_value *g) {
  return g->range.filename ? g->range : f->v->decl;
}

static void add(const struct finalizer *f, enum tfr_diag_code code,
                const struct tfr_range *at, const char *summary,
                const char *detail) {
  tfr_diags_add(f->diags, TFR_DIAG_ERROR, at, summary, detail);
  tfr_diags_set_variable(f->diags, f->v->name);
  tfr_diags_set_code(f->diags, code);
}

/* The beginning of a bad value's message, by where it came from
** (eval_variable.go:53-73 and 101-110). */
static const char *prefix(const struct finalizer *f,
                          const struct given_value *g, const char *verb) {
  const char *name = f->v->name;
  if (g->kind == TFR_SRC_ENV && !f->statically)
    return tfr_arena_printf(f->a,
                            "Unsuitable value for %s set using the TF_VAR_%s "
                            "environment variable",
                            f->addr, name);
  if (g->kind == TFR_SRC_CLI && !f->statically)
    return tfr_arena_printf(f->a,
                            "Unsuitable value for %s set using -var=\"%s=...\"",
                            f->addr, name);
  char where[512];
  tfr_range_format(&f->v->decl, where, sizeof where);
  return tfr_arena_printf(f->a,
                          "The given value is not suitable for %s %s at %s",
                          f->addr, verb, where);
}

/* "Invalid value for input variable" (eval_variable.go:101-137): a
** sensitive (OpenTofu: or ephemeral) variable's value is not quoted; the
** keys of a sensitive value, or of a value derived from one, are not
** shown (secret.h). */
static void not_suitable(const struct finalizer *f, const struct given_value *g,
                         const tfr_value *given, const char *err) {
  const struct var_decl *v = f->v;
  const char *shown = err ? err : "incorrect type";
  bool secret = v->sensitive || tfr_value_has_mark(given, TFR_V_SENSITIVE);
  const char *hidden = secret ? secret_conv_error(f->a, shown, v->type) : shown;
  const char *mark =
      no_range(g) || f->statically
          ? NULL
          : engine_secret_mark(f->engine, v->sensitive, v->ephemeral);
  struct tfr_range at = value_at(f, g);
  const char *detail;
  if (mark) {
    char where[512];
    tfr_range_format(&at, where, sizeof where);
    detail = tfr_arena_printf(f->a,
                              "The given value is not suitable for %s, which "
                              "is %s: %s. Invalid value defined at %s.",
                              f->addr, mark, hidden, where);
    at = v->decl;
  } else {
    detail =
        tfr_arena_printf(f->a, "%s: %s.", prefix(f, g, "declared"), hidden);
    if (no_range(g) || f->engine->errors_at_decl)
      at = v->decl;
  }
  add(f, TFR_CODE_INVALID_INPUT, f->statically ? NULL : &at,
      "Invalid value for input variable", detail);
  size_t last = tfr_diags_count(f->diags) - 1;
  if (hidden != shown) {
    secret_hide_detail(f->diags, last, detail);
  } else if (!mark && !secret && f->element) {
    struct tfr_range element = {0};
    const char *note = f->element(f->ud, given, &element);
    if (note) {
      tfr_diags_set_note(f->diags, note);
      diags_at(f->diags, last)->element = element;
    }
  }
}

/* A value derived from an ephemeral one given to a variable that is not
** ephemeral (T eval_variable.go:196-226; O checks it first, in its own
** words: its eval_variable.go:55-73). */
static bool ephemeral_refused(const struct finalizer *f,
                              const struct given_value *g,
                              const tfr_value *val) {
  if (f->v->ephemeral || !tfr_value_has_mark(val, TFR_V_EPHEMERAL))
    return false;
  struct tfr_range at = value_at(f, g);
  add(f, TFR_CODE_NONE, &at, f->engine->ephemeral_arg_summary,
      tfr_arena_printf(f->a, f->engine->ephemeral_arg_detail,
                       str_go_quote(f->a, f->v->name, strlen(f->v->name))));
  return true;
}

const tfr_value *var_final(const struct finalizer *f,
                           const struct given_value *g) {
  const struct var_decl *v = f->v;
  const tfr_value *given = g->value;
  if (!given) {
    if (!v->has_default) {
      if (!f->unset_said)
        add(f, TFR_CODE_REQUIRED_NOT_SET, &v->decl, "Required variable not set",
            tfr_arena_printf(f->a,
                             "The variable \"%s\" is required, but is not "
                             "set.",
                             v->name));
      return NULL;
    }
    given = v->dflt;
    if (!given)
      return NULL; /* its default has errors of its own */
  }
  if (f->engine->ephemeral_arg_first && ephemeral_refused(f, g, given))
    return NULL;
  const tfr_value *val = given;
  if (!g->final) {
    const char *err = NULL;
    if (v->defaults && !(given->flags & TFR_V_NULL))
      given = conv_apply_defaults(f->a, given, v->defaults);
    val = conv_convert(f->a, given, v->type, &err);
    if (!val) {
      not_suitable(f, g, given, err);
      return NULL;
    }
  }
  if ((val->flags & TFR_V_NULL) && !v->nullable) {
    if (!v->has_default || !v->dflt) {
      struct tfr_range at = no_range(g) ? v->decl : value_at(f, g);
      add(f, TFR_CODE_REQUIRED_NOT_SET, &at, "Required variable not set",
          tfr_arena_printf(f->a,
                           "%s: required variable may not be set to null.",
                           prefix(f, g, "defined")));
      return NULL;
    }
    val = v->dflt;
  }
  if (v->ephemeral)
    return tfr_value_mark(f->a, val, TFR_V_EPHEMERAL);
  if (!f->engine->ephemeral_arg_first && ephemeral_refused(f, g, val))
    return NULL;
  return val;
}

void var_deprecated_warning(tfr_arena *a, tfr_diags *d,
                            const struct engine_rules *e,
                            const struct var_decl *v,
                            const struct tfr_range *at) {
  const char *detail = v->deprecated;
  if (e->deprecated_detail)
    detail = tfr_arena_printf(a, e->deprecated_detail,
                              str_go_quote(a, v->name, strlen(v->name)),
                              v->deprecated);
  tfr_diags_add(d, TFR_DIAG_WARNING, at, e->deprecated_summary, detail);
  tfr_diags_set_variable(d, v->name);
}

void var_dropped(tfr_arena *a, tfr_diags *d, const struct engine_rules *e,
                 const struct dropped_report *r, const char *path,
                 const char *name, const tfr_type *object, bool constructor,
                 const struct tfr_range *at) {
  const char *near = r->secret ? NULL : strict_suggest(object, name);
  const char *suggest =
      near ? tfr_arena_printf(a, " Did you mean to set attribute %s instead?",
                              str_go_quote(a, near, strlen(near)))
           : "";
  const char *quoted =
      r->secret ? SECRET_TEXT : str_go_quote(a, name, strlen(name));
  if (r->secret)
    path = secret_path(a, path);
  const char *detail;
  if (r->mode != DROPPED_ENGINE)
    detail = tfr_arena_printf(
        a,
        "The object type of %s%s does not include an attribute named %s: %s "
        "drops this %s %s, so an optional attribute it may be meant for "
        "keeps its default (-strict makes this an error).%s",
        r->addr, path, quoted, e->product,
        constructor ? "definition" : "attribute of the value",
        r->warned ? "with a warning" : "silently", suggest);
  else if (r->arg) /* OpenTofu's (node_module_variable.go:285-296) */
    detail = tfr_arena_printf(
        a,
        "The object type for input variable %s%s does not include an "
        "attribute named %s, so this definition is unused.%s",
        str_go_quote(a, r->var, strlen(r->var)),
        *path ? tfr_arena_printf(a, " nested value %s", path) : "", quoted,
        suggest);
  else /* OpenTofu's own (its configs/named_values.go:274) */
    detail = tfr_arena_printf(
        a,
        "%s does not include an attribute named %s, so this definition is "
        "unused.%s",
        *path ? tfr_arena_printf(a, "The object type for %s", path)
              : "The object type for this variable",
        quoted, suggest);
  size_t i = tfr_diags_count(d);
  tfr_diags_add(d, r->mode == DROPPED_ERROR ? TFR_DIAG_ERROR : TFR_DIAG_WARNING,
                at, "Object attribute is ignored", detail);
  tfr_diags_set_variable(d, r->var);
  tfr_diags_set_code(d, TFR_CODE_IGNORED_ATTRIBUTE);
  if (r->mode != DROPPED_ENGINE)
    tfr_diags_set_ours(d);
  if (r->mode == DROPPED_ERROR)
    diags_set_strict(d);
  if (r->note)
    tfr_diags_set_note(d, r->note);
  if (r->secret) {
    secret_hide_source(d, i);
    secret_hide_detail(d, i, detail);
  }
}
