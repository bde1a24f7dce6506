/*
** The library's one way to the C heap: malloc, calloc, realloc, strdup
** and strndup that never return NULL.  A failure ends in tfr_oom(), the
** one out-of-memory path: the embedder's handler (the CLI prints
** "tfresolve: out of memory" and exits), else that message and abort().
** What they return is the caller's to free().  A size of 0 asks for 1
** byte, so that NULL always means failure (realloc(p, 0) may free p and
** return NULL).  tests/alloc_lint.py fails on a call of the raw functions
** anywhere in src/ but in src/base/heap.c and the CLI's twins
** (src/cli/cli.c).
*/
#ifndef TFR_HEAP_H
#define TFR_HEAP_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus /* src/eval/re2_shim.cc */
extern "C" {
#define TFR_NORETURN [[noreturn]]
#else
#define TFR_NORETURN _Noreturn
#endif

/* Memory ran out (an allocation failed): the handler (tfr_set_oom_handler,
** src/base/arena.c, sets it), then "tfresolve: out of memory" on stderr
** and abort().  Every allocation failure in the library ends here: the
** wrappers below, the arena, and a third-party library's failure that can
** only be memory (OpenSSL, libyaml, GMP through MPFR). */
TFR_NORETURN void tfr_oom(void);
void heap_set_oom_handler(void (*handler)(void));

/* Once per process (tfr_arena_new calls it: every use of the library
** starts with an arena): GMP and MPFR allocate through the wrappers below,
** so that their failure is tfr_oom's too. */
void heap_init(void);

void *heap_alloc(size_t n);
/* n elements of size bytes, zeroed; n * size overflowing is a failure. */
void *heap_calloc(size_t n, size_t size);
void *heap_realloc(void *p, size_t n);
char *heap_strdup(const char *s);
char *heap_strndup(const char *s, size_t n);
/* open_memstream, and its fclose, whose failure (a write that found no
** memory) is tfr_oom() too: the text is whole or the run ends. */
FILE *heap_memstream(char **buf, size_t *len);
void heap_memstream_close(FILE *f);

#ifdef __cplusplus
}
#endif

#endif
