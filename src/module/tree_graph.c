/*
** The graph of the tree and its order.
*/
#include "module/tree_int.h"
#include "module/engine_tofu.h"
#include "module/validate.h"
#include "base/heap.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- the graph ---------------------------------------------------------- */

static long add_node(struct tree *t, enum node_kind kind, struct tmod *tm,
                     size_t index, const char *name) {
  ARENA_GROW(t->a, t->nodes, t->nnodes, t->capnodes, 64);
  struct tnode *n = &t->nodes[t->nnodes];
  *n = (struct tnode){kind, tm, index, name, NULL, 0, 0, 0, false};
  return (long)t->nnodes++;
}

static void dep(struct tree *t, long from, long to) {
  if (to < 0 || to == from)
    return;
  struct tnode *n = &t->nodes[from];
  for (size_t i = 0; i < n->ndeps; i++)
    if (n->deps[i] == to)
      return;
  ARENA_GROW(t->a, n->deps, n->ndeps, n->cap, 4);
  n->deps[n->ndeps++] = to;
}

/* The nodes an expression evaluated in tm depends on. */
static void ref_deps(struct tree *t, long self, struct tmod *tm,
                     const struct ast *x) {
  struct tref_list l = tree_refs_of_x(t, x);
  const struct module *m = tm->m;
  for (size_t i = 0; i < l.n; i++) {
    const struct tref *r = &l.v[i];
    if (!r->a1)
      continue;
    if (tree_root_is(r, "var")) {
      long k = module_var_index(m, r->a1, r->l1);
      if (k >= 0) {
        dep(t, self, tm->var_node[k]);
        dep(t, self, tm->valid_node[k]);
      }
    } else if (tree_root_is(r, "local")) {
      long k = scope_local_index(m, r->a1, r->l1);
      if (k >= 0)
        dep(t, self, tm->local_node[k]);
    } else if (tree_root_is(r, "module")) {
      for (size_t c = 0; c < m->ncalls; c++) {
        struct tmod *ch = tm->children[c];
        if (!ch || strlen(m->calls[c].name) != r->l1 ||
            memcmp(m->calls[c].name, r->a1, r->l1))
          continue;
        dep(t, self, ch->expand);
        long o = -1;
        for (size_t q = 0; r->a2 && q < ch->m->noutputs; q++)
          if (strlen(ch->m->outputs[q].name) == r->l2 &&
              !memcmp(ch->m->outputs[q].name, r->a2, r->l2))
            o = ch->output_node[q];
        if (o >= 0)
          dep(t, self, o);
        else
          for (size_t q = 0; q < ch->m->noutputs; q++)
            dep(t, self, ch->output_node[q]);
      }
    }
  }
}

/* a, b and c one after another, in the tree's arena (graph names: a
** module of thousands of locals names them all). */
const char *tree_cat3(struct tree *t, const char *a, const char *b,
                      const char *c) {
  size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
  char *s = tfr_arena_alloc_raw(t->a, la + lb + lc + 1);
  memcpy(s, a, la);
  memcpy(s + la, b, lb);
  memcpy(s + la + lb, c, lc + 1);
  return s;
}

/* module.NAME in the module at addr ("" for the root's). */
const char *tree_in_module(struct tree *t, const char *addr, const char *name) {
  return *addr ? tree_cat3(t, addr, ".module.", name)
               : tree_cat3(t, "module.", name, "");
}

const char *tree_node_prefix(struct tree *t, const struct tmod *tm) {
  return *tm->addr ? tfr_arena_printf(t->a, "%s.", tm->addr) : "";
}

