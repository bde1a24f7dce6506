/*
** TFR_API marks what libtfresolve exports: the library is built with
** hidden visibility, so these declarations are its whole interface.
** Define TFR_STATIC when linking the static library.
*/
#ifndef TFRESOLVE_EXPORT_H
#define TFRESOLVE_EXPORT_H

#if defined(__GNUC__) && !defined(TFR_STATIC)
#define TFR_API __attribute__((visibility("default")))
#else
#define TFR_API
#endif

#endif
