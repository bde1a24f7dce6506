/*
** Iterations' scratch memory (see scratch.h): a batch released by copying
** what it keeps out to a side arena, resetting the evaluation's arena to
** the batch's mark, and copying it back.
**
** A copy takes only what lies in the memory copied from (the batch's,
** then the side arena's); what is older is pointed to as it is.  A memo
** of what was copied keeps shared parts shared (a value bound once and
** used in many places is one value, not one per use).
*/
#include "eval/scratch.h"
#include "base/heap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag_int.h"
#include "values/number.h"
#include "values/value_int.h"

/* Bytes a batch allocates before it is worth releasing: the scratch's
** bound beyond what the iterations keep. */
#define SCRATCH_BATCH ((size_t)256 << 10)

/* ---- the memo: copied pointers, by address and kind ----------------- */

enum memo_kind { M_VALUE, M_TYPE, M_NUM, M_BYTES, M_PTRS, M_LENS, M_FLAGS };

struct memo_entry {
  uintptr_t from; /* 0: empty */
  void *to;
  size_t n; /* elements (bytes) copied: a longer use copies again */
  unsigned kind;
};

struct scratch_memo {
  struct memo_entry *e;
  size_t cap, n;
};

static size_t memo_hash(uintptr_t p, unsigned kind) {
  uint64_t h = ((uint64_t)p ^ kind) * 0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 20);
}

static struct memo_entry *memo_slot(struct scratch_memo *m, uintptr_t p,
                                    unsigned kind) {
  size_t mask = m->cap - 1;
  for (size_t i = memo_hash(p, kind) & mask;; i = (i + 1) & mask) {
    struct memo_entry *e = &m->e[i];
    if (!e->from || (e->from == p && e->kind == kind))
      return e;
  }
}

static void memo_grow(struct scratch_memo *m) {
  struct scratch_memo g = {heap_calloc(m->cap ? m->cap * 2 : 256, sizeof *g.e),
                           m->cap ? m->cap * 2 : 256, m->n};
  for (size_t i = 0; i < m->cap; i++)
    if (m->e[i].from)
      *memo_slot(&g, m->e[i].from, m->e[i].kind) = m->e[i];
  free(m->e);
  *m = g;
}

/* The copy of p of this kind, at least n long, or NULL. */
static void *memo_get(struct scratch *s, const void *p, unsigned kind,
                      size_t n) {
  struct scratch_memo *m = s->memo;
  if (!m->n)
    return NULL;
  struct memo_entry *e = memo_slot(m, (uintptr_t)p, kind);
  return e->from && e->n >= n ? e->to : NULL;
}

static void memo_put(struct scratch *s, const void *p, unsigned kind, size_t n,
                     void *to) {
  struct scratch_memo *m = s->memo;
  if ((m->n + 1) * 2 > m->cap)
    memo_grow(m);
  struct memo_entry *e = memo_slot(m, (uintptr_t)p, kind);
  if (!e->from)
    m->n++;
  *e = (struct memo_entry){(uintptr_t)p, to, n, kind};
}

static void memo_clear(struct scratch_memo *m) {
  if (m->n)
    memset(m->e, 0, m->cap * sizeof *m->e);
  m->n = 0;
}

/* ---- copying ---------------------------------------------------------- */

/* Whether p lies in the memory copied from. */
static bool moving(const struct scratch *s, const void *p) {
  uintptr_t x = (uintptr_t)p;
  size_t lo = 0, hi = s->nspan;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (x < s->span[mid].lo)
      hi = mid;
    else if (x >= s->span[mid].hi)
      lo = mid + 1;
    else
      return true;
  }
  return false;
}

const char *scratch_bytes(struct scratch *s, const char *p, size_t n) {
  if (!p || !moving(s, p))
    return p;
  char *to = memo_get(s, p, M_BYTES, n);
  if (to)
    return to;
  to = tfr_arena_strndup(s->to, p, n);
  memo_put(s, p, M_BYTES, n, to);
  return to;
}

