/*
** An expression's references as Terraform's plan JSON writes them (the
** "references" of an expression in its configuration part): each
** reference as its address with every step of what follows it, then
** shorter and shorter down to the referenceable address, then the
** address without its instance key.  A port of jsonconfig's
** marshalExpression (internal/command/jsonconfig/expression.go:39-87)
** over addrs.ParseRef (internal/addrs/parse_ref.go:199-560), on the one
** reference walk (refwalk.h).
*/
#include "syntax/refs_tf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena_int.h"
#include "base/strutil.h"
#include "syntax/refwalk.h"

struct tf_refs {
  struct refwalk w;
  tfr_arena *a;
  const char **v;
  size_t n, cap;
};

static void add(struct tf_refs *r, const char *s) {
  ARENA_GROW(r->a, r->v, r->n, r->cap, 8);
  r->v[r->n++] = s;
}

/* A literal index key, as hclsyntax makes a traversal step of it: a
** number, or a string (a template of one literal part). */
static const struct ast *literal_key(const struct ast *step) {
  const struct ast *k = step->kids[0];
  if (k && k->kind == AST_TEMPLATE && k->n == 1 &&
      k->items[0]->kind == AST_STRING)
    k = k->items[0];
  return k && (k->kind == AST_NUMBER || k->kind == AST_STRING) ? k : NULL;
}

/* A step as traversalStr writes it (expression.go:166-189): ".name",
** ["key"] with Go's %q, [n] as big.Float's Text('g', 10). */
static const char *step_text(tfr_arena *a, const struct ast *x) {
  if (x->kind == AST_VARIABLE)
    return tfr_arena_strndup(a, x->str, x->n);
  if (x->kind == AST_GETATTR)
    return tfr_arena_printf(a, ".%.*s", (int)x->n, x->str);
  const struct ast *k = literal_key(x);
  if (k->kind == AST_STRING)
    return tfr_arena_printf(a, "[%s]", str_go_quote(a, k->str, k->n));
  char *num = tfr_arena_strndup(a, k->str, k->n);
  return tfr_arena_printf(a, "[%.10g]", strtod(num, NULL));
}

/* How many steps the referenceable address takes (addrs.ParseRef's
** Subject), and in *extra the address without its instance key that
** expression.go:64-83 adds (NULL: none); 0 when ParseRef gives no
** reference (an error, or a bare type keyword). */
static size_t subject(tfr_arena *a, const struct ast *const *st, size_t n,
                      const char **text, const char **extra) {
  static const char *const single[] = {"count",     "each", "local",  "path",
                                       "terraform", "var",  "output", "check",
                                       "run",       NULL};
  const struct ast *root = st[0];
  char name[16] = "";
  if (root->n < sizeof name)
    memcpy(name, root->str, root->n);
  *extra = NULL;
  for (const char *const *s = single; *s; s++)
    if (!strcmp(name, *s)) {
      if (n < 2 || st[1]->kind != AST_GETATTR)
        return 0;
      *text = tfr_arena_printf(a, "%s%s", name, step_text(a, st[1]));
      return 2;
    }
  if (!strcmp(name, "self") || !strcmp(name, "caller")) {
    *text = name[0] == 's' ? "self" : "caller";
    return 1;
  }
  if (!strcmp(name, "template") || !strcmp(name, "lazy") ||
      !strcmp(name, "arg") || !strcmp(name, "plan") || !strcmp(name, "state") ||
      (n == 1 && (!strcmp(name, "string") || !strcmp(name, "number") ||
                  !strcmp(name, "bool") || !strcmp(name, "any"))))
    return 0;
  if (!strcmp(name, "module")) {
    if (n < 2 || st[1]->kind != AST_GETATTR)
      return 0;
    const char *call = tfr_arena_printf(a, "module%s", step_text(a, st[1]));
    size_t i = 2;
    const char *inst = call;
    if (i < n && st[i]->kind == AST_INDEX) {
      inst = tfr_arena_printf(a, "%s%s", call, step_text(a, st[i]));
      i++;
      *extra = call;
    }
    *text = inst;
    if (i == n)
      return i;
    if (st[i]->kind != AST_GETATTR)
      return 0; /* "Module instance objects do not support this operation." */
    *text = tfr_arena_printf(a, "%s%s", inst, step_text(a, st[i]));
    *extra = inst;
    return i + 1;
  }
  /* resources: data., ephemeral., list., action., resource., or a type */
  size_t t = 0;
  const char *prefix = "";
  if (!strcmp(name, "data") || !strcmp(name, "ephemeral") ||
      !strcmp(name, "list") || !strcmp(name, "action") ||
      !strcmp(name, "resource")) {
    t = 1;
    prefix = !strcmp(name, "resource") ? "" : tfr_arena_printf(a, "%s.", name);
  }
  if (n < t + 2 || (t && st[t]->kind != AST_GETATTR) ||
      st[t + 1]->kind != AST_GETATTR)
    return 0;
  const char *type = t ? step_text(a, st[t]) + 1 : step_text(a, st[0]);
  const char *res =
      tfr_arena_printf(a, "%s%s%s", prefix, type, step_text(a, st[t + 1]));
  *text = res;
  if (n > t + 2 && st[t + 2]->kind == AST_INDEX) {
    *text = tfr_arena_printf(a, "%s%s", res, step_text(a, st[t + 2]));
    *extra = res;
    return t + 3;
  }
  return t + 2;
}

/* One reference: x's steps from the root, up to the first index step
** whose key is not a literal (hcl makes no traversal step of that), then
** its strings as expression.go:55-83 lists them. */
static bool on_ref(struct refwalk *w, const struct ast *x,
                   const struct ast *root) {
  struct tf_refs *r = (struct tf_refs *)w;
  size_t depth = 1;
  for (const struct ast *s = x; s != root; s = refwalk_step_in(s))
    depth++;
  const struct ast **st = tfr_arena_alloc(r->a, depth * sizeof *st);
  const struct ast *s = x;
  for (size_t i = depth; i-- > 0;) {
    st[i] = s;
    if (i)
      s = refwalk_step_in(s);
  }
  size_t n = 1;
  while (n < depth && (st[n]->kind == AST_GETATTR || literal_key(st[n])))
    n++;
  const char *text, *extra;
  size_t k = subject(r->a, st, n, &text, &extra);
  if (!k)
    return false;
  for (size_t m = n; m > k; m--) {
    const char *t = text;
    for (size_t j = k; j < m; j++)
      t = tfr_arena_printf(r->a, "%s%s", t, step_text(r->a, st[j]));
    add(r, t);
  }
  add(r, text);
  if (extra)
    add(r, extra);
  return false;
}

const char **refs_terraform(tfr_arena *a, const struct ast *x, size_t *n) {
  struct tf_refs r = {{.ref = on_ref}, a, NULL, 0, 0};
  refwalk(&r.w, x, NULL);
  *n = r.n;
  return r.v;
}

const char *refs_terraform_subject(tfr_arena *a, const struct ast *x) {
  size_t depth = 1;
  for (const struct ast *s = x; s->kind != AST_VARIABLE; s = refwalk_step_in(s))
    depth++;
  const struct ast **st = tfr_arena_alloc(a, depth * sizeof *st);
  const struct ast *s = x;
  for (size_t i = depth; i-- > 0;) {
    st[i] = s;
    if (i)
      s = refwalk_step_in(s);
  }
  const char *text, *extra;
  return subject(a, st, depth, &text, &extra) ? text : "";
}
