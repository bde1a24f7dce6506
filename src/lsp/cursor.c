/*
** tfresolve lsp: what is under the cursor, read by the library's
** tolerant reader (tfr_text_locate): a name half typed, a value not
** typed yet, a string not closed cost nothing, and no text is parsed
** again.  In a configuration file, the cursor in a variable's `default`
** value is read the same way, that value as a variables file's.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

/* The variable (of module m) whose block in .tf document d holds byte, and
** that block's braces; NULL when none. */
static const struct tfr_variable *block_at(const struct module *m,
                                           const struct doc *d,
                                           const tfr_text *x, size_t byte,
                                           size_t *open, size_t *close) {
  for (size_t i = 0; m->res && i < m->res->n; i++) {
    const struct tfr_variable *v = tfr_resolution_variable(m->res, i);
    if (!v->decl.filename || strcmp(v->decl.filename, d->path) ||
        v->decl.end.byte > d->len)
      continue;
    size_t o = v->decl.end.byte;
    while (o < d->len && d->text[o] != '{' && d->text[o] != '\n')
      o++;
    if (o >= d->len || d->text[o] != '{')
      continue;
    size_t c = tfr_text_closing(x, o, d->len);
    if (byte >= v->decl.start.byte && byte <= c) {
      *open = o;
      *close = c;
      return v;
    }
  }
  return NULL;
}

/* The bytes [*lo, *hi) of the `default` of variable block [open, close]
** that holds byte (to the end of its line); false when none does. */
static bool default_at(const struct doc *d, tfr_text *x, size_t open,
                       size_t close, size_t byte, size_t *lo, size_t *hi) {
  size_t n;
  const struct tfr_text_item *it = tfr_text_items(x, open + 1, close, &n);
  for (size_t i = 0; i < n; i++) {
    if (strcmp(it[i].name, "default") || byte < it[i].value.start.byte ||
        byte > it[i].value.end.byte + 1)
      continue;
    *lo = it[i].key.start.byte;
    *hi = it[i].value.end.byte < byte ? byte : it[i].value.end.byte;
    while (*hi < d->len && d->text[*hi] != '\n')
      (*hi)++;
    return true;
  }
  return false;
}

struct cursor lsp_locate(struct server *s, const struct doc *d, json_t *pos) {
  struct cursor c = {tfr_arena_new(), NULL, {0}, false, 0, SIZE_MAX, false};
  c.text = tfr_text_new(c.a, d->path, d->text, d->len);
  c.byte = lsp_byte_at(d->text, d->len, pos);
  c.quote = tfr_text_quote(c.text, c.byte);
  size_t lo = 0, hi = d->len;
  const struct tfr_variable *dv = NULL;
  if (!lsp_is_tfvars(d->path)) {
    /* a configuration file: the cursor in a variable's `default` value,
    ** read as a variables file setting `default` */
    struct module *m = s ? lsp_fresh_module(s, d) : NULL;
    size_t open, close;
    dv = m ? block_at(m, d, c.text, c.byte, &open, &close) : NULL;
    if (!dv || !default_at(d, c.text, open, close, c.byte, &lo, &hi))
      return c;
  }
  c.found = tfr_text_locate(c.text, lo, hi, c.byte, &c.at);
  if (c.found && dv) {
    c.in_default = true;
    c.at.variable = dv->name;
  }
  return c;
}

/* The type at path (".a[2].b") below t; *optional when the last
** attribute is optional(); NULL when the path leaves the type. */
const tfr_type *lsp_type_at(const tfr_type *t, const char *path,
                            bool *optional) {
  *optional = false;
  while (t && *path) {
    if (t->kind == TFR_DYNAMIC)
      return t;
    if (*path == '[') {
      const char *e = strchr(path, ']');
      if (!e)
        return NULL;
      if (t->kind == TFR_TUPLE) {
        unsigned long i = strtoul(path + 1, NULL, 10);
        t = i < t->n ? t->types[i] : NULL;
      } else {
        t = t->kind == TFR_LIST || t->kind == TFR_SET ? t->elem : NULL;
      }
      path = e + 1;
      *optional = false;
      continue;
    }
    size_t n = strcspn(path + 1, ".[");
    if (t->kind == TFR_MAP) {
      t = t->elem;
      *optional = false;
    } else if (t->kind == TFR_OBJECT) {
      long j = tfr_type_attr(t, path + 1, n);
      if (j < 0)
        return NULL;
      *optional = t->optional && t->optional[j];
      t = t->types[j];
    } else {
      return NULL;
    }
    path += 1 + n;
  }
  return t;
}
