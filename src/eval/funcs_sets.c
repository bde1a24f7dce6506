/*
** The set-like collection functions: contains distinct index matchkeys
** setintersection setproduct setsubtract setunion.  The other collection
** functions are in funcs_collection.c; the helpers both files use are in
** funcs_collection_int.h.
**
** Each one is cty v1.12.1's stdlib function (collection.go, set.go) or
** Terraform's own (internal/lang/funcs/collection.go): the same
** parameters, result types, results, marks and messages.  As in newer
** cty, contains() accepts a null value to look for.
**
** Where cty compares elements pairwise (distinct, matchkeys, the set
** operations), we sort canonical keys instead, so that big collections
** take n log n time.  Results live in the call's arena.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "values/convert.h"
#include "base/arena_int.h"
#include "eval/funcs.h"
#include "eval/funcs_collection_int.h"
#include "values/number.h"
#include "base/strutil.h"
#include "base/heap.h"

/* ---- canonical keys ----------------------------------------------------- */

static void put_str_key(struct sbuf *b, const char *s, size_t n) {
  char len[32];
  int k = snprintf(len, sizeof len, "S%zu:", n);
  sbuf_put(b, len, (size_t)k);
  sbuf_put(b, s, n);
}

static void put_key(tfr_arena *a, struct sbuf *b, const tfr_value *v);

static int cmp_sbuf(const void *x, const void *y) {
  const struct sbuf *p = x, *q = y;
  return str_cmp_bytes(p->p, p->n, q->p, q->n);
}

/* A set's key: its elements' keys in key order, so that equal sets get
** equal keys whatever order their elements are kept in. */
static void put_set_key(tfr_arena *a, struct sbuf *b, const tfr_value *v) {
  struct sbuf *k = heap_calloc(v->n + 1, sizeof *k);
  for (uint32_t i = 0; i < v->n; i++)
    put_key(a, &k[i], v->elems[i]);
  qsort(k, v->n, sizeof *k, cmp_sbuf);
  sbuf_put(b, "{", 1);
  for (uint32_t i = 0; i < v->n; i++) {
    sbuf_put(b, k[i].p, k[i].n);
    free(k[i].p);
  }
  sbuf_put(b, "}", 1);
  free(k);
}

/*
** Bytes that tell a known value from the other values of its type: equal
** keys exactly when cty's Equals is true (numbers by their text with -0
** as 0, all nulls alike).  Sorting keys replaces pairwise comparison.
*/
static void put_key(tfr_arena *a, struct sbuf *b, const tfr_value *v) {
  if (is_null(v) || !is_known(v)) {
    sbuf_put(b, is_null(v) ? "~" : "?", 1);
    return;
  }
  switch (v->type->kind) {
  case TFR_BOOL:
    sbuf_put(b, v->b ? "T" : "F", 1);
    return;
  case TFR_NUMBER: {
    const char *t = num_format(a, v->num);
    sbuf_put(b, "N", 1);
    sbuf_str(b, strcmp(t, "-0") ? t : "0");
    sbuf_put(b, ";", 1);
    return;
  }
  case TFR_STRING:
    put_str_key(b, v->s, v->n);
    return;
  case TFR_SET:
    put_set_key(a, b, v);
    return;
  default:
    sbuf_put(b, "[", 1);
    for (uint32_t i = 0; i < v->n; i++) {
      if (v->type->kind == TFR_MAP)
        put_str_key(b, v->keys[i], v->keylens[i]);
      put_key(a, b, v->elems[i]);
    }
    sbuf_put(b, "]", 1);
  }
}

/* ---- cty's Equals, with unknowns -------------------------------------- */

enum { EQ_FALSE, EQ_TRUE, EQ_UNKNOWN };

/* cty's Value.HasWhollyKnownType: no unknown of a type with "any" in it. */
static bool has_known_type(const tfr_value *v) {
  if (is_null(v))
    return true;
  if (!is_known(v))
    return v->type->kind != TFR_DYNAMIC && !tfr_type_has_dynamic(v->type);
  if (!tfr_type_is_primitive(v->type))
    for (uint32_t i = 0; i < v->n; i++)
      if (!has_known_type(v->elems[i]))
        return false;
  return true;
}

