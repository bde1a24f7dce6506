/*
** Values: construction, equality, and cty's set order.
**
** Values are immutable and arena-owned.  Constructors of compound values
** copy the element arrays they are given, so callers may reuse theirs.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>
#include <utf8proc.h>

#include "base/arena_int.h"
#include "values/number.h"
#include "base/strutil.h"
#include "tfresolve/value.h"
#include "values/value_int.h"
#include "base/heap.h"

static const tfr_value v_true = {.type = &tfr_t_bool, .b = true};
static const tfr_value v_false = {.type = &tfr_t_bool, .b = false};

bool tfr_value_is_null(const tfr_value *v) {
  return (v->flags & TFR_V_NULL) != 0;
}

bool tfr_value_is_known(const tfr_value *v) {
  return (v->flags & TFR_V_UNKNOWN) == 0;
}

static bool is_compound(const tfr_value *v) {
  return !(v->flags & (TFR_V_NULL | TFR_V_UNKNOWN)) &&
         !tfr_type_is_primitive(v->type) && v->type->kind != TFR_DYNAMIC;
}

bool tfr_value_is_wholly_known(const tfr_value *v) {
  if (!tfr_value_is_known(v))
    return false;
  if (is_compound(v))
    for (uint32_t i = 0; i < v->n; i++)
      if (!tfr_value_is_wholly_known(v->elems[i]))
        return false;
  return true;
}

static tfr_value *new_value(tfr_arena *a, const tfr_type *t) {
  tfr_value *v = tfr_arena_alloc(a, sizeof *v);
  v->type = t;
  return v;
}

const tfr_value *tfr_null(tfr_arena *a, const tfr_type *t) {
  tfr_value *v = new_value(a, t);
  v->flags = TFR_V_NULL;
  return v;
}

const tfr_value *tfr_unknown(tfr_arena *a, const tfr_type *t) {
  tfr_value *v = new_value(a, t);
  v->flags = TFR_V_UNKNOWN;
  return v;
}

const tfr_value *tfr_bool(bool b) { return b ? &v_true : &v_false; }

/* What a string longer than TFR_MAX_STRING becomes: never a truncated
** one. */
static const tfr_value v_too_large = {
    &tfr_t_string, TFR_V_UNKNOWN | TFR_V_TOO_LARGE, 0, {.s = NULL}};

const tfr_value *tfr_string_nocopy(tfr_arena *a, const char *s, size_t n) {
  if (n > TFR_MAX_STRING)
    return &v_too_large;
  tfr_value *v = new_value(a, &tfr_t_string);
  v->s = s;
  v->n = (uint32_t)n;
  return v;
}

/* Whether a lead byte starts a code point of U+0300 or more: below it
** every code point is a starter that is its own NFC and that nothing
** before it composes with (U+0300 is the first combining mark), so NFC
** never changes the text across such a code point. */
static bool nfc_maybe(unsigned char b) { return b >= 0xCC; }

/* NFC of s[0..n), valid UTF-8: only the runs of code points from U+0300
** on are normalised, each with the starter before it; the rest is copied. */
static const tfr_value *nfc_runs(tfr_arena *a, const char *s, size_t n) {
  struct sbuf out = {0};
  size_t done = 0, prev = SIZE_MAX, p = 0;
  while (p < n) {
    unsigned char b = (unsigned char)s[p];
    if (!nfc_maybe(b)) {
      prev = p;
      p += str_utf8_width(b);
      continue;
    }
    size_t seg = prev != SIZE_MAX ? prev : p, q = p;
    while (q < n && nfc_maybe((unsigned char)s[q]))
      q += str_utf8_width((unsigned char)s[q]);
    utf8proc_uint8_t *norm = NULL;
    utf8proc_ssize_t k = utf8proc_map((const utf8proc_uint8_t *)s + seg,
                                      (utf8proc_ssize_t)(q - seg), &norm,
                                      UTF8PROC_STABLE | UTF8PROC_COMPOSE);
    if (k == UTF8PROC_ERROR_NOMEM)
      tfr_oom();
    if (k < 0) { /* cannot happen on valid UTF-8: keep the bytes */
      free(norm);
      free(out.p);
      return tfr_string_nocopy(a, tfr_arena_strndup(a, s, n), n);
    }
    sbuf_put(&out, s + done, seg - done);
    sbuf_put(&out, (const char *)norm, (size_t)k);
    free(norm);
    done = p = q;
    prev = SIZE_MAX;
  }
  sbuf_put(&out, s + done, n - done);
  const char *copy = tfr_arena_strndup(a, out.p ? out.p : "", out.n);
  size_t len = out.n;
  free(out.p);
  return tfr_string_nocopy(a, copy, len);
}

