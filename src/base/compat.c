/*
** What compat.h declares, from what each system has: the stream of
** compat_writer through fopencookie where the C library has it (glibc,
** musl), funopen on the BSDs and macOS; anonymous mappings (MAP_ANONYMOUS,
** or the BSDs' MAP_ANON) and madvise; realpath; getrandom on Linux.  The
** only file that asks for more than POSIX.1-2008 (tests/portable.py).
*/
#if defined(__APPLE__) || defined(__FreeBSD__) || defined(__NetBSD__) ||       \
    defined(__OpenBSD__) || defined(__DragonFly__)
#define TFR_FUNOPEN 1
/* funopen, MAP_ANON, madvise and realpath: the BSDs show them when no
** standard is asked for, macOS with _DARWIN_C_SOURCE */
#undef _POSIX_C_SOURCE
#define _DARWIN_C_SOURCE
#else
#define _GNU_SOURCE /* fopencookie, MAP_ANONYMOUS, madvise, realpath */
#endif
#include "base/compat.h"
#include "base/heap.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/types.h>
#if defined(__linux__)
#include <sys/random.h>
#endif

struct writer {
  size_t (*fn)(void *ctx, const char *buf, size_t n);
  void *ctx;
};

static int writer_close(void *cookie) {
  free(cookie);
  return 0;
}

#ifdef TFR_FUNOPEN
static int writer_write(void *cookie, const char *buf, int n) {
  struct writer *w = cookie;
  size_t k = w->fn(w->ctx, buf, (size_t)n);
  return k < (size_t)n ? -1 : (int)k;
}
#else
static ssize_t writer_write(void *cookie, const char *buf, size_t n) {
  struct writer *w = cookie;
  size_t k = w->fn(w->ctx, buf, n);
  return k < n ? -1 : (ssize_t)k;
}
#endif

FILE *compat_writer(size_t (*fn)(void *ctx, const char *buf, size_t n),
                    void *ctx) {
  struct writer *w = heap_alloc(sizeof *w);
  *w = (struct writer){fn, ctx};
#ifdef TFR_FUNOPEN
  FILE *f = funopen(w, NULL, writer_write, NULL, writer_close);
#else
  cookie_io_functions_t io = {NULL, writer_write, NULL, writer_close};
  FILE *f = fopencookie(w, "w", io);
#endif
  if (!f)
    free(w);
  return f;
}

void *compat_map_anon(size_t n) {
#if defined(MAP_ANONYMOUS) || defined(MAP_ANON)
#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif
  void *p =
      mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
#else
  (void)n;
  return NULL;
#endif
}

#if COMPAT_HUGE_PAGES && !(defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE))
#error "COMPAT_HUGE_PAGES is 1 but this system has no MADV_HUGEPAGE"
#endif

void compat_advise(void *p, size_t n, enum compat_advice how) {
#if defined(MADV_SEQUENTIAL) || defined(MADV_DONTNEED) || defined(MADV_HUGEPAGE)
  int advice = -1;
  switch (how) {
  case COMPAT_SEQUENTIAL:
#ifdef MADV_SEQUENTIAL
    advice = MADV_SEQUENTIAL;
#endif
    break;
  case COMPAT_DONTNEED:
#ifdef MADV_DONTNEED
    advice = MADV_DONTNEED;
#endif
    break;
  case COMPAT_HUGEPAGE:
#ifdef MADV_HUGEPAGE
    advice = MADV_HUGEPAGE;
#endif
    break;
  }
  if (advice != -1)
    (void)madvise(p, n, advice); /* advice: fine if refused */
#else
  (void)p;
  (void)n;
  (void)how;
#endif
}

char *compat_realpath(const char *path, char *resolved) {
  return realpath(path, resolved);
}

ssize_t compat_random(void *p, size_t n) {
#if defined(__linux__)
  return getrandom(p, n, 0);
#else
  (void)p;
  (void)n;
  errno = ENOSYS;
  return -1;
#endif
}