static int equals(tfr_arena *a, const tfr_value *x, const tfr_value *y);

/* Elements (and map keys) of two known values of one type, in order. */
static int equals_elems(tfr_arena *a, const tfr_value *x, const tfr_value *y) {
  if (x->n != y->n)
    return EQ_FALSE;
  bool map = x->type->kind == TFR_MAP;
  for (uint32_t i = 0; i < x->n; i++) {
    if (map && (x->keylens[i] != y->keylens[i] ||
                memcmp(x->keys[i], y->keys[i], x->keylens[i])))
      return EQ_FALSE;
    int r = equals(a, x->elems[i], y->elems[i]);
    if (r != EQ_TRUE)
      return r;
  }
  return EQ_TRUE;
}

/* Two known sets of one type: unknown when either holds an unknown. */
static int equals_sets(tfr_arena *a, const tfr_value *x, const tfr_value *y) {
  for (uint32_t i = 0; i < x->n || i < y->n; i++)
    if ((i < x->n && !is_known(x->elems[i])) ||
        (i < y->n && !is_known(y->elems[i])))
      return EQ_UNKNOWN;
  struct sbuf kx = {0}, ky = {0};
  put_key(a, &kx, x);
  put_key(a, &ky, y);
  bool eq = cmp_sbuf(&kx, &ky) == 0;
  free(kx.p);
  free(ky.p);
  return eq ? EQ_TRUE : EQ_FALSE;
}

/* A known value compared with an unknown one. */
static int equals_unknown(const tfr_value *k, const tfr_value *u) {
  if (is_null(k) || tfr_type_has_dynamic(u->type))
    return EQ_UNKNOWN;
  return tfr_type_equal(k->type, u->type) ? EQ_UNKNOWN : EQ_FALSE;
}

/*
** cty's Value.Equals for unmarked values: nulls are equal whatever their
** types, other values need equal types; unknown when it cannot tell yet.
*/
static int equals(tfr_arena *a, const tfr_value *x, const tfr_value *y) {
  bool kx = is_known(x), ky = is_known(y);
  if (!kx && !ky)
    return EQ_UNKNOWN;
  if (kx != ky)
    return kx ? equals_unknown(x, y) : equals_unknown(y, x);
  if (is_null(x) || is_null(y))
    return is_null(x) && is_null(y) ? EQ_TRUE : EQ_FALSE;
  if (!has_known_type(x) || !has_known_type(y))
    return !type_conforms(x->type, y->type) && !type_conforms(y->type, x->type)
               ? EQ_FALSE
               : EQ_UNKNOWN;
  if (!tfr_type_equal(x->type, y->type))
    return EQ_FALSE;
  if (tfr_type_is_primitive(x->type))
    return tfr_value_equal(x, y) ? EQ_TRUE : EQ_FALSE;
  if (x->type->kind == TFR_SET)
    return equals_sets(a, x, y);
  return equals_elems(a, x, y);
}

struct keyed {
  const char *k;
  size_t n, i; /* key length, index of the value */
};

/* The keys of n values, in one malloc'd buffer. */
struct keys {
  struct keyed *e;
  size_t n;
  char *buf;
};

static void keys_build(tfr_arena *a, struct keys *ks, size_t n,
                       const tfr_value *const *v) {
  struct sbuf b = {0};
  size_t *off = heap_alloc((n + 1) * sizeof *off);
  ks->e = heap_alloc((n ? n : 1) * sizeof *ks->e);
  for (size_t i = 0; i < n; i++) {
    off[i] = b.n;
    put_key(a, &b, v[i]);
  }
  off[n] = b.n;
  for (size_t i = 0; i < n; i++)
    ks->e[i] = (struct keyed){b.p + off[i], off[i + 1] - off[i], i};
  ks->n = n;
  ks->buf = b.p;
  free(off);
}

static void keys_free(struct keys *ks) {
  free(ks->e);
  free(ks->buf);
}

static int cmp_key(const struct keyed *p, const struct keyed *q) {
  return str_cmp_bytes(p->k, p->n, q->k, q->n);
}

/* Key order, then value order: the first of equal values comes first. */
static int cmp_keyed(const void *x, const void *y) {
  const struct keyed *p = x, *q = y;
  int c = cmp_key(p, q);
  if (c)
    return c;
  return p->i < q->i ? -1 : p->i > q->i;
}

