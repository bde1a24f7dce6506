/*
** OpenTofu's assume* functions (OpenTofu 1.13, internal/lang/funcs/
** assume.go; funcs_assume_tofu, -engine=opentofu): each returns its value
** when an assumption about it holds, refined so that later analysis may
** rely on it, and fails with "assumption was not upheld" when the value
** is known enough to contradict it.  assumeequal returns the assumed
** value.  A refinement cty cannot apply (RefineWith panics, which
** tryApplyRefinement recovers) is that failure.  tfresolve's unknown
** values keep not-null and a string prefix; the collection length bounds
** are checked against known collections and, for unknown ones, kept only
** where they make the value known (a length of exactly 0).
*/
#include <stdint.h>
#include <string.h>

#include "base/strutil.h"
#include "eval/funcs.h"
#include "values/convert.h"
#include "values/number.h"

#define NOT_UPHELD "assumption was not upheld"

static const tfr_type t_list_any = {.kind = TFR_LIST, .elem = &tfr_t_dynamic};
static const tfr_type t_set_any = {.kind = TFR_SET, .elem = &tfr_t_dynamic};
static const tfr_type t_map_any = {.kind = TFR_MAP, .elem = &tfr_t_dynamic};

/* The value parameter of the refining functions: null, unknown and any
** type reach them (makeRefineFunc). */
#define VALUE(t)                                                               \
  { "value", t, FP_ALLOW_NULL | FP_ALLOW_UNKNOWN | FP_ALLOW_DYNAMIC }

/* Whether v is cty.DynamicVal, whose refinements cty ignores. */
static bool is_dynamic_val(const tfr_value *v) {
  return v->type->kind == TFR_DYNAMIC && (v->flags & TFR_V_UNKNOWN);
}

/* The result type of the refining functions: their parameter's
** (function.StaticReturnType). */
static const tfr_type *refine_type(struct fcall *f) {
  return f->spec->params[0].type ? f->spec->params[0].type : &tfr_t_dynamic;
}

/* assumenotnull(value) */
static const tfr_value *fn_notnull(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *v = f->args[0];
  if (v->type->kind == TFR_DYNAMIC) {
    fcall_arg_error(f, 0,
                    "given value must have a known type; consider using the "
                    "\\\"convert\\\" function to specify a type to assume");
    return NULL;
  }
  if (v->flags & TFR_V_NULL) { /* NotNull of a null */
    fcall_arg_error(f, 0, NOT_UPHELD);
    return NULL;
  }
  if (!(v->flags & TFR_V_UNKNOWN) || (v->flags & TFR_V_NOTNULL))
    return v;
  if (v->type->kind == TFR_STRING)
    return tfr_unknown_string_prefix(f->a, "", 0);
  return funcs_unknown_notnull(f->a, v->type);
}

/* assumestringprefix(value, prefix): StringPrefix's checks on the prefix
** cut to what cannot change (SafeKnownPrefix), against a known string's
** text and an unknown one's prefix, each over their common length. */
static const tfr_value *fn_stringprefix(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *v = f->args[0], *p = f->args[1];
  if (is_dynamic_val(v) || (v->flags & TFR_V_NULL))
    return v;
  size_t n = str_safe_prefix(p->s, p->n);
  /* a known string's text, an unknown one's prefix (v->n bytes) */
  size_t common = n < v->n ? n : v->n;
  if (common && memcmp(v->s, p->s, common)) {
    fcall_arg_error(f, 0, NOT_UPHELD);
    return NULL;
  }
  if (!(v->flags & TFR_V_UNKNOWN) || n <= v->n)
    return v;
  return tfr_unknown_string_prefix(f->a, p->s, n);
}

/* A length bound argument i as makeCollectionLength*Func reads it: a
** whole number below math.MaxInt; the error names parameter err_at. */
static bool bound(struct fcall *f, size_t i, size_t err_at, int64_t *out) {
  if (!num_to_int64(f->args[i]->num, out) || *out == INT64_MAX) {
    fcall_arg_error(f, err_at, "must be a whole number between 0 and %lld",
                    (long long)INT64_MAX);
    return false;
  }
  return true;
}

