/*
** Writing JSON text: string escaping shared by every JSON renderer.
*/
#ifndef TFR_JSON_OUT_H
#define TFR_JSON_OUT_H

#include <stddef.h>
#include <stdio.h>

/* Write s (n bytes, UTF-8) as a JSON string literal, quotes included.
** Control characters and invalid bytes are escaped as \uXXXX. */
void json_write_string(FILE *out, const char *s, size_t n);

/* The same for a NUL-terminated string; NULL writes null. */
void json_write_cstr(FILE *out, const char *s);

#endif
