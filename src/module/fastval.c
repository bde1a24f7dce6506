/*
** Tfvars values read straight from the text, against the variable's type
** (see fastval.h).
**
** The reader accepts exactly what parse_fast.c accepts of an expression,
** less function calls and names other than true, false and null: numbers
** (with a leading minus), quoted strings without template sequences,
** tuples and objects with bare or quoted keys; and, for .tfvars.json
** files, JSON (see below).  Building the value as it reads, it does what
** the general path does to such a value:
**   - an object's attributes absent or null get their optional default
**     (with its own defaults applied, converted once: shared);
**   - the rest is converted as cty converts: primitives through
**     conv_convert, tuples to lists, sets and tuples element by element,
**     objects to objects (extra attributes dropped) or to maps;
**   - a repeated object key: the last one wins, as in HCL.
** Literal values are tuples and objects, never lists or maps, so the
** defaults never unify anything (convert.c's dflt_sequence and
** dflt_mapping keep tuples and objects as they are) and each element
** converts on its own.
*/
#include <stdlib.h>
#include <string.h>

#include "base/arena_int.h"
#include "module/fastval.h"
#include "values/number.h"
#include "syntax/parse.h"
#include "syntax/parse_fast.h"
#include "base/strutil.h"
#include "base/heap.h"

/* As parse_fast.c: deeper values are left to the grammar. */
#define MAX_DEPTH 200

struct fv_plan {
  const tfr_type *want;       /* the type constraint */
  const tfr_type *type;       /* the type of the converted values */
  const tfr_value *null;      /* null, converted */
  const struct fv_plan *elem; /* list, set, map */
  uint32_t n;                 /* object attributes, tuple elements */
  const struct fv_plan **kids;
  const uint32_t *lens;   /* object: the attribute names' lengths */
  const tfr_value **dflt; /* object: the converted default, or NULL */
  const bool *optional;   /* object: may be absent */
  uint8_t slot[64];       /* object: attribute index + 1 by key_slot,
                             0 none, 255 shared (binary search) */
};

/* A cheap hash of an attribute name, for fv_plan.slot. */
static unsigned key_slot(const char *s, uint32_t n) {
  return n ? (n * 31u + (unsigned char)s[0] * 7u + (unsigned char)s[n - 1]) &
                 63u
           : 0;
}

/* ---- plans ------------------------------------------------------------- */

static const struct tfr_defaults *child(const struct tfr_defaults *d,
                                        const char *key) {
  for (uint32_t i = 0; d && i < d->nchildren; i++)
    if (!strcmp(d->child_keys[i], key))
      return d->children[i];
  return NULL;
}

static const tfr_value *default_of(const struct tfr_defaults *d,
                                   const char *name) {
  for (uint32_t i = 0; d && i < d->nvalues; i++)
    if (!strcmp(d->value_names[i], name))
      return d->values[i];
  return NULL;
}

/* Whether v is or holds an empty list, set, map, tuple or object. */
static bool empty_inside(const tfr_value *v) {
  if (v->flags || tfr_type_is_primitive(v->type))
    return false;
  if (!v->n)
    return true;
  for (uint32_t i = 0; i < v->n; i++)
    if (empty_inside(v->elems[i]))
      return true;
  return false;
}

/* The primitive types' plans, shared. */
static const tfr_value null_bool = {.type = &tfr_t_bool, .flags = TFR_V_NULL};
static const tfr_value null_number = {.type = &tfr_t_number,
                                      .flags = TFR_V_NULL};
static const tfr_value null_string = {.type = &tfr_t_string,
                                      .flags = TFR_V_NULL};
static const struct fv_plan plan_bool = {
    .want = &tfr_t_bool, .type = &tfr_t_bool, .null = &null_bool};
static const struct fv_plan plan_number = {
    .want = &tfr_t_number, .type = &tfr_t_number, .null = &null_number};
static const struct fv_plan plan_string = {
    .want = &tfr_t_string, .type = &tfr_t_string, .null = &null_string};

