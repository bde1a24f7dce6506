/*
** Terraform console style, as `terraform console` prints values
** (internal/repl/format.go): the human output of `show`.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "values/number.h"
#include "render/render.h"
#include "base/strutil.h"
#include "values/secret.h"

struct out {
  tfr_arena *a;
  struct sbuf b;
  FILE *f; /* written as it goes (the buffer drained), or NULL: kept */
  /* keep > 0: only the text before the keep-th newline stays in b (at
  ** cut, once there); newlines counts them all, seen what was counted */
  size_t keep, newlines, seen, cut;
  bool line; /* collections on one line: [a, b] and { k = v } */
};

/* A value written to a stream leaves at most this much in the buffer. */
#define DRAIN_AT (64 * 1024)

static void drain(struct out *o) {
  if (o->f && o->b.n >= DRAIN_AT) {
    fwrite(o->b.p, 1, o->b.n, o->f);
    o->b.n = 0;
  } else if (o->keep) {
    for (size_t i = o->seen; i < o->b.n; i++)
      if (o->b.p[i] == '\n' && ++o->newlines == o->keep)
        o->cut = i;
    if (o->newlines >= o->keep)
      o->b.n = o->cut;
    o->seen = o->b.n;
  }
}

static void put(struct out *o, const char *s, size_t n) {
  sbuf_put(&o->b, s, n);
  drain(o);
}

static void puts_(struct out *o, const char *s) {
  sbuf_str(&o->b, s);
  drain(o);
}

static void spaces(struct out *o, int n) {
  for (int i = 0; i < n; i++)
    put(o, " ", 1);
}

/* Strings and keys are quoted as Go's strconv.Quote does. */
static void quote(struct out *o, const char *s, size_t n) {
  sbuf_go_quote(&o->b, s, n);
  drain(o);
}

