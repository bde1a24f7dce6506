/*
** What the encoding functions' files share: funcs_encoding.c (base64,
** URL, CSV, JSON, gzip), funcs_yaml.c (yamldecode), funcs_yaml_emit.c
** (yamlencode).
*/
#ifndef TFR_FUNCS_ENCODING_INT_H
#define TFR_FUNCS_ENCODING_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eval/funcs.h"
#include "values/number.h"

/* The length of the UTF-8 sequence a lead byte starts (0: not a lead):
** the YAML emitter's view, which takes 0xF8.. as 0. */
size_t ywidth(unsigned char c);

/* Code point cp appended to b in UTF-8. */
void put_cp(struct sbuf *b, int32_t cp);

/* A number value of n. */
const tfr_value *number_value(tfr_arena *a, const struct tfr_num *n);

/* A name and where it came from, for sorting out duplicates. */
struct named {
  const char *name;
  size_t idx;
};

/* Sort v (n names) and keep the last occurrence of each distinct name, as
** assigning them to a Go map in order does; returns how many remain (at
** the front of v, by name).  O(n log n): objects may be large. */
size_t keep_last(struct named *v, size_t n);

/* ASCII digits and hex digits. */
bool is_digit(char c);
bool is_hex(char c);

/* An attribute name as cty.Object and cty.ObjectVal keep it: NFC. */
const char *nfc_name(tfr_arena *a, const char *s, size_t n);

#endif