/* Strings are NFC-normalised, as cty.StringVal does.  Text without code
** points from U+0300 on (ASCII, Latin-1...) is already in NFC, which is
** the common case; otherwise only the runs that may change are. */
const tfr_value *tfr_string(tfr_arena *a, const char *s, size_t n) {
  if (n > TFR_MAX_STRING)
    return &v_too_large;
  size_t i = 0;
  while (i < n && !nfc_maybe((unsigned char)s[i]))
    i++;
  /* nothing that NFC changes, or not UTF-8 (kept as it is) */
  if (i == n || !str_utf8_valid(s, n))
    return tfr_string_nocopy(a, tfr_arena_strndup(a, s, n), n);
  return nfc_runs(a, s, n);
}

const char *value_nfc_bytes(tfr_arena *a, const char *s, uint32_t *n) {
  uint32_t i = 0;
  while (i < *n && !nfc_maybe((unsigned char)s[i]))
    i++;
  if (i == *n || !str_utf8_valid(s, *n))
    return s;
  const tfr_value *v = nfc_runs(a, s, *n);
  *n = v->n;
  return v->s;
}

static const tfr_value **copy_elems(tfr_arena *a, size_t n,
                                    const tfr_value *const *elems) {
  const tfr_value **e = tfr_arena_alloc_raw(a, (n ? n : 1) * sizeof *e);
  if (n)
    memcpy(e, elems, n * sizeof *e);
  return e;
}

const tfr_value *tfr_list(tfr_arena *a, const tfr_type *elem, size_t n,
                          const tfr_value *const *elems) {
  tfr_value *v = new_value(a, tfr_type_list(a, elem));
  v->n = (uint32_t)n;
  v->elems = copy_elems(a, n, elems);
  return v;
}

const tfr_value *tfr_tuple(tfr_arena *a, size_t n,
                           const tfr_value *const *elems) {
  const tfr_type **types = tfr_arena_alloc_raw(a, (n ? n : 1) * sizeof *types);
  for (size_t i = 0; i < n; i++)
    types[i] = elems[i]->type;
  tfr_value *v = new_value(a, tfr_type_tuple(a, n, types));
  v->n = (uint32_t)n;
  v->elems = copy_elems(a, n, elems);
  return v;
}

struct kv {
  const char *k;
  uint32_t len;
  const tfr_value *v;
  const tfr_type *t; /* v's, read in the order given (an object's) */
};

static int cmp_kv(const void *x, const void *y) {
  const struct kv *p = x, *q = y;
  return str_cmp_bytes(p->k, p->len, q->k, q->len);
}

static int kv_tie(const void *ctx, uint32_t i, uint32_t j) {
  const struct kv *v = ctx;
  return cmp_kv(&v[i], &v[j]);
}

