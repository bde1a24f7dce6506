/*
** What an expression refers to (refs.h): a visitor of the one reference
** walk that sorts each reference into variables, local values and objects
** unknowable offline.
*/
#include "eval/refs.h"

#include <string.h>

#include "eval/funcs.h"
#include "syntax/refwalk.h"
#include "base/arena_int.h"
#include "base/strutil.h"

static void add_name(tfr_arena *a, struct ref_names *l, const char *s, size_t n,
                     struct span at) {
  for (size_t i = 0; i < l->n && !l->every; i++)
    if (strlen(l->v[i]) == n && !memcmp(l->v[i], s, n))
      return;
  size_t cap = l->cap; /* the two arrays grow together */
  ARENA_GROW(a, l->v, l->n, cap, 2);
  ARENA_GROW(a, l->at, l->n, l->cap, 2);
  l->at[l->n] = at;
  l->v[l->n++] = tfr_arena_strndup(a, s, n);
}

/* Roots that can be known offline. */
static bool knowable(const struct refs *r, const struct ast *root) {
  return refwalk_is_name(root, "path") || refwalk_is_name(root, "terraform") ||
         refwalk_is_name(root, "var") ||
         (r->follow && refwalk_is_name(root, "local"));
}

/* The step i levels above the root of x (depth levels deep). */
static const struct ast *step_at(const struct ast *x, size_t depth, size_t i) {
  for (size_t k = 0; k < depth - i; k++)
    x = refwalk_step_in(x);
  return x;
}

/* Whether step y is an instance key Terraform reads into the address: an
** index by a literal (hcl's TraverseIndex). */
static bool is_key_step(const struct ast *y) {
  return y->kind == AST_INDEX &&
         (y->kids[0]->kind == AST_NUMBER || y->kids[0]->kind == AST_STRING);
}

/* "data.aws_ami.x", "aws_instance.web", "module.net": the object a
** traversal refers to, for messages; *at gets its range as Terraform's
** reference ranges go: the root through the last attribute named, then
** an instance key (terraform internal/addrs/parse_ref.go:535-549), and
** for a module call the output's name (parse_ref.go:316-349). */
static const char *object_name(tfr_arena *a, const struct ast *x,
                               const struct ast *root, struct span *at) {
  size_t depth = 0;
  for (const struct ast *y = x; y != root; y = refwalk_step_in(y))
    depth++;
  const char *s = tfr_arena_strndup(a, root->str, root->n);
  *at = root->span;
  /* data, ephemeral and resource (the escaping prefix of a managed
  ** resource, terraform internal/addrs/parse_ref.go:236) name two steps */
  size_t want = refwalk_is_name(root, "data") ||
                        refwalk_is_name(root, "ephemeral") ||
                        refwalk_is_name(root, "resource")
                    ? 2
                    : 1;
  size_t i = 1;
  for (; i <= want && i <= depth; i++) {
    const struct ast *y = step_at(x, depth, i);
    if (y->kind != AST_GETATTR)
      return s;
    s = tfr_arena_printf(a, "%s.%.*s", s, (int)y->n, y->str);
    at->end = y->span.end;
  }
  if (i <= want)
    return s;
  if (i <= depth && is_key_step(step_at(x, depth, i)))
    at->end = step_at(x, depth, i++)->span.end;
  if (refwalk_is_name(root, "module") && i <= depth &&
      step_at(x, depth, i)->kind == AST_GETATTR)
    at->end = step_at(x, depth, i)->span.end;
  return s;
}

struct visit {
  struct refwalk w; /* first: the walk hands it back */
  tfr_arena *a;
  struct refs *r;
};

static void add_var(struct visit *v, const char *s, size_t n, struct span at) {
  add_name(v->a, &v->r->vars, s, n, at);
  if (v->r->record_every)
    add_name(v->a, &v->r->every, s, n, at);
}

/* local.NAME: its name, and what its expression refers to */
static void add_local(struct visit *v, const struct ast *step) {
  struct refs *r = v->r;
  add_name(v->a, &r->locals, step->str, step->n, step->span);
  const struct refs_locals *l = r->follow;
  const struct ast *expr = NULL;
  const char *name = NULL;
  long i = l ? l->find(l->ud, step->str, step->n, &expr, &name) : -1;
  if (i < 0 || r->seen[i])
    return;
  r->seen[i] = true;
  bool had = r->other_name != NULL;
  refwalk(&v->w, expr, NULL);
  if (!had && r->other_name && !r->via)
    r->via = name;
}

