/*
** The module tree: every `module` block followed into its child module,
** each instance's variables resolved from the arguments the caller gives,
** converted and validated as `terraform plan` does offline -- resources,
** data sources and provider functions unknown.
**
** Terraform's order (backend_local.go, context_plan.go): the root's values
** are parsed; the configuration tree is loaded (configload's
** moduleWalkerLoad, calls in name order, depth first) and each call's
** arguments checked against the child's variables (hcl's Content with the
** graph builders' schema); the graph of every module's expand, variable,
** validation, local and output nodes is built (its cycles are errors);
** the validate walk runs with every root variable unknown, then the plan
** walk with the final root values, node by node in dependency order, a
** node whose dependency failed skipped without a word.
**
** Sources: internal/terraform/node_module_expand.go (expansion),
** node_module_variable.go and eval_variable.go (arguments and rules),
** node_local.go, node_output.go, evaluate.go (references), eval_count.go,
** eval_for_each.go (repetition).
**
** This header holds what the tree's files (src/module/tree_*.c) share;
** what other files use is module/tree.h.
*/
#ifndef TFR_TREE_INT_H
#define TFR_TREE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "module/tree.h"
#include "module/module.h"
#include "syntax/refwalk.h"
#include "base/arena_int.h"
#include "base/strutil.h"
#include "eval/eval.h"
#include "module/scope.h"

/* ---- the configuration tree -------------------------------------------- */

struct tinst;

/* A module in the tree: the root, or a child loaded for one call path. */
struct tmod {
  const char *addr;    /* "" or "module.a.module.b" */
  const char *dir;     /* where its files are (as the loader opens them) */
  const char *rel;     /* the same relative to the root's directory */
  const char *source;  /* its call's source */
  dev_t dev;           /* its directory as stat finds it (a symlink */
  ino_t ino;           /* followed): what loading() compares */
  bool real;           /* no symbolic link on its path below the root's
                          directory (load_module) */
  struct module *m;    /* its configuration (a child's: the cache's,
                          shared, until build_graph gives it its own copy
                          with its address) */
  struct tmod *parent; /* NULL for the root */
  const struct module_call *call; /* in parent->m */
  struct tmod **children;         /* per call of m (NULL: not loaded) */
  const struct module_arg **args; /* per variable of m: its argument */
  size_t depth;
  struct tinst **insts; /* in the current walk */
  size_t ninsts, cap;
  /* graph nodes: expand; per variable var and validation (or -1); per
  ** local; per output */
  long expand, *var_node, *valid_node, *local_node, *output_node;
  const tfr_value *path; /* path.* in its instances */
  /* per variable: where the validate walk saw a deprecated one get a
  ** value (its instance's address), NULL: not seen */
  const char **deprecated_at;
};

/* What a call's own arguments see of its repetition. */
struct trep {
  const tfr_value *count_index; /* NULL: no count */
  const tfr_value *each_key, *each_value;
};

/* How one call of an instance expanded. */
struct texp {
  enum { EXP_SINGLE, EXP_COUNT, EXP_FOR_EACH } mode;
  size_t n;
  struct tinst **insts;
  const char **keys; /* for_each keys */
};

/* A module instance: the root's one, or one per count index / for_each
** key of each calling instance. */
struct tinst {
  struct tmod *tm;
  const char *addr;
  struct tinst *parent;
  struct trep rep;
  const tfr_value **vars;    /* per variable: its value (NULL: none) */
  bool *var_done;            /* evaluated (else unknown / failed) */
  const tfr_value **locals;  /* NULL: not evaluated (failed) */
  const tfr_value **outputs; /* NULL: not evaluated */
  struct texp **calls;       /* per call of the module */
  struct tfr_rule **rules;   /* per variable: its rules' outcomes */
  bool *failed;              /* per variable: finalisation or rules failed */
  /* var.*, local.* and module.* as objects, made when first asked for and
  ** dropped when what they hold changes (NULL: to be made) */
  const tfr_value *var_obj, *local_obj, *module_obj;
  const tfr_value **call_val; /* per call: module.NAME, made when asked */
};

