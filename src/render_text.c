/*
** Terraform console style, as `terraform console` prints values
** (internal/repl/format.go): the format of SPEC.md §8.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "number.h"
#include "render.h"

struct out {
  tfr_arena *a;
  char *p;
  size_t n, cap;
};

static void put(struct out *o, const char *s, size_t n) {
  if (o->n + n + 1 > o->cap) {
    size_t cap = o->cap ? o->cap * 2 : 256;
    while (cap < o->n + n + 1)
      cap *= 2;
    o->p = realloc(o->p, cap);
    if (!o->p)
      abort();
    o->cap = cap;
  }
  memcpy(o->p + o->n, s, n);
  o->n += n;
}

static void puts_(struct out *o, const char *s) { put(o, s, strlen(s)); }

static void spaces(struct out *o, int n) {
  for (int i = 0; i < n; i++)
    put(o, " ", 1);
}

/* Go's strconv.IsPrint: letters, marks, numbers, punctuation, symbols and
** the ASCII space. */
static bool is_print(utf8proc_int32_t cp) {
  if (cp == ' ')
    return true;
  switch (utf8proc_category(cp)) {
  case UTF8PROC_CATEGORY_ZS:
  case UTF8PROC_CATEGORY_ZL:
  case UTF8PROC_CATEGORY_ZP:
  case UTF8PROC_CATEGORY_CC:
  case UTF8PROC_CATEGORY_CF:
  case UTF8PROC_CATEGORY_CS:
  case UTF8PROC_CATEGORY_CO:
  case UTF8PROC_CATEGORY_CN:
    return false;
  default:
    return true;
  }
}

/* Go's strconv.Quote, which the console uses for strings and keys. */
static void quote(struct out *o, const char *s, size_t n) {
  put(o, "\"", 1);
  for (size_t i = 0; i < n;) {
    unsigned char c = (unsigned char)s[i];
    char esc[16];
    const char *e = NULL;
    switch (c) {
    case '"': e = "\\\""; break;
    case '\\': e = "\\\\"; break;
    case '\a': e = "\\a"; break;
    case '\b': e = "\\b"; break;
    case '\f': e = "\\f"; break;
    case '\n': e = "\\n"; break;
    case '\r': e = "\\r"; break;
    case '\t': e = "\\t"; break;
    case '\v': e = "\\v"; break;
    default:
      break;
    }
    if (e) {
      puts_(o, e);
      i++;
      continue;
    }
    if (c < 0x20 || c == 0x7f) {
      snprintf(esc, sizeof esc, "\\x%02x", c);
      puts_(o, esc);
      i++;
      continue;
    }
    utf8proc_int32_t cp;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
                                          (utf8proc_ssize_t)(n - i), &cp);
    if (k <= 0) {
      snprintf(esc, sizeof esc, "\\x%02x", c);
      puts_(o, esc);
      i++;
      continue;
    }
    if (c < 0x80 || is_print(cp)) {
      put(o, s + i, (size_t)k);
    } else {
      snprintf(esc, sizeof esc, cp < 0x10000 ? "\\u%04x" : "\\U%08x",
               (unsigned)cp);
      puts_(o, esc);
    }
    i += (size_t)k;
  }
  put(o, "\"", 1);
}

static bool trimmed_equal(const char *line, size_t n, const char *delim) {
  while (n && (*line == ' ' || *line == '\t' || *line == '\r')) {
    line++;
    n--;
  }
  while (n && (line[n - 1] == ' ' || line[n - 1] == '\t' ||
               line[n - 1] == '\r'))
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

static void sequence(struct out *o, const tfr_value *v, int indent) {
  put(o, "[", 1);
  for (uint32_t i = 0; i < v->n; i++) {
    put(o, "\n", 1);
    spaces(o, indent + 2);
    value(o, v->elems[i], indent + 2);
    put(o, ",", 1);
  }
  if (v->n) {
    put(o, "\n", 1);
    spaces(o, indent);
  }
  put(o, "]", 1);
}

static void mapping(struct out *o, const tfr_value *v, int indent) {
  put(o, "{", 1);
  for (uint32_t i = 0; i < v->n; i++) {
    put(o, "\n", 1);
    spaces(o, indent + 2);
    /* keys print as values do: a multi-line key becomes a heredoc */
    const char *k = v->type->kind == TFR_MAP ? v->keys[i]
                                             : v->type->names[i];
    size_t kn = v->type->kind == TFR_MAP ? v->keylens[i] : strlen(k);
    if (!heredoc(o, k, kn, indent + 2))
      quote(o, k, kn);
    puts_(o, " = ");
    value(o, v->elems[i], indent + 2);
  }
  if (v->n) {
    put(o, "\n", 1);
    spaces(o, indent);
  }
  put(o, "}", 1);
}

static void value(struct out *o, const tfr_value *v, int indent) {
  if (v->flags & TFR_V_UNKNOWN) {
    puts_(o, "(known after apply)");
    return;
  }
  if (v->flags & TFR_V_SENSITIVE) {
    puts_(o, "(sensitive value)");
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

const char *render_console(tfr_arena *a, const tfr_value *v) {
  struct out o = {a, NULL, 0, 0};
  value(&o, v, 0);
  const char *s = tfr_arena_strndup(a, o.p ? o.p : "", o.n);
  free(o.p);
  return s;
}
