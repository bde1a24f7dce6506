/*
** What the two files of type conversion share: convert.c (conversions
** of types and values, optional-attribute defaults) and unify.c
** (unification, MismatchMessage).  One struct cctx is passed through
** both for the whole of a conversion call.
*/
#ifndef TFR_CONVERT_INT_H
#define TFR_CONVERT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "values/convert.h"

/* ---- scratch memory and hash tables (convert.c) ------------------------- */

/* Mixes x into the hash h (static inline: no symbol, see is_prim). */
static inline uint64_t mix(uint64_t h, uint64_t x) {
  h ^= x + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 31);
}

/* Pointer-keyed memo: (pointer, tag) -> pointer. */
struct memo_slot {
  const void *key;
  uintptr_t tag;
  const void *val;
};

struct memo {
  struct memo_slot *s;
  size_t cap, len;
};

/* The set of interned types, by structural hash. */
struct tset_slot {
  uint64_t h;
  const tfr_type *t;
};

struct tset {
  struct tset_slot *s;
  size_t cap, len;
};

struct pstep; /* a step of the failing path (convert.c) */
struct dinfo; /* a defaults node, sorted (convert.c) */

/* One conversion call: the arena, the memo tables, and the error. */
struct cctx {
  tfr_arena *a;
  struct memo memo;
  struct tset types;
  const char *err;
  struct pstep *path;
  /*
  ** Small caches of recent answers.  A list's elements ask the same
  ** questions again and again (which object type, can this type convert,
  ** which attribute goes where); each saves a hash lookup or a walk.
  */
  const tfr_type *recent_obj[64]; /* object types built */
  /* Which attribute of an input object type feeds each attribute of an
  ** output object type, for recent pairs of types. */
  struct {
    const tfr_type *in, *out;
    uint32_t *idx; /* per output attribute; UINT32_MAX: absent (malloc) */
  } amap[16];
  /* Recent conversions of compound values: a default value inserted in
  ** many elements is one shared value, converted once. */
  struct {
    const tfr_value *v, *r;
    const tfr_type *out;
    bool unsafe;
  } recent_val[16];
  const struct tfr_defaults *recent_d[4]; /* dinfo_of()'s recent answers */
  struct dinfo *recent_di[4];
  struct {
    const tfr_type *in, *out;
    bool unsafe, res;
  } recent_cc[16]; /* conv_can_conv() */
};

/* ---- types (convert.c) -------------------------------------------------- */

/* The small tests below run at every step of a conversion: static inline
** (as they were static in convert.c), so both files inline them; being
** no symbols, they keep their short names. */

static inline bool is_prim(const tfr_type *t) {
  return t->kind == TFR_BOOL || t->kind == TFR_NUMBER || t->kind == TFR_STRING;
}

static inline bool is_coll(const tfr_type *t) {
  return t->kind == TFR_LIST || t->kind == TFR_SET || t->kind == TFR_MAP;
}

static inline bool is_dyn(const tfr_type *t) { return t->kind == TFR_DYNAMIC; }

static inline bool opt_at(const tfr_type *t, uint32_t i) {
  return t->optional && t->optional[i];
}

/* cty's Type.Equals, with a pointer test first. */
static inline bool type_eq(const tfr_type *x, const tfr_type *y) {
  return x == y || tfr_type_equal(x, y);
}

/* The interned type structurally equal to t (interned per call, so
** that equal types are one pointer). */
const tfr_type *conv_intern(struct cctx *c, const tfr_type *t);

/* Interned collection, object (names sorted; optional may be NULL) and
** tuple types. */
const tfr_type *conv_mk_coll(struct cctx *c, int kind, const tfr_type *elem);
const tfr_type *conv_mk_object(struct cctx *c, size_t n,
                               const char *const *names,
                               const tfr_type *const *types,
                               const bool *optional);
const tfr_type *conv_mk_tuple(struct cctx *c, size_t n,
                              const tfr_type *const *types);

/* Go's %q of s (n bytes), in the arena. */
const char *conv_quote(struct cctx *c, const char *s, size_t n);

/* ---- which conversions exist (convert.c) -------------------------------- */

/* Whether cty's getConversion(in, out, unsafe) exists; equal types count
** as convertible. */
bool conv_can_conv(struct cctx *c, const tfr_type *in, const tfr_type *out,
                   bool unsafe);

/* Equal types, or a conversion exists. */
static inline bool conv_or_eq(struct cctx *c, const tfr_type *in,
                              const tfr_type *out, bool unsafe) {
  return type_eq(in, out) || conv_can_conv(c, in, out, unsafe);
}

/* ---- unification and mismatch messages (unify.c) ------------------------ */

/*
** convert.unify: the type all of types convert to, or NULL.  *all_dynamic
** (if given) is set when cty would convert every value to an unknown of
** dynamic type (unifyAllAsDynamic).
*/
const tfr_type *unify_types(struct cctx *c, size_t n,
                            const tfr_type *const *types, bool unsafe,
                            bool *all_dynamic);

/* convert.MismatchMessage: why got does not convert to want (in the
** arena, or a static string). */
const char *unify_mismatch(struct cctx *c, const tfr_type *got,
                           const tfr_type *want);

#endif
