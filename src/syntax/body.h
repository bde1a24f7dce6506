/*
** One view of a body in either syntax (hcl's Body): the attributes and
** blocks of a native body, or the properties of a JSON object, as the
** same items, so that a decoder is written once.
*/
#ifndef TFR_BODY_H
#define TFR_BODY_H

#include <stdbool.h>
#include <stddef.h>

#include "ast.h"
#include "tfresolve/arena.h"

struct body_item {
  bool is_block;
  const char *name; /* not NUL-terminated: len bytes */
  uint32_t len;
  struct span name_span;    /* the name; in JSON the key, quotes included */
  struct span span;         /* the whole definition (JSON: key through value) */
  const struct ast *value;  /* an attribute's expression (JSON: its value) */
  const struct ast *labels; /* a native block's labels (a list node) */
  const struct ast *body;   /* a block's body: native AST_BODY, or the JSON
                               value (an object, or an array of them) */
};

/* Items in a malloc'd array, reused from body to body (free v when
** done). */
struct body_items {
  struct body_item *v;
  size_t n, cap;
};

/*
** The items of body into b (its earlier items replaced), in source order:
** a native AST_BODY, or (json) a JSON object, whose "//" comment
** properties are left out and whose property named as one of block_types
** (NULL-terminated; NULL for none) is a block.  Anything else in JSON
** gives no items.
*/
void body_items(struct body_items *b, const struct ast *body, bool json,
                const char *const *block_types);

/* The item's name is s. */
bool body_item_is(const struct body_item *it, const char *s);

/*
** Attributes defined more than once (by name), in linear time: first[i]
** is the index of the first definition of item i's name when that is an
** earlier item, else i.  Allocated in a (n entries).
*/
size_t *body_first_defs(tfr_arena *a, const struct body_items *b);

#endif
