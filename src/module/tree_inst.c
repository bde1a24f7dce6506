/*
** Module instances and their scope.
*/
#include "module/tree_int.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "base/diag_int.h"
#include "eval/funcs.h"
#include "module/validate.h"

/* ---- instances and their scope ------------------------------------------ */

struct tinst *tree_new_inst(struct tree *t, struct tmod *tm,
                            struct tinst *parent, const char *addr,
                            struct trep rep) {
  struct tinst *in = tfr_arena_alloc(t->a, sizeof *in);
  const struct module *m = tm->m;
  size_t nv = m->nvars ? m->nvars : 1;
  in->tm = tm;
  in->addr = addr;
  in->parent = parent;
  in->rep = rep;
  in->vars = tfr_arena_alloc(t->a, nv * sizeof *in->vars);
  in->var_done = tfr_arena_alloc(t->a, nv * sizeof *in->var_done);
  in->failed = tfr_arena_alloc(t->a, nv * sizeof *in->failed);
  in->rules = tfr_arena_alloc(t->a, nv * sizeof *in->rules);
  in->locals =
      tfr_arena_alloc(t->a, (m->nlocals ? m->nlocals : 1) * sizeof *in->locals);
  in->outputs = tfr_arena_alloc(t->a, (m->noutputs ? m->noutputs : 1) *
                                          sizeof *in->outputs);
  in->calls =
      tfr_arena_alloc(t->a, (m->ncalls ? m->ncalls : 1) * sizeof *in->calls);
  in->call_val =
      tfr_arena_alloc(t->a, (m->ncalls ? m->ncalls : 1) * sizeof *in->call_val);
  for (size_t k = 0; k < m->nvars; k++)
    in->rules[k] = module_skipped_rules(t->a, &m->vars[k]);
  ARENA_GROW(t->a, tm->insts, tm->ninsts, tm->cap, 4);
  tm->insts[tm->ninsts++] = in;
  return in;
}

const tfr_value *tree_str_val(tfr_arena *a, const char *s) {
  return tfr_string(a, s, strlen(s));
}

/* One child instance's outputs as an object (evaluate.go GetModule). */
static const tfr_value *outputs_object(struct tree *t, const struct tmod *ch,
                                       const struct tinst *ci) {
  const struct module *m = ch->m;
  size_t n = m->noutputs;
  const char **names = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *names);
  const tfr_value **vals = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *vals);
  for (size_t i = 0; i < n; i++) {
    const struct output_decl *o = &m->outputs[i];
    names[i] = o->name;
    const tfr_value *v = ci && !t->validate ? ci->outputs[i] : NULL;
    if (!v)
      v = tfr_unknown(t->a,
                      o->type ? tfr_type_plain(t->a, o->type) : &tfr_t_dynamic);
    else if (o->sensitive)
      v = tfr_value_mark(t->a, v, TFR_V_SENSITIVE);
    vals[i] = v;
  }
  return tfr_object(t->a, n, names, vals);
}