enum node_kind { N_EXPAND, N_VAR, N_VALID, N_LOCAL, N_OUTPUT };

struct tnode {
  enum node_kind kind;
  struct tmod *tm;
  size_t index;
  const char *name; /* as Terraform's graph names it */
  long *deps;
  size_t ndeps, cap;
  int state; /* 0 pending, 1 done, 2 failed, 3 skipped (a dependency
                was not done) */
  bool pre;  /* a root variable: resolved before the walk */
};

struct tree {
  tfr_arena *a;
  tfr_diags *diags;
  struct tmod *root;
  struct tmod **all; /* depth first */
  size_t nall, capall;
  char *const *env;
  struct tfr_cache *cache;   /* modules shared with other trees, or NULL */
  const struct overlays *ov; /* an editor's open files, or NULL */
  const tfr_value *const *const_values; /* the root's const variables' */
  bool strict, warn_dropped;
  const char *own_dir;  /* the user's code (third_party_path), or NULL */
  bool unchecked_error; /* a call not checked is an error (-strict too) */
  struct tfr_unchecked *unchecked; /* the calls not checked */
  size_t nunchecked, capunchecked;
  const struct engine_rules *engine;
  /* the manifest of installed modules */
  struct manifest_rec {
    const char *key, *source, *version, *dir;
  } * man;
  size_t nman;
  struct strmap man_keys; /* each key's first record (freed with a) */
  bool has_man;
  const char *data_dir;
  const char *data_path; /* data_dir as the loader opens paths */
  /* the graph */
  struct tnode *nodes;
  size_t nnodes, capnodes;
  long *order;   /* topological */
  size_t ninsts; /* instances made in the current walk */
  /* bytes held for the tree outside a: the module files read for it
  ** (its cache's), its manifest's text */
  size_t held;
  /* each directory's module, read once (load_module): by "dev:ino" */
  struct strmap dir_keys;
  struct dir_mod {
    const struct module *m;
    tfr_diags *diags; /* what reading it said */
  } * dir_mods;
  size_t ndir_mods, capdir_mods;
  bool cut;           /* loading stopped at a limit: no child is followed */
  bool limit_said;    /* "Too many module instances" said in this walk */
  bool budget_said;   /* the memory budget is spent (and said) */
  tfr_arena *scratch; /* what a rule computes, reset after it */
  const tfr_value *path_cwd, *terraform; /* path.cwd, terraform.* */
  /* each expression's references, found once (an open-addressed table
  ** by the expression's address; cap a power of two) */
  struct ref_slot {
    const struct ast *x;
    struct tref_list *l;
  } * refs;
  size_t nrefs, caprefs;
  /* the root variables' rules, evaluated in the walk: where their
  ** failures point, and their outcomes */
  const struct value_place *root_at;
  struct tfr_rule *const *root_rules;
  const bool *root_soft;      /* validate_soften's, or NULL */
  struct bytemap *walk_clean; /* rules_run.clean, for the root */
  bool root_only;             /* tree_opts.root_only */
  bool validate;              /* the walk is the validate walk */
  bool init;                  /* the walk and its graph are the init
                                 walk's (tree_init_walk) */
  bool planned;               /* the plan walk ran */
};

/* One reference: its root name and the names of its first steps. */
struct tref {
  const char *root;
  size_t rlen;
  const char *a1, *a2; /* attribute names (NULL: none, or an index) */
  size_t l1, l2;
  bool i1;          /* the first step is an index */
  struct span span; /* the whole traversal */
};

struct tref_list {
  tfr_arena *a;
  struct tref *v;
  size_t n, cap;
};

/* What scope_lookup asks of an instance beyond var, path and terraform. */
struct tscope {
  struct tree *t;
  struct tinst *in;
  const struct trep *rep;
  bool vars; /* var.NAME answered at once (not in rules: their own
                variable may stand for another's, validate.c's alias) */
};

