/*
** Unification and type-mismatch messages of type conversion, as go-cty's
** convert package has them (unify.go, compare_types.go, sort_types.go,
** mismatch_msg.go): which single type a set of types converts to, and why
** a type does not convert to another.  convert.c asks these questions
** and answers the ones this file asks (which conversions exist, interned
** types); convert_int.h declares what each of the two files uses of the
** other.
**
** unify_types() first reduces its types to the distinct ones: cty compares
** every pair, so 1,000,000 strings take 10^12 steps there.
*/
#include "base/arena_int.h"
#include "values/convert_int.h"
#include "base/strutil.h"
#include "base/heap.h"

#include <stdlib.h>
#include <string.h>

/* ---- unification (unify.go, compare_types.go, sort_types.go) ------------ */

/* compareTypes: <0 when a is the more general of the two. */
static int compare_types(const tfr_type *a, const tfr_type *b) {
  if (is_dyn(a) || is_dyn(b))
    return !is_dyn(a) ? -1 : !is_dyn(b) ? 1 : 0;
  if (is_prim(a) && is_prim(b) &&
      (a->kind == TFR_STRING || b->kind == TFR_STRING))
    return a->kind != TFR_STRING ? 1 : b->kind != TFR_STRING ? -1 : 0;
  if (is_coll(a) && a->kind == b->kind)
    return compare_types(a->elem, b->elem);
  int swap = 1;
  int ka = a->kind, kb = b->kind;
  if ((ka == TFR_TUPLE && kb == TFR_LIST) ||
      (ka == TFR_OBJECT && kb == TFR_MAP) ||
      (ka == TFR_SET && (kb == TFR_TUPLE || kb == TFR_LIST))) {
    const tfr_type *t = a;
    a = b;
    b = t;
    swap = -1;
    ka = a->kind;
    kb = b->kind;
  }
  if (kb == TFR_SET && (ka == TFR_TUPLE || ka == TFR_LIST))
    return -swap;
  if ((ka == TFR_LIST && kb == TFR_TUPLE) ||
      (ka == TFR_MAP && kb == TFR_OBJECT))
    return -swap;
  if (ka != kb || (ka != TFR_OBJECT && ka != TFR_TUPLE) || a->n != b->n)
    return 0;
  bool a_super = false, b_super = false;
  for (uint32_t i = 0; i < a->n; i++) {
    if (ka == TFR_OBJECT && strcmp(a->names[i], b->names[i]) != 0)
      return 0; /* same count, sorted: a different name is a missing one */
    int cmp = compare_types(a->types[i], b->types[i]);
    a_super |= cmp < 0;
    b_super |= cmp > 0;
  }
  if (a_super == b_super)
    return 0;
  return a_super ? -swap : swap;
}

/* sortTypes: a topological order of "more general than", as indices;
** entries never reached stay 0, as in cty.  Edges are kept in lists, so
** memory follows the number of comparable pairs. */
struct edges {
  size_t *to, n, cap;
};

static void edge_add(struct edges *e, size_t j) {
  if (e->n == e->cap) {
    e->cap = e->cap ? 2 * e->cap : 4;
    size_t *p = heap_realloc(e->to, e->cap * sizeof *p);
    e->to = p;
  }
  e->to[e->n++] = j;
}

static void sort_types(size_t n, const tfr_type *const *t, size_t *order) {
  size_t *indeg = heap_calloc(n, sizeof *indeg);
  struct edges *out = heap_calloc(n, sizeof *out);
  for (size_t i = 0; i + 1 < n; i++)
    for (size_t j = i + 1; j < n; j++) {
      int cmp = compare_types(t[i], t[j]);
      if (cmp < 0) {
        edge_add(&out[i], j);
        indeg[j]++;
      } else if (cmp > 0) {
        edge_add(&out[j], i);
        indeg[i]++;
      }
    }
  size_t head = 0, tail = 0;
  memset(order, 0, n * sizeof *order);
  for (size_t i = 0; i < n; i++)
    if (indeg[i] == 0)
      order[tail++] = i;
  while (head < tail) {
    size_t i = order[head++];
    for (size_t k = 0; k < out[i].n; k++)
      if (--indeg[out[i].to[k]] == 0)
        order[tail++] = out[i].to[k];
  }
  for (size_t i = 0; i < n; i++)
    free(out[i].to);
  free(out);
  free(indeg);
}

