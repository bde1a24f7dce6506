/*
** Internal operations on diagnostics lists that the public API does not
** offer.
*/
#ifndef TFR_DIAG_INT_H
#define TFR_DIAG_INT_H

#include <stdint.h>

#include "tfresolve/diag.h"

/* The list itself, for its renderers (render/render_diag.c). */
/* A file's text, for the excerpts of framed diagnostics. */
struct source_text {
  const char *name;
  const char *text;
  size_t len;
};

/* A top-level block of a configuration file: what "in ..." names. */
struct block_ctx {
  const char *file;
  uint32_t start, end;
};

struct tfr_diags {
  tfr_arena *a;
  struct tfr_diag *v;
  size_t n, cap;
  struct source_text *src;
  size_t nsrc, capsrc;
  struct block_ctx *blk;
  size_t nblk, capblk;
};

/* The text of the file named name that d knows (the last one added), or
** NULL. */
const struct source_text *diags_find_source(const tfr_diags *d,
                                            const char *name);

/* Mark the last diagnostic added as -strict's own (tfr_diag.strict). */
void diags_set_strict(tfr_diags *d);

/* Keep the diagnostics i with keep[i] (one per diagnostic), in order. */
void diags_keep(tfr_diags *d, const bool *keep);

/* Drop diagnostics [from, to): for evaluations whose errors turn out not
** to matter (the other operand of a short-circuit && or ||). */
void diags_remove(tfr_diags *d, size_t from, size_t to);

/* Move diagnostics [from, to) to the end, in their order: HCL reports an
** operator's conversion errors before the errors of its operands. */
void diags_move_to_end(tfr_diags *d, size_t from, size_t to);

/* A top-level block of a configuration file, [start, end) in its bytes:
** framed diagnostics inside it say "in" it (its header, read from the
** file's text), as HCL's ContextString does. */
void diags_add_block(tfr_diags *d, const char *file, uint32_t start,
                     uint32_t end);

/* The blocks of from, for d's framed diagnostics too. */
void diags_share_blocks(tfr_diags *d, const tfr_diags *from);

/* hcl's Diagnostics.Error() for d's diagnostics from index at on: the
** first as "RANGE: summary; detail", then ", and N other diagnostic(s)"
** when there are more ("" when there are none). */
const char *diags_error_text(tfr_arena *a, const tfr_diags *d, size_t at);

/* Give the last diagnostic the values of its expression's references
** (copied into the list's arena). */
void diags_set_values(tfr_diags *d, const struct tfr_diag_value *v, size_t n);

/* The i-th diagnostic (i < count), to change in place. */
struct tfr_diag *diags_at(tfr_diags *d, size_t i);

/* Name the variable of the i-th diagnostic. */
void tfr_diags_set_variable_at(tfr_diags *d, size_t i, const char *name);

/* Give the diagnostics [from, count) without a module the module
** instance addr ("" for the root). */
void diags_set_module_since(tfr_diags *d, size_t from, const char *addr);

/* The diagnostics from d[from] on that name the root module ("") name
** none: a module tree of one module is no tree to its reader. */
void diags_unset_root_module(tfr_diags *d, size_t from);

/* Every diagnostic of from added to d (what they point to stays from's:
** from must live as long as d), with its sources and blocks. */
void diags_append(tfr_diags *d, const tfr_diags *from);

/* Whether an error is among d's diagnostics from index before on (one
** of -strict's alone does not count: the run goes on past it). */
bool diags_errors_since(const tfr_diags *d, size_t before);

#endif
