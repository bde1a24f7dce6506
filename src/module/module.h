/*
** A module directory: its configuration files, its `variable` blocks, and
** the values offered for them (environment, tfvars files, command line),
** resolved with Terraform's stages and precedence (module.c and its
** module_*.c, resolve.c).
*/
#ifndef TFR_MODULE_H
#define TFR_MODULE_H

#include <stdbool.h>

#include "base/dirlist.h"
#include "eval/eval.h"
#include "syntax/ast.h"
#include "module/calls.h"
#include "values/convert.h"
#include "tfresolve/resolution.h"

struct refs; /* refs.h */

/* One `validation` block, kept for the validation stage. */
struct validation {
  /* the trees evaluated: the rule's own, or (alias set) those of an
  ** earlier rule whose text differs only in its own variable's name */
  const struct ast *condition, *error_message;
  struct src_file *src;
  struct span block;
  /* .tf.json: the error message's JSON string, which Terraform takes
  ** literally when it fails to evaluate; NULL otherwise */
  const struct ast *message_literal;
  /* the texts the condition's and the message's trees are in: src, or
  ** (.tf.json) the JSON string each was parsed from, whose positions are
  ** the file's, or (alias) the earlier rule's file */
  struct src_file *cond_src, *msg_src;
  /* the condition and the message as wholes, in src: the expressions
  ** themselves, or (.tf.json) the JSON strings, quotes included, as
  ** Terraform's diagnostics about a whole condition or message give them */
  struct span cond_span, msg_span;
  /* set when the trees are another rule's: that rule's variable, whose
  ** references in them stand for this rule's own variable (run_rule
  ** in validate.c); the rule's own trees are read again from src at
  ** cond_span and msg_span when it needs them */
  const char *alias;
  const struct var_decl *alias_var; /* its declaration (validate_static) */
  /* what the condition and the message refer to (refs_every), found as
  ** the rule is read, its syntax tree still in the cache (NULL for a rule
  ** sharing trees: it refers to its own variable alone) */
  const struct refs *cond_refs, *msg_refs;
  /* rules with the same text_key differ only in their own variable's name
  ** (refs_rule_key; numbered from 1 per module); 0: no key (.tf.json) */
  uint32_t text_key;
  /* what the rule refers to, found once by validate_static (validate.c's
  ** own type); NULL until then */
  const struct rule_refs *refs;
  /* the block's range (src_range of block), set when its variable is
  ** declared (or by validate_static) */
  struct tfr_range range;
};

/* An attribute a variable's default sets that its type drops. */
struct dropped_default {
  const char *path, *name; /* strict.h's dropped_attr */
  struct tfr_range at;
  const tfr_type *object;
  bool constructor, json;
};

/* A declared variable, after merging override files. */
struct var_decl {
  const char *name;
  struct tfr_range decl; /* `variable "x"` */
  struct src_file *src;
  const tfr_type *type; /* constraint; any when untyped */
  const struct tfr_defaults *defaults;
  const tfr_type *plain;    /* type without optional() markers */
  uint32_t type_id;         /* the same for the same type and defaults:
                               0 <= type_id < module.ntypes */
  bool typed, literal_mode; /* parse mode for env and -var strings */
  bool has_default;
  const tfr_value *dflt; /* converted default */
  struct tfr_range dflt_range;
  const tfr_value *dflt_given; /* the default before conversion */
  /* attributes the default sets that its type drops (strict.h), found as
  ** it is read */
  struct dropped_default *dropped;
  size_t ndropped;
  const char *description, *deprecated;
  struct tfr_range deprecated_range;
  bool sensitive, ephemeral, nullable, is_const;
  struct tfr_range type_range; /* its `type` expression (none: no type) */
  bool type_overridden;        /* the type came from an override file */
  struct validation *validations;
  size_t nvalidations;
  bool failed; /* its declaration had errors */
};

/* Where a raw value came from (the JSON's "source.kind", doc/json-format.md).
 */
typedef enum tfr_source_kind src_kind_t;

