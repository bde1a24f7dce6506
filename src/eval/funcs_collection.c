/*
** Collection functions: alltrue anytrue chunklist coalesce coalescelist
** compact concat element flatten keys length lookup merge one range
** reverse slice sort sum transpose values zipmap, and the removed list()
** and map().  The set-like ones (contains distinct index matchkeys
** setintersection setproduct setsubtract setunion) are in funcs_sets.c;
** the helpers both files use are in funcs_collection_int.h.
**
** Each one is cty v1.12.1's stdlib function (collection.go, sequence.go,
** string.go) or Terraform's own (internal/lang/funcs/collection.go): the
** same parameters, result types, results, marks and messages.  As in
** Terraform >= 1.10, element() counts a negative index from the end
** (cty 1.18).  Results live in the call's arena.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "values/convert.h"
#include "base/arena_int.h"
#include "eval/funcs.h"
#include "eval/funcs_collection_int.h"
#include "values/number.h"
#include "base/strutil.h"
#include "base/heap.h"

/* gocty's message for a number that is no int64. */
#define WHOLE                                                                  \
  "value must be a whole number, between -9223372036854775808 and "            \
  "9223372036854775807"

/* ---- small helpers ------------------------------------------------------ */

/* (those funcs_sets.c uses too are in funcs_collection_int.h) */

/* String values for names and keys: cty.StringVal, so NFC. */
static const tfr_value *str_value(tfr_arena *a, const char *s, size_t n) {
  return tfr_string(a, s, n);
}

static const tfr_value *empty_tuple(tfr_arena *a) {
  return tfr_tuple(a, 0, NULL);
}

static const tfr_type *empty_object_type(tfr_arena *a) {
  return tfr_type_object(a, 0, NULL, NULL, NULL);
}

/* A tuple type of n strings (keys of an object). */
static const tfr_type *strings_tuple_type(tfr_arena *a, size_t n) {
  const tfr_type **t = tfr_arena_alloc(a, (n ? n : 1) * sizeof *t);
  for (size_t i = 0; i < n; i++)
    t[i] = &tfr_t_string;
  return tfr_type_tuple(a, n, t);
}

/* ---- alltrue, anytrue --------------------------------------------------- */

/* alltrue(list): false at the first false or null element. */
/* alltrue and anytrue take unknowns: cty calls them once the list is
** known, whatever its elements (alltrue([false, x]) is false). */
static const tfr_value *fn_alltrue(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *l = f->args[0];
  if (!is_known(l))
    return tfr_unknown(f->a, &tfr_t_bool);
  for (uint32_t i = 0; i < l->n; i++) {
    const tfr_value *e = l->elems[i];
    if (!is_known(e))
      return tfr_unknown(f->a, &tfr_t_bool);
    if (is_null(e) || !e->b)
      return tfr_bool(false);
  }
  return tfr_bool(true);
}

/* anytrue(list): true at the first true element; nulls do not count. */
static const tfr_value *fn_anytrue(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *l = f->args[0];
  if (!is_known(l))
    return tfr_unknown(f->a, &tfr_t_bool);
  bool unknown = false;
  for (uint32_t i = 0; i < l->n; i++) {
    const tfr_value *e = l->elems[i];
    if (!is_known(e))
      unknown = true;
    else if (!is_null(e) && e->b)
      return tfr_bool(true);
  }
  return unknown ? tfr_unknown(f->a, &tfr_t_bool) : tfr_bool(false);
}

/* ---- chunklist ---------------------------------------------------------- */

static const tfr_type *ty_chunklist(struct fcall *f) {
  if (dynamic_arg(f))
    return &tfr_t_dynamic;
  return tfr_type_list(f->a, f->args[0]->type);
}

/* chunklist(list, size): lists of size elements (the last may be shorter);
** size 0 gives the whole list as the one chunk. */
static const tfr_value *fn_chunklist(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  unsigned marks = 0;
  const tfr_value *l = unmark(f->a, f->args[0], &marks);
  const tfr_value *size = unmark(f->a, f->args[1], &marks);
  int64_t n;
  if (!num_to_int64(size->num, &n)) {
    fcall_error(f, "invalid size: %s", WHOLE);
    return NULL;
  }
  if (n < 0) {
    fcall_error(f, "the size argument must be positive");
    return NULL;
  }
  if (l->n == 0)
    return with_marks(f->a, tfr_list(f->a, l->type, 0, NULL), marks);
  if (n == 0)
    return with_marks(f->a, tfr_list(f->a, l->type, 1, &l), marks);
  size_t chunks = (uint64_t)n >= l->n ? 1 : (l->n + (size_t)n - 1) / (size_t)n;
  const tfr_value **c = tfr_arena_alloc(f->a, chunks * sizeof *c);
  for (size_t i = 0; i < chunks; i++) {
    size_t start = i * (size_t)n, len = l->n - start;
    if ((uint64_t)len > (uint64_t)n)
      len = (size_t)n;
    c[i] = tfr_list(f->a, l->type->elem, len, l->elems + start);
  }
  return with_marks(f->a, tfr_list(f->a, l->type, chunks, c), marks);
}

/* ---- coalesce, coalescelist, compact ------------------------------------ */

static const tfr_type *ty_coalesce(struct fcall *f) {
  const tfr_type **t = tfr_arena_alloc(f->a, (f->nargs + 1) * sizeof *t);
  for (size_t i = 0; i < f->nargs; i++)
    t[i] = f->args[i]->type;
  const tfr_type *u = conv_unify(f->a, f->nargs, t);
  if (!u)
    fcall_error(f, "all arguments must have the same type");
  return u;
}

/* coalesce(vals...): the first argument that is neither null nor "". */
static const tfr_value *fn_coalesce(struct fcall *f, const tfr_type *ret) {
  for (size_t i = 0; i < f->nargs; i++) {
    const char *err = NULL;
    const tfr_value *v = conv_convert(f->a, f->args[i], ret, &err);
    if (!v) /* cty's failed conversion gives a null-like NilVal */
      continue;
    if (!is_known(v))
      return tfr_unknown(f->a, ret);
    if (is_null(v))
      continue;
    if (ret->kind == TFR_STRING && v->n == 0)
      continue;
    return v;
  }
  fcall_error(f, "no non-null, non-empty-string arguments");
  return NULL;
}

static const tfr_type *ty_coalescelist(struct fcall *f) {
  if (!f->nargs) {
    fcall_error(f, "at least one argument is required");
    return NULL;
  }
  for (size_t i = 0; i < f->nargs; i++) {
    if (!is_known(f->args[i]))
      return &tfr_t_dynamic;
    int k = kind_of(f->args[i]);
    if (k != TFR_LIST && k != TFR_TUPLE) {
      fcall_error(f, "coalescelist arguments must be lists or tuples");
      return NULL;
    }
  }
  for (size_t i = 1; i < f->nargs; i++)
    if (!tfr_type_equal(f->args[i]->type, f->args[0]->type))
      return &tfr_t_dynamic;
  return f->args[0]->type;
}