static void keys_sort(struct keys *ks) {
  qsort(ks->e, ks->n, sizeof *ks->e, cmp_keyed);
}

/* Whether the sorted keys hold k. */
static bool keys_has(const struct keys *ks, const struct keyed *k) {
  size_t lo = 0, hi = ks->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = cmp_key(&ks->e[mid], k);
    if (!c)
      return true;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return false;
}

/* ---- contains, index, distinct ----------------------------------------- */

/* contains(list, value): whether value equals an element. */
static const tfr_value *fn_contains(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *l = f->args[0], *v = f->args[1];
  /* cty calls it when the list is known, even with unknown elements (its
  ** parameter does not allow unknowns: only a wholly unknown one is
  ** unknown without a word), so that a map is an error even then */
  if (l->flags & TFR_V_UNKNOWN)
    return tfr_unknown(f->a, &tfr_t_bool);
  if (!is_seq(kind_of(l))) {
    fcall_error(f, "argument must be list, tuple, or set");
    return NULL;
  }
  if (l->n == 0)
    return tfr_bool(false);
  if (!is_known(l) || !is_known(v))
    return tfr_unknown(f->a, &tfr_t_bool);
  bool unknown = false;
  for (uint32_t i = 0; i < l->n; i++) {
    int r = equals(f->a, v, l->elems[i]);
    if (r == EQ_TRUE)
      return tfr_bool(true);
    unknown |= r == EQ_UNKNOWN;
  }
  return unknown ? tfr_unknown(f->a, &tfr_t_bool) : tfr_bool(false);
}

/* index(list, value): the index of the first element equal to value. */
static const tfr_value *fn_index(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *l = f->args[0], *v = f->args[1];
  int k = kind_of(l);
  if (k != TFR_LIST && k != TFR_TUPLE) {
    fcall_error(f, "argument must be a list or tuple");
    return NULL;
  }
  if (!is_known(l))
    return tfr_unknown(f->a, &tfr_t_number);
  if (l->n == 0) {
    fcall_error(f, "cannot search an empty list");
    return NULL;
  }
  for (uint32_t i = 0; i < l->n; i++) {
    int r = equals(f->a, l->elems[i], v);
    if (r == EQ_UNKNOWN)
      return tfr_unknown(f->a, &tfr_t_number);
    if (r == EQ_TRUE)
      return int_value(f->a, i);
  }
  fcall_error(f, "item not found");
  return NULL;
}

static const tfr_type *ty_same(struct fcall *f) {
  if (dynamic_arg(f))
    return &tfr_t_dynamic;
  return f->args[0]->type;
}

/* distinct(list): the first of each group of equal elements, in order. */
static const tfr_value *fn_distinct(struct fcall *f, const tfr_type *ret) {
  const tfr_value *l = f->args[0];
  if (!tfr_value_is_wholly_known(l))
    return tfr_unknown(f->a, ret);
  struct keys ks;
  keys_build(f->a, &ks, l->n, l->elems);
  keys_sort(&ks);
  bool *keep = heap_calloc(l->n + 1, sizeof *keep);
  for (size_t i = 0; i < ks.n; i++)
    keep[ks.e[i].i] = i == 0 || cmp_key(&ks.e[i - 1], &ks.e[i]) != 0;
  const tfr_value **out = tfr_arena_alloc(f->a, (l->n + 1) * sizeof *out);
  size_t n = 0;
  for (uint32_t i = 0; i < l->n; i++)
    if (keep[i])
      out[n++] = l->elems[i];
  free(keep);
  keys_free(&ks);
  return tfr_list(f->a, ret->elem, n, out);
}

/* ---- matchkeys ---------------------------------------------------------- */

static const tfr_type *keys_searchset_type(struct fcall *f) {
  const tfr_type *t[2] = {f->args[1]->type, f->args[2]->type};
  return conv_unify(f->a, 2, t);
}

static const tfr_type *ty_matchkeys(struct fcall *f) {
  if (dynamic_arg(f))
    return &tfr_t_dynamic;
  if (!keys_searchset_type(f)) {
    fcall_error(f, "keys and searchset must be of the same type");
    return NULL;
  }
  return f->args[0]->type;
}