/* A tfvars file whose values fastval.c read: its AST is made only when
** some value needs the general path (module_raw_expr). */
struct lazy_file {
  size_t first, n; /* its raw values: raws[first, first+n) */
  bool json;       /* .tfvars.json: members of one object */
  bool parsed;
};

/* One attempt to set a variable: every source keeps its attempts, not only
** the winner, for `explain`. */
struct raw_value {
  const char *name;
  enum tfr_source_kind kind;
  const char *file;       /* file name as given, for file kinds */
  struct span span;       /* the value's expression in a file */
  int line;               /* ... where it starts (raw_range: all) */
  struct src_file *src;   /* file values */
  const struct ast *expr; /* file values, unless lazy */
  struct lazy_file *lazy; /* read by fastval.c: */
  const tfr_value *fast;  /*   final value, or NULL */
  bool fast_dropped;      /*   fast drops an attribute its type does not
                               declare */
  long var;               /* 0, or its variable: vars[var - 1]; or
                             -1: undeclared (what fastval.c found) */
  const char *text;       /* env and -var values */
  size_t len;
  bool undeclared;
  const char *via; /* tfr_cli_arg.via of a -var or -var-file */
  bool unknown;    /* tfr_resolve_opts.unknown: no text, an unknown value */
};

/* One local value (an attribute of a `locals` block), after overrides. */
struct local_decl {
  const char *name;
  const struct ast *expr;
  struct src_file *src;
  struct span span; /* the whole `name = expr` */
};

/* A moved or removed block whose `from` (and a moved block's `to`) is a
** module call, module.NAME without an instance key (the cases checked). */
struct refactor_stmt {
  bool removed;
  const char *from, *to; /* call names */
  struct src_file *src;
  struct span decl; /* the block's header (its DeclRange) */
};

struct module {
  const char *dir;
  /* "" for a root module, else its configuration's address in the tree
  ** ("module.a.module.b"), as Terraform's diagnostics name it */
  const char *addr;
  struct module_call *calls; /* sorted by name */
  size_t ncalls;
  struct output_decl *outputs; /* sorted by name */
  size_t noutputs;
  struct data_decl *data; /* its data blocks, sorted by name */
  size_t ndata;
  tfr_diags *tree_diags;     /* errors in module and output blocks: reported
                                by the tree (NULL: none) */
  struct local_decl *locals; /* in declaration order */
  size_t nlocals;
  struct var_slot *local_slots; /* their names hashed, as var_slots */
  size_t nlocal_slots;
  const char **objects; /* "aws_instance.web", "data.aws_ami.x",
                           "module.net", "ephemeral.t.n": sorted */
  size_t nobjects;
  struct var_decl *vars; /* sorted by name */
  size_t nvars;
  /* the names hashed, compactly (a lookup reads no declaration):
  ** each slot the name's hash and index + 1 (0: empty); the names one
  ** after another in name_pool, name k at name_at[k], NUL-ended */
  struct var_slot {
    uint32_t hash, index1;
  } * var_slots;
  size_t nslots; /* a power of two */
  const char *name_pool;
  const uint32_t *name_at;
  const uint32_t *var_type;        /* each variable's type_id */
  size_t ntypes;                   /* distinct (type, defaults) of vars */
  struct eval_providers providers; /* its required_providers' local names */
  struct refactor_stmt *refactors; /* its moved and removed blocks */
  size_t nrefactors;
  bool has_config;         /* at least one .tf / .tf.json */
  struct src_file **files; /* its configuration files, as read: primary
                              files, then override files (iface.c) */
  size_t nfiles;
  bool opentofu;          /* loaded with OpenTofu's rules */
  struct raw_value *raws; /* in precedence order, lowest first */
  size_t nraws;
};

/* The declared variable closest to name, fewer than `below` edits away
** (the first by name among the closest), or NULL. */
const char *module_closest_var(const struct module *m, const char *name,
                               size_t below);

/* The variable named name (len bytes), or NULL. */
const struct var_decl *module_var(const struct module *m, const char *name,
                                  size_t len);