/* The graph's nodes and their dependencies; false when they take the
** tree past the memory budget (a module of many variables called from
** many paths). */
/* The nodes of module tm: its variables (and their rules), local values
** and outputs, with its expansion when it is called. */
static void module_nodes(struct tree *t, struct tmod *tm) {
  const struct module *m = tm->m;
  const char *p = tree_node_prefix(t, tm);
  const char *pv = tree_cat3(t, p, "var.", ""),
             *pl = tree_cat3(t, p, "local.", ""),
             *po = tree_cat3(t, p, "output.", "");
  /* " (expand)", " (validation)", as the engine names them */
  const char *sv = tree_cat3(
                 t, " ", tm->parent ? t->engine->module_var_node : "(expand)",
                 ""),
             *sr = tree_cat3(t, " ", t->engine->rules_node, "");
  size_t nv = m->nvars ? m->nvars : 1;
  tm->var_node = tfr_arena_alloc(t->a, nv * sizeof *tm->var_node);
  tm->valid_node = tfr_arena_alloc(t->a, nv * sizeof *tm->valid_node);
  tm->local_node = tfr_arena_alloc(t->a, (m->nlocals ? m->nlocals : 1) *
                                             sizeof *tm->local_node);
  tm->output_node = tfr_arena_alloc(t->a, (m->noutputs ? m->noutputs : 1) *
                                              sizeof *tm->output_node);
  tm->expand = tm->parent ? add_node(t, N_EXPAND, tm, 0,
                                     tree_cat3(t, tm->addr, " (expand)", ""))
                          : -1;
  for (size_t k = 0; k < m->nvars; k++) {
    tm->var_node[k] =
        add_node(t, N_VAR, tm, k, tree_cat3(t, pv, m->vars[k].name, sv));
    tm->valid_node[k] = -1;
    if (!tm->parent)
      t->nodes[tm->var_node[k]].pre = true;
    /* the init walk's graph: the const variables' rules alone
    ** (graph_builder_init.go), every variable resolved before it */
    if (m->vars[k].nvalidations && (!t->init || m->vars[k].is_const))
      tm->valid_node[k] =
          add_node(t, N_VALID, tm, k, tree_cat3(t, pv, m->vars[k].name, sr));
  }
  for (size_t k = 0; k < m->nlocals; k++)
    tm->local_node[k] =
        t->init ? -1
                : add_node(t, N_LOCAL, tm, k,
                           tree_cat3(t, pl, m->locals[k].name, " (expand)"));
  for (size_t k = 0; k < m->noutputs; k++)
    tm->output_node[k] =
        t->init ? -1
                : add_node(t, N_OUTPUT, tm, k,
                           tree_cat3(t, po, m->outputs[k].name, " (expand)"));
}

/* The dependencies of node n. */
static void node_deps(struct tree *t, size_t n) {
  struct tnode *nd = &t->nodes[n];
  struct tmod *tm = nd->tm;
  const struct module *m = tm->m;
  long self = (long)n;
  if (tm->parent && nd->kind != N_EXPAND)
    dep(t, self, tm->expand);
  switch (nd->kind) {
  case N_EXPAND:
    if (tm->parent->parent)
      dep(t, self, tm->parent->expand);
    ref_deps(t, self, tm->parent, tm->call->count);
    ref_deps(t, self, tm->parent, tm->call->for_each);
    break;
  case N_VAR:
    if (!nd->pre && tm->args[nd->index])
      ref_deps(t, self, tm->parent, tm->args[nd->index]->expr);
    break;
  case N_VALID: {
    dep(t, self, tm->var_node[nd->index]);
    const struct var_decl *v = &m->vars[nd->index];
    for (size_t i = 0; i < v->nvalidations; i++) {
      /* a rule sharing another's trees refers to its own variable alone
      ** (module.h): the trees' references are the other variable's */
      if (v->validations[i].alias)
        continue;
      ref_deps(t, self, tm, v->validations[i].condition);
      ref_deps(t, self, tm, v->validations[i].error_message);
    }
    break;
  }
  case N_LOCAL:
    ref_deps(t, self, tm, m->locals[nd->index].expr);
    break;
  case N_OUTPUT: {
    /* its value's references and its preconditions'
    ** (node_output.go:369-386, referencesForOutput) */
    const struct output_decl *o = &m->outputs[nd->index];
    ref_deps(t, self, tm, o->expr);
    for (size_t i = 0; i < o->npreconds; i++) {
      ref_deps(t, self, tm, o->preconds[i].cond);
      ref_deps(t, self, tm, o->preconds[i].msg);
    }
    break;
  }
  }
}

