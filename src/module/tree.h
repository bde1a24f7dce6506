/*
** The module tree (tree_*.c, their shared insides in tree_int.h): values
*followed through `module` blocks into
** every child module instance, resolved, converted and validated as
** `terraform plan` does when nothing is known from state or providers.
*/
#ifndef TFR_TREE_H
#define TFR_TREE_H

#include <stdbool.h>

#include "module/module.h"

struct value_place; /* validate.h */
struct tfr_rule;    /* tfresolve.h */

struct tree;

/* Deeper call paths are an error (never a hang). */
#define TREE_MAX_DEPTH 32

/* More module instances in a tree are an error (a count from a var file
** must not build a billion of them): every instance counts, a plain
** call's too, and so does every call path of the configuration as it is
** loaded (N directories each calling the next twice make 2^N). */
#define TREE_MAX_INSTANCES 100000

/* What loading a tree takes beside its root module. */
struct tree_opts {
  const tfr_value *const *const_values; /* the root's variables' values
                                           where they are const (module
                                           sources may use them; NULL:
                                           none) */
  char *const *env;          /* environ-style (TF_DATA_DIR), or NULL: the
                                process's */
  struct tfr_cache *cache;   /* child modules shared with other
                                resolutions, or NULL */
  bool strict;               /* -strict: a module not installed is an
                                error, an object attribute a child's type
                                drops too */
  bool warn_dropped;         /* such an attribute is a warning without
                                strict */
  bool unchecked_error;      /* a call whose instances are not checked is
                                an error (strict implies it) */
  const struct overlays *ov; /* an editor's open files, or NULL */
  const char *own_dir;       /* the top of the user's own code
                                (tfr_resolve_opts.own_dir; NULL: the
                                root's directory): what is outside, or
                                under the root's data directory, is
                                third-party */
  bool root_only;            /* -no-modules: module blocks are not
                                followed (the root alone, a tree of one
                                module whose calls are unknown) */
};

/* What decoding the root's module and output blocks said, added to diags;
** whether it has errors: configuration errors, which stop plan before any
** variable's value is looked at (terraform
** internal/backend/local/backend_local.go:156). */
bool tree_root_diags(const struct module *root, tfr_diags *diags);

/* After the root's values are parsed: the tree of the root module alone,
** its first module instance. */
struct tree *tree_new(tfr_arena *a, tfr_diags *diags, struct module *root,
                      const struct tree_opts *o);

/* Terraform's init walk (>= 1.15, graph_builder_init.go), a pass of the
** tree's walk before its children are loaded: the rules of the root's
** const variables, root_values[k] their final values (NULL: failed), the
** other variables unknown and local values not in the walk; rules as in
** tree_plan.  False when it gave errors (plan stops there). */
bool tree_init_walk(struct tree *t, const tfr_value *const *root_values,
                    const struct value_place *root_at,
                    struct tfr_rule *const *root_rules);

/* Then the root's module and output blocks, every child module loaded
** into the tree (depth first, calls by name) and the arguments of each
** call checked; without module blocks or with tree_opts.root_only, a tree
** of one module (the resolution says no tree then).  False when Terraform
** would stop here. */
bool tree_load_children(struct tree *t);

/* The graph of the tree, the root module's rules included (the plan walk
** evaluates them); false after its cycles' errors. */
bool tree_graph(struct tree *t, tfr_diags *diags);

/* Terraform's validate walk (every root variable unknown); false when it
** gave errors. */
bool tree_validate(struct tree *t, tfr_diags *diags);

/* The plan walk: root_values[k] is root variable k's final value, NULL
** when it failed; the rules of the root variables tree_graph was told of
** point at root_at's ranges, their outcomes in root_rules[k]; a failed
** rule of root variable k with root_soft[k] is a warning
** (validate_soften; root_soft may be NULL). */
void tree_plan(struct tree *t, tfr_diags *diags,
               const tfr_value *const *root_values,
               const struct value_place *root_at,
               struct tfr_rule *const *root_rules, const bool *root_soft);

/* Whether root variable k's rules failed in the plan walk. */
bool tree_root_failed(const struct tree *t, size_t k);

/* Every loaded child's instances as the resolution gives them: planned,
** or (the walk did not run) each module once under its call's address,
** every variable in error. */
void tree_result(struct tree *t, struct tfr_resolution *res);

/* Every module of the configuration tree once, under its call path, as
** tree_result gives one when the walk did not run (its variables as
** declared, with their arguments): what the configuration has whatever
** its calls' instances (tfr_resolution_config_modules); how many. */
size_t tree_config_modules(struct tree *t, const struct tfr_instance **modules);
/* The depends_on of the call of the i-th of them, each reference's
** subject as Terraform's plan JSON writes it (refs_terraform_subject);
** *n of them, NULL when there are none or i is past the end. */
const char *const *tree_config_depends_on(const struct tree *t, size_t i,
                                          size_t *n);
/* Give every diagnostic without a module the root's ("") and, in
** human output, a note naming the instance of the others. */
void tree_mark_diags(tfr_diags *diags, size_t from);

/* The tree a resolution of resolve.c walked, or NULL. */
const struct tree *resolve_tree(const struct tfr_resolution *res);

struct eval_ctx;  /* eval/eval.h */
struct tfr_scope; /* tfresolve.h */

/* Evaluate x into *out in c (its arena, diagnostics, source and
** functions set) as the console does (tree_scope.c): in module instance
** sc of a tree, or, sc NULL or the root's, in res's (sc's) root module,
** where module.NAME comes from its tree.  False, nothing done, when there
** is no module to evaluate in. */
bool tree_console_eval(struct eval_ctx *c, const struct tfr_resolution *res,
                       const struct tfr_scope *sc, const struct ast *x,
                       const tfr_value **out);

#endif
