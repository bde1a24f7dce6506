/*
** Types: construction, equality and names.  Primitives are singletons;
** compound types are built in the arena and compared structurally.
*/
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "tfresolve/value.h"
#include "base/strutil.h"
#include "values/value_int.h"

const tfr_type tfr_t_dynamic = {.kind = TFR_DYNAMIC};
const tfr_type tfr_t_bool = {.kind = TFR_BOOL};
const tfr_type tfr_t_number = {.kind = TFR_NUMBER};
const tfr_type tfr_t_string = {.kind = TFR_STRING};

static const tfr_type *collection(tfr_arena *a, enum tfr_type_kind k,
                                  const tfr_type *elem) {
  tfr_type *t = tfr_arena_alloc(a, sizeof *t);
  t->kind = (uint8_t)k;
  t->elem = elem;
  return t;
}

const tfr_type *tfr_type_list(tfr_arena *a, const tfr_type *elem) {
  return collection(a, TFR_LIST, elem);
}

const tfr_type *tfr_type_set(tfr_arena *a, const tfr_type *elem) {
  return collection(a, TFR_SET, elem);
}

const tfr_type *tfr_type_map(tfr_arena *a, const tfr_type *elem) {
  return collection(a, TFR_MAP, elem);
}

struct named {
  const char *name;
  const tfr_type *type;
  bool optional;
};

static int cmp_named(const void *x, const void *y) {
  return strcmp(((const struct named *)x)->name,
                ((const struct named *)y)->name);
}

/* An object type over these arrays, taken as they are. */
static const tfr_type *object_type(tfr_arena *a, size_t n, const char **names,
                                   const tfr_type **types,
                                   const bool *optional) {
  tfr_type *t = tfr_arena_alloc(a, sizeof *t);
  t->kind = TFR_OBJECT;
  t->n = (uint32_t)n;
  t->names = names;
  t->types = types;
  t->optional = optional;
  return t;
}

const tfr_type *type_object_sorted(tfr_arena *a, size_t n, const char **names,
                                   const tfr_type **types) {
  /* lookups bisect the names: strictly increasing, no duplicate */
  for (size_t i = 1; i < n; i++)
    assert(strcmp(names[i - 1], names[i]) < 0);
  return object_type(a, n, names, types, NULL);
}

const tfr_type *tfr_type_object(tfr_arena *a, size_t n,
                                const char *const *names,
                                const tfr_type *const *types,
                                const bool *optional) {
  bool sorted = true;
  for (size_t i = 1; i < n && sorted; i++)
    sorted = strcmp(names[i - 1], names[i]) < 0;
  if (sorted && !optional) {
    /* already in order (tfr_object sorts): no second sort */
    const char **nn = n ? tfr_arena_alloc_raw(a, n * sizeof *nn)
                        : tfr_arena_alloc(a, sizeof *nn);
    const tfr_type **tt = n ? tfr_arena_alloc_raw(a, n * sizeof *tt)
                            : tfr_arena_alloc(a, sizeof *tt);
    if (n) {
      memcpy(nn, names, n * sizeof *nn);
      memcpy(tt, types, n * sizeof *tt);
    }
    return type_object_sorted(a, n, nn, tt);
  }
  struct named *tmp = tfr_arena_alloc(a, (n ? n : 1) * sizeof *tmp);
  for (size_t i = 0; i < n; i++)
    tmp[i] = (struct named){names[i], types[i], optional && optional[i]};
  if (n > 1)
    qsort(tmp, n, sizeof *tmp, cmp_named);
  const char **nn = tfr_arena_alloc(a, (n ? n : 1) * sizeof *nn);
  const tfr_type **tt = tfr_arena_alloc(a, (n ? n : 1) * sizeof *tt);
  bool *oo = NULL, any_opt = false;
  for (size_t i = 0; i < n; i++)
    any_opt |= tmp[i].optional;
  if (any_opt)
    oo = tfr_arena_alloc(a, n * sizeof *oo);
  for (size_t i = 0; i < n; i++) {
    nn[i] = tmp[i].name;
    tt[i] = tmp[i].type;
    if (oo)
      oo[i] = tmp[i].optional;
  }
  return object_type(a, n, nn, tt, oo);
}

const tfr_type *tfr_type_tuple(tfr_arena *a, size_t n,
                               const tfr_type *const *types) {
  const tfr_type **tt = tfr_arena_alloc(a, (n ? n : 1) * sizeof *tt);
  if (n)
    memcpy(tt, types, n * sizeof *tt);
  tfr_type *t = tfr_arena_alloc(a, sizeof *t);
  t->kind = TFR_TUPLE;
  t->n = (uint32_t)n;
  t->types = tt;
  return t;
}

/* Equality ignores optional markers, as cty's Type.Equals does for
** concrete types (constraints are compared with their optional set too). */
bool tfr_type_equal(const tfr_type *x, const tfr_type *y) {
  if (x == y)
    return true;
  if (x->kind != y->kind)
    return false;
  switch (x->kind) {
  case TFR_LIST:
  case TFR_SET:
  case TFR_MAP:
    return tfr_type_equal(x->elem, y->elem);
  case TFR_OBJECT:
    if (x->n != y->n)
      return false;
    for (uint32_t i = 0; i < x->n; i++) {
      bool ox = x->optional && x->optional[i];
      bool oy = y->optional && y->optional[i];
      if (strcmp(x->names[i], y->names[i]) != 0 || ox != oy ||
          !tfr_type_equal(x->types[i], y->types[i]))
        return false;
    }
    return true;
  case TFR_TUPLE:
    if (x->n != y->n)
      return false;
    for (uint32_t i = 0; i < x->n; i++)
      if (!tfr_type_equal(x->types[i], y->types[i]))
        return false;
    return true;
  default:
    return true;
  }
}

