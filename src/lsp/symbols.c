/*
** tfresolve lsp: document symbols.  A tfvars file's keys, nested keys as
** children: every top-level key, and the levels below it (at most
** SYMBOL_LEVELS in all) while they hold at most SYMBOL_BELOW keys
** together, at most SYMBOL_CHILDREN of each object: an outline bounded
** in size whatever the file (a 1 MB file of thousands of deep values
** gives its top-level keys).  A configuration file's variable blocks,
** their types as detail.  Names and types only: no value.  Read by the
** library's tolerant reader, so a file being typed still has its
** outline.
*/
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

enum { SYMBOL_LEVELS = 3, SYMBOL_CHILDREN = 200, SYMBOL_BELOW = 2000 };

/* The symbols of items it[0..n) (kind Variable at the top, Property
** below), with their objects' keys as children. */
static json_t *key_symbols(tfr_arena *a, tfr_text *x, struct text_lines *tl,
                           const struct module *m,
                           const struct tfr_text_item *it, size_t n, int depth,
                           int levels) {
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
    if (it[i].close > it[i].open && depth + 1 < levels) {
      size_t k;
      const struct tfr_text_item *kids =
          tfr_text_items(x, it[i].open + 1, it[i].close, &k);
      if (k)
        json_object_set_new(
            sym, "children",
            key_symbols(a, x, tl, m, kids, k, depth + 1, levels));
    }
    json_array_append_new(out, sym);
  }
  return out;
}

/* How many levels the outline of top-level items it[0..n) shows: the
** top, and each level below (breadth first) while all of them hold at
** most SYMBOL_BELOW keys (at most SYMBOL_CHILDREN of an object). */
static int levels_of(tfr_arena *a, tfr_text *x, const struct tfr_text_item *it,
                     size_t n) {
  const struct tfr_text_item **level =
      tfr_arena_alloc(a, (n ? n : 1) * sizeof *level);
  for (size_t i = 0; i < n; i++)
    level[i] = &it[i];
  size_t all = 0;
  int levels = 1;
  for (; levels < SYMBOL_LEVELS && n; levels++) {
    const struct tfr_text_item **next =
        tfr_arena_alloc(a, (SYMBOL_BELOW + 1) * sizeof *next);
    size_t nn = 0;
    for (size_t i = 0; i < n && all <= SYMBOL_BELOW; i++) {
      if (level[i]->close <= level[i]->open)
        continue;
      size_t k;
      const struct tfr_text_item *kids =
          tfr_text_items(x, level[i]->open + 1, level[i]->close, &k);
      for (size_t j = 0; j < k && j < SYMBOL_CHILDREN; j++, all++)
        if (all < SYMBOL_BELOW)
          next[nn++] = &kids[j];
    }
    if (all > SYMBOL_BELOW || !nn)
      break;
    level = next;
    n = nn;
  }
  return levels;
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
    out = key_symbols(a, x, &tl, m->res ? m : NULL, it, n, 0,
                      levels_of(a, x, it, n));
  } else {
    out = block_symbols(a, x, &tl, lsp_fresh_module(s, d), d);
  }
  free(tl.starts);
  tfr_arena_free(a);
  return out;
}