/* Sort n pairs by key (str_sort: a large object's or map's keys lie
** scattered in memory).  The room it sorts in is malloc'd and freed: the
** next sort uses those pages again instead of fresh ones. */
static void sort_kv(struct kv *v, size_t n) {
  struct str_key *keys = heap_alloc(2 * n * sizeof *keys);
  for (size_t i = 0; i < n; i++) {
    str_prefix(v[i].k, v[i].len, keys[i].pre);
    keys[i].i = (uint32_t)i;
  }
  str_sort(keys, keys + n, n, kv_tie, v);
  /* put v in that order where it is, one cycle of the permutation at a
  ** time (a moved pair's index is marked done): no second array */
  for (size_t i = 0; i < n; i++) {
    if (keys[i].i == UINT32_MAX)
      continue;
    struct kv first = v[i];
    size_t j = i;
    while (keys[j].i != i) {
      size_t from = keys[j].i;
      v[j] = v[from];
      keys[j].i = UINT32_MAX;
      j = from;
    }
    v[j] = first;
    keys[j].i = UINT32_MAX;
  }
  free(keys);
}

/* Of each run of equal names in sorted pairs, the last one (a repeated
** key of an object constructor: the last one wins, as in HCL); the new
** count. */
static size_t last_of_each(struct kv *v, size_t n) {
  size_t out = 0;
  for (size_t i = 0; i < n; i++) {
    if (out && cmp_kv(&v[out - 1], &v[i]) == 0)
      out--;
    v[out++] = v[i];
  }
  return out;
}

/* An object's names, sorted, copied side by side in their order, each
** NUL-terminated: the steps after (its type, conversion, output) read
** them in that order, from one block rather than from wherever evaluation
** put each. */
static void pack_names(tfr_arena *a, struct kv *v, size_t n) {
  size_t total = 0;
  for (size_t i = 0; i < n; i++)
    total += v[i].len + 1;
  char *p = tfr_arena_alloc_raw(a, total);
  for (size_t i = 0; i < n; i++) {
    memcpy(p, v[i].k, v[i].len);
    p[v[i].len] = '\0';
    v[i].k = p;
    p += v[i].len + 1;
  }
}

/* Whether the object type t has exactly these (sorted) members. */
static bool object_type_is(const tfr_type *t, size_t n,
                           const char *const *names,
                           const tfr_type *const *types) {
  if (t->n != n || t->optional)
    return false;
  for (size_t i = 0; i < n; i++)
    if (t->types[i] != types[i] || strcmp(t->names[i], names[i]) != 0)
      return false;
  return true;
}

const tfr_value *value_object_shared(tfr_arena *a, size_t n,
                                     const char *const *names,
                                     const uint32_t *lens,
                                     const tfr_value *const *vals,
                                     const tfr_type **cache) {
  /* objects written in configuration are small: sort them on the stack,
  ** by insertion (stable, as sort_kv is: of equal names, the last one
  ** given stays last) */
  struct kv small[16];
  const char *snn[16];
  const tfr_type *stt[16];
  struct kv *tmp = n <= 16 ? small : tfr_arena_alloc_raw(a, n * sizeof *tmp);
  for (size_t i = 0; i < n; i++)
    tmp[i] = (struct kv){names[i], lens ? lens[i] : (uint32_t)strlen(names[i]),
                         vals[i], vals[i]->type};
  bool sorted = true;
  for (size_t i = 1; i < n && sorted; i++)
    sorted = cmp_kv(&tmp[i - 1], &tmp[i]) < 0;
  if (sorted) {
    /* already in order: a module's variables, a converted object */
  } else if (n > 16) {
    sort_kv(tmp, n);
  } else {
    for (size_t i = 1; i < n; i++) {
      struct kv x = tmp[i];
      size_t j = i;
      for (; j > 0 && cmp_kv(&tmp[j - 1], &x) > 0; j--)
        tmp[j] = tmp[j - 1];
      tmp[j] = x;
    }
  }
  if (!sorted)
    n = last_of_each(tmp, n);
  if (lens || (!sorted && n > 16))
    pack_names(a, tmp, n);
  /* a small object's names and types can stay on the stack (its type
  ** copies them); a large one's type takes them */
  const char **nn = n <= 16 ? snn : tfr_arena_alloc_raw(a, n * sizeof *nn);
  const tfr_type **tt = n <= 16 ? stt : tfr_arena_alloc_raw(a, n * sizeof *tt);
  const tfr_value **vv = tfr_arena_alloc_raw(a, (n ? n : 1) * sizeof *vv);
  uint64_t h = n;
  for (size_t i = 0; i < n; i++) {
    nn[i] = tmp[i].k;
    tt[i] = tmp[i].t;
    vv[i] = tmp[i].v;
    h = (h ^ (uintptr_t)tt[i] ^ ((uint64_t)tmp[i].len << 40) ^
         (unsigned char)nn[i][0]) *
        0x100000001B3ull;
  }
  const tfr_type *t = NULL;
  size_t slot = (size_t)(h ^ (h >> 29)) & (VALUE_OBJECT_CACHE - 1);
  if (cache && cache[slot] && object_type_is(cache[slot], n, nn, tt))
    t = cache[slot];
  if (!t) {
    t = n > 16 ? type_object_sorted(a, n, nn, tt)
               : tfr_type_object(a, n, nn, tt, NULL);
    if (cache)
      cache[slot] = t;
  }
  tfr_value *v = new_value(a, t);
  v->n = (uint32_t)n;
  v->elems = vv;
  return v;
}

