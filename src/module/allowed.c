/*
** The values a variable's validation rules allow, read from their
** conditions' syntax trees (tfr_resolution_allowed), for an editor's
** completion: a condition that is an allow-list -- contains([...],
** var.x), anytrue([var.x == "a", ...]) or anytrue([for v in [...] :
** var.x == v]), var.x == "a", or a disjunction of these -- alone or
** joined to others by &&, allows its strings (a value must be in every
** such list), but those a negated one (!..., var.x != "a", alltrue([var.x
** != "a", ...])) joined the same way forbids.  Anything else says
** nothing.
*/
#include "tfresolve/tfresolve.h"

#include <string.h>

#include "base/arena_int.h"
#include "module/module.h"
#include "syntax/ast.h"

/* A list of strings being gathered (NULL v with any false: none). */
struct strs {
  const char **v;
  size_t n, cap;
};

static void put(tfr_arena *a, struct strs *l, const char *s) {
  for (size_t i = 0; i < l->n; i++)
    if (!strcmp(l->v[i], s))
      return;
  if (l->n == l->cap) {
    size_t nc = l->cap ? 2 * l->cap : 8;
    const char **v = tfr_arena_alloc(a, nc * sizeof *v);
    if (l->n)
      memcpy(v, l->v, l->n * sizeof *v);
    l->v = v;
    l->cap = nc;
  }
  l->v[l->n++] = s;
}

static const struct ast *bare(const struct ast *x) {
  while (x && x->kind == AST_PAREN)
    x = x->a;
  return x;
}

/* A string constant ("a", or a template of one literal part), or NULL. */
static const char *literal(tfr_arena *a, const struct ast *x) {
  x = bare(x);
  if (x && x->kind == AST_TEMPLATE && x->n == 1)
    x = x->items[0];
  return x && x->kind == AST_STRING ? tfr_arena_strndup(a, x->str, x->n) : NULL;
}

/* Whether x is root.NAME (root NULL: the bare name NAME, a for
** expression's value). */
static bool is_ref(const struct ast *x, const char *root, const char *name) {
  x = bare(x);
  if (!x)
    return false;
  if (!root)
    return x->kind == AST_VARIABLE && strlen(name) == x->n &&
           !memcmp(x->str, name, x->n);
  const struct ast *o = x->kind == AST_GETATTR ? bare(x->kids[0]) : NULL;
  return o && o->kind == AST_VARIABLE && o->n == strlen(root) &&
         !memcmp(o->str, root, o->n) && strlen(name) == x->n &&
         !memcmp(x->str, name, x->n);
}

/* x compares var.NAME with another operand by op: that operand. */
static const struct ast *compared(const struct ast *x, const char *name,
                                  int op) {
  x = bare(x);
  if (!x || x->kind != AST_BINARY || x->op != op)
    return NULL;
  return is_ref(x->a, "var", name)         ? x->kids[0]
         : is_ref(x->kids[0], "var", name) ? x->a
                                           : NULL;
}

/* The strings of a tuple of string constants, into l; false when x is
** none. */
static bool strings(tfr_arena *a, const struct ast *x, struct strs *l) {
  x = bare(x);
  if (!x || x->kind != AST_TUPLE)
    return false;
  for (uint32_t i = 0; i < x->n; i++) {
    const char *s = literal(a, x->items[i]);
    if (!s)
      return false;
    put(a, l, s);
  }
  return true;
}

/* `[var.NAME op "a", ...]` or `[for v in [...] : var.NAME op v]`: the
** strings into l. */
static bool each_compared(tfr_arena *a, const struct ast *x, const char *name,
                          int op, struct strs *l) {
  x = bare(x);
  if (x && x->kind == AST_FOR && !(x->flags & AST_F_OBJECT) && !x->kids[5] &&
      x->kids[1] && x->kids[1]->kind == AST_STRING) {
    char *v = tfr_arena_strndup(a, x->kids[1]->str, x->kids[1]->n);
    const struct ast *other = compared(x->kids[4], name, op);
    return other && is_ref(other, NULL, v) && strings(a, x->kids[2], l);
  }
  if (!x || x->kind != AST_TUPLE || !x->n)
    return false;
  struct strs got = {0};
  for (uint32_t i = 0; i < x->n; i++) {
    const char *s = literal(a, compared(x->items[i], name, op));
    if (!s)
      return false;
    put(a, &got, s);
  }
  for (size_t i = 0; i < got.n; i++)
    put(a, l, got.v[i]);
  return true;
}