/* The value of module.NAME in an instance. */
static const tfr_value *module_value(struct tree *t, struct tinst *in,
                                     size_t c) {
  const struct module *m = in->tm->m;
  const struct module_call *call = &m->calls[c];
  struct tmod *ch = in->tm->children[c];
  if (!ch)
    return tfr_unknown(t->a, &tfr_t_dynamic);
  const struct module *cm = ch->m;
  bool typed = false, no_dynamic = true;
  const char **names =
      tfr_arena_alloc(t->a, (cm->noutputs ? cm->noutputs : 1) * sizeof *names);
  const tfr_type **types =
      tfr_arena_alloc(t->a, (cm->noutputs ? cm->noutputs : 1) * sizeof *types);
  for (size_t i = 0; i < cm->noutputs; i++) {
    const struct output_decl *o = &cm->outputs[i];
    typed |= o->type != NULL;
    types[i] = o->type ? tfr_type_plain(t->a, o->type) : &tfr_t_dynamic;
    no_dynamic &= !tfr_type_has_dynamic(types[i]);
    names[i] = o->name;
  }
  const tfr_type *inst_ty =
      tfr_type_object(t->a, cm->noutputs, names, types, NULL);
  if (t->validate) {
    if (typed) {
      if (call->count && no_dynamic)
        return tfr_unknown(t->a, tfr_type_list(t->a, inst_ty));
      if (call->for_each && no_dynamic)
        return tfr_unknown(t->a, tfr_type_map(t->a, inst_ty));
      if (call->count || call->for_each)
        return tfr_unknown(t->a, &tfr_t_dynamic);
      return outputs_object(t, ch, NULL);
    }
    if (call->count || call->for_each) {
      const tfr_type **dyn = tfr_arena_alloc(
          t->a, (cm->noutputs ? cm->noutputs : 1) * sizeof *dyn);
      for (size_t i = 0; i < cm->noutputs; i++)
        dyn[i] = &tfr_t_dynamic;
      const tfr_type *o = tfr_type_object(t->a, cm->noutputs, names, dyn, NULL);
      return tfr_unknown(t->a, call->count ? tfr_type_list(t->a, o)
                                           : tfr_type_map(t->a, o));
    }
    return outputs_object(t, ch, NULL);
  }
  const struct texp *e = in->calls[c];
  if (!e)
    return tfr_unknown(t->a, &tfr_t_dynamic);
  if (e->mode == EXP_SINGLE && !e->n && call->enabled)
    return tfr_null(t->a, &tfr_t_dynamic); /* O evaluate.go:571-582 */
  if (e->mode == EXP_SINGLE)
    return outputs_object(t, ch, e->n ? e->insts[0] : NULL);
  const tfr_value **vals =
      tfr_arena_alloc(t->a, (e->n ? e->n : 1) * sizeof *vals);
  for (size_t i = 0; i < e->n; i++)
    vals[i] = outputs_object(t, ch, e->insts[i]);
  if (e->mode == EXP_COUNT) {
    if (no_dynamic)
      return tfr_list(t->a, inst_ty, e->n, vals);
    return tfr_tuple(t->a, e->n, vals);
  }
  if (no_dynamic) {
    uint32_t *lens = tfr_arena_alloc(t->a, (e->n ? e->n : 1) * sizeof *lens);
    for (size_t i = 0; i < e->n; i++)
      lens[i] = (uint32_t)strlen(e->keys[i]);
    return tfr_map(t->a, inst_ty, e->n, e->keys, lens, vals);
  }
  return tfr_object(t->a, e->n, e->keys, vals);
}

/* module.NAME of an instance, made once until what it holds changes. */
static const tfr_value *call_value(struct tree *t, struct tinst *in, size_t c) {
  if (!in->call_val[c])
    in->call_val[c] = module_value(t, in, c);
  return in->call_val[c];
}

static const tfr_value *more(void *ud, const char *name, size_t len) {
  struct tscope *ts = ud;
  struct tree *t = ts->t;
  struct tinst *in = ts->in;
  const struct module *m = in->tm->m;
#define IS(s) (len == strlen(s) && !memcmp(name, s, len))
  if (IS("local") && in->local_obj)
    return in->local_obj;
  if (IS("module") && in->module_obj)
    return in->module_obj;
  if (IS("local")) {
    size_t n = m->nlocals;
    const char **names = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *names);
    const tfr_value **vals = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *vals);
    for (size_t i = 0; i < n; i++) {
      names[i] = m->locals[i].name;
      vals[i] =
          in->locals[i] ? in->locals[i] : tfr_unknown(t->a, &tfr_t_dynamic);
    }
    return tfr_object(t->a, n, names, vals);
  }
  if (IS("module")) {
    size_t n = m->ncalls;
    const char **names = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *names);
    const tfr_value **vals = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *vals);
    for (size_t i = 0; i < n; i++) {
      names[i] = m->calls[i].name;
      vals[i] = call_value(t, in, i);
    }
    return in->module_obj = tfr_object(t->a, n, names, vals);
  }
  if (IS("count") && ts->rep && ts->rep->count_index) {
    const char *names[] = {"index"};
    const tfr_value *vals[] = {ts->rep->count_index};
    return tfr_object(t->a, 1, names, vals);
  }
  if (IS("each") && ts->rep && ts->rep->each_key) {
    const char *names[] = {"key", "value"};
    const tfr_value *vals[] = {ts->rep->each_key, ts->rep->each_value};
    return tfr_object(t->a, 2, names, vals);
  }
  /* an ephemeral resource: unknown and ephemeral (evaluate.go:1081-1088);
  ** its attributes keep the mark (eval_getattr, src/eval/eval.c) */
  if (IS("ephemeral"))
    return tfr_value_mark(t->a, tfr_unknown(t->a, &tfr_t_dynamic),
                          TFR_V_EPHEMERAL);
