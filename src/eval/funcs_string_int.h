/*
** What the string functions' files share: funcs_string.c and
** funcs_format.c (format, formatlist).
*/
#ifndef TFR_FUNCS_STRING_INT_H
#define TFR_FUNCS_STRING_INT_H

#include <stddef.h>
#include <stdint.h>

#include "tfresolve/arena.h"

/* The grapheme clusters of s[0..n). */
size_t grapheme_count(const char *s, size_t n);
/* The byte offset after the first k grapheme clusters of s[0..n). */
size_t skip_graphemes(const char *s, size_t n, int64_t k);
/* Go's %q of n bytes, and of one rune (strconv.QuoteRune), in a. */
const char *go_quote_rune(tfr_arena *a, int32_t r);

#endif