static bool trimmed_equal(const char *line, size_t n, const char *delim) {
  while (n && (*line == ' ' || *line == '\t' || *line == '\r')) {
    line++;
    n--;
  }
  while (n &&
         (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
    n--;
  return n == strlen(delim) && memcmp(line, delim, n) == 0;
}

/* A string with a newline prints as a heredoc, indented when nested; the
** delimiter grows "_" until no line equals it. */
static bool heredoc(struct out *o, const char *s, size_t n, int indent) {
  if (!memchr(s, '\n', n))
    return false;
  char delim[64] = "EOT";
  for (bool again = true; again;) {
    again = false;
    for (size_t b = 0; b <= n && !again;) {
      const char *nl = memchr(s + b, '\n', n - b);
      size_t e = nl ? (size_t)(nl - s) : n;
      if (trimmed_equal(s + b, e - b, delim) && strlen(delim) < 60) {
        strcat(delim, "_");
        again = true;
      }
      b = e + 1;
    }
  }
  puts_(o, indent > 0 ? "<<-" : "<<");
  puts_(o, delim);
  for (size_t b = 0; b <= n;) {
    const char *nl = memchr(s + b, '\n', n - b);
    size_t e = nl ? (size_t)(nl - s) : n;
    put(o, "\n", 1);
    spaces(o, indent);
    put(o, s + b, e - b);
    b = e + 1;
  }
  put(o, "\n", 1);
  spaces(o, indent);
  puts_(o, delim);
  return true;
}

static void value(struct out *o, const tfr_value *v, int indent);

static void null_value(struct out *o, const tfr_type *t) {
  switch (t->kind) {
  case TFR_DYNAMIC:
    puts_(o, "null");
    return;
  case TFR_STRING:
    puts_(o, "tostring(null)");
    return;
  case TFR_NUMBER:
    puts_(o, "tonumber(null)");
    return;
  case TFR_BOOL:
    puts_(o, "tobool(null)");
    return;
  case TFR_LIST:
  case TFR_SET:
  case TFR_MAP: {
    const char *f = t->kind == TFR_LIST  ? "tolist"
                    : t->kind == TFR_SET ? "toset"
                                         : "tomap";
    puts_(o, f);
    puts_(o, "(null) /* of ");
    puts_(o, tfr_type_friendly(o->a, t->elem));
    puts_(o, " */");
    return;
  }
  default:
    puts_(o, "null /* ");
    puts_(o, tfr_type_friendly(o->a, t));
    puts_(o, " */");
  }
}

/* How one notation writes elements and keys (console or HCL). */
typedef void (*write_value_fn)(struct out *o, const tfr_value *v, int indent);
typedef void (*write_key_fn)(struct out *o, const char *k, size_t n,
                             int indent);

/* [ elements, one per line, each followed by "," ] */
static void sequence_with(struct out *o, const tfr_value *v, int indent,
                          write_value_fn elem) {
  put(o, "[", 1);
  for (uint32_t i = 0; o->line && i < v->n; i++) {
    if (i)
      puts_(o, ", ");
    elem(o, v->elems[i], indent);
  }
  for (uint32_t i = 0; !o->line && i < v->n; i++) {
    put(o, "\n", 1);
    spaces(o, indent + 2);
    elem(o, v->elems[i], indent + 2);
    put(o, ",", 1);
  }
  if (v->n && !o->line) {
    put(o, "\n", 1);
    spaces(o, indent);
  }
  put(o, "]", 1);
}

/* { key = value, one per line } for maps and objects */
static void mapping_with(struct out *o, const tfr_value *v, int indent,
                         write_key_fn key, write_value_fn elem) {
  put(o, "{", 1);
  for (uint32_t i = 0; i < v->n; i++) {
    const char *k = v->type->kind == TFR_MAP ? v->keys[i] : v->type->names[i];
    size_t kn = v->type->kind == TFR_MAP ? v->keylens[i] : strlen(k);
    if (o->line) {
      puts_(o, i ? ", " : " ");
    } else {
      put(o, "\n", 1);
      spaces(o, indent + 2);
    }
    key(o, k, kn, indent + 2);
    puts_(o, " = ");
    elem(o, v->elems[i], indent + 2);
  }
  if (v->n && o->line) {
    put(o, " ", 1);
  } else if (v->n) {
    put(o, "\n", 1);
    spaces(o, indent);
  }
  put(o, "}", 1);
}

/* Console keys print as values do: a multi-line key becomes a heredoc. */
static void console_key(struct out *o, const char *k, size_t n, int indent) {
  if (!heredoc(o, k, n, indent))
    quote(o, k, n);
}

static void sequence(struct out *o, const tfr_value *v, int indent) {
  sequence_with(o, v, indent, value);
}

static void mapping(struct out *o, const tfr_value *v, int indent) {
  mapping_with(o, v, indent, console_key, value);
}

static void value(struct out *o, const tfr_value *v, int indent) {
  if (v->flags & TFR_V_UNKNOWN) {
    puts_(o, "(known after apply)");
    return;
  }
  if (v->flags & TFR_V_SENSITIVE) {
    puts_(o, SECRET_TEXT);
    return;
  }
  if (v->flags & TFR_V_NULL) {
    null_value(o, v->type);
    return;
  }
  switch (v->type->kind) {
  case TFR_STRING:
    if (!heredoc(o, v->s, v->n, indent))
      quote(o, v->s, v->n);
    return;
  case TFR_NUMBER:
    puts_(o, num_format(o->a, v->num));
    return;
  case TFR_BOOL:
    puts_(o, v->b ? "true" : "false");
    return;
  case TFR_OBJECT:
    mapping(o, v, indent);
    return;
  case TFR_TUPLE:
    sequence(o, v, indent);
    return;
  case TFR_LIST:
  case TFR_SET:
    puts_(o, v->type->kind == TFR_LIST ? "tolist(" : "toset(");
    sequence(o, v, indent);
    put(o, ")", 1);
    return;
  case TFR_MAP:
    puts_(o, "tomap(");
    mapping(o, v, indent);
    put(o, ")", 1);
    return;
  default:
    puts_(o, "null");
  }
}

/* What o's buffer kept, moved into the arena. */
static const char *kept(struct out *o) {
  const char *s = tfr_arena_strndup(o->a, o->b.p ? o->b.p : "", o->b.n);
  free(o->b.p);
  return s;
}

const char *render_console(tfr_arena *a, const tfr_value *v) {
  struct out o = {a, {0}, NULL, 0, 0, 0, 0, false};
  value(&o, v, 0);
  return kept(&o);
}

const char *render_console_head(tfr_arena *a, const tfr_value *v, size_t keep,
                                size_t *lines) {
  struct out o = {a, {0}, NULL, keep ? keep : 1, 0, 0, 0, false};
  value(&o, v, 0);
  *lines = o.newlines + 1;
  return kept(&o);
}

void render_console_to(FILE *f, tfr_arena *a, const tfr_value *v) {
  struct out o = {a, {0}, f, 0, 0, 0, 0, false};
  value(&o, v, 0);
  if (o.b.n)
    fwrite(o.b.p, 1, o.b.n, f);
  free(o.b.p);
}

/* ---- HCL syntax (tfvars) ----------------------------------------------- */

/* A string literal in HCL: escapes for quotes, backslashes and control
** characters, and ${ / %{ doubled so they stay literal. */
static void hcl_string(struct out *o, const char *s, size_t n) {
  put(o, "\"", 1);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    char esc[8];
    const char *e = str_escape(c, false);
    if (e) {
      puts_(o, e);
    } else if (c == '$' || c == '%') {
      put(o, (const char *)&s[i], 1);
      if (i + 1 < n && s[i + 1] == '{')
        put(o, (const char *)&s[i], 1);
    } else if (c < 0x20 || c == 0x7f) {
      snprintf(esc, sizeof esc, "\\u%04x", c);
      puts_(o, esc);
    } else {
      put(o, (const char *)&s[i], 1);
    }
  }
  put(o, "\"", 1);
}

static bool hcl_ident(const char *s, size_t n) {
  if (!n || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') ||
              s[0] == '_'))
    return false;
  for (size_t i = 1; i < n; i++)
    if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
          (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '-'))
      return false;
  /* keywords as keys would read as values, and "for" first in an object
  ** as a for expression */
  return !((n == 4 && (!memcmp(s, "true", 4) || !memcmp(s, "null", 4))) ||
           (n == 5 && !memcmp(s, "false", 5)) ||
           (n == 3 && !memcmp(s, "for", 3)));
}

