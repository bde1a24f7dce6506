/*
** A resolution of a unit's module seen from the unit (tfr_unit_apply):
** the values terragrunt set from inputs say which input line they come
** from, the diagnostics about them point there, and the inputs the
** module does not declare -- which Terraform ignores in silence, as it
** ignores any TF_VAR_ it has no variable for -- are warnings at their
** line (terragrunt's `hcl validate --inputs` check, located).
*/
#include <string.h>
#include <strings.h>

#include "base/diag_int.h"
#include "base/strutil.h"
#include "terragrunt/tg_int.h"
#include "tfresolve/tfresolve.h"

static const struct tfr_unit_input *input_of(const struct tfr_unit *u,
                                             const char *name) {
  for (size_t i = 0; name && i < u->ninputs; i++)
    if (!strcmp(u->inputs[i].name, name))
      return &u->inputs[i];
  return NULL;
}

static bool null_file(const char *f) {
  return f && str_ends_with(f, "/.terragrunt-null-vars.auto.tfvars.json");
}

/* Whether an attempt is one terragrunt made from the input. */
static bool from_input(const struct tfr_unit_input *in, enum tfr_source_kind k,
                       const char *file) {
  return in && ((k == TFR_SRC_ENV && (in->env_value || in->unknown)) ||
                (k == TFR_SRC_AUTO_FILE && null_file(file)));
}

/* Why terragrunt wrote file into the working directory, or NULL. */
static const char *overlay_why(const struct tfr_unit *u, const char *file) {
  for (size_t i = 0; file && i < u->noverlays; i++)
    if (!strcmp(u->overlays[i].path, file))
      return u->overlay_why[i];
  return NULL;
}

/* Why terragrunt set TF_VAR_name (extra_arguments' env_vars), or NULL. */
static const char *env_why(const struct tfr_unit *u, const char *name) {
  size_t n = strlen(name);
  for (size_t i = 0; u->env[i]; i++)
    if (!strncmp(u->env[i], "TF_VAR_", 7) && !strncmp(u->env[i] + 7, name, n) &&
        u->env[i][7 + n] == '=')
      return u->env_why[i];
  return NULL;
}

/* Where an attempt's value came from, from the unit's side: the input
** (terragrunt's TF_VAR_ or null file), extra_arguments' env_vars, or the
** file terragrunt wrote. */
static const char *via_of(const struct tfr_unit *u,
                          const struct tfr_unit_input *in,
                          enum tfr_source_kind k, const char *file,
                          const char *name) {
  if (from_input(in, k, file))
    return in->chain;
  if (k == TFR_SRC_ENV)
    return env_why(u, name);
  return k == TFR_SRC_AUTO_FILE ? overlay_why(u, file) : NULL;
}

static void apply_var(tfr_arena *a, const struct tfr_unit *u,
                      struct tfr_variable *v) {
  const struct tfr_unit_input *in = input_of(u, v->name);
  struct tfr_attempt *at = tfr_arena_alloc(a, (v->nattempts + 1) * sizeof *at);
  if (v->nattempts) /* (a NULL array when empty) */
    memcpy(at, v->attempts, v->nattempts * sizeof *at);
  for (size_t i = 0; i < v->nattempts; i++) {
    const char *w = via_of(u, in, at[i].source, at[i].file, v->name);
    if (w)
      at[i].via = w;
  }
  v->attempts = at;
  const char *w = via_of(u, in, v->source, v->source_file, v->name);
  if (w)
    v->source_via = w;
}

/* The variable of res named name, or NULL. */
static const struct tfr_variable *var_of(const struct tfr_resolution *res,
                                         const char *name) {
  return name ? tfr_resolution_find(res, name) : NULL;
}

/* The declared variable an undeclared name may mean: Terraform's
** did-you-mean, else one that differs in case only. */
static const char *meant(const struct tfr_resolution *res, const char *name) {
  const char *s = tfr_resolution_suggest(res, name);
  for (size_t i = 0; !s && i < res->n; i++)
    if (!strcasecmp(res->vars[i].name, name))
      s = res->vars[i].name;
  return s;
}