/* The general case: the first type in preference order that every type
** converts to. */
static const tfr_type *unify_general(struct cctx *c, size_t n,
                                     const tfr_type *const *t, bool unsafe) {
  /* Shortcut, same result: without "any" among them, a primitive and a
  ** non-primitive type never meet (neither converts to the other). */
  bool prim = false, other = false, dyn = false;
  for (size_t i = 0; i < n; i++) {
    prim |= is_prim(t[i]);
    dyn |= is_dyn(t[i]);
    other |= !is_prim(t[i]) && !is_dyn(t[i]);
  }
  if (prim && other && !dyn)
    return NULL;
  size_t *order = heap_calloc(1, n * sizeof *order);
  sort_types(n, t, order);
  const tfr_type *r = NULL;
  for (size_t k = 0; k < n && !r; k++) {
    const tfr_type *want = t[order[k]];
    size_t i = 0;
    while (i < n && (i == order[k] || conv_or_eq(c, t[i], want, unsafe)))
      i++;
    if (i == n)
      r = want;
  }
  free(order);
  return r;
}

/* Every type converts to ret (or is equal to it). */
static bool all_convert(struct cctx *c, size_t n, const tfr_type *const *t,
                        const tfr_type *ret, bool unsafe) {
  for (size_t i = 0; i < n; i++)
    if (!conv_or_eq(c, t[i], ret, unsafe))
      return false;
  return true;
}

/* The collection (kind) of the type the m types of e unify to, when all n
** of t convert to it; e (heap) is freed. */
static const tfr_type *unify_into_coll(struct cctx *c, int kind, size_t n,
                                       const tfr_type *const *t, size_t m,
                                       const tfr_type **e, bool unsafe) {
  const tfr_type *ety = unify_types(c, m, e, unsafe, NULL);
  free(e);
  if (!ety)
    return NULL;
  const tfr_type *ret = conv_mk_coll(c, kind, ety);
  return all_convert(c, n, t, ret, unsafe) ? ret : NULL;
}

static const tfr_type *unify_collections(struct cctx *c, int kind, size_t n,
                                         const tfr_type *const *t,
                                         bool unsafe) {
  const tfr_type **e = heap_calloc(1, n * sizeof *e);
  for (size_t i = 0; i < n; i++)
    e[i] = t[i]->elem;
  return unify_into_coll(c, kind, n, t, n, e, unsafe);
}

/* All the attribute (or element) types of all of t, as one array. */
static const tfr_type **all_members(size_t n, const tfr_type *const *t,
                                    size_t *count) {
  size_t total = 0;
  for (size_t i = 0; i < n; i++)
    total += t[i]->n;
  const tfr_type **all = heap_calloc(1, total * sizeof *all);
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    for (uint32_t j = 0; j < t[i]->n; j++)
      all[k++] = t[i]->types[j];
  *count = total;
  return all;
}

/* unifyObjectTypesToMap / unifyTupleTypesToList. */
static const tfr_type *unify_members_as(struct cctx *c, int kind, size_t n,
                                        const tfr_type *const *t, bool unsafe) {
  size_t total;
  const tfr_type **all = all_members(n, t, &total);
  return unify_into_coll(c, kind, n, t, total, all, unsafe);
}

static bool same_names(const tfr_type *x, const tfr_type *y) {
  if (x->n != y->n)
    return false;
  for (uint32_t i = 0; i < x->n; i++)
    if (strcmp(x->names[i], y->names[i]) != 0)
      return false;
  return true;
}