#undef IS
  return tfr_unknown(t->a, &tfr_t_dynamic);
}

/* local.NAME and module.NAME of an instance, without the object of them
** all (a module of 500 local values would build it 500 times); NULL for
** a name it does not declare (the object's path gives the error). */
static const tfr_value *var_value(struct tree *t, struct tinst *in, size_t k);

static const tfr_value *more_attr(void *ud, const char *name, size_t len,
                                  const char *attr, size_t alen) {
  struct tscope *ts = ud;
  struct tinst *in = ts->in;
  const struct module *m = in->tm->m;
  if (len == 5 && !memcmp(name, "local", 5)) {
    long k = scope_local_index(m, attr, alen);
    if (k < 0)
      return NULL;
    return in->locals[k] ? in->locals[k]
                         : tfr_unknown(ts->t->a, &tfr_t_dynamic);
  }
  if (len == 3 && !memcmp(name, "var", 3) && ts->vars) {
    /* as scope_var_object gives it, without the object of them all */
    long k = module_var_index(m, attr, alen);
    if (k < 0)
      return NULL;
    const struct var_decl *v = &m->vars[k];
    const tfr_value *x = var_value(ts->t, in, (size_t)k);
    if (!x)
      x = tfr_unknown(ts->t->a, tfr_type_plain(ts->t->a, v->type));
    unsigned marks = (v->sensitive ? TFR_V_SENSITIVE : 0) |
                     (v->ephemeral ? TFR_V_EPHEMERAL : 0);
    return marks ? tfr_value_mark(ts->t->a, x, marks) : x;
  }
  if (len == 6 && !memcmp(name, "module", 6))
    for (size_t i = 0; i < m->ncalls; i++)
      if (strlen(m->calls[i].name) == alen &&
          !memcmp(m->calls[i].name, attr, alen))
        return call_value(ts->t, in, i);
  return NULL;
}

/* Variable k of an instance as var.* holds it: in the validate walk
** every variable is unknown of its type (NULL); else its value, unknown
** while it has none. */
static const tfr_value *var_value(struct tree *t, struct tinst *in, size_t k) {
  if (t->validate || (t->init && !in->vars[k]))
    return NULL; /* unknown of its type */
  if (in->var_done[k] || !in->tm->parent)
    return in->vars[k] ? in->vars[k] : tfr_unknown(t->a, &tfr_t_dynamic);
  return tfr_unknown(t->a, &tfr_t_dynamic);
}

/* var.*: the instance's values; in the validate walk every variable is
** unknown of its type but own (the rule's variable), which has own_val;
** in the init walk, every one that is not const. */
const tfr_value *tree_var_object(struct tree *t, struct tinst *in, long own,
                                 const tfr_value *own_val) {
  const struct module *m = in->tm->m;
  const tfr_value **vals =
      tfr_arena_alloc(t->a, (m->nvars ? m->nvars : 1) * sizeof *vals);
  for (size_t k = 0; k < m->nvars; k++)
    vals[k] = (long)k == own ? own_val : var_value(t, in, k);
  return scope_var_object(t->a, m, vals);
}

