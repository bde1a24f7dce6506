/*
** Reading a validation rule's text as written (rule_text.h): moved out of
** the language server (lsp.c), whose completion of allowed values was the
** first reader, for `inspect -json` and `docs` to say the same.
*/
#include "rule_text.h"

#include <stdlib.h>
#include <string.h>

bool text_name_char(char ch) {
  return ch == '_' || ch == '-' || (ch >= 'a' && ch <= 'z') ||
         (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

/* The byte after the string opening at i (t[i] == '"'), templates and
** escapes inside it skipped; n when it does not close. */
size_t text_skip_string(const char *t, size_t n, size_t i) {
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
      i = text_skip_string(t, n, i) - 1;
    } else if (!depth && (t[i] == '"' || t[i] == '\n')) {
      return t[i] == '"' ? i + 1 : i;
    }
  }
  return n;
}

/* The byte after a comment or heredoc starting at i, or i when none
** starts there. */
size_t text_skip_comment(const char *t, size_t n, size_t i) {
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
  if (t[i] == '<' && i + 2 < n && t[i + 1] == '<') { /* <<EOF, <<-EOF */
    size_t k = i + 2 + (t[i + 2] == '-'), m = k;
    while (m < n && (text_name_char(t[m])))
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
          (q + w == n || !text_name_char(t[q + w])))
        return q + w;
    }
    return n;
  }
  return i;
}

/* The next bracket at or after *i outside comments and strings: its
** index, with *i just past it; n when there is none before n. */
size_t text_next_bracket(const char *t, size_t n, size_t *i) {
  while (*i < n) {
    size_t k = text_skip_comment(t, n, *i);
    if (k != *i) {
      *i = k;
      continue;
    }
    char ch = t[*i];
    if (ch == '"') {
      *i = text_skip_string(t, n, *i);
      continue;
    }
    size_t at = (*i)++;
    if (ch == '{' || ch == '[' || ch == '(' || ch == '}' || ch == ']' ||
        ch == ')')
      return at;
  }
  return n;
}

/* The byte of the bracket closing the one at i ({ [ or (), or n. */
size_t text_close_of(const char *t, size_t n, size_t i) {
  int depth = 0;
  for (size_t at; (at = text_next_bracket(t, n, &i)) < n;)
    if (t[at] == '{' || t[at] == '[' || t[at] == '(')
      depth++;
    else if (--depth == 0)
      return at;
  return n;
}

/* [*s, *e) without the spaces around it, and without parentheses around
** the whole of it. */
static void trim_expr(const char *t, size_t *s, size_t *e) {
  for (;;) {
    while (*s < *e && strchr(" \t\r\n", t[*s]))
      (*s)++;
    while (*e > *s && strchr(" \t\r\n", t[*e - 1]))
      (*e)--;
    if (*e - *s < 2 || t[*s] != '(' || text_close_of(t, *e, *s) != *e - 1)
      return;
    (*s)++;
    (*e)--;
  }
}

/* The values conjunct [s, e) requires var.NAME to be one of, when it is
** exactly `contains([...], var.NAME)`: appended to list (console texts of
** its strings); false when it is not. */
static bool contains_list(tfr_arena *a, const char *t, size_t s, size_t e,
                          const char *name, json_t *list) {
  trim_expr(t, &s, &e);
  if (e - s < 9 || memcmp(t + s, "contains", 8))
    return false;
  size_t p = s + 8;
  while (p < e && (t[p] == ' ' || t[p] == '\t'))
    p++;
  if (p >= e || t[p] != '(' || text_close_of(t, e, p) != e - 1)
    return false;
  size_t q = p + 1;
  while (q < e && strchr(" \t\r\n", t[q]))
    q++;
  if (q >= e || t[q] != '[')
    return false;
  size_t qc = text_close_of(t, e, q);
  if (qc >= e)
    return false;
  size_t r = qc + 1;
  while (r < e && strchr(" \t\r\n", t[r]))
    r++;
  if (r >= e || t[r] != ',')
    return false;
  r++;
  while (r < e && strchr(" \t\r\n", t[r]))
    r++;
  size_t vn = strlen(name);
  if (r + 4 + vn > e || memcmp(t + r, "var.", 4) || memcmp(t + r + 4, name, vn))
    return false;
  r += 4 + vn;
  while (r < e && strchr(" \t\r\n", t[r]))
    r++;
  if (r != e - 1)
    return false;
  tfr_diags *dg = tfr_diags_new(a);
  tfr_file *x = tfr_parse_expr(a, dg, "<rule>", t + q, qc + 1 - q);
  const tfr_value *l = x ? tfr_eval_const(a, dg, x) : NULL;
  if (!l || tfr_value_is_null(l) || !tfr_value_is_known(l) ||
      (l->type->kind != TFR_TUPLE && l->type->kind != TFR_LIST))
    return false;
  for (uint32_t k = 0; k < l->n; k++) {
    const tfr_value *v = l->elems[k];
    if (v->type->kind == TFR_STRING && !tfr_value_is_null(v) &&
        tfr_value_is_known(v))
      json_array_append_new(list, json_string(tfr_value_console(a, v)));
  }
  return true;
}

