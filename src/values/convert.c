/*
** Type conversion, as go-cty's convert package does it (cty 1.12, the
** version the reference program is built with), and the optional-attribute
** defaults of hcl's typeexpr (Defaults.Apply, hcl >= 2.16).
**
** cty converts in two phases and so do we: first the types alone decide
** whether a conversion exists at all (conv_can_conv, getConversion in
** cty); if not, the error is MismatchMessage(got, want), which describes
** the types.  Only then are the values converted (conv_val), which can
** still fail for a value ("a number is required") with the path of the
** element concerned.  Unification and MismatchMessage are in unify.c;
** what the two files share is in convert_int.h.
**
** Unlike cty, every step here is linear in the size of the value:
**   - unify_types() first reduces its types to the distinct ones (cty
**     compares every pair, so 1,000,000 strings take 10^12 steps there);
**   - the types we build are hash-consed ("interned") per call, so that
**     the 1,000,000 converted elements of a list share one type and the
**     unification after a tuple-to-list conversion is a pointer test;
**   - error strings are only built when something fails.
** Where cty iterates a Go map (attribute names), the order is random and
** so is which of several problems it reports; we use sorted order.
*/
#include "base/arena_int.h"
#include "values/convert_int.h"
#include "base/strutil.h"
#include "base/heap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "values/number.h"

#define MARKS (TFR_V_SENSITIVE | TFR_V_EPHEMERAL)
#define SMALL 32 /* attributes handled with stack buffers */

/* ---- scratch memory and hash tables ------------------------------------- */

/* Scratch memory (here and in unify.c) is heap_calloc's, zeroed: it keeps
** -Wmaybe-uninitialized quiet about empty arrays and costs nothing
** measurable. */

static size_t memo_pos(const struct memo *m, const void *key, uintptr_t tag) {
  return (size_t)mix((uintptr_t)key, tag) & (m->cap - 1);
}

static const void *memo_get(const struct memo *m, const void *key,
                            uintptr_t tag) {
  if (!m->cap)
    return NULL;
  for (size_t i = memo_pos(m, key, tag);; i = (i + 1) & (m->cap - 1)) {
    if (!m->s[i].key)
      return NULL;
    if (m->s[i].key == key && m->s[i].tag == tag)
      return m->s[i].val;
  }
}

static void memo_put(struct memo *m, const void *key, uintptr_t tag,
                     const void *val);

static void memo_grow(struct memo *m) {
  struct memo old = *m;
  m->cap = old.cap ? old.cap * 2 : 64;
  m->s = heap_calloc(m->cap, sizeof *m->s);
  m->len = 0;
  for (size_t i = 0; i < old.cap; i++)
    if (old.s[i].key)
      memo_put(m, old.s[i].key, old.s[i].tag, old.s[i].val);
  free(old.s);
}

static void memo_put(struct memo *m, const void *key, uintptr_t tag,
                     const void *val) {
  if (2 * (m->len + 1) > m->cap)
    memo_grow(m);
  size_t i = memo_pos(m, key, tag);
  while (m->s[i].key && !(m->s[i].key == key && m->s[i].tag == tag))
    i = (i + 1) & (m->cap - 1);
  if (!m->s[i].key)
    m->len++;
  m->s[i] = (struct memo_slot){key, tag, val};
}

enum {
  TAG_CANON = 1,
  TAG_STRIP,
  TAG_TUPLE_ETY,
  TAG_OBJECT_ETY = 5,
  TAG_DINFO = 7,
  TAG_NULL
};

static const char failed_marker; /* memo value for "no result" */
#define FAILED ((const void *)&failed_marker)

struct pstep {
  struct pstep *next;
  int kind; /* STEP_ATTR, STEP_INDEX, STEP_KEY */
  const char *s;
  size_t n;
  uint64_t i;
};

enum { STEP_ATTR, STEP_INDEX, STEP_KEY };

static void ctx_init(struct cctx *c, tfr_arena *a) {
  memset(c, 0, sizeof *c);
  c->a = a;
}

static void ctx_done(struct cctx *c) {
  free(c->memo.s);
  free(c->types.s);
  for (size_t i = 0; i < sizeof c->amap / sizeof c->amap[0]; i++)
    free(c->amap[i].idx);
}

/* ---- errors ------------------------------------------------------------- */

static void *fail(struct cctx *c, const char *msg) {
  c->err = msg;
  c->path = NULL;
  return NULL;
}

static void at_step(struct cctx *c, int kind, const char *s, size_t n,
                    uint64_t i) {
  struct pstep *p = tfr_arena_alloc(c->a, sizeof *p);
  *p = (struct pstep){c->path, kind, s, n, i};
  c->path = p;
}

static void at_attr(struct cctx *c, const char *name) {
  at_step(c, STEP_ATTR, name, strlen(name), 0);
}

static void at_index(struct cctx *c, uint64_t i) {
  at_step(c, STEP_INDEX, NULL, 0, i);
}

static void at_key(struct cctx *c, const char *k, size_t n) {
  at_step(c, STEP_KEY, k, n, 0);
}

const char *conv_quote(struct cctx *c, const char *s, size_t n) {
  return str_go_quote(c->a, s, n);
}

/* tfdiags.FormatError's path: .name, [0], ["key"]. */
static const char *format_path(struct cctx *c) {
  struct sbuf b = {0};
  sbuf_put(&b, "", 0);
  for (const struct pstep *p = c->path; p; p = p->next) {
    char num[32];
    switch (p->kind) {
    case STEP_ATTR:
      sbuf_put(&b, ".", 1);
      sbuf_put(&b, p->s, p->n);
      break;
    case STEP_INDEX:
      snprintf(num, sizeof num, "[%llu]", (unsigned long long)p->i);
      sbuf_str(&b, num);
      break;
    default:
      sbuf_put(&b, "[", 1);
      sbuf_go_quote(&b, p->s, p->n);
      sbuf_put(&b, "]", 1);
    }
  }
  const char *r = tfr_arena_strndup(c->a, b.p, b.n);
  free(b.p);
  return r;
}

/* ---- types: interning, building, stripping ------------------------------ */

static const tfr_type *prim_singleton(const tfr_type *t) {
  switch (t->kind) {
  case TFR_BOOL:
    return &tfr_t_bool;
  case TFR_NUMBER:
    return &tfr_t_number;
  case TFR_STRING:
    return &tfr_t_string;
  default:
    return &tfr_t_dynamic;
  }
}

/* Hash of a type node whose children are interned (compared by pointer). */
static uint64_t node_hash(const tfr_type *t) {
  uint64_t h = mix(t->kind + 1u, t->n);
  if (is_coll(t))
    return mix(h, (uintptr_t)t->elem);
  for (uint32_t i = 0; i < t->n; i++) {
    if (t->kind == TFR_OBJECT)
      h = mix(mix(h, str_hash(t->names[i], strlen(t->names[i]))), opt_at(t, i));
    h = mix(h, (uintptr_t)t->types[i]);
  }
  return h;
}

static bool node_eq(const tfr_type *x, const tfr_type *y) {
  if (x->kind != y->kind || x->n != y->n)
    return false;
  if (is_coll(x))
    return x->elem == y->elem;
  for (uint32_t i = 0; i < x->n; i++) {
    if (x->types[i] != y->types[i])
      return false;
    if (x->kind == TFR_OBJECT &&
        (opt_at(x, i) != opt_at(y, i) || strcmp(x->names[i], y->names[i])))
      return false;
  }
  return true;
}