static bool call_named(const struct ast *x, const char *fn) {
  return x && x->kind == AST_CALL && x->kids[0] &&
         x->kids[0]->n == strlen(fn) &&
         !memcmp(x->kids[0]->str, fn, strlen(fn));
}

/* Whether x is an allow-list of var.NAME: its strings into l. */
static bool one_of(tfr_arena *a, const struct ast *x, const char *name,
                   struct strs *l) {
  x = bare(x);
  if (!x)
    return false;
  if (call_named(x, "contains") && x->n == 2)
    return is_ref(x->items[1], "var", name) && strings(a, x->items[0], l);
  if (call_named(x, "anytrue") && x->n == 1)
    return each_compared(a, x->items[0], name, OP_EQ, l);
  if (x->kind == AST_BINARY && x->op == OP_OR) {
    struct strs both = {0};
    if (!one_of(a, x->a, name, &both) || !one_of(a, x->kids[0], name, &both))
      return false;
    for (size_t i = 0; i < both.n; i++)
      put(a, l, both.v[i]);
    return true;
  }
  const char *s = literal(a, compared(x, name, OP_EQ));
  if (s)
    put(a, l, s);
  return s != NULL;
}

/* What x forbids var.NAME to be, into l. */
static void none_of(tfr_arena *a, const struct ast *x, const char *name,
                    struct strs *l) {
  x = bare(x);
  if (!x)
    return;
  if (x->kind == AST_UNARY && x->op == OP_NOT) {
    struct strs got = {0};
    if (one_of(a, x->a, name, &got))
      for (size_t i = 0; i < got.n; i++)
        put(a, l, got.v[i]);
  } else if (call_named(x, "alltrue") && x->n == 1) {
    each_compared(a, x->items[0], name, OP_NE, l);
  } else {
    const char *s = literal(a, compared(x, name, OP_NE));
    if (s)
      put(a, l, s);
  }
}

/* The conjuncts of x: *allowed met with each allow-list (set: one was
** found), forbidden gathered. */
static void conjuncts(tfr_arena *a, const struct ast *x, const char *name,
                      struct strs *allowed, bool *set, struct strs *forbidden,
                      int depth) {
  x = bare(x);
  if (!x || depth > AST_MAX_DEPTH)
    return;
  if (x->kind == AST_BINARY && x->op == OP_AND) {
    conjuncts(a, x->a, name, allowed, set, forbidden, depth + 1);
    conjuncts(a, x->kids[0], name, allowed, set, forbidden, depth + 1);
    return;
  }
  struct strs one = {0};
  if (!one_of(a, x, name, &one)) {
    none_of(a, x, name, forbidden);
    return;
  }
  if (!*set) {
    *allowed = one;
    *set = true;
    return;
  }
  struct strs meet = {0};
  for (size_t i = 0; i < allowed->n; i++)
    for (size_t k = 0; k < one.n; k++)
      if (!strcmp(allowed->v[i], one.v[k]))
        put(a, &meet, allowed->v[i]);
  *allowed = meet;
}

const char **tfr_resolution_allowed(tfr_arena *a,
                                    const struct tfr_resolution *res,
                                    const char *name, size_t *n) {
  *n = 0;
  if (!res || !res->module || !name)
    return NULL;
  const struct var_decl *v =
      module_var(module_of(res->module), name, strlen(name));
  struct strs allowed = {0}, forbidden = {0};
  bool set = false;
  for (size_t i = 0; v && i < v->nvalidations; i++) {
    const struct validation *r = &v->validations[i];
    /* a rule sharing another's tree names that rule's variable */
    const char *own = r->alias ? r->alias : v->name;
    conjuncts(a, r->condition, own, &allowed, &set, &forbidden, 0);
  }
  if (!set)
    return NULL;
  const char **out = tfr_arena_alloc(a, (allowed.n + 1) * sizeof *out);
  for (size_t i = 0; i < allowed.n; i++) {
    bool no = false;
    for (size_t k = 0; k < forbidden.n && !no; k++)
      no = !strcmp(allowed.v[i], forbidden.v[k]);
    if (!no)
      out[(*n)++] = allowed.v[i];
  }
  return out;
}
