/*
** Variable validation rules (validation blocks, as Terraform checks them):
** static checks, references, and the one runner of a variable's rules,
** which every walk of the tree calls (tree_walk.c).
*/
#ifndef TFR_VALIDATE_H
#define TFR_VALIDATE_H

#include "eval/eval.h"
#include "module/module.h"

/* While loading: a condition must refer to something, and to its own
** variable. */
void validate_static(struct module *m, tfr_arena *a, tfr_diags *diags);

/* Where variable k's value is written: asked for only when one of its
** rules fails. */
struct value_place {
  struct tfr_range (*range)(const void *ud, size_t k);
  const void *ud;
};

struct scope;

/* Terraform's errors for references in x (in src) to variables, local
** values, module calls and resources that m does not declare (var: the
** variable they are about, or NULL); true if there are none. */
bool validate_refs(const struct module *m, tfr_arena *a, tfr_diags *diags,
                   struct src_file *src, const struct ast *x, const char *var);

/* The same for the rules of variable k. */
bool validate_var_refs(const struct module *m, tfr_arena *a, tfr_diags *diags,
                       size_t k);

/* How the rules of a variable are run in one scope of the tree's walk
** (tree_walk.c). */
struct bytemap;
struct rules_run {
  tfr_arena *a;       /* the outcomes' texts */
  tfr_arena *scratch; /* what each rule computes, reset after it */
  tfr_diags *diags;
  struct scope *s;
  const struct value_place *value_at; /* where a failure points */
  bool walk_validate; /* Terraform's validate walk: failures at the
                         declaration, only errors kept */
  /* the validate walk's rules of the root, whose outcome depends only on
  ** their text and their variable's type and marks (walk_key): the keys
  ** of those that passed, each evaluated once per module; NULL: none */
  struct bytemap *clean;
};

/* The rules of variable k of m, in order, each outcome in rules[i]
** (rules NULL: not kept).  False if one failed or had an error. */
bool validate_var_rules(const struct rules_run *run, const struct module *m,
                        size_t k, struct tfr_rule *rules);

/* -missing-required=info: a failed rule of a root variable k with soft[k]
** (no source sets it and its default is null: `var.x != null` with
** `default = null`) says what "No value for required variable" says, that
** the caller must set it: its errors from diags[from] on (the root
** module's) become warnings, and failed[k] (failed may be NULL) false. */
void validate_soften(const struct module *m, tfr_diags *diags, size_t from,
                     const bool *soft, bool *failed);

/* Every rule of v skipped, each outcome in rules[i] saying why ("the
** variable has no valid value", "it refers to var.x, which is not
** valid"). */
void validate_skip_rules(const struct var_decl *v, struct tfr_rule *rules,
                         const char *why);

/* Terraform's errors for references in x to variables and local values
** that m does not declare; true if there are none. */
bool validate_console_refs(const struct module *m, tfr_arena *a,
                           tfr_diags *diags, struct src_file *src,
                           const struct ast *x);

/* A cycle of a graph as the engine writes it ("Cycle: ..."): names in
** the order of the references (the reverse of Tarjan's pops). */
struct engine_rules;
void validate_cycle(tfr_arena *a, tfr_diags *diags,
                    const struct engine_rules *e, const char **names, size_t n);

#endif