const tfr_value *tfr_object(tfr_arena *a, size_t n, const char *const *names,
                            const tfr_value *const *vals) {
  return value_object_shared(a, n, names, NULL, vals, NULL);
}

const tfr_value *tfr_map(tfr_arena *a, const tfr_type *elem, size_t n,
                         const char *const *keys, const uint32_t *keylens,
                         const tfr_value *const *vals) {
  struct kv *tmp = tfr_arena_alloc_raw(a, (n ? n : 1) * sizeof *tmp);
  for (size_t i = 0; i < n; i++)
    tmp[i] = (struct kv){keys[i], keylens[i], vals[i], NULL};
  bool sorted = true; /* (a converted object's attributes are) */
  for (size_t i = 1; i < n && sorted; i++)
    sorted = cmp_kv(&tmp[i - 1], &tmp[i]) < 0;
  if (!sorted)
    sort_kv(tmp, n);
  const char **kk = tfr_arena_alloc_raw(a, (n ? n : 1) * sizeof *kk);
  uint32_t *ll = tfr_arena_alloc_raw(a, (n ? n : 1) * sizeof *ll);
  const tfr_value **vv = tfr_arena_alloc_raw(a, (n ? n : 1) * sizeof *vv);
  for (size_t i = 0; i < n; i++) {
    kk[i] = tmp[i].k;
    ll[i] = tmp[i].len;
    vv[i] = tmp[i].v;
  }
  tfr_value *v = new_value(a, tfr_type_map(a, elem));
  v->n = (uint32_t)n;
  v->keys = kk;
  v->keylens = ll;
  v->elems = vv;
  return v;
}

const tfr_value *tfr_value_mark(tfr_arena *a, const tfr_value *v,
                                unsigned marks) {
  if ((v->flags & marks) == marks)
    return v;
  tfr_value *m = new_value(a, v->type);
  *m = *v;
  m->flags = (uint8_t)(m->flags | marks);
  return m;
}

const tfr_value *tfr_value_unmark(tfr_arena *a, const tfr_value *v,
                                  unsigned marks, unsigned *had) {
  if (!tfr_value_has_mark(v, marks))
    return v;
  tfr_value *u = new_value(a, v->type);
  *u = *v;
  if (had)
    *had |= v->flags & marks;
  u->flags = (uint8_t)(u->flags & ~marks);
  if (is_compound(v) && v->n) {
    const tfr_value **e = tfr_arena_alloc(a, v->n * sizeof *e);
    for (uint32_t i = 0; i < v->n; i++)
      e[i] = tfr_value_unmark(a, v->elems[i], marks, had);
    u->elems = e;
  }
  return u;
}

