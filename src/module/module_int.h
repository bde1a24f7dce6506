/*
** What the pieces of the module loader share (module.c reads the files
** and their top level; module_vars.c, module_rules.c, module_blocks.c
** decode blocks; module_index.c indexes the result): the loader's state,
** a variable block as written, and the functions one piece calls in
** another.  Internal to src/module/.
*/
#ifndef TFR_MODULE_INT_H
#define TFR_MODULE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "module/module.h"
#include "base/strutil.h"
#include "syntax/body.h"
#include "syntax/parse.h"

/* A type constraint already decoded (loader.types, by the text of its
** expression: a type expression is a pure function of its text, no
** references, no function calls; a module repeats a few types often). */
struct decoded_type {
  const tfr_type *type;
  const struct tfr_defaults *defaults;
};

struct loader {
  tfr_arena *a;
  tfr_diags *diags;
  struct module *m;
  size_t cap;
  struct strmap names; /* declared name -> index in m->vars */
  size_t lcap;
  struct strmap lnames;     /* local name -> index in m->locals */
  size_t ocap;              /* m->objects, while loading */
  size_t pcap;              /* m->providers.names, while loading */
  struct bytemap types;     /* text -> struct decoded_type (in the arena) */
  struct bytemap rule_keys; /* refs_rule_key -> text_key */
  uint32_t nrule_keys;
  struct sbuf keybuf;
  struct bytemap templates; /* lexical_key -> struct rule_template */
  /* the file being read block by block: the parser's numbers of a rule's
  ** condition and message text (parse_cut_name cut) -> its template, or
  ** no_template when such rules cannot share */
  struct bytemap file_templates;
  struct src_file *seq_src; /* positions of declarations, in file order */
  struct src_cursor seq;
  struct src_file *streaming; /* the file parse_config_stream reads */
  tfr_arena *trees;           /* where syntax trees go */
  struct calls_loader *calls; /* module and output blocks */
};

/* The arguments of one `variable` block as written, before decoding:
** override files merge at this level. */
struct partial {
  const char *name;
  struct tfr_range decl;
  struct span decl_span, label_span;
  struct src_file *src;
  bool json, override;
  const struct ast *type, *dflt, *description, *sensitive, *nullable;
  const struct ast *ephemeral, *deprecated, *is_const;
  struct span deprecated_attr;
  struct validation *validations;
  size_t nvalidations;
};

/* ---- module.c ---------------------------------------------------------- */

/* An error at s of src, for the variable var (NULL: none). */
void loader_error_at(struct loader *l, struct src_file *src, struct span s,
                     const char *summary, const char *detail, const char *var);

/* ---- module_vars.c ----------------------------------------------------- */

/* A native `variable "name" { ... }` block, read into p. */
bool loader_native_variable(struct loader *l, struct src_file *src,
                            const struct ast *b, struct partial *p);
/* "variable": {"NAME": {...}, ...} in JSON: each variable added; true when
** one has validation rules. */
bool loader_json_variables(struct loader *l, struct src_file *src,
                           const struct ast *v, bool ovr);
/* Declare (or, in an override file, override) p. */
void loader_add_variable(struct loader *l, struct partial *p);
/* Room for n declarations in all. */
void loader_reserve_vars(struct loader *l, size_t n);

/* ---- module_rules.c ---------------------------------------------------- */

/* The tree of a lazy argument, built in the loader's tree arena. */
const struct ast *loader_built(struct loader *l, struct src_file *src,
                               const struct ast *x);
/* A native validation block of p (block: its name's span). */
void loader_validation_block(struct loader *l, struct partial *p,
                             const struct ast *body, struct span block);
/* In JSON, a validation block is an object, or an array of objects. */
void loader_json_validations(struct loader *l, struct partial *p,
                             const struct ast *x);

/* ---- module_blocks.c --------------------------------------------------- */

/* The local values a locals body defines, in either syntax. */
void loader_locals_items(struct loader *l, struct src_file *src,
                         const struct ast *body, bool json, bool ovr);
/* In JSON, "locals" is an object (or an array of objects). */
void loader_json_locals(struct loader *l, struct src_file *src,
                        const struct ast *x, bool ovr);
/* The objects a block declares, for references to them. */
void loader_block_objects(struct loader *l, const struct body_item *it,
                          bool json);
/* A terraform block: its required_providers. */
void loader_terraform_block(struct loader *l, const struct body_item *it,
                            bool json);
/* A native moved or removed block of a primary file. */
void loader_refactor_block(struct loader *l, struct src_file *src,
                           const struct body_item *it);

/* ---- module_index.c ---------------------------------------------------- */

/* The declarations in name order. */
void loader_sort_vars(struct module *m);
/* The hash of the variable names, for module_var. */
void loader_index_vars(tfr_arena *a, struct module *m);
/* The local values' names hashed, for module_local_index. */
void loader_index_locals(tfr_arena *a, struct module *m);
/* Number the distinct (type, defaults) pairs of the variables. */
void loader_type_ids(tfr_arena *a, struct module *m);

#endif