/*
** What a default value v (already converted to its attribute's type, as
** typeexpr keeps it) becomes under plan p with p's own defaults applied,
** made without the general path; NULL when the general path is needed.
** Null attributes take their default, as conv_apply_defaults gives them;
** collections are handled only when empty (the general path unifies
** the elements of non-empty ones).
*/
static const tfr_value *from_default(tfr_arena *a, const struct fv_plan *p,
                                     const tfr_value *v) {
  if (v->flags & ~TFR_V_NULL)
    return NULL; /* marked, unknown: the general path */
  if (v->flags & TFR_V_NULL)
    return p->null;
  int in = v->type->kind, out = p->want->kind;
  switch (out) {
  case TFR_BOOL:
  case TFR_NUMBER:
  case TFR_STRING:
    return in == out ? v : NULL;
  case TFR_LIST:
  case TFR_MAP:
    /* an empty collection of a type with optional attributes keeps them
    ** in its type, as the general path (and Terraform) has it */
    if (v->n || tfr_type_has_optional(p->want) ||
        (in != out && in != (out == TFR_LIST ? TFR_TUPLE : TFR_OBJECT)))
      return NULL;
    {
      tfr_value *e = tfr_arena_alloc(a, sizeof *e);
      e->type = p->type;
      e->elems = tfr_arena_alloc(a, sizeof *e->elems);
      return e;
    }
  case TFR_SET:
    return v->n || tfr_type_has_optional(p->want) ||
                   (in != TFR_SET && in != TFR_TUPLE)
               ? NULL
               : tfr_set(a, p->elem->type, 0, NULL);
  case TFR_OBJECT:
    break;
  default:
    return NULL;
  }
  if (in != TFR_OBJECT || (v->n && v->n != p->n))
    return NULL;
  for (uint32_t i = 0; i < v->n; i++)
    if (strcmp(v->type->names[i], p->want->names[i]))
      return NULL;
  const tfr_value **elems =
      tfr_arena_alloc(a, (p->n ? p->n : 1) * sizeof *elems);
  for (uint32_t i = 0; i < p->n; i++) {
    const tfr_value *x = v->n ? v->elems[i] : NULL; /* {} : absent */
    if (!x || (x->flags & TFR_V_NULL))
      elems[i] = p->dflt[i]            ? p->dflt[i]
                 : x || p->optional[i] ? p->kids[i]->null
                                       : NULL;
    else
      elems[i] = from_default(a, p->kids[i], x);
    if (!elems[i])
      return NULL;
  }
  tfr_value *o = tfr_arena_alloc(a, sizeof *o);
  o->type = p->type;
  o->n = p->n;
  o->elems = elems;
  return o;
}

static const struct fv_plan *plan(tfr_arena *a, const tfr_type *want,
                                  const struct tfr_defaults *d) {
  switch (want->kind) {
  case TFR_DYNAMIC:
    return NULL;
  case TFR_BOOL:
    return &plan_bool;
  case TFR_NUMBER:
    return &plan_number;
  case TFR_STRING:
    return &plan_string;
  default:
    break;
  }
  struct fv_plan *p = tfr_arena_alloc(a, sizeof *p);
  const char *err = NULL;
  p->want = want;
  p->type = tfr_type_plain(a, want);
  p->null = tfr_null(a, p->type);
  switch (want->kind) {
  case TFR_LIST:
  case TFR_SET:
  case TFR_MAP:
    p->elem = plan(a, want->elem, child(d, ""));
    return p->elem ? p : NULL;
  case TFR_TUPLE:
  case TFR_OBJECT:
    break;
  default:
    return p;
  }
  uint32_t n = want->n;
  p->n = n;
  p->kids = tfr_arena_alloc(a, (n ? n : 1) * sizeof *p->kids);
  bool obj = want->kind == TFR_OBJECT;
  uint32_t *lens = tfr_arena_alloc(a, (n ? n : 1) * sizeof *lens);
  const tfr_value **dflt = tfr_arena_alloc(a, (n ? n : 1) * sizeof *dflt);
  bool *optional = tfr_arena_alloc(a, (n ? n : 1) * sizeof *optional);
  for (uint32_t i = 0; i < n; i++) {
    char index[16] = "";
    if (!obj)
      snprintf(index, sizeof index, "%u", i);
    const char *key = obj ? want->names[i] : index;
    const struct tfr_defaults *cd = child(d, key);
    p->kids[i] = plan(a, want->types[i], cd);
    if (!p->kids[i])
      return NULL;
    if (!obj)
      continue;
    lens[i] = (uint32_t)strlen(key);
    optional[i] = want->optional && want->optional[i];
    const tfr_value *dv = default_of(d, key);
    /* an empty collection in a default, converted to a type with
    ** optional attributes, keeps them in its type (cty's conversion of an
    ** empty map, for one), and so does the object's type, which the
    ** general path (and Terraform) builds from the values: left to it */
    if (dv && tfr_type_has_optional(want->types[i]) && empty_inside(dv))
      return NULL;
    if (dv && !(dflt[i] = from_default(a, p->kids[i], dv))) {
      dflt[i] = conv_convert(a, cd ? conv_apply_defaults(a, dv, cd) : dv,
                             want->types[i], &err);
      if (!dflt[i])
        return NULL;
    }
    if (dflt[i] && !tfr_type_equal(dflt[i]->type, p->kids[i]->type))
      return NULL; /* the same, from any other conversion */
  }
  p->lens = lens;
  p->dflt = dflt;
  p->optional = optional;
  for (uint32_t i = 0; i < n && obj; i++) {
    uint8_t *sl = &p->slot[key_slot(want->names[i], lens[i])];
    *sl = *sl || i >= 254 ? 255 : (uint8_t)(i + 1);
  }
  return p;
}

const struct fv_plan *fv_plan_new(tfr_arena *a, const tfr_type *want,
                                  const struct tfr_defaults *defaults) {
  return plan(a, want, defaults);
}

/* ---- the reader -------------------------------------------------------- */

/* What a value read only to check it, or one that failed to convert,
** stands for: never part of a result. */
static const tfr_value skipped = {.type = &tfr_t_dynamic, .flags = TFR_V_NULL};
#define SKIP (&skipped)

struct key {
  const char *s;
  uint32_t n, order;
};

