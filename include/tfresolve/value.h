/*
** libtfresolve: Terraform's value and type system (cty), in C.
**
** Types and values are immutable once built and live in a tfr_arena, so
** they can be shared freely.  The primitive types are static singletons.
*/
#ifndef TFRESOLVE_VALUE_H
#define TFRESOLVE_VALUE_H

#include "tfresolve/export.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tfresolve/arena.h"

#ifdef __cplusplus
extern "C" {
#endif

enum tfr_type_kind {
  TFR_DYNAMIC, /* "any": cty.DynamicPseudoType */
  TFR_BOOL,
  TFR_NUMBER,
  TFR_STRING,
  TFR_LIST,
  TFR_SET,
  TFR_MAP,
  TFR_OBJECT,
  TFR_TUPLE,
};

/*
** A type.  Object attributes are sorted by name (byte order), as cty keeps
** them; `optional` is set only in type constraints (optional(T)).
*/
typedef struct tfr_type {
  uint8_t kind;
  uint32_t n;                          /* attributes / tuple elements */
  const struct tfr_type *elem;         /* list, set, map */
  const char *const *names;            /* object: attribute names, sorted */
  const struct tfr_type *const *types; /* object attrs / tuple elements */
  const bool *optional; /* object: optional(T) attributes, or NULL */
} tfr_type;

extern TFR_API const tfr_type tfr_t_dynamic, tfr_t_bool, tfr_t_number,
    tfr_t_string;

TFR_API const tfr_type *tfr_type_list(tfr_arena *a, const tfr_type *elem);
TFR_API const tfr_type *tfr_type_set(tfr_arena *a, const tfr_type *elem);
TFR_API const tfr_type *tfr_type_map(tfr_arena *a, const tfr_type *elem);
/** An object type; names need not be sorted (they are sorted here) but
 *  must be distinct.  optional may be NULL. */
TFR_API const tfr_type *tfr_type_object(tfr_arena *a, size_t n,
                                        const char *const *names,
                                        const tfr_type *const *types,
                                        const bool *optional);
TFR_API const tfr_type *tfr_type_tuple(tfr_arena *a, size_t n,
                                       const tfr_type *const *types);

TFR_API bool tfr_type_equal(const tfr_type *x, const tfr_type *y);
TFR_API bool tfr_type_is_primitive(const tfr_type *t);
TFR_API bool tfr_type_is_collection(const tfr_type *t); /* list, set, map */
/** True when an object type in t has optional() attributes. */
TFR_API bool tfr_type_has_optional(const tfr_type *t);
/** t without optional() markers: the type of values converted to t. */
TFR_API const tfr_type *tfr_type_plain(tfr_arena *a, const tfr_type *t);
/** True when the type contains "any" anywhere. */
TFR_API bool tfr_type_has_dynamic(const tfr_type *t);
/** Index of an object attribute, or -1. */
TFR_API long tfr_type_attr(const tfr_type *t, const char *name, size_t len);
/** "string", "list of number", "object", ... as cty's FriendlyName. */
TFR_API const char *tfr_type_friendly(tfr_arena *a, const tfr_type *t);
/** Terraform's type expression: "list(string)", "object({a=number})". */
TFR_API const char *tfr_type_expr(tfr_arena *a, const tfr_type *t);

/* ---- values ------------------------------------------------------------ */

enum {
  TFR_V_NULL = 1 << 0,
  TFR_V_UNKNOWN = 1 << 1,
  TFR_V_SENSITIVE = 1 << 2,
  TFR_V_EPHEMERAL = 1 << 3,
  TFR_V_TYPE = 1 << 4,      /* the console's type(x): a string holding the type
                               as Terraform's console prints it */
  TFR_V_TOO_LARGE = 1 << 5, /* with UNKNOWN: a string longer than a value
                               holds (TFR_MAX_STRING), which the evaluator
                               reports as "value too large" */
  TFR_V_NOTNULL = 1 << 6,   /* since 0.2.0, with UNKNOWN: cty's refinement
                               "definitely not null"; an unknown string with
                               it may know its first n bytes (s) */
};

/* The longest string a value holds, in bytes. */
#define TFR_MAX_STRING ((size_t)UINT32_MAX)

struct tfr_num; /* an arbitrary-precision number (MPFR, 512 bits) */

/*
** A value.  Known, non-null values hold, by type kind:
**   bool: b;  number: num;  string: s (n bytes, UTF-8, NFC);
**   list, set, tuple: elems (n);  object: elems (aligned with the type's
**   sorted names);  map: keys (n, sorted, with keylens) and elems.
** Sets are kept deduplicated and in cty's order.
*/
typedef struct tfr_value {
  const tfr_type *type;
  uint8_t flags;
  uint32_t n;
  union {
    bool b;
    const struct tfr_num *num;
    const char *s;
    struct {
      const struct tfr_value *const *elems;
      const char *const *keys;
      const uint32_t *keylens;
    };
  };
} tfr_value;

/**
 * A known number's value as text: the digits Terraform prints (the
 * shortest decimal that reads back to it, no exponent; "-0", "+Inf",
 * "-Inf"), as in JSON output and tostring().  NULL when @p v is not a
 * known, non-null number.
 */
TFR_API const char *tfr_number_text(tfr_arena *a, const tfr_value *v);

/**
 * A known number's value rounded to the nearest double (numbers hold 512
 * bits: large integers and long decimals lose digits here; use
 * tfr_number_text for them).  NaN when @p v is not a known, non-null
 * number.
 */
TFR_API double tfr_number_double(const tfr_value *v);

TFR_API bool tfr_value_is_null(const tfr_value *v);
TFR_API bool tfr_value_is_known(const tfr_value *v); /* not unknown */
/** Known all the way down (no unknown inside). */
TFR_API bool tfr_value_is_wholly_known(const tfr_value *v);

TFR_API const tfr_value *tfr_null(tfr_arena *a, const tfr_type *t);
TFR_API const tfr_value *tfr_unknown(tfr_arena *a, const tfr_type *t);
TFR_API const tfr_value *tfr_bool(bool b);
/** A string; the bytes are copied and NFC-normalised. */
TFR_API const tfr_value *tfr_string(tfr_arena *a, const char *s, size_t n);
/** A string whose bytes are already NFC and owned by the arena. */
TFR_API const tfr_value *tfr_string_nocopy(tfr_arena *a, const char *s,
                                           size_t n);
TFR_API const tfr_value *tfr_list(tfr_arena *a, const tfr_type *elem, size_t n,
                                  const tfr_value *const *elems);
/** Builds a set: deduplicates and orders the elements. */
TFR_API const tfr_value *tfr_set(tfr_arena *a, const tfr_type *elem, size_t n,
                                 const tfr_value *const *elems);
TFR_API const tfr_value *tfr_tuple(tfr_arena *a, size_t n,
                                   const tfr_value *const *elems);
/** An object from attribute names and values in any order (distinct). */
TFR_API const tfr_value *tfr_object(tfr_arena *a, size_t n,
                                    const char *const *names,
                                    const tfr_value *const *vals);
/** A map from keys (any order, distinct) and values of one type. */
TFR_API const tfr_value *tfr_map(tfr_arena *a, const tfr_type *elem, size_t n,
                                 const char *const *keys,
                                 const uint32_t *keylens,
                                 const tfr_value *const *vals);

/** A copy of v with extra marks (TFR_V_SENSITIVE, TFR_V_EPHEMERAL). */
TFR_API const tfr_value *tfr_value_mark(tfr_arena *a, const tfr_value *v,
                                        unsigned marks);
/** v without the given marks, on itself and everything inside it (cty's
** UnmarkDeep); the marks it had are added to *had (may be NULL). */
TFR_API const tfr_value *tfr_value_unmark(tfr_arena *a, const tfr_value *v,
                                          unsigned marks, unsigned *had);
/** The marks of v and of everything inside it. */
TFR_API unsigned tfr_value_marks(const tfr_value *v);
/** True when v or anything inside it carries the mark. */
TFR_API bool tfr_value_has_mark(const tfr_value *v, unsigned mark);

/** cty's Equals for known values: same type and same content. */
TFR_API bool tfr_value_equal(const tfr_value *x, const tfr_value *y);

/**
 * cty's Value.Equals, unknown values and their refinements included
 * (marks aside): 1 equal, 0 not equal, -1 not known.
 */
TFR_API int tfr_value_equals(const tfr_value *x, const tfr_value *y);

/**
 * An unknown string that is not null and starts with the n bytes at
 * prefix (cty's Refine().NotNull().StringPrefix(): cut to what cannot
 * change when more text follows), in a.
 */
TFR_API const tfr_value *
tfr_unknown_string_prefix(tfr_arena *a, const char *prefix, size_t n);
/** A total order used to sort sets the way cty does. */
TFR_API int tfr_value_set_order(const tfr_value *x, const tfr_value *y);

#ifdef __cplusplus
}
#endif
#endif