/* The values of lists acc and one both hold (acc NULL: all of one's);
** both are released. */
json_t *rule_meet(json_t *acc, json_t *one) {
  if (!acc)
    return one;
  json_t *both = json_array();
  size_t x, y;
  json_t *e, *f;
  json_array_foreach(acc, x, e)
      json_array_foreach(one, y, f) if (json_equal(e, f))
          json_array_append(both, e);
  json_decref(acc);
  json_decref(one);
  return both;
}

/* A number as written, whole of [s, e), that is a JSON number too:
** [-]digits[.digits], no leading zero. */
static bool number_text(const char *t, size_t s, size_t e) {
  size_t i = s + (s < e && t[s] == '-'), first = i;
  bool dot = false;
  for (; i < e; i++) {
    if (t[i] >= '0' && t[i] <= '9')
      continue;
    if (t[i] != '.' || dot || i == first || i + 1 == e)
      return false;
    dot = true;
  }
  return i > first &&
         !(t[first] == '0' && first + 1 < e && t[first + 1] != '.');
}

/* Whether [s, e) is exactly `var.NAME` (0), `length(var.NAME)` (1), or
** neither (-1). */
static int subject(const char *t, size_t s, size_t e, const char *name) {
  trim_expr(t, &s, &e);
  size_t vn = strlen(name);
  if (e - s == 4 + vn && !memcmp(t + s, "var.", 4) &&
      !memcmp(t + s + 4, name, vn))
    return 0;
  if (e - s > 7 && !memcmp(t + s, "length(", 7) && t[e - 1] == ')' &&
      subject(t, s + 7, e - 1, name) == 0)
    return 1;
  return -1;
}

/* A conjunct `SUBJECT OP N` or `N OP SUBJECT` (OP one of < <= > >=):
** its bound into *b. */
static void bound(tfr_arena *a, const char *t, size_t s, size_t e,
                  const char *name, struct rule_bounds *b) {
  trim_expr(t, &s, &e);
  size_t op = e;
  for (size_t p = s; p < e; p++) {
    if (t[p] == '"') {
      p = text_skip_string(t, e, p) - 1;
      continue;
    }
    if (strchr("([{", t[p])) {
      p = text_close_of(t, e, p);
      continue;
    }
    if (t[p] == '<' || t[p] == '>') {
      if (op != e)
        return; /* two comparisons */
      op = p;
    }
  }
  if (op == e || op == s)
    return;
  bool eq = op + 1 < e && t[op + 1] == '=';
  size_t rs = op + 1 + eq, le = op, ls = s, re = e;
  trim_expr(t, &ls, &le);
  trim_expr(t, &rs, &re);
  bool less = t[op] == '<';
  int sub = subject(t, ls, le, name);
  size_t ns = rs, ne = re;
  if (sub < 0) { /* N OP SUBJECT: the other way round */
    sub = subject(t, rs, re, name);
    ns = ls, ne = le;
    less = !less;
  }
  if (sub < 0 || !number_text(t, ns, ne))
    return;
  const char *num = tfr_arena_strndup(a, t + ns, ne - ns);
  const char **at =
      less ? (sub ? &b->len_max : &b->max) : (sub ? &b->len_min : &b->min);
  bool *excl = less ? (sub ? &b->len_max_excl : &b->max_excl)
                    : (sub ? &b->len_min_excl : &b->min_excl);
  *at = num;
  *excl = !eq;
}

json_t *rule_allowed(tfr_arena *a, const char *t, size_t s, size_t e,
                     const char *name, json_t *forbidden,
                     struct rule_bounds *b) {
  json_t *list = NULL, *none = json_array(); /* committed at the end */
  struct rule_bounds nb = {0};
  size_t from = s;
  for (size_t p = s; p <= e;) {
    if (p < e && t[p] == '"') {
      p = text_skip_string(t, e, p);
      continue;
    }
    if (p < e && strchr("([{", t[p])) {
      p = text_close_of(t, e, p) + 1;
      continue;
    }
    if (p < e && t[p] == '|' && p + 1 < e && t[p + 1] == '|') {
      json_decref(list); /* a disjunction (|| binds looser than &&): */
      json_decref(none); /* nothing is known of the whole */
      return NULL;
    }
    if (p == e || (t[p] == '&' && p + 1 < e && t[p + 1] == '&')) {
      json_t *one = json_array();
      if (contains_list(a, t, from, p, name, one)) {
        list = rule_meet(list, one);
      } else {
        /* `!contains([...], var.NAME)`: none of those */
        size_t ns = from, ne = p;
        trim_expr(t, &ns, &ne);
        if (ns < ne && t[ns] == '!')
          contains_list(a, t, ns + 1, ne, name, none);
        else
          bound(a, t, from, p, name, &nb);
        json_decref(one);
      }
      p += 2;
      from = p;
      continue;
    }
    p++;
  }
  if (b)
    *b = nb;
  json_array_extend(forbidden, none);
  json_decref(none);
  return list;
}

void rule_remove(json_t *allowed, json_t *forbidden) {
  for (size_t k = json_array_size(allowed); k-- > 0;) {
    size_t x;
    json_t *e;
    json_array_foreach(forbidden, x, e) {
      if (json_equal(e, json_array_get(allowed, k))) {
        json_array_remove(allowed, k);
        break;
      }
    }
  }
}
