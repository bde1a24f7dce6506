/*
** The one walk over what an expression refers to (hclsyntax's Variables):
** validation rules, test files and templates all find their references
** with it, so that they agree on what a reference is.
*/
#ifndef TFR_REFWALK_H
#define TFR_REFWALK_H

#include <stdbool.h>

#include "syntax/ast.h"

/* A name bound by the `for` expressions around a node. */
struct ref_bound {
  const char *name;
  uint32_t len;
  const struct ref_bound *next;
};

struct refwalk {
  /*
  ** A reference: the traversal x (attribute and index steps) from a root
  ** name that no enclosing `for` binds; x == root for a bare name.  The
  ** walk then goes into the keys of x's index steps, innermost first.
  ** Return true to stop the whole walk.
  */
  bool (*ref)(struct refwalk *w, const struct ast *x, const struct ast *root);
  /* A function call, before its arguments (may be NULL).  Return true to
  ** stop the whole walk. */
  bool (*call)(struct refwalk *w, const struct ast *call);
  /* convert()'s second argument is a type constraint, not references */
  bool skip_type_args;
};

/*
** Walk x in source order (hcl's order: a traversal's collection before its
** keys): a bare name as an object key is the key's text, not a reference;
** a `for` binds its key and value names in its body.  bound: names bound
** around x (NULL for none).  True when a callback stopped the walk.
** Recursion is bounded by AST_MAX_DEPTH.
*/
bool refwalk(struct refwalk *w, const struct ast *x,
             const struct ref_bound *bound);

/* x names (is the bare name) s. */
bool refwalk_is_name(const struct ast *x, const char *s);

/* The step x stands on: a traversal step's collection. */
const struct ast *refwalk_step_in(const struct ast *x);

#endif
