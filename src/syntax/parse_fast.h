/*
** The fast path's scanner for the plain subset of HCL's native syntax,
** shared by parse_fast.c (which builds the AST) and fastval.c (which
** builds tfvars values straight from the text).
*/
#ifndef TFR_PARSE_FAST_H
#define TFR_PARSE_FAST_H

#include <stdbool.h>
#include <stdint.h>

#include "tfresolve/arena.h"

enum { FT_EOF, FT_NL, FT_IDENT, FT_NUM, FT_STR, FT_PUNCT, FT_BAD };

struct fast_tok {
  int kind;
  char ch; /* FT_PUNCT: the character; FT_STR: 1 if it needs decoding */
  uint32_t start, end;
};

struct fast_scan {
  const char *t;
  uint32_t len, pos;
};

/* Skip blanks and line comments, and newlines too unless nl. */
void fast_skip(struct fast_scan *s, bool nl);

/* The next token.  With nl, a run of newlines (and the blanks and
** comments between them) is one FT_NL, as the grammar's token filter
** makes it; without, newlines are skipped.  Anything the subset does not
** cover is FT_BAD: template sequences or a newline in a quoted string,
** "==", "=>", "::", a malformed number, a non-ASCII name... */
void fast_lex(struct fast_scan *s, bool nl, struct fast_tok *k);

/* The text of an FT_STR token (quotes stripped), decoded when k->ch says
** so into a NUL-terminated copy in the arena; *n gets its length. */
const char *fast_str_text(tfr_arena *a, const char *t, const struct fast_tok *k,
                          uint32_t *n);

#endif
