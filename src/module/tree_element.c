/*
** The narrowest place of a failing element: the path a rule reads below
** its variable, and that path's item in a var file's value (issue 41).
*/
#include "module/tree_element.h"

#include <string.h>

#include "base/arena_int.h"
#include "base/strutil.h"
#include "module/strict.h"
#include "syntax/refwalk.h"

struct read_path {
  struct refwalk w; /* first: the walk hands it back */
  tfr_arena *a;
  const char *name;
  size_t len;
  const char *path; /* the one found so far, or NULL */
  bool whole;       /* read whole, or through two paths: no one path */
};

/* Whether number literal s of n bytes is a plain index (digits only). */
static bool plain_index(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (s[i] < '0' || s[i] > '9')
      return false;
  return n > 0;
}

/* Step y as a path step (".port", `["port"]`, "[0]", the syntax
** strict_locate reads), or NULL when its key is not a constant. */
static const char *step_text(tfr_arena *a, const struct ast *y) {
  if (y->kind == AST_GETATTR)
    return tfr_arena_printf(a, ".%.*s", (int)y->n, y->str);
  const struct ast *k = y->kids[0];
  if (k->kind == AST_STRING)
    return tfr_arena_printf(a, "[%s]", str_go_quote(a, k->str, k->n));
  if (k->kind == AST_NUMBER && plain_index(k->str, k->n))
    return tfr_arena_printf(a, "[%.*s]", (int)k->n, k->str);
  return NULL;
}

/* Whether first (the step on `var`) names the variable; *other when it
** names another one. */
static bool names_it(const struct read_path *r, const struct ast *first,
                     bool *other) {
  const char *s = NULL;
  size_t n = 0;
  if (first->kind == AST_GETATTR) {
    s = first->str;
    n = first->n;
  } else if (first->kids[0]->kind == AST_STRING) {
    s = first->kids[0]->str;
    n = first->kids[0]->n;
  }
  *other = s && !(n == r->len && !memcmp(s, r->name, n));
  return s && !*other;
}

static bool on_ref(struct refwalk *w, const struct ast *x,
                   const struct ast *root) {
  struct read_path *r = (struct read_path *)w;
  /* anything else it refers to (a local value, a module's output)
  ** cannot read this variable: what refers to a variable waits for its
  ** rules (transform_variable_validation.go), so that is a cycle */
  if (!refwalk_is_name(root, "var"))
    return false;
  if (x == root) { /* `var` itself: any variable, maybe this one */
    r->whole = true;
    return true;
  }
  const char *path = "";
  const struct ast *y = x;
  for (; refwalk_step_in(y) != root; y = refwalk_step_in(y)) {
    const char *step = step_text(r->a, y);
    if (!step) {
      path = NULL;
      break;
    }
    path = tfr_arena_printf(r->a, "%s%s", step, path);
  }
  while (y && refwalk_step_in(y) != root)
    y = refwalk_step_in(y);
  bool other = false;
  if (!names_it(r, y, &other)) {
    r->whole = !other; /* var[local.k]: maybe this one */
    return r->whole;
  }
  if (!path || !*path || (r->path && strcmp(r->path, path)))
    r->whole = true;
  r->path = path;
  return r->whole;
}

const char *element_read_path(tfr_arena *a, const struct validation *rule,
                              const char *name) {
  if (rule->alias)
    name = rule->alias;
  struct read_path r = {{on_ref, NULL, true}, a,    name,
                        strlen(name),         NULL, false};
  const struct ast *parts[] = {rule->condition, rule->error_message};
  for (size_t i = 0; i < 2 && !r.whole; i++)
    if (parts[i])
      refwalk(&r.w, parts[i], NULL);
  return r.whole ? NULL : r.path;
}

/* The item of x's constructors whose value is the node v: *at its place. */
static bool find_item(const struct ast *x, const struct ast *v,
                      struct span *at) {
  while (x->kind == AST_PAREN)
    x = x->a;
  if (x->kind == AST_OBJECT) {
    for (uint32_t i = 0; i < x->n; i++) {
      const struct ast *k = x->items[2 * i], *e = x->items[2 * i + 1];
      if (e == v) {
        *at = (struct span){k->span.start, e->span.end};
        return true;
      }
      if (find_item(e, v, at))
        return true;
    }
  } else if (x->kind == AST_TUPLE) {
    for (uint32_t i = 0; i < x->n; i++) {
      if (x->items[i] == v) {
        *at = v->span;
        return true;
      }
      if (find_item(x->items[i], v, at))
        return true;
    }
  }
  return false;
}

bool element_item_at(const struct ast *x, const char *path, struct span *at) {
  const char *rest = path;
  const struct ast *v = strict_locate_rest(x, path, &rest);
  if (!*path || *rest)
    return false;
  return find_item(x, v, at);
}