static bool on_ref(struct refwalk *w, const struct ast *x,
                   const struct ast *root) {
  struct visit *v = (struct visit *)w;
  struct refs *r = v->r;
  r->any = true;
  const struct ast *first = x; /* the step right on the root */
  while (first != root && refwalk_step_in(first) != root)
    first = refwalk_step_in(first);
  if (first != root && refwalk_is_name(root, "var")) {
    if (first->kind == AST_GETATTR)
      add_var(v, first->str, first->n, first->span);
    else if (first->kids[0]->kind == AST_STRING)
      add_var(v, first->kids[0]->str, first->kids[0]->n, first->span);
    else
      r->var_whole = true;
    return false;
  }
  if (refwalk_is_name(root, "var"))
    r->var_whole = true;
  if (first != root && first->kind == AST_GETATTR &&
      refwalk_is_name(root, "local")) {
    add_local(v, first);
    return false;
  }
  if (!knowable(r, root)) {
    if (x != root && !refwalk_is_name(root, "local")) {
      /* a resource, data source, module...: the object */
      struct span at;
      const char *obj = object_name(v->a, x, root, &at);
      if (!r->other_name)
        r->other_name = obj;
      add_name(v->a, &r->objects, obj, strlen(obj), at);
      r->other = true;
      return false;
    }
    r->other = true;
    if (!r->other_name)
      r->other_name = tfr_arena_strndup(v->a, root->str, root->n);
    if (!refwalk_is_name(root, "local"))
      add_name(v->a, &r->objects, root->str, root->n, root->span);
  }
  return false;
}

static bool on_call(struct refwalk *w, const struct ast *x) {
  struct visit *v = (struct visit *)w;
  const struct ast *fn = x->kids[0];
  if (!v->r->other_name && funcs_impure(fn->str, fn->n))
    v->r->other_name = tfr_arena_printf(v->a, "%.*s()", (int)fn->n, fn->str);
  return false;
}

void refs_add(tfr_arena *a, struct refs *r, const struct ast *x) {
  struct visit v = {{on_ref, on_call, true}, a, r};
  refwalk(&v.w, x, NULL);
}

struct refs refs_of(tfr_arena *a, const struct ast *x) {
  struct refs r = {0};
  refs_add(a, &r, x);
  return r;
}

struct refs refs_through(tfr_arena *a, const struct refs_locals *l,
                         const struct ast *x) {
  struct refs r = {0};
  r.follow = l;
  r.seen = tfr_arena_alloc(a, (l->n ? l->n : 1) * sizeof *r.seen);
  refs_add(a, &r, x);
  r.follow = NULL; /* the caller's, not to be kept */
  return r;
}

static const struct refs no_refs = {.every = {.every = true}};

const struct refs *refs_every(tfr_arena *a, const struct ast *x) {
  struct refs r = {0};
  r.record_every = true;
  r.every.every = true;
  refs_add(a, &r, x);
  if (!r.any && !r.other_name)
    return &no_refs;
  struct refs *p = tfr_arena_alloc(a, sizeof *p);
  *p = r;
  return p;
}

void refs_merge_names(tfr_arena *a, struct ref_names *into,
                      const struct ref_names *l) {
  for (size_t i = 0; i < l->n; i++)
    add_name(a, into, l->v[i], strlen(l->v[i]), l->at[i]);
}

/* The spans of the references to self among l's, in source order. */
static size_t self_spans(const struct ref_names *l, const char *self,
                         struct span *out) {
  size_t n = 0;
  for (size_t j = 0; j < l->n; j++)
    if (!strcmp(l->v[j], self)) {
      struct span s = l->at[j];
      size_t k = n++;
      for (; k > 0 && out[k - 1].start > s.start; k--)
        out[k] = out[k - 1];
      out[k] = s;
    }
  return n;
}

bool refs_rule_key(tfr_arena *a, struct sbuf *b, const char *text,
                   const struct ast *cond, const struct refs *cr,
                   const struct ast *msg, const struct refs *mr,
                   const char *self) {
  const struct ast *xs[2] = {cond, msg};
  const struct refs *rs[2] = {cr, mr};
  for (int p = 0; p < 2; p++) {
    uint32_t at = xs[p]->span.start, end = xs[p]->span.end;
    const struct ref_names *l = &rs[p]->every;
    struct span *self_at = tfr_arena_alloc(a, (l->n + 1) * sizeof *self_at);
    size_t n = self_spans(l, self, self_at);
    for (size_t j = 0; j < n; j++) {
      if (self_at[j].start < at || self_at[j].end > end)
        return false; /* overlapping */
      sbuf_put(b, text + at, self_at[j].start - at);
      sbuf_put(b, "\x01", 1); /* the rule's own variable */
      at = self_at[j].end;
    }
    sbuf_put(b, text + at, end - at);
    sbuf_put(b, "\0", 1);
  }
  return true;
}
