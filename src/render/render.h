/*
** Rendering values and types: cty's JSON encodings, Terraform's console
** style, YAML.
*/
#ifndef TFR_RENDER_H
#define TFR_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "tfresolve/value.h"

/* cty's JSON type encoding: "string", ["list","number"], ... */
void render_json_type(FILE *out, const tfr_type *t);

struct json_out;
struct tfr_range;
/* A source range as the JSON output writes it (doc/json-format.md). */
void render_json_range(struct json_out *o, const struct tfr_range *r);

/* cty's JSON value encoding (null, numbers exact, sets as arrays in set
** order).  Unknown values print as null. */
void render_json_value(FILE *out, tfr_arena *a, const tfr_value *v);

/* False when JSON cannot represent the value (an infinite number), as
** cty's JSON marshaller refuses it. */
bool render_json_encodable(const tfr_value *v);

/* HCL syntax that sets this value in a tfvars file: strings quoted with
** HCL's escapes (and ${ / %{ doubled), lists and tuples as [...], maps and
** objects as { key = value }.  Owned by the arena. */
const char *render_hcl(tfr_arena *a, const tfr_value *v);
/* The same on one line: [a, b] and { k = v, k2 = w }. */
const char *render_hcl_line(tfr_arena *a, const tfr_value *v);

/* Terraform console style (`terraform console`): tolist([...]),
** tomap({...}), tostring(null), heredocs for multi-line strings.  The
** result is owned by the arena. */
const char *render_console(tfr_arena *a, const tfr_value *v);
/* The same written to f as it is made (a large value is never held whole
** in memory). */
void render_console_to(FILE *f, tfr_arena *a, const tfr_value *v);
/* Its first keep lines (at least one), and in *lines how many it has in
** all: the rest is counted, never held. */
const char *render_console_head(tfr_arena *a, const tfr_value *v, size_t keep,
                                size_t *lines);
/* A YAML document for the value (libyaml): mappings for objects and maps,
** sequences for lists, sets and tuples, exact numbers, strings quoted
** whenever a plain scalar would read as something else.  False when the
** emitter failed. */
bool render_yaml(FILE *out, tfr_arena *a, const tfr_value *v);

#endif