bool tree_build_graph(struct tree *t) {
  t->nnodes = 0;
  size_t all = 0; /* the nodes, allocated at once */
  for (size_t i = 0; i < t->nall; i++) {
    const struct module *m = t->all[i]->m;
    all += 1 + m->nvars + m->nlocals + m->noutputs;
    for (size_t k = 0; k < m->nvars; k++)
      all += m->vars[k].nvalidations > 0;
  }
  if (all > t->capnodes) {
    t->nodes = tfr_arena_alloc(t->a, all * sizeof *t->nodes);
    t->capnodes = all;
  }
  for (size_t i = 0; i < t->nall; i++) {
    struct tmod *tm = t->all[i];
    if (tm->parent) { /* its own copy, with its address (validate.c's
                         errors name it), made once the tree is whole */
      struct module *own = tfr_arena_alloc(t->a, sizeof *own);
      *own = *tm->m;
      own->addr = tm->addr;
      tm->m = own;
    }
    module_nodes(t, tm);
    if (tm->call && tree_over_budget(t, tm->call->src, tm->call->decl, tm->addr,
                                     "The graph of %s", tm->addr))
      return false;
  }
  for (size_t n = 0; n < t->nnodes; n++)
    node_deps(t, n);
  return true;
}

/* A binary heap of node indexes, least name first: by rank[i], node
** i's place in the order of the names (one sort, not a string compare at
** each step of the heap). */
struct heap {
  long *v;
  size_t n;
  const size_t *rank;
};

static bool less(const struct heap *h, size_t i, size_t j) {
  return h->rank[h->v[i]] < h->rank[h->v[j]];
}

static bool name_le(const struct tnode *a, const struct tnode *b) {
  return strcmp(a->name, b->name) <= 0;
}

/* v[lo..mid) and v[mid..hi), each in order, merged into v (tmp: room
** for hi - lo). */
static void merge(const struct tnode **v, const struct tnode **tmp, size_t lo,
                  size_t mid, size_t hi) {
  size_t i = lo, j = mid, k = 0;
  while (i < mid && j < hi)
    tmp[k++] = name_le(v[i], v[j]) ? v[i++] : v[j++];
  while (i < mid)
    tmp[k++] = v[i++];
  while (j < hi)
    tmp[k++] = v[j++];
  memcpy(v + lo, tmp, k * sizeof *v);
}

/* rank[i]: node i's place among the nodes by name (heap memory).  The
** nodes are made module by module, each kind in its names' order, so a
** merge of the runs already in order does the sort: a module of
** thousands of variables is one run. */
static size_t *name_ranks(const struct tree *t) {
  size_t n = t->nnodes ? t->nnodes : 1;
  const struct tnode **v = heap_alloc(n * sizeof *v);
  const struct tnode **tmp = heap_alloc(n * sizeof *tmp);
  size_t *start = heap_alloc((n + 1) * sizeof *start), nruns = 0;
  for (size_t i = 0; i < t->nnodes; i++) {
    v[i] = &t->nodes[i];
    if (!i || !name_le(v[i - 1], v[i]))
      start[nruns++] = i;
  }
  start[nruns] = t->nnodes;
  while (nruns > 1) { /* merge the runs pairwise */
    size_t k = 0;
    for (size_t r = 0; r < nruns; r += 2) {
      if (r + 1 < nruns)
        merge(v, tmp, start[r], start[r + 1], start[r + 2]);
      start[k++] = start[r];
    }
    start[k] = t->nnodes;
    nruns = k;
  }
  size_t *rank = heap_alloc(n * sizeof *rank);
  for (size_t i = 0; i < t->nnodes; i++)
    rank[v[i] - t->nodes] = i;
  free(start);
  free(tmp);
  free(v);
  return rank;
}

static void heap_push(struct heap *h, long x) {
  size_t i = h->n++;
  h->v[i] = x;
  while (i && less(h, i, (i - 1) / 2)) {
    long s = h->v[i];
    h->v[i] = h->v[(i - 1) / 2];
    h->v[(i - 1) / 2] = s;
    i = (i - 1) / 2;
  }
}

static long heap_pop(struct heap *h) {
  long top = h->v[0];
  h->v[0] = h->v[--h->n];
  for (size_t i = 0;;) {
    size_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < h->n && less(h, l, m))
      m = l;
    if (r < h->n && less(h, r, m))
      m = r;
    if (m == i)
      break;
    long s = h->v[i];
    h->v[i] = h->v[m];
    h->v[m] = s;
    i = m;
  }
  return top;
}

