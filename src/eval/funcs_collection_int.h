/*
** What the collection functions' files share: funcs_collection.c and
** funcs_sets.c (contains, distinct, index, matchkeys and the set
** functions).  Small helpers, so they are static inline here.
*/
#ifndef TFR_FUNCS_COLLECTION_INT_H
#define TFR_FUNCS_COLLECTION_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/arena_int.h"
#include "eval/funcs.h"
#include "values/number.h"
#include "base/heap.h"

#define MARKS (TFR_V_SENSITIVE | TFR_V_EPHEMERAL)

static inline bool is_null(const tfr_value *v) { return tfr_value_is_null(v); }
static inline bool is_known(const tfr_value *v) {
  return tfr_value_is_known(v);
}
static inline int kind_of(const tfr_value *v) { return v->type->kind; }

static inline bool is_seq(int k) {
  return k == TFR_LIST || k == TFR_SET || k == TFR_TUPLE;
}

static inline const tfr_value *int_value(tfr_arena *a, int64_t i) {
  tfr_value *v = tfr_arena_alloc(a, sizeof *v);
  v->type = &tfr_t_number;
  v->num = num_from_int(a, i);
  return v;
}

/*
** v without its own marks, which are added to *marks, as cty's Unmark:
** the marks of its elements stay where they are.
*/
static inline const tfr_value *unmark(tfr_arena *a, const tfr_value *v,
                                      unsigned *marks) {
  unsigned m = v->flags & MARKS;
  if (!m)
    return v;
  *marks |= m;
  tfr_value *u = tfr_arena_alloc(a, sizeof *u);
  *u = *v;
  u->flags = (uint8_t)(u->flags & ~m);
  return u;
}

static inline const tfr_value *with_marks(tfr_arena *a, const tfr_value *v,
                                          unsigned marks) {
  return marks ? tfr_value_mark(a, v, marks) : v;
}

/*
** cty's function.Call skips the Type function when an argument has type
** any and its parameter does not allow that: the result is of type any.
** funcs.c's call() does that for every function before any type callback
** runs, so this is only a guard in the callbacks that still ask it.
*/
static inline bool dynamic_arg(const struct fcall *f) {
  for (size_t i = 0; i < f->nargs; i++) {
    const struct func_param *p =
        i < (size_t)f->spec->nparams ? &f->spec->params[i] : f->spec->variadic;
    if (kind_of(f->args[i]) == TFR_DYNAMIC && !(p->flags & FP_ALLOW_DYNAMIC))
      return true;
  }
  return false;
}

/* The fixed result type, or any as dynamic_arg() says (a func_type_fn:
** each file that takes its address gets its own copy, which is fine). */
static inline const tfr_type *ty_fixed(struct fcall *f) {
  return dynamic_arg(f) ? &tfr_t_dynamic : f->spec->ret;
}

/* A growable array of values (malloc'd; the owner frees v). */
struct vec {
  const tfr_value **v;
  size_t n, cap;
};

static inline void vec_push(struct vec *x, const tfr_value *v) {
  if (x->n == x->cap) {
    x->cap = x->cap ? 2 * x->cap : 16;
    x->v = heap_realloc(x->v, x->cap * sizeof *x->v);
  }
  x->v[x->n++] = v;
}

#endif
