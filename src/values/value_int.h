/*
** The value system's interface within the library (beyond the public
** tfresolve/value.h).
*/
#ifndef TFR_VALUE_INT_H
#define TFR_VALUE_INT_H

#include <stddef.h>

#include "tfresolve/value.h"

/*
** tfr_object, with a cache of recent object types (cache may be NULL):
** an object whose members have the same names and the same (pointer)
** types as a cached type's gets that type, so that the elements of a
** long list of objects share their types and later steps (defaults,
** conversion) find them in their memo tables.  Types are immutable, so
** sharing them changes nothing else.
** Names may repeat: of equal names the last one given wins (an object
** constructor's repeated key, as in HCL).  With lens, names[i] is lens[i]
** bytes, not NUL-terminated, and copied; without, NUL-terminated strings
** that must outlive the value.
*/
/* An object type of these members, the arrays (the arena's) taken as
** they are: names sorted (bytewise) and distinct, none optional. */
const tfr_type *type_object_sorted(tfr_arena *a, size_t n, const char **names,
                                   const tfr_type **types);

/* cty's TestConformance, as a yes or no: given conforms to want, where
** the dynamic pseudo-type in want matches anything. */
bool type_conforms(const tfr_type *given, const tfr_type *want);

/* The n bytes at s as a string value holds them (NFC): s itself when
** normalising changes nothing, else a normalised copy in a (*n set to its
** length). */
const char *value_nfc_bytes(tfr_arena *a, const char *s, uint32_t *n);

/* A number as Go's big.Float Text('g', 10) writes it ("8080", "1e+10"):
** how Terraform's diagnostics show a number (tfdiags.CompactValueStr). */
struct sbuf;
void value_put_number_g10(struct sbuf *b, const struct tfr_num *x);

#define VALUE_OBJECT_CACHE 256
const tfr_value *value_object_shared(tfr_arena *a, size_t n,
                                     const char *const *names,
                                     const uint32_t *lens,
                                     const tfr_value *const *vals,
                                     const tfr_type **cache);

#endif