/* Tarjan's components of the nodes left (nodes with pending[n] > 0). */
struct tarjan {
  struct tree *t;
  const size_t *pending;
  long *index, *low;
  bool *on;
  long *stack;
  size_t sp;
  long next;
  bool any;
};

static void strong(struct tarjan *tj, long v) {
  struct tree *t = tj->t;
  tj->index[v] = tj->low[v] = tj->next++;
  tj->stack[tj->sp++] = v;
  tj->on[v] = true;
  const struct tnode *n = &t->nodes[v];
  for (size_t i = 0; i < n->ndeps; i++) {
    long w = n->deps[i];
    if (!tj->pending[w])
      continue;
    if (tj->index[w] < 0) {
      strong(tj, w);
      if (tj->low[w] < tj->low[v])
        tj->low[v] = tj->low[w];
    } else if (tj->on[w] && tj->index[w] < tj->low[v])
      tj->low[v] = tj->index[w];
  }
  if (tj->low[v] != tj->index[v])
    return;
  size_t start = tj->sp;
  while (tj->stack[start - 1] != v)
    start--;
  start--;
  size_t k = tj->sp - start;
  for (size_t i = start; i < tj->sp; i++)
    tj->on[tj->stack[i]] = false;
  if (k > 1) {
    const char **names = tfr_arena_alloc(t->a, k * sizeof *names);
    for (size_t i = 0; i < k; i++)
      names[i] = t->nodes[tj->stack[start + i]].name;
    validate_cycle(t->a, t->diags, t->engine, names, k);
    tj->any = true;
  }
  tj->sp = start;
}

/* The nodes in dependency order (ties: the least name first), or false
** after the cycles' errors. */
bool tree_order_graph(struct tree *t) {
  size_t n = t->nnodes;
  size_t *pending = heap_calloc(n ? n : 1, sizeof *pending);
  size_t *ndeps_of = heap_calloc(n ? n : 1, sizeof *ndeps_of);
  for (size_t i = 0; i < n; i++) {
    pending[i] = t->nodes[i].ndeps;
    for (size_t j = 0; j < t->nodes[i].ndeps; j++)
      ndeps_of[t->nodes[i].deps[j]]++;
  }
  /* dependents, as one array */
  size_t *first = heap_calloc(n + 1, sizeof *first);
  for (size_t i = 0; i < n; i++)
    first[i + 1] = first[i] + ndeps_of[i];
  long *dependents = heap_alloc((first[n] ? first[n] : 1) * sizeof *dependents);
  memset(ndeps_of, 0, (n ? n : 1) * sizeof *ndeps_of);
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < t->nodes[i].ndeps; j++) {
      long d = t->nodes[i].deps[j];
      dependents[first[d] + ndeps_of[d]++] = (long)i;
    }
  struct heap h = {heap_alloc((n ? n : 1) * sizeof *h.v), 0, name_ranks(t)};
  t->order = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *t->order);
  size_t done = 0;
  for (size_t i = 0; i < n; i++)
    if (!pending[i])
      heap_push(&h, (long)i);
  while (h.n) {
    long x = heap_pop(&h);
    t->order[done++] = x;
    for (size_t j = first[x]; j < first[x + 1]; j++)
      if (!--pending[dependents[j]])
        heap_push(&h, dependents[j]);
  }
  bool ok = done == n;
  if (!ok) {
    struct tarjan tj = {t,
                        pending,
                        heap_alloc(n * sizeof(long)),
                        heap_alloc(n * sizeof(long)),
                        heap_calloc(n, sizeof(bool)),
                        heap_alloc(n * sizeof(long)),
                        0,
                        0,
                        false};
    for (size_t i = 0; i < n; i++)
      tj.index[i] = -1;
    /* in name order, as the reference sorts them */
    long *left = heap_alloc(n * sizeof *left);
    size_t nl = 0;
    for (size_t i = 0; i < n; i++)
      if (pending[i])
        left[nl++] = (long)i;
    for (size_t i = 0; i < nl; i++)
      if (tj.index[left[i]] < 0)
        strong(&tj, left[i]);
    free(left);
    free(tj.index);
    free(tj.low);
    free(tj.on);
    free(tj.stack);
  }
  free(h.v);
  free(UNCONST(size_t *, h.rank));
  free(dependents);
  free(first);
  free(ndeps_of);
  free(pending);
  return ok;
}
