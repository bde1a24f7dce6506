/*
** Checked heap allocation (heap.h): every failure goes to tfr_oom().
*/
#include "base/heap.h"

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