struct rd {
  tfr_arena *a;
  struct src_file *src;
  struct src_cursor cur; /* line numbers, counted as the reading goes */
  uint32_t released;     /* pages before this were given back */
  struct fast_scan s;
  int depth;
  bool bad;                /* outside the subset: the grammar reads the file */
  bool failed;             /* does not convert: the general path says why */
  bool dropped;            /* an object's attribute its type does not
                              declare was left out (Terraform drops it) */
  const tfr_value **stack; /* elements being gathered (malloc'd) */
  uint32_t top, cap;
  struct key *keys; /* map keys being gathered (malloc'd) */
  uint32_t ktop, kcap;
  struct key *jkeys; /* a JSON object's keys, for repeats */
  uint32_t jtop, jcap;
  const tfr_value *small[1000]; /* the integers 0..999, shared */
  struct string_slot *strings;  /* recent ASCII strings, by hash: long
                                   lists repeat their values */
  size_t nstrings;              /* slots: a power of two */
};

#define STRING_SLOTS 32768 /* at most; a power of two */

struct string_slot {
  uint64_t hash; /* compared before the value is looked at */
  const tfr_value *v;
};

/* A hash of n bytes, eight at a time. */
static uint64_t hash_bytes(const char *s, uint32_t n) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
  uint32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    h = (h ^ w) * 0xFF51AFD7ED558CCDull;
    h ^= h >> 32;
  }
  uint64_t w = 0;
  memcpy(&w, s + i, n - i);
  h = (h ^ w) * 0xC4CEB9FE1A85EC53ull;
  return h ^ (h >> 29);
}

static const tfr_value *bad(struct rd *r) {
  r->bad = true;
  return NULL;
}

static const tfr_value *fail(struct rd *r) {
  r->failed = true;
  return SKIP;
}

static void *grow(void *v, uint32_t *cap, size_t size) {
  *cap = *cap ? *cap * 2 : 256;
  v = heap_realloc(v, *cap * size);
  return v;
}

/* Every megabyte or so: count the lines read so far, and give the pages
** behind back (a mapped file only). */
static void progress(struct rd *r) {
  if (r->s.pos - r->released < (1u << 20) || !r->src->mapped)
    return;
  uint32_t at = r->s.pos - 4096; /* a token may be looked at again */
  if (at <= r->cur.byte)
    return;
  src_pos_seq(r->src, at, &r->cur);
  src_release(r->src, at);
  r->released = r->s.pos;
}

static void push(struct rd *r, const tfr_value *v) {
  if (r->top == r->cap)
    r->stack = grow(r->stack, &r->cap, sizeof *r->stack);
  r->stack[r->top++] = v;
}

static bool punct(const struct fast_tok *k, char ch) {
  return k->kind == FT_PUNCT && k->ch == ch;
}

static bool word(struct rd *r, const struct fast_tok *k, const char *w) {
  size_t n = strlen(w);
  return k->end - k->start == n && !memcmp(r->s.t + k->start, w, n);
}

/* The elements gathered since from, moved into the arena.  A long list
** that fills the whole stack (a tfvars file's big list) takes the stack
** itself, which the arena frees: no copy, no second list in memory. */
static const tfr_value *const *elems(struct rd *r, uint32_t from) {
  uint32_t n = r->top - from;
  if (from == 0 && n >= 65536) {
    const tfr_value **e = heap_realloc(r->stack, n * sizeof *e);
    tfr_arena_on_free(r->a, free, e);
    r->stack = NULL;
    r->top = r->cap = 0;
    return e;
  }
  const tfr_value **e = tfr_arena_alloc_raw(r->a, (n ? n : 1) * sizeof *e);
  if (n)
    memcpy(e, r->stack + from, n * sizeof *e);
  r->top = from;
  return e;
}

static tfr_value *new_value(struct rd *r, const tfr_type *t, uint32_t n) {
  tfr_value *v = tfr_arena_alloc(r->a, sizeof *v);
  v->type = t;
  v->n = n;
  return v;
}

/* A primitive value converted to the plan's type. */
static const tfr_value *primitive(struct rd *r, const struct fv_plan *p,
                                  const tfr_value *v) {
  int kind = p->want->kind;
  if (kind == v->type->kind)
    return v;
  if (kind != TFR_STRING && kind != TFR_NUMBER && kind != TFR_BOOL)
    return fail(r);
  const char *err = NULL;
  const tfr_value *c = conv_convert(r->a, v, p->want, &err);
  return c ? c : fail(r);
}

static const tfr_value *number(struct rd *r, const struct fv_plan *p,
                               const struct fast_tok *k, bool neg) {
  const char *s = r->s.t + k->start;
  uint32_t n = k->end - k->start;
  if (!p) /* only an exponent can be out of range */
    return memchr(s, 'e', n) || memchr(s, 'E', n)
               ? num_parse(r->a, s, n) ? SKIP : bad(r)
               : SKIP;
  long small = -1;
  if (!neg && n <= 3) {
    small = 0;
    for (uint32_t i = 0; i < n && small >= 0; i++)
      small = s[i] >= '0' && s[i] <= '9' ? small * 10 + (s[i] - '0') : -1;
  }
  const tfr_value *v = small >= 0 ? r->small[small] : NULL;
  if (!v) {
    const struct tfr_num *x = num_parse(r->a, s, n);
    if (!x)
      return bad(r);
    tfr_value *nv = new_value(r, &tfr_t_number, 0);
    nv->num = neg ? num_neg(r->a, x) : x;
    v = nv;
    if (small >= 0)
      r->small[small] = v;
  }
  return primitive(r, p, v);
}

