/*
** libtfresolve: the run arena.
**
** Everything one run allocates (AST, values, strings, diagnostics) lives in
** one arena and is released by one tfr_arena_free().  Allocation never
** returns NULL: running out of memory aborts in one place.
*/
#ifndef TFRESOLVE_ARENA_H
#define TFRESOLVE_ARENA_H

#include "tfresolve/export.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tfr_arena tfr_arena;

/** Create an empty arena.  Free it with tfr_arena_free(). */
TFR_API tfr_arena *tfr_arena_new(void);

/** Release the arena and everything allocated from it. NULL is a no-op. */
TFR_API void tfr_arena_free(tfr_arena *a);

/** Allocate @p n zeroed bytes, aligned for any type, owned by @p a. */
TFR_API void *tfr_arena_alloc(tfr_arena *a, size_t n);

/** Allocate @p n bytes that the caller will fill: not zeroed. */
TFR_API void *tfr_arena_alloc_raw(tfr_arena *a, size_t n);

/** Copy @p n bytes of @p s into the arena and NUL-terminate the copy. */
TFR_API char *tfr_arena_strndup(tfr_arena *a, const char *s, size_t n);

/** Copy the NUL-terminated @p s into the arena. */
TFR_API char *tfr_arena_strdup(tfr_arena *a, const char *s);

/** printf into a string owned by @p a. */
TFR_API char *tfr_arena_printf(tfr_arena *a, const char *fmt, ...)
    TFR_FORMAT_PRINTF(2, 3);

/** Call @p fn(@p ctx) when the arena is freed, before its memory goes
 *  (the latest registered first): for resources that are not memory. */
TFR_API void tfr_arena_on_free(tfr_arena *a, void (*fn)(void *ctx), void *ctx);
/** Bytes handed out so far (for benchmarks and tests). */
TFR_API size_t tfr_arena_used(const tfr_arena *a);

/* How many bytes the values of one run may take before the functions that
** can build huge values (setproduct, regexall), a template, a for
** expression's iterations or a fileset walk stop with "value too large"
** instead of running the machine out of memory.  0 (the default):
** half the physical memory, at most 16 GiB.  Set before any run starts. */
TFR_API void tfr_set_memory_budget(size_t bytes);

/**
 * The library's one out-of-memory path: when the system refuses memory
 * (a case the memory budget exists to avoid), @p handler is called, e.g.
 * to report and exit; if it returns, or none is set, the library prints
 * "tfresolve: out of memory" on stderr and aborts.  It cannot go on: the
 * arena that would hold the result is incomplete.  NULL restores the
 * default.  So that GMP's and MPFR's failures end here too, the first
 * tfr_arena_new() sets GMP's allocation functions
 * (mp_set_memory_functions) to the library's, malloc and free underneath.
 */
TFR_API void tfr_set_oom_handler(void (*handler)(void));

#ifdef __cplusplus
}
#endif
#endif
