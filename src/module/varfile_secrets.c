/*
** Which lines of a var file that did not parse may hold a secret
** (varfile_secrets.h).  One pass over the text, forgiving as a scanner
** must be for a file with errors: brackets, strings (ended by a newline
** too), heredocs and comments; a line where a top-level definition
** starts names its owner, the lines after it belong to it.
*/
#include "module/varfile_secrets.h"
#include "base/heap.h"

#include <stdlib.h>
#include <string.h>

#include "base/arena_int.h"
#include "base/diag_int.h"
#include "values/secret.h"

struct scan {
  const struct module *m;
  const char *t;
  size_t n;
  bool any;     /* m declares a sensitive variable */
  bool *secret; /* per line (1-based): may hold a secret */
  size_t nlines;
};

static bool ident_byte(unsigned char c, bool first) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         c >= 0x80 || (!first && ((c >= '0' && c <= '9') || c == '-'));
}

/* Whether name (n bytes) is a sensitive variable of m. */
static bool sensitive_name(const struct scan *s, const char *name, size_t n) {
  long k = module_var_index(s->m, name, n);
  return k >= 0 && s->m->vars[k].sensitive;
}

/* Whether line [b, e) names a sensitive variable as being defined:
** `NAME =` or `"NAME":` / `"NAME" =` anywhere on it. */
static bool names_secret(const struct scan *s, size_t b, size_t e) {
  for (size_t i = b; i < e; i++) {
    bool q = s->t[i] == '"';
    size_t j = i + q;
    if (!ident_byte((unsigned char)s->t[j], true) ||
        (!q && i > b && ident_byte((unsigned char)s->t[i - 1], false)))
      continue;
    size_t k = j;
    while (k < e && ident_byte((unsigned char)s->t[k], false))
      k++;
    size_t end = k;
    if (q && (k >= e || s->t[k++] != '"'))
      continue;
    while (k < e && (s->t[k] == ' ' || s->t[k] == '\t'))
      k++;
    if (k < e && (s->t[k] == ':' || (s->t[k] == '=' && s->t[k + 1] != '=')) &&
        sensitive_name(s, s->t + j, end - j))
      return true;
  }
  return false;
}

/* Whether line [b, e) holds nothing but brackets, commas and spaces. */
static bool structural(const struct scan *s, size_t b, size_t e) {
  for (size_t i = b; i < e; i++)
    if (!strchr(" \t\r{}[](),", s->t[i]) || !s->t[i])
      return false;
  return true;
}

struct state {
  int depth;
  char heredoc[64]; /* the marker while in a heredoc's body */
  bool comment;     /* in a block comment */
};

/* The top-level definition that starts line [b, e): 1 a sensitive
** variable's, 0 another's, -1 none (the line continues the last one),
** -2 something that is not a definition. */
static int line_start(const struct scan *s, const struct state *st, size_t b,
                      size_t e, bool json) {
  size_t i = b;
  while (i < e && (s->t[i] == ' ' || s->t[i] == '\t'))
    i++;
  if (json) {
    if (st->depth != 1 || i >= e || s->t[i] != '"')
      return -1;
    size_t j = i + 1;
    while (j < e && s->t[j] != '"' && s->t[j] != '\\')
      j++;
    if (j >= e || s->t[j] == '\\')
      return -2; /* an escaped name: cannot tell whose */
    return sensitive_name(s, s->t + i + 1, j - i - 1) ? 1 : 0;
  }
  if (st->depth || st->heredoc[0] || st->comment || i >= e)
    return -1;
  if (s->t[i] == '#' ||
      (s->t[i] == '/' && (s->t[i + 1] == '/' || s->t[i + 1] == '*')))
    return -1;
  if (!ident_byte((unsigned char)s->t[i], true))
    return strchr("}])", s->t[i]) ? -1 : -2;
  size_t j = i;
  while (j < e && ident_byte((unsigned char)s->t[j], false))
    j++;
  size_t k = j;
  while (k < e && (s->t[k] == ' ' || s->t[k] == '\t'))
    k++;
  if (k >= e || s->t[k] != '=' || s->t[k + 1] == '=')
    return -2;
  return sensitive_name(s, s->t + i, j - i) ? 1 : 0;
}

