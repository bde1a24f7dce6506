/*
** What an expression refers to, for validation rules: the variables, the
** local values (followed into their own expressions on request), and the
** objects that cannot be known offline (resources, data sources, modules,
** impure functions).  Built on the one reference walk (refwalk.h).
*/
#ifndef TFR_REFS_H
#define TFR_REFS_H

#include <stdbool.h>
#include <stddef.h>

#include "syntax/ast.h"
#include "tfresolve/arena.h"

struct ref_names {
  const char **v;
  struct span *at; /* where each is first referred to */
  size_t n, cap;
  bool every; /* every reference, repeated names too */
};

/* Local values to follow into: local.NAME's index (or -1), its expression
** and its name. */
struct refs_locals {
  size_t n;
  long (*find)(const void *ud, const char *s, size_t len,
               const struct ast **expr, const char **name);
  const void *ud;
};

struct refs {
  struct ref_names vars;    /* var.NAME referenced */
  struct ref_names every;   /* every var.NAME reference, repeats too (with
                               record_every) */
  struct ref_names locals;  /* local.NAME referenced */
  struct ref_names objects; /* "aws_instance.web", "data.t.n", "module.m",
                               or a bare root such as "aws_instance" */
  bool any;                 /* refers to anything at all */
  bool var_whole;           /* uses `var` other than as var.NAME or
                               var["NAME"] (keys(var), var[local.k]) */
  bool other;               /* refers to something unknowable offline */
  const char *other_name;   /* the first such thing, e.g. "data.aws_ami.x" */
  const char *via;          /* the local value it was reached through */
  /* how to walk (set before refs_add) */
  bool record_every;
  const struct refs_locals *follow; /* follow local values (or NULL) */
  bool *seen;                       /* locals already followed */
};

/* Walk x into r (refs of several expressions add up, each name once). */
void refs_add(tfr_arena *a, struct refs *r, const struct ast *x);

/* x's references, local values as names. */
struct refs refs_of(tfr_arena *a, const struct ast *x);

/* x's references, through the local values too. */
struct refs refs_through(tfr_arena *a, const struct refs_locals *l,
                         const struct ast *x);

/* x's references with every var. reference recorded; a shared empty
** struct for an expression that refers to nothing. */
const struct refs *refs_every(tfr_arena *a, const struct ast *x);

/*
** A rule's text with every reference to its own variable self cut out
** (each becomes \x01), the condition's and the message's each ended by a
** NUL, appended to b: rules with the same key differ only in their own
** variable's name.  cr and mr: refs_every of cond and msg; text: the
** source both are in.  False when references overlap (no key).
*/
struct sbuf;
bool refs_rule_key(tfr_arena *a, struct sbuf *b, const char *text,
                   const struct ast *cond, const struct refs *cr,
                   const struct ast *msg, const struct refs *mr,
                   const char *self);

/* The names of l not yet in into, added in order. */
void refs_merge_names(tfr_arena *a, struct ref_names *into,
                      const struct ref_names *l);

#endif