unsigned tfr_value_marks(const tfr_value *v) {
  unsigned m = v->flags & (TFR_V_SENSITIVE | TFR_V_EPHEMERAL);
  if (is_compound(v))
    for (uint32_t i = 0; i < v->n; i++)
      m |= tfr_value_marks(v->elems[i]);
  return m;
}

bool tfr_value_has_mark(const tfr_value *v, unsigned mark) {
  if (v->flags & mark)
    return true;
  if (is_compound(v))
    for (uint32_t i = 0; i < v->n; i++)
      if (tfr_value_has_mark(v->elems[i], mark))
        return true;
  return false;
}

/* ---- equality ---------------------------------------------------------- */

/* Two known, non-null values of one primitive type. */
static bool prim_equal(const tfr_value *x, const tfr_value *y) {
  switch (x->type->kind) {
  case TFR_BOOL:
    return x->b == y->b;
  case TFR_NUMBER:
    return num_equal(x->num, y->num);
  default:
    return x->n == y->n && memcmp(x->s, y->s, x->n) == 0;
  }
}

bool tfr_value_equal(const tfr_value *x, const tfr_value *y) {
  if (x == y)
    return true;
  if (!tfr_type_equal(x->type, y->type))
    return false;
  unsigned fx = x->flags & (TFR_V_NULL | TFR_V_UNKNOWN);
  unsigned fy = y->flags & (TFR_V_NULL | TFR_V_UNKNOWN);
  if (fx || fy)
    return fx == fy && fx == TFR_V_NULL;
  switch (x->type->kind) {
  case TFR_BOOL:
  case TFR_NUMBER:
  case TFR_STRING:
    return prim_equal(x, y);
  case TFR_DYNAMIC:
    return false;
  default:
    break;
  }
  if (x->n != y->n)
    return false;
  for (uint32_t i = 0; i < x->n; i++) {
    if (x->type->kind == TFR_MAP &&
        str_cmp_bytes(x->keys[i], x->keylens[i], y->keys[i], y->keylens[i]))
      return false;
    if (!tfr_value_equal(x->elems[i], y->elems[i]))
      return false;
  }
  return true;
}

bool type_conforms(const tfr_type *given, const tfr_type *want) {
  if (want->kind == TFR_DYNAMIC)
    return true;
  if (given->kind != want->kind)
    return false;
  switch (want->kind) {
  case TFR_LIST:
  case TFR_SET:
  case TFR_MAP:
    return type_conforms(given->elem, want->elem);
  case TFR_OBJECT:
  case TFR_TUPLE:
    if (given->n != want->n)
      return false;
    for (uint32_t i = 0; i < want->n; i++)
      if ((want->kind == TFR_OBJECT &&
           strcmp(given->names[i], want->names[i])) ||
          !type_conforms(given->types[i], want->types[i]))
        return false;
    return true;
  default:
    return true;
  }
}

static bool definitely_not_null(const tfr_value *v) {
  if (!(v->flags & TFR_V_UNKNOWN))
    return !(v->flags & TFR_V_NULL);
  return v->flags & TFR_V_NOTNULL;
}

/* ValueRange.Includes(k) is known false: the known value k cannot be
** what the unknown u turns out to be. */
static bool excludes(const tfr_value *u, const tfr_value *k) {
  if (k->flags & TFR_V_NULL)
    return u->flags & TFR_V_NOTNULL;
  if (!type_conforms(k->type, u->type))
    return true;
  if (k->type->kind == TFR_DYNAMIC)
    return false;
  return u->type->kind == TFR_STRING && k->type->kind == TFR_STRING && u->n &&
         (k->n < u->n || memcmp(k->s, u->s, u->n) != 0);
}