static bool ascii(const char *s, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if ((unsigned char)s[i] >= 0x80)
      return false;
  return true;
}

/* A string value as tfr_string makes it (NFC), in one allocation when it
** is ASCII. */
static const tfr_value *string_value(struct rd *r, const char *s, uint32_t n) {
  if (!ascii(s, n))
    return tfr_string(r->a, s, n);
  struct string_slot *slot = NULL;
  uint64_t h = 0;
  if (n <= 64) { /* the same value again: one copy, shared */
    h = hash_bytes(s, n);
    slot = &r->strings[h & (r->nstrings - 1)];
    if (slot->v && slot->hash == h && slot->v->n == n &&
        !memcmp(slot->v->s, s, n))
      return slot->v;
  }
  tfr_value *v = tfr_arena_alloc_raw(r->a, sizeof *v + n + 1);
  memset(v, 0, sizeof *v);
  char *copy = (char *)(v + 1);
  memcpy(copy, s, n);
  copy[n] = '\0';
  v->type = &tfr_t_string;
  v->s = copy;
  v->n = n;
  if (slot)
    *slot = (struct string_slot){h, v};
  return v;
}

static const tfr_value *string(struct rd *r, const struct fv_plan *p,
                               const struct fast_tok *k) {
  if (!p)
    return SKIP;
  uint32_t n;
  const char *s = fast_str_text(r->a, r->s.t, k, &n);
  return primitive(r, p, string_value(r, s, n));
}

static const tfr_value *value(struct rd *r, const struct fv_plan *p, bool nl);

/* p when its type can take a sequence (seq: list, set, tuple) or a
** mapping (object, map); else the conversion fails and NULL: the value
** is only checked. */
static const struct fv_plan *taking(struct rd *r, const struct fv_plan *p,
                                    bool seq) {
  if (!p)
    return NULL;
  int k = p->want->kind;
  if (seq ? k == TFR_LIST || k == TFR_SET || k == TFR_TUPLE
          : k == TFR_OBJECT || k == TFR_MAP)
    return p;
  fail(r);
  return NULL;
}

/* The list, set or tuple of the plan from the elements gathered since
** from (of a sequence read with plan p, of kind p's). */
static const tfr_value *sequence(struct rd *r, const struct fv_plan *p,
                                 int kind, uint32_t from) {
  uint32_t n = r->top - from;
  if (!p || r->failed || (kind == TFR_TUPLE && n != p->n)) {
    r->top = from;
    return p && !r->failed ? fail(r) : SKIP;
  }
  const tfr_value *const *e = elems(r, from);
  if (kind == TFR_SET)
    return tfr_set(r->a, p->elem->type, n, e);
  tfr_value *v = new_value(r, p->type, n);
  v->elems = e;
  return v;
}

/* "[" elements "]": newlines do not matter inside. */
static const tfr_value *tuple(struct rd *r, const struct fv_plan *p) {
  p = taking(r, p, true);
  int kind = p ? p->want->kind : -1;
  uint32_t from = r->top, i = 0;
  struct fast_tok k;
  struct fast_scan at = r->s;
  fast_lex(&r->s, false, &k);
  if (!punct(&k, ']')) {
    r->s = at;
    for (;; i++) {
      const struct fv_plan *ep = NULL;
      if (p && !r->failed)
        ep = kind != TFR_TUPLE ? p->elem : i < p->n ? p->kids[i] : NULL;
      const tfr_value *v = value(r, ep, false);
      if (!v)
        return NULL;
      push(r, v);
      progress(r);
      fast_lex(&r->s, false, &k);
      if (punct(&k, ']'))
        break;
      if (!punct(&k, ','))
        return bad(r);
      at = r->s;
      fast_lex(&r->s, false, &k);
      if (punct(&k, ']'))
        break;
      r->s = at;
    }
  }
  return sequence(r, p, kind, from);
}

/* The index of attribute key in the object plan, or -1. */
static long attr_index(const struct fv_plan *p, const char *key, uint32_t n) {
  const char *const *names = p->want->names;
  unsigned sl = p->slot[key_slot(key, n)];
  if (sl == 0)
    return -1; /* no attribute has this hash */
  if (sl != 255) {
    long i = sl - 1;
    return p->lens[i] == n && !memcmp(names[i], key, n) ? i : -1;
  }
  return tfr_type_attr(p->want, key, n); /* two names share the slot */
}

static int cmp_key(const void *x, const void *y) {
  const struct key *a = x, *b = y;
  int c = str_cmp_bytes(a->s, a->n, b->s, b->n);
  if (!c)
    c = a->order < b->order ? -1 : 1;
  return c;
}