/* A copy of the node t in the arena (its arrays too). */
static const tfr_type *node_copy(struct cctx *c, const tfr_type *t) {
  tfr_type *r = tfr_arena_alloc(c->a, sizeof *r);
  *r = *t;
  size_t n = t->n;
  if (t->kind == TFR_OBJECT || t->kind == TFR_TUPLE) {
    const tfr_type **tt = tfr_arena_alloc_raw(c->a, (n ? n : 1) * sizeof *tt);
    if (n)
      memcpy(tt, t->types, n * sizeof *tt);
    r->types = tt;
  }
  if (t->kind == TFR_OBJECT) {
    const char **nn = tfr_arena_alloc_raw(c->a, (n ? n : 1) * sizeof *nn);
    if (n)
      memcpy(nn, t->names, n * sizeof *nn);
    r->names = nn;
    bool any = false;
    for (uint32_t i = 0; i < t->n; i++)
      any |= opt_at(t, i);
    bool *oo = NULL;
    if (any) {
      oo = tfr_arena_alloc_raw(c->a, n * sizeof *oo);
      memcpy(oo, t->optional, n * sizeof *oo);
    }
    r->optional = oo;
  }
  return r;
}

static void tset_add(struct tset *s, uint64_t h, const tfr_type *t);

static void tset_grow(struct tset *s) {
  struct tset old = *s;
  s->cap = old.cap ? old.cap * 2 : 64;
  s->s = heap_calloc(s->cap, sizeof *s->s);
  s->len = 0;
  for (size_t i = 0; i < old.cap; i++)
    if (old.s[i].t)
      tset_add(s, old.s[i].h, old.s[i].t);
  free(old.s);
}

static void tset_add(struct tset *s, uint64_t h, const tfr_type *t) {
  if (2 * (s->len + 1) > s->cap)
    tset_grow(s);
  size_t i = (size_t)h & (s->cap - 1);
  while (s->s[i].t)
    i = (i + 1) & (s->cap - 1);
  s->s[i] = (struct tset_slot){h, t};
  s->len++;
}

/*
** The interned type equal to tmp, whose children are interned already.
** When adopt is given (a node equal to tmp, children and all) it becomes
** the interned one; otherwise a new copy of tmp does.
*/
static const tfr_type *intern_node(struct cctx *c, const tfr_type *tmp,
                                   const tfr_type *adopt) {
  uint64_t h = node_hash(tmp);
  struct tset *s = &c->types;
  if (s->cap)
    for (size_t i = (size_t)h & (s->cap - 1); s->s[i].t;
         i = (i + 1) & (s->cap - 1))
      if (s->s[i].h == h && node_eq(s->s[i].t, tmp))
        return s->s[i].t;
  const tfr_type *t = adopt ? adopt : node_copy(c, tmp);
  tset_add(s, h, t);
  memo_put(&c->memo, t, TAG_CANON, t);
  return t;
}

/* Children of t interned into out (n of them); true if all unchanged. */
static bool intern_children(struct cctx *c, const tfr_type *t,
                            const tfr_type **out) {
  bool same = true;
  for (uint32_t i = 0; i < t->n; i++) {
    out[i] = conv_intern(c, t->types[i]);
    same &= out[i] == t->types[i];
  }
  return same;
}

/* The interned type structurally equal to t. */
const tfr_type *conv_intern(struct cctx *c, const tfr_type *t) {
  if (is_prim(t) || is_dyn(t))
    return prim_singleton(t);
  const tfr_type *r = memo_get(&c->memo, t, TAG_CANON);
  if (r)
    return r;
  tfr_type tmp = *t;
  if (is_coll(t)) {
    tmp.elem = conv_intern(c, t->elem);
    r = intern_node(c, &tmp, tmp.elem == t->elem ? t : NULL);
  } else {
    const tfr_type *buf[SMALL];
    const tfr_type **kids =
        t->n <= SMALL ? buf : heap_calloc(1, t->n * sizeof *kids);
    bool same = intern_children(c, t, kids);
    tmp.types = kids;
    r = intern_node(c, &tmp, same ? t : NULL);
    if (kids != buf)
      free(kids);
  }
  memo_put(&c->memo, t, TAG_CANON, r);
  return r;
}

const tfr_type *conv_mk_coll(struct cctx *c, int kind, const tfr_type *elem) {
  tfr_type tmp = {.kind = (uint8_t)kind, .elem = conv_intern(c, elem)};
  return intern_node(c, &tmp, NULL);
}

/* Whether the interned object type t has these members. */
static bool object_is(const tfr_type *t, size_t n, const char *const *names,
                      const tfr_type *const *types, const bool *optional) {
  if (t->n != n)
    return false;
  for (size_t i = 0; i < n; i++)
    if (t->types[i] != types[i] ||
        opt_at(t, (uint32_t)i) != (optional && optional[i]) ||
        (t->names[i] != names[i] && strcmp(t->names[i], names[i]) != 0))
      return false;
  return true;
}

/* An interned object type; names sorted; optional may be NULL. */
const tfr_type *conv_mk_object(struct cctx *c, size_t n,
                               const char *const *names,
                               const tfr_type *const *types,
                               const bool *optional) {
  size_t slot = n ? (size_t)mix(n, (uintptr_t)types[n - 1]) & 63 : 0;
  const tfr_type *last = c->recent_obj[slot];
  if (last && object_is(last, n, names, types, optional))
    return last; /* members are interned, so pointers compare */
  const tfr_type *buf[SMALL];
  const tfr_type **kids = n <= SMALL ? buf : heap_calloc(1, n * sizeof *kids);
  for (size_t i = 0; i < n; i++)
    kids[i] = conv_intern(c, types[i]);
  tfr_type tmp = {.kind = TFR_OBJECT,
                  .n = (uint32_t)n,
                  .names = names,
                  .types = kids,
                  .optional = optional};
  const tfr_type *r = intern_node(c, &tmp, NULL);
  if (kids != buf)
    free(kids);
  if (n && r->types[n - 1] == types[n - 1])
    c->recent_obj[slot] = r;
  return r;
}

const tfr_type *conv_mk_tuple(struct cctx *c, size_t n,
                              const tfr_type *const *types) {
  const tfr_type **kids = heap_calloc(1, n * sizeof *kids);
  for (size_t i = 0; i < n; i++)
    kids[i] = conv_intern(c, types[i]);
  tfr_type tmp = {.kind = TFR_TUPLE, .n = (uint32_t)n, .types = kids};
  const tfr_type *r = intern_node(c, &tmp, NULL);
  free(kids);
  return r;
}

/* cty's WithoutOptionalAttributesDeep, interned. */
static const tfr_type *strip(struct cctx *c, const tfr_type *t) {
  if (is_prim(t) || is_dyn(t))
    return prim_singleton(t);
  const tfr_type *r = memo_get(&c->memo, t, TAG_STRIP);
  if (r)
    return r;
  if (is_coll(t)) {
    r = conv_mk_coll(c, t->kind, strip(c, t->elem));
  } else {
    const tfr_type **kids = heap_calloc(1, t->n * sizeof *kids);
    for (uint32_t i = 0; i < t->n; i++)
      kids[i] = strip(c, t->types[i]);
    r = t->kind == TFR_OBJECT ? conv_mk_object(c, t->n, t->names, kids, NULL)
                              : conv_mk_tuple(c, t->n, kids);
    free(kids);
  }
  memo_put(&c->memo, t, TAG_STRIP, r);
  return r;
}

