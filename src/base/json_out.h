/*
** Writing JSON text: string escaping shared by every JSON renderer.
*/
#ifndef TFR_JSON_OUT_H
#define TFR_JSON_OUT_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct sbuf;

/* Output made of many small pieces, gathered in b (cap bytes) and
** written to out (or, when sb is set, appended to sb) a buffer at a
** time. */
struct json_out {
  FILE *out;
  size_t n, cap;
  char *b;
  struct sbuf *sb;
};

void jo_write(struct json_out *o, const char *s, size_t n);
void jo_flush(struct json_out *o);

static inline void jo_put(struct json_out *o, const char *s, size_t n) {
  if (o->n + n <= o->cap) {
    memcpy(o->b + o->n, s, n);
    o->n += n;
  } else {
    jo_write(o, s, n);
  }
}
/* s as a JSON string literal, as json_write_string writes it. */
void jo_string(struct json_out *o, const char *s, size_t n);

/* The same, appended to b (go_json_string in the functions). */
void json_sbuf_string(struct sbuf *b, const char *s, size_t n);

/* The same with \b and \f written short, not as \u0008 and \u000c:
** Go's encoding/json since Go 1.22, as terragrunt writes TF_VAR_ values. */
void json_sbuf_string_go(struct sbuf *b, const char *s, size_t n);

/* Write s (n bytes, UTF-8) as a JSON string literal, quotes included.
** Control characters and invalid bytes are escaped as \uXXXX. */
void json_write_string(FILE *out, const char *s, size_t n);

/* The same for a NUL-terminated string; NULL writes null. */
void json_write_cstr(FILE *out, const char *s);

#endif