/* A map from the keys and values gathered since kfrom and from: sorted
** by key, the last of repeated keys kept. */
static const tfr_value *map(struct rd *r, const struct fv_plan *p,
                            uint32_t kfrom, uint32_t from) {
  uint32_t n = r->ktop - kfrom;
  struct key *keys = r->keys + kfrom;
  for (uint32_t i = 0; i < n; i++)
    keys[i].order = i;
  if (n > 1)
    qsort(keys, n, sizeof *keys, cmp_key);
  const char **kk = tfr_arena_alloc_raw(r->a, (n ? n : 1) * sizeof *kk);
  uint32_t *ll = tfr_arena_alloc_raw(r->a, (n ? n : 1) * sizeof *ll);
  const tfr_value **vv = tfr_arena_alloc_raw(r->a, (n ? n : 1) * sizeof *vv);
  uint32_t out = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (i + 1 < n && keys[i + 1].n == keys[i].n &&
        !memcmp(keys[i + 1].s, keys[i].s, keys[i].n))
      continue;                                         /* a later one wins */
    kk[out] = string_value(r, keys[i].s, keys[i].n)->s; /* NUL-ended */
    ll[out] = keys[i].n;
    vv[out++] = r->stack[from + keys[i].order];
  }
  r->top = from;
  r->ktop = kfrom;
  tfr_value *v = new_value(r, p->type, out);
  v->keys = kk;
  v->keylens = ll;
  v->elems = vv;
  return v;
}

/* An object of the plan's type from the attribute values in the slots
** from..from+n: absent and null ones get their default. */
static const tfr_value *object_of(struct rd *r, const struct fv_plan *p,
                                  uint32_t from) {
  for (uint32_t i = 0; i < p->n; i++) {
    const tfr_value **slot = &r->stack[from + i];
    if (*slot && *slot != p->kids[i]->null)
      continue;
    if (p->dflt[i])
      *slot = p->dflt[i];
    else if (*slot || p->optional[i])
      *slot = p->kids[i]->null;
    else
      return fail(r); /* a required attribute is missing */
  }
  tfr_value *v = new_value(r, p->type, p->n);
  v->elems = elems(r, from);
  return v;
}

/* An object key: a bare name or a quoted string (NFC, like the general
** path's keys); NULL when it is something else. */
static const char *key_text(struct rd *r, const struct fast_tok *k,
                            uint32_t *n) {
  if (k->kind == FT_IDENT) {
    if (word(r, k, "true") || word(r, k, "false") || word(r, k, "null") ||
        word(r, k, "for"))
      return NULL;
    *n = k->end - k->start;
    return r->s.t + k->start;
  }
  if (k->kind != FT_STR)
    return NULL;
  const char *s = fast_str_text(r->a, r->s.t, k, n);
  if (memchr(s, '\0', *n))
    return NULL; /* the general path's keys end at a NUL: keep its answer */
  if (ascii(s, *n))
    return s;
  const tfr_value *v = tfr_string(r->a, s, *n);
  *n = v->n;
  return v->s;
}

/* Read a member's value with the plan its key names, and keep it: an
** object's attribute in its slot (a repeated key: the last wins), a
** map's entry with its key.  False when the value is outside the subset. */
static bool put_member(struct rd *r, const struct fv_plan *p, int kind,
                       uint32_t from, const char *key, uint32_t klen,
                       const tfr_value *(*read)(struct rd *r,
                                                const struct fv_plan *p)) {
  bool live = p && !r->failed;
  long i = live && kind == TFR_OBJECT ? attr_index(p, key, klen) : -1;
  r->dropped |= live && kind == TFR_OBJECT && i < 0;
  const struct fv_plan *ep = !live             ? NULL
                             : kind == TFR_MAP ? p->elem
                             : i >= 0          ? p->kids[i]
                                               : NULL;
  const tfr_value *v = read(r, ep);
  if (!v)
    return false;
  if (live && kind == TFR_MAP) {
    if (r->ktop == r->kcap)
      r->keys = grow(r->keys, &r->kcap, sizeof *r->keys);
    r->keys[r->ktop++] = (struct key){key, klen, 0};
    push(r, v);
  } else if (i >= 0) {
    r->stack[from + (uint32_t)i] = v;
  }
  return true;
}

/* The object or map of the plan from the members gathered since from
** (and kfrom, a map's keys). */
static const tfr_value *mapping(struct rd *r, const struct fv_plan *p, int kind,
                                uint32_t from, uint32_t kfrom) {
  if (!p || r->failed) {
    r->top = from;
    r->ktop = kfrom;
    return SKIP;
  }
  if (kind == TFR_MAP) {
    if (r->ktop == kfrom) {
      r->top = from;
      return new_value(r, p->type, 0);
    }
    return map(r, p, kfrom, from);
  }
  const tfr_value *v = object_of(r, p, from);
  r->top = from;
  return v;
}

/* A value on the line of its key or name (newlines matter there). */
static const tfr_value *member_value(struct rd *r, const struct fv_plan *p) {
  return value(r, p, true);
}

