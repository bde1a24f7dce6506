/*
** Attributes a variable's type drops: an object value converted to an
** object type keeps only the type's attributes, so a misspelt optional
** attribute (`adress_prefix`) silently falls back to its default.  Found
** for -strict (errors) and for OpenTofu's warning about default values.
*/
#ifndef TFR_STRICT_H
#define TFR_STRICT_H

#include "syntax/ast.h"
#include "tfresolve/value.h"

/* One attribute that conversion would drop. */
struct dropped_attr {
  const char *path;       /* the object holding it, from the variable:
                             `["a"].b`, "" at the top (OpenTofu's
                             FormatCtyPath) */
  const char *name;       /* the attribute */
  struct span at;         /* its name, or the expression whose value holds
                             it (not an object constructor) */
  struct span context;    /* the object constructor, or that expression */
  const tfr_type *object; /* the object type it is not in */
  bool constructor;       /* written in an object constructor (else found
                             in a value) */
  bool json;              /* ... of JSON syntax */
};

typedef void (*dropped_fn)(void *ctx, const struct dropped_attr *d);

/*
** Every attribute that converting expression x to type constraint t would
** drop: in object constructors, nested through object, map, tuple and for
** expressions as OpenTofu's lint finds them; and, where a part of x is
** not a constructor (a function call, a reference) and v (x's value, or
** NULL) is given, in that part's value.  In source order.
*/
void strict_dropped(tfr_arena *a, const struct ast *x, const tfr_value *v,
                    const tfr_type *t, dropped_fn fn, void *ctx);

/* The same for a value alone (no expression to say where: each at a span
** of 0). */
void strict_dropped_value(tfr_arena *a, const tfr_value *v, const tfr_type *t,
                          dropped_fn fn, void *ctx);

/* The part of expression x that gives the element at path (as
** conv_convert_path writes it: `.a[1].b`, `["k"]`), through object and
** tuple constructors; the deepest part found when the rest of the path is
** not written out (a function call, a for expression). */
const struct ast *strict_locate(const struct ast *x, const char *path);

/* strict_locate, also saying what of the path is left (*rest: "" when the
** part for the whole path was found). */
const struct ast *strict_locate_rest(const struct ast *x, const char *path,
                                     const char **rest);

/* Where inside value given converting to type constraint t fails, as a
** path (`["b"].size`), or NULL when it converts or the value itself does
** not (Terraform's message names the element only for some mismatches). */
const char *strict_failing_path(tfr_arena *a, const tfr_value *given,
                                const tfr_type *t);

/* The attribute of object type t closest to name (a misspelling of it: at
** most two edits, as OpenTofu suggests; the first of the closest), or
** NULL. */
const char *strict_suggest(const tfr_type *t, const char *name);

#endif