/* coalescelist(vals...): the first non-empty list or tuple. */
static const tfr_value *fn_coalescelist(struct fcall *f, const tfr_type *ret) {
  for (size_t i = 0; i < f->nargs; i++) {
    const tfr_value *v = f->args[i];
    if (!is_known(v))
      return tfr_unknown(f->a, ret);
    if (!is_null(v) && v->n > 0)
      return v;
  }
  fcall_error(f, "no non-null arguments");
  return NULL;
}

/* compact(list): the strings that are neither null nor "". */
static const tfr_value *fn_compact(struct fcall *f, const tfr_type *ret) {
  const tfr_value *l = f->args[0];
  if (!tfr_value_is_wholly_known(l))
    return tfr_unknown(f->a, ret);
  const tfr_value **out = tfr_arena_alloc(f->a, (l->n + 1) * sizeof *out);
  size_t n = 0;
  for (uint32_t i = 0; i < l->n; i++)
    if (!is_null(l->elems[i]) && l->elems[i]->n > 0)
      out[n++] = l->elems[i];
  return tfr_list(f->a, &tfr_t_string, n, out);
}

/* ---- concat ------------------------------------------------------------- */

/* All lists whose types unify: that list type, else NULL. */
static const tfr_type *concat_list_type(struct fcall *f) {
  const tfr_type **t = tfr_arena_alloc(f->a, f->nargs * sizeof *t);
  for (size_t i = 0; i < f->nargs; i++) {
    if (kind_of(f->args[i]) != TFR_LIST)
      return NULL;
    t[i] = f->args[i]->type;
  }
  return conv_unify(f->a, f->nargs, t);
}

static const tfr_type *ty_concat(struct fcall *f) {
  if (dynamic_arg(f))
    return &tfr_t_dynamic;
  if (!f->nargs) {
    fcall_error(f, "at least one argument is required");
    return NULL;
  }
  const tfr_type *lt =
      kind_of(f->args[0]) == TFR_LIST ? concat_list_type(f) : NULL;
  if (lt)
    return lt;
  size_t total = 0;
  for (size_t i = 0; i < f->nargs; i++) {
    const tfr_value *v = f->args[i];
    int k = kind_of(v);
    if (k == TFR_LIST && !is_known(v))
      return &tfr_t_dynamic;
    if (k != TFR_LIST && k != TFR_TUPLE) {
      fcall_arg_error(f, i, "all arguments must be lists or tuples; got %s",
                      tfr_type_friendly(f->a, v->type));
      return NULL;
    }
    total += k == TFR_TUPLE ? v->type->n : v->n;
  }
  const tfr_type **t = tfr_arena_alloc(f->a, (total + 1) * sizeof *t);
  size_t n = 0;
  for (size_t i = 0; i < f->nargs; i++) {
    const tfr_value *v = f->args[i];
    bool tuple = kind_of(v) == TFR_TUPLE;
    size_t m = tuple ? v->type->n : v->n;
    for (size_t j = 0; j < m; j++)
      t[n++] = tuple ? v->type->types[j] : v->type->elem;
  }
  return tfr_type_tuple(f->a, n, t);
}

/* concat(seqs...): one list when they all are lists of unifiable types,
** else a tuple of all the elements. */
static const tfr_value *fn_concat(struct fcall *f, const tfr_type *ret) {
  if (ret->kind != TFR_LIST && ret->kind != TFR_TUPLE)
    return tfr_unknown(f->a, ret);
  unsigned marks = 0;
  size_t total = 0;
  const tfr_value **seq = tfr_arena_alloc(f->a, f->nargs * sizeof *seq);
  for (size_t i = 0; i < f->nargs; i++) {
    const tfr_value *v = f->args[i];
    if (ret->kind == TFR_LIST) {
      const char *err = NULL;
      v = conv_convert(f->a, v, ret, &err);
      if (!v) {
        fcall_arg_error(f, i, "%s", err ? err : "incorrect type");
        return NULL;
      }
    }
    seq[i] = unmark(f->a, v, &marks);
    total += seq[i]->n;
  }
  const tfr_value **e = tfr_arena_alloc(f->a, (total + 1) * sizeof *e);
  size_t n = 0;
  for (size_t i = 0; i < f->nargs; i++)
    for (uint32_t j = 0; j < seq[i]->n; j++)
      e[n++] = seq[i]->elems[j];
  const tfr_value *r = ret->kind == TFR_LIST ? tfr_list(f->a, ret->elem, n, e)
                                             : tfr_tuple(f->a, n, e);
  return with_marks(f->a, r, marks);
}

/* ---- element ------------------------------------------------------------ */

/* An element index: modulo n, and counted from the end when negative. */
static size_t wrap_index(int64_t i, size_t n) {
  int64_t r = i % (int64_t)n;
  return (size_t)(r < 0 ? r + (int64_t)n : r);
}

static const tfr_type *ty_element(struct fcall *f) {
  if (dynamic_arg(f))
    return &tfr_t_dynamic;
  const tfr_type *t = f->args[0]->type;
  const tfr_value *index = f->args[1];
  int64_t i;
  switch (t->kind) {
  case TFR_LIST:
    return t->elem;
  case TFR_TUPLE:
    if (!is_known(index))
      return &tfr_t_dynamic;
    if (!num_to_int64(index->num, &i)) {
      fcall_error(f, "invalid index: %s", WHOLE);
      return NULL;
    }
    if (t->n == 0) {
      fcall_error(f, "cannot use element function with an empty list");
      return NULL;
    }
    return t->types[wrap_index(i, t->n)];
  default:
    fcall_error(f, "cannot read elements from %s", tfr_type_friendly(f->a, t));
    return NULL;
  }
}

/* element(list, index): the element at index, wrapping around. */
static const tfr_value *fn_element(struct fcall *f, const tfr_type *ret) {
  int64_t i;
  if (!num_to_int64(f->args[1]->num, &i)) {
    fcall_error(f, "invalid index: %s", WHOLE);
    return NULL;
  }
  unsigned marks = 0;
  const tfr_value *l = unmark(f->a, f->args[0], &marks);
  if (!is_known(l))
    return tfr_unknown(f->a, ret);
  if (l->n == 0) {
    fcall_error(f, "cannot use element function with an empty list");
    return NULL;
  }
  return with_marks(f->a, l->elems[wrap_index(i, l->n)], marks);
}

/* ---- flatten ------------------------------------------------------------ */

