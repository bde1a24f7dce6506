/*
** Go's regexp/syntax (Go 1.19) as Terraform's regex functions run it:
** the same patterns rejected with the same Error{Code, Expr}, the same
** limits, and the tree written in RE2's syntax for RE2 (re2_shim.h) to
** match, the engine Go's regexp is a port of.
*/
#ifndef TFR_GOREGEXP_H
#define TFR_GOREGEXP_H

#include <stdbool.h>
#include <stddef.h>

#include "tfresolve/arena.h"

/* Go's error codes (syntax.ErrorCode). */
#define RE_ERR_RANGE "invalid character class range"
#define RE_ERR_ESCAPE "invalid escape sequence"
#define RE_ERR_NAMED "invalid named capture"
#define RE_ERR_PERL "invalid or unsupported Perl syntax"
#define RE_ERR_REPEAT_OP "invalid nested repetition operator"
#define RE_ERR_REPEAT_SIZE "invalid repeat count"
#define RE_ERR_UTF8 "invalid UTF-8"
#define RE_ERR_BRACKET "missing closing ]"
#define RE_ERR_PAREN "missing closing )"
#define RE_ERR_REPEAT_ARG "missing argument to repetition operator"
#define RE_ERR_BACKSLASH "trailing backslash at end of expression"
#define RE_ERR_UNEXPECTED "unexpected )"
#define RE_ERR_NESTING "expression nests too deeply"
#define RE_ERR_INTERNAL "regexp/syntax: internal error"

/* A node of Go's syntax.Regexp tree (goregexp.c's). */
struct rx;

/* The parser's state; after a failed parse code and expr say why. */
struct rxp {
  tfr_arena *a;
  unsigned flags;
  struct rx **stack;
  size_t n, cap;
  int ncap;
  const char **names; /* names[1..ncap]; NULL when unnamed */
  size_t names_cap;
  const char *whole, *wend;
  const char *code; /* the error: Go's Error.Code ... */
  const char *expr; /* ... and Error.Expr */
  size_t exprlen;
};

/* syntax.Parse(s, syntax.Perl): the tree, or NULL with p->code, p->expr
** set; p->ncap and p->names give the capture groups. */
struct rx *go_rx_parse(struct rxp *p, tfr_arena *a, const char *s, size_t n);

/* The tree in RE2's syntax (n bytes, NUL-terminated, in a); NULL when it
** would pass the memory budget. */
const char *go_rx_re2(tfr_arena *a, const struct rx *re, size_t *n);

#endif
