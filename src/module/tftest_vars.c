/*
** The variables of a test file that Terraform 1.13 added (see tftest.c):
** the values of its `variable` blocks, the outputs of a run that its
** file-level `variables` may read as run.NAME.OUTPUT, and the order of
** the file's runs and variables, whose cycles Terraform rejects.
**
** Terraform evaluates a test file as a graph (internal/moduletest/graph):
** each variable block is a node (node_variable.go:43-78) whose value
** comes from the test command's values (-var, -var-file, TF_VAR_, the
** tfvars files; EvaluateUnparsedVariable, eval_context.go:434-448) and is
** prepared as a root module's (PrepareFinalInputVariableValue,
** internal/terraform/eval_variable.go:25-200); each file-level variable
** is a node that waits for the runs and variables it refers to
** (node_variable.go:100-147); each run waits for the runs before it and
** for the variables it uses (node_test_run.go:51-85); a cycle among them
** stops the file before any run (graph_builder.go:83-87, dag.go:203-253).
*/
#include "module/tftest_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/diag_int.h"
#include "base/strutil.h"
#include "eval/eval.h"
#include "module/engine_tofu.h"
#include "module/finalize.h"
#include "module/module.h"
#include "module/validate.h"
#include "module/scope.h"
#include "syntax/parse.h"
#include "values/convert.h"

/* ---- the values of variable blocks -------------------------------------- */

/* The value that wins for name among the collected values (the last in
** precedence order), or NULL. */
static const struct raw_value *winner(const struct module *m,
                                      const char *name) {
  const struct raw_value *w = NULL;
  for (size_t i = 0; i < m->nraws; i++)
    if (!strcmp(m->raws[i].name, name))
      w = &m->raws[i];
  return w;
}

/* ParseVariableValue in the variable block's parsing mode; NULL after
** errors in d. */
static const tfr_value *parse_raw(tfr_arena *a, tfr_diags *d, struct module *m,
                                  const struct tdef *v,
                                  const struct raw_value *raw) {
  size_t before = tfr_diags_count(d);
  const tfr_value *val = NULL;
  if (raw->src) {
    const struct ast *x = module_raw_expr(m, a, d, raw);
    if (x)
      val = eval_const(a, d, raw->src, x);
  } else if (v->literal) {
    val = tfr_string(a, raw->text, raw->len);
  } else {
    const char *name = tfr_arena_printf(a, "<value for var.%s>", v->name);
    tfr_file *f = parse_bytes_expr(a, d, name, raw->text, raw->len);
    val = f ? eval_const(a, d, f->f.src, f->f.body) : NULL;
  }
  /* ours: the text of a sensitive one's value is not quoted back */
  for (size_t i = before; v->sensitive && i < tfr_diags_count(d); i++)
    diags_at(d, i)->hide_source = true;
  return tfr_diags_count(d) > before ? NULL : val;
}

/* PrepareFinalInputVariableValue (eval_variable.go:25-200) for variable
** block v whose given value is given (NULL: not set), from raw: the one
** finaliser (finalize.h), as for a module's variables; NULL after an
** error in d. */
static const tfr_value *prepare(tfr_arena *a, tfr_diags *d,
                                struct src_file *src, const struct tdef *v,
                                const tfr_value *given,
                                const struct raw_value *raw) {
  struct var_decl decl = {.name = v->name,
                          .decl = src_range(src, v->decl),
                          .type = v->type,
                          .defaults = v->defaults,
                          .dflt = v->def,
                          .has_default = v->def != NULL,
                          .sensitive = v->sensitive,
                          .nullable = v->nullable,
                          .ephemeral = v->ephemeral};
  struct finalizer f = {.a = a,
                        .diags = d,
                        .engine = engine_rules(false),
                        .v = &decl,
                        .addr = tfr_arena_printf(a, "var.%s", v->name)};
  struct given_value g = {
      given, raw ? raw->kind : TFR_SRC_DEFAULT,
      raw && raw->src ? raw_range(raw) : (struct tfr_range){0}, false};
  return var_final(&f, &g);
}

void tt_eval_defs(tfr_arena *a, struct tfile *f, struct module *values,
                  tfr_diags *out) {
  for (size_t i = 0; i < f->ndefs; i++) {
    struct tdef *v = &f->defs[i];
    const struct raw_value *raw = values ? winner(values, v->name) : NULL;
    const tfr_value *given = NULL;
    if (raw && !(given = parse_raw(a, out, values, v, raw))) {
      v->failed = true; /* node_variable.go:48-54 */
      continue;
    }
    const tfr_value *val = prepare(a, out, f->src, v, given, raw);
    if (!val) {
      v->failed = true;
      continue;
    }
    /* ours: a sensitive one stays marked, so that no output shows it
    ** (the finaliser marks an ephemeral one) */
    v->value = v->sensitive ? tfr_value_mark(a, val, TFR_V_SENSITIVE) : val;
  }
}

