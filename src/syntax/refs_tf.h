/*
** An expression's references as Terraform's plan JSON lists them
** (refs_tf.c).
*/
#ifndef TFR_REFS_TF_H
#define TFR_REFS_TF_H

#include <stddef.h>

#include "syntax/ast.h"
#include "tfresolve/arena.h"

/* x's references as jsonconfig's marshalExpression lists them, in
** hcl's order, repeats kept (*n of them; the strings and the array in
** a). */
const char **refs_terraform(tfr_arena *a, const struct ast *x, size_t *n);

#endif
