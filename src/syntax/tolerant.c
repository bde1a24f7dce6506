/*
** The tolerant reader (tfr_text_*): a variables or configuration file's
** text as it is being typed, read without parsing it, for an editor.
** What is half typed (a name without "=", a value not typed yet, a
** string not closed, a brace not closed) costs that item, not the file:
** an item ends at the end of its line (or at a comma, or at the bracket
** that closes its object) unless a bracket or a string opened in it
** goes on.  Strings (with their templates), comments and heredocs are
** skipped as HCL's scanner skips them, so a bracket or "=" inside one
** counts for nothing.  Both syntaxes: JSON's `"key": value` is an item
** like `key = value`.
*/
#include "tfresolve/syntax.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena_int.h"
#include "base/strutil.h"
#include "syntax/source.h"

struct tfr_text {
  tfr_arena *a;
  struct src_file *src; /* for lines and columns */
  const char *t;
  size_t n;
  bool json;
};

tfr_text *tfr_text_new(tfr_arena *a, const char *filename, const char *text,
                       size_t len) {
  tfr_text *x = tfr_arena_alloc(a, sizeof *x);
  x->a = a;
  x->t = text;
  x->n = len;
  size_t k = filename ? strlen(filename) : 0;
  x->json = k >= 5 && !strcmp(filename + k - 5, ".json");
  x->src = src_new_private(a, filename ? filename : "", text, len);
  return x;
}