static const char *copy_name(struct scratch *s, const char *p) {
  return p && moving(s, p) ? scratch_bytes(s, p, strlen(p)) : p;
}

/* The copy of the size bytes at p (which is moving), memoised as kind;
** *fresh says whether it is made now (its pointers still to be moved). */
static void *copy_once(struct scratch *s, const void *p, size_t size,
                       unsigned kind, bool *fresh) {
  void *to = memo_get(s, p, kind, size);
  *fresh = !to;
  if (to)
    return to;
  to = tfr_arena_alloc_raw(s->to, size ? size : 1);
  memcpy(to, p, size);
  memo_put(s, p, kind, size, to);
  return to;
}

static const void *copy_plain(struct scratch *s, const void *p, size_t size,
                              unsigned kind) {
  bool fresh;
  return p && moving(s, p) ? copy_once(s, p, size, kind, &fresh) : p;
}

/* An array of n pointers, kind M_PTRS, each moved by fn. */
static const void *const *
copy_ptrs(struct scratch *s, const void *const *p, size_t n,
          const void *(*fn)(struct scratch *s, const void *x)) {
  if (!p || !moving(s, p))
    return p;
  bool fresh;
  const void **to = copy_once(s, p, n * sizeof *p, M_PTRS, &fresh);
  for (size_t i = 0; fresh && i < n; i++)
    to[i] = fn(s, p[i]);
  return to;
}

static const tfr_type *copy_type(struct scratch *s, const tfr_type *t);

static const void *type_fn(struct scratch *s, const void *t) {
  return copy_type(s, t);
}
static const void *name_fn(struct scratch *s, const void *p) {
  return copy_name(s, p);
}
static const void *value_fn(struct scratch *s, const void *v) {
  return scratch_value(s, v);
}

static const tfr_type *copy_type(struct scratch *s, const tfr_type *t) {
  if (!t || !moving(s, t))
    return t;
  bool fresh;
  tfr_type *to = copy_once(s, t, sizeof *t, M_TYPE, &fresh);
  if (!fresh)
    return to;
  to->elem = copy_type(s, t->elem);
  if (t->kind == TFR_OBJECT) {
    to->names = (const char *const *)copy_ptrs(s, (const void *const *)t->names,
                                               t->n, name_fn);
    to->optional =
        copy_plain(s, t->optional, t->n * sizeof *t->optional, M_FLAGS);
  }
  if (t->kind == TFR_OBJECT || t->kind == TFR_TUPLE)
    to->types = (const tfr_type *const *)copy_ptrs(
        s, (const void *const *)t->types, t->n, type_fn);
  return to;
}

static const struct tfr_num *copy_num(struct scratch *s,
                                      const struct tfr_num *x) {
  if (!x || !moving(s, x))
    return x;
  const struct tfr_num *to = memo_get(s, x, M_NUM, 0);
  if (!to) {
    to = num_from_mpfr_prec(s->to, num_mpfr(x), 0);
    memo_put(s, x, M_NUM, 0, (void *)(uintptr_t)to);
  }
  return to;
}

/* A map's n keys, each keylens[i] bytes (they may hold NULs). */
static const char *const *copy_keys(struct scratch *s, const char *const *k,
                                    const uint32_t *lens, size_t n) {
  if (!k || !moving(s, k))
    return k;
  bool fresh;
  const char **to = copy_once(s, k, n * sizeof *k, M_PTRS, &fresh);
  for (size_t i = 0; fresh && i < n; i++)
    to[i] = scratch_bytes(s, k[i], lens[i]);
  return to;
}