/* A warning about a TF_VAR_ name that sets nothing, when terragrunt set
** it from an input: the input's own warning (undeclared) says it, at its
** line. */
static bool said_by_input(const struct tfr_unit *u,
                          const struct tfr_resolution *res,
                          const struct tfr_diag *g) {
  if (g->code != TFR_CODE_ENV_NAME_CASE && g->code != TFR_CODE_ENV_UNDECLARED)
    return false;
  for (size_t i = 0; i < u->ninputs; i++) {
    const struct tfr_unit_input *p = &u->inputs[i];
    const char *m = p->env_value && !tfr_resolution_find(res, p->name)
                        ? meant(res, p->name)
                        : NULL;
    if (m && g->variable && !strcmp(m, g->variable))
      return true;
  }
  return false;
}

/* The unit's own file an overlay is a copy of, or NULL. */
static const char *copy_of(const struct tfr_unit *u, const char *file) {
  for (size_t i = 0; file && i < u->noverlays; i++)
    if (!strcmp(u->overlays[i].path, file))
      return u->overlay_copy_of[i];
  return NULL;
}

static void copy_diags(tfr_arena *a, tfr_diags *out, const struct tfr_unit *u,
                       const struct tfr_resolution *res, const tfr_diags *in) {
  for (size_t i = 0; i < tfr_diags_count(in); i++) {
    struct tfr_diag g = *tfr_diags_get(in, i);
    if (said_by_input(u, res, &g))
      continue;
    /* about a copy terragrunt makes of a unit's file: the element is the
    ** same range in the file itself, which CI annotations can point at */
    const char *orig = copy_of(u, g.subject.filename);
    if (orig && !g.element.filename) {
      g.element = g.subject;
      g.element.filename = orig;
    }
    const struct tfr_unit_input *p =
        g.module && *g.module ? NULL : input_of(u, g.variable);
    const struct tfr_variable *v = p ? var_of(res, g.variable) : NULL;
    if (p && v && g.sev == TFR_DIAG_ERROR &&
        from_input(p, v->source, v->source_file)) {
      g.element = p->range;
      const char *n = tfr_arena_printf(
          a, "The value comes from terragrunt's input \"%s\": %s.", p->name,
          p->chain);
      g.note = g.note ? tfr_arena_printf(a, "%s\n%s", g.note, n) : n;
    }
    tfr_diags_add_full(out, &g);
  }
}

/* An input the module does not declare (ours): a warning, an error with
** strict, at its line, with Terraform's did-you-mean. */
static void undeclared(tfr_arena *a, tfr_diags *out, const struct tfr_unit *u,
                       const struct tfr_resolution *res, bool strict) {
  for (size_t i = 0; i < u->ninputs; i++) {
    const struct tfr_unit_input *p = &u->inputs[i];
    if (tfr_resolution_find(res, p->name))
      continue;
    const char *s = meant(res, p->name);
    tfr_diags_add(
        out, strict ? TFR_DIAG_ERROR : TFR_DIAG_WARNING, &p->range,
        "Value for undeclared variable",
        tfr_arena_printf(a,
                         "The module does not declare a variable named "
                         "\"%s\", so Terraform ignores the TF_VAR_%s that "
                         "terragrunt sets from this input.%s%s%s",
                         p->name, p->name, s ? " Did you mean \"" : "",
                         s ? s : "", s ? "\"?" : ""));
    tfr_diags_set_ours(out);
    tfr_diags_set_code(out, TFR_CODE_UNDECLARED_VALUE);
    if (strict)
      diags_set_strict(out);
  }
}

const struct tfr_resolution *tfr_unit_apply(tfr_arena *a, tfr_diags *out,
                                            const struct tfr_unit *unit,
                                            const struct tfr_resolution *res,
                                            const tfr_diags *in, bool strict) {
  struct tfr_resolution *r = tfr_arena_alloc(a, sizeof *r);
  *r = *res;
  struct tfr_variable *vars = tfr_arena_alloc(a, (res->n + 1) * sizeof *vars);
  if (res->n) /* (a NULL array when empty) */
    memcpy(vars, res->vars, res->n * sizeof *vars);
  for (size_t i = 0; i < res->n; i++)
    apply_var(a, unit, &vars[i]);
  r->vars = vars;
  tfr_diags_share_sources(out, in);
  copy_diags(a, out, unit, res, in);
  if (res->has_config)
    undeclared(a, out, unit, res, strict);
  r->valid = !tfr_diags_has_errors(out);
  return r;
}