/* The values whose keys are in searchset, all known: by sorted keys. */
static size_t match_sorted(tfr_arena *a, const tfr_value *values,
                           const tfr_value *keys, const tfr_value *ss,
                           const tfr_value **out) {
  struct keys kk, sk;
  keys_build(a, &kk, keys->n, keys->elems);
  keys_build(a, &sk, ss->n, ss->elems);
  keys_sort(&sk);
  size_t n = 0;
  for (size_t i = 0; i < kk.n; i++)
    if (keys_has(&sk, &kk.e[i]))
      out[n++] = values->elems[i];
  keys_free(&kk);
  keys_free(&sk);
  return n;
}

/* The same with unknowns in searchset, as cty does it: SIZE_MAX when a
** comparison cannot tell yet (then the result is empty). */
static size_t match_slow(tfr_arena *a, const tfr_value *values,
                         const tfr_value *keys, const tfr_value *ss,
                         const tfr_value **out) {
  size_t n = 0;
  for (uint32_t i = 0; i < keys->n; i++)
    for (uint32_t j = 0; j < ss->n; j++) {
      int r = equals(a, keys->elems[i], ss->elems[j]);
      if (r == EQ_UNKNOWN)
        return SIZE_MAX;
      if (r == EQ_TRUE) {
        out[n++] = values->elems[i];
        break;
      }
    }
  return n;
}

/* matchkeys(values, keys, searchset): the values whose keys (at the same
** index) are in searchset. */
static const tfr_value *fn_matchkeys(struct fcall *f, const tfr_type *ret) {
  const tfr_value *values = f->args[0];
  if (!is_known(values))
    return tfr_unknown(f->a, ret);
  if (values->n != f->args[1]->n) {
    fcall_error(f, "length of keys and values should be equal");
    return NULL;
  }
  const tfr_type *u = keys_searchset_type(f);
  const char *err = NULL;
  const tfr_value *keys = conv_convert(f->a, f->args[1], u, &err);
  const tfr_value *ss = keys ? conv_convert(f->a, f->args[2], u, &err) : NULL;
  if (!ss) {
    fcall_error(f, "%s", err ? err : "incorrect type");
    return NULL;
  }
  if (ss->n == 0)
    return tfr_list(f->a, ret->elem, 0, NULL);
  if (!tfr_value_is_wholly_known(values) || !tfr_value_is_wholly_known(keys))
    return tfr_unknown(f->a, ret);
  const tfr_value **out = tfr_arena_alloc(f->a, (keys->n + 1) * sizeof *out);
  size_t n = tfr_value_is_wholly_known(ss)
                 ? match_sorted(f->a, values, keys, ss, out)
                 : match_slow(f->a, values, keys, ss, out);
  return tfr_list(f->a, ret->elem, n == SIZE_MAX ? 0 : n, out);
}

/* ---- set operations ----------------------------------------------------- */

static const tfr_type *ty_setop(struct fcall *f) {
  const tfr_type **t = tfr_arena_alloc(f->a, (f->nargs + 1) * sizeof *t);
  size_t n = 0;
  for (size_t i = 0; i < f->nargs; i++) {
    const tfr_value *s = f->args[i];
    if (kind_of(s) == TFR_DYNAMIC) /* cty panics here */
      return &tfr_t_dynamic;
    if (is_known(s) && s->n == 0 && s->type->elem->kind == TFR_DYNAMIC)
      continue; /* empty sets of any type convert to anything */
    t[n++] = s->type->elem;
  }
  if (!n)
    return tfr_type_set(f->a, &tfr_t_dynamic);
  const tfr_type *u = conv_unify(f->a, n, t);
  if (!u) {
    fcall_error(f, "given sets must all have compatible element types");
    return NULL;
  }
  return tfr_type_set(f->a, u);
}

enum setop { SET_UNION, SET_INTERSECT, SET_SUBTRACT };

/* Argument i converted to the result type; NULL after an error. */
static const tfr_value *set_arg(struct fcall *f, size_t i,
                                const tfr_type *ret) {
  const char *err = NULL;
  const tfr_value *s = conv_convert(f->a, f->args[i], ret, &err);
  if (!s)
    fcall_arg_error(f, i, "%s", err ? err : "incorrect type");
  return s;
}

