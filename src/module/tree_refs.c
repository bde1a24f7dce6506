/*
** References of expressions, found once.
*/
#include "module/tree_int.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- references --------------------------------------------------------- */

/* The steps of traversal x from its root, innermost first. */
size_t tree_steps_of(const struct ast *x, const struct ast *root,
                     const struct ast **out, size_t max) {
  size_t n = 0;
  for (const struct ast *p = x; p && p != root;
       p = p->kind == AST_GETATTR ? p->kids[0] : p->a)
    n++;
  size_t k = n;
  for (const struct ast *p = x; p && p != root;
       p = p->kind == AST_GETATTR ? p->kids[0] : p->a) {
    k--;
    if (k < max)
      out[k] = p;
  }
  return n;
}

struct ref_collect {
  struct refwalk w; /* first */
  struct tref_list *l;
};

static bool collect_ref(struct refwalk *w, const struct ast *x,
                        const struct ast *root) {
  struct tref_list *l = ((struct ref_collect *)(void *)w)->l;
  ARENA_GROW(l->a, l->v, l->n, l->cap, 8);
  struct tref *r = &l->v[l->n++];
  *r = (struct tref){0};
  r->root = root->str;
  r->rlen = root->n;
  r->span = x->span;
  const struct ast *st[3] = {0};
  size_t n = tree_steps_of(x, root, st, 3);
  if (n >= 1 && st[0]->kind == AST_GETATTR)
    r->a1 = st[0]->str, r->l1 = st[0]->n;
  else if (n >= 1)
    r->i1 = true;
  /* module.NAME[KEY].OUT: the output after an index */
  const struct ast *s2 = n >= 2 ? st[1] : NULL;
  if (s2 && s2->kind == AST_INDEX && n >= 3)
    s2 = st[2];
  if (s2 && s2->kind == AST_GETATTR)
    r->a2 = s2->str, r->l2 = s2->n;
  return false;
}

static struct tref_list refs_walk(tfr_arena *a, const struct ast *x) {
  struct tref_list l = {a, NULL, 0, 0};
  if (!x)
    return l;
  struct ref_collect c = {{collect_ref, NULL, true}, &l};
  refwalk(&c.w, x, NULL);
  return l;
}

/* x's references, found once per expression. */
struct tref_list tree_refs_of_x(struct tree *t, const struct ast *x) {
  if (!x)
    return (struct tref_list){t->a, NULL, 0, 0};
  if (2 * (t->nrefs + 1) > t->caprefs) {
    size_t cap = t->caprefs ? 2 * t->caprefs : 256;
    struct ref_slot *n = tfr_arena_alloc(t->a, cap * sizeof *n);
    for (size_t i = 0; i < t->caprefs; i++)
      if (t->refs[i].x) {
        size_t h = ((uintptr_t)t->refs[i].x >> 4) * 0x9E3779B97F4A7C15ull;
        for (h &= cap - 1; n[h].x; h = (h + 1) & (cap - 1))
          ;
        n[h] = t->refs[i];
      }
    t->refs = n;
    t->caprefs = cap;
  }
  size_t h = ((uintptr_t)x >> 4) * 0x9E3779B97F4A7C15ull;
  for (h &= t->caprefs - 1; t->refs[h].x; h = (h + 1) & (t->caprefs - 1))
    if (t->refs[h].x == x)
      return *t->refs[h].l;
  /* found in the scratch arena, kept at their size: a module of
  ** thousands of rules keeps as many lists */
  struct arena_mark mark = arena_mark(t->scratch);
  struct tref_list found = refs_walk(t->scratch, x);
  struct tref_list *l = tfr_arena_alloc(t->a, sizeof *l);
  *l = (struct tref_list){t->a, NULL, found.n, found.n};
  if (found.n) {
    l->v = tfr_arena_alloc_raw(t->a, found.n * sizeof *l->v);
    memcpy(l->v, found.v, found.n * sizeof *l->v);
  }
  arena_reset(t->scratch, mark);
  t->refs[h] = (struct ref_slot){x, l};
  t->nrefs++;
  return *l;
}

bool tree_root_is(const struct tref *r, const char *s) {
  return r->rlen == strlen(s) && !memcmp(r->root, s, r->rlen);
}

bool tree_a1_is(const struct tref *r, const char *s, size_t n) {
  return r->a1 && r->l1 == n && !memcmp(r->a1, s, n);
}

/* evaluate.go's errors for count and each where the expression has no
** such repetition, or an attribute they do not have; true if none. */
bool tree_repetition_refs(struct tree *t, struct src_file *src,
                          const struct tref_list *l, const struct trep *rep,
                          const char *var) {
  bool ok = true;
  for (size_t i = 0; i < l->n; i++) {
    const struct tref *r = &l->v[i];
    const char *summary = NULL, *detail = NULL;
    if (tree_root_is(r, "count")) {
      if (!rep || !rep->count_index) {
        summary = "Reference to \"count\" in non-counted context";
        detail = "The \"count\" object can only be used in \"module\", "
                 "\"resource\", and \"data\" blocks, and only when the "
                 "\"count\" argument is set.";
      } else if (r->a1 && !tree_a1_is(r, "index", 5)) {
        summary = "Invalid \"count\" attribute";
        detail = tfr_arena_printf(
            t->a,
            "The \"count\" object does not have an attribute named %s. The "
            "only supported attribute is count.index, which is the index of "
            "each instance of a resource block that has the \"count\" "
            "argument set.",
            str_go_quote(t->a, r->a1, r->l1));
      }
    } else if (tree_root_is(r, "each")) {
      if (!rep || !rep->each_key) {
        summary = "Reference to \"each\" in context without for_each";
        detail = "The \"each\" object can be used only in \"module\" or "
                 "\"resource\" blocks, and only when the \"for_each\" "
                 "argument is set.";
      } else if (r->a1 && !tree_a1_is(r, "key", 3) &&
                 !tree_a1_is(r, "value", 5)) {
        summary = "Invalid \"each\" attribute";
        detail = tfr_arena_printf(
            t->a,
            "The \"each\" object does not have an attribute named %s. The "
            "supported attributes are each.key and each.value, the current "
            "key and value pair of the \"for_each\" attribute set.",
            str_go_quote(t->a, r->a1, r->l1));
      }
    }
    if (!summary)
      continue;
    struct tfr_range rg = src_range(src, r->span);
    tfr_diags_add(t->diags, TFR_DIAG_ERROR, &rg, summary, detail);
    if (var)
      tfr_diags_set_variable(t->diags, var);
    ok = false;
  }
  return ok;
}