/* ---- the outputs of a run ----------------------------------------------- */

/* Does x refer only to what is known offline (var, local, path,
** terraform)? */
static bool offline_refs(tfr_arena *a, const struct ast *x) {
  struct refs l = tt_refs_of(a, x);
  for (size_t i = 0; i < l.n; i++)
    if (!tt_ref_root(&l.v[i], "var") && !tt_ref_root(&l.v[i], "local") &&
        !tt_ref_root(&l.v[i], "path") && !tt_ref_root(&l.v[i], "terraform"))
      return false;
  return true;
}

/* Does a local value of m refer to anything but var, local, path and
** terraform (a resource, a module call...)? */
static bool locals_need_plan(tfr_arena *a, const struct module *m) {
  for (size_t i = 0; i < m->nlocals; i++)
    if (!offline_refs(a, m->locals[i].expr))
      return true;
  return false;
}

struct touts tt_run_outputs(tfr_arena *a, const struct module *m,
                            const tfr_value *const *values, const char *dir,
                            bool opentofu) {
  bool plan_locals = locals_need_plan(a, m);
  const struct eval_scope *sc = scope_module(a, m, values);
  size_t n = m->noutputs ? m->noutputs : 1;
  const char **names = tfr_arena_alloc(a, n * sizeof *names);
  const tfr_value **vals = tfr_arena_alloc(a, n * sizeof *vals);
  for (size_t i = 0; i < m->noutputs; i++) {
    const struct output_decl *o = &m->outputs[i];
    names[i] = o->name;
    vals[i] = NULL; /* known only to a plan with providers */
    if (!o->expr) {
      vals[i] = tfr_null(a, &tfr_t_dynamic);
      continue;
    }
    if (!offline_refs(a, o->expr) || plan_locals)
      continue;
    struct eval_ctx c = {0};
    c.a = a;
    c.diags = tfr_diags_new(a);
    c.src = o->expr_src ? o->expr_src : o->src;
    c.scope = sc;
    scope_funcs(&c, m);
    c.dir = dir;
    c.engine = engine_rules(opentofu)->eval;
    c.plan = true;
    const tfr_value *v = eval_expr(&c, o->expr);
    if (!v || tfr_diags_has_errors(c.diags))
      continue;
    if (o->type) {
      const char *err = NULL;
      v = conv_convert(a, v, o->type, &err);
      if (!v)
        continue;
    }
    vals[i] = o->sensitive ? tfr_value_mark(a, v, TFR_V_SENSITIVE) : v;
  }
  return (struct touts){true, m->noutputs, names, vals};
}

const tfr_value *tt_outputs_object(tfr_arena *a, const struct touts *o) {
  size_t n = o->n ? o->n : 1;
  const tfr_value **vals = tfr_arena_alloc(a, n * sizeof *vals);
  for (size_t i = 0; i < o->n; i++)
    vals[i] = o->vals[i] ? o->vals[i] : tfr_unknown(a, &tfr_t_dynamic);
  return tfr_object(a, o->n, o->names, vals);
}

/* ---- the order of runs and variables ------------------------------------ */

/* The graph of a test file (test_graph_builder.go:47-80): runs first,
** then the variable blocks, then the file-level variables. */
struct graph {
  tfr_arena *a;
  const struct tfile *f;
  const struct module *m;
  size_t n, nruns;
  const char **names; /* as Terraform names the nodes */
  size_t *index, *low;
  bool *on_stack;
  size_t *stack, nstack, next;
  tfr_diags *out;
  bool any;
};

/* The variable node named name (n bytes), or (size_t)-1. */
static size_t var_node(const struct graph *g, const char *name, size_t n) {
  for (size_t i = g->nruns; i < g->n; i++)
    if (strlen(g->names[i]) == n + 4 && !memcmp(g->names[i] + 4, name, n))
      return i;
  return (size_t)-1;
}

static size_t run_node(const struct graph *g, const char *name, size_t n) {
  for (size_t i = 0; i < g->nruns; i++)
    if (strlen(g->f->runs[i].name) == n && !memcmp(g->f->runs[i].name, name, n))
      return i;
  return (size_t)-1;
}

static const char *state_key(const struct trun *r) {
  return r->state_key                        ? r->state_key
         : r->has_module && r->module_source ? r->module_source
                                             : "";
}

