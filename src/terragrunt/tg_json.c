/*
** terragrunt.hcl.json: hcl's JSON syntax read with terragrunt's schema
** (pkg/config/config.go's hcl tags): the properties named as its blocks
** (include, locals, dependency, dependencies, terraform and its
** extra_arguments and hooks, generate, feature, exclude, errors, engine,
** catalog) are blocks, with their labels as nested objects; a bare
** include is an object with a "path" (include.go:1017-1094); the rest are
** attributes whose strings are templates.  The result is the body the
** native syntax would give, which tg_read.c reads as it reads HCL.
*/
#include <string.h>

#include "base/strutil.h"
#include "syntax/parse.h"
#include "terragrunt/tg_int.h"

struct jconv {
  tfr_arena *a;
  tfr_diags *d;
  struct src_file *src;
};

static struct ast *node(tfr_arena *a, enum ast_kind k, struct span s) {
  size_t kids = (size_t)ast_nkids(k);
  struct ast *x = tfr_arena_alloc(a, sizeof *x + kids * sizeof x->kids[0]);
  x->kind = (uint8_t)k;
  x->span = s;
  return x;
}

static bool named(const struct ast *k, const char *s) {
  return k->kind == AST_STRING && k->n == strlen(s) && !memcmp(k->str, s, k->n);
}

/* Labels of a block type: -1 not a block, else how many. */
static int labels(const struct ast *k, bool in_terraform) {
  static const char *const none[] = {"locals",  "dependencies", "terraform",
                                     "exclude", "errors",       "engine",
                                     "catalog"};
  static const char *const one[] = {"dependency", "generate", "feature"};
  static const char *const tf_one[] = {"extra_arguments", "before_hook",
                                       "after_hook", "error_hook"};
  for (size_t i = 0; !in_terraform && i < sizeof none / sizeof *none; i++)
    if (named(k, none[i]))
      return 0;
  for (size_t i = 0; !in_terraform && i < sizeof one / sizeof *one; i++)
    if (named(k, one[i]))
      return 1;
  for (size_t i = 0; in_terraform && i < sizeof tf_one / sizeof *tf_one; i++)
    if (named(k, tf_one[i]))
      return 1;
  return -1;
}

/* A JSON value as an expression: strings are templates, in arrays and
** objects too (hcl's json/structure.go). */
static const struct ast *expr(struct jconv *c, const struct ast *x) {
  if (x->kind == AST_STRING) {
    struct ast_file *t = parse_embedded(c->a, c->d, c->src, x, true);
    return t ? t->body : x;
  }
  if (x->kind != AST_TUPLE && x->kind != AST_OBJECT)
    return x;
  struct ast *y = node(c->a, (enum ast_kind)x->kind, x->span);
  size_t n = x->kind == AST_OBJECT ? 2 * (size_t)x->n : x->n;
  y->flags = x->flags;
  y->n = x->n;
  y->items = tfr_arena_alloc(c->a, (n + 1) * sizeof *y->items);
  for (size_t i = 0; i < n; i++)
    y->items[i] = UNCONST(struct ast *, x->kind == AST_OBJECT && i % 2 == 0
                                            ? x->items[i]
                                            : expr(c, x->items[i]));
  return y;
}

struct items {
  struct ast **v;
  size_t n, cap;
};

static void push(tfr_arena *a, struct items *it, struct ast *x) {
  if (it->n == it->cap) {
    size_t cap = it->cap ? 2 * it->cap : 8;
    struct ast **v = tfr_arena_alloc(a, cap * sizeof *v);
    if (it->n)
      if (it->n) /* (a NULL array when empty) */
        memcpy(v, it->v, it->n * sizeof *v);
    it->v = v;
    it->cap = cap;
  }
  it->v[it->n++] = x;
}

static struct ast *body(struct jconv *c, const struct ast *obj, bool in_tf);

static void block(struct jconv *c, struct items *out, const struct ast *k,
                  const struct ast *label, const struct ast *obj) {
  struct ast *b =
      node(c->a, AST_BLOCK, (struct span){k->span.start, obj->span.end});
  b->str = k->str;
  b->n = k->n;
  struct ast *l = node(c->a, AST_TUPLE, k->span);
  l->items = tfr_arena_alloc(c->a, 2 * sizeof *l->items);
  if (label) {
    l->items[0] = UNCONST(struct ast *, label);
    l->n = 1;
  }
  b->kids[0] = l;
  b->kids[1] = body(c, obj, named(k, "terraform"));
  push(c->a, out, b);
}

/* The blocks a property k of value v stands for (n labels). */
static void blocks(struct jconv *c, struct items *out, const struct ast *k,
                   const struct ast *v, int n) {
  const struct ast *one;
  size_t m;
  const struct ast *const *objs = ast_json_blocks(v, &one, &m);
  for (size_t i = 0; i < m; i++) {
    const struct ast *o = objs[i];
    if (o->kind != AST_OBJECT)
      continue;
    if (!n) {
      block(c, out, k, NULL, o);
      continue;
    }
    for (uint32_t j = 0; j < o->n; j++) {
      const struct ast *lk = o->items[2 * j], *lv = o->items[2 * j + 1];
      const struct ast *one2;
      size_t m2;
      const struct ast *const *in = ast_json_blocks(lv, &one2, &m2);
      for (size_t q = 0; q < m2; q++)
        if (!ast_json_comment(lk) && in[q]->kind == AST_OBJECT)
          block(c, out, k, lk, in[q]);
    }
  }
}

/* Whether an include's value is a bare include block (it has a path:
** include.go:1082-1094). */
static bool bare_include(const struct ast *v) {
  for (uint32_t j = 0; v->kind == AST_OBJECT && j < v->n; j++)
    if (named(v->items[2 * j], "path"))
      return true;
  return false;
}

static struct ast *body(struct jconv *c, const struct ast *obj, bool in_tf) {
  struct items out = {0};
  for (uint32_t i = 0; obj->kind == AST_OBJECT && i < obj->n; i++) {
    const struct ast *k = obj->items[2 * i], *v = obj->items[2 * i + 1];
    if (ast_json_comment(k))
      continue;
    int n = labels(k, in_tf);
    if (!in_tf && named(k, "include"))
      n = bare_include(v) ? 0 : 1;
    if (n >= 0) {
      blocks(c, &out, k, v, n);
      continue;
    }
    struct ast *at =
        node(c->a, AST_ATTR, (struct span){k->span.start, v->span.end});
    at->str = k->str;
    at->n = k->n;
    at->kids[0] = UNCONST(struct ast *, expr(c, v));
    push(c->a, &out, at);
  }
  struct ast *b = node(c->a, AST_BODY, obj->span);
  b->items = out.v;
  b->n = (uint32_t)out.n;
  return b;
}

const struct ast *tg_json_body(struct tg_run *r, struct src_file *src,
                               const struct ast *obj) {
  struct jconv c = {r->a, r->d, src};
  return body(&c, obj, false);
}