/* Keys that are identifiers stay bare; others are quoted. */
static void hcl_key(struct out *o, const char *k, size_t n, int indent) {
  (void)indent;
  if (hcl_ident(k, n))
    put(o, k, n);
  else
    hcl_string(o, k, n);
}

static void hcl_value(struct out *o, const tfr_value *v, int indent) {
  /* beside other text: plan's words for it (Terraform's
  ** internal/command/jsonformat/computed/renderers/unknown.go:35,46) */
  if ((v->flags & TFR_V_UNKNOWN) && o->line) {
    puts_(o, "(known after apply)");
    return;
  }
  if (v->flags & (TFR_V_NULL | TFR_V_UNKNOWN)) {
    puts_(o, "null");
    return;
  }
  switch (v->type->kind) {
  case TFR_STRING:
    hcl_string(o, v->s, v->n);
    return;
  case TFR_NUMBER:
    puts_(o, num_format(o->a, v->num));
    return;
  case TFR_BOOL:
    puts_(o, v->b ? "true" : "false");
    return;
  case TFR_LIST:
  case TFR_SET:
  case TFR_TUPLE:
    sequence_with(o, v, indent, hcl_value);
    return;
  case TFR_MAP:
  case TFR_OBJECT:
    mapping_with(o, v, indent, hcl_key, hcl_value);
    return;
  default:
    puts_(o, "null");
  }
}

const char *render_hcl(tfr_arena *a, const tfr_value *v) {
  struct out o = {a, {0}, NULL, 0, 0, 0, 0, false};
  hcl_value(&o, v, 0);
  return kept(&o);
}

const char *render_hcl_line(tfr_arena *a, const tfr_value *v) {
  struct out o = {a, {0}, NULL, 0, 0, 0, 0, true};
  hcl_value(&o, v, 0);
  return kept(&o);
}
