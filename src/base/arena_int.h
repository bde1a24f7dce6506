/*
** The arena's internals for the library: memory passed on between arenas.
*/
#ifndef TFR_ARENA_INT_H
#define TFR_ARENA_INT_H

#include "tfresolve/arena.h"

#include <stdint.h>

/*
** Free from (running its cleanups) and give its blocks to into, which
** allocates from them before asking for more memory: a scratch arena's
** pages, already touched, serve the next stage instead of fresh ones.
** (Under AddressSanitizer the blocks are freed instead, so that a late
** use of the scratch arena is caught.)
*/
void arena_recycle(tfr_arena *from, tfr_arena *into);

/* A point in an arena's life, to go back to: arena_reset releases what
** was allocated since arena_mark (running the cleanups registered since),
** keeping its blocks for what comes next. */
struct arena_mark {
  struct block *head, *next;
  size_t used, total;
  struct cleanup *cleanups;
};
struct arena_mark arena_mark(tfr_arena *a);
void arena_reset(tfr_arena *a, struct arena_mark m);

/*
** Say that what was allocated from a so far must stay, whatever marks
** were taken before: code that keeps a pointer into the arena beyond
** the evaluation that made it (a scope caching a value it computed on
** demand) calls it, and a caller that would go back to a mark
** (arena_reset) asks arena_keeps whether the count moved since then.
*/
void arena_keep(tfr_arena *a);
size_t arena_keeps(const tfr_arena *a);

/* The address ranges [lo, hi) of what a handed out since m, sorted by
** lo, into *v (malloc'd, grown as needed, *cap its capacity; the
** caller frees it): their count.  With m of an empty arena (all zero):
** everything a holds. */
struct arena_span {
  uintptr_t lo, hi;
};
size_t arena_spans_since(const tfr_arena *a, struct arena_mark m,
                         struct arena_span **v, size_t *cap);

/*
** Per-arena state of one concern (a cache), kept outside the arena's
** blocks so that arena_reset does not take it: the slot (initially NULL)
** belongs to the arena, which calls destroy on a non-NULL slot when it is
** freed.  An arena is used by one thread at a time, so is its state.
*/
enum arena_slot { ARENA_SLOT_REGEX, ARENA_NSLOTS };
void **arena_slot(tfr_arena *a, enum arena_slot which, void (*destroy)(void *));

/* Room for one more element in v, an array of n elements of size bytes
** from a with capacity *cap: v itself while n < *cap, else a copy with
** twice the capacity (first: the first one).  ARENA_GROW(a, v, n, cap,
** first) assigns the result to v. */
void *arena_grow(tfr_arena *a, void *v, size_t n, size_t *cap, size_t size,
                 size_t first);
#define ARENA_GROW(a, v, n, cap, first)                                        \
  ((v) = arena_grow((a), (v), (n), &(cap), sizeof *(v), (first)))

/* Bytes a holds outside its blocks, which tfr_arena_used does not count:
** files mapped for it (src/syntax/source.c adds them; not taken back by
** arena_reset).  The module tree charges a child module's to the memory
** budget (src/module/modcache.c). */
void arena_add_mapped(tfr_arena *a, size_t n);
size_t arena_mapped(const tfr_arena *a);

/* How many bytes one run's values may take before a function that would
** build more (setproduct of large sets), or a for expression's next
** iteration (the arena's size is checked), reports "value too large" instead
** of running the machine out of memory: tfr_set_memory_budget's, or half
** the physical memory, at most 16 GiB. */
size_t arena_value_budget(void);

#endif
