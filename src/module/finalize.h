/*
** A variable's value made final, the root's and every child instance's
** alike (finalize.c): Terraform's PrepareFinalInputVariableValue, the
** warning for a deprecated variable that got a value, and the object
** attributes a variable's type drops.  The root's values come from var
** files, TF_VAR_ and -var (resolve.c chooses and parses them); a child's
** from its module argument, evaluated in the caller's instance
** (tree_walk.c); from here on they are one value with one way.
*/
#ifndef TFR_FINALIZE_H
#define TFR_FINALIZE_H

#include <stdbool.h>

#include "module/module.h"
#include "module/strict.h"
#include "tfresolve/tfresolve.h"

struct engine_rules;

/* A variable's given value and where it came from. */
struct given_value {
  const tfr_value *value;    /* NULL: not set (its default, if any) */
  enum tfr_source_kind kind; /* TFR_SRC_ENV, TFR_SRC_CLI: no range of its
                            own; any other: range is its expression */
  struct tfr_range range;    /* a var file's expression, a module argument
                                (filename NULL: none) */
  bool final;                /* already converted (the root's fast path) */
};

/* What finalising one variable instance takes. */
struct finalizer {
  tfr_arena *a;
  tfr_diags *diags;
  const struct engine_rules *engine;
  const struct var_decl *v;
  const char *addr; /* "var.x", "module.a.var.x" */
  bool unset_said;  /* a required variable not set was said before (the
                       root's "No value for required variable") */
  /* our note naming the element of given that does not convert (and
  ** its place in *at), or NULL */
  const char *(*element)(void *ud, const tfr_value *given,
                         struct tfr_range *at);
  void *ud;
  /* OpenTofu's static evaluation of a const variable (its
  ** configs/static_scope.go:336-376): the messages of a file's value
  ** whatever the source, and a value that does not convert is said
  ** without a range */
  bool statically;
};

/* The final value of f->v given g (eval_variable.go:25-229), or NULL
** after its errors (each with the variable's name and a code). */
const tfr_value *var_final(const struct finalizer *f,
                           const struct given_value *g);

/* The warning for a deprecated variable v that got a value
** (Terraform's "Deprecated variable got a value"), at at: the root's at
** its `deprecated` argument (node_root_variable.go:94-102), a child's at
** its module argument (node_module_variable.go:337-344). */
void var_deprecated_warning(tfr_arena *a, tfr_diags *d,
                            const struct engine_rules *e,
                            const struct var_decl *v,
                            const struct tfr_range *at);

/* How a dropped attribute is reported: -strict's error, a warning, or
** the engine's own warning for a default's constructors. */
enum dropped_mode { DROPPED_ERROR, DROPPED_WARNING, DROPPED_ENGINE };

/* Where an attribute a variable's type drops was set. */
struct dropped_report {
  const char *addr; /* the variable: "var.x", "module.a.var.x" */
  const char *var;  /* its name */
  bool secret;      /* its value's keys and names are not shown */
  enum dropped_mode mode;
  bool warned;      /* the engine warns about it itself */
  const char *note; /* ours beside it, or NULL */
  bool arg;         /* in a module argument (DROPPED_ENGINE's words) */
};

/* "Object attribute is ignored" (ours, but DROPPED_ENGINE's): name, set
** at path of the variable's value (in an object constructor or found in
** a value), is not in object; at: where. */
void var_dropped(tfr_arena *a, tfr_diags *d, const struct engine_rules *e,
                 const struct dropped_report *r, const char *path,
                 const char *name, const tfr_type *object, bool constructor,
                 const struct tfr_range *at);

#endif
