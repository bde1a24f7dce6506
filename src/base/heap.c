/*
** Checked heap allocation (heap.h): every failure goes to tfr_oom().
*/
#include "base/heap.h"

#include <gmp.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void (*oom_handler)(void);

void heap_set_oom_handler(void (*handler)(void)) { oom_handler = handler; }

_Noreturn void tfr_oom(void) {
  if (oom_handler)
    oom_handler();
  fputs("tfresolve: out of memory\n", stderr);
  abort();
}

/* p, or the out-of-memory path when it is NULL. */
static void *checked(void *p) {
  if (!p)
    tfr_oom();
  return p;
}

void *heap_alloc(size_t n) { return checked(malloc(n ? n : 1)); }

void *heap_calloc(size_t n, size_t size) {
  return checked(calloc(n ? n : 1, size ? size : 1));
}

void *heap_realloc(void *p, size_t n) { return checked(realloc(p, n ? n : 1)); }

char *heap_strndup(const char *s, size_t n) {
  size_t len = strnlen(s, n);
  char *p = heap_alloc(len + 1);
  memcpy(p, s, len);
  p[len] = '\0';
  return p;
}

char *heap_strdup(const char *s) { return heap_strndup(s, strlen(s)); }

FILE *heap_memstream(char **buf, size_t *len) {
  return checked(open_memstream(buf, len));
}

void heap_memstream_close(FILE *f) {
  bool failed = ferror(f); /* a write's realloc: all it can fail on */
  if (fclose(f) != 0 || failed)
    tfr_oom();
}

/* GMP's allocation functions (MPFR's too: it allocates through GMP's),
** whose default on failure prints "GNU MP: Cannot allocate memory" and
** aborts: ours, so that the failure is tfr_oom's. */
static void *gmp_alloc(size_t n) { return heap_alloc(n); }

static void *gmp_realloc(void *p, size_t old, size_t n) {
  (void)old;
  return heap_realloc(p, n);
}

static void gmp_free(void *p, size_t n) {
  (void)n;
  free(p);
}

static void use_heap_in_gmp(void) {
  mp_set_memory_functions(gmp_alloc, gmp_realloc, gmp_free);
}

void heap_init(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, use_heap_in_gmp);
}