/*
** cty's flattener: the leaves of l go to out, nested lists, sets and
** tuples (not null ones) are flattened, and their own marks go to
** *marks.  False when something unknown keeps the result from being known.
*/
static bool flatten_into(tfr_arena *a, const tfr_value *l, struct vec *out,
                         unsigned *marks) {
  l = unmark(a, l, marks);
  if (!is_known(l) ||
      (kind_of(l) == TFR_SET && l->n != 1 && !tfr_value_is_wholly_known(l)))
    return false; /* the length is unknown */
  bool known = true;
  for (uint32_t i = 0; i < l->n; i++) {
    const tfr_value *e = l->elems[i];
    /* only cty.DynamicVal itself: a marked or refined unknown of type
    ** any is not equal to it and counts as a leaf (cty/function/stdlib/
    ** collection.go:560-564 in go-cty v1.18.1) */
    if (!is_known(e) && kind_of(e) == TFR_DYNAMIC &&
        !(e->flags & (MARKS | TFR_V_NOTNULL)))
      known = false;
    if (is_null(e) || !is_seq(kind_of(e))) {
      vec_push(out, e);
    } else if (!is_known(e)) {
      known = false;
      *marks |= e->flags & MARKS;
    } else {
      size_t before = out->n;
      if (!flatten_into(a, e, out, marks)) {
        known = false;
        out->n = before;
      }
    }
  }
  return known;
}

static const tfr_type *ty_flatten(struct fcall *f) {
  if (dynamic_arg(f))
    return &tfr_t_dynamic;
  const tfr_value *l = f->args[0];
  if (!tfr_value_is_wholly_known(l))
    return &tfr_t_dynamic;
  if (!is_seq(kind_of(l))) {
    fcall_error(f, "can only flatten lists, sets and tuples");
    return NULL;
  }
  struct vec out = {0};
  unsigned marks = 0;
  bool known = flatten_into(f->a, l, &out, &marks);
  const tfr_type **t = tfr_arena_alloc(f->a, (out.n + 1) * sizeof *t);
  for (size_t i = 0; i < out.n; i++)
    t[i] = out.v[i]->type;
  const tfr_type *r = known ? tfr_type_tuple(f->a, out.n, t) : &tfr_t_dynamic;
  free(out.v);
  return r;
}

/* flatten(list): a tuple of the leaves of nested sequences. */
static const tfr_value *fn_flatten(struct fcall *f, const tfr_type *ret) {
  unsigned marks = 0;
  if (unmark(f->a, f->args[0], &marks)->n == 0)
    return with_marks(f->a, empty_tuple(f->a), marks);
  marks = 0;
  struct vec out = {0};
  bool known = flatten_into(f->a, f->args[0], &out, &marks);
  const tfr_value *r =
      known ? tfr_tuple(f->a, out.n, out.v) : tfr_unknown(f->a, ret);
  free(out.v);
  return with_marks(f->a, r, marks);
}

/* ---- keys, values, length, lookup ---------------------------------------- */

static const tfr_type *ty_keys(struct fcall *f) {
  if (dynamic_arg(f))
    return &tfr_t_dynamic;
  const tfr_type *t = f->args[0]->type;
  if (t->kind == TFR_MAP)
    return tfr_type_list(f->a, &tfr_t_string);
  if (t->kind == TFR_OBJECT)
    return strings_tuple_type(f->a, t->n);
  fcall_arg_error(f, 0, "must have map or object type");
  return NULL;
}

/* keys(inputMap): the keys in order; of an object even when unknown. */
static const tfr_value *fn_keys(struct fcall *f, const tfr_type *ret) {
  unsigned marks = 0;
  const tfr_value *m = unmark(f->a, f->args[0], &marks);
  const tfr_type *t = m->type;
  if (t->kind == TFR_OBJECT) {
    const tfr_value **k = tfr_arena_alloc(f->a, (t->n + 1) * sizeof *k);
    for (uint32_t i = 0; i < t->n; i++)
      k[i] = str_value(f->a, t->names[i], strlen(t->names[i]));
    return with_marks(f->a, tfr_tuple(f->a, t->n, k), marks);
  }
  if (!is_known(m))
    return with_marks(f->a, tfr_unknown(f->a, ret), marks);
  const tfr_value **k = tfr_arena_alloc(f->a, (m->n + 1) * sizeof *k);
  for (uint32_t i = 0; i < m->n; i++)
    k[i] = str_value(f->a, m->keys[i], m->keylens[i]);
  return with_marks(f->a, tfr_list(f->a, &tfr_t_string, m->n, k), marks);
}

static const tfr_type *ty_values(struct fcall *f) {
  if (dynamic_arg(f))
    return &tfr_t_dynamic;
  const tfr_type *t = f->args[0]->type;
  if (t->kind == TFR_MAP)
    return tfr_type_list(f->a, t->elem);
  if (t->kind == TFR_OBJECT)
    return tfr_type_tuple(f->a, t->n, t->types);
  fcall_error(f, "values() requires a map as the first argument");
  return NULL;
}

/* values(mapping): the values in the order of their keys. */
static const tfr_value *fn_values(struct fcall *f, const tfr_type *ret) {
  unsigned marks = 0;
  const tfr_value *m = unmark(f->a, f->args[0], &marks);
  const tfr_value *r = ret->kind == TFR_TUPLE
                           ? tfr_tuple(f->a, m->n, m->elems)
                           : tfr_list(f->a, ret->elem, m->n, m->elems);
  return with_marks(f->a, r, marks);
}

static const tfr_type *ty_length(struct fcall *f) {
  switch (kind_of(f->args[0])) {
  case TFR_BOOL:
  case TFR_NUMBER:
    fcall_error(f, "argument must be a string, a collection type, or a "
                   "structural type");
    return NULL;
  default:
    return &tfr_t_number;
  }
}

/* length(value): characters of a string, elements of a collection,
** attributes or elements of a structural value (known from its type). */
static const tfr_value *fn_length(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  unsigned marks = 0;
  const tfr_value *v = unmark(f->a, f->args[0], &marks);
  const tfr_value *r;
  int k = kind_of(v);
  if (k == TFR_TUPLE || k == TFR_OBJECT)
    r = int_value(f->a, v->type->n);
  else if (k == TFR_DYNAMIC || !is_known(v))
    r = tfr_unknown(f->a, &tfr_t_number);
  else if (k == TFR_STRING)
    r = int_value(f->a, (int64_t)str_graphemes(v->s, v->n));
  else if (k == TFR_SET && v->n != 1 && !tfr_value_is_wholly_known(v))
    r = tfr_unknown(f->a, &tfr_t_number); /* unknowns may coalesce */
  else
    r = int_value(f->a, v->n);
  return with_marks(f->a, r, marks);
}