/* What evaluating in an instance takes: its scope and the context. */
struct inst_ctx {
  struct scope s;
  struct tscope ts;
  struct eval_scope es;
  struct eval_ctx c;
};

/* tree_paths.c */
const char *tree_path_join(tfr_arena *a, const char *base, const char *rel);
bool tree_is_dir(const char *path, struct stat *st);
const char *tree_env_get(const struct tree *t, const char *name);
bool tree_over_budget(struct tree *t, struct src_file *src, struct span at,
                      const char *addr, const char *what, const char *arg);

/* tree_manifest.c */
void tree_load_manifest(struct tree *t);
/* The manifest's key of call path addr ("module.a.module.b": "a.b"). */
const char *tree_manifest_key(struct tree *t, const char *addr);
const struct manifest_rec *tree_manifest_find(const struct tree *t,
                                              const char *key);
bool tree_version_ok(const char *constraint, const char *version);

/* tree_load.c */
void tree_call_error_in(struct tree *t, struct src_file *src, struct span at,
                        const char *addr, const char *summary,
                        const char *detail);
void tree_add_unchecked(struct tree *t, const char *addr,
                        enum tfr_unchecked_reason reason, const char *why,
                        struct tfr_range at);
void tree_unchecked_fails(struct tree *t);
bool tree_source_chars_ok(struct tree *t, struct src_file *src, struct span at,
                          const char *addr, const char *s, size_t n);

/* tree_refs.c */
size_t tree_steps_of(const struct ast *x, const struct ast *root,
                     const struct ast **out, size_t max);
struct tref_list tree_refs_of_x(struct tree *t, const struct ast *x);
bool tree_root_is(const struct tref *r, const char *s);
bool tree_a1_is(const struct tref *r, const char *s, size_t n);
bool tree_repetition_refs(struct tree *t, struct src_file *src,
                          const struct tref_list *l, const struct trep *rep,
                          const char *var);

/* tree_graph.c */
const char *tree_cat3(struct tree *t, const char *a, const char *b,
                      const char *c);
const char *tree_in_module(struct tree *t, const char *addr, const char *name);
const char *tree_node_prefix(struct tree *t, const struct tmod *tm);
bool tree_build_graph(struct tree *t);
bool tree_order_graph(struct tree *t);

/* tree_inst.c */
/* What the walk said since diagnostic before, in module: the validate
** walk keeps only its errors (the plan walk says the rest again). */
void tree_walk_said(struct tree *t, size_t before, const char *module);
struct tinst *tree_new_inst(struct tree *t, struct tmod *tm,
                            struct tinst *parent, const char *addr,
                            struct trep rep);
const tfr_value *tree_str_val(tfr_arena *a, const char *s);
const tfr_value *tree_var_object(struct tree *t, struct tinst *in, long own,
                                 const tfr_value *own_val);
void tree_init_scope(struct tree *t, struct scope *s, struct tscope *ts,
                     struct tinst *in, const struct trep *rep, long own,
                     const tfr_value *own_val);
void tree_inst_ctx(struct tree *t, struct inst_ctx *ic, struct tinst *in,
                   struct src_file *src, const struct trep *rep);
const tfr_value *tree_eval_in(struct tree *t, struct tinst *in,
                              struct src_file *src, const struct ast *x,
                              const struct trep *rep, const char *var,
                              const char *module);
const char *tree_eval_source(struct tree *t, struct tmod *tm,
                             const struct module_call *c, const char *addr);

/* tree_expand.c */
bool tree_expand_call(struct tree *t, struct tmod *tm, struct tinst *pi);

/* tree_walk.c */
bool tree_trace_element(struct tree *t, const struct tinst *callee, size_t k,
                        const char *path, struct tfr_range *at,
                        const char **root_elem);
bool tree_third_party_path(const struct tree *t, const char *f);

#endif
