/*
** Small string helpers shared by several modules.
*/
#ifndef TFR_STRUTIL_H
#define TFR_STRUTIL_H

#include <stddef.h>

/* Levenshtein distance between two short strings, for "Did you mean"
** suggestions; a large number when either is long. */
size_t str_distance(const char *a, size_t na, const char *b, size_t nb);

#endif
