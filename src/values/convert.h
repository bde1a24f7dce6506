/*
** Type conversion, exactly as go-cty's convert package, plus the
** optional-attribute defaults of type constraints (hcl's typeexpr).
**
** A fast-path twin exists: module/fastval.c converts plain tfvars values
** straight from the source text, without building values first, and
** falls back here on anything else.  The two must agree, diagnostics
** included: the suite's `fastpath` test (tests/fastpath_fuzz.py, on every
** fixture and on random modules) and `large-tfvars` keep them equal;
** the fuzz target fuzz_module runs the fast path under the sanitizers.
*/
#ifndef TFR_CONVERT_H
#define TFR_CONVERT_H

#include "tfresolve/value.h"

/*
** Defaults of optional attributes in a type constraint, as typeexpr's
** Defaults: for an object type, the default value of each optional
** attribute that has one; children for nested types, keyed by attribute
** name (objects), "" (the element of a list, set or map) or the decimal
** index (tuples).
*/
struct tfr_defaults {
  const tfr_type *type;
  uint32_t nvalues;
  const char *const *value_names;
  const tfr_value *const *values;
  uint32_t nchildren;
  const char *const *child_keys;
  const struct tfr_defaults *const *children;
};

/* Apply optional-attribute defaults to v, top-down (typeexpr Defaults
** Apply): absent and null optional attributes with a default get it. */
const tfr_value *conv_apply_defaults(tfr_arena *a, const tfr_value *v,
                                     const struct tfr_defaults *d);

/*
** Convert v to the type constraint want.  On failure returns NULL and sets
** *err to cty's message, with the path of the failing element first, e.g.
** "element 2: attribute \"name\": string required" (Terraform >= 1.10).
*/
const tfr_value *conv_convert(tfr_arena *a, const tfr_value *v,
                              const tfr_type *want, const char **err);

/* Like conv_convert; *path gets the failing element's path as Terraform
** writes it (".a[1].b", "[\"k\"]", "" for the value itself).  The message
** names the path only when the type mismatch itself does. */
const tfr_value *conv_convert_path(tfr_arena *a, const tfr_value *v,
                                   const tfr_type *want, const char **err,
                                   const char **path);

/* cty's FriendlyNameForConstraint of t ("list of any single type"), in
** the arena. */
const char *conv_friendly(tfr_arena *a, const tfr_type *t);

/* The single type all of types unify to (convert.Unify), or NULL. */
const tfr_type *conv_unify(tfr_arena *a, size_t n,
                           const tfr_type *const *types);

#endif
