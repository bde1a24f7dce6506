/*
** The scope of validation rules and the console (scope.c): var.*, local.*,
** path.* and terraform.workspace, as Terraform evaluates them offline.
*/
#ifndef TFR_SCOPE_H
#define TFR_SCOPE_H

#include <stdbool.h>
#include <stdint.h>

#include "eval/eval.h"
#include "module/module.h"

struct scope {
  tfr_arena *a;
  const tfr_value *var, *path, *terraform;
  const struct module *m;  /* its local values are in scope (or NULL) */
  const tfr_value **local; /* each local value, once evaluated */
  const char **local_err;  /* why one could not be evaluated */
  uint8_t *lstate;         /* 0 not yet, 1 being evaluated, 2 done */
  const tfr_value *locals; /* the object of them all, once all are done */
  int busy;                /* evaluating a local value */
  bool plan;               /* as during plan (validation), not console */
  uint32_t attr_hint;      /* eval_ctx.attr_hint of the rules run in it */
  /* the other root names (module, count, each, resources...) of a module
  ** instance in the tree (tree_inst.c), and local.* when m is NULL; NULL:
  ** unknown */
  const tfr_value *(*more)(void *ud, const char *name, size_t len);
  /* ... and NAME.ATTR of those at once (NULL: not known that way) */
  const tfr_value *(*more_attr)(void *ud, const char *name, size_t len,
                                const char *attr, size_t alen);
  void *more_ud;
  const char *dir; /* base directory of file functions, when m is NULL */
  const struct module *funcs_of; /* whose functions (scope_funcs), when m is
                                    NULL: a module instance's of the tree */
  bool quiet_deferred;           /* a rule whose condition is unknown gives no
                                    warning (a child module's: plan skips it) */
  bool init; /* Terraform's init walk (eval_ctx.unknown_funcs) */
};

/* The functions of module m's context in c: its engine's set, and the
** functions of the providers it requires (OpenTofu: every provider's but
** the built-in one's gives an unknown result). */
void scope_funcs(struct eval_ctx *c, const struct module *m);

/* eval_scope's lookup over a struct scope (ud). */
const tfr_value *scope_lookup(void *ud, struct eval_ctx *c,
                              const struct ast *root, const char *name,
                              size_t len);

/* eval_scope's attr over a struct scope: more_attr's answer, or NULL. */
const tfr_value *scope_attr(void *ud, const char *name, size_t len,
                            const char *attr, size_t alen);

/* Give a scope the module's local values (evaluated when first used). */
void scope_locals(struct scope *s, const struct module *m);

/* path.* and terraform.workspace; path.cwd is dir made absolute. */
void scope_fixed(struct scope *s, const char *dir);

/* var: every variable, with its declaration's marks; values[k] NULL (or
** values NULL) means unknown of the declared type. */
const tfr_value *scope_var_object(tfr_arena *a, const struct module *m,
                                  const tfr_value *const *values);

/* Local value name's index in m, or -1. */
long scope_local_index(const struct module *m, const char *s, size_t n);

/* The scope of `eval -functions`: path.* and terraform.workspace, and no
** variables yet. */
const struct eval_scope *scope_console(tfr_arena *a);

/* The scope of `console` in a module: var.* (values[k] NULL: unknown),
** local.*, path.* and terraform.workspace. */
const struct eval_scope *scope_module(tfr_arena *a, const struct module *m,
                                      const tfr_value *const *values);

#endif
