/*
** What is at a byte of a variables file (tfr_file_locate): the variable
** whose value holds it and the attribute path down to it, for an editor's
** hover, completion and go-to-definition.  Both syntaxes, through the
** body view for the top level and the same expression nodes below it.
*/
#include "tfresolve/syntax.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena_int.h"
#include "syntax/body.h"
#include "syntax/parse.h"
#include "base/strutil.h"

static bool inside(struct span s, size_t at) {
  return at >= s.start && at <= s.end;
}

/* An object constructor key as a name (a bare name, a string, a
** one-part template), or NULL. */
static const char *key_name(tfr_arena *a, const struct ast *k) {
  while (k->kind == AST_PAREN)
    k = k->a;
  if (k->kind == AST_VARIABLE || k->kind == AST_STRING)
    return tfr_arena_strndup(a, k->str, k->n);
  if (k->kind == AST_TEMPLATE && k->n == 1 && k->items[0]->kind == AST_STRING)
    return tfr_arena_strndup(a, k->items[0]->str, k->items[0]->n);
  return NULL;
}

const char **tfr_file_attribute_names(tfr_arena *a, const tfr_file *f,
                                      size_t *n, const struct tfr_range **at) {
  *n = 0;
  if (at)
    *at = NULL;
  if (!f || !f->f.body)
    return NULL;
  size_t cap = 16;
  const char **out = tfr_arena_alloc(a, cap * sizeof *out);
  struct tfr_range *where = tfr_arena_alloc(a, cap * sizeof *where);
  struct body_iter it = body_start(f->f.body, f->f.json, NULL);
  struct body_item item;
  while (body_next(&it, &item)) {
    if (item.is_block)
      continue;
    if (*n == cap) {
      const char **more = tfr_arena_alloc(a, 2 * cap * sizeof *more);
      struct tfr_range *wmore = tfr_arena_alloc(a, 2 * cap * sizeof *wmore);
      memcpy(more, out, cap * sizeof *out);
      memcpy(wmore, where, cap * sizeof *where);
      out = more;
      where = wmore;
      cap *= 2;
    }
    where[*n] = src_range(f->f.src, item.name_span);
    out[(*n)++] = tfr_arena_strndup(a, item.name, item.len);
  }
  if (at)
    *at = where;
  return out;
}

bool tfr_file_locate(tfr_arena *a, const tfr_file *f, size_t byte,
                     struct tfr_locus *out) {
  memset(out, 0, sizeof *out);
  if (!f || !f->f.body)
    return false;
  struct src_file *src = f->f.src;
  struct body_iter it = body_start(f->f.body, f->f.json, NULL);
  struct body_item item;
  while (body_next(&it, &item)) {
    if (item.is_block || !item.value || !inside(item.span, byte))
      continue;
    out->variable = tfr_arena_strndup(a, item.name, item.len);
    out->name = src_range(src, item.name_span);
    out->value = src_range(src, item.value->span);
    out->in_key = inside(item.name_span, byte);
    struct sbuf path = {0};
    sbuf_put(&path, "", 0);
    const struct ast *x = item.value;
    for (int depth = 0; !out->in_key && depth < AST_MAX_DEPTH; depth++) {
      while (x->kind == AST_PAREN)
        x = x->a;
      const struct ast *next = NULL;
      if (x->kind == AST_OBJECT) {
        for (uint32_t i = 0; i < x->n && !next; i++) {
          const struct ast *k = x->items[2 * i], *v = x->items[2 * i + 1];
          struct span whole = {k->span.start, v->span.end};
          if (!inside(whole, byte))
            continue;
          const char *name = key_name(a, k);
          if (!name)
            break;
          sbuf_put(&path, ".", 1);
          sbuf_str(&path, name);
          out->name = src_range(src, k->span);
          out->value = src_range(src, v->span);
          out->in_key = inside(k->span, byte);
          next = v;
        }
      } else if (x->kind == AST_TUPLE) {
        for (uint32_t i = 0; i < x->n && !next; i++) {
          if (!inside(x->items[i]->span, byte))
            continue;
          char step[32];
          snprintf(step, sizeof step, "[%u]", i);
          sbuf_str(&path, step);
          out->value = src_range(src, x->items[i]->span);
          next = x->items[i];
        }
      }
      if (!next)
        break;
      x = next;
    }
    out->path = tfr_arena_strndup(a, path.p, path.n);
    free(path.p);
    return true;
  }
  return false;
}