/* cty's FriendlyNameForConstraint. */
const char *conv_friendly(tfr_arena *a, const tfr_type *t) {
  const char *what;
  switch (t->kind) {
  case TFR_DYNAMIC:
    return "any type";
  case TFR_OBJECT:
    return "object";
  case TFR_TUPLE:
    return "tuple";
  case TFR_LIST:
    what = "list";
    break;
  case TFR_SET:
    what = "set";
    break;
  case TFR_MAP:
    what = "map";
    break;
  default:
    return tfr_type_friendly(a, t);
  }
  return tfr_arena_printf(a, "%s of %s", what,
                          is_dyn(t->elem) ? "any single type"
                                          : conv_friendly(a, t->elem));
}

/* ---- primitive conversions (conversion_primitive.go) -------------------- */

static const tfr_value *number_to_string(struct cctx *c, const tfr_value *v) {
  const char *s = num_format(c->a, v->num);
  return tfr_string_nocopy(c->a, s, strlen(s));
}

static const tfr_value str_true = {.type = &tfr_t_string, .n = 4, .s = "true"};
static const tfr_value str_false = {
    .type = &tfr_t_string, .n = 5, .s = "false"};

static const tfr_value *bool_to_string(struct cctx *c, const tfr_value *v) {
  (void)c;
  return v->b ? &str_true : &str_false;
}

static const tfr_value *string_to_number(struct cctx *c, const tfr_value *v) {
  const struct tfr_num *n = num_parse(c->a, v->s, v->n);
  if (!n)
    return fail(c, "a number is required");
  tfr_value *r = tfr_arena_alloc(c->a, sizeof *r);
  r->type = &tfr_t_number;
  r->num = n;
  return r;
}

static bool eq_str(const tfr_value *v, const char *word) {
  return v->n == strlen(word) && memcmp(v->s, word, v->n) == 0;
}

/* strings.ToLower(s) == word; only ASCII letters lower to "true"/"false". */
static bool eq_fold(const tfr_value *v, const char *word) {
  if (v->n != strlen(word))
    return false;
  for (size_t i = 0; i < v->n; i++) {
    char ch = v->s[i];
    if (ch >= 'A' && ch <= 'Z')
      ch = (char)(ch - 'A' + 'a');
    if (ch != word[i])
      return false;
  }
  return true;
}

static const tfr_value *string_to_bool(struct cctx *c, const tfr_value *v) {
  if (eq_str(v, "true") || eq_str(v, "1"))
    return tfr_bool(true);
  if (eq_str(v, "false") || eq_str(v, "0"))
    return tfr_bool(false);
  if (eq_fold(v, "true"))
    return fail(c, "a bool is required; to convert from string, use "
                   "lowercase \"true\"");
  if (eq_fold(v, "false"))
    return fail(c, "a bool is required; to convert from string, use "
                   "lowercase \"false\"");
  return fail(c, "a bool is required");
}

typedef const tfr_value *(*prim_fn)(struct cctx *c, const tfr_value *v);

/* cty's primitiveConversionsSafe and primitiveConversionsUnsafe, indexed
** [from][to] by type kind.  Conversions that always succeed are safe;
** parsing a string may fail, so those need "unsafe". */
static const prim_fn prim_safe[TFR_STRING + 1][TFR_STRING + 1] = {
    [TFR_NUMBER][TFR_STRING] = number_to_string,
    [TFR_BOOL][TFR_STRING] = bool_to_string,
};
static const prim_fn prim_unsafe[TFR_STRING + 1][TFR_STRING + 1] = {
    [TFR_STRING][TFR_NUMBER] = string_to_number,
    [TFR_STRING][TFR_BOOL] = string_to_bool,
};

static prim_fn prim_conversion(int in, int out, bool unsafe) {
  prim_fn f = prim_safe[in][out];
  return f || !unsafe ? f : prim_unsafe[in][out];
}

/* ---- which conversions exist (getConversion returning non-nil) ---------- */

/* Memoised results of unify_types() for a tuple's elements or an object's
** attributes (the element type of list(any), set(any), map(any)). */
static const tfr_type *memo_unify(struct cctx *c, const tfr_type *t,
                                  uintptr_t tag, bool unsafe) {
  const tfr_type *r = memo_get(&c->memo, t, tag + unsafe);
  if (r)
    return r == FAILED ? NULL : r;
  r = unify_types(c, t->n, t->types, unsafe, NULL);
  if (r && is_dyn(r) && tag == TAG_TUPLE_ETY)
    for (uint32_t i = 0; i < t->n; i++)
      if (!is_dyn(t->types[i]))
        r = NULL; /* a list of dynamic values, unless all are */
  memo_put(&c->memo, t, tag + unsafe, r ? r : FAILED);
  return r;
}

/* The element type of a collection built from a tuple (tag TAG_TUPLE_ETY:
** conversionTupleToList/Set) or an object (TAG_OBJECT_ETY:
** conversionObjectToMap); NULL if impossible. */
static const tfr_type *struct_coll_ety(struct cctx *c, const tfr_type *in,
                                       const tfr_type *ety, int tag,
                                       bool unsafe) {
  if (in->n == 0)
    return ety;
  if (is_dyn(ety))
    ety = memo_unify(c, in, tag, unsafe);
  return ety;
}

/* Can every element of that tuple or object become that element type? */
static bool struct_to_coll_ok(struct cctx *c, const tfr_type *in,
                              const tfr_type *ety, int tag, bool unsafe) {
  ety = struct_coll_ety(c, in, ety, tag, unsafe);
  if (!ety)
    return false;
  for (uint32_t i = 0; i < in->n; i++)
    if (!conv_or_eq(c, in->types[i], ety, unsafe))
      return false;
  return true;
}

/* conversionObjectToObject: every attribute of out is in in (or is
** optional) and converts. */
static bool object_to_object_ok(struct cctx *c, const tfr_type *in,
                                const tfr_type *out, bool unsafe) {
  uint32_t j = 0;
  for (uint32_t i = 0; i < out->n; i++) {
    int k = 1;
    while (j < in->n && (k = strcmp(in->names[j], out->names[i])) < 0)
      j++;
    if (j >= in->n || k != 0) {
      if (!opt_at(out, i))
        return false;
      continue;
    }
    if (!conv_or_eq(c, in->types[j], out->types[i], unsafe))
      return false;
  }
  return true;
}

static bool map_to_object_ok(struct cctx *c, const tfr_type *in,
                             const tfr_type *out, bool unsafe) {
  if (!unsafe)
    return false;
  for (uint32_t i = 0; i < out->n; i++)
    if (!conv_or_eq(c, in->elem, out->types[i], unsafe) && !opt_at(out, i))
      return false;
  return true;
}

static bool tuple_to_tuple_ok(struct cctx *c, const tfr_type *in,
                              const tfr_type *out, bool unsafe) {
  if (in->n != out->n)
    return false;
  for (uint32_t i = 0; i < in->n; i++)
    if (!conv_or_eq(c, in->types[i], out->types[i], unsafe))
      return false;
  return true;
}

static bool prim_ok(const tfr_type *in, const tfr_type *out, bool unsafe) {
  return in->kind == out->kind ||
         prim_conversion(in->kind, out->kind, unsafe) != NULL;
}

/*
** Whether cty's getConversion(in, out, unsafe) exists.  cty never asks
** for a conversion between equal types (callers test Equals first), so
** equal types count as convertible here.
*/
static bool can_conv_kinds(struct cctx *c, const tfr_type *in,
                           const tfr_type *out, bool unsafe);