static bool parallel(const struct tfile *f, const struct trun *r) {
  return r->parallel >= 0 ? r->parallel == 1 : f->parallel;
}

/* The node a reference leads to (ReferenceTransformer: only references
** to nodes of the graph make edges), or (size_t)-1. */
static size_t ref_node(const struct graph *g, const struct ref *r) {
  if (!r->attr)
    return (size_t)-1;
  if (tt_ref_root(r, "var"))
    return var_node(g, r->attr, r->alen);
  if (tt_ref_root(r, "run"))
    return run_node(g, r->attr, r->alen);
  return (size_t)-1;
}

struct succ {
  size_t *v;
  size_t n, cap;
};

static void succ_add(tfr_arena *a, struct succ *s, size_t to) {
  if (to == (size_t)-1)
    return;
  for (size_t i = 0; i < s->n; i++)
    if (s->v[i] == to)
      return;
  if (s->n == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 8;
    size_t *nv = tfr_arena_alloc(a, s->cap * sizeof *nv);
    if (s->n)
      memcpy(nv, s->v, s->n * sizeof *nv);
    s->v = nv;
  }
  s->v[s->n++] = to;
}

static void succ_refs(struct graph *g, struct succ *s, const struct ast *x) {
  struct refs l = tt_refs_of(g->a, x);
  for (size_t i = 0; i < l.n; i++)
    succ_add(g->a, s, ref_node(g, &l.v[i]));
}

/* What node i waits for: a run its references (GetRunReferences,
** opts.go:57-87), the variables of the module it does not set
** (node_test_run.go:63-82) and the runs before it that it may not run
** beside (transform_test_run.go:41-50); a file-level variable its
** references (node_variable.go:100-103). */
static struct succ successors(struct graph *g, size_t i) {
  struct succ s = {0};
  const struct tfile *f = g->f;
  if (i >= g->nruns) {
    size_t k = i - g->nruns - f->ndefs;
    if (i >= g->nruns + f->ndefs)
      succ_refs(g, &s, f->vars.v[k].attr->kids[0]);
    return s;
  }
  const struct trun *r = &f->runs[i];
  for (size_t k = 0; k < r->nasserts; k++) {
    succ_refs(g, &s, r->asserts[k].cond);
    succ_refs(g, &s, r->asserts[k].msg);
  }
  for (size_t k = 0; k < r->vars.n; k++)
    succ_refs(g, &s, r->vars.v[k].attr->kids[0]);
  for (size_t k = 0; k < g->m->nvars; k++) {
    const char *name = g->m->vars[k].name;
    bool set = false;
    for (size_t j = 0; j < r->vars.n && !set; j++)
      set = !strcmp(r->vars.v[j].name, name);
    if (!set)
      succ_add(g->a, &s, var_node(g, name, strlen(name)));
  }
  for (size_t j = i; j-- > 0;) {
    const struct trun *p = &f->runs[j];
    if (!parallel(f, r) || !parallel(f, p) ||
        !strcmp(state_key(r), state_key(p)))
      succ_add(g->a, &s, j);
  }
  return s;
}

/* A strongly connected component of more than one node, as Validate
** words it (validate_cycle): scc in pop order. */
static void cycle_error(struct graph *g, const size_t *scc, size_t n) {
  const char **names = tfr_arena_alloc(g->a, n * sizeof *names);
  for (size_t i = 0; i < n; i++)
    names[i] = g->names[scc[n - 1 - i]];
  validate_cycle(g->a, g->out, engine_rules(false), names, n);
  g->any = true;
}

/* Tarjan's algorithm, as dag/tarjan.go walks it. */
static size_t strong(struct graph *g, size_t v) {
  g->index[v] = g->low[v] = ++g->next;
  g->stack[g->nstack++] = v;
  g->on_stack[v] = true;
  struct succ s = successors(g, v);
  for (size_t i = 0; i < s.n; i++) {
    size_t w = s.v[i];
    if (!g->index[w]) {
      size_t l = strong(g, w);
      if (l < g->low[v])
        g->low[v] = l;
    } else if (g->on_stack[w] && g->index[w] < g->low[v]) {
      g->low[v] = g->index[w];
    }
  }
  if (g->low[v] == g->index[v]) {
    /* the component, in the order it is popped (the stack's top first) */
    size_t *scc = tfr_arena_alloc(g->a, g->nstack * sizeof *scc), n = 0;
    size_t w;
    do {
      w = g->stack[--g->nstack];
      g->on_stack[w] = false;
      scc[n++] = w;
    } while (w != v);
    if (n > 1)
      cycle_error(g, scc, n);
  }
  return g->low[v];
}

