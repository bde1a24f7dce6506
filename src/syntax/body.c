/*
** One view of a body in either syntax (body.h).
*/
#include "syntax/body.h"
#include "base/heap.h"

#include <stdlib.h>
#include <string.h>

#include "base/arena_int.h"
#include "base/strutil.h"

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

struct body_item body_item_of(const struct ast *x) {
  bool block = x->kind == AST_BLOCK;
  return (struct body_item){block,
                            x->str,
                            x->n,
                            {x->span.start, x->span.start + x->n},
                            x->span,
                            block ? NULL : x->kids[0],
                            block ? x->kids[0] : NULL,
                            block ? x->kids[1] : NULL,
                            x};
}

struct body_iter body_start(const struct ast *body, bool json,
                            const char *const *block_types) {
  bool ok = body && (json ? body->kind == AST_OBJECT : body->kind == AST_BODY);
  return (struct body_iter){ok ? body : NULL, block_types, 0, json};
}

bool body_next(struct body_iter *it, struct body_item *out) {
  const struct ast *body = it->body;
  for (; body && it->i < body->n; it->i++) {
    if (it->json) {
      const struct ast *k = body->items[2 * it->i];
      const struct ast *v = body->items[2 * it->i + 1];
      if (ast_json_comment(k))
        continue;
      *out = (struct body_item){is_block_type(it->block_types, k->str, k->n),
                                k->str,
                                k->n,
                                k->span,
                                {k->span.start, v->span.end},
                                v,
                                NULL,
                                v,
                                k};
    } else {
      *out = body_item_of(body->items[it->i]);
    }
    it->i++;
    return true;
  }
  return false;
}

size_t *body_first_defs(tfr_arena *a, const struct ast *object,
                        struct body_item **out, size_t *n) {
  size_t cap = 16, total = object->n;
  while (cap < 2 * total)
    cap *= 2;
  size_t *first = tfr_arena_alloc(a, (total ? total : 1) * sizeof *first);
  size_t *slot = heap_calloc(cap, sizeof *slot); /* index + 1; 0: empty */
  struct body_item *items =
      tfr_arena_alloc(a, (total ? total : 1) * sizeof *items);
  struct body_iter it = body_start(object, true, NULL);
  size_t i = 0;
  while (body_next(&it, &items[i])) {
    const struct body_item *x = &items[i];
    first[i] = i;
    size_t h = str_hash(x->name, x->len) & (cap - 1);
    for (; slot[h]; h = (h + 1) & (cap - 1)) {
      const struct body_item *o = &items[slot[h] - 1];
      if (o->len == x->len && !memcmp(o->name, x->name, x->len)) {
        first[i] = slot[h] - 1;
        break;
      }
    }
    if (!slot[h])
      slot[h] = i + 1;
    i++;
  }
  free(slot);
  *out = items;
  *n = i;
  return first;
}
