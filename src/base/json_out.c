/*
** JSON string escaping exactly as Go's encoding/json does it (what cty and
** Terraform print): ", \ and control characters escaped, and also <, >, &
** and U+2028/U+2029 (Go's HTML-safe default); a byte that is not part of
** valid UTF-8 as \ufffd; DEL and all other characters as they are.
** \b and \f: as \u0008 and \u000c (cty's encoder), or short
** (json_sbuf_string_go: encoding/json since Go 1.22, what terragrunt
** writes).
*/
#include "base/json_out.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/strutil.h"

/* Bytes that may need escaping: controls, ", \\, <, >, & and every
** non-ASCII byte (checked for U+2028/U+2029 and invalid UTF-8). */
static bool special(unsigned char ch) {
  return ch < 0x20 || ch >= 0x80 || ch == '"' || ch == '\\' || ch == '<' ||
         ch == '>' || ch == '&';
}

/* n bytes at s to the output itself. */
static void emit(struct json_out *o, const char *s, size_t n) {
  if (o->sb)
    sbuf_put(o->sb, s, n);
  else
    fwrite(s, 1, n, o->out);
}

void jo_flush(struct json_out *o) {
  if (o->n)
    emit(o, o->b, o->n);
  o->n = 0;
}

void jo_write(struct json_out *o, const char *s, size_t n) {
  if (o->n + n > o->cap) {
    jo_flush(o);
    if (n > o->cap) {
      emit(o, s, n);
      return;
    }
  }
  memcpy(o->b + o->n, s, n);
  o->n += n;
}

/* Whether one of the 8 bytes at s is special (see above). */
static bool any_special(const char *s) {
  const uint64_t ones = 0x0101010101010101ull, high = ones * 0x80;
  uint64_t w;
  memcpy(&w, s, 8);
#define HAS_ZERO(x) (((x)-ones) & ~(x)&high)
  uint64_t hit = (w & high) | ((w - ones * 0x20) & ~w & high) |
                 HAS_ZERO(w ^ (ones * '"')) | HAS_ZERO(w ^ (ones * '\\')) |
                 HAS_ZERO(w ^ (ones * '<')) | HAS_ZERO(w ^ (ones * '>')) |
                 HAS_ZERO(w ^ (ones * '&'));
#undef HAS_ZERO
  return hit != 0;
}

/* jo_string; short_bf: \b and \f short. */
static void string_out(struct json_out *o, const char *s, size_t n,
                       bool short_bf) {
  jo_put(o, "\"", 1);
  size_t i = 0;
  while (i + 8 <= n && !any_special(s + i))
    i += 8;
  if (i == n) { /* the common case: nothing to escape */
    jo_put(o, s, n);
    jo_put(o, "\"", 1);
    return;
  }
  size_t run = 0;
  for (; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (!special(ch))
      continue; /* plain runs are written whole, below */
    const char *esc = NULL;
    size_t skip = 1;
    char buf[8];
    switch (ch) {
    case '"':
      esc = "\\\"";
      break;
    case '\\':
      esc = "\\\\";
      break;
    case '\n':
      esc = "\\n";
      break;
    case '\r':
      esc = "\\r";
      break;
    case '\t':
      esc = "\\t";
      break;
    case '\b':
      esc = short_bf ? "\\b" : "\\u0008";
      break;
    case '\f':
      esc = short_bf ? "\\f" : "\\u000c";
      break;
    case '<':
    case '>':
    case '&':
      snprintf(buf, sizeof buf, "\\u%04x", ch);
      esc = buf;
      break;
    default:
      if (ch < 0x20) {
        snprintf(buf, sizeof buf, "\\u%04x", ch);
        esc = buf;
      } else if (ch >= 0x80) {
        int32_t r;
        size_t k = str_decode_rune(s + i, n - i, &r);
        if (r == 0x2028 || r == 0x2029) {
          esc = r == 0x2028 ? "\\u2028" : "\\u2029";
          skip = k;
        } else if (r == 0xFFFD && k == 1) {
          esc = "\\ufffd"; /* not valid UTF-8: as Go writes it */
        } else {
          i += k - 1; /* a valid character, as it is */
        }
      }
    }
    if (esc) {
      jo_put(o, s + run, i - run);
      jo_put(o, esc, strlen(esc));
      i += skip - 1;
      run = i + 1;
    }
  }
  jo_put(o, s + run, n - run);
  jo_put(o, "\"", 1);
}

void jo_string(struct json_out *o, const char *s, size_t n) {
  string_out(o, s, n, false);
}

void json_sbuf_string(struct sbuf *sb, const char *s, size_t n) {
  char b[256];
  struct json_out o = {NULL, 0, sizeof b, b, sb};
  jo_string(&o, s, n);
  jo_flush(&o);
}

void json_sbuf_string_go(struct sbuf *sb, const char *s, size_t n) {
  char b[256];
  struct json_out o = {NULL, 0, sizeof b, b, sb};
  string_out(&o, s, n, true);
  jo_flush(&o);
}

void json_write_string(FILE *out, const char *s, size_t n) {
  char b[256];
  struct json_out o = {out, 0, sizeof b, b, NULL};
  jo_string(&o, s, n);
  jo_flush(&o);
}

void json_write_cstr(FILE *out, const char *s) {
  if (!s)
    fputs("null", out);
  else
    json_write_string(out, s, strlen(s));
}