/* "{" [NEWLINE] [items [sep]] "}", sep being ",", NEWLINE or both. */
static const tfr_value *object(struct rd *r, const struct fv_plan *p) {
  p = taking(r, p, false);
  int kind = p ? p->want->kind : -1;
  uint32_t from = r->top, kfrom = r->ktop;
  if (p && kind == TFR_OBJECT)
    for (uint32_t i = 0; i < p->n; i++)
      push(r, NULL);
  struct fast_tok k;
  fast_lex(&r->s, true, &k);
  if (k.kind == FT_NL)
    fast_lex(&r->s, true, &k);
  while (!punct(&k, '}')) {
    uint32_t klen;
    const char *key = key_text(r, &k, &klen);
    if (!key)
      return bad(r);
    fast_lex(&r->s, true, &k);
    if (!punct(&k, '=') && !punct(&k, ':'))
      return bad(r);
    if (!put_member(r, p, kind, from, key, klen, member_value))
      return bad(r);
    progress(r);
    fast_lex(&r->s, true, &k);
    if (punct(&k, ',')) {
      fast_lex(&r->s, true, &k);
      if (k.kind == FT_NL)
        fast_lex(&r->s, true, &k);
    } else if (k.kind == FT_NL) {
      fast_lex(&r->s, true, &k);
    } else if (!punct(&k, '}')) {
      return bad(r);
    }
  }
  return mapping(r, p, kind, from, kfrom);
}

/* A value of the subset, converted with plan p (NULL: only checked).
** NULL when it is outside the subset.  Whatever follows it is the
** caller's to check: only tokens that cannot continue an expression. */
static const tfr_value *value(struct rd *r, const struct fv_plan *p, bool nl) {
  if (++r->depth > MAX_DEPTH)
    return bad(r);
  if (r->failed)
    p = NULL;
  struct fast_tok k;
  const tfr_value *v = NULL;
  fast_lex(&r->s, nl, &k);
  switch (k.kind) {
  case FT_NUM:
    v = number(r, p, &k, false);
    break;
  case FT_STR:
    v = string(r, p, &k);
    break;
  case FT_IDENT:
    if (word(r, &k, "null"))
      v = p ? p->null : SKIP;
    else if (word(r, &k, "true") || word(r, &k, "false"))
      v = p ? primitive(r, p, tfr_bool(word(r, &k, "true"))) : SKIP;
    else
      v = bad(r); /* a reference, a call, a for expression */
    break;
  case FT_PUNCT:
    if (k.ch == '[') {
      v = tuple(r, p);
    } else if (k.ch == '{') {
      v = object(r, p);
    } else if (k.ch == '-') {
      struct fast_tok d;
      fast_lex(&r->s, nl, &d);
      v = d.kind == FT_NUM ? number(r, p, &d, true) : bad(r);
    } else {
      v = bad(r);
    }
    break;
  default:
    v = bad(r);
  }
  r->depth--;
  return r->bad ? NULL : v;
}

/* ---- JSON ---------------------------------------------------------------- */

/*
** The same for JSON tfvars (.tfvars.json): objects, arrays, numbers,
** true, false and null, and strings, read as Terraform reads them there
** (literally, with no template).  Anything else (a repeated key, a "//"
** comment key, a bad escape, a syntax error) is left to the general
** path, which reports what there is to report.
*/

/* Whether two of the n keys are the same (what that means is the
** general path's to say: a repeated argument, a repeated JSON key). */
static bool repeated_keys(const struct key *k, size_t n) {
  size_t cap = 16;
  while (cap < 2 * n)
    cap *= 2;
  uint32_t *slot = heap_calloc(cap, sizeof *slot); /* index + 1; 0: empty */
  bool dup = false;
  for (size_t i = 0; i < n && !dup; i++) {
    size_t h = str_hash(k[i].s, k[i].n) & (cap - 1);
    for (; slot[h] && !dup; h = (h + 1) & (cap - 1)) {
      const struct key *o = &k[slot[h] - 1];
      dup = o->n == k[i].n && !memcmp(o->s, k[i].s, k[i].n);
    }
    slot[h] = (uint32_t)i + 1;
  }
  free(slot);
  return dup;
}

static void json_ws(struct rd *r) {
  const char *t = r->s.t;
  uint32_t i = r->s.pos, n = r->s.len;
  while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\n'))
    i++;
  r->s.pos = i;
}

/* The next byte after whitespace, consumed when it is ch. */
static bool json_eat(struct rd *r, char ch) {
  json_ws(r);
  if (r->s.pos < r->s.len && r->s.t[r->s.pos] == ch) {
    r->s.pos++;
    return true;
  }
  return false;
}

/* A string: its bytes (in the source, or decoded into the arena when it
** has escapes), or NULL when it is not a valid string. */
static const char *json_str(struct rd *r, uint32_t *n) {
  json_ws(r);
  const char *t = r->s.t;
  uint32_t i = r->s.pos, len = r->s.len;
  if (i >= len || t[i] != '"')
    return NULL;
  uint32_t open = i++;
  bool esc = false;
  while (i < len && t[i] != '"' && (unsigned char)t[i] >= 0x20) {
    if (t[i] == '\\') {
      esc = true;
      if (++i >= len || (unsigned char)t[i] < 0x20)
        return NULL;
    }
    i++;
  }
  if (i >= len || t[i] != '"')
    return NULL;
  r->s.pos = i + 1;
  if (!esc) {
    *n = i - open - 1;
    return t + open + 1;
  }
  char *out = tfr_arena_alloc_raw(r->a, i + 1 - open);
  if (json_unescape(t + open, i + 1 - open, out, n))
    return NULL; /* a bad escape: the general path reports it */
  return out;
}