void tree_init_scope(struct tree *t, struct scope *s, struct tscope *ts,
                     struct tinst *in, const struct trep *rep, long own,
                     const tfr_value *own_val) {
  *s = (struct scope){0};
  s->a = t->a;
  if (own >= 0)
    s->var = tree_var_object(t, in, own, own_val);
  else {
    if (!in->var_obj)
      in->var_obj = tree_var_object(t, in, -1, NULL);
    s->var = in->var_obj;
  }
  if (!t->terraform) { /* path.cwd and terraform.*, once */
    scope_fixed(s, t->root->dir);
    t->path_cwd = tfr_value_is_known(s->path->elems[0])
                      ? s->path->elems[0]
                      : tree_str_val(t->a, ".");
    t->terraform = s->terraform;
  }
  if (!in->tm->path) {
    const char *names[] = {"cwd", "module", "root"};
    const tfr_value *vals[] = {t->path_cwd, tree_str_val(t->a, in->tm->rel),
                               tree_str_val(t->a, ".")};
    in->tm->path = tfr_object(t->a, 3, names, vals);
  }
  s->path = in->tm->path;
  s->terraform = t->terraform;
  s->plan = true;
  s->dir = t->root->dir;
  s->funcs_of = in->tm->m;
  *ts = (struct tscope){t, in, rep, false};
  s->more = more;
  s->more_attr = more_attr;
  s->more_ud = ts;
}

/* The context of an expression of src in instance in (rep: the
** repetition of a call's own arguments, or NULL). */
void tree_inst_ctx(struct tree *t, struct inst_ctx *ic, struct tinst *in,
                   struct src_file *src, const struct trep *rep) {
  tree_init_scope(t, &ic->s, &ic->ts, in, rep, -1, NULL);
  ic->ts.vars = true;
  ic->es = (struct eval_scope){scope_lookup, &ic->s, scope_attr};
  ic->c = (struct eval_ctx){0};
  ic->c.a = t->a;
  ic->c.diags = t->diags;
  ic->c.src = src;
  ic->c.scope = &ic->es;
  ic->c.funcs = &funcs_table;
  ic->c.dir = t->root->dir;
  ic->c.plan = true;
  scope_funcs(&ic->c, in->tm->m);
}

void tree_walk_said(struct tree *t, size_t before, const char *module) {
  if (t->validate) /* only errors count there */
    for (size_t i = tfr_diags_count(t->diags); i > before; i--)
      if (tfr_diags_get(t->diags, i - 1)->sev != TFR_DIAG_ERROR)
        diags_remove(t->diags, i - 1, i);
  diags_set_module_since(t->diags, before, module);
}

/* Evaluate x (in src) in instance in, as lang's EvalExpr: the static
** reference checks first.  NULL after an error (reported, with the
** instance's address). */
const tfr_value *tree_eval_in(struct tree *t, struct tinst *in,
                              struct src_file *src, const struct ast *x,
                              const struct trep *rep, const char *var,
                              const char *module) {
  if (t->budget_said)
    return NULL; /* nothing more is evaluated: the budget's error is said */
  size_t before = tfr_diags_count(t->diags);
  const tfr_value *v = NULL;
  struct tref_list l = tree_refs_of_x(t, x);
  bool ok = tree_repetition_refs(t, src, &l, rep, var);
  /* which names are declared does not change: the validate walk, which
  ** evaluates every expression and stops at errors, checked them */
  if (t->validate)
    ok &= validate_refs(in->tm->m, t->a, t->diags, src, x, var);
  if (ok) {
    struct inst_ctx ic;
    tree_inst_ctx(t, &ic, in, src, rep);
    v = eval_expr(&ic.c, x);
    for (size_t i = before; i < tfr_diags_count(t->diags); i++)
      if (var)
        tfr_diags_set_variable_at(t->diags, i, var);
  }
  tree_walk_said(t, before, module);
  if (diags_errors_since(t->diags, before))
    return NULL;
  /* the values the tree holds so far, this one's included */
  if (tree_over_budget(t, src, x->span, module,
                       "Evaluating this expression in %s",
                       *module ? module : "the root module"))
    return NULL;
  return v;
}