static const tfr_type *ty_lookup(struct fcall *f) {
  if (dynamic_arg(f))
    return &tfr_t_dynamic;
  if (f->nargs > 3) {
    fcall_error(f, "lookup() takes two or three arguments, got %zu", f->nargs);
    return NULL;
  }
  const tfr_type *t = f->args[0]->type;
  const tfr_value *key = f->args[1];
  if (t->kind == TFR_OBJECT) {
    if (!is_known(key))
      return &tfr_t_dynamic;
    long i = tfr_type_attr(t, key->s, key->n);
    if (i >= 0)
      return t->types[i];
    if (f->nargs == 3)
      return f->args[2]->type;
    fcall_arg_error(f, 0, "the given object has no attribute %s",
                    str_go_quote(f->a, key->s, key->n));
    return NULL;
  }
  if (t->kind == TFR_MAP) {
    const char *err = NULL;
    if (f->nargs == 3 && !conv_convert(f->a, f->args[2], t->elem, &err)) {
      fcall_arg_error(f, 2,
                      "the default value must have the same type as "
                      "the map elements");
      return NULL;
    }
    return t->elem;
  }
  fcall_arg_error(f, 0, "lookup() requires a map as the first argument");
  return NULL;
}

/* The element of map m with key k, or NULL (the keys are sorted). */
static const tfr_value *map_get(const tfr_value *m, const char *k, size_t n) {
  size_t lo = 0, hi = m->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = str_cmp_bytes(m->keys[mid], m->keylens[mid], k, n);
    if (!c)
      return m->elems[mid];
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

/* lookup(inputMap, key, default...): the element or attribute named key,
** else the default converted to the result type. */
static const tfr_value *fn_lookup(struct fcall *f, const tfr_type *ret) {
  unsigned marks = 0;
  const tfr_value *m = unmark(f->a, f->args[0], &marks);
  const tfr_value *key = unmark(f->a, f->args[1], &marks);
  if (!is_known(m) || !is_known(key))
    return with_marks(f->a, tfr_unknown(f->a, ret), marks);
  const tfr_value *v = NULL;
  if (m->type->kind == TFR_OBJECT) {
    long i = tfr_type_attr(m->type, key->s, key->n);
    v = i >= 0 ? m->elems[i] : NULL;
  } else {
    v = map_get(m, key->s, key->n);
  }
  if (!v && f->nargs == 3) {
    const char *err = NULL;
    v = conv_convert(f->a, f->args[2], ret, &err);
    if (!v) {
      fcall_error(f, "%s", err ? err : "incorrect type");
      return NULL;
    }
  }
  if (!v) {
    fcall_error(f, "lookup failed to find key %s",
                str_go_quote(f->a, key->s, key->n));
    return NULL;
  }
  return with_marks(f->a, v, marks);
}

/* ---- merge -------------------------------------------------------------- */

/* One key of one argument of merge; the last argument's wins. */
struct entry {
  const char *name;
  size_t len, seq;
  const tfr_type *type;
  const tfr_value *value;
};

static int cmp_entry(const void *x, const void *y) {
  const struct entry *p = x, *q = y;
  int c = str_cmp_bytes(p->name, p->len, q->name, q->len);
  if (!c)
    c = p->seq < q->seq ? -1 : p->seq > q->seq;
  return c;
}

/* Sort entries by name and keep the last of each name; the new count. */
static size_t last_of_each(struct entry *e, size_t n) {
  if (n > 1)
    qsort(e, n, sizeof *e, cmp_entry);
  size_t out = 0;
  for (size_t i = 0; i < n; i++) {
    if (out && e[out - 1].len == e[i].len &&
        !memcmp(e[out - 1].name, e[i].name, e[i].len))
      out--;
    e[out++] = e[i];
  }
  return out;
}

/* The keys of a known, non-null map or object as entries (values or,
** with no values, types); returns the new count. */
static size_t add_entries(tfr_arena *a, struct entry *e, size_t n,
                          const tfr_value *m) {
  bool obj = m->type->kind == TFR_OBJECT;
  size_t count = obj ? m->type->n : m->n;
  for (size_t i = 0; i < count; i++) {
    const char *name = obj ? m->type->names[i]
                           : tfr_arena_strndup(a, m->keys[i], m->keylens[i]);
    size_t len = obj ? strlen(name) : m->keylens[i];
    const tfr_type *t = obj ? m->type->types[i] : m->type->elem;
    bool known = is_known(m);
    e[n] = (struct entry){name, len, n, t, known ? m->elems[i] : NULL};
    n++;
  }
  return n;
}

static size_t entries_room(struct fcall *f) {
  size_t total = 1;
  for (size_t i = 0; i < f->nargs; i++) {
    const tfr_value *m = f->args[i];
    total += kind_of(m) == TFR_OBJECT ? m->type->n : m->n;
  }
  return total;
}

/* An object type from entries (sorted by name, distinct). */
static const tfr_type *entries_object_type(tfr_arena *a, const struct entry *e,
                                           size_t n) {
  const char **names = tfr_arena_alloc(a, (n + 1) * sizeof *names);
  const tfr_type **types = tfr_arena_alloc(a, (n + 1) * sizeof *types);
  for (size_t i = 0; i < n; i++) {
    names[i] = e[i].name;
    types[i] = e[i].type;
  }
  return tfr_type_object(a, n, names, types, NULL);
}

/* The map or object (as ret) of entries e[0..n) (sorted by name,
** distinct, values set), with marks; frees e. */
static const tfr_value *entries_value(tfr_arena *a, struct entry *e, size_t n,
                                      const tfr_type *ret, unsigned marks) {
  const char **names = tfr_arena_alloc(a, (n + 1) * sizeof *names);
  uint32_t *lens = tfr_arena_alloc(a, (n + 1) * sizeof *lens);
  const tfr_value **vals = tfr_arena_alloc(a, (n + 1) * sizeof *vals);
  for (size_t i = 0; i < n; i++) {
    names[i] = e[i].name;
    lens[i] = (uint32_t)e[i].len;
    vals[i] = e[i].value;
  }
  free(e);
  const tfr_value *r = ret->kind == TFR_MAP
                           ? tfr_map(a, ret->elem, n, names, lens, vals)
                           : tfr_object(a, n, names, vals);
  return with_marks(a, r, marks);
}

/* Every argument a map or object: NULL after reporting one that is not. */
static bool merge_check(struct fcall *f, bool *dynamic) {
  for (size_t i = 0; i < f->nargs; i++) {
    int k = kind_of(f->args[i]);
    if (k == TFR_DYNAMIC) {
      *dynamic = true;
      return true;
    }
    if (k != TFR_MAP && k != TFR_OBJECT) {
      const char *n = tfr_type_friendly(f->a, f->args[i]->type);
      fcall_error(f, "arguments must be maps or objects, got %s",
                  str_go_quote(f->a, n, strlen(n)));
      return false;
    }
  }
  return true;
}

static const tfr_type *ty_merge(struct fcall *f) {
  if (!f->nargs)
    return empty_object_type(f->a);
  bool dynamic = false, matching = true, attrs_known = true;
  if (!merge_check(f, &dynamic))
    return NULL;
  if (dynamic)
    return &tfr_t_dynamic;
  struct entry *e = heap_alloc(entries_room(f) * sizeof *e);
  size_t n = 0;
  for (size_t i = 0; i < f->nargs; i++) {
    const tfr_value *m = f->args[i];
    matching &= tfr_type_equal(m->type, f->args[0]->type);
    if (is_null(m))
      continue;
    if (kind_of(m) == TFR_MAP && !is_known(m))
      attrs_known = false;
    else
      n = add_entries(f->a, e, n, m);
  }
  const tfr_type *r = matching ? f->args[0]->type
                      : !attrs_known
                          ? &tfr_t_dynamic
                          : entries_object_type(f->a, e, last_of_each(e, n));
  free(e);
  return r;
}

/* merge(maps...): all keys, a later argument's value winning; null
** arguments are skipped. */
static const tfr_value *fn_merge(struct fcall *f, const tfr_type *ret) {
  struct entry *e = heap_alloc(entries_room(f) * sizeof *e);
  unsigned marks = 0;
  size_t n = 0;
  for (size_t i = 0; i < f->nargs; i++) {
    if (is_null(f->args[i]))
      continue;
    const tfr_value *m = unmark(f->a, f->args[i], &marks);
    int k = kind_of(m);
    if (k == TFR_MAP || k == TFR_OBJECT) {
      n = add_entries(f->a, e, n, m);
      continue;
    }
    /* Only after a dynamic argument (the type check stops there) does
    ** anything else get here.  cty then iterates it as a map: a set of
    ** strings gives each string as its own key; other keys are not
    ** strings, and a primitive cannot be iterated (Go panics, which
    ** Terraform reports) */
    const char *why =
        k == TFR_SET && m->type->elem->kind == TFR_STRING ? NULL
        : k == TFR_SET || k == TFR_LIST || k == TFR_TUPLE
            ? (m->n ? "not a string" : NULL)
            : "attempt to iterate on non-collection, non-tuple type";
    if (why) {
      free(e);
      fcall_error(f, "panic in function implementation: %s", why);
      return NULL;
    }
    for (uint32_t j = 0; k == TFR_SET && j < m->n; j++) {
      const tfr_value *el = m->elems[j];
      if (el->flags & (TFR_V_NULL | TFR_V_UNKNOWN)) {
        free(e);
        fcall_error(f, "panic in function implementation: %s",
                    el->flags & TFR_V_NULL ? "value is null"
                                           : "value is unknown");
        return NULL;
      }
      e[n] = (struct entry){tfr_arena_strndup(f->a, el->s, el->n), el->n, n,
                            &tfr_t_string, el};
      n++;
    }
  }
  n = last_of_each(e, n);
  return entries_value(f->a, e, n, ret, marks);
}

/* ---- one ---------------------------------------------------------------- */

#define ONE_MSG                                                                \
  "must be a list, set, or tuple value with either zero or one elements"

static const tfr_type *ty_one(struct fcall *f) {
  if (dynamic_arg(f))
    return &tfr_t_dynamic;
  const tfr_type *t = f->args[0]->type;
  if (t->kind == TFR_LIST || t->kind == TFR_SET)
    return t->elem;
  if (t->kind == TFR_TUPLE && t->n <= 1)
    return t->n ? t->types[0] : &tfr_t_dynamic;
  fcall_arg_error(f, 0, ONE_MSG);
  return NULL;
}

/* one(list): null for no element, the element for one, else an error. */
static const tfr_value *fn_one(struct fcall *f, const tfr_type *ret) {
  const tfr_value *l = f->args[0];
  if (kind_of(l) != TFR_TUPLE && !is_known(l))
    return tfr_unknown(f->a, ret);
  if (l->n == 0)
    return tfr_null(f->a, ret);
  if (l->n == 1)
    return l->elems[0];
  fcall_arg_error(f, 0, ONE_MSG);
  return NULL;
}

/* ---- range -------------------------------------------------------------- */

/* start, end and step from range's one, two or three arguments. */
static bool range_args(struct fcall *f, const struct tfr_num **start,
                       const struct tfr_num **end,
                       const struct tfr_num **step) {
  const tfr_value *const *v = f->args;
  const struct tfr_num *zero = num_from_int(f->a, 0);
  switch (f->nargs) {
  case 1:
    *start = zero;
    *end = v[0]->num;
    *step = num_from_int(f->a, num_cmp(*end, zero) < 0 ? -1 : 1);
    return true;
  case 2:
    *start = v[0]->num;
    *end = v[1]->num;
    *step = num_from_int(f->a, num_cmp(*end, *start) < 0 ? -1 : 1);
    return true;
  case 3:
    *start = v[0]->num;
    *end = v[1]->num;
    *step = v[2]->num;
    return true;
  default:
    fcall_error(f, "must have one, two, or three arguments");
    return false;
  }
}

/*
** range(params...): start, start + step, ... up to end (excluded), at
** most 1024 numbers.  cty's "step must not be zero" check compares with
** the cty.Zero value itself and never matches an argument, so a zero step
** runs into the limit, as in Terraform.
*/
static const tfr_value *fn_range(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const struct tfr_num *start, *end, *step;
  if (!range_args(f, &start, &end, &step))
    return NULL;
  bool down = num_sign(step) < 0;
  if (down ? num_cmp(end, start) > 0 : num_cmp(end, start) < 0) {
    fcall_arg_error(f, 1, "end must be %s than start when step is %s",
                    down ? "less" : "greater", down ? "negative" : "positive");
    return NULL;
  }
  const tfr_value *out[1024];
  size_t n = 0;
  for (const struct tfr_num *x = start;
       down ? num_cmp(x, end) > 0 : num_cmp(x, end) < 0;) {
    if (n >= 1024) {
      fcall_error(f, "more than 1024 values were generated; either decrease "
                     "the difference between start and end or use a "
                     "smaller step");
      return NULL;
    }
    tfr_value *v = tfr_arena_alloc(f->a, sizeof *v);
    v->type = &tfr_t_number;
    v->num = x;
    out[n++] = v;
    x = num_add(f->a, x, step);
    if (!x) {
      fcall_error(f, "panic in function implementation: addition of "
                     "infinities with opposite signs");
      return NULL;
    }
  }
  return tfr_list(f->a, &tfr_t_number, n, out);
}

/* ---- reverse, slice ----------------------------------------------------- */

static const tfr_type *ty_reverse(struct fcall *f) {
  if (dynamic_arg(f))
    return &tfr_t_dynamic;
  const tfr_type *t = f->args[0]->type;
  if (t->kind == TFR_LIST || t->kind == TFR_SET)
    return tfr_type_list(f->a, t->elem);
  if (t->kind != TFR_TUPLE) {
    fcall_arg_error(f, 0, "can only reverse list or tuple values, not %s",
                    tfr_type_friendly(f->a, t));
    return NULL;
  }
  const tfr_type **r = tfr_arena_alloc(f->a, (t->n + 1) * sizeof *r);
  for (uint32_t i = 0; i < t->n; i++)
    r[t->n - 1 - i] = t->types[i];
  return tfr_type_tuple(f->a, t->n, r);
}

/* reverse(list): the elements in reverse order (a set's too, as a list). */
static const tfr_value *fn_reverse(struct fcall *f, const tfr_type *ret) {
  unsigned marks = 0;
  const tfr_value *l = unmark(f->a, f->args[0], &marks);
  const tfr_value **e = tfr_arena_alloc(f->a, (l->n + 1) * sizeof *e);
  for (uint32_t i = 0; i < l->n; i++)
    e[l->n - 1 - i] = l->elems[i];
  const tfr_value *r = ret->kind == TFR_TUPLE
                           ? tfr_tuple(f->a, l->n, e)
                           : tfr_list(f->a, ret->elem, l->n, e);
  return with_marks(f->a, r, marks);
}

/* One of slice's indexes (argument i, "start" or "end"), if known. */
static bool slice_index(struct fcall *f, size_t i, const char *what,
                        bool len_known, size_t len, int64_t *out, bool *known) {
  const tfr_value *v = f->args[i];
  *known = is_known(v);
  if (!*known)
    return true;
  if (!num_to_int64(v->num, out)) {
    fcall_arg_error(f, i, "invalid %s index: %s", what, WHOLE);
    return false;
  }
  if (*out < 0) {
    fcall_arg_error(f, i, "%s index must not be less than zero", what);
    return false;
  }
  if (len_known && (uint64_t)*out > len) {
    fcall_arg_error(f, i,
                    "%s index must not be greater than the length of "
                    "the list",
                    what);
    return false;
  }
  return true;
}

/* cty's sliceIndexes: *known when both indexes are. */
static bool slice_indexes(struct fcall *f, int64_t *s, int64_t *e,
                          bool *known) {
  const tfr_value *l = f->args[0];
  bool len_known = kind_of(l) == TFR_TUPLE || is_known(l);
  size_t len = kind_of(l) == TFR_TUPLE ? l->type->n : l->n;
  bool sk, ek;
  if (!slice_index(f, 1, "start", len_known, len, s, &sk) ||
      !slice_index(f, 2, "end", len_known, len, e, &ek))
    return false;
  if (sk && ek && *s > *e) {
    fcall_arg_error(f, 1, "start index must not be greater than end index");
    return false;
  }
  *known = sk && ek;
  return true;
}

static const tfr_type *ty_slice(struct fcall *f) {
  if (dynamic_arg(f))
    return &tfr_t_dynamic;
  const tfr_type *t = f->args[0]->type;
  if (t->kind == TFR_SET) {
    fcall_arg_error(f, 0,
                    "cannot slice a set, because its elements do not "
                    "have indices; explicitly convert to a list if "
                    "the ordering of the result is not important");
    return NULL;
  }
  if (t->kind != TFR_LIST && t->kind != TFR_TUPLE) {
    fcall_arg_error(f, 0, "must be a list or tuple value");
    return NULL;
  }
  int64_t s = 0, e = 0;
  bool known;
  if (!slice_indexes(f, &s, &e, &known))
    return NULL;
  if (t->kind == TFR_LIST)
    return t;
  if (!known)
    return &tfr_t_dynamic;
  return tfr_type_tuple(f->a, (size_t)(e - s), t->types + s);
}

/* slice(list, start_index, end_index): elements start .. end-1. */
static const tfr_value *fn_slice(struct fcall *f, const tfr_type *ret) {
  unsigned marks = 0;
  const tfr_value *l = unmark(f->a, f->args[0], &marks);
  if (ret->kind == TFR_DYNAMIC)
    return with_marks(f->a, tfr_unknown(f->a, ret), marks);
  int64_t s = 0, e = 0;
  bool known;
  if (!slice_indexes(f, &s, &e, &known))
    return NULL;
  const tfr_value *const *p = l->elems + s;
  const tfr_value *r = ret->kind == TFR_TUPLE
                           ? tfr_tuple(f->a, (size_t)(e - s), p)
                           : tfr_list(f->a, ret->elem, (size_t)(e - s), p);
  return with_marks(f->a, r, marks);
}

/* ---- sort, sum ---------------------------------------------------------- */

static int cmp_strings(const void *x, const void *y) {
  const tfr_value *p = *(const tfr_value *const *)x;
  const tfr_value *q = *(const tfr_value *const *)y;
  return str_cmp_bytes(p->s, p->n, q->s, q->n);
}

/* sort(list): the strings in byte order (Go's sort.Strings). */
static const tfr_value *fn_sort(struct fcall *f, const tfr_type *ret) {
  const tfr_value *l = f->args[0];
  if (!tfr_value_is_known(l))
    return tfr_unknown(f->a, ret);
  if (!tfr_value_is_wholly_known(l)) {
    /* the order is not known, the length is: cty refines the unknown
    ** result to exactly l's length and, not null (RefineResult), it is
    ** then a known list of unknown strings (cty/function/stdlib/
    ** string.go:297-308, cty/unknown_refinement.go:573-582 in v1.18.1) */
    const tfr_value **e = tfr_arena_alloc(f->a, (l->n + 1) * sizeof *e);
    for (uint32_t i = 0; i < l->n; i++)
      e[i] = tfr_unknown(f->a, &tfr_t_string);
    return tfr_list(f->a, &tfr_t_string, l->n, e);
  }
  for (uint32_t i = 0; i < l->n; i++)
    if (is_null(l->elems[i])) {
      fcall_error(f,
                  "given list element %u is null; a null string cannot "
                  "be sorted",
                  i);
      return NULL;
    }
  const tfr_value **e = tfr_arena_alloc(f->a, (l->n + 1) * sizeof *e);
  if (l->n)
    memcpy(e, l->elems, l->n * sizeof *e);
  qsort(e, l->n, sizeof *e, cmp_strings);
  return tfr_list(f->a, &tfr_t_string, l->n, e);
}

#define SUM_MSG "argument must be list, set, or tuple of number values"

/* sum(list): the numbers added up in order (strings are converted). */
static const tfr_value *fn_sum(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *l = f->args[0];
  int k = kind_of(l);
  if (!is_seq(k) && k != TFR_MAP && k != TFR_OBJECT) {
    fcall_arg_error(f, 0, "cannot sum noniterable");
    return NULL;
  }
  if (l->n == 0) {
    fcall_arg_error(f, 0, "cannot sum an empty list");
    return NULL;
  }
  if (!is_seq(k)) {
    fcall_arg_error(f, 0, "argument must be list, set, or tuple. Received %s",
                    tfr_type_friendly(f->a, l->type));
    return NULL;
  }
  if (!tfr_value_is_wholly_known(l))
    return tfr_unknown(f->a, &tfr_t_number);
  const tfr_value *s = NULL;
  for (uint32_t i = 0; i < l->n; i++) {
    const char *err = NULL;
    const tfr_value *v =
        is_null(l->elems[i])
            ? NULL
            : conv_convert(f->a, l->elems[i], &tfr_t_number, &err);
    if (!v) {
      fcall_arg_error(f, 0, SUM_MSG);
      return NULL;
    }
    if (!s) {
      s = v;
      continue;
    }
    tfr_value *sum = tfr_arena_alloc(f->a, sizeof *sum);
    sum->type = &tfr_t_number;
    sum->num = num_add(f->a, s->num, v->num);
    if (!sum->num) {
      fcall_error(f, "can't compute sum of opposing infinities");
      return NULL;
    }
    s = sum;
  }
  return s;
}

/* ---- transpose ---------------------------------------------------------- */

/* One (outer key, inner key) pair of transpose. */
struct pair {
  const char *k, *v;
  uint32_t kn, vn;
};

static int cmp_pair(const void *x, const void *y) {
  const struct pair *p = x, *q = y;
  int c = str_cmp_bytes(p->k, p->kn, q->k, q->kn);
  return c ? c : str_cmp_bytes(p->v, p->vn, q->v, q->vn);
}

/* The pairs of transpose's input; NULL after an error. */
static struct pair *transpose_pairs(struct fcall *f, size_t *n) {
  const tfr_value *m = f->args[0];
  size_t total = 0;
  for (uint32_t i = 0; i < m->n; i++)
    total += m->elems[i]->n;
  struct pair *p = heap_alloc((total + 1) * sizeof *p);
  *n = 0;
  for (uint32_t i = 0; i < m->n; i++) {
    const tfr_value *l = m->elems[i];
    if (is_null(l)) {
      free(p);
      fcall_error(f, "panic in function implementation: can't use "
                     "ElementIterator on null value");
      return NULL;
    }
    for (uint32_t j = 0; j < l->n; j++) {
      const tfr_value *s = l->elems[j];
      if (is_null(s)) {
        free(p);
        fcall_error(f, "input must be a map of lists of strings");
        return NULL;
      }
      p[(*n)++] = (struct pair){s->s, m->keys[i], s->n, m->keylens[i]};
    }
  }
  return p;
}

/* transpose(values): map each string to the sorted keys that list it. */
static const tfr_value *fn_transpose(struct fcall *f, const tfr_type *ret) {
  if (!tfr_value_is_wholly_known(f->args[0]))
    return tfr_unknown(f->a, ret);
  size_t n;
  struct pair *p = transpose_pairs(f, &n);
  if (!p)
    return NULL;
  qsort(p, n, sizeof *p, cmp_pair);
  const char **keys = tfr_arena_alloc(f->a, (n + 1) * sizeof *keys);
  uint32_t *lens = tfr_arena_alloc(f->a, (n + 1) * sizeof *lens);
  const tfr_value **vals = tfr_arena_alloc(f->a, (n + 1) * sizeof *vals);
  const tfr_value **l = tfr_arena_alloc(f->a, (n + 1) * sizeof *l);
  size_t m = 0;
  for (size_t i = 0, j; i < n; i = j) {
    for (j = i; j < n && p[j].kn == p[i].kn && !memcmp(p[j].k, p[i].k, p[i].kn);
         j++)
      l[j - i] = tfr_string_nocopy(f->a, p[j].v, p[j].vn);
    keys[m] = p[i].k;
    lens[m] = p[i].kn;
    vals[m++] = tfr_list(f->a, &tfr_t_string, j - i, l);
  }
  free(p);
  return tfr_map(f->a, ret->elem, m, keys, lens, vals);
}

/* ---- zipmap ------------------------------------------------------------- */

/* zipmap's keys (as many as its values, nvalues) as entries, each with
** types[i] (its type's pass: marks NULL) or vals[i] (its value's, the
** keys' marks added to *marks); NULL after an error, in cty's words for
** each pass (stdlib/collection.go ZipmapFunc's Type and Impl). */
static struct entry *zip_entries(struct fcall *f, const tfr_value *keys,
                                 uint32_t nvalues, const tfr_type *const *types,
                                 const tfr_value *const *vals,
                                 unsigned *marks) {
  if (keys->n != nvalues) {
    fcall_error(f,
                "number of keys (%u) does not match number of values "
                "(%u)",
                keys->n, nvalues);
    return NULL;
  }
  struct entry *e = heap_alloc((keys->n + 1) * sizeof *e);
  for (uint32_t i = 0; i < keys->n; i++) {
    const tfr_value *k =
        marks ? unmark(f->a, keys->elems[i], marks) : keys->elems[i];
    if (is_null(k)) {
      free(e);
      if (marks)
        fcall_error(f, "panic in function implementation: value is null");
      else
        fcall_error(f, "keys list has null value at index %u", i);
      return NULL;
    }
    e[i] = (struct entry){tfr_arena_strndup(f->a, k->s, k->n), k->n, i,
                          types ? types[i] : NULL, vals ? vals[i] : NULL};
  }
  return e;
}

static const tfr_type *ty_zipmap(struct fcall *f) {
  if (dynamic_arg(f))
    return &tfr_t_dynamic;
  const tfr_value *keys = f->args[0], *values = f->args[1];
  const tfr_type *vt = values->type;
  if (vt->kind == TFR_LIST)
    return tfr_type_map(f->a, vt->elem);
  if (vt->kind != TFR_TUPLE) {
    fcall_error(f, "values argument must be a list or tuple value");
    return NULL;
  }
  if (!tfr_value_is_wholly_known(keys))
    return &tfr_t_dynamic;
  struct entry *e = zip_entries(f, keys, vt->n, vt->types, NULL, NULL);
  if (!e)
    return NULL;
  size_t n = last_of_each(e, keys->n);
  const tfr_type *r = entries_object_type(f->a, e, n);
  free(e);
  return r;
}

/* zipmap(keys, values): a map (list values) or an object (tuple values)
** with values[i] at keys[i]; a later duplicate key wins. */
static const tfr_value *fn_zipmap(struct fcall *f, const tfr_type *ret) {
  unsigned marks = 0;
  const tfr_value *keys = unmark(f->a, f->args[0], &marks);
  const tfr_value *values = unmark(f->a, f->args[1], &marks);
  if (!tfr_value_is_wholly_known(keys))
    return with_marks(f->a, tfr_unknown(f->a, ret), marks);
  struct entry *e =
      zip_entries(f, keys, values->n, NULL, values->elems, &marks);
  if (!e)
    return NULL;
  size_t n = last_of_each(e, keys->n);
  return entries_value(f->a, e, n, ret, marks);
}

/* ---- list, map: removed in Terraform 0.12 ------------------------------- */

/* Their message quotes no argument: nothing in it is to be hidden, even
** when an argument is sensitive (a one-letter secret "a" would otherwise
** hide the word "a" of the message). */
static const tfr_type *removed(struct fcall *f, const char *msg) {
  f->nsecrets = 0;
  fcall_error(f, "%s", msg);
  return NULL;
}

static const tfr_type *ty_list(struct fcall *f) {
  return removed(f, "the \"list\" function was deprecated in Terraform v0.12 "
                    "and is no longer available; use tolist([ ... ]) syntax "
                    "to write a literal list");
}

static const tfr_type *ty_map(struct fcall *f) {
  return removed(f, "the \"map\" function was deprecated in Terraform v0.12 "
                    "and is no longer available; use tomap({ ... }) syntax to "
                    "write a literal map");
}

static const tfr_value *fn_removed(struct fcall *f, const tfr_type *ret) {
  return tfr_unknown(f->a, ret);
}

/* ---- the table ---------------------------------------------------------- */

/* Parameter types, built once: list(bool), list(string), list(any),
** map(list(string)), list(number). */
static const tfr_type t_list_bool = {.kind = TFR_LIST, .elem = &tfr_t_bool};
static const tfr_type t_list_string = {.kind = TFR_LIST, .elem = &tfr_t_string};
static const tfr_type t_list_any = {.kind = TFR_LIST, .elem = &tfr_t_dynamic};
static const tfr_type t_map_list_string = {.kind = TFR_MAP,
                                           .elem = &t_list_string};
static const tfr_type t_list_number = {.kind = TFR_LIST, .elem = &tfr_t_number};

enum {
  NULLS = FP_ALLOW_NULL,
  UNKNOWNS = FP_ALLOW_UNKNOWN,
  DYN = FP_ALLOW_DYNAMIC,
  MARKED = FP_ALLOW_MARKED,
};

static const struct func_param p_vals = {"vals", NULL, UNKNOWNS | DYN | NULLS};
static const struct func_param p_seqs = {"seqs", NULL, MARKED};
static const struct func_param p_default = {"default", NULL,
                                            UNKNOWNS | DYN | NULLS | MARKED};
static const struct func_param p_maps = {"maps", NULL, DYN | NULLS | MARKED};
static const struct func_param p_params = {"params", &tfr_t_number, 0};

/* Sorted by name, as funcs_sets.c's table: funcs.c interleaves the two by
** name, so that names come in the order of the one table they were. */
static const struct func_spec specs[] = {
    {"alltrue",
     1,
     {{"list", &t_list_bool, UNKNOWNS}},
     NULL,
     &tfr_t_bool,
     NULL,
     fn_alltrue},
    {"anytrue",
     1,
     {{"list", &t_list_bool, UNKNOWNS}},
     NULL,
     &tfr_t_bool,
     NULL,
     fn_anytrue},
    {"chunklist",
     2,
     {{"list", &t_list_any, MARKED}, {"size", &tfr_t_number, MARKED}},
     NULL,
     NULL,
     ty_chunklist,
     fn_chunklist},
    {"coalesce", 0, {{0}}, &p_vals, NULL, ty_coalesce, fn_coalesce},
    {"coalescelist", 0, {{0}}, &p_vals, NULL, ty_coalescelist, fn_coalescelist},
    {"compact",
     1,
     {{"list", &t_list_string, 0}},
     NULL,
     &t_list_string,
     NULL,
     fn_compact},
    {"concat", 0, {{0}}, &p_seqs, NULL, ty_concat, fn_concat},
    {"element",
     2,
     {{"list", NULL, MARKED}, {"index", &tfr_t_number, 0}},
     NULL,
     NULL,
     ty_element,
     fn_element},
    {"flatten",
     1,
     {{"list", NULL, MARKED}},
     NULL,
     NULL,
     ty_flatten,
     fn_flatten},
    {"keys",
     1,
     {{"inputMap", NULL, UNKNOWNS | MARKED}},
     NULL,
     NULL,
     ty_keys,
     fn_keys},
    {"length",
     1,
     {{"value", NULL, DYN | UNKNOWNS | MARKED}},
     NULL,
     NULL,
     ty_length,
     fn_length},
    {"list", 0, {{0}}, &p_vals, NULL, ty_list, fn_removed},
    {"lookup",
     2,
     /* Terraform's takes unknowns: an unknown map's result keeps its marks */
     {{"inputMap", NULL, MARKED | UNKNOWNS},
      {"key", &tfr_t_string, MARKED | UNKNOWNS}},
     &p_default,
     NULL,
     ty_lookup,
     fn_lookup},
    {"map", 0, {{0}}, &p_vals, NULL, ty_map, fn_removed},
    {"merge", 0, {{0}}, &p_maps, NULL, ty_merge, fn_merge},
    {"one", 1, {{"list", NULL, 0}}, NULL, NULL, ty_one, fn_one},
    {"range", 0, {{0}}, &p_params, &t_list_number, NULL, fn_range},
    {"reverse",
     1,
     {{"list", NULL, MARKED}},
     NULL,
     NULL,
     ty_reverse,
     fn_reverse},
    {"slice",
     3,
     {{"list", NULL, MARKED},
      {"start_index", &tfr_t_number, 0},
      {"end_index", &tfr_t_number, 0}},
     NULL,
     NULL,
     ty_slice,
     fn_slice},
    {"sort",
     1,
     {{"list", &t_list_string, 0}},
     NULL,
     &t_list_string,
     NULL,
     fn_sort},
    {"sum", 1, {{"list", NULL, 0}}, NULL, &tfr_t_number, ty_fixed, fn_sum},
    {"transpose",
     1,
     {{"values", &t_map_list_string, 0}},
     NULL,
     &t_map_list_string,
     NULL,
     fn_transpose},
    {"values",
     1,
     {{"mapping", NULL, MARKED}},
     NULL,
     NULL,
     ty_values,
     fn_values},
    {"zipmap",
     2,
     {{"keys", &t_list_string, MARKED}, {"values", NULL, MARKED}},
     NULL,
     NULL,
     ty_zipmap,
     fn_zipmap},
};

const struct func_group funcs_collection = {specs,
                                            sizeof specs / sizeof *specs};