static const tfr_value *json_value(struct rd *r, const struct fv_plan *p);

static const tfr_value *json_array(struct rd *r, const struct fv_plan *p) {
  p = taking(r, p, true);
  int kind = p ? p->want->kind : -1;
  uint32_t from = r->top, i = 0;
  if (!json_eat(r, ']')) {
    for (;; i++) {
      const struct fv_plan *ep = NULL;
      if (p && !r->failed)
        ep = kind != TFR_TUPLE ? p->elem : i < p->n ? p->kids[i] : NULL;
      const tfr_value *v = json_value(r, ep);
      if (!v)
        return NULL;
      push(r, v);
      progress(r);
      if (json_eat(r, ']'))
        break;
      if (!json_eat(r, ','))
        return bad(r);
    }
  }
  return sequence(r, p, kind, from);
}

static const tfr_value *json_object(struct rd *r, const struct fv_plan *p) {
  p = taking(r, p, false);
  int kind = p ? p->want->kind : -1;
  uint32_t from = r->top, kfrom = r->ktop, jfrom = r->jtop;
  if (p && kind == TFR_OBJECT)
    for (uint32_t i = 0; i < p->n; i++)
      push(r, NULL);
  if (!json_eat(r, '}')) {
    for (;;) {
      uint32_t klen;
      const char *key = json_str(r, &klen);
      if (!key || memchr(key, '\0', klen) || !json_eat(r, ':'))
        return bad(r);         /* the general path's keys end at a NUL */
      if (!ascii(key, klen)) { /* as the general path's keys: NFC */
        const tfr_value *k = tfr_string(r->a, key, klen);
        key = k->s;
        klen = k->n;
      }
      if (r->jtop == r->jcap)
        r->jkeys = grow(r->jkeys, &r->jcap, sizeof *r->jkeys);
      r->jkeys[r->jtop++] = (struct key){key, klen, 0};
      if (!put_member(r, p, kind, from, key, klen, json_value))
        return bad(r);
      progress(r);
      if (json_eat(r, '}'))
        break;
      if (!json_eat(r, ','))
        return bad(r);
    }
  }
  bool dup = repeated_keys(r->jkeys + jfrom, r->jtop - jfrom);
  r->jtop = jfrom;
  return dup ? bad(r) : mapping(r, p, kind, from, kfrom);
}

static const tfr_value *json_value(struct rd *r, const struct fv_plan *p) {
  if (++r->depth > MAX_DEPTH)
    return bad(r);
  if (r->failed)
    p = NULL;
  json_ws(r);
  const char *t = r->s.t + r->s.pos;
  uint32_t left = r->s.len - r->s.pos;
  const tfr_value *v;
  if (!left) {
    v = bad(r);
  } else if (*t == '{') {
    r->s.pos++;
    v = json_object(r, p);
  } else if (*t == '[') {
    r->s.pos++;
    v = json_array(r, p);
  } else if (*t == '"') {
    uint32_t n;
    const char *s = json_str(r, &n);
    v = !s ? bad(r) : p ? primitive(r, p, string_value(r, s, n)) : SKIP;
  } else if (*t == '-' || (*t >= '0' && *t <= '9')) {
    uint32_t n = 0;
    while (n < left &&
           (t[n] == '-' || t[n] == '+' || t[n] == '.' || t[n] == 'e' ||
            t[n] == 'E' || (t[n] >= '0' && t[n] <= '9')))
      n++;
    r->s.pos += n;
    const struct tfr_num *x =
        json_number_ok(t, n) ? num_parse(r->a, t, n) : NULL;
    if (!x) {
      v = bad(r);
    } else if (!p) {
      v = SKIP;
    } else {
      tfr_value *nv = new_value(r, &tfr_t_number, 0);
      nv->num = x;
      v = primitive(r, p, nv);
    }
  } else {
    uint32_t n = 0;
    while (n < left && ((t[n] >= 'a' && t[n] <= 'z') ||
                        (t[n] >= 'A' && t[n] <= 'Z') || t[n] == '_'))
      n++;
    r->s.pos += n;
    if (n == 4 && !memcmp(t, "null", 4))
      v = p ? p->null : SKIP;
    else if ((n == 4 && !memcmp(t, "true", 4)) ||
             (n == 5 && !memcmp(t, "false", 5)))
      v = p ? primitive(r, p, tfr_bool(*t == 't')) : SKIP;
    else
      v = bad(r);
  }
  r->depth--;
  return r->bad ? NULL : v;
}

/* ---- bodies ------------------------------------------------------------ */