static void graph_init(struct graph *g, tfr_arena *a, const struct tfile *f,
                       const struct module *m, tfr_diags *out) {
  memset(g, 0, sizeof *g);
  g->a = a;
  g->f = f;
  g->m = m;
  g->out = out;
  g->nruns = f->nruns;
  g->n = f->nruns + f->ndefs + f->vars.n;
  size_t n = g->n ? g->n : 1;
  g->names = tfr_arena_alloc(a, n * sizeof *g->names);
  g->index = tfr_arena_alloc(a, n * sizeof *g->index);
  g->low = tfr_arena_alloc(a, n * sizeof *g->low);
  g->on_stack = tfr_arena_alloc(a, n * sizeof *g->on_stack);
  g->stack = tfr_arena_alloc(a, n * sizeof *g->stack);
  for (size_t i = 0; i < f->nruns; i++)
    g->names[i] = tfr_arena_printf(a, "%s.run.%s", f->name, f->runs[i].name);
  for (size_t i = 0; i < f->ndefs; i++)
    g->names[f->nruns + i] = tfr_arena_printf(a, "var.%s", f->defs[i].name);
  for (size_t i = 0; i < f->vars.n; i++)
    g->names[f->nruns + f->ndefs + i] =
        tfr_arena_printf(a, "var.%s", f->vars.v[i].name);
}

/* Did node w (a variable) fail, or wait for a run that did not complete
** (ReferencesCompleted, eval_context.go:661-686)?  The reason, or NULL;
** *offline when only tfresolve could not tell. */
static const char *var_blocked(struct graph *g, size_t w,
                               const struct tfr_test_run *done, bool *offline) {
  const struct tfile *f = g->f;
  const char *name = g->names[w];
  if (w < g->nruns + f->ndefs) {
    if (!f->defs[w - g->nruns].failed)
      return NULL;
    return tfr_arena_printf(g->a,
                            "it uses %s, whose value has errors, and "
                            "Terraform skips the runs that use it",
                            name);
  }
  struct succ s = successors(g, w);
  for (size_t i = 0; i < s.n; i++) {
    size_t x = s.v[i];
    if (x >= g->nruns) {
      bool dummy;
      if (x != w && x < g->nruns + f->ndefs && var_blocked(g, x, done, &dummy))
        return tfr_arena_printf(g->a,
                                "it uses %s, which reads %s, whose value "
                                "has errors, and Terraform skips the runs "
                                "that use it",
                                name, g->names[x]);
      continue;
    }
    enum tfr_test_status st = done[x].status;
    if (st == TFR_TEST_PASS || st == TFR_TEST_FAIL || st == TFR_TEST_PENDING)
      continue; /* pending: a later run, which tfresolve reports */
    *offline = st == TFR_TEST_SKIP && done[x].offline;
    return tfr_arena_printf(g->a,
                            *offline ? "it uses %s, which reads the outputs "
                                       "of run \"%s\", which was not "
                                       "decidable offline"
                                     : "it uses %s, which reads the outputs "
                                       "of run \"%s\", which did not "
                                       "complete, and Terraform skips the "
                                       "runs that use it",
                            name, f->runs[x].name);
  }
  return NULL;
}

const char *tt_blocked(tfr_arena *a, const struct tfile *f,
                       const struct module *m, size_t run,
                       const struct tfr_test_run *done, bool *offline) {
  struct graph g;
  graph_init(&g, a, f, m, NULL);
  *offline = false;
  struct succ s = successors(&g, run);
  for (size_t i = 0; i < s.n; i++) {
    const char *why =
        s.v[i] >= g.nruns ? var_blocked(&g, s.v[i], done, offline) : NULL;
    if (why)
      return why;
  }
  return NULL;
}

bool tt_cycles(tfr_arena *a, const struct tfile *f, const struct module *m,
               tfr_diags *out) {
  struct graph g;
  graph_init(&g, a, f, m, out);
  for (size_t i = 0; i < g.n; i++)
    if (!g.index[i])
      strong(&g, i);
  /* edges to self (dag.go:244-250) */
  for (size_t i = 0; i < g.n; i++) {
    struct succ s = successors(&g, i);
    for (size_t k = 0; k < s.n; k++)
      if (s.v[k] == i) {
        tfr_diags_add(out, TFR_DIAG_ERROR, NULL,
                      tfr_arena_printf(a, "Self reference: %s", g.names[i]),
                      NULL);
        g.any = true;
      }
  }
  return g.any;
}
