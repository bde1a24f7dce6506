/*
** One view of a body in either syntax (body.h).
*/
#include "body.h"

#include <stdlib.h>
#include <string.h>

#include "arena_int.h"
#include "strutil.h"

bool body_item_is(const struct body_item *it, const char *s) {
  size_t n = strlen(s);
  return it->len == n && !memcmp(it->name, s, n);
}

static bool is_block_type(const char *const *types, const char *s, uint32_t n) {
  for (; types && *types; types++)
    if (strlen(*types) == n && !memcmp(*types, s, n))
      return true;
  return false;
}

void body_items(struct body_items *b, const struct ast *body, bool json,
                const char *const *block_types) {
  b->n = 0;
  if (!body || (json ? body->kind != AST_OBJECT : body->kind != AST_BODY))
    return;
  if (body->n > b->cap) {
    free(b->v);
    b->cap = body->n;
    b->v = malloc(b->cap * sizeof *b->v);
    if (!b->v)
      tfr_oom();
  }
  for (uint32_t i = 0; i < body->n; i++) {
    struct body_item *it = &b->v[b->n];
    if (json) {
      const struct ast *k = body->items[2 * i], *v = body->items[2 * i + 1];
      if (ast_json_comment(k))
        continue;
      *it = (struct body_item){is_block_type(block_types, k->str, k->n),
                               k->str,
                               k->n,
                               k->span,
                               {k->span.start, v->span.end},
                               v,
                               NULL,
                               v};
    } else {
      const struct ast *x = body->items[i];
      bool block = x->kind == AST_BLOCK;
      *it = (struct body_item){block,
                               x->str,
                               x->n,
                               {x->span.start, x->span.start + x->n},
                               x->span,
                               block ? NULL : x->kids[0],
                               block ? x->kids[0] : NULL,
                               block ? x->kids[1] : NULL};
    }
    b->n++;
  }
}

size_t *body_first_defs(tfr_arena *a, const struct body_items *b) {
  size_t *first = tfr_arena_alloc(a, (b->n ? b->n : 1) * sizeof *first);
  size_t cap = 16;
  while (cap < 2 * b->n)
    cap *= 2;
  size_t *slot = calloc(cap, sizeof *slot); /* index + 1; 0: empty */
  if (!slot)
    tfr_oom();
  for (size_t i = 0; i < b->n; i++) {
    const struct body_item *it = &b->v[i];
    first[i] = i;
    if (it->is_block)
      continue;
    size_t h = str_hash(it->name, it->len) & (cap - 1);
    for (; slot[h]; h = (h + 1) & (cap - 1)) {
      const struct body_item *o = &b->v[slot[h] - 1];
      if (o->len == it->len && !memcmp(o->name, it->name, it->len)) {
        first[i] = slot[h] - 1;
        break;
      }
    }
    if (!slot[h])
      slot[h] = i + 1;
  }
  free(slot);
  return first;
}