/* Reading a body: the reader, and the attributes read so far. */
struct body {
  struct rd *r;
  struct fv_attr *v;
  uint32_t n, cap;
  fv_plan_fn plan_for;
  void *ctx;
};

static bool body_open(struct body *b, tfr_arena *a, struct src_file *src,
                      fv_plan_fn plan_for, void *ctx) {
  memset(b, 0, sizeof *b);
  if (src->len >= UINT32_MAX - 16)
    return false;
  struct rd *r = heap_calloc(1, sizeof *r);
  r->a = a;
  r->src = src;
  r->nstrings = 64; /* about one slot per 32 bytes of text */
  while (r->nstrings < STRING_SLOTS && r->nstrings * 32 < src->len)
    r->nstrings *= 2;
  r->strings = heap_calloc(r->nstrings, sizeof *r->strings);
  r->s.t = src->text;
  r->s.len = (uint32_t)src->len;
  b->r = r;
  b->plan_for = plan_for;
  b->ctx = ctx;
  return true;
}

/* One attribute: its name's bytes at name, its value read by read (NULL:
** outside the subset). */
static bool body_attr(struct body *b, struct span name,
                      const tfr_value *(*read)(struct rd *r,
                                               const struct fv_plan *p)) {
  struct rd *r = b->r;
  uint32_t start = r->s.pos;
  int line = src_line_seq(r->src, start, &r->cur);
  long tag = 0;
  const struct fv_plan *p =
      b->plan_for(b->ctx, r->s.t + name.start, name.end - name.start, &tag);
  r->failed = r->dropped = false;
  const tfr_value *x = read(r, p);
  if (!x)
    return false;
  if (b->n == b->cap)
    b->v = grow(b->v, &b->cap, sizeof *b->v);
  b->v[b->n++] = (struct fv_attr){name, {start, r->s.pos},
                                  line, p && !r->failed ? x : NULL,
                                  tag,  r->dropped};
  return true;
}

static bool body_close(struct body *b, struct fv_attr **attrs, size_t *nattrs) {
  struct rd *r = b->r;
  struct key *names = heap_alloc((b->n ? b->n : 1) * sizeof *names);
  for (uint32_t i = 0; i < b->n; i++)
    names[i] = (struct key){r->src->text + b->v[i].name.start,
                            b->v[i].name.end - b->v[i].name.start, 0};
  bool ok = !r->bad && !repeated_keys(names, b->n);
  free(names);
  if (ok) {
    src_release(r->src, r->src->len); /* read whole: the values hold it */
    *attrs = b->v;
    *nattrs = b->n;
  } else {
    free(b->v);
  }
  free(r->stack);
  free(r->keys);
  free(r->jkeys);
  free(r->strings);
  free(r);
  return ok;
}

bool fv_read_body(tfr_arena *a, struct src_file *src, fv_plan_fn plan_for,
                  void *ctx, struct fv_attr **attrs, size_t *nattrs) {
  struct body b;
  if (!body_open(&b, a, src, plan_for, ctx))
    return false;
  struct rd *r = b.r;
  if (r->s.len >= 3 && !memcmp(r->s.t, "\xEF\xBB\xBF", 3))
    r->s.pos = 3; /* a leading byte order mark, as HCL ignores it */
  struct fast_tok k;
  for (;;) {
    fast_lex(&r->s, true, &k);
    if (k.kind == FT_NL)
      continue;
    if (k.kind == FT_EOF)
      break;
    struct fast_tok name = k;
    fast_lex(&r->s, true, &k);
    if (name.kind != FT_IDENT || !punct(&k, '=')) {
      r->bad = true; /* a block, or not a body at all */
      break;
    }
    fast_skip(&r->s, true);
    if (!body_attr(&b, (struct span){name.start, name.end}, member_value))
      break;
    fast_lex(&r->s, true, &k);
    if (k.kind == FT_EOF)
      break;
    if (k.kind != FT_NL) {
      r->bad = true;
      break;
    }
  }
  return body_close(&b, attrs, nattrs);
}

bool fv_read_json_body(tfr_arena *a, struct src_file *src, fv_plan_fn plan_for,
                       void *ctx, struct fv_attr **attrs, size_t *nattrs) {
  struct body b;
  if (!body_open(&b, a, src, plan_for, ctx))
    return false;
  struct rd *r = b.r;
  if (!json_eat(r, '{'))
    r->bad = true;
  else if (!json_eat(r, '}'))
    for (;;) {
      json_ws(r);
      uint32_t at = r->s.pos, n;
      const char *key = json_str(r, &n);
      if (key != r->s.t + at + 1 || (n == 2 && !memcmp(key, "//", 2)) ||
          !json_eat(r, ':')) {
        r->bad = true; /* an escaped name; "//" keys are comments */
        break;
      }
      json_ws(r);
      if (!body_attr(&b, (struct span){at + 1, at + 1 + n}, json_value))
        break;
      if (json_eat(r, '}'))
        break;
      if (!json_eat(r, ',')) {
        r->bad = true;
        break;
      }
    }
  json_ws(r);
  if (r->s.pos != r->s.len)
    r->bad = true; /* something after the object */
  return body_close(&b, attrs, nattrs);
}
