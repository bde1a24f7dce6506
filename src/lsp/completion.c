/*
** tfresolve lsp: completion.  A new top-level name: the variables the
** file does not set yet; inside an object value: the type's attributes
** not set yet; a value: the literals its type allows and the values its
** rules allow, as written in their conditions.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

static json_t *item(const char *label, int kind, const char *detail,
                    const char *doc) {
  json_t *it = json_pack("{s:s, s:i}", "label", label, "kind", kind);
  if (detail)
    json_object_set_new(it, "detail", json_string(detail));
  if (doc)
    json_object_set_new(it, "documentation", json_string(doc));
  return it;
}

/* Whether the text of the line before byte holds only a name being
** typed (a new top-level attribute). */
static bool at_top_name(const struct doc *d, size_t byte) {
  size_t i = byte;
  while (i > 0 && d->text[i - 1] != '\n')
    i--;
  for (; i < byte; i++) {
    char ch = d->text[i];
    if (!(ch == ' ' || ch == '\t' || ch == '_' || ch == '-' ||
          (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
          (ch >= '0' && ch <= '9')))
      return false;
  }
  return true;
}

/* The values of lists acc and one both hold (acc NULL: all of one's);
** both are released. */
static json_t *meet(json_t *acc, json_t *one) {
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

/* The strings of the list [s, e) (a constant `[...]`) appended to list;
** false when it is none. */
static bool strings_of(tfr_arena *a, const char *t, size_t s, size_t e,
                       json_t *list) {
  tfr_diags *dg = tfr_diags_new(a);
  tfr_file *x = tfr_parse_expr(a, dg, "<rule>", t + s, e - s);
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

/* Whether [s, e) of x is exactly var.NAME. */
static bool is_var(const tfr_text *x, const char *t, size_t s, size_t e,
                   const char *name) {
  tfr_text_trim(x, &s, &e);
  size_t n = strlen(name);
  return e - s == 4 + n && !memcmp(t + s, "var.", 4) &&
         !memcmp(t + s + 4, name, n);
}

/* The inside of a call to fn that is the whole of [s, e) (its
** parentheses out, trimmed) in [*is, *ie); false when it is none. */
static bool call_of(const tfr_text *x, const char *t, size_t s, size_t e,
                    const char *fn, size_t *is, size_t *ie) {
  size_t k = strlen(fn);
  if (e - s < k + 2 || memcmp(t + s, fn, k))
    return false;
  size_t p = s + k;
  while (p < e && (t[p] == ' ' || t[p] == '\t'))
    p++;
  if (p >= e || t[p] != '(' || tfr_text_closing(x, p, e) != e - 1)
    return false;
  *is = p + 1;
  *ie = e - 1;
  tfr_text_trim(x, is, ie);
  return true;
}

/* The string constant [s, e) appended to list; false when it is none. */
static bool literal(tfr_arena *a, const char *t, size_t s, size_t e,
                    json_t *list) {
  tfr_diags *dg = tfr_diags_new(a);
  tfr_file *x = e > s ? tfr_parse_expr(a, dg, "<rule>", t + s, e - s) : NULL;
  const tfr_value *v = x ? tfr_eval_const(a, dg, x) : NULL;
  if (!v || v->type->kind != TFR_STRING || tfr_value_is_null(v) ||
      !tfr_value_is_known(v))
    return false;
  json_array_append_new(list, json_string(tfr_value_console(a, v)));
  return true;
}

/* Whether [s, e) compares var.NAME with a string by op ("==", "!="):
** the string appended to list. */
static bool compares(tfr_arena *a, tfr_text *x, const char *t, size_t s,
                     size_t e, const char *name, const char *op, json_t *list) {
  size_t n;
  const struct tfr_range *side = tfr_text_split(x, s, e, op, &n);
  if (n != 2)
    return false;
  for (int k = 0; k < 2; k++)
    if (is_var(x, t, side[k].start.byte, side[k].end.byte, name))
      return literal(a, t, side[1 - k].start.byte, side[1 - k].end.byte, list);
  return false;
}

/* `for v in [...] : var.NAME op v` in [s, e): the list's strings
** appended to list. */
static bool for_compares(tfr_arena *a, tfr_text *x, const char *t, size_t s,
                         size_t e, const char *name, const char *op,
                         json_t *list) {
  size_t n;
  const struct tfr_range *part = tfr_text_split(x, s, e, ":", &n);
  if (n != 2 || e - s < 4 || memcmp(t + s, "for", 3) ||
      !strchr(" \t", t[s + 3]))
    return false;
  size_t p = s + 3, hend = part[0].end.byte;
  while (p < hend && strchr(" \t", t[p]))
    p++;
  size_t v = p;
  while (p < hend &&
         (t[p] == '_' || t[p] == '-' || (t[p] >= 'a' && t[p] <= 'z') ||
          (t[p] >= 'A' && t[p] <= 'Z') || (t[p] >= '0' && t[p] <= '9')))
    p++;
  size_t ve = p;
  while (p < hend && strchr(" \t", t[p]))
    p++;
  if (ve == v || hend - p < 3 || memcmp(t + p, "in", 2) ||
      !strchr(" \t[", t[p + 2]))
    return false;
  size_t ls = p + 2, le = hend;
  tfr_text_trim(x, &ls, &le);
  size_t k;
  const struct tfr_range *side =
      tfr_text_split(x, part[1].start.byte, part[1].end.byte, op, &k);
  if (k != 2)
    return false;
  for (int i = 0; i < 2; i++) {
    const struct tfr_range *w = &side[1 - i];
    if (is_var(x, t, side[i].start.byte, side[i].end.byte, name) &&
        w->end.byte - w->start.byte == ve - v &&
        !memcmp(t + w->start.byte, t + v, ve - v))
      return ls < le && t[ls] == '[' && strings_of(a, t, ls, le, list);
  }
  return false;
}

/* Whether the tuple [s, e) (`[...]`) holds comparisons of var.NAME with
** strings by op, one each (or is `[for v in [...] : var.NAME op v]`):
** the strings appended to list. */
static bool each_compares(tfr_arena *a, tfr_text *x, const char *t, size_t s,
                          size_t e, const char *name, const char *op,
                          json_t *list) {
  tfr_text_trim(x, &s, &e);
  if (e - s < 2 || t[s] != '[' || tfr_text_closing(x, s, e) != e - 1)
    return false;
  size_t n;
  const struct tfr_range *el = tfr_text_split(x, s + 1, e - 1, ",", &n);
  if (n == 1 &&
      for_compares(a, x, t, el[0].start.byte, el[0].end.byte, name, op, list))
    return true;
  json_t *got = json_array();
  bool all = n > 0;
  for (size_t k = 0; k < n && all; k++)
    all = (k == n - 1 && el[k].start.byte == el[k].end.byte) ||
          compares(a, x, t, el[k].start.byte, el[k].end.byte, name, op, got);
  if (all)
    json_array_extend(list, got);
  json_decref(got);
  return all;
}

/* The values conjunct [s, e) requires var.NAME to be one of, when it is
** an allow-list: `contains([...], var.NAME)`, `anytrue([var.NAME == "a",
** ...])` (or `[for v in [...] : var.NAME == v]`), `var.NAME == "a" ||
** var.NAME == "b"`, `var.NAME == "a"`: appended to list (console texts of
** its strings); false when it is none. */
static bool one_of(tfr_arena *a, tfr_text *x, const char *t, size_t s, size_t e,
                   const char *name, json_t *list) {
  tfr_text_trim(x, &s, &e);
  size_t is, ie, n;
  if (call_of(x, t, s, e, "contains", &is, &ie)) {
    const struct tfr_range *arg = tfr_text_split(x, is, ie, ",", &n);
    return n == 2 && arg[0].start.byte < arg[0].end.byte &&
           t[arg[0].start.byte] == '[' &&
           is_var(x, t, arg[1].start.byte, arg[1].end.byte, name) &&
           strings_of(a, t, arg[0].start.byte, arg[0].end.byte, list);
  }
  if (call_of(x, t, s, e, "anytrue", &is, &ie))
    return each_compares(a, x, t, is, ie, name, "==", list);
  const struct tfr_range *alt = tfr_text_split(x, s, e, "||", &n);
  if (n < 2)
    return compares(a, x, t, s, e, name, "==", list);
  json_t *got = json_array();
  bool all = true;
  for (size_t k = 0; k < n && all; k++)
    all =
        compares(a, x, t, alt[k].start.byte, alt[k].end.byte, name, "==", got);
  if (all)
    json_array_extend(list, got);
  json_decref(got);
  return all;
}

/* The values conjunct [s, e) forbids var.NAME to be: a negated
** allow-list (`!contains(...)`, `!anytrue(...)`, `!(var.NAME == "a")`),
** `var.NAME != "a"`, `alltrue([var.NAME != "a", ...])`: appended to
** list. */
static void none_of(tfr_arena *a, tfr_text *x, const char *t, size_t s,
                    size_t e, const char *name, json_t *list) {
  tfr_text_trim(x, &s, &e);
  size_t is, ie;
  if (s < e && t[s] == '!')
    one_of(a, x, t, s + 1, e, name, list);
  else if (call_of(x, t, s, e, "alltrue", &is, &ie))
    each_compares(a, x, t, is, ie, name, "!=", list);
  else
    compares(a, x, t, s, e, name, "!=", list);
}

/* The conjuncts of condition [s, e) (split at && outside brackets and
** strings) into *allowed (met with each allow-list, one_of) and
** forbidden (none_of). */
static void conjuncts(tfr_arena *a, tfr_text *x, const char *t, size_t s,
                      size_t e, const char *name, json_t **allowed,
                      json_t *forbidden) {
  size_t n;
  tfr_text_trim(x, &s, &e); /* (A && B) */
  const struct tfr_range *part = tfr_text_split(x, s, e, "&&", &n);
  json_t *list = NULL;
  for (size_t k = 0; k < n; k++) {
    size_t ps = part[k].start.byte, pe = part[k].end.byte;
    json_t *one = json_array();
    if (one_of(a, x, t, ps, pe, name, one)) {
      list = meet(list, one);
      continue;
    }
    json_decref(one);
    none_of(a, x, t, ps, pe, name, forbidden);
  }
  if (list)
    *allowed = meet(*allowed, list);
}

/* The values variable v's rules allow, read from their conditions as
** written: a condition that is an allow-list (one_of), alone or joined
** to others by &&, allows its strings (a value must be in every such
** list) but those a negated one (none_of) joined the same way forbids;
** one under `||` with something else says nothing of the kind.  NULL
** when no rule reads that way. */
static json_t *allowed_values(struct server *s, tfr_arena *a,
                              const struct tfr_variable *v) {
  json_t *allowed = NULL, *forbidden = json_array();
  for (size_t i = 0; i < v->nrules; i++) {
    const struct tfr_rule *r = tfr_variable_rule(v, i);
    if (!r->range.filename)
      continue;
    size_t len;
    char *owned;
    const char *text = lsp_file_text(s, r->range.filename, &len, &owned);
    size_t open = r->range.end.byte;
    while (text && open < len && text[open] != '{')
      open++;
    if (!text || open >= len) {
      free(owned);
      continue;
    }
    tfr_text *x = tfr_text_new(a, r->range.filename, text, len);
    size_t n;
    const struct tfr_text_item *it =
        tfr_text_items(x, open + 1, tfr_text_closing(x, open, len), &n);
    for (size_t k = 0; k < n; k++)
      if (!strcmp(it[k].name, "condition"))
        conjuncts(a, x, text, it[k].value.start.byte, it[k].value.end.byte,
                  v->name, &allowed, forbidden);
    free(owned);
  }
  for (size_t k = json_array_size(allowed); k-- > 0;) {
    size_t i;
    json_t *e;
    json_array_foreach(forbidden, i, e) {
      if (json_equal(e, json_array_get(allowed, k))) {
        json_array_remove(allowed, k);
        break;
      }
    }
  }
  json_decref(forbidden);
  return allowed;
}

/* The names set in the object the cursor is in (other than the one being
** typed at the cursor), sorted; NULL when the cursor is in no object. */
static const char **names_set(const struct cursor *c, const struct doc *d,
                              size_t *n) {
  *n = 0;
  size_t ob = tfr_text_enclosing(c->text, c->byte);
  if (ob == SIZE_MAX || (!c->at.in_key && ob < c->at.value.start.byte))
    return NULL;
  size_t k;
  const struct tfr_text_item *it = tfr_text_items(
      c->text, ob + 1, tfr_text_closing(c->text, ob, d->len), &k);
  const char **names = tfr_arena_alloc(c->a, (k ? k : 1) * sizeof *names);
  for (size_t i = 0; i < k; i++) {
    size_t ks = it[i].key.start.byte, ke = it[i].key.end.byte;
    if (!(c->byte >= ks && c->byte <= ke) &&
        !(c->byte < ks && strspn(d->text + c->byte, " \t") >= ks - c->byte))
      names[(*n)++] = it[i].name;
  }
  if (*n > 1)
    qsort(names, *n, sizeof *names, lsp_cmp_cstr);
  return names;
}

/* The attributes of object type t (at obj below v) not set yet. */
static void attributes(struct cursor *c, const struct doc *d,
                       const struct module *m, const struct tfr_variable *v,
                       const char *obj, const tfr_type *t, json_t *items) {
  size_t nset;
  const char **set = names_set(c, d, &nset);
  for (uint32_t i = 0; i < t->n; i++) {
    if (nset && bsearch(&t->names[i], set, nset, sizeof *set, lsp_cmp_cstr))
      continue; /* set already */
    bool o = t->optional && t->optional[i];
    const tfr_value *dv =
        o && !v->sensitive
            ? tfr_resolution_attr_default(
                  m->res, v->name,
                  tfr_arena_printf(c->a, "%s.%s", obj, t->names[i]))
            : NULL;
    json_array_append_new(
        items, item(t->names[i], 10 /* Property */,
                    tfr_arena_printf(
                        c->a, "%s%s%s%s", tfr_type_expr(c->a, t->types[i]),
                        o ? " (optional" : "",
                        dv ? tfr_arena_printf(c->a, ", default %s",
                                              tfr_value_console(c->a, dv))
                           : "",
                        o ? ")" : ""),
                    NULL));
  }
}

/* A value: the literals its type allows, and those its rules allow; in
** a string being typed, each replaces it, quotes and all. */
static void values(struct server *s, struct cursor *c, const struct doc *d,
                   const struct tfr_variable *v, json_t *items) {
  json_t *values = json_array();
  bool opt;
  const tfr_type *t = lsp_type_at(v->declared, c->at.path, &opt);
  if (t && c->quote == SIZE_MAX &&
      (t->kind == TFR_BOOL || t->kind == TFR_DYNAMIC)) {
    json_array_append_new(values, item("true", 12, "bool", NULL));
    json_array_append_new(values, item("false", 12, "bool", NULL));
  }
  if (t && v->nullable && c->quote == SIZE_MAX)
    json_array_append_new(values, item("null", 12, NULL, NULL));
  json_t *allowed =
      !*c->at.path && !v->sensitive ? allowed_values(s, c->a, v) : NULL;
  size_t i;
  json_t *x;
  json_array_foreach(allowed, i, x)
      json_array_append_new(values, item(json_string_value(x), 12 /* Value */,
                                         "allowed by a validation rule", NULL));
  json_decref(allowed);
  if (c->quote != SIZE_MAX) {
    size_t end =
        c->byte < d->len && d->text[c->byte] == '"' ? c->byte + 1 : c->byte;
    struct tfr_range r = {0};
    r.start.byte = c->quote;
    r.end.byte = end;
    json_array_foreach(values, i, x) {
      const char *label = json_string_value(json_object_get(x, "label"));
      json_object_set_new(x, "filterText", json_string(label));
      json_object_set_new(x, "textEdit",
                          json_pack("{s:o, s:s}", "range",
                                    lsp_range_of(d->text, d->len, &r),
                                    "newText", label));
    }
  }
  json_array_extend(items, values);
  json_decref(values);
}

/* A new top-level name: the variables this file does not set yet (other
** than the name being typed). */
static void variables(struct cursor *c, const struct module *m, json_t *items) {
  size_t nset = 0;
  const struct tfr_text_item *it = tfr_text_top(c->text, &nset);
  const char **names = tfr_arena_alloc(c->a, (nset ? nset : 1) * sizeof *names);
  for (size_t i = 0; i < nset; i++)
    names[i] = it[i].name;
  if (nset > 1) /* sorted, to be looked up */
    qsort(names, nset, sizeof *names, lsp_cmp_cstr);
  for (size_t i = 0; m->res && i < m->res->n; i++) {
    const struct tfr_variable *x = tfr_resolution_variable(m->res, i);
    bool set = nset &&
               bsearch(&x->name, names, nset, sizeof *names, lsp_cmp_cstr) &&
               !(c->found && c->at.in_key && !strcmp(x->name, c->at.variable));
    if (!set)
      json_array_append_new(items, item(x->name, 6 /* Variable */,
                                        tfr_type_expr(c->a, x->declared),
                                        x->description));
  }
}

/* In a .tfvars.json document, the cursor in a string where a key goes
** (after "{" or ","): that string's opening quote; else SIZE_MAX. */
static size_t json_key_at(const struct cursor *c, const struct doc *d) {
  if (!cli_has_suffix(d->path, ".json") || c->quote == SIZE_MAX)
    return SIZE_MAX;
  size_t i = c->quote;
  while (i > 0 && strchr(" \t\r\n", d->text[i - 1]))
    i--;
  return i > 0 && (d->text[i - 1] == '{' || d->text[i - 1] == ',') ? c->quote
                                                                   : SIZE_MAX;
}

/* Each of items replaces the key's string at [quote, the cursor's
** closing quote), quotes and all. */
static void replace_key(const struct cursor *c, const struct doc *d,
                        size_t quote, json_t *items) {
  struct tfr_range r = {0};
  r.start.byte = quote;
  r.end.byte =
      c->byte < d->len && d->text[c->byte] == '"' ? c->byte + 1 : c->byte;
  size_t i;
  json_t *x;
  json_array_foreach(items, i, x) {
    const char *label = json_string_value(json_object_get(x, "label"));
    char *quoted = cli_alloc(strlen(label) + 3);
    sprintf(quoted, "\"%s\"", label);
    json_object_set_new(x, "filterText", json_string(quoted));
    json_object_set_new(x, "textEdit",
                        json_pack("{s:o, s:s}", "range",
                                  lsp_range_of(d->text, d->len, &r), "newText",
                                  quoted));
    free(quoted);
  }
}

json_t *lsp_completion(struct server *s, struct doc *d, json_t *params) {
  struct cursor c = lsp_locate(s, d, json_object_get(params, "position"));
  json_t *items = json_array();
  if (!lsp_is_tfvars(d->path) && !c.in_default) {
    tfr_arena_free(c.a);
    return items;
  }
  struct module *m = lsp_fresh_module(s, d);
  /* a JSON key being typed is a string: names, not values, go there */
  size_t key = json_key_at(&c, d);
  if (key != SIZE_MAX)
    c.quote = SIZE_MAX;
  const struct tfr_variable *v =
      c.found ? lsp_variable(m, c.at.variable) : NULL;
  /* the object whose attributes may go here: where the cursor is, or
  ** (on a nested key) the object holding that key */
  char *obj = v ? tfr_arena_strdup(c.a, c.at.path) : NULL;
  if (obj && c.at.in_key) {
    char *cut = strrchr(obj, '.');
    if (cut && !strchr(cut, '['))
      *cut = '\0';
    else
      obj = NULL;
  }
  if (v && obj && (!c.at.in_key || *c.at.path || c.in_default)) {
    bool opt;
    const tfr_type *t = lsp_type_at(v->declared, obj, &opt);
    if (t && t->kind == TFR_OBJECT && c.quote == SIZE_MAX)
      attributes(&c, d, m, v, obj, t, items);
    if (!c.at.in_key && key == SIZE_MAX)
      values(s, &c, d, v, items);
  } else if (!c.in_default && c.quote == SIZE_MAX &&
             (!c.found || c.at.in_key || at_top_name(d, c.byte))) {
    variables(&c, m, items);
  }
  if (key != SIZE_MAX)
    replace_key(&c, d, key, items);
  tfr_arena_free(c.a);
  return json_pack("{s:b, s:o}", "isIncomplete", 0, "items", items);
}
