/*
** What rules and the console see (Terraform's evaluation scope offline):
** var.* with each variable's marks, local.* evaluated on demand in
** dependency order, path.* and terraform.workspace; anything else
** (resources, data sources, module calls) is unknown.
*/
#include "module/scope.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/compat.h"
#include "eval/funcs.h"
#include "eval/refs.h"
#include "module/engine_tofu.h"

long scope_local_index(const struct module *m, const char *s, size_t n) {
  return m ? module_local_index(m, s, n) : -1;
}

/* The object of local values: those not evaluated (yet, or in a cycle)
** are unknown. */
static const tfr_value *local_object(struct scope *s) {
  if (s->locals)
    return s->locals;
  size_t n = s->m->nlocals;
  const char **names = tfr_arena_alloc(s->a, (n ? n : 1) * sizeof *names);
  const tfr_value **vals = tfr_arena_alloc(s->a, (n ? n : 1) * sizeof *vals);
  bool all = true;
  for (size_t i = 0; i < n; i++) {
    names[i] = s->m->locals[i].name;
    vals[i] =
        s->lstate[i] == 2 ? s->local[i] : tfr_unknown(s->a, &tfr_t_dynamic);
    all &= s->lstate[i] == 2;
  }
  const tfr_value *o = tfr_object(s->a, n, names, vals);
  if (all)
    s->locals = o;
  return o;
}

/* Evaluate local value i, after the ones it refers to.  Its errors do not
** go anywhere but local_err: a rule that needs it is deferred. */
static void eval_local(struct scope *s, size_t i) {
  if (s->lstate[i])
    return; /* done, or a cycle: it stays unknown */
  s->lstate[i] = 1;
  const struct local_decl *d = &s->m->locals[i];
  struct refs r = refs_of(s->a, d->expr);
  for (size_t j = 0; j < r.locals.n; j++) {
    long t = scope_local_index(s->m, r.locals.v[j], strlen(r.locals.v[j]));
    if (t >= 0)
      eval_local(s, (size_t)t);
  }
  tfr_diags *scratch = tfr_diags_new(s->a);
  struct eval_scope es = {scope_lookup, s, scope_attr};
  struct eval_ctx c = {0};
  c.a = s->a;
  c.diags = scratch;
  c.src = d->src;
  c.scope = &es;
  c.funcs = &funcs_table;
  c.dir = s->m->dir;
  c.plan = s->plan;
  scope_funcs(&c, s->m);
  s->busy++;
  const tfr_value *v = eval_expr(&c, d->expr);
  s->busy--;
  for (size_t k = 0; k < tfr_diags_count(scratch); k++) {
    const struct tfr_diag *g = tfr_diags_get(scratch, k);
    if (g->sev == TFR_DIAG_ERROR) {
      s->local_err[i] =
          g->detail && *g->detail
              ? tfr_arena_printf(s->a, "%s: %s", g->summary, g->detail)
              : g->summary;
      v = tfr_unknown(s->a, &tfr_t_dynamic);
      break;
    }
  }
  s->local[i] = v;
  s->lstate[i] = 2;
}

const tfr_value *scope_lookup(void *ud, struct eval_ctx *c,
                              const struct ast *root, const char *name,
                              size_t len) {
  (void)c;
  (void)root;
  struct scope *s = ud;
  if (len == 3 && !memcmp(name, "var", 3))
    return s->var;
  if (len == 4 && !memcmp(name, "path", 4))
    return s->path;
  if (len == 9 && !memcmp(name, "terraform", 9))
    return s->terraform;
  if (len == 5 && !memcmp(name, "local", 5) && s->m) {
    if (!s->busy) /* the ones a local refers to are done before it */
      for (size_t i = 0; i < s->m->nlocals; i++)
        eval_local(s, i);
    return local_object(s);
  }
  if (s->more)
    return s->more(s->more_ud, name, len);
  /* an ephemeral resource: unknown and ephemeral, in the validate and
  ** eval walks too (evaluate.go:1081-1088) */
  if (len == 9 && !memcmp(name, "ephemeral", 9))
    return tfr_value_mark(s->a, tfr_unknown(s->a, &tfr_t_dynamic),
                          TFR_V_EPHEMERAL);
  /* resources, data sources, modules...: not knowable offline */
  return tfr_unknown(s->a, &tfr_t_dynamic);
}

