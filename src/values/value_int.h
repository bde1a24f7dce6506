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
*/
#define VALUE_OBJECT_CACHE 256
const tfr_value *value_object_shared(tfr_arena *a, size_t n,
                                     const char *const *names,
                                     const tfr_value *const *vals,
                                     const tfr_type **cache);

#endif