/* The brackets, strings, comments and heredoc openings of line [b, e). */
static void line_scan(const struct scan *s, struct state *st, size_t b,
                      size_t e, bool json) {
  if (st->heredoc[0]) { /* the body: does this line end it? */
    size_t i = b, k = e;
    while (i < k && (s->t[i] == ' ' || s->t[i] == '\t'))
      i++;
    while (k > i && strchr(" \t\r", s->t[k - 1]))
      k--;
    if (k - i == strlen(st->heredoc) && !memcmp(s->t + i, st->heredoc, k - i))
      st->heredoc[0] = '\0';
    return;
  }
  for (size_t i = b; i < e; i++) {
    char c = s->t[i];
    if (st->comment) {
      if (c == '*' && i + 1 < e && s->t[i + 1] == '/')
        st->comment = false, i++;
    } else if (c == '"') {
      for (i++; i < e && s->t[i] != '"'; i++)
        i += s->t[i] == '\\';
    } else if (!json && (c == '#' || (c == '/' && s->t[i + 1] == '/'))) {
      return;
    } else if (!json && c == '/' && s->t[i + 1] == '*') {
      st->comment = true, i++;
    } else if (!json && c == '<' && s->t[i + 1] == '<') {
      size_t j = i + 2 + (s->t[i + 2] == '-'), k = j;
      while (k < e && ident_byte((unsigned char)s->t[k], k == j))
        k++;
      if (k > j && k - j < sizeof st->heredoc) {
        memcpy(st->heredoc, s->t + j, k - j);
        st->heredoc[k - j] = '\0';
        return;
      }
    } else if (c == '{' || c == '[' || c == '(') {
      st->depth++;
    } else if ((c == '}' || c == ']' || c == ')') && st->depth > 0) {
      st->depth--;
    }
  }
}

/* s->secret for every line. */
static void scan_lines(struct scan *s, bool json) {
  struct state st = {0};
  int owner = -2; /* before the first definition: cannot tell */
  size_t line = 1;
  for (size_t b = 0; b <= s->n; line++) {
    const char *nl = memchr(s->t + b, '\n', s->n - b);
    size_t e = nl ? (size_t)(nl - s->t) : s->n;
    int start = line_start(s, &st, b, e, json);
    if (start != -1)
      owner = start;
    bool named = names_secret(s, b, e);
    if (named)
      owner = 1;
    bool hide = owner == 1 || (owner == -2 && s->any);
    if (line < s->nlines)
      s->secret[line] = named || (hide && !structural(s, b, e));
    line_scan(s, &st, b, e, json);
    if (!nl)
      break;
    b = e + 1;
  }
}

/* A quoted part that is a variable's name is not a secret. */
struct names {
  const struct module *m;
};

static bool var_name(void *ud, const char *msg, const char *q, size_t n) {
  (void)msg;
  return module_var_index(((const struct names *)ud)->m, q, n) >= 0;
}

void varfile_hide_secrets(const struct module *m, tfr_diags *d, size_t before,
                          const struct src_file *src, bool json) {
  size_t n = tfr_diags_count(d);
  if (n == before || !src || !src->text)
    return;
  struct scan s = {m, src->text, src->len, false, NULL, 0};
  for (size_t k = 0; k < m->nvars && !s.any; k++)
    s.any = m->vars[k].sensitive;
  if (!s.any)
    return;
  s.nlines = 2;
  for (size_t i = 0; i < s.n; i++)
    s.nlines += s.t[i] == '\n';
  s.secret = heap_calloc(s.nlines, sizeof *s.secret);
  scan_lines(&s, json);
  for (size_t i = before; i < n; i++) {
    const struct tfr_diag *g = tfr_diags_get(d, i);
    if (!g->subject.filename || strcmp(g->subject.filename, src->name))
      continue;
    bool hide = false;
    for (int l = g->subject.start.line; l <= g->subject.end.line && !hide; l++)
      hide = l > 0 && (size_t)l < s.nlines && s.secret[l];
    if (!hide)
      continue;
    struct names names = {m};
    secret_hide_near(d, i, s.t, s.n, var_name, &names);
  }
  free(s.secret);
}