/* unifyObjectTypes and unifyTupleTypes: member by member, else as a map
** or list of everything. */
static const tfr_type *unify_structural(struct cctx *c, size_t n,
                                        const tfr_type *const *t, bool unsafe) {
  bool obj = t[0]->kind == TFR_OBJECT;
  int fallback = obj ? TFR_MAP : TFR_LIST;
  for (size_t i = 1; i < n; i++)
    if (obj ? !same_names(t[0], t[i]) : t[i]->n != t[0]->n)
      return unify_members_as(c, fallback, n, t, unsafe);
  size_t m = t[0]->n;
  const tfr_type **across = heap_calloc(1, n * sizeof *across);
  const tfr_type **ret = heap_calloc(1, m * sizeof *ret);
  const tfr_type *r = NULL;
  size_t k = 0;
  for (; k < m; k++) {
    for (size_t i = 0; i < n; i++)
      across[i] = t[i]->types[k];
    ret[k] = unify_types(c, n, across, unsafe, NULL);
    if (!ret[k])
      break;
  }
  if (k == m)
    r = obj ? conv_mk_object(c, m, t[0]->names, ret, NULL)
            : conv_mk_tuple(c, m, ret);
  free(across);
  free(ret);
  if (r && !all_convert(c, n, t, r, unsafe))
    r = unify_members_as(c, fallback, n, t, unsafe);
  return r;
}

/* unifyObjectsAsMaps / unifyTuplesAsList: the objects (tuples) unified
** as a map (list) first, then everything together. */
static const tfr_type *unify_as_collection(struct cctx *c, int kind, size_t n,
                                           const tfr_type *const *t,
                                           bool unsafe) {
  int skind = kind == TFR_MAP ? TFR_OBJECT : TFR_TUPLE;
  const tfr_type **s = heap_calloc(1, n * sizeof *s);
  size_t ns = 0;
  for (size_t i = 0; i < n; i++)
    if (t[i]->kind == skind)
      s[ns++] = t[i];
  const tfr_type *ct = unify_members_as(c, kind, ns, s, unsafe);
  const tfr_type *r = NULL;
  if (ct) {
    for (size_t i = 0; i < n; i++)
      s[i] = t[i]->kind == skind ? ct : t[i];
    r = unify_types(c, n, s, unsafe, NULL);
    if (r && r->kind != kind)
      r = NULL;
  }
  free(s);
  return r;
}

/* The distinct types of t, in order of first appearance (interned). */
static size_t distinct_types(struct cctx *c, size_t n, const tfr_type *const *t,
                             const tfr_type **out) {
  size_t i = 1;
  while (i < n && type_eq(t[0], t[i]))
    i++;
  out[0] = t[0];
  if (i == n)
    return 1;
  size_t cap = 16;
  while (cap < 2 * n)
    cap *= 2;
  const tfr_type **seen = heap_calloc(cap, sizeof *seen);
  size_t m = 0;
  for (i = 0; i < n; i++) {
    const tfr_type *x = conv_intern(c, t[i]);
    size_t h = (size_t)mix((uintptr_t)x, 0) & (cap - 1);
    while (seen[h] && seen[h] != x)
      h = (h + 1) & (cap - 1);
    if (!seen[h]) {
      seen[h] = x;
      out[m++] = x;
    }
  }
  free(seen);
  return m;
}

