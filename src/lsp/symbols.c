/*
** tfresolve lsp: document symbols.  A tfvars file's keys, nested keys as
** children down to SYMBOL_LEVELS levels, at most SYMBOL_CHILDREN of each
** object below the top (an outline, bounded in size whatever the file:
** a 1 MB file of deep values gives its top-level keys and their first
** levels); a configuration file's variable blocks, their types as
** detail.  Names and types only: no value.  Read by the library's
** tolerant reader, so a file being typed still has its outline.
*/
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

enum { SYMBOL_LEVELS = 3, SYMBOL_CHILDREN = 200 };

/* The symbols of items it[0..n) (kind Variable at the top, Property
** below), with their objects' keys as children. */
static json_t *key_symbols(tfr_arena *a, tfr_text *x, struct text_lines *tl,
                           const struct module *m,
                           const struct tfr_text_item *it, size_t n,
                           int depth) {
  json_t *out = json_array();
  if (depth && n > SYMBOL_CHILDREN)
    n = SYMBOL_CHILDREN;
  for (size_t i = 0; i < n; i++) {
    struct tfr_range all = it[i].key;
    if (it[i].value.end.byte > all.end.byte)
      all.end = it[i].value.end;
    json_t *sym = json_pack("{s:s, s:i, s:o, s:o}", "name", it[i].name, "kind",
                            depth ? 7 : 13, "range", lsp_range_in(tl, &all),
                            "selectionRange", lsp_range_in(tl, &it[i].key));
    const struct tfr_variable *v =
        !depth && m ? lsp_variable(m, it[i].name) : NULL;
    if (v)
      json_object_set_new(sym, "detail",
                          json_string(tfr_type_expr(a, v->declared)));
    if (it[i].close > it[i].open && depth + 1 < SYMBOL_LEVELS) {
      size_t k;
      const struct tfr_text_item *kids =
          tfr_text_items(x, it[i].open + 1, it[i].close, &k);
      if (k)
        json_object_set_new(sym, "children",
                            key_symbols(a, x, tl, m, kids, k, depth + 1));
    }
    json_array_append_new(out, sym);
  }
  return out;
}

/* A configuration file's variable blocks. */
static json_t *block_symbols(tfr_arena *a, tfr_text *x, struct text_lines *tl,
                             const struct module *m, const struct doc *d) {
  json_t *out = json_array();
  for (size_t i = 0; m->res && i < m->res->n; i++) {
    const struct tfr_variable *v = tfr_resolution_variable(m->res, i);
    if (!v->decl.filename || strcmp(v->decl.filename, d->path) ||
        v->decl.end.byte > d->len)
      continue;
    struct tfr_range all = v->decl;
    size_t o = v->decl.end.byte;
    while (o < d->len && d->text[o] != '{' && d->text[o] != '\n')
      o++;
    if (o < d->len && d->text[o] == '{')
      all.end.byte = tfr_text_closing(x, o, d->len) + 1;
    if (all.end.byte > d->len)
      all.end.byte = d->len;
    json_array_append_new(
        out,
        json_pack("{s:s, s:i, s:s, s:o, s:o}", "name", v->name, "kind", 13,
                  "detail", v->typed ? tfr_type_expr(a, v->declared) : "any",
                  "range", lsp_range_in(tl, &all), "selectionRange",
                  lsp_range_in(tl, &v->decl)));
  }
  return out;
}

json_t *lsp_symbols(struct server *s, struct doc *d, json_t *params) {
  (void)params;
  tfr_arena *a = tfr_arena_new();
  struct text_lines tl = {d->text, d->len, NULL, 0, 0, 0, 0};
  tfr_text *x = tfr_text_new(a, d->path, d->text, d->len);
  json_t *out;
  if (lsp_is_tfvars(d->path)) {
    /* the module for the types: as it was last resolved (an outline
    ** does not wait for a resolution) */
    struct module *m = lsp_module_for_doc(s, d);
    size_t n;
    const struct tfr_text_item *it = tfr_text_top(x, &n);
    out = key_symbols(a, x, &tl, m->res ? m : NULL, it, n, 0);
  } else {
    out = block_symbols(a, x, &tl, lsp_fresh_module(s, d), d);
  }
  free(tl.starts);
  tfr_arena_free(a);
  return out;
}
