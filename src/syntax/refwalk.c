/*
** The walk over an expression's references (refwalk.h).
*/
#include "syntax/refwalk.h"

#include <string.h>

bool refwalk_is_name(const struct ast *x, const char *s) {
  size_t n = strlen(s);
  return x->kind == AST_VARIABLE && x->n == n && !memcmp(x->str, s, n);
}

const struct ast *refwalk_step_in(const struct ast *x) {
  return x->kind == AST_GETATTR ? x->kids[0] : x->a;
}

static bool is_bound(const struct ref_bound *b, const struct ast *x) {
  for (; b; b = b->next)
    if (b->len == x->n && !memcmp(b->name, x->str, x->n))
      return true;
  return false;
}

static bool is_step(const struct ast *x) {
  return x->kind == AST_GETATTR || x->kind == AST_INDEX;
}

/* The keys of the index steps from x down to root, innermost first. */
static bool keys(struct refwalk *w, const struct ast *x, const struct ast *root,
                 const struct ref_bound *b) {
  if (x == root)
    return false;
  if (keys(w, refwalk_step_in(x), root, b))
    return true;
  return x->kind == AST_INDEX && refwalk(w, x->kids[0], b);
}

static bool is_convert(const struct ast *fn) {
  return (fn->n == 7 && !memcmp(fn->str, "convert", 7)) ||
         (fn->n == 13 && !memcmp(fn->str, "core::convert", 13));
}

bool refwalk(struct refwalk *w, const struct ast *x,
             const struct ref_bound *b) {
  if (!x)
    return false;
  if (is_step(x) || x->kind == AST_VARIABLE) {
    const struct ast *root = x;
    while (is_step(root))
      root = refwalk_step_in(root);
    if (root->kind == AST_VARIABLE) {
      if (!is_bound(b, root) && w->ref(w, x, root))
        return true;
      return keys(w, x, root, b);
    }
  }
  switch (x->kind) {
  case AST_FOR:
  case AST_TFOR: {
    if (refwalk(w, x->kids[2], b)) /* the collection sees the outer names */
      return true;
    struct ref_bound kb = {0}, vb = {x->kids[1]->str, x->kids[1]->n, b};
    const struct ref_bound *inner = &vb;
    if (x->kids[0]) {
      kb = (struct ref_bound){x->kids[0]->str, x->kids[0]->n, &vb};
      inner = &kb;
    }
    int last = x->kind == AST_FOR ? 6 : 4;
    for (int i = 3; i < last; i++)
      if (refwalk(w, x->kids[i], inner))
        return true;
    return false;
  }
  case AST_OBJECT:
    for (uint32_t i = 0; i < x->n; i++) {
      const struct ast *k = x->items[2 * i];
      if (k->kind != AST_VARIABLE && refwalk(w, k, b))
        return true;
      if (refwalk(w, x->items[2 * i + 1], b))
        return true;
    }
    return false;
  case AST_CALL: {
    if (w->call && w->call(w, x))
      return true;
    bool type_arg = w->skip_type_args && is_convert(x->kids[0]);
    for (uint32_t i = 0; i < x->n; i++)
      if (!(type_arg && i == 1) && refwalk(w, x->items[i], b))
        return true;
    return false;
  }
  default: {
    uint32_t n = ast_child_count(x);
    for (uint32_t i = 0; i < n; i++)
      if (refwalk(w, ast_child(x, i), b))
        return true;
    return false;
  }
  }
}