bool tfr_type_is_primitive(const tfr_type *t) {
  return t->kind == TFR_BOOL || t->kind == TFR_NUMBER || t->kind == TFR_STRING;
}

bool tfr_type_is_collection(const tfr_type *t) {
  return t->kind == TFR_LIST || t->kind == TFR_SET || t->kind == TFR_MAP;
}

bool tfr_type_has_dynamic(const tfr_type *t) {
  switch (t->kind) {
  case TFR_DYNAMIC:
    return true;
  case TFR_LIST:
  case TFR_SET:
  case TFR_MAP:
    return tfr_type_has_dynamic(t->elem);
  case TFR_OBJECT:
  case TFR_TUPLE:
    for (uint32_t i = 0; i < t->n; i++)
      if (tfr_type_has_dynamic(t->types[i]))
        return true;
    return false;
  default:
    return false;
  }
}

long tfr_type_attr(const tfr_type *t, const char *name, size_t len) {
  /* attribute names hold no NUL: a name with one is none of them */
  if (t->kind != TFR_OBJECT || memchr(name, '\0', len))
    return -1;
  size_t lo = 0, hi = t->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    const char *m = t->names[mid];
    /* byte order, a prefix first; strncmp stops where m ends */
    int c = strncmp(m, name, len);
    if (c == 0)
      c = m[len] != '\0';
    if (c == 0)
      return (long)mid;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return -1;
}

/* cty's FriendlyName: "list of string", "map of number", "object",
** "tuple", "dynamic"... */
const char *tfr_type_friendly(tfr_arena *a, const tfr_type *t) {
  switch (t->kind) {
  case TFR_DYNAMIC:
    return "dynamic";
  case TFR_BOOL:
    return "bool";
  case TFR_NUMBER:
    return "number";
  case TFR_STRING:
    return "string";
  case TFR_LIST:
    return tfr_arena_printf(a, "list of %s", tfr_type_friendly(a, t->elem));
  case TFR_SET:
    return tfr_arena_printf(a, "set of %s", tfr_type_friendly(a, t->elem));
  case TFR_MAP:
    return tfr_arena_printf(a, "map of %s", tfr_type_friendly(a, t->elem));
  case TFR_OBJECT:
    return "object";
  default:
    return "tuple";
  }
}

/* Terraform's type syntax, as `terraform console`'s type() prints it. */
/* Terraform's type expression of t, appended (a tuple of a million
** elements is a long string: built once, not copied at each step). */
static void put_expr(struct sbuf *b, const tfr_type *t) {
  switch (t->kind) {
  case TFR_DYNAMIC:
    sbuf_str(b, "any");
    return;
  case TFR_BOOL:
    sbuf_str(b, "bool");
    return;
  case TFR_NUMBER:
    sbuf_str(b, "number");
    return;
  case TFR_STRING:
    sbuf_str(b, "string");
    return;
  case TFR_LIST:
  case TFR_SET:
  case TFR_MAP:
    sbuf_str(b, t->kind == TFR_LIST  ? "list("
                : t->kind == TFR_SET ? "set("
                                     : "map(");
    put_expr(b, t->elem);
    sbuf_str(b, ")");
    return;
  case TFR_OBJECT:
    sbuf_str(b, "object({");
    for (uint32_t i = 0; i < t->n; i++) {
      bool opt = t->optional && t->optional[i];
      if (i)
        sbuf_str(b, ",");
      sbuf_str(b, t->names[i]);
      sbuf_str(b, opt ? "=optional(" : "=");
      put_expr(b, t->types[i]);
      if (opt)
        sbuf_str(b, ")");
    }
    sbuf_str(b, "})");
    return;
  default:
    sbuf_str(b, "tuple([");
    for (uint32_t i = 0; i < t->n; i++) {
      if (i)
        sbuf_str(b, ",");
      put_expr(b, t->types[i]);
    }
    sbuf_str(b, "])");
  }
}

const char *tfr_type_expr(tfr_arena *a, const tfr_type *t) {
  struct sbuf b = {0};
  put_expr(&b, t);
  const char *s = tfr_arena_strndup(a, b.p, b.n);
  free(b.p);
  return s;
}

/* Whether an object type in t has optional attributes. */
bool tfr_type_has_optional(const tfr_type *t) {
  switch (t->kind) {
  case TFR_LIST:
  case TFR_SET:
  case TFR_MAP:
    return tfr_type_has_optional(t->elem);
  case TFR_OBJECT:
  case TFR_TUPLE:
    for (uint32_t i = 0; i < t->n; i++)
      if ((t->optional && t->optional[i]) || tfr_type_has_optional(t->types[i]))
        return true;
    return false;
  default:
    return false;
  }
}

/* The type of values converted to t: t without optional markers. */
const tfr_type *tfr_type_plain(tfr_arena *a, const tfr_type *t) {
  if (!tfr_type_has_optional(t))
    return t;
  switch (t->kind) {
  case TFR_LIST:
    return tfr_type_list(a, tfr_type_plain(a, t->elem));
  case TFR_SET:
    return tfr_type_set(a, tfr_type_plain(a, t->elem));
  case TFR_MAP:
    return tfr_type_map(a, tfr_type_plain(a, t->elem));
  default: {
    const tfr_type **ts = tfr_arena_alloc(a, t->n * sizeof *ts);
    for (uint32_t i = 0; i < t->n; i++)
      ts[i] = tfr_type_plain(a, t->types[i]);
    if (t->kind == TFR_TUPLE)
      return tfr_type_tuple(a, t->n, ts);
    return tfr_type_object(a, t->n, (const char *const *)t->names, ts, NULL);
  }
  }
}
