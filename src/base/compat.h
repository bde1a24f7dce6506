/*
** What tfresolve needs beyond C11 and POSIX.1-2008, in one place: compiler
** attributes (empty where the compiler has none) and a stdio stream that
** writes through a callback (compat.c: glibc's and musl's fopencookie, the
** BSDs' and macOS's funopen).
*/
#ifndef TFR_COMPAT_H
#define TFR_COMPAT_H

#include <stddef.h>
#include <stdio.h>

#if defined(__GNUC__) || defined(__clang__)
#define TFR_ALWAYS_INLINE __attribute__((always_inline))
#define TFR_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define TFR_TLS_INITIAL_EXEC __attribute__((tls_model("initial-exec")))
#else
#define TFR_ALWAYS_INLINE
#define TFR_PRINTF(fmt, args)
#define TFR_TLS_INITIAL_EXEC
#endif

/* A stream whose writes go to fn(ctx, buf, n), which returns how many
** bytes it took (fewer: an error); NULL when it cannot be made. */
FILE *compat_writer(size_t (*fn)(void *ctx, const char *buf, size_t n),
                    void *ctx);

#endif