/* Its index in m->vars, or -1. */
long module_var_index(const struct module *m, const char *name, size_t len);

/* The outcomes of v's rules before anything is evaluated: each skipped,
** at its block's range (NULL when it has none), in a. */
struct tfr_rule *module_skipped_rules(tfr_arena *a, const struct var_decl *v);

/* The index in m->locals of the local value name (len bytes), or -1. */
long module_local_index(const struct module *m, const char *name, size_t len);

/* Whether the module declares an object ("aws_instance.web", ...). */
bool module_declares(const struct module *m, const char *name);

/* Tests set this to load every file whole, never block by block (the
** two ways must agree: tests/fastpath_diff.c). */
extern bool module_whole_files;

/* Whether the engine e reads configuration file name of a directory whose
** files are names[0..n) (sorted: in strcmp order): .tf and .tf.json;
** OpenTofu's .tofu and .tofu.json too, each instead of the .tf (.tf.json)
** of the same name (OpenTofu's configs/parser_config_dir.go). */
struct engine_rules;
bool module_file_read(const struct engine_rules *e, const char *const *names,
                      size_t n, const char *name, bool sorted);

/* Stage 1: load the configuration of dir.  Errors go to diags.  shared:
** the module will be read by several threads at once. */
struct module *module_load(tfr_arena *a, tfr_diags *diags, const char *dir,
                           bool opentofu, bool shared,
                           const struct overlays *ov);

/* Stage 2: collect raw values from env (NULL: none), the auto-loaded
** files and the command line, in precedence order.  skip_editor_files:
** auto files named as an editor's lock, backup or swap file are not read
** (tfr_resolve_opts.skip_editor_files). */
struct collect_opts {
  char *const *env;               /* environ-style, or NULL */
  const struct tfr_cli_arg *args; /* -var and -var-file, as given */
  size_t nargs;
  bool fast;                 /* tfvars values read by the fast path */
  bool skip_editor_files;    /* see above */
  const struct overlays *ov; /* an editor's open files, or NULL */
  /* tfr_resolve_opts.unknown */
  const char *const *unknown;
  size_t nunknown;
};
void module_collect(struct module *m, tfr_arena *a, tfr_diags *diags,
                    const struct collect_opts *o);

/* Where a file value's expression is, and its name. */
struct tfr_range raw_range(const struct raw_value *raw);
struct tfr_range raw_name_range(const struct raw_value *raw);

/* The expression of a file value, parsed now if its file was read by the
** fast path (fast: raw values read there may come with their final
** value). */
const struct ast *module_raw_expr(struct module *m, tfr_arena *a,
                                  tfr_diags *diags,
                                  const struct raw_value *raw);

/* Terraform's error for a directory without configuration, as plan says
** it (show, check and every test run); product ("Terraform", "OpenTofu")
** is the tool it names. */
void module_no_config_error(tfr_diags *d, const char *product);

/* Terraform's warning, at r, for a .tf.json error_message whose string
** cannot be used as an expression (it does not parse, or fails to
** evaluate), so that it is taken as literal text; why is the failure's
** diags_error_text; product is the tool it names. */
void module_literal_message_warning(tfr_arena *a, tfr_diags *d,
                                    const struct tfr_range *r, const char *why,
                                    const char *var, const char *product);

/* The module's interface (tfresolve/interface.h), in a (iface.c). */
struct tfr_interface;
const struct tfr_interface *module_interface(tfr_arena *a,
                                             const struct module *m);

/* What rule condition cond says of var.NAME's values, into r's allowed,
** forbidden and bounds (allowed.c; tfresolve/interface.h says how it is
** read). */
struct tfr_iface_rule;
void module_rule_reading(tfr_arena *a, const struct ast *cond, const char *name,
                         struct tfr_iface_rule *r);

/* The module a loaded tfr_module is (resolve.c keeps it first in it), or
** NULL. */
static inline const struct module *module_of(const struct tfr_module *m) {
  return (const struct module *)(const void *)m;
}

#endif
