/*
** TFR_API marks what libtfresolve exports: the library is built with
** hidden visibility, so these declarations are its whole interface.
** Define TFR_STATIC when linking the static library.  The only place the
** public headers use a compiler's extensions, each behind its guard.
*/
#ifndef TFRESOLVE_EXPORT_H
#define TFRESOLVE_EXPORT_H

#if defined(__GNUC__) && !defined(TFR_STATIC)
#define TFR_API __attribute__((visibility("default")))
#else
#define TFR_API
#endif

/* TFR_FORMAT_PRINTF(f, a): parameter f is a printf format whose arguments
** start at parameter a (checked where the compiler can). */
#if defined(__GNUC__) || defined(__clang__)
#define TFR_FORMAT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TFR_FORMAT_PRINTF(f, a)
#endif

#endif
