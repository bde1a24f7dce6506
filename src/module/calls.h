/*
** The `module` and `output` blocks of a module directory (calls.c), read
** by the loader for the module tree (tree.h).
*/
#ifndef TFR_CALLS_H
#define TFR_CALLS_H

#include <stdbool.h>

#include "syntax/ast.h"
#include "tfresolve/diag.h"
#include "tfresolve/value.h"

struct body_item; /* body.h */
struct calls_loader;

/* An argument of a module call: `name = expr` in its block. */
struct module_arg {
  const char *name;
  const struct ast *expr;
  struct src_file *src;  /* the text expr is in: the call's file, or a
                            .tf.json string's template */
  struct src_file *file; /* the file of its definition (an override
                            file's, when one sets it) */
  struct span name_span; /* hcl's NameRange, in file */
  struct span span;      /* the expression in the call's file (its
                            range in diagnostics) */
};

/* A `module "NAME" { ... }` block. */
struct module_call {
  const char *name;
  struct src_file *src;
  struct span decl;              /* `module "NAME"` (hcl's DefRange) */
  struct span missing;           /* hcl's MissingItemRange of its body */
  const char *source;            /* NULL: not given, or not a literal string */
  size_t source_len;             /* its bytes: a NUL inside ends it early */
  const struct ast *source_expr; /* not a literal string: evaluated as
                                    Terraform's init walk does (tree_load.c) */
  struct span source_span;       /* its expression, in source_src */
  struct src_file *source_src;
  const char *version; /* NULL: not given */
  const struct ast *count, *for_each;
  struct src_file *count_src, *for_each_src; /* the texts they are in */
  const struct ast *enabled; /* OpenTofu's lifecycle { enabled }, or NULL */
  struct src_file *enabled_src;
  struct span enabled_name; /* its name, in the call's file */
  struct module_arg *args;  /* the other arguments, in source order */
  size_t nargs;
  bool json;
  const struct ast **depends_on;    /* its depends_on's static references */
  struct src_file **depends_on_src; /* the text each is in (a quoted one
                                       and .tf.json's: their string's) */
  size_t ndepends_on;
};

/* An `output "NAME" { ... }` block. */
/* A precondition block of an output (configs/checks.go CheckRule). */
struct out_rule {
  const struct ast *cond, *msg; /* NULL: missing (an error said so) */
  struct src_file *cond_src, *msg_src;
};

struct output_decl {
  const char *name;
  struct src_file *src;
  struct span decl;          /* `output "NAME"` */
  struct out_rule *preconds; /* its precondition blocks, in order */
  size_t npreconds;
  bool deprecated;           /* has a `deprecated` argument */
  struct span deprecated_at; /* that argument */
  const struct ast *expr;    /* its value (NULL: none, which is null) */
  struct src_file *expr_src; /* the file of the value (an override's) */
  bool sensitive, ephemeral;
  const tfr_type *type; /* its `type`, or NULL */
  const struct tfr_defaults *defaults;
};

/* A `data "TYPE" "NAME"` block: what its read at plan waits for
** (node_resource_abstract_instance.go:1944-1950): plan reads it when its
** configuration is known and its depends_on has no pending change, and
** defers the read to apply otherwise. */
struct data_decl {
  const char *name;         /* "TYPE.NAME" */
  struct src_file *src;     /* the file of its block */
  const struct ast **exprs; /* its arguments at any depth, count and
                               for_each (not lifecycle's, nor `provider`,
                               nor a dynamic block's content) */
  struct src_file **srcs;   /* the text each is in */
  size_t nexprs;
  const struct ast *depends_on; /* NULL: none (or in JSON) */
};

/* A loader of a module's calls and outputs (syntax trees built in
** trees) by the engine's rules; their errors go to diags, texts naming
** the engine's product. */
struct engine_rules;
struct calls_loader *calls_loader_new(tfr_arena *a, tfr_arena *trees,
                                      tfr_diags *diags,
                                      const struct engine_rules *engine);

/* A `module` block (or, json, the "module" property of a .tf.json file);
** override: of an override file, merged into the call it names as
** Terraform does (module_merge.go). */
void calls_module_block(struct calls_loader *l, struct src_file *src,
                        const struct body_item *it, bool json, bool override);

/* An `output` block, in either syntax; override: as for calls. */
void calls_output_block(struct calls_loader *l, struct src_file *src,
                        const struct body_item *it, bool json, bool override);

/* A `data` block, in either syntax (override files' are not read). */
void calls_data_block(struct calls_loader *l, struct src_file *src,
                      const struct body_item *it, bool json);

/* What the loader holds: a file read block by block that turns out to
** need the whole parse takes back what it added (calls_undo). */
struct calls_mark {
  size_t ncalls, noutputs, ndata, ndiags;
};
struct calls_mark calls_mark(const struct calls_loader *l);
void calls_undo(struct calls_loader *l, struct calls_mark m);

/* After the last file: the calls and outputs, each sorted by name. */
void calls_finish(struct calls_loader *l, struct module_call **calls,
                  size_t *ncalls, struct output_decl **outputs,
                  size_t *noutputs);

/* ... and the data blocks, sorted by name. */
void calls_finish_data(struct calls_loader *l, struct data_decl **data,
                       size_t *ndata);

#endif