bool conv_can_conv(struct cctx *c, const tfr_type *in, const tfr_type *out,
                   bool unsafe) {
  if (is_dyn(out) || in == out)
    return true;
  size_t slot = (size_t)mix((uintptr_t)in, (uintptr_t)out + unsafe) & 15;
  if (c->recent_cc[slot].in == in && c->recent_cc[slot].out == out &&
      c->recent_cc[slot].unsafe == unsafe)
    return c->recent_cc[slot].res;
  bool r = can_conv_kinds(c, in, out, unsafe);
  c->recent_cc[slot].in = in;
  c->recent_cc[slot].out = out;
  c->recent_cc[slot].unsafe = unsafe;
  c->recent_cc[slot].res = r;
  return r;
}

static bool can_conv_kinds(struct cctx *c, const tfr_type *in,
                           const tfr_type *out, bool unsafe) {
  if (is_dyn(in))
    return unsafe;
  if (is_prim(in) && is_prim(out))
    return prim_ok(in, out, unsafe);
  switch (out->kind) {
  case TFR_OBJECT:
    if (in->kind == TFR_OBJECT)
      return object_to_object_ok(c, in, out, unsafe);
    return in->kind == TFR_MAP && map_to_object_ok(c, in, out, unsafe);
  case TFR_TUPLE:
    return in->kind == TFR_TUPLE && tuple_to_tuple_ok(c, in, out, unsafe);
  case TFR_LIST:
  case TFR_SET:
    if (in->kind == TFR_TUPLE)
      return struct_to_coll_ok(c, in, out->elem, TAG_TUPLE_ETY, unsafe);
    if (in->kind != TFR_LIST && in->kind != TFR_SET)
      return false;
    if (out->kind == TFR_SET && in->kind == TFR_LIST && !unsafe)
      return false;
    return conv_or_eq(c, in->elem, out->elem, unsafe);
  case TFR_MAP:
    if (in->kind == TFR_OBJECT)
      return struct_to_coll_ok(c, in, out->elem, TAG_OBJECT_ETY, unsafe);
    return in->kind == TFR_MAP && conv_or_eq(c, in->elem, out->elem, unsafe);
  default:
    return false;
  }
}

/* ---- dynamicReplace (conversion_dynamic.go) ----------------------------- */

/* The type of a null or unknown converted from type in to out (stripped):
** out with each "any" in it replaced by the matching part of in. */
static const tfr_type *dyn_replace(struct cctx *c, const tfr_type *in,
                                   const tfr_type *out) {
  if (!in || is_dyn(in))
    return out;
  if (is_dyn(out))
    return conv_intern(c, in);
  if (is_prim(out))
    return out;
  if (is_coll(out)) {
    const tfr_type *e = NULL;
    if (in->kind == TFR_MAP || in->kind == TFR_LIST || in->kind == TFR_SET)
      e = in->elem;
    else if (in->kind == TFR_OBJECT || in->kind == TFR_TUPLE)
      e = unify_types(c, in->n, in->types, true, NULL);
    return conv_mk_coll(c, out->kind, dyn_replace(c, e, out->elem));
  }
  const tfr_type **kids = heap_calloc(1, (out->n ? out->n : 1) * sizeof *kids);
  for (uint32_t i = 0; i < out->n; i++) {
    const tfr_type *x = NULL;
    if (out->kind == TFR_TUPLE)
      x = in->kind == TFR_TUPLE && i < in->n ? in->types[i] : NULL;
    else if (in->kind == TFR_MAP)
      x = in->elem;
    else if (in->kind == TFR_OBJECT) {
      long j = tfr_type_attr(in, out->names[i], strlen(out->names[i]));
      x = j >= 0 ? in->types[j] : NULL;
    }
    kids[i] = x ? dyn_replace(c, x, out->types[i]) : out->types[i];
  }
  const tfr_type *r = out->kind == TFR_TUPLE
                          ? conv_mk_tuple(c, out->n, kids)
                          : conv_mk_object(c, out->n, out->names, kids, NULL);
  free(kids);
  return r;
}

/* ---- building values ---------------------------------------------------- */

static const tfr_value *const no_elems[1];
static const char *const no_keys[1];
static const uint32_t no_lens[1];

static bool v_null(const tfr_value *v) { return v->flags & TFR_V_NULL; }
static bool v_unknown(const tfr_value *v) { return v->flags & TFR_V_UNKNOWN; }

static const tfr_value **val_array(struct cctx *c, size_t n) {
  return tfr_arena_alloc_raw(c->a, (n ? n : 1) * sizeof(tfr_value *));
}

/* A known compound value (list, set, map, object or tuple). */
static tfr_value *new_val(struct cctx *c, const tfr_type *t, size_t n,
                          const tfr_value *const *elems) {
  tfr_value *v = tfr_arena_alloc_raw(c->a, sizeof *v);
  memset(v, 0, sizeof *v); /* inlined: much cheaper than a call */
  v->type = t;
  v->n = (uint32_t)n;
  v->elems = n ? elems : no_elems;
  return v;
}

/* cty.NullVal(t.WithoutOptionalAttributesDeep()): the null an element
** becomes inside a converted collection or object (marks dropped). */
static const tfr_value *null_of(struct cctx *c, const tfr_type *t) {
  const tfr_value *v = memo_get(&c->memo, t, TAG_NULL);
  if (!v) {
    v = tfr_null(c->a, t);
    memo_put(&c->memo, t, TAG_NULL, v);
  }
  return v;
}

static const tfr_value *plain_null(struct cctx *c, const tfr_type *t) {
  return null_of(c, strip(c, t));
}

/* The element type cty.ListVal/SetVal/MapVal would give: the first that
** is not dynamic.  NULL when two differ (CanListVal is false). */
static const tfr_type *common_type(size_t n, const tfr_value *const *v) {
  const tfr_type *t = &tfr_t_dynamic;
  for (size_t i = 0; i < n; i++) {
    const tfr_type *x = v[i]->type;
    if (is_dyn(t))
      t = x;
    else if (!is_dyn(x) && !type_eq(t, x))
      return NULL;
  }
  return t;
}

static const tfr_value *mk_list(struct cctx *c, const tfr_type *ety, size_t n,
                                const tfr_value **elems) {
  return new_val(c, conv_mk_coll(c, TFR_LIST, ety), n, elems);
}

static const tfr_value *mk_map(struct cctx *c, const tfr_type *ety, size_t n,
                               const char *const *keys, const uint32_t *lens,
                               const tfr_value **elems) {
  tfr_value *v = new_val(c, conv_mk_coll(c, TFR_MAP, ety), n, elems);
  v->keys = n ? keys : no_keys;
  v->keylens = n ? lens : no_lens;
  return v;
}

/* cty.SetVal: the marks of the elements move to the set. */
static const tfr_value *mk_set(struct cctx *c, const tfr_type *ety, size_t n,
                               const tfr_value **elems) {
  unsigned marks = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned m = tfr_value_marks(elems[i]);
    if (m) {
      marks |= m;
      elems[i] = tfr_value_unmark(c->a, elems[i], MARKS, NULL);
    }
  }
  const tfr_value *s = tfr_set(c->a, conv_intern(c, ety), n, elems);
  return marks ? tfr_value_mark(c->a, s, marks) : s;
}

/* cty.ObjectVal: the type comes from the values. */
static const tfr_value *mk_object_val(struct cctx *c, size_t n,
                                      const char *const *names,
                                      const tfr_value **vals) {
  if (n == 0)
    return new_val(c, conv_mk_object(c, 0, names, NULL, NULL), 0, vals);
  const tfr_type *buf[SMALL];
  const tfr_type **tt = n <= SMALL ? buf : heap_calloc(1, n * sizeof *tt);
  for (size_t i = 0; i < n; i++)
    tt[i] = vals[i]->type;
  const tfr_type *t = conv_mk_object(c, n, names, tt, NULL);
  if (tt != buf)
    free(tt);
  return new_val(c, t, n, vals);
}