static const tfr_type *unify_distinct(struct cctx *c, size_t n,
                                      const tfr_type *const *t, bool unsafe,
                                      bool *all_dynamic) {
  size_t cnt[TFR_TUPLE + 1] = {0};
  for (size_t i = 0; i < n; i++)
    cnt[t[i]->kind]++;
  size_t dyn = cnt[TFR_DYNAMIC], maps = cnt[TFR_MAP], lists = cnt[TFR_LIST];
  size_t sets = cnt[TFR_SET], objs = cnt[TFR_OBJECT], tups = cnt[TFR_TUPLE];
  const tfr_type *r;
  if ((maps && maps + dyn == n) || (lists && lists + dyn == n) ||
      (sets && sets + dyn == n) || (objs && objs + dyn == n) ||
      (tups && tups + dyn == n)) {
    if (dyn) { /* unifyAllAsDynamic */
      if (all_dynamic)
        *all_dynamic = true;
      return &tfr_t_dynamic;
    }
    if (objs || tups)
      return unify_structural(c, n, t, unsafe);
    return unify_collections(c, t[0]->kind, n, t, unsafe);
  }
  if (maps && maps + objs + dyn == n) {
    r = unify_as_collection(c, TFR_MAP, n, t, unsafe);
    if (r)
      return r;
  } else if (lists && lists + tups + dyn == n) {
    r = unify_as_collection(c, TFR_LIST, n, t, unsafe);
    if (r)
      return r;
  } else if (objs && tups) {
    return NULL;
  }
  return unify_general(c, n, t, unsafe);
}

/*
** convert.unify: the type all of types convert to, or NULL.  *all_dynamic
** (if given) is set when cty would convert every value to an unknown of
** dynamic type (unifyAllAsDynamic).
*/
const tfr_type *unify_types(struct cctx *c, size_t n,
                            const tfr_type *const *types, bool unsafe,
                            bool *all_dynamic) {
  if (n == 0)
    return NULL;
  const tfr_type **d = heap_calloc(1, n * sizeof *d);
  size_t m = distinct_types(c, n, types, d);
  const tfr_type *r = unify_distinct(c, m, d, unsafe, all_dynamic);
  free(d);
  return r;
}

/* ---- MismatchMessage (mismatch_msg.go) ---------------------------------- */

static const char *required(struct cctx *c, const tfr_type *want) {
  return tfr_arena_printf(c->a, "%s required", conv_friendly(c->a, want));
}

static const char *attr_problem(struct cctx *c, const char *name,
                                const tfr_type *got, const tfr_type *want) {
  return tfr_arena_printf(c->a, "attribute %s: %s",
                          conv_quote(c, name, strlen(name)),
                          unify_mismatch(c, got, want));
}

static const char *missing_attrs(struct cctx *c, size_t n,
                                 const char *const *names) {
  if (n == 1)
    return tfr_arena_printf(c->a, "attribute %s is required",
                            conv_quote(c, names[0], strlen(names[0])));
  if (n == 2)
    return tfr_arena_printf(c->a, "attributes %s and %s are required",
                            conv_quote(c, names[0], strlen(names[0])),
                            conv_quote(c, names[1], strlen(names[1])));
  struct sbuf b = {0};
  sbuf_str(&b, "attributes ");
  for (size_t i = 0; i + 1 < n; i++) {
    sbuf_go_quote(&b, names[i], strlen(names[i]));
    sbuf_str(&b, ", ");
  }
  sbuf_str(&b, "and ");
  sbuf_go_quote(&b, names[n - 1], strlen(names[n - 1]));
  sbuf_str(&b, " are required");
  const char *r = tfr_arena_strdup(c->a, b.p);
  free(b.p);
  return r;
}

static const char *mismatch_objects(struct cctx *c, const tfr_type *got,
                                    const tfr_type *want) {
  const char **missing = tfr_arena_alloc(c->a, (want->n + 1) * sizeof(char *));
  size_t nmissing = 0;
  const char *unsafe_msg = NULL, *safe_msg = NULL;
  for (uint32_t i = 0; i < want->n; i++) {
    const char *name = want->names[i];
    long j = tfr_type_attr(got, name, strlen(name));
    if (j < 0) {
      if (!opt_at(want, i))
        missing[nmissing++] = name;
      continue;
    }
    const tfr_type *g = got->types[j], *w = want->types[i];
    if (type_eq(g, w) || unsafe_msg)
      continue;
    if (!conv_can_conv(c, g, w, true))
      unsafe_msg = attr_problem(c, name, g, w);
    if (!safe_msg && !conv_can_conv(c, g, w, false))
      safe_msg = attr_problem(c, name, g, w);
  }
  if (nmissing)
    return missing_attrs(c, nmissing, missing);
  if (unsafe_msg)
    return unsafe_msg;
  return safe_msg ? safe_msg : "incorrect object attributes";
}