/* Value.HasWhollyKnownType. */
static bool wholly_known_type(const tfr_value *v) {
  if (v->flags & TFR_V_NULL)
    return true;
  if (v->flags & TFR_V_UNKNOWN)
    return !tfr_type_has_dynamic(v->type);
  switch (v->type->kind) {
  case TFR_LIST:
  case TFR_SET:
  case TFR_MAP:
  case TFR_OBJECT:
  case TFR_TUPLE:
    for (uint32_t i = 0; i < v->n; i++)
      if (!wholly_known_type(v->elems[i]))
        return false;
    return true;
  default:
    return v->type->kind != TFR_DYNAMIC;
  }
}

int tfr_value_equals(const tfr_value *x, const tfr_value *y) {
  bool nx = x->flags & TFR_V_NULL, ny = y->flags & TFR_V_NULL;
  bool ux = x->flags & TFR_V_UNKNOWN, uy = y->flags & TFR_V_UNKNOWN;
  if ((nx && definitely_not_null(y)) || (ny && definitely_not_null(x)))
    return 0;
  if (!ux && uy && excludes(y, x))
    return 0;
  if (ux && !uy && excludes(x, y))
    return 0;
  if (ux && uy)
    return -1;
  if (ux || uy) {
    const tfr_value *k = ux ? y : x, *u = ux ? x : y;
    if ((k->flags & TFR_V_NULL) || tfr_type_has_dynamic(u->type))
      return -1;
    return tfr_type_equal(k->type, u->type) ? -1 : 0;
  }
  if (nx || ny)
    return nx && ny;
  if (!wholly_known_type(x) || !wholly_known_type(y))
    return !type_conforms(x->type, y->type) && !type_conforms(y->type, x->type)
               ? 0
               : -1;
  if (!tfr_type_equal(x->type, y->type))
    return 0;
  switch (x->type->kind) {
  case TFR_BOOL:
  case TFR_NUMBER:
  case TFR_STRING:
    return prim_equal(x, y);
  case TFR_SET: /* any unknown element makes it unknown */
    for (uint32_t i = 0; i < x->n; i++)
      if (!tfr_value_is_wholly_known(x->elems[i]))
        return -1;
    for (uint32_t i = 0; i < y->n; i++)
      if (!tfr_value_is_wholly_known(y->elems[i]))
        return -1;
    return tfr_value_equal(x, y);
  case TFR_LIST:
  case TFR_MAP:
    if (x->n != y->n)
      return 0;
    break;
  default:
    break;
  }
  /* element by element, in order (cty walks an object's or a map's in
  ** Go's map order: we take the names' order), the first unknown or
  ** unequal one deciding */
  for (uint32_t i = 0; i < x->n; i++) {
    if (x->type->kind == TFR_MAP &&
        str_cmp_bytes(x->keys[i], x->keylens[i], y->keys[i], y->keylens[i]))
      return 0;
    int e = tfr_value_equals(x->elems[i], y->elems[i]);
    if (e != 1)
      return e;
  }
  return 1;
}

const tfr_value *tfr_unknown_string_prefix(tfr_arena *a, const char *prefix,
                                           size_t n) {
  tfr_value *v = new_value(a, &tfr_t_string);
  v->flags = TFR_V_UNKNOWN | TFR_V_NOTNULL;
  n = str_safe_prefix(prefix, n);
  if (n) {
    char *p = tfr_arena_alloc_raw(a, n);
    memcpy(p, prefix, n);
    v->s = p;
    v->n = (uint32_t)n;
  }
  return v;
}

/* ---- set order --------------------------------------------------------- */