/* Keep the elements of cur (n of them) that are in s (or are not, to
** subtract); returns the new count. */
static size_t set_filter(tfr_arena *a, const tfr_value **cur, size_t n,
                         const tfr_value *s, bool in) {
  struct keys sk, ck;
  keys_build(a, &sk, s->n, s->elems);
  keys_sort(&sk);
  keys_build(a, &ck, n, cur);
  size_t out = 0;
  for (size_t i = 0; i < n; i++)
    if (keys_has(&sk, &ck.e[i]) == in)
      cur[out++] = cur[i];
  keys_free(&sk);
  keys_free(&ck);
  return out;
}

/* t in Go's %#v syntax, as cty's Type.GoString writes it (cty/
** primitive_type.go:43-55, list_type.go:50, set_type.go:48, map_type.go:
** 50, tuple_type.go:58-63, object_type.go:110-122 in go-cty v1.18.1; Go
** prints a map's keys sorted, as an object type's names are). */
static void go_type(struct sbuf *b, const tfr_type *t) {
  static const char *const coll[] = {
      [TFR_LIST] = "cty.List(", [TFR_SET] = "cty.Set(", [TFR_MAP] = "cty.Map("};
  switch (t->kind) {
  case TFR_STRING:
    sbuf_str(b, "cty.String");
    return;
  case TFR_NUMBER:
    sbuf_str(b, "cty.Number");
    return;
  case TFR_BOOL:
    sbuf_str(b, "cty.Bool");
    return;
  case TFR_LIST:
  case TFR_SET:
  case TFR_MAP:
    sbuf_str(b, coll[t->kind]);
    go_type(b, t->elem);
    sbuf_str(b, ")");
    return;
  case TFR_TUPLE:
  case TFR_OBJECT:
    if (!t->n) {
      sbuf_str(b, t->kind == TFR_TUPLE ? "cty.EmptyTuple" : "cty.EmptyObject");
      return;
    }
    sbuf_str(b, t->kind == TFR_TUPLE ? "cty.Tuple([]cty.Type{"
                                     : "cty.Object(map[string]cty.Type{");
    for (uint32_t i = 0; i < t->n; i++) {
      if (i)
        sbuf_str(b, ", ");
      if (t->kind == TFR_OBJECT) {
        sbuf_go_quote(b, t->names[i], strlen(t->names[i]));
        sbuf_str(b, ":");
      }
      go_type(b, t->types[i]);
    }
    sbuf_str(b, "})");
    return;
  default:
    sbuf_str(b, "cty.DynamicPseudoType");
  }
}

/*
** cty's set operations panic when two sets' element types differ (cty/
** set/set.go:47-51 in go-cty v1.18.1: mustHaveSameRules), which happens
** when the result's element type is any (an argument holds a value of
** type any) and another set converted to it kept its own element type.
** Terraform reports the panic as the call's error.  False after that.
*/
static bool same_rules(struct fcall *f, const tfr_value *first,
                       const tfr_value *s) {
  if (tfr_type_equal(first->type->elem, s->type->elem))
    return true;
  struct sbuf b = {0};
  sbuf_str(&b, "cty.setRules{Type:");
  go_type(&b, first->type->elem);
  sbuf_str(&b, "}, cty.setRules{Type:");
  go_type(&b, s->type->elem);
  sbuf_str(&b, "}");
  fcall_error(f,
              "panic in function implementation: incompatible set "
              "rules: %.*s",
              (int)b.n, b.p);
  free(b.p);
  return false;
}