static bool name_char(char ch) {
  return ch == '_' || ch == '-' || (ch >= 'a' && ch <= 'z') ||
         (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

/* The byte after the string opening at i (t[i] == '"'), templates and
** escapes inside it skipped; at the newline when it does not close on its
** line (what is typed after it is not swallowed), n at the end.  Strings
** in templates in strings nest at most 64 deep (then: the rest of the
** text), so no text runs the stack out. */
static size_t string_end(const char *t, size_t n, size_t i, int level) {
  int depth = 0; /* ${ } and %{ } inside */
  for (i++; i < n; i++) {
    if (t[i] == '\\') {
      i++;
    } else if ((t[i] == '$' || t[i] == '%') && i + 1 < n && t[i + 1] == '{') {
      depth++;
      i++;
    } else if (depth && t[i] == '}') {
      depth--;
    } else if (depth && t[i] == '"') {
      if (level >= 64)
        return n;
      i = string_end(t, n, i, level + 1) - 1;
    } else if (!depth && (t[i] == '"' || t[i] == '\n')) {
      return t[i] == '"' ? i + 1 : i;
    }
  }
  return n;
}

static size_t skip_string(const char *t, size_t n, size_t i) {
  return string_end(t, n, i, 0);
}

/* The byte after a heredoc starting at i (<<EOF or <<-EOF), or i. */
static size_t skip_heredoc(const char *t, size_t n, size_t i) {
  size_t k = i + 2 + (i + 2 < n && t[i + 2] == '-'), m = k;
  while (m < n && name_char(t[m]))
    m++;
  if (m == k)
    return i;
  size_t w = m - k;
  for (size_t p = m; p < n; p++) {
    if (t[p] != '\n')
      continue;
    size_t q = p + 1;
    while (q < n && (t[q] == ' ' || t[q] == '\t'))
      q++;
    if (q + w <= n && !memcmp(t + q, t + k, w) &&
        (q + w == n || !name_char(t[q + w])))
      return q + w;
  }
  return n;
}

/* The byte after a comment (#, //: up to its newline) starting at i, or
** i when none starts there. */
static size_t skip_comment(const char *t, size_t n, size_t i) {
  if (t[i] == '#' || (t[i] == '/' && i + 1 < n && t[i + 1] == '/')) {
    while (i < n && t[i] != '\n')
      i++;
    return i;
  }
  if (t[i] == '/' && i + 1 < n && t[i + 1] == '*') {
    for (i += 2; i + 1 < n && !(t[i] == '*' && t[i + 1] == '/'); i++)
      ;
    return i + 2 < n ? i + 2 : n;
  }
  return i;
}

/* The next bracket at or after *i outside comments, heredocs and
** strings: its index, with *i just past it; n when there is none. */
static size_t next_bracket(const char *t, size_t n, size_t *i) {
  while (*i < n) {
    size_t k = skip_comment(t, n, *i);
    if (k == *i && t[k] == '<' && k + 1 < n && t[k + 1] == '<')
      k = skip_heredoc(t, n, k);
    if (k != *i) {
      *i = k;
      continue;
    }
    char ch = t[*i];
    if (ch == '"') {
      *i = skip_string(t, n, *i);
      continue;
    }
    size_t at = (*i)++;
    if (strchr("{[()]}", ch) && ch)
      return at;
  }
  return n;
}

static size_t close_of(const char *t, size_t n, size_t i) {
  int depth = 0;
  for (size_t at; (at = next_bracket(t, n, &i)) < n;)
    if (t[at] == '{' || t[at] == '[' || t[at] == '(')
      depth++;
    else if (--depth == 0)
      return at;
  return n;
}

size_t tfr_text_closing(const tfr_text *x, size_t open, size_t end) {
  return close_of(x->t, end < x->n ? end : x->n, open);
}

/* The end of a value starting at i, in [.., end): a newline or a comma
** outside brackets, a closing bracket, or end; trailing blanks and
** comments out. */
static size_t value_end(const char *t, size_t end, size_t i) {
  size_t last = i;
  while (i < end) {
    size_t k = skip_comment(t, end, i);
    if (k != i) {
      i = k; /* a comment ends the value (its newline next) */
      continue;
    }
    char ch = t[i];
    if (ch == '<' && i + 1 < end && t[i + 1] == '<' &&
        (k = skip_heredoc(t, end, i)) != i) {
      i = last = k;
      continue;
    }
    if (ch == '\n' || ch == ',' || ch == '}' || ch == ']' || ch == ')')
      break;
    if (ch == '"') {
      i = last = skip_string(t, end, i);
      continue;
    }
    if (ch == '{' || ch == '[' || ch == '(') {
      size_t c = close_of(t, end, i);
      i = last = c < end ? c + 1 : end;
      continue;
    }
    if (ch != ' ' && ch != '\t' && ch != '\r')
      last = i + 1;
    i++;
  }
  return last;
}

static struct tfr_range range_of(tfr_text *x, size_t s, size_t e) {
  return src_range(x->src, (struct span){(uint32_t)s, (uint32_t)e});
}

/* The key ending at ke (just past it) when an item starts at i: "=" (not
** "==") or ":" after it; its value's first byte in *vs. */
static bool key_here(const char *t, size_t end, size_t i, size_t *ke,
                     size_t *vs) {
  char ch = t[i];
  *ke = ch == '"' ? skip_string(t, end, i) : i;
  if (ch != '"')
    while (*ke < end && name_char(t[*ke]))
      (*ke)++;
  size_t j = *ke;
  while (j < end && (t[j] == ' ' || t[j] == '\t'))
    j++;
  if (j >= end ||
      !((t[j] == '=' && (j + 1 >= end || t[j + 1] != '=')) || t[j] == ':'))
    return false;
  *vs = j + 1;
  while (*vs < end && (t[*vs] == ' ' || t[*vs] == '\t'))
    (*vs)++;
  return true;
}

/* The items of [start, end) as a growing array (*n, *cap). */
static void add_item(tfr_text *x, struct tfr_text_item **out, size_t *n,
                     size_t *cap, size_t ks, size_t ke, size_t vs, size_t ve) {
  if (*n == *cap) {
    size_t nc = *cap ? 2 * *cap : 16;
    struct tfr_text_item *more = tfr_arena_alloc(x->a, nc * sizeof *more);
    if (*n)
      memcpy(more, *out, *n * sizeof *more);
    *out = more;
    *cap = nc;
  }
  const char *t = x->t;
  struct tfr_text_item *it = &(*out)[(*n)++];
  size_t s = ks, e = ke;
  if (t[s] == '"' && e > s + 1 && t[e - 1] == '"')
    s++, e--;
  it->name = tfr_arena_strndup(x->a, t + s, e - s);
  it->key = range_of(x, ks, ke);
  it->value = range_of(x, vs, ve);
  it->open = it->close = 0;
  if (vs < ve && t[vs] == '{') {
    it->open = vs;
    it->close = close_of(t, ve, vs);
  }
}

const struct tfr_text_item *tfr_text_items(tfr_text *x, size_t start,
                                           size_t end, size_t *n) {
  const char *t = x->t;
  struct tfr_text_item *out = NULL;
  size_t cap = 0;
  *n = 0;
  if (end > x->n)
    end = x->n;
  bool expect = true; /* at a place where an item may start */
  for (size_t i = start; i < end;) {
    size_t k = skip_comment(t, end, i);
    if (k != i) {
      i = k;
      continue;
    }
    char ch = t[i];
    if (ch == ' ' || ch == '\t' || ch == '\r') {
      i++;
      continue;
    }
    if (ch == '\n' || ch == ',') {
      expect = true;
      i++;
      continue;
    }
    size_t ke, vs;
    if (expect && (ch == '"' || name_char(ch))) {
      if (key_here(t, end, i, &ke, &vs)) {
        size_t ve = value_end(t, end, vs);
        add_item(x, &out, n, &cap, i, ke, vs, ve);
        i = ve > vs ? ve : vs;
      } else {
        i = ke > i ? ke : i + 1;
      }
      expect = false;
      continue;
    }
    if (ch == '"')
      i = skip_string(t, end, i);
    else if (ch == '{' || ch == '[' || ch == '(')
      i = close_of(t, end, i) + 1;
    else
      i++;
    expect = false;
  }
  return out;
}

const struct tfr_text_item *tfr_text_top(tfr_text *x, size_t *n) {
  size_t start = 0, end = x->n;
  if (x->json) { /* the items of the outermost object */
    while (start < x->n && x->t[start] != '{')
      start++;
    end = close_of(x->t, x->n, start);
    start = start < end ? start + 1 : end;
  }
  return tfr_text_items(x, start, end, n);
}

size_t tfr_text_enclosing(const tfr_text *x, size_t byte) {
  size_t stack[256], depth = 0, lost = 0;
  const char *t = x->t;
  if (byte > x->n)
    byte = x->n;
  for (size_t i = 0, at; (at = next_bracket(t, byte, &i)) < byte;) {
    if (t[at] == '{' || t[at] == '[' || t[at] == '(') {
      if (depth < 256)
        stack[depth++] = at;
      else
        lost++;
    } else if (lost) {
      lost--;
    } else if (depth) {
      depth--;
    }
  }
  return depth && !lost && t[stack[depth - 1]] == '{' ? stack[depth - 1]
                                                      : SIZE_MAX;
}

size_t tfr_text_quote(const tfr_text *x, size_t byte) {
  const char *t = x->t;
  size_t i = byte > x->n ? x->n : byte, q = SIZE_MAX;
  while (i > 0 && t[i - 1] != '\n')
    i--;
  for (; i < byte && i < x->n; i++) {
    if (q != SIZE_MAX && t[i] == '\\')
      i++;
    else if (t[i] == '"')
      q = q == SIZE_MAX ? i : SIZE_MAX;
    else if (q == SIZE_MAX && t[i] == '#')
      break;
  }
  return q;
}

void tfr_text_trim(const tfr_text *x, size_t *s, size_t *e) {
  const char *t = x->t;
  for (;;) {
    while (*s < *e && strchr(" \t\r\n", t[*s]))
      (*s)++;
    while (*e > *s && strchr(" \t\r\n", t[*e - 1]))
      (*e)--;
    if (*e - *s < 2 || t[*s] != '(' || close_of(t, *e, *s) != *e - 1)
      return;
    (*s)++;
    (*e)--;
  }
}

const struct tfr_range *tfr_text_split(tfr_text *x, size_t start, size_t end,
                                       const char *sep, size_t *n) {
  const char *t = x->t;
  size_t k = strlen(sep), cap = 8;
  struct tfr_range *out = tfr_arena_alloc(x->a, cap * sizeof *out);
  *n = 0;
  if (end > x->n)
    end = x->n;
  size_t from = start;
  for (size_t p = start; p <= end;) {
    if (p < end && t[p] == '"') {
      p = skip_string(t, end, p);
      continue;
    }
    if (p < end && strchr("([{", t[p]) && t[p]) {
      p = close_of(t, end, p) + 1;
      continue;
    }
    if (p == end || (k && p + k <= end && !memcmp(t + p, sep, k))) {
      if (*n == cap) {
        struct tfr_range *more = tfr_arena_alloc(x->a, 2 * cap * sizeof *more);
        memcpy(more, out, cap * sizeof *out);
        out = more;
        cap *= 2;
      }
      size_t s = from, e = p;
      tfr_text_trim(x, &s, &e);
      out[(*n)++] = range_of(x, s, e);
      p += k ? k : 1;
      from = p;
      continue;
    }
    p++;
  }
  return out;
}

static bool inside(size_t s, size_t e, size_t at) { return at >= s && at <= e; }

/* One step down from the value [*vs, *ve) to what holds byte: an
** object's item (*name its key) or a tuple's element; false when the
** value is neither or nothing of it holds byte. */
static bool step_in(tfr_text *x, struct sbuf *path, struct tfr_locus *out,
                    size_t *vs, size_t *ve, size_t byte) {
  const char *t = x->t;
  tfr_text_trim(x, vs, ve);
  if (*vs >= *ve)
    return false;
  size_t close = close_of(t, *ve, *vs);
  if (t[*vs] == '{') {
    size_t n;
    const struct tfr_text_item *it = tfr_text_items(x, *vs + 1, close, &n);
    for (size_t i = 0; i < n; i++) {
      size_t ve2 = it[i].value.end.byte;
      if (!inside(it[i].key.start.byte, ve2, byte))
        continue;
      sbuf_put(path, ".", 1);
      sbuf_str(path, it[i].name);
      out->name = it[i].key;
      out->value = it[i].value;
      out->in_key = inside(it[i].key.start.byte, it[i].key.end.byte, byte);
      *vs = it[i].value.start.byte;
      *ve = ve2;
      return true;
    }
    return false;
  }
  if (t[*vs] != '[')
    return false;
  size_t n;
  const struct tfr_range *el = tfr_text_split(x, *vs + 1, close, ",", &n);
  for (size_t i = 0; i < n; i++) {
    if (el[i].start.byte >= el[i].end.byte ||
        !inside(el[i].start.byte, el[i].end.byte, byte))
      continue;
    char step[32];
    snprintf(step, sizeof step, "[%zu]", i);
    sbuf_str(path, step);
    out->value = el[i];
    *vs = el[i].start.byte;
    *ve = el[i].end.byte;
    return true;
  }
  return false;
}

bool tfr_text_locate(tfr_text *x, size_t start, size_t end, size_t byte,
                     struct tfr_locus *out) {
  memset(out, 0, sizeof *out);
  size_t n;
  const struct tfr_text_item *it = start || end < x->n
                                       ? tfr_text_items(x, start, end, &n)
                                       : tfr_text_top(x, &n);
  for (size_t i = 0; i < n; i++) {
    size_t vs = it[i].value.start.byte, ve = it[i].value.end.byte;
    if (!inside(it[i].key.start.byte, ve, byte))
      continue;
    out->variable = it[i].name;
    out->name = it[i].key;
    out->value = it[i].value;
    out->in_key = inside(it[i].key.start.byte, it[i].key.end.byte, byte);
    struct sbuf path = {0};
    sbuf_put(&path, "", 0);
    for (int depth = 0; !out->in_key && depth < 64; depth++)
      if (!step_in(x, &path, out, &vs, &ve, byte))
        break;
    out->path = tfr_arena_strndup(x->a, path.p, path.n);
    free(path.p);
    return true;
  }
  return false;
}
