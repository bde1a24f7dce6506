/*
** tfresolve lsp: completion.  A new top-level name: the variables the
** file does not set yet; inside an object value: the type's attributes
** not set yet; a value: the literals its type allows and the values its
** rules allow (tfr_resolution_allowed: the library reads their
** conditions); in a .tfvars.json key's string, the names.
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
static void values(const struct module *m, struct cursor *c,
                   const struct doc *d, const struct tfr_variable *v,
                   json_t *items) {
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
  /* the values its rules allow, as the library reads their conditions */
  size_t na = 0;
  const char **allowed =
      !*c->at.path && !v->sensitive
          ? tfr_resolution_allowed(c->a, m->res, v->name, &na)
          : NULL;
  for (size_t k = 0; k < na; k++)
    json_array_append_new(
        values, item(tfr_value_console(c->a, tfr_string(c->a, allowed[k],
                                                        strlen(allowed[k]))),
                     12 /* Value */, "allowed by a validation rule", NULL));
  size_t i;
  json_t *x;
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
      values(m, &c, d, v, items);
  } else if (!c.in_default && c.quote == SIZE_MAX &&
             (!c.found || c.at.in_key || at_top_name(d, c.byte))) {
    variables(&c, m, items);
  }
  if (key != SIZE_MAX)
    replace_key(&c, d, key, items);
  tfr_arena_free(c.a);
  return json_pack("{s:b, s:o}", "isIncomplete", 0, "items", items);
}