/* The collection v refined to a length in [lo, hi] (has_lo, has_hi: the
** bounds given), as CollectionLengthLowerBound and ...UpperBound. */
static const tfr_value *refine_length(struct fcall *f, const tfr_value *v,
                                      bool has_lo, int64_t lo, bool has_hi,
                                      int64_t hi) {
  if (is_dynamic_val(v))
    return v;
  bool known = !(v->flags & TFR_V_UNKNOWN);
  /* a known null has no length: Length panics */
  bool bad = known && (v->flags & TFR_V_NULL);
  if (!bad && known) {
    int64_t len = (int64_t)v->n;
    bad = (has_lo && lo > len) || (has_hi && hi < len);
  }
  /* assertConsistentLengthBounds: 0 <= lower <= upper */
  int64_t min = has_lo && lo > 0 ? lo : 0;
  bad |= has_hi && hi < min;
  if (bad) {
    fcall_arg_error(f, 0, NOT_UPHELD);
    return NULL;
  }
  if (known)
    return v;
  if (has_hi && hi == 0) { /* a length of 0: the empty collection */
    const tfr_type *t = v->type;
    tfr_value *e = tfr_arena_alloc(f->a, sizeof *e);
    e->type = t->kind == TFR_DYNAMIC ? &t_list_any : t;
    return e;
  }
  return funcs_unknown_notnull(f->a, v->type);
}

/* assume{list,set,map}length(value, min_length, max_length) */
static const tfr_value *fn_length(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  int64_t lo, hi;
  if (!bound(f, 1, 1, &lo) || !bound(f, 2, 2, &hi))
    return NULL;
  return refine_length(f, f->args[0], true, lo, true, hi);
}

/* assume{list,set,map}lengthmin(value, min_length): the error names the
** value parameter (makeCollectionLengthLowerBoundFunc's index 0). */
static const tfr_value *fn_length_min(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  int64_t lo;
  if (!bound(f, 1, 0, &lo))
    return NULL;
  return refine_length(f, f->args[0], true, lo, false, 0);
}

static const tfr_value *fn_length_max(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  int64_t hi;
  if (!bound(f, 1, 0, &hi))
    return NULL;
  return refine_length(f, f->args[0], false, 0, true, hi);
}

/* assumeequal(actual_value, expected_value): the expected value, when the
** actual one converts to its type and is not known to differ. */
static const tfr_type *equal_type(struct fcall *f) { return f->args[1]->type; }

static const tfr_value *fn_equal(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *actual = f->args[0], *want = f->args[1];
  const char *err = NULL;
  const tfr_value *cv = conv_convert(f->a, actual, want->type, &err);
  if (!cv) {
    fcall_arg_error(f, 0,
                    "actual value type %s does not match assumed value type %s",
                    tfr_type_friendly(f->a, actual->type),
                    tfr_type_friendly(f->a, want->type));
    return NULL;
  }
  if (tfr_value_equals(cv, want) == 0) {
    fcall_arg_error(f, 0, "the actual value does not match the assumed value");
    return NULL;
  }
  return want; /* the actual value's other marks: none but secrets here */
}

#define ANY_MARKED(name)                                                       \
  {                                                                            \
    name, NULL,                                                                \
        FP_ALLOW_NULL | FP_ALLOW_UNKNOWN | FP_ALLOW_DYNAMIC | FP_ALLOW_MARKED  \
  }
#define LENGTH(name, t)                                                        \
  {                                                                            \
    name, 3, {VALUE(t), NUM("min_length"), NUM("max_length")}, NULL, NULL,     \
        refine_type, fn_length                                                 \
  }
#define LENGTH_MIN(name, t)                                                    \
  {                                                                            \
    name, 2, {VALUE(t), NUM("min_length")}, NULL, NULL, refine_type,           \
        fn_length_min                                                          \
  }
#define LENGTH_MAX(name, t)                                                    \
  {                                                                            \
    name, 2, {VALUE(t), NUM("max_length")}, NULL, NULL, refine_type,           \
        fn_length_max                                                          \
  }

/* Sorted by name. */
static const struct func_spec specs[] = {
    {"assumeequal",
     2,
     {ANY_MARKED("actual_value"), ANY_MARKED("expected_value")},
     NULL,
     NULL,
     equal_type,
     fn_equal},
    LENGTH("assumelistlength", &t_list_any),
    LENGTH_MAX("assumelistlengthmax", &t_list_any),
    LENGTH_MIN("assumelistlengthmin", &t_list_any),
    LENGTH("assumemaplength", &t_map_any),
    LENGTH_MAX("assumemaplengthmax", &t_map_any),
    LENGTH_MIN("assumemaplengthmin", &t_map_any),
    {"assumenotnull", 1, {VALUE(NULL)}, NULL, NULL, refine_type, fn_notnull},
    LENGTH("assumesetlength", &t_set_any),
    LENGTH_MAX("assumesetlengthmax", &t_set_any),
    LENGTH_MIN("assumesetlengthmin", &t_set_any),
    {"assumestringprefix",
     2,
     {VALUE(&tfr_t_string), {"prefix", &tfr_t_string, 0}},
     NULL,
     NULL,
     refine_type,
     fn_stringprefix},
};

const struct func_group funcs_assume_tofu = {specs,
                                             sizeof specs / sizeof *specs};
