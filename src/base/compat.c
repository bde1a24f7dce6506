/*
** The stream of compat_writer: fopencookie where the C library has it
** (glibc, musl), funopen on the BSDs and macOS.
*/
#if defined(__APPLE__) || defined(__FreeBSD__) || defined(__NetBSD__) ||       \
    defined(__OpenBSD__) || defined(__DragonFly__)
#define TFR_FUNOPEN 1
#else
#define _GNU_SOURCE /* fopencookie: the only use of it */
#endif
#include "compat.h"

#include <stdlib.h>
#include <sys/types.h>

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
  struct writer *w = malloc(sizeof *w);
  if (!w)
    return NULL;
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
