/*
** tfresolve lsp: positions, LSP's way (a line and UTF-16 units in it)
** and bytes, both ways; and building texts.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

/* The bytes of the character at s (n bytes left, n > 0), its UTF-16
** units in *units.  A byte that starts no valid sequence counts alone,
** as an editor shows it: U+FFFD, one unit. */
static size_t char_at(const char *s, size_t n, int *units) {
  unsigned char c = (unsigned char)s[0];
  size_t k = c < 0xC2 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF5 ? 4 : 1;
  if (k > n)
    k = 1;
  for (size_t i = 1; i < k; i++)
    if (((unsigned char)s[i] & 0xC0) != 0x80)
      k = 1;
  *units = k == 4 ? 2 : 1; /* beyond the BMP: a surrogate pair */
  return k;
}

static json_t *position_in(struct text_lines *t, size_t byte) {
  if (byte > t->len)
    byte = t->len;
  if (!t->starts) {
    t->n = 1;
    for (size_t i = 0; i < t->len; i++)
      t->n += t->text[i] == '\n';
    t->starts = cli_alloc(t->n * sizeof *t->starts);
    t->starts[0] = 0;
    for (size_t i = 0, l = 1; i < t->len; i++)
      if (t->text[i] == '\n')
        t->starts[l++] = i + 1;
    t->last_line = t->last_byte = t->last_col = 0;
  }
  size_t lo = 0, hi = t->n; /* the last line that starts at or before byte */
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (t->starts[mid] <= byte)
      lo = mid;
    else
      hi = mid;
  }
  size_t i = t->starts[lo], col = 0;
  if (t->last_line == lo && t->last_byte >= i && t->last_byte <= byte)
    i = t->last_byte, col = t->last_col;
  while (i < byte) {
    int units;
    i += char_at(t->text + i, t->len - i, &units);
    col += (size_t)units;
  }
  t->last_line = lo, t->last_byte = i, t->last_col = col;
  return json_pack("{s:I, s:I}", "line", (json_int_t)lo, "character",
                   (json_int_t)col);
}

json_t *lsp_range_in(struct text_lines *t, const struct tfr_range *r) {
  size_t a = r->start.byte, b = r->end.byte;
  if (b < a)
    b = a;
  json_t *start = position_in(t, a);
  return json_pack("{s:o, s:o}", "start", start, "end", position_in(t, b));
}

/* One range of a text. */
json_t *lsp_range_of(const char *text, size_t len, const struct tfr_range *r) {
  struct text_lines t = {text, len, NULL, 0, 0, 0, 0};
  json_t *range = lsp_range_in(&t, r);
  free(t.starts);
  return range;
}

size_t lsp_byte_of(const char *text, size_t len, int line, int character) {
  size_t i = 0;
  for (int l = 0; l < line && i < len; i++)
    if (text[i] == '\n')
      l++;
  for (int col = 0; col < character && i < len && text[i] != '\n';) {
    int units;
    i += char_at(text + i, len - i, &units);
    col += units;
  }
  return i;
}

/* ---- resolving a module -------------------------------------------------- */

size_t lsp_byte_at(const char *text, size_t len, json_t *pos) {
  return lsp_byte_of(
      text, len, (int)json_integer_value(json_object_get(pos, "line")),
      (int)json_integer_value(json_object_get(pos, "character")));
}

const char *lsp_newline(const char *text, size_t len) {
  const char *nl = memchr(text, '\n', len);
  return nl && nl > text && nl[-1] == '\r' ? "\r\n" : "\n";
}

void lsp_append(char **buf, size_t *len, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  *buf = cli_realloc(*buf, *len + (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(*buf + *len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  *len += (size_t)n;
}

int lsp_cmp_cstr(const void *x, const void *y) {
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}
