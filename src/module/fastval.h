/*
** Tfvars values read straight from the text, against the variable's type.
**
** Most tfvars values are plain literals, and the large ones are long
** lists of objects.  The general path parses them into an AST, evaluates
** that into a value, applies the optional-attribute defaults to get a
** second value, and converts it into a third.  This reader does the three
** in one pass over the text, for the literal subset of the native syntax
** that parse_fast.c reads, and builds only the final value: what
** conv_convert(conv_apply_defaults(eval(expression))) gives, shared
** defaults included.
**
** Whatever it does not cover, it leaves to the general path, which then
** reports what there is to report: an expression outside the subset (the
** whole file is parsed as usual) or a value that does not convert (that
** attribute is evaluated and converted as usual).
*/
#ifndef TFR_FASTVAL_H
#define TFR_FASTVAL_H

#include <stdbool.h>
#include <stddef.h>

#include "values/convert.h"
#include "syntax/source.h"

/* What to build for one declared type: made once per variable. */
struct fv_plan;

/* The plan for a type constraint and its defaults, or NULL when the type
** needs the general path (it has "any" in it). */
const struct fv_plan *fv_plan_new(tfr_arena *a, const tfr_type *want,
                                  const struct tfr_defaults *defaults);

/* One attribute of a tfvars body. */
struct fv_attr {
  struct span name, expr;
  int line;               /* where expr starts */
  const tfr_value *value; /* final value, or NULL: use the general path */
  long tag;               /* what plan_for said of the name */
  bool dropped;           /* value drops an attribute its object type does not
                             declare (what -strict and its warning speak of) */
};

/* The plan for an attribute's name, or NULL (the value is only checked);
** *tag is the caller's to set, for fv_attr.tag. */
typedef const struct fv_plan *(*fv_plan_fn)(void *ctx, const char *name,
                                            size_t len, long *tag);

/*
** Read a native-syntax tfvars body whose every value is in the subset.
** False when some part is not (nothing is reported: the caller parses
** the file as usual); else *attrs (malloc'd: the caller frees it) and *n
** are its attributes, in order, their values converted with plan_for's
** plans.
** The pages of a mapped file are given back as the reading goes
** (src_release): what stays is the values.
*/
bool fv_read_body(tfr_arena *a, struct src_file *src, fv_plan_fn plan_for,
                  void *ctx, struct fv_attr **attrs, size_t *n);

/* The same for a JSON tfvars file (.tfvars.json): one object whose
** members are the attributes. */
bool fv_read_json_body(tfr_arena *a, struct src_file *src, fv_plan_fn plan_for,
                       void *ctx, struct fv_attr **attrs, size_t *n);

#endif
