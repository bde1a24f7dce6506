/*
** Ports of the Go text helpers that Terraform's DiagnosticPlain applies to
** a diagnostic's detail (internal/command/format/diagnostic.go): go-
** wordwrap's WrapString and colorstring's Color with colour disabled.
*/
#include "base/gowrap.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A bytes.Buffer of WrapString's, with its length in runes. */
struct runes {
  struct sbuf b;
  size_t len;
};

static void put(struct sbuf *b, const char *s, size_t n) {
  if (n)
    sbuf_put(b, s, n);
}

/* WriteRune: the rune as UTF-8 (an invalid byte decoded to U+FFFD). */
static void put_rune(struct runes *w, const char *s, size_t k, int32_t r) {
  if (r == 0xFFFD)
    put(&w->b, "\xEF\xBF\xBD", 3);
  else
    put(&w->b, s, k);
  w->len++;
}

/* WriteTo(buf), which empties the buffer. */
static void drain(struct sbuf *out, struct runes *w) {
  put(out, w->b.p, w->b.n);
  w->b.n = 0;
  w->len = 0;
}

/*
** wordwrap.go's loop, statement for statement: current counts the runes
** on the line so far; word holds the word being read, space the white
** space before it.
*/
void go_wrap_string(struct sbuf *out, const char *s, size_t n, size_t lim) {
  struct runes word = {0}, space = {0};
  size_t current = 0;
  for (size_t i = 0; i < n;) {
    int32_t r;
    size_t k = str_decode_rune(s + i, n - i, &r);
    if (r == '\n') {
      if (word.b.n == 0) {
        if (current + space.len > lim) {
          current = 0;
        } else {
          current += space.len;
          drain(out, &space);
        }
        space.b.n = space.len = 0;
      } else {
        current += space.len + word.len;
        drain(out, &space);
        drain(out, &word);
      }
      put(out, "\n", 1);
      current = 0;
    } else if (str_go_isspace(r) && r != 0xA0) {
      if (space.b.n == 0 || word.b.n > 0) {
        current += space.len + word.len;
        drain(out, &space);
        drain(out, &word);
      }
      put_rune(&space, s + i, k, r);
    } else {
      put_rune(&word, s + i, k, r);
      if (current + word.len + space.len > lim && word.len < lim) {
        put(out, "\n", 1);
        current = 0;
        space.b.n = space.len = 0;
      }
    }
    i += k;
  }
  if (word.b.n == 0) {
    if (current + space.len <= lim)
      drain(out, &space);
  } else {
    drain(out, &space);
    drain(out, &word);
  }
  free(word.b.p);
  free(space.b.p);
}

/* The keys of colorstring's DefaultColors. */
static const char *const default_colors[] = {
    "default",       "_default_",      "black",        "red",
    "green",         "yellow",         "blue",         "magenta",
    "cyan",          "light_gray",     "dark_gray",    "light_red",
    "light_green",   "light_yellow",   "light_blue",   "light_magenta",
    "light_cyan",    "white",          "_black_",      "_red_",
    "_green_",       "_yellow_",       "_blue_",       "_magenta_",
    "_cyan_",        "_light_gray_",   "_dark_gray_",  "_light_red_",
    "_light_green_", "_light_yellow_", "_light_blue_", "_light_magenta_",
    "_light_cyan_",  "_white_",        "bold",         "dim",
    "underline",     "blink_slow",     "blink_fast",   "invert",
    "hidden",        "reset",          "reset_bold",
};

static bool is_default_color(const char *s, size_t n) {
  for (size_t i = 0; i < sizeof default_colors / sizeof *default_colors; i++)
    if (strlen(default_colors[i]) == n && !memcmp(default_colors[i], s, n))
      return true;
  return false;
}

static bool tag_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/*
** The matches of colorstring's (?i)\[[a-z0-9_-]+\], leftmost first and
** not overlapping.  Go's case folding also lets U+017F and U+212A match
** the class, but a match holding them names no colour and is kept as it
** is, and '[' cannot be inside a match, so bytes give the same result.
*/
void go_colorstring_plain(struct sbuf *out, const char *s, size_t n) {
  size_t from = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] != '[')
      continue;
    size_t e = i + 1;
    while (e < n && tag_char(s[e]))
      e++;
    if (e == i + 1 || e >= n || s[e] != ']')
      continue;
    if (is_default_color(s + i + 1, e - i - 1)) {
      put(out, s + from, i - from);
      from = e + 1;
    }
    i = e;
  }
  put(out, s + from, n - from);
}