/*
** cty's setOperationImpl: each set converted to the result type, then
** combined in order.  Only a union may hold unknowns (they stay distinct);
** otherwise the result is unknown.
*/
static const tfr_value *set_op(struct fcall *f, const tfr_type *ret,
                               enum setop op) {
  struct vec cur = {0};
  const tfr_value *first = NULL;
  for (size_t i = 0; i < f->nargs; i++) {
    const tfr_value *s = set_arg(f, i, ret);
    if (!s) {
      free(cur.v);
      return NULL;
    }
    if (op != SET_UNION && !tfr_value_is_wholly_known(s)) {
      free(cur.v);
      return tfr_unknown(f->a, ret);
    }
    if (i == 0)
      first = s;
    else if (!same_rules(f, first, s)) {
      free(cur.v);
      return NULL;
    }
    if (i == 0 || op == SET_UNION)
      for (uint32_t j = 0; j < s->n; j++)
        vec_push(&cur, s->elems[j]);
    else
      cur.n = set_filter(f->a, cur.v, cur.n, s, op == SET_INTERSECT);
  }
  const tfr_value *r = tfr_set(f->a, ret->elem, cur.n, cur.v);
  free(cur.v);
  return r;
}

static const tfr_value *fn_setunion(struct fcall *f, const tfr_type *ret) {
  return set_op(f, ret, SET_UNION);
}

static const tfr_value *fn_setintersection(struct fcall *f,
                                           const tfr_type *ret) {
  return set_op(f, ret, SET_INTERSECT);
}

static const tfr_value *fn_setsubtract(struct fcall *f, const tfr_type *ret) {
  return set_op(f, ret, SET_SUBTRACT);
}

/* ---- setproduct --------------------------------------------------------- */

/* The element type setproduct takes from argument i, or NULL after an
** error; *list says whether it counts as a list. */
static const tfr_type *product_elem(struct fcall *f, size_t i, bool *list) {
  const tfr_type *t = f->args[i]->type;
  *list = t->kind != TFR_SET;
  if (t->kind == TFR_SET || t->kind == TFR_LIST)
    return t->elem;
  if (t->kind != TFR_TUPLE) {
    fcall_arg_error(f, i, "a set or a list is required");
    return NULL;
  }
  if (t->n == 0)
    return &tfr_t_dynamic;
  const tfr_type *u = conv_unify(f->a, t->n, t->types);
  if (!u)
    fcall_arg_error(f, i, "all elements must be of the same type");
  return u;
}

static const tfr_type *ty_setproduct(struct fcall *f) {
  if (dynamic_arg(f))
    return &tfr_t_dynamic;
  if (f->nargs < 2) {
    fcall_error(f, "at least two arguments are required");
    return NULL;
  }
  const tfr_type **t = tfr_arena_alloc(f->a, f->nargs * sizeof *t);
  bool all_lists = true;
  for (size_t i = 0; i < f->nargs; i++) {
    bool list;
    t[i] = product_elem(f, i, &list);
    if (!t[i])
      return NULL;
    all_lists &= list;
  }
  const tfr_type *tt = tfr_type_tuple(f->a, f->nargs, t);
  return all_lists ? tfr_type_list(f->a, tt) : tfr_type_set(f->a, tt);
}

/* Product tuple number k (the last argument varies fastest); NULL after
** an error. */
static const tfr_value *product_tuple(struct fcall *f,
                                      const tfr_value *const *args,
                                      const tfr_type *ety, size_t k) {
  size_t n = f->nargs;
  const tfr_value **e = tfr_arena_alloc(f->a, n * sizeof *e);
  for (size_t j = n; j-- > 0;) {
    const tfr_value *v = args[j]->elems[k % args[j]->n];
    k /= args[j]->n;
    const tfr_type *want = ety->types[j];
    if (!tfr_type_equal(v->type, want)) {
      const char *err = NULL;
      v = conv_convert(f->a, v, want, &err);
      if (!v) {
        fcall_error(f, "%s", err ? err : "incorrect type");
        return NULL;
      }
    }
    e[j] = v;
  }
  return tfr_tuple(f->a, n, e);
}

