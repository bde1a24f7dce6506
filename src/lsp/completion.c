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

/* The values conjunct [s, e) requires var.NAME to be one of, when it is
** exactly `contains([...], var.NAME)`: appended to list (console texts of
** its strings); false when it is not. */
static bool contains_list(tfr_arena *a, tfr_text *x, const char *t, size_t s,
                          size_t e, const char *name, json_t *list) {
  tfr_text_trim(x, &s, &e);
  if (e - s < 9 || memcmp(t + s, "contains", 8))
    return false;
  size_t p = s + 8;
  while (p < e && (t[p] == ' ' || t[p] == '\t'))
    p++;
  if (p >= e || t[p] != '(' || tfr_text_closing(x, p, e) != e - 1)
    return false;
  size_t n;
  const struct tfr_range *args = tfr_text_split(x, p + 1, e - 1, ",", &n);
  if (n != 2 || args[0].start.byte >= args[0].end.byte ||
      t[args[0].start.byte] != '[' ||
      !is_var(x, t, args[1].start.byte, args[1].end.byte, name))
    return false;
  return strings_of(a, t, args[0].start.byte, args[0].end.byte, list);
}

/* The conjuncts of condition [s, e) (split at && outside brackets and
** strings) into *allowed (met with each `contains([...], var.NAME)`) and
** forbidden (each `!contains([...], var.NAME)`). */
static void conjuncts(tfr_arena *a, tfr_text *x, const char *t, size_t s,
                      size_t e, const char *name, json_t **allowed,
                      json_t *forbidden) {
  size_t n;
  const struct tfr_range *part = tfr_text_split(x, s, e, "&&", &n);
  json_t *list = NULL;
  for (size_t k = 0; k < n; k++) {
    size_t ps = part[k].start.byte, pe = part[k].end.byte;
    json_t *one = json_array();
    if (contains_list(a, x, t, ps, pe, name, one)) {
      list = meet(list, one);
      continue;
    }
    json_decref(one);
    if (ps < pe && t[ps] == '!') /* `!contains([...], var.NAME)` */
      contains_list(a, x, t, ps + 1, pe, name, forbidden);
  }
  if (list)
    *allowed = meet(*allowed, list);
}

/* The values variable v's rules allow, read from their conditions as
** written: a condition that is `contains([...], var.NAME)`, alone or
** joined to others by &&, allows the strings of its list (a value must be
** in every such list) but those of a `!contains([...], var.NAME)` joined
** the same way; one under `||` says nothing of the kind.
** NULL when no rule reads that way. */
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

json_t *lsp_completion(struct server *s, struct doc *d, json_t *params) {
  struct cursor c = lsp_locate(s, d, json_object_get(params, "position"));
  json_t *items = json_array();
  if (!lsp_is_tfvars(d->path) && !c.in_default) {
    tfr_arena_free(c.a);
    return items;
  }
  struct module *m = lsp_fresh_module(s, d);
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
    if (!c.at.in_key)
      values(s, &c, d, v, items);
  } else if (!c.in_default && c.quote == SIZE_MAX &&
             (!c.found || c.at.in_key || at_top_name(d, c.byte))) {
    variables(&c, m, items);
  }
  tfr_arena_free(c.a);
  return json_pack("{s:b, s:o}", "isIncomplete", 0, "items", items);
}
