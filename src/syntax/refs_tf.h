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

/* The referenceable address of a static traversal x (attribute access
** and literal keys only, as a depends_on reference) as addrs.ParseRef's
** Subject writes it ("aws_s3_bucket.b" of aws_s3_bucket.b.arn), or ""
** where ParseRef gives an error: what jsonconfig writes for each
** depends_on reference (internal/command/jsonconfig/config.go:454-466). */
const char *refs_terraform_subject(tfr_arena *a, const struct ast *x);

#endif