static const char *mismatch_from_structural(struct cctx *c, const tfr_type *got,
                                            const tfr_type *want) {
  if ((want->kind == TFR_MAP) != (got->kind == TFR_OBJECT))
    return required(c, want);
  const tfr_type *w = want->elem;
  for (uint32_t i = 0; i < got->n; i++) {
    const tfr_type *g = got->types[i];
    if (conv_or_eq(c, g, w, true))
      continue;
    if (got->kind == TFR_TUPLE)
      return tfr_arena_printf(c->a, "element %u: %s", (unsigned)i,
                              unify_mismatch(c, g, w));
    return tfr_arena_printf(c->a, "element %s: %s",
                            conv_quote(c, got->names[i], strlen(got->names[i])),
                            unify_mismatch(c, g, w));
  }
  return tfr_arena_printf(c->a, "all elements must be %s",
                          conv_friendly(c->a, w));
}

static const char *mismatch_from_collection(struct cctx *c, const tfr_type *got,
                                            const tfr_type *want) {
  bool seq = got->kind == TFR_LIST || got->kind == TFR_SET;
  if (want->kind == TFR_MAP ? got->kind != TFR_MAP : !seq)
    return required(c, want);
  const char *noun = want->kind == TFR_LIST  ? "list element type"
                     : want->kind == TFR_SET ? "set element type"
                                             : "map element type";
  return tfr_arena_printf(c->a, "incorrect %s: %s", noun,
                          unify_mismatch(c, got->elem, want->elem));
}

/* typesAreLikelyToCauseConfusion (cty >= 1.16.3): whether naming both
** types would mislead, so that only the wanted one is named.  Called after
** the structural and collection cases, as cty does (its collection rule
** cannot be reached from here, and its object-from-tuple test never holds:
** it asks whether got is both an object and a tuple). */
static bool likely_confusing(const tfr_type *got, const tfr_type *want) {
  if (is_prim(got) != is_prim(want))
    return false;
  if (want->kind == TFR_STRING)
    return false;
  if ((want->kind == TFR_BOOL && got->kind == TFR_NUMBER) ||
      (want->kind == TFR_NUMBER && got->kind == TFR_BOOL))
    return false;
  return !(got->kind == TFR_TUPLE && want->kind == TFR_OBJECT);
}

/* convert.MismatchMessage: why got does not convert to want. */
const char *unify_mismatch(struct cctx *c, const tfr_type *got,
                           const tfr_type *want) {
  int g = got->kind, w = want->kind;
  if (g == TFR_OBJECT && w == TFR_OBJECT)
    return mismatch_objects(c, got, want);
  if (g == TFR_TUPLE && w == TFR_LIST && is_dyn(want->elem))
    return "all list elements must have the same type";
  if (g == TFR_TUPLE && w == TFR_SET && is_dyn(want->elem))
    return "all set elements must have the same type";
  if (g == TFR_OBJECT && w == TFR_MAP && is_dyn(want->elem))
    return "all map elements must have the same type";
  if ((g == TFR_TUPLE || g == TFR_OBJECT) && is_coll(want))
    return mismatch_from_structural(c, got, want);
  if (is_coll(got) && is_coll(want))
    return mismatch_from_collection(c, got, want);
  if (!likely_confusing(got, want))
    return tfr_arena_printf(c->a, "%s required, but have %s",
                            tfr_type_friendly(c->a, want),
                            tfr_type_friendly(c->a, got));
  return required(c, want);
}
