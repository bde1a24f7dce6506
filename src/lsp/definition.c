/*
** tfresolve lsp: go to definition.  From a tfvars key (or a variable's
** default), the `variable` block declaring it; from an attribute inside
** a value, that attribute's name in the type expression (read by the
** tolerant reader).
*/
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

/* Attribute name of the first object type expression in [*from, end) of
** the type's text (`object({...})`, inside `optional(...)`, `map(...)`
** or `list(...)` too), read by the tolerant reader: its key's bytes in
** *at, and *from its type's text, for the next step; false when none. */
static bool type_attr(tfr_text *x, const char *text, size_t *from, size_t end,
                      const char *name, struct tfr_range *at) {
  size_t o = *from;
  while (o < end && text[o] != '{')
    o++;
  if (o >= end)
    return false;
  size_t n;
  const struct tfr_text_item *it =
      tfr_text_items(x, o + 1, tfr_text_closing(x, o, end), &n);
  for (size_t i = 0; i < n; i++)
    if (!strcmp(it[i].name, name)) {
      at->start = it[i].key.start;
      at->end = it[i].key.end;
      *from = it[i].value.start.byte;
      return true;
    }
  return false;
}

json_t *lsp_definition(struct server *s, struct doc *d, json_t *params) {
  struct cursor c = lsp_locate(s, d, json_object_get(params, "position"));
  struct module *m = c.found ? lsp_fresh_module(s, d) : NULL;
  const struct tfr_variable *v = m ? lsp_variable(m, c.at.variable) : NULL;
  json_t *result = json_null();
  if (v && v->decl.filename && !c.in_default) {
    struct tfr_range at = v->decl;
    size_t len;
    char *owned;
    const char *text = lsp_file_text(s, at.filename, &len, &owned);
    /* an attribute: its name inside the type expression, found step by
    ** step along the path; a map's key is in no type (null) */
    const tfr_type *t = v->declared;
    size_t from = v->type_range.start.byte, end = v->type_range.end.byte;
    bool in_type = text && v->type_range.filename &&
                   !strcmp(v->type_range.filename, at.filename) && end <= len;
    tfr_text *x = in_type ? tfr_text_new(c.a, at.filename, text, len) : NULL;
    for (const char *p = c.at.path; *p && t;) {
      if (*p == '[') {
        const char *e = strchr(p, ']');
        unsigned long i = strtoul(p + 1, NULL, 10);
        t = t->kind == TFR_TUPLE ? i < t->n ? t->types[i] : NULL
            : t->kind == TFR_LIST || t->kind == TFR_SET ? t->elem
                                                        : NULL;
        p = e ? e + 1 : p + strlen(p);
        continue;
      }
      size_t k = strcspn(p + 1, ".[");
      if (t->kind == TFR_MAP) {
        t = t->elem;
        if (!p[1 + k]) { /* the cursor's key: a map key */
          free(owned);
          tfr_arena_free(c.a);
          return json_null();
        }
      } else if (t->kind == TFR_OBJECT) {
        long j = tfr_type_attr(t, p + 1, k);
        t = j >= 0 ? t->types[j] : NULL;
        char *w = tfr_arena_strndup(c.a, p + 1, k);
        if (in_type && !type_attr(x, text, &from, end, w, &at))
          in_type = false; /* the declaration itself, then */
      } else {
        t = NULL;
      }
      p += 1 + k;
    }
    if (text) {
      char *uri = lsp_path_uri(at.filename);
      result = json_pack("{s:s, s:o}", "uri", uri, "range",
                         lsp_range_of(text, len, &at));
      free(uri);
    }
    free(owned);
  }
  tfr_arena_free(c.a);
  return result;
}