/* Go's big.Float String(): Text('g', 10). */
void value_put_number_g10(struct sbuf *b, const struct tfr_num *x) {
  mpfr_srcptr m = num_mpfr(x);
  char out[64];
  if (mpfr_inf_p(m)) {
    sbuf_put(b, mpfr_signbit(m) ? "-Inf" : "+Inf", 4);
    return;
  }
  if (mpfr_zero_p(m)) {
    sbuf_put(b, mpfr_signbit(m) ? "-0" : "0", mpfr_signbit(m) ? 2 : 1);
    return;
  }
  mpfr_exp_t e;
  char digits[16];
  mpfr_get_str(digits, &e, 10, 10, m, MPFR_RNDN);
  const char *d = digits;
  bool neg = *d == '-';
  if (neg)
    d++;
  size_t nd = strlen(d);
  while (nd > 1 && d[nd - 1] == '0')
    nd--;
  long exp10 = (long)e - 1; /* value = d.ddd × 10^exp10 */
  size_t o = 0;
  if (neg)
    out[o++] = '-';
  if (exp10 < -4 || exp10 >= 10) {
    out[o++] = d[0];
    if (nd > 1) {
      out[o++] = '.';
      memcpy(out + o, d + 1, nd - 1);
      o += nd - 1;
    }
    o += (size_t)snprintf(out + o, sizeof out - o, "e%c%02ld",
                          exp10 < 0 ? '-' : '+', labs(exp10));
  } else if (exp10 < 0) {
    out[o++] = '0';
    out[o++] = '.';
    for (long k = -1; k > exp10; k--)
      out[o++] = '0';
    memcpy(out + o, d, nd);
    o += nd;
  } else {
    for (long k = 0; k <= exp10; k++)
      out[o++] = (size_t)k < nd ? d[k] : '0';
    if ((size_t)exp10 + 1 < nd) {
      out[o++] = '.';
      memcpy(out + o, d + exp10 + 1, nd - (size_t)exp10 - 1);
      o += nd - (size_t)exp10 - 1;
    }
  }
  sbuf_put(b, out, o);
}

/* cty's set hash bytes: the key that orders sets of non-primitive
** values (compared bytewise). */
static void hash_bytes(struct sbuf *b, const tfr_value *v) {
  if (!tfr_value_is_known(v)) {
    sbuf_put(b, &(char){'?'}, 1);
    return;
  }
  if (tfr_value_is_null(v)) {
    sbuf_put(b, &(char){'~'}, 1);
    return;
  }
  switch (v->type->kind) {
  case TFR_NUMBER:
    value_put_number_g10(b, v->num);
    return;
  case TFR_BOOL:
    sbuf_put(b, &(char){v->b ? 'T' : 'F'}, 1);
    return;
  case TFR_STRING:
    sbuf_go_quote(b, v->s, v->n);
    return;
  case TFR_MAP:
    sbuf_put(b, &(char){'{'}, 1);
    for (uint32_t i = 0; i < v->n; i++) {
      sbuf_go_quote(b, v->keys[i], v->keylens[i]);
      sbuf_put(b, &(char){':'}, 1);
      hash_bytes(b, v->elems[i]);
      sbuf_put(b, &(char){';'}, 1);
    }
    sbuf_put(b, &(char){'}'}, 1);
    return;
  case TFR_LIST:
  case TFR_SET:
    sbuf_put(b, &(char){'['}, 1);
    for (uint32_t i = 0; i < v->n; i++) {
      hash_bytes(b, v->elems[i]);
      sbuf_put(b, &(char){';'}, 1);
    }
    sbuf_put(b, &(char){']'}, 1);
    return;
  default: /* object (attributes already sorted), tuple */
    sbuf_put(b, &(char){'<'}, 1);
    for (uint32_t i = 0; i < v->n; i++) {
      hash_bytes(b, v->elems[i]);
      sbuf_put(b, &(char){';'}, 1);
    }
    sbuf_put(b, &(char){'>'}, 1);
  }
}