static const tfr_value *mk_tuple_val(struct cctx *c, size_t n,
                                     const tfr_value **vals) {
  const tfr_type **tt = tfr_arena_alloc_raw(c->a, (n ? n : 1) * sizeof *tt);
  for (size_t i = 0; i < n; i++)
    tt[i] = vals[i]->type;
  tfr_type *t = tfr_arena_alloc(c->a, sizeof *t);
  t->kind = TFR_TUPLE;
  t->n = (uint32_t)n;
  t->types = tt;
  return new_val(c, t, n, vals);
}

static uint32_t *key_lengths(struct cctx *c, size_t n,
                             const char *const *names) {
  uint32_t *l = tfr_arena_alloc_raw(c->a, (n ? n : 1) * sizeof *l);
  for (size_t i = 0; i < n; i++)
    l[i] = (uint32_t)strlen(names[i]);
  return l;
}

/* ---- converting values -------------------------------------------------- */

static const tfr_value *conv_val(struct cctx *c, const tfr_value *v,
                                 const tfr_type *out, bool unsafe);

/* Convert one member, unless its type is already the wanted one. */
static const tfr_value *member(struct cctx *c, const tfr_value *e,
                               const tfr_type *in, const tfr_type *out,
                               bool unsafe) {
  return type_eq(in, out) ? e : conv_val(c, e, out, unsafe);
}

/* Into idx: for each attribute of out, the index of the same attribute
** in in (UINT32_MAX if absent).  Recent pairs are remembered, because
** converting a list's elements asks for the same pair again and again. */
static void attr_map(struct cctx *c, const tfr_type *in, const tfr_type *out,
                     uint32_t *idx) {
  size_t slot = (size_t)mix((uintptr_t)in, (uintptr_t)out) & 15;
  size_t bytes = (out->n + 1) * sizeof *idx;
  if (c->amap[slot].in == in && c->amap[slot].out == out) {
    memcpy(idx, c->amap[slot].idx, bytes);
    return;
  }
  uint32_t j = 0;
  for (uint32_t i = 0; i < out->n; i++) {
    int k = 1;
    while (j < in->n && (k = strcmp(in->names[j], out->names[i])) < 0)
      j++;
    idx[i] = j < in->n && k == 0 ? j : UINT32_MAX;
  }
  uint32_t *keep = heap_realloc(c->amap[slot].idx, bytes);
  memcpy(keep, idx, bytes);
  c->amap[slot].in = in;
  c->amap[slot].out = out;
  c->amap[slot].idx = keep;
}

/* conversionObjectToObject: extra attributes are dropped, absent optional
** ones become null. */
static const tfr_value *object_to_object(struct cctx *c, const tfr_value *v,
                                         const tfr_type *out, bool unsafe) {
  const tfr_type *in = v->type;
  const tfr_value **vals = val_array(c, out->n);
  uint32_t buf[SMALL + 1];
  uint32_t *idx =
      out->n < SMALL ? buf : heap_calloc(1, (out->n + 1) * sizeof *idx);
  attr_map(c, in, out, idx);
  const tfr_value *r = NULL;
  uint32_t i = 0;
  for (; i < out->n; i++) {
    uint32_t j = idx[i];
    if (j == UINT32_MAX) {
      vals[i] = plain_null(c, out->types[i]);
      continue;
    }
    const tfr_value *e =
        member(c, v->elems[j], in->types[j], out->types[i], unsafe);
    if (!e) {
      at_attr(c, out->names[i]);
      break;
    }
    vals[i] = v_null(e) ? plain_null(c, e->type) : e;
  }
  if (i == out->n)
    r = mk_object_val(c, out->n, out->names, vals);
  if (idx != buf)
    free(idx);
  return r;
}

/* conversionMapToObject (unsafe only). */
static const tfr_value *map_to_object(struct cctx *c, const tfr_value *v,
                                      const tfr_type *out, bool unsafe) {
  const tfr_type *mety = v->type->elem;
  const tfr_value **vals = tfr_arena_alloc(c->a, (out->n + 1) * sizeof *vals);
  for (uint32_t k = 0; k < v->n; k++) {
    long i = tfr_type_attr(out, v->keys[k], v->keylens[k]);
    if (i < 0)
      continue;
    const tfr_type *aty = out->types[i];
    const tfr_value *e = v->elems[k];
    if (!type_eq(aty, mety)) {
      if (!conv_can_conv(c, mety, aty, unsafe))
        return fail(c, tfr_arena_printf(
                           c->a,
                           "map element type is incompatible with attribute "
                           "%s: %s",
                           conv_quote(c, v->keys[k], v->keylens[k]),
                           unify_mismatch(c, e->type, aty)));
      e = conv_val(c, e, aty, unsafe);
      if (!e) {
        at_key(c, v->keys[k], v->keylens[k]);
        return NULL;
      }
    }
    vals[i] = v_null(e) ? plain_null(c, e->type) : e;
  }
  for (uint32_t i = 0; i < out->n; i++) {
    if (vals[i])
      continue;
    if (!opt_at(out, i))
      return fail(c, tfr_arena_printf(
                         c->a, "map has no element for required attribute %s",
                         conv_quote(c, out->names[i], strlen(out->names[i]))));
    vals[i] = null_of(c, out->types[i]);
  }
  return mk_object_val(c, out->n, out->names, vals);
}

static const tfr_value *tuple_to_tuple(struct cctx *c, const tfr_value *v,
                                       const tfr_type *out, bool unsafe) {
  const tfr_value **vals = val_array(c, v->n);
  for (uint32_t i = 0; i < v->n; i++) {
    vals[i] = member(c, v->elems[i], v->type->types[i], out->types[i], unsafe);
    if (!vals[i]) {
      at_index(c, i);
      return NULL;
    }
  }
  return mk_tuple_val(c, v->n, vals);
}

/*
** conversionUnifyListElements and conversionUnifyCollectionElements:
** after converting to a type with "any" inside, the elements are unified
** once more.  keys (map keys) or NULL (list indices) name them in errors.
*/
static bool unify_elems(struct cctx *c, size_t n, const tfr_value **vals,
                        const char *const *keys, const uint32_t *lens,
                        bool unsafe) {
  const tfr_type **tt = heap_calloc(1, n * sizeof *tt);
  for (size_t i = 0; i < n; i++)
    tt[i] = vals[i]->type;
  const tfr_type *u = unify_types(c, n, tt, unsafe, NULL);
  free(tt);
  if (!u) {
    fail(c, "cannot find a common base type for all elements");
    return false;
  }
  for (size_t i = 0; i < n; i++) {
    if (type_eq(vals[i]->type, u))
      continue;
    const tfr_value *e = NULL;
    if (conv_can_conv(c, vals[i]->type, u, unsafe)) /* cty would panic if not */
      e = conv_val(c, vals[i], u, unsafe);
    else
      fail(c, "cannot find a common base type for all elements");
    if (!e) {
      if (keys)
        at_key(c, keys[i], lens[i]);
      else
        at_index(c, i);
      return false;
    }
    vals[i] = e;
  }
  return true;
}

/* Every element has the same (interned) type, one without optional
** attributes: then unifying them changes nothing. */
static bool uniform_plain(size_t n, const tfr_value *const *vals) {
  for (size_t i = 1; i < n; i++)
    if (vals[i]->type != vals[0]->type)
      return false;
  return !tfr_type_has_optional(vals[0]->type);
}