const tfr_value *scope_attr(void *ud, const char *name, size_t len,
                            const char *attr, size_t alen) {
  struct scope *s = ud;
  return s->more_attr ? s->more_attr(s->more_ud, name, len, attr, alen) : NULL;
}

/* Give a scope the module's local values. */
void scope_locals(struct scope *s, const struct module *m) {
  size_t n = m->nlocals ? m->nlocals : 1;
  s->m = m;
  s->local = tfr_arena_alloc(s->a, n * sizeof *s->local);
  s->local_err = tfr_arena_alloc(s->a, n * sizeof *s->local_err);
  s->lstate = tfr_arena_alloc(s->a, n * sizeof *s->lstate);
}

static const tfr_value *str(tfr_arena *a, const char *s) {
  return tfr_string(a, s, strlen(s));
}

/* path.* and terraform.workspace; path.cwd is the module directory made
** absolute (Terraform runs there: -chdir). */
void scope_fixed(struct scope *s, const char *dir) {
  char cwd[PATH_MAX];
  bool ok =
      dir ? compat_realpath(dir, cwd) != NULL : getcwd(cwd, sizeof cwd) != NULL;
  const char *names[] = {"cwd", "module", "root"};
  const tfr_value *vals[] = {str(s->a, ok ? cwd : "."), str(s->a, "."),
                             str(s->a, ".")};
  s->path = tfr_object(s->a, 3, names, vals);
  const char *ws = getenv("TF_WORKSPACE");
  const char *tn[] = {"workspace"};
  const tfr_value *tv[] = {str(s->a, ws && *ws ? ws : "default")};
  s->terraform = tfr_object(s->a, 1, tn, tv);
}

/* var: every variable, with its declaration's marks; values[k] NULL means
** unknown (of the declared type). */
const tfr_value *scope_var_object(tfr_arena *a, const struct module *m,
                                  const tfr_value *const *values) {
  size_t n = m->nvars;
  const char **names = tfr_arena_alloc(a, (n ? n : 1) * sizeof *names);
  const tfr_value **vals = tfr_arena_alloc(a, (n ? n : 1) * sizeof *vals);
  for (size_t k = 0; k < n; k++) {
    const struct var_decl *v = &m->vars[k];
    names[k] = v->name;
    /* an unknown of the declared type without its optional() markers */
    const tfr_value *x = values && values[k]
                             ? values[k]
                             : tfr_unknown(a, tfr_type_plain(a, v->type));
    unsigned marks = (v->sensitive ? TFR_V_SENSITIVE : 0) |
                     (v->ephemeral ? TFR_V_EPHEMERAL : 0);
    vals[k] = marks ? tfr_value_mark(a, x, marks) : x;
  }
  return tfr_object(a, n, names, vals);
}

const struct eval_scope *scope_console(tfr_arena *a) {
  struct scope *s = tfr_arena_alloc(a, sizeof *s);
  s->a = a;
  s->var = tfr_object(a, 0, NULL, NULL);
  scope_fixed(s, NULL);
  struct eval_scope *es = tfr_arena_alloc(a, sizeof *es);
  es->lookup = scope_lookup;
  es->ud = s;
  return es;
}

const struct eval_scope *scope_module(tfr_arena *a, const struct module *m,
                                      const tfr_value *const *values) {
  struct scope *s = tfr_arena_alloc(a, sizeof *s);
  s->a = a;
  s->var = scope_var_object(a, m, values);
  scope_fixed(s, m->dir);
  scope_locals(s, m);
  struct eval_scope *es = tfr_arena_alloc(a, sizeof *es);
  es->lookup = scope_lookup;
  es->ud = s;
  return es;
}

void scope_funcs(struct eval_ctx *c, const struct module *m) {
  const struct engine_rules *e = m ? engine_rules(m->opentofu) : NULL;
  c->engine = e ? e->eval : NULL;
  c->providers = e && e->providers_required ? &m->providers : NULL;
}
