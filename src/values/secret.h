/*
** What a diagnostic may print of a sensitive value (issue 31): the one
** place for the words and the decisions.  No value, map key, attribute
** name of a value or type derived from a sensitive value reaches a
** diagnostic (-show-sensitive shows values, not these, as for the source
** lines and function errors hidden before): where Terraform's words
** would quote one, the words stay and the secret part becomes
** SECRET_TEXT, as Terraform writes a sensitive value elsewhere; a source
** line that may hold one is not quoted (tfr_diag.hide_source,
** SECRET_SOURCE_NOTE after the diagnostic); and a note (SECRET_NOTE) says
** why a part is missing.
**
** Used by the renderers (render_diag.c, render_text.c), the function
** errors (eval/funcs.c, funcs_encoding.c), the keys of for expressions
** (eval/diag_values.c), and the module's diagnostics about values
** (resolve.c, tree_walk.c, module_vars.c: -strict's dropped attributes,
** conversion errors of values, module arguments and defaults, a value's
** parse and evaluation errors; varfile_secrets.c: syntax errors in var
** files).
** What stays elsewhere: the values and types the renderers print
** (render_json.c, render_text.c: a sensitive mark prints SECRET_TEXT or
** null unless -show-sensitive), the function errors' own redaction of
** their arguments (funcs.c, funcs_file.c) and type() (funcs_typeconv.c).
*/
#ifndef TFR_SECRET_H
#define TFR_SECRET_H

#include <stdbool.h>
#include <stddef.h>

#include "tfresolve/arena.h"
#include "tfresolve/diag.h"
#include "tfresolve/value.h"

/* What stands for a sensitive value, or a part of one. */
#define SECRET_TEXT "(sensitive value)"

/* After a diagnostic whose source line is not quoted (hide_source). */
#define SECRET_SOURCE_NOTE "(source not shown: it may hold a sensitive value)"

/* The note of a diagnostic in whose words SECRET_TEXT replaced a part. */
#define SECRET_NOTE                                                            \
  "(sensitive value) stands for what this message would quote of a "           \
  "sensitive value (a key, a name or a text)."

/* Whether v, or a part of it, is sensitive. */
bool secret_marked(const tfr_value *v);

/* A path as FormatCtyPath writes it (`["k"].a[0]`) with each map key
** (a step `["..."]`: part of the value) replaced: `[(sensitive value)]`.
** Attribute steps (the type's names) and indexes stay. */
const char *secret_path(tfr_arena *a, const char *path);

/* Whether the quoted part q (n bytes, without its quotes) of msg, whose
** text before it is msg up to q - 1, is secret. */
typedef bool (*secret_part_fn)(void *ud, const char *msg, const char *q,
                               size_t n);

/* msg with each Go-quoted part ("...") that is_secret says is secret
** replaced by SECRET_TEXT (its quotes too); msg itself when none is. */
const char *secret_quoted(tfr_arena *a, const char *msg,
                          secret_part_fn is_secret, void *ud);

/* A conversion error of a value of type constraint t (cty's messages:
** `element "KEY": attribute "x" is required`) with what names a part of
** the value hidden: an element's key, and any quoted name that is not an
** attribute of t (fail closed).  The type's attribute names stay. */
const char *secret_conv_error(tfr_arena *a, const char *err, const tfr_type *t);

/* Diagnostic i of d, about text (len bytes, which its subject's byte
** offsets index) that may hold a secret there: its source line is not
** quoted, and each quoted part of its detail that is in text around the
** subject (what a parser's message quotes of it: a key, an escape, a
** keyword) becomes SECRET_TEXT, with SECRET_NOTE; a part for which keep
** (if not NULL) is true stays (a variable's name). */
void secret_hide_near(tfr_diags *d, size_t i, const char *text, size_t len,
                      secret_part_fn keep, void *ud);

/* Diagnostic i of d: its source line is not quoted. */
void secret_hide_source(tfr_diags *d, size_t i);

/* Diagnostic i of d: detail replaces its detail (a part hidden), and
** SECRET_NOTE is added to its note, once. */
void secret_hide_detail(tfr_diags *d, size_t i, const char *detail);

#endif
