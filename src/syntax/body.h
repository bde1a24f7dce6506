/*
** One view of a body in either syntax (hcl's Body): the attributes and
** blocks of a native body, or the properties of a JSON object, as the
** same items, so that a decoder is written once.
*/
#ifndef TFR_BODY_H
#define TFR_BODY_H

#include <stdbool.h>
#include <stddef.h>

#include "syntax/ast.h"
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
  const struct ast *node;   /* the native attribute or block; the JSON key */
};

/* A native body's attribute or block as an item. */
struct body_item body_item_of(const struct ast *x);

/* Where a walk over a body's items is: body_start, then body_next. */
struct body_iter {
  const struct ast *body;
  const char *const *block_types;
  uint32_t i;
  bool json;
};

/*
** The items of body in source order: a native AST_BODY, or (json) a JSON
** object, whose "//" comment properties are left out and whose property
** named as one of block_types (NULL-terminated; NULL for none) is a
** block.  Anything else in JSON has no items.
*/
struct body_iter body_start(const struct ast *body, bool json,
                            const char *const *block_types);

/* The next item in *out; false after the last. */
bool body_next(struct body_iter *it, struct body_item *out);

/* The item's name is s. */
bool body_item_is(const struct body_item *it, const char *s);

/*
** The properties of a JSON object defined more than once, in linear time:
** first[i] is the index (among body_next's items, given in *items) of
** the first definition of item i's name when that is an earlier item,
** else i; *n the number of items.  Allocated in a.
*/
size_t *body_first_defs(tfr_arena *a, const struct ast *object,
                        struct body_item **items, size_t *n);

#endif
