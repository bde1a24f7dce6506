/*
** Iterations' scratch memory: what the iterations of a `for` expression
** (or a template's %{for}) allocate and do not keep is given back as they
** go, so that the expression's peak memory is its result plus a bounded
** scratch, not a few dozen bytes per iteration ever made.
**
** A batch of iterations runs from an arena mark.  When it has allocated
** enough (scratch_full), scratch_release copies what the iterations keep
** (the roots the caller names: their values, keys) out of the batch's
** memory, goes back to the mark, and copies them back in; anything that
** was there before the mark stays where it is, shared.  A batch that
** left something behind that must stay (a diagnostic, a scope's cached
** value: arena_keep) is not released: a new batch starts after it.
*/
#ifndef TFR_SCRATCH_H
#define TFR_SCRATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena_int.h"
#include "tfresolve/diag.h"
#include "tfresolve/value.h"

struct scratch_memo;

struct scratch {
  tfr_arena *a;              /* the evaluation's arena */
  tfr_diags *diags;          /* the evaluation's diagnostics */
  const tfr_type **objtypes; /* the evaluation's object types, or NULL */
  struct arena_mark mark;    /* where the batch began */
  size_t keeps;              /* arena_keeps(a) at the mark */
  const void *dv;            /* the diagnostics' array and count at the mark */
  size_t dn, dsrc, dblk;
  /* while releasing: */
  tfr_arena *tmp;          /* the kept values between the copies */
  struct arena_span *span; /* the memory copied from */
  size_t nspan, capspan;
  tfr_arena *to;              /* the arena copied to */
  struct scratch_memo *memo;  /* what was copied: shared stays shared */
  unsigned releases, refused; /* counts, for tests and benchmarks */
};

/* Start the first batch at what a holds now.  objtypes: NULL, or the
** evaluation's cache of object types (eval_ctx), emptied at each release
** (the types it holds may have gone with the batch). */
void scratch_begin(struct scratch *s, tfr_arena *a, tfr_diags *diags,
                   const tfr_type **objtypes);

/* Whether the batch holds enough to be worth releasing. */
bool scratch_full(const struct scratch *s);

/*
** Release the batch: keep(ud, s) is called twice and passes every root
** the iterations keep through scratch_value / scratch_bytes, storing
** what they return in place of the root.  False (keep not called) when
** the batch cannot be released; either way a new batch starts.
*/
bool scratch_release(struct scratch *s,
                     void (*keep)(void *ud, struct scratch *s), void *ud);
const tfr_value *scratch_value(struct scratch *s, const tfr_value *v);
const char *scratch_bytes(struct scratch *s, const char *p, size_t n);

/* Free what the scratch used (the arena keeps the last batch). */
void scratch_end(struct scratch *s);

#endif
