/*
** Types for people: a type constraint as the user wrote it, spaced and
** folded as `terraform fmt` lays it out (src/cli/typefmt.c).
*/
#ifndef TFR_CLI_TYPES_H
#define TFR_CLI_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli_util.h"
#include "tfresolve/tfresolve.h"

/* A type's keyword ("string", "list", "object"...); whether object type
** t's i-th attribute is optional(); the type on one line, spaced as
** `terraform fmt` writes it inside a folded type ("object({ name =
** string, port = optional(number) })"; a tuple type too long to read as
** "tuple of N elements"). */
const char *cli_type_word(const tfr_type *t);
bool cli_attr_optional(const tfr_type *t, size_t i);
void cli_type_flat(struct cli_buf *b, const tfr_type *t);

/* The defaults of a type constraint's optional() attributes, as
** cli_type_text writes them: text(ctx, path) gives the default of the
** attribute at path (".a[0].b", as tfr_resolution_attr_default names it)
** as written in optional(T, DEFAULT), or NULL when it has none. */
struct cli_type_defaults {
  const char *(*text)(void *ctx, const char *path);
  void *ctx;
};
/* A type for people (src/cli/typefmt.c): its expression (tfr_type_expr;
** spaced as in a folded type when `spaced`, to sit beside one) when it is
** short; a longer one folded as `terraform fmt` lays out a type
** constraint, over lines indented by `indent` (cut after its first lines
** when there are many); an enormous tuple type only described.  With d,
** optional() attributes with their defaults.  In the arena. */
const char *cli_type_text(tfr_arena *a, const tfr_type *t, int indent,
                          bool spaced, const struct cli_type_defaults *d);
/* A root variable's type t for people (cli_type_text): its declared type,
** or the part of it at path base (".a[0]"); its optional attributes'
** defaults written in (none for a sensitive variable). */
const char *cli_var_type_text(tfr_arena *a, const struct tfr_resolution *res,
                              const struct tfr_variable *v, const tfr_type *t,
                              const char *base, int indent);

#endif