/* cty.ListVal / cty.SetVal of the converted elements; t, if not NULL, is
** known to be the type of every element. */
static const tfr_value *list_or_set(struct cctx *c, int kind, size_t n,
                                    const tfr_value **vals, const tfr_type *t) {
  if (!t)
    t = common_type(n, vals);
  if (!t)
    return fail(c, kind == TFR_LIST
                       ? "element types must all match for conversion to list"
                       : "element types must all match for conversion to set");
  return kind == TFR_LIST ? mk_list(c, t, n, vals) : mk_set(c, t, n, vals);
}

/*
** Large lists are mostly pointer chasing into memory not touched for a
** while: fetch the next elements' members ahead of time, a few levels
** deep (element, its member array, the members).
*/
#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

static void prefetch_members(const tfr_value *v, size_t i) {
  enum { AHEAD = 12 };
  if (i + AHEAD < v->n)
    PREFETCH(v->elems[i + AHEAD]);
  if (i + AHEAD / 2 < v->n) {
    const tfr_value *e = v->elems[i + AHEAD / 2];
    if (!is_prim(e->type) && !(e->flags & (TFR_V_NULL | TFR_V_UNKNOWN)))
      PREFETCH(e->elems);
  }
  if (i + AHEAD / 4 < v->n) {
    const tfr_value *e = v->elems[i + AHEAD / 4];
    if (!is_prim(e->type) && !(e->flags & (TFR_V_NULL | TFR_V_UNKNOWN)))
      for (uint32_t k = 0; k < e->n && k < 8; k++)
        PREFETCH(e->elems[k]);
  }
}

/* conversionTupleToList and conversionTupleToSet. */
static const tfr_value *tuple_to_coll(struct cctx *c, const tfr_value *v,
                                      const tfr_type *out, bool unsafe) {
  int kind = out->kind;
  size_t n = v->n;
  if (n == 0)
    return kind == TFR_LIST ? mk_list(c, strip(c, out->elem), 0, NULL)
                            : mk_set(c, strip(c, out->elem), 0, NULL);
  const tfr_type *ety =
      struct_coll_ety(c, v->type, out->elem, TAG_TUPLE_ETY, unsafe);
  const tfr_value **vals = val_array(c, n);
  bool same = true; /* every element of the same type (pointer) */
  for (size_t i = 0; i < n; i++) {
    prefetch_members(v, i);
    const tfr_value *e = member(c, v->elems[i], v->type->types[i], ety, unsafe);
    if (!e) {
      at_index(c, i);
      return NULL;
    }
    vals[i] = kind == TFR_SET && v_null(e) ? plain_null(c, e->type) : e;
    same &= vals[i]->type == vals[0]->type;
  }
  same &= !tfr_type_has_optional(vals[0]->type);
  if (kind == TFR_LIST && !same &&
      !unify_elems(c, n, vals, NULL, NULL, unsafe)) {
    at_index(c, n - 1); /* cty reports these at the last element's path */
    return NULL;
  }
  return list_or_set(c, kind, n, vals, same ? vals[0]->type : NULL);
}

/* conversionCollectionToList and conversionCollectionToSet. */
static const tfr_value *coll_to_seq(struct cctx *c, const tfr_value *v,
                                    const tfr_type *out, bool unsafe) {
  const tfr_type *in = v->type;
  int kind = out->kind;
  size_t n = v->n;
  if (kind == TFR_LIST && in->kind == TFR_SET && n != 1 &&
      !tfr_value_is_wholly_known(v)) /* the length is unknown */
    return tfr_unknown(c->a, conv_mk_coll(c, TFR_LIST, in->elem));
  bool same = type_eq(in->elem, out->elem);
  const tfr_value **vals = val_array(c, n);
  for (size_t i = 0; i < n; i++) {
    const tfr_value *e = v->elems[i];
    if (!same && !(e = conv_val(c, e, out->elem, unsafe))) {
      at_index(c, i);
      return NULL;
    }
    vals[i] = v_null(e) ? plain_null(c, e->type) : e;
  }
  if (n == 0) {
    const tfr_type *ety = is_dyn(out->elem) ? in->elem : strip(c, out->elem);
    return kind == TFR_LIST ? mk_list(c, ety, 0, NULL)
                            : mk_set(c, ety, 0, NULL);
  }
  return list_or_set(c, kind, n, vals, NULL);
}

static const tfr_value *finish_map(struct cctx *c, size_t n,
                                   const char *const *keys,
                                   const uint32_t *lens, const tfr_value **vals,
                                   const char *msg) {
  const tfr_type *t = common_type(n, vals);
  return t ? mk_map(c, t, n, keys, lens, vals) : fail(c, msg);
}

/* conversionCollectionToMap (map to map). */
static const tfr_value *map_to_map(struct cctx *c, const tfr_value *v,
                                   const tfr_type *out, bool unsafe) {
  const tfr_type *ety = out->elem;
  size_t n = v->n;
  if (n == 0) /* conversion_collection.go:159-165 */
    return mk_map(c, is_dyn(ety) ? v->type->elem : strip(c, ety), 0, NULL, NULL,
                  NULL);
  const tfr_value **vals = val_array(c, n);
  for (size_t i = 0; i < n; i++) {
    vals[i] = conv_val(c, v->elems[i], ety, unsafe);
    if (!vals[i]) {
      at_key(c, v->keys[i], v->keylens[i]);
      return NULL;
    }
  }
  if ((is_coll(ety) || ety->kind == TFR_OBJECT) && !uniform_plain(n, vals) &&
      !unify_elems(c, n, vals, v->keys, v->keylens, false))
    return NULL;
  return finish_map(c, n, v->keys, v->keylens, vals,
                    "element types must all match for conversion to map");
}

/* conversionObjectToMap. */
static const tfr_value *object_to_map(struct cctx *c, const tfr_value *v,
                                      const tfr_type *out, bool unsafe) {
  const tfr_type *in = v->type;
  size_t n = v->n;
  if (n == 0)
    return mk_map(c, strip(c, out->elem), 0, NULL, NULL, NULL);
  const tfr_type *ety =
      struct_coll_ety(c, in, out->elem, TAG_OBJECT_ETY, unsafe);
  const uint32_t *lens = key_lengths(c, n, in->names);
  const tfr_value **vals = val_array(c, n);
  for (size_t i = 0; i < n; i++) {
    vals[i] = member(c, v->elems[i], in->types[i], ety, unsafe);
    if (!vals[i]) {
      at_key(c, in->names[i], lens[i]);
      return NULL;
    }
  }
  if ((is_coll(ety) || ety->kind == TFR_OBJECT) && !uniform_plain(n, vals) &&
      !unify_elems(c, n, vals, in->names, lens, unsafe))
    return NULL;
  return finish_map(c, n, in->names, lens, vals,
                    "attribute types must all match for conversion to map");
}

/* The conversion of a known, non-null value, by kinds (getConversionKnown);
** the types are known to convert. */
static const tfr_value *conv_known(struct cctx *c, const tfr_value *v,
                                   const tfr_type *out, bool unsafe) {
  const tfr_type *in = v->type;
  if (is_dyn(in))
    return v; /* a known value always has a concrete type */
  if (is_prim(in) && is_prim(out))
    return in->kind == out->kind
               ? v
               : prim_conversion(in->kind, out->kind, unsafe)(c, v);
  switch (out->kind) {
  case TFR_OBJECT:
    return in->kind == TFR_OBJECT ? object_to_object(c, v, out, unsafe)
                                  : map_to_object(c, v, out, unsafe);
  case TFR_TUPLE:
    return tuple_to_tuple(c, v, out, unsafe);
  case TFR_LIST:
  case TFR_SET:
    return in->kind == TFR_TUPLE ? tuple_to_coll(c, v, out, unsafe)
                                 : coll_to_seq(c, v, out, unsafe);
  case TFR_MAP:
    return in->kind == TFR_OBJECT ? object_to_map(c, v, out, unsafe)
                                  : map_to_map(c, v, out, unsafe);
  default:
    return v;
  }
}

