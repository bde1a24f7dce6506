/*
** What tfresolve needs beyond C11 and POSIX.1-2008, in one place: compiler
** attributes and built-ins (empty or plain C where the compiler has none),
** a stdio stream that writes through a callback (compat.c: glibc's and
** musl's fopencookie, the BSDs' and macOS's funopen), anonymous memory
** mappings and advice on them (MAP_ANONYMOUS, madvise), realpath (XSI),
** and the kernel's random bytes (getrandom).  compat.c is the one file that
*asks the C
** library for more than POSIX.1-2008 (_GNU_SOURCE and the like).
*/
#ifndef TFR_COMPAT_H
#define TFR_COMPAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#if defined(__GNUC__) || defined(__clang__)
#define TFR_ALWAYS_INLINE __attribute__((always_inline))
#define TFR_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define TFR_TLS_INITIAL_EXEC __attribute__((tls_model("initial-exec")))
#else
#define TFR_ALWAYS_INLINE
#define TFR_PRINTF(fmt, args)
#define TFR_TLS_INITIAL_EXEC
#endif

/* The number of leading zero bits of x, which is not 0. */
static inline int compat_clz32(uint32_t x) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_clz(x);
#else
  int n = 0;
  for (uint32_t bit = UINT32_C(1) << 31; !(x & bit); bit >>= 1)
    n++;
  return n;
#endif
}

/* A stream whose writes go to fn(ctx, buf, n), which returns how many
** bytes it took (fewer: an error); NULL when it cannot be made. */
FILE *compat_writer(size_t (*fn)(void *ctx, const char *buf, size_t n),
                    void *ctx);

/* n bytes of fresh zeroed memory mapped privately, readable and writable,
** backed by no file (mmap's MAP_ANONYMOUS, or MAP_ANON); NULL where the
** system has no such mapping or it fails.  munmap gives it back. */
void *compat_map_anon(size_t n);

/* What compat_advise tells the kernel about mapped pages. */
enum compat_advice {
  COMPAT_SEQUENTIAL, /* they will be read in order (MADV_SEQUENTIAL) */
  COMPAT_DONTNEED,   /* drop them now: a private mapping reads them again
                        from its file, or as zeros (MADV_DONTNEED) */
  COMPAT_HUGEPAGE    /* back them with transparent huge pages */
};

/* Advice on the n bytes mapped at p (page-aligned): nothing where the
** system does not take it, and a refusal is ignored. */
void compat_advise(void *p, size_t n, enum compat_advice how);

/* 1 where compat_map_anon and COMPAT_HUGEPAGE both work (Linux; compat.c
** checks it): a constant, so that arena.c's choice of block sizes costs
** nothing. */
#if defined(__linux__)
#define COMPAT_HUGE_PAGES 1
#else
#define COMPAT_HUGE_PAGES 0
#endif

/* realpath(path, resolved), resolved holding PATH_MAX bytes: POSIX.1-2008
** has it only for XSI systems, and glibc declares it only when asked for
** X/Open's or its own extensions. */
char *compat_realpath(const char *path, char *resolved);

/* Up to n random bytes from the kernel (getrandom); how many, or -1 with
** errno set (ENOSYS where the system has no such call: read /dev/urandom
** instead). */
ssize_t compat_random(void *p, size_t n);

#endif