const tfr_value *scratch_value(struct scratch *s, const tfr_value *v) {
  if (!v || !moving(s, v))
    return v;
  bool fresh;
  tfr_value *to = copy_once(s, v, sizeof *v, M_VALUE, &fresh);
  if (!fresh)
    return to;
  to->type = copy_type(s, v->type);
  switch (v->type->kind) {
  case TFR_BOOL:
  case TFR_DYNAMIC:
    break;
  case TFR_NUMBER:
    if (!(v->flags & (TFR_V_NULL | TFR_V_UNKNOWN)))
      to->num = copy_num(s, v->num);
    break;
  case TFR_STRING:
    to->s = scratch_bytes(s, v->s, v->n);
    break;
  default: /* collections, structures: a map's keys too */
    if (v->type->kind == TFR_MAP) {
      to->keys = copy_keys(s, v->keys, v->keylens, v->n);
      to->keylens =
          copy_plain(s, v->keylens, v->n * sizeof *v->keylens, M_LENS);
    }
    to->elems = (const tfr_value *const *)copy_ptrs(
        s, (const void *const *)v->elems, v->n, value_fn);
    break;
  }
  return to;
}

/* ---- batches ---------------------------------------------------------- */

static void batch_start(struct scratch *s) {
  s->mark = arena_mark(s->a);
  s->keeps = arena_keeps(s->a);
  s->dv = s->diags ? s->diags->v : NULL;
  s->dn = s->diags ? s->diags->n : 0;
  s->dsrc = s->diags ? s->diags->nsrc : 0;
  s->dblk = s->diags ? s->diags->nblk : 0;
}

void scratch_begin(struct scratch *s, tfr_arena *a, tfr_diags *diags,
                   const tfr_type **objtypes) {
  memset(s, 0, sizeof *s);
  s->a = a;
  s->diags = diags;
  s->objtypes = objtypes;
  batch_start(s);
}

bool scratch_full(const struct scratch *s) {
  return tfr_arena_used(s->a) - s->mark.total >= SCRATCH_BATCH;
}

/* Whether everything made since the mark may go: nothing was kept and
** the diagnostics are as they were (new ones hold text from the batch). */
static bool releasable(const struct scratch *s) {
  const tfr_diags *d = s->diags;
  return arena_keeps(s->a) == s->keeps &&
         (!d || (d->v == s->dv && d->n == s->dn && d->nsrc == s->dsrc &&
                 d->nblk == s->dblk));
}

/* One copy of the roots: from the memory in s->span into s->to. */
static void copy_roots(struct scratch *s, tfr_arena *to,
                       void (*keep)(void *ud, struct scratch *s), void *ud) {
  s->to = to;
  memo_clear(s->memo);
  keep(ud, s);
}

bool scratch_release(struct scratch *s,
                     void (*keep)(void *ud, struct scratch *s), void *ud) {
  if (!releasable(s)) {
    s->refused++;
    batch_start(s);
    return false;
  }
  if (!s->memo) {
    s->memo = heap_calloc(1, sizeof *s->memo);
  }
  /* (a new side arena each time: its memory goes back at once) */
  s->tmp = tfr_arena_new();
  struct arena_mark empty = arena_mark(s->tmp);
  s->nspan = arena_spans_since(s->a, s->mark, &s->span, &s->capspan);
  copy_roots(s, s->tmp, keep, ud);
  arena_reset(s->a, s->mark);
  if (s->objtypes)
    memset(s->objtypes, 0, VALUE_OBJECT_CACHE * sizeof *s->objtypes);
  s->nspan = arena_spans_since(s->tmp, empty, &s->span, &s->capspan);
  copy_roots(s, s->a, keep, ud);
  tfr_arena_free(s->tmp);
  s->tmp = NULL;
  s->releases++;
  batch_start(s);
  return true;
}

void scratch_end(struct scratch *s) {
  tfr_arena_free(s->tmp);
  if (s->memo)
    free(s->memo->e);
  free(s->memo);
  free(s->span);
  s->tmp = NULL;
  s->memo = NULL;
  s->span = NULL;
}