/*
** cty's wrapper around every conversion: marks come off and go back on,
** "any" takes the value as it is, and null and unknown values become a
** null or unknown of the wanted type (with "any" in it replaced).
*/
static const tfr_value *conv_val(struct cctx *c, const tfr_value *v,
                                 const tfr_type *out, bool unsafe) {
  if (is_dyn(out))
    return v;
  const tfr_value *r;
  if (v->flags & (TFR_V_UNKNOWN | TFR_V_NULL)) {
    const tfr_type *t = dyn_replace(c, v->type, strip(c, out));
    r = v_unknown(v) ? tfr_unknown(c->a, t) : null_of(c, t);
  } else if (is_prim(v->type)) {
    r = conv_known(c, v, out, unsafe);
    if (!r)
      return NULL;
  } else {
    size_t slot = (size_t)mix((uintptr_t)v, (uintptr_t)out) & 15;
    if (c->recent_val[slot].v == v && c->recent_val[slot].out == out &&
        c->recent_val[slot].unsafe == unsafe) {
      r = c->recent_val[slot].r;
    } else {
      r = conv_known(c, v, out, unsafe);
      if (!r)
        return NULL;
      c->recent_val[slot].v = v;
      c->recent_val[slot].out = out;
      c->recent_val[slot].unsafe = unsafe;
      c->recent_val[slot].r = r;
    }
  }
  unsigned marks = v->flags & MARKS;
  return marks ? tfr_value_mark(c->a, r, marks) : r;
}

/* convert.Convert. */
static const tfr_value *convert(struct cctx *c, const tfr_value *v,
                                const tfr_type *want) {
  const tfr_type *plain = tfr_type_has_optional(want) ? strip(c, want) : want;
  if (type_eq(v->type, plain))
    return v;
  if (!conv_can_conv(c, v->type, want, true))
    return fail(c, unify_mismatch(c, v->type, want));
  return conv_val(c, v, want, true);
}

/*
** Like conv_convert; *path (if not NULL) also gets the path of the value
** that failed, as Terraform's tfdiags.FormatError writes it before the
** message (".a[0]", "" for the value itself).  Terraform shows it for
** invalid defaults ("This default value is not compatible with the
** variable's type constraint: <path>: <msg>.", path omitted when empty),
** not for invalid input values.
*/
const tfr_value *conv_convert_path(tfr_arena *a, const tfr_value *v,
                                   const tfr_type *want, const char **err,
                                   const char **path) {
  if (is_dyn(want) || (v->type == want && !tfr_type_has_optional(want))) {
    if (err)
      *err = NULL;
    if (path)
      *path = NULL;
    return v;
  }
  struct cctx c;
  ctx_init(&c, a);
  const tfr_value *r = convert(&c, v, want);
  if (err)
    *err = r ? NULL : c.err;
  if (path)
    *path = r ? NULL : format_path(&c);
  ctx_done(&c);
  return r;
}

const tfr_value *conv_convert(tfr_arena *a, const tfr_value *v,
                              const tfr_type *want, const char **err) {
  return conv_convert_path(a, v, want, err, NULL);
}

/* convert.UnifyUnsafe, as HCL's conditional and cty's functions use it. */
const tfr_type *conv_unify(tfr_arena *a, size_t n,
                           const tfr_type *const *types) {
  struct cctx c;
  ctx_init(&c, a);
  const tfr_type *r = unify_types(&c, n, types, true, NULL);
  ctx_done(&c);
  return r;
}

/* ---- optional-attribute defaults (typeexpr Defaults.Apply) -------------- */

/* A defaults node with its names sorted, made once per call and node. */
struct dinfo {
  size_t nvalues, nchildren;
  const char **vnames;
  const void **values; /* const tfr_value * */
  const char **ckeys;
  const void **children;           /* const struct tfr_defaults * */
  const struct tfr_defaults *elem; /* Children[""] */
  const tfr_value **applied; /* values[i] with their own defaults applied */
  size_t *vlens, *clens;     /* strlen of vnames, ckeys */
};

struct named_ptr {
  const char *name;
  const void *p;
};

static int cmp_named(const void *x, const void *y) {
  return strcmp(((const struct named_ptr *)x)->name,
                ((const struct named_ptr *)y)->name);
}

static void sort_named(struct cctx *c, size_t n, const char *const *names,
                       const void *const *ptrs, const char ***out_names,
                       const void ***out_ptrs) {
  struct named_ptr *tmp = heap_calloc(1, n * sizeof *tmp);
  for (size_t i = 0; i < n; i++)
    tmp[i] = (struct named_ptr){names[i], ptrs[i]};
  qsort(tmp, n, sizeof *tmp, cmp_named);
  *out_names = tfr_arena_alloc_raw(c->a, (n ? n : 1) * sizeof(char *));
  *out_ptrs = tfr_arena_alloc_raw(c->a, (n ? n : 1) * sizeof(void *));
  for (size_t i = 0; i < n; i++) {
    (*out_names)[i] = tmp[i].name;
    (*out_ptrs)[i] = tmp[i].p;
  }
  free(tmp);
}

static struct dinfo *dinfo_of(struct cctx *c, const struct tfr_defaults *d) {
  size_t slot = ((uintptr_t)d >> 4) & 3;
  if (c->recent_d[slot] == d)
    return c->recent_di[slot];
  struct dinfo *got = UNCONST(struct dinfo *, memo_get(&c->memo, d, TAG_DINFO));
  if (got) {
    c->recent_d[slot] = d;
    c->recent_di[slot] = got;
    return got;
  }
  struct dinfo *di = tfr_arena_alloc(c->a, sizeof *di);
  di->applied = tfr_arena_alloc(c->a, (d->nvalues + 1) * sizeof(void *));
  di->nvalues = d->nvalues;
  di->nchildren = d->nchildren;
  const void **tmp = heap_calloc(1, (d->nvalues + d->nchildren) * sizeof *tmp);
  for (size_t i = 0; i < d->nvalues; i++)
    tmp[i] = d->values[i];
  for (size_t i = 0; i < d->nchildren; i++)
    tmp[d->nvalues + i] = d->children[i];
  sort_named(c, d->nvalues, d->value_names, tmp, &di->vnames, &di->values);
  sort_named(c, d->nchildren, d->child_keys, tmp + d->nvalues, &di->ckeys,
             &di->children);
  free(tmp);
  for (size_t i = 0; i < d->nchildren; i++)
    if (d->child_keys[i][0] == '\0')
      di->elem = d->children[i];
  di->vlens = tfr_arena_alloc(c->a, (di->nvalues + 1) * sizeof(size_t));
  di->clens = tfr_arena_alloc(c->a, (di->nchildren + 1) * sizeof(size_t));
  for (size_t i = 0; i < di->nvalues; i++)
    di->vlens[i] = strlen(di->vnames[i]);
  for (size_t i = 0; i < di->nchildren; i++)
    di->clens[i] = strlen(di->ckeys[i]);
  memo_put(&c->memo, d, TAG_DINFO, di);
  return di;
}

