/*
** Type constraint expressions: `list(object({a = optional(number, 1)}))`
** and friends, parsed from an expression's AST as hcl's typeexpr does.
*/
#ifndef TFR_TYPEEXPR_H
#define TFR_TYPEEXPR_H

#include <stdbool.h>

#include "syntax/ast.h"
#include "values/convert.h"
#include "tfresolve/diag.h"
#include "tfresolve/value.h"

/*
** The type that x describes, or NULL after reporting errors.  constraint
** allows "any"; with_defaults allows optional(T, DEFAULT), whose defaults
** (evaluated as constants and converted to T) go to *defaults (NULL when
** there are none).
*/
const tfr_type *typeexpr_parse(tfr_arena *a, tfr_diags *diags,
                               struct src_file *src, const struct ast *x,
                               bool constraint, bool with_defaults,
                               const struct tfr_defaults **defaults);

/* A variable's `type`: a type constraint with defaults, where the bare
** keywords list and map still mean list(any) and map(any).  product
** ("Terraform", "OpenTofu") is named in the error for a quoted type. */
const tfr_type *typeexpr_variable(tfr_arena *a, tfr_diags *diags,
                                  struct src_file *src, const struct ast *x,
                                  const char *product,
                                  const struct tfr_defaults **defaults);

#endif