int tfr_value_set_order(const tfr_value *x, const tfr_value *y) {
  bool nx = tfr_value_is_null(x), ny = tfr_value_is_null(y);
  if (nx || ny) /* nulls after everything else */
    return nx == ny ? 0 : nx ? 1 : -1;
  bool kx = tfr_value_is_known(x), ky = tfr_value_is_known(y);
  if (!kx || !ky) /* then unknowns */
    return kx == ky ? 0 : kx ? -1 : 1;
  switch (x->type->kind) {
  case TFR_STRING:
    return str_cmp_bytes(x->s, x->n, y->s, y->n);
  case TFR_BOOL:
    return x->b == y->b ? 0 : x->b ? 1 : -1;
  case TFR_NUMBER:
    return num_cmp(x->num, y->num);
  default: {
    struct sbuf bx = {0}, by = {0};
    hash_bytes(&bx, x);
    hash_bytes(&by, y);
    int c = str_cmp_bytes(bx.p ? bx.p : "", bx.n, by.p ? by.p : "", by.n);
    free(bx.p);
    free(by.p);
    return c;
  }
  }
}

static int cmp_set_elems(const void *x, const void *y) {
  return tfr_value_set_order(*(const tfr_value *const *)x,
                             *(const tfr_value *const *)y);
}

/* Sets of non-primitive values are ordered by cty's hash bytes: compute
** each element's key once, not on every comparison. */
struct keyed {
  const tfr_value *v;
  struct sbuf key;
  int rank; /* 0 known, 1 unknown, 2 null: nulls last, then unknowns */
};

static int cmp_keyed(const void *x, const void *y) {
  const struct keyed *p = x, *q = y;
  if (p->rank != q->rank)
    return p->rank < q->rank ? -1 : 1;
  int c = memcmp(p->key.p, q->key.p, p->key.n < q->key.n ? p->key.n : q->key.n);
  if (c)
    return c;
  return p->key.n < q->key.n ? -1 : p->key.n > q->key.n ? 1 : 0;
}

static void sort_by_hash(const tfr_value **e, size_t n) {
  struct keyed *k = heap_alloc(n * sizeof *k);
  for (size_t i = 0; i < n; i++) {
    k[i].v = e[i];
    k[i].key = (struct sbuf){0};
    k[i].rank = tfr_value_is_null(e[i]) ? 2 : !tfr_value_is_known(e[i]);
    hash_bytes(&k[i].key, e[i]);
  }
  qsort(k, n, sizeof *k, cmp_keyed);
  for (size_t i = 0; i < n; i++) {
    e[i] = k[i].v;
    free(k[i].key.p);
  }
  free(k);
}

/* Set elements carry no marks in cty, not even inside them: the set
** takes them over (cty.SetVal unmarks each element deeply: cty/
** value_init.go:272-276 in go-cty v1.18.1). */
static unsigned lift_marks(tfr_arena *a, const tfr_value **e, size_t n) {
  unsigned marks = 0;
  for (size_t i = 0; i < n; i++)
    e[i] = tfr_value_unmark(a, e[i], TFR_V_SENSITIVE | TFR_V_EPHEMERAL, &marks);
  return marks;
}

const tfr_value *tfr_set(tfr_arena *a, const tfr_type *elem, size_t n,
                         const tfr_value *const *elems) {
  const tfr_value **e = copy_elems(a, n, elems);
  unsigned marks = lift_marks(a, e, n);
  if (n > 1) {
    if (tfr_type_is_primitive(elem))
      qsort(e, n, sizeof *e, cmp_set_elems);
    else
      sort_by_hash(e, n);
  }
  /* Equal values are adjacent now; unknowns never equal anything. */
  size_t out = 0;
  for (size_t i = 0; i < n; i++) {
    if (out && tfr_value_is_wholly_known(e[i]) &&
        tfr_value_equal(e[out - 1], e[i]))
      continue;
    e[out++] = e[i];
  }
  tfr_value *v = new_value(a, tfr_type_set(a, elem));
  v->n = (uint32_t)out;
  v->elems = e;
  v->flags = (uint8_t)marks;
  return v;
}
