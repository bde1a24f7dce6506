/*
** What a diagnostic may print of a sensitive value (secret.h).
*/
#include "values/secret.h"

#include <stdlib.h>
#include <string.h>

#include "base/arena_int.h"
#include "base/diag_int.h"
#include "base/strutil.h"

bool secret_marked(const tfr_value *v) {
  return v && tfr_value_has_mark(v, TFR_V_SENSITIVE);
}

/* The end of the Go-quoted text that starts after the quote at p (the
** closing quote), or NULL when it does not close. */
static const char *quote_end(const char *p) {
  const char *q = p + 1;
  while (*q && *q != '"')
    q += q[0] == '\\' && q[1] ? 2 : 1;
  return *q ? q : NULL;
}

const char *secret_path(tfr_arena *a, const char *path) {
  if (!path || !strstr(path, "[\""))
    return path;
  struct sbuf b = {0};
  sbuf_put(&b, "", 0);
  for (const char *p = path; *p;) {
    const char *q = p[0] == '[' && p[1] == '"' ? quote_end(p + 1) : NULL;
    if (q && q[1] == ']') {
      sbuf_str(&b, "[" SECRET_TEXT "]");
      p = q + 2;
      continue;
    }
    sbuf_put(&b, p, 1);
    p++;
  }
  const char *r = tfr_arena_strndup(a, b.p, b.n);
  free(b.p);
  return r;
}

const char *secret_quoted(tfr_arena *a, const char *msg,
                          secret_part_fn is_secret, void *ud) {
  if (!msg || !strchr(msg, '"'))
    return msg;
  struct sbuf b = {0};
  bool changed = false;
  for (const char *p = msg; *p;) {
    const char *q = *p == '"' ? quote_end(p) : NULL;
    if (q && is_secret(ud, msg, p + 1, (size_t)(q - p - 1))) {
      sbuf_str(&b, SECRET_TEXT);
      changed = true;
      p = q + 1;
    } else if (q) {
      sbuf_put(&b, p, (size_t)(q + 1 - p));
      p = q + 1;
    } else {
      sbuf_put(&b, p, 1);
      p++;
    }
  }
  const char *r = changed ? tfr_arena_strndup(a, b.p, b.n) : msg;
  free(b.p);
  return r;
}

/* Whether the Go-quoted name (as written) is an attribute of t, at any
** depth. */
static bool type_attr(const tfr_type *t, const char *q, size_t n, int depth) {
  if (!t || depth > 64)
    return false;
  switch (t->kind) {
  case TFR_OBJECT:
    for (uint32_t i = 0; i < t->n; i++) {
      size_t k = strlen(t->names[i]);
      if (k == n && !memcmp(t->names[i], q, n) && !memchr(q, '\\', n))
        return true;
      if (type_attr(t->types[i], q, n, depth + 1))
        return true;
    }
    return false;
  case TFR_TUPLE:
    for (uint32_t i = 0; i < t->n; i++)
      if (type_attr(t->types[i], q, n, depth + 1))
        return true;
    return false;
  case TFR_LIST:
  case TFR_SET:
  case TFR_MAP:
    return type_attr(t->elem, q, n, depth + 1);
  default:
    return false;
  }
}

struct conv_ud {
  const tfr_type *t;
};

static bool conv_part(void *ud, const char *msg, const char *q, size_t n) {
  const tfr_type *t = ((const struct conv_ud *)ud)->t;
  size_t before = (size_t)(q - 1 - msg);
  if (before >= 8 && !strncmp(q - 9, "element ", 8))
    return true; /* a key of the value */
  if (before >= 10 && !strncmp(q - 11, "lowercase ", 10))
    return false; /* cty's words: use lowercase "true" */
  return !type_attr(t, q, n, 0);
}

const char *secret_conv_error(tfr_arena *a, const char *err,
                              const tfr_type *t) {
  struct conv_ud ud = {t};
  return secret_quoted(a, err, conv_part, &ud);
}

void secret_hide_source(tfr_diags *d, size_t i) {
  if (i < d->n)
    d->v[i].hide_source = true;
}

void secret_hide_detail(tfr_diags *d, size_t i, const char *detail) {
  if (i >= d->n)
    return;
  struct tfr_diag *g = &d->v[i];
  if (detail != g->detail)
    g->detail = tfr_arena_strdup(d->a, detail);
  if (g->note && strstr(g->note, SECRET_NOTE))
    return;
  g->note = g->note && *g->note
                ? tfr_arena_printf(d->a, "%s\n%s", g->note, SECRET_NOTE)
                : SECRET_NOTE;
}

struct near {
  const struct tfr_diag *g;
  const char *text;
  size_t len;
  secret_part_fn keep;
  void *ud;
};

/* Whether the quoted part q is in the text around the subject. */
static bool near_subject(void *ud, const char *msg, const char *q, size_t n) {
  const struct near *x = ud;
  if (!n || (x->keep && x->keep(x->ud, msg, q, n)))
    return false;
  size_t b = x->g->subject.start.byte, e = x->g->subject.end.byte;
  b = b > 256 ? b - 256 : 0;
  e = e + 256 < x->len ? e + 256 : x->len;
  for (size_t i = b; i + n <= e; i++)
    if (x->text[i] == q[0] && !memcmp(x->text + i, q, n))
      return true;
  return false;
}

void secret_hide_near(tfr_diags *d, size_t i, const char *text, size_t len,
                      secret_part_fn keep, void *ud) {
  if (i >= d->n)
    return;
  d->v[i].hide_source = true;
  if (!text)
    return;
  struct near x = {&d->v[i], text, len, keep, ud};
  const char *detail = secret_quoted(d->a, d->v[i].detail, near_subject, &x);
  if (detail != d->v[i].detail)
    secret_hide_detail(d, i, detail);
}