/* Children[key]: NULL if there is none. */
static const struct tfr_defaults *child_named(const struct dinfo *di,
                                              const char *key, size_t len) {
  size_t lo = 0, hi = di->nchildren;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    const char *k = di->ckeys[mid];
    size_t kl = di->clens[mid];
    int cmp = str_cmp_bytes(k, kl, key, len);
    if (cmp == 0)
      return (const struct tfr_defaults *)di->children[mid];
    if (cmp < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

/* getChild for an element index (as the reference program ports it). */
static const struct tfr_defaults *child_at(const struct tfr_defaults *d,
                                           const struct dinfo *di, size_t i) {
  if (d->type && d->type->kind == TFR_TUPLE) {
    char k[32];
    int n = snprintf(k, sizeof k, "%zu", i);
    return child_named(di, k, (size_t)n);
  }
  return di->elem;
}

static const struct tfr_defaults *child_key(const struct tfr_defaults *d,
                                            const struct dinfo *di,
                                            const char *k, size_t len) {
  if (d->type && d->type->kind == TFR_OBJECT)
    return child_named(di, k, len);
  return di->elem;
}

static const tfr_value *dflt_apply(struct cctx *c, const struct tfr_defaults *d,
                                   const tfr_value *v);

/*
** unifyAsSlice / unifyAsMap: the values converted to the type they unify
** to, or false (then the caller builds a tuple or an object).
*/
static bool unify_values(struct cctx *c, size_t n, const tfr_value **vals) {
  const tfr_type **tt = heap_calloc(1, n * sizeof *tt);
  for (size_t i = 0; i < n; i++)
    tt[i] = vals[i]->type;
  bool all_dyn = false;
  const tfr_type *u = unify_types(c, n, tt, true, &all_dyn);
  free(tt);
  if (!u)
    return false;
  const tfr_value **out = heap_calloc(1, n * sizeof *out);
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++) {
    if (all_dyn)
      out[i] = tfr_unknown(c->a, &tfr_t_dynamic);
    else if (type_eq(vals[i]->type, u))
      out[i] = vals[i];
    else if (conv_can_conv(c, vals[i]->type, u, true)) {
      out[i] = conv_val(c, vals[i], u, true);
      ok = out[i] != NULL;
    } else {
      ok = false;
    }
  }
  if (ok)
    memcpy(vals, out, n * sizeof *vals);
  free(out);
  return ok;
}

static const tfr_value *dflt_sequence(struct cctx *c,
                                      const struct tfr_defaults *d,
                                      const tfr_value *v) {
  struct dinfo *di = dinfo_of(c, d);
  int kind = v->type->kind;
  size_t n = v->n;
  const tfr_value **vals = val_array(c, n);
  for (size_t i = 0; i < n; i++) {
    const struct tfr_defaults *ch = child_at(d, di, i);
    vals[i] = ch ? dflt_apply(c, ch, v->elems[i]) : v->elems[i];
  }
  if (kind != TFR_TUPLE && n == 0)
    return kind == TFR_SET ? mk_set(c, v->type->elem, 0, vals)
                           : mk_list(c, v->type->elem, 0, vals);
  if (kind != TFR_TUPLE && unify_values(c, n, vals)) {
    const tfr_type *t = common_type(n, vals);
    if (t)
      return kind == TFR_SET ? mk_set(c, t, n, vals) : mk_list(c, t, n, vals);
  }
  return mk_tuple_val(c, n, vals);
}

/* Entries of an object or map value: names (scratch, not in the arena)
** and values. */
struct entries {
  size_t n;
  const char **names;
  const tfr_value **vals;
};

/* A default value with its own nested defaults applied: the same for
** every element, so made once. */
static const tfr_value *applied_default(struct cctx *c, struct dinfo *di,
                                        size_t j) {
  if (!di->applied[j]) {
    const tfr_value *dv = di->values[j];
    const struct tfr_defaults *ch =
        child_named(di, di->vnames[j], di->vlens[j]);
    di->applied[j] = ch ? dflt_apply(c, ch, dv) : dv;
  }
  return di->applied[j];
}

/* The value's entries after child defaults, then the missing or null
** attributes with a default filled in, merged in name order.  e->names
** has room for v->n + di->nvalues names. */
static void dflt_entries(struct cctx *c, const struct tfr_defaults *d,
                         struct dinfo *di, const tfr_value *v,
                         struct entries *e) {
  bool obj = v->type->kind == TFR_OBJECT;
  size_t n = v->n, nd = di->nvalues;
  size_t i = 0, j = 0;
  while (i < n || j < nd) {
    const char *name = NULL;
    size_t len = 0;
    if (i < n) {
      name = obj ? v->type->names[i] : v->keys[i];
      len = obj ? strlen(name) : v->keylens[i];
    }
    int cmp = i >= n ? 1 : j >= nd ? -1 : 0;
    if (cmp == 0) {
      cmp = str_cmp_bytes(name, len, di->vnames[j], di->vlens[j]);
    }
    const tfr_value *x = NULL;
    if (cmp <= 0) { /* an entry of the value */
      const struct tfr_defaults *ch = child_key(d, di, name, len);
      x = ch ? dflt_apply(c, ch, v->elems[i]) : v->elems[i];
      e->names[e->n] = obj ? name : tfr_arena_strndup(c->a, name, len);
      i++;
    }
    if (cmp >= 0) { /* a default: used when absent or null */
      if (!x || v_null(x)) {
        x = applied_default(c, di, j);
        e->names[e->n] = di->vnames[j];
      }
      j++;
    }
    e->vals[e->n++] = x;
  }
}

static const tfr_value *
dflt_mapping(struct cctx *c, const struct tfr_defaults *d, const tfr_value *v) {
  struct dinfo *di = dinfo_of(c, d);
  size_t cap = v->n + di->nvalues;
  const char *buf[SMALL];
  struct entries e = {0,
                      cap <= SMALL ? buf : heap_calloc(1, cap * sizeof(char *)),
                      val_array(c, cap)};
  dflt_entries(c, d, di, v, &e);
  const tfr_value *r = NULL;
  if (v->type->kind == TFR_MAP) {
    if (e.n == 0) {
      r = mk_map(c, v->type->elem, 0, NULL, NULL, NULL);
    } else if (unify_values(c, e.n, e.vals)) {
      const tfr_type *t = common_type(e.n, e.vals);
      const char **keys = tfr_arena_alloc_raw(c->a, e.n * sizeof *keys);
      memcpy(keys, e.names, e.n * sizeof *keys);
      if (t)
        r = mk_map(c, t, e.n, keys, key_lengths(c, e.n, keys), e.vals);
    }
  }
  if (!r)
    r = mk_object_val(c, e.n, e.names, e.vals);
  if (e.names != buf)
    free(e.names);
  return r;
}

static const tfr_value *dflt_apply(struct cctx *c, const struct tfr_defaults *d,
                                   const tfr_value *v) {
  if (!d || (v->flags & (TFR_V_NULL | TFR_V_UNKNOWN)))
    return v;
  if (d->nvalues == 0 && d->nchildren == 0)
    return v;
  const tfr_value *r;
  switch (v->type->kind) {
  case TFR_LIST:
  case TFR_SET:
  case TFR_TUPLE:
    r = dflt_sequence(c, d, v);
    break;
  case TFR_OBJECT:
  case TFR_MAP:
    r = dflt_mapping(c, d, v);
    break;
  default:
    return v;
  }
  unsigned marks = v->flags & MARKS;
  return marks ? tfr_value_mark(c->a, r, marks) : r;
}

const tfr_value *conv_apply_defaults(tfr_arena *a, const tfr_value *v,
                                     const struct tfr_defaults *d) {
  struct cctx c;
  ctx_init(&c, a);
  const tfr_value *r = dflt_apply(&c, d, v);
  ctx_done(&c);
  return r;
}
