/*
** tfresolve lsp: go to definition.  From a tfvars key (or a variable's
** default), the `variable` block declaring it; from an attribute inside
** a value, that attribute's name in the type expression.
*/
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

static bool name_char(char ch) {
  return ch == '_' || ch == '-' || (ch >= 'a' && ch <= 'z') ||
         (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

/* Whether t[i..i+k) is the whole word w followed by "=" (an attribute of
** an object type expression). */
static bool attr_here(const char *t, size_t end, size_t i, const char *w,
                      size_t k) {
  if (i + k > end || memcmp(t + i, w, k) || (i > 0 && name_char(t[i - 1])) ||
      (i + k < end && name_char(t[i + k])))
    return false;
  i += k;
  while (i < end && (t[i] == ' ' || t[i] == '\t'))
    i++;
  return i < end && t[i] == '=';
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
        size_t i = from;
        while (in_type && i < end && !attr_here(text, end, i, w, k))
          i++;
        if (in_type && i < end) {
          from = i;
          at.start.byte = i;
          at.end.byte = i + k;
        }
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