/* setproduct(sets...): every combination of one element of each, as
** tuples; a list when all arguments are lists or tuples, else a set. */
static const tfr_value *fn_setproduct(struct fcall *f, const tfr_type *ret) {
  unsigned marks = 0;
  bool unknown = false;
  uint64_t total = 1;
  const tfr_value **args = tfr_arena_alloc(f->a, f->nargs * sizeof *args);
  for (size_t i = 0; i < f->nargs; i++) {
    args[i] = unmark(f->a, f->args[i], &marks);
    const tfr_value *s = args[i];
    if (!is_known(s) ||
        (kind_of(s) == TFR_SET && s->n != 1 && !tfr_value_is_wholly_known(s)))
      unknown = true; /* its length is unknown: the result is unknown, with
                      ** the marks of every argument (cty/function/stdlib/
                      ** collection.go:986-1015 in go-cty v1.18.1) */
    else if (total && s->n > UINT32_MAX / total)
      total = UINT64_MAX;
    else
      total *= s->n;
  }
  if (unknown)
    return with_marks(f->a, tfr_unknown(f->a, ret), marks);
  if (total == UINT64_MAX) { /* cty would run out of memory */
    fcall_error(f, "the product has more than %u elements", UINT32_MAX);
    return NULL;
  }
  /* each element: a tuple value, its items, and its place in the result */
  uint64_t each = sizeof(tfr_value) + (f->nargs + 1) * sizeof(void *);
  if (total > arena_value_budget() / each) {
    fcall_error(f,
                "value too large: the product would have %llu elements, "
                "more than this run's memory budget holds (-max-memory)",
                (unsigned long long)total);
    fcall_ours(f);
    return NULL;
  }
  const tfr_value **p = tfr_arena_alloc(f->a, (total + 1) * sizeof *p);
  for (size_t k = 0; k < total; k++)
    if (!(p[k] = product_tuple(f, args, ret->elem, k)))
      return NULL;
  const tfr_type *ety = total ? p[0]->type : ret->elem;
  const tfr_value *r = ret->kind == TFR_LIST ? tfr_list(f->a, ety, total, p)
                                             : tfr_set(f->a, ety, total, p);
  return with_marks(f->a, r, marks);
}

/* ---- the table ---------------------------------------------------------- */

/* Parameter types, built once: list(any), set(any). */
static const tfr_type t_list_any = {.kind = TFR_LIST, .elem = &tfr_t_dynamic};
static const tfr_type t_set_any = {.kind = TFR_SET, .elem = &tfr_t_dynamic};

enum {
  NULLS = FP_ALLOW_NULL,
  DYN = FP_ALLOW_DYNAMIC,
  MARKED = FP_ALLOW_MARKED,
};

static const struct func_param p_other_sets = {"other_sets", &t_set_any, DYN};
/* cty's sets take unknown values (cty/function/stdlib/collection.go:
** 935-940 in go-cty v1.18.1), so an unknown one keeps its marks */
static const struct func_param p_sets = {"sets", NULL,
                                         MARKED | FP_ALLOW_UNKNOWN};

/* Sorted by name, as funcs_collection.c's table: funcs.c interleaves the
** two by name, so that names come in the order of the one table they
** were. */
static const struct func_spec specs[] = {
    /* cty 1.18.1 (Terraform's since June 2026) lets value be null */
    {"contains",
     2,
     {{"list", NULL, FP_ALLOW_UNKNOWN}, {"value", NULL, NULLS}},

     NULL,
     &tfr_t_bool,
     ty_fixed,
     fn_contains},
    {"distinct",
     1,
     {{"list", &t_list_any, 0}},
     NULL,
     NULL,
     ty_same,
     fn_distinct},
    {"index",
     2,
     {{"list", NULL, 0}, {"value", NULL, 0}},
     NULL,
     &tfr_t_number,
     ty_fixed,
     fn_index},
    {"matchkeys",
     3,
     {{"values", &t_list_any, 0},
      {"keys", &t_list_any, 0},
      {"searchset", &t_list_any, 0}},
     NULL,
     NULL,
     ty_matchkeys,
     fn_matchkeys},
    {"setintersection",
     1,
     {{"first_set", &t_set_any, DYN}},
     &p_other_sets,
     NULL,
     ty_setop,
     fn_setintersection},
    {"setproduct", 0, {{0}}, &p_sets, NULL, ty_setproduct, fn_setproduct},
    {"setsubtract",
     2,
     {{"a", &t_set_any, DYN}, {"b", &t_set_any, DYN}},
     NULL,
     NULL,
     ty_setop,
     fn_setsubtract},
    {"setunion",
     1,
     {{"first_set", &t_set_any, DYN}},
     &p_other_sets,
     NULL,
     ty_setop,
     fn_setunion},
};

const struct func_group funcs_sets = {specs, sizeof specs / sizeof *specs};