/* A module source that is not a literal string, as Terraform's init walk
** evaluates it (node_module_install.go evalSource): only const variables
** (the root's, known by then), local values and path.* are known; NULL
** after its error. */
const char *tree_eval_source(struct tree *t, struct tmod *tm,
                             const struct module_call *c, const char *addr) {
  const struct ast *x = c->source_expr;
  struct src_file *src = c->source_src;
  struct tref_list l = tree_refs_of_x(t, x);
  for (size_t i = 0; i < l.n; i++)
    if (!tree_root_is(&l.v[i], "var") && !tree_root_is(&l.v[i], "local") &&
        !tree_root_is(&l.v[i], "path")) {
      tree_call_error_in(t, src, l.v[i].span, addr, "Invalid module source",
                         "The module source can only reference constant input "
                         "variables and local values.");
      return NULL;
    }
  const struct module *m = tm->m;
  const tfr_value **vals =
      tfr_arena_alloc(t->a, (m->nvars ? m->nvars : 1) * sizeof *vals);
  for (size_t k = 0; k < m->nvars && !tm->parent && t->const_values; k++)
    vals[k] = m->vars[k].is_const ? t->const_values[k] : NULL;
  struct scope s = {0};
  s.a = t->a;
  s.var = scope_var_object(t->a, m, vals);
  scope_fixed(&s, t->root->dir);
  const char *names[] = {"cwd", "module", "root"};
  const tfr_value *pv[] = {s.path->elems[0], tree_str_val(t->a, tm->rel),
                           tree_str_val(t->a, ".")};
  s.path = tfr_object(t->a, 3, names, pv);
  scope_locals(&s, m);
  s.plan = true;
  struct eval_scope es = {scope_lookup, &s, scope_attr};
  struct eval_ctx ec = {0};
  ec.a = t->a;
  ec.diags = t->diags;
  ec.src = src;
  ec.scope = &es;
  ec.funcs = &funcs_table;
  ec.dir = t->root->dir;
  ec.plan = true;
  ec.unknown_funcs = EVAL_FUNCS_INIT;
  scope_funcs(&ec, m);
  size_t before = tfr_diags_count(t->diags);
  const tfr_value *v = eval_expr(&ec, x);
  const char *err = NULL;
  if (!diags_errors_since(t->diags, before)) {
    const tfr_value *cv = conv_convert(t->a, v, &tfr_t_string, &err);
    if (!cv)
      tfr_diags_add(t->diags, TFR_DIAG_ERROR, NULL, "Incorrect value type",
                    tfr_arena_printf(t->a, "Invalid expression value: %s.",
                                     err ? err : "string required"));
    v = cv;
  }
  diags_set_module_since(t->diags, before, addr);
  if (!v || diags_errors_since(t->diags, before))
    return NULL;
  const char *detail = NULL, *summary = "Unknown module source";
  if (v->flags & TFR_V_NULL)
    summary = "Unsuitable module source",
    detail = "Unsuitable value: null value is not allowed.";
  else if (!tfr_value_is_wholly_known(v))
    detail = "Only literal values and const variables can be evaluated "
             "during init.";
  else if (v->flags & (TFR_V_SENSITIVE | TFR_V_EPHEMERAL))
    detail = "The module source cannot be derived from a sensitive or "
             "ephemeral value.";
  if (detail) {
    tree_call_error_in(t, src, x->span, addr, summary, detail);
    return NULL;
  }
  if (!tree_source_chars_ok(t, src, x->span, addr, v->s, v->n))
    return NULL;
  return tfr_arena_strndup(t->a, v->s, v->n);
}
