/*
** State shared by the HCL scanner (grammar/hcl.l) and the token filter
** (grammar/hcl.y): the template/brace nesting the scanner needs to know
** when a '}' ends an interpolation, the heredoc markers, the literal being
** assembled, and the filter's frames that decide which newlines matter.
*/
#ifndef TFR_HCL_LEX_H
#define TFR_HCL_LEX_H

#include <stdbool.h>
#include <stdint.h>

#include "syntax/parse.h"

/* A '{' opened in expression mode, or a template sequence. */
enum brace_kind { BR_BRACE, BR_INTERP_STR, BR_INTERP_HEREDOC, BR_INTERP_TPL };

struct heredoc {
  const char *marker;
  uint32_t len;
  uint32_t start; /* byte offset of "<<" */
};

/* Frames of the token filter: which bracket we are inside. */
enum frame_kind {
  FR_PAREN,   /* ( ... ): newlines ignored */
  FR_BRACKET, /* [ ... ] tuple: newlines ignored */
  FR_INDEX,   /* x[ ... ] index or [*]: newlines ignored */
  FR_BRACE,   /* { ... } object or block body: newlines matter */
  FR_FOR,     /* [for ...] or {for ...}: newlines ignored */
  FR_SEQ,     /* ${ ... } or %{ ... }: newlines ignored */
  FR_TEMPLATE /* "..." or heredoc */
};

struct frame {
  uint8_t kind;
  uint8_t ctl;    /* FR_SEQ: opened by %{ */
  uint8_t expr;   /* FR_BRACE: an object, not a block body */
  uint8_t kw;     /* FR_SEQ opened by %{: the directive keyword token */
  uint32_t start; /* byte offset of the opener */
  uint32_t name;  /* FR_PAREN of a call: where the function name starts */
};

struct lex_state {
  struct parse_ctx *ctx;
  uint32_t off; /* byte offset of the next unread byte */
  /* scanner */
  enum brace_kind *braces;
  uint32_t nbraces, capbraces;
  struct heredoc *heredocs;
  uint32_t nheredocs, capheredocs;
  char *lit;
  uint32_t litlen, litcap, litstart;
  bool litraw;         /* lit is byte-identical to the source span */
  bool after_dot;      /* last token was '.', so 1.2 is two indexes */
  uint32_t cmtstart;   /* where an open comment began */
  uint32_t comment_at; /* a line comment just read began at this - 1 */
  uint32_t strstart;   /* where the open quoted string began */
  /* filter */
  struct frame *frames;
  uint32_t nframes, capframes;
  int last;             /* last token handed to the parser */
  struct span prev_loc; /* and where it was */
  int before;           /* the token handed out before `last` */
  struct span before_loc;
  int prev_raw;   /* last raw token from the scanner */
  bool have_peek; /* one token of lookahead is queued */
  int peek_tok;
  struct lexeme peek_val;
  struct span peek_loc;
  bool lexerr;
  /* token-level problems (an invalid character, a newline in a quoted
  ** string...): HCL reports them all, from the whole file, before any
  ** syntax error (its checkInvalidTokens); see hcl_prescan */
  bool prescan;            /* this scan only reports them */
  bool told;               /* they were reported: the parser only reacts */
  bool bad_in_string;      /* the last one was inside a quoted string */
  int told_kind[8];        /* how many of each kind the prescan has met */
  bool started;            /* the start token (body or expression) was sent */
  bool tpl_end;            /* template mode: the end token was sent */
  bool label;              /* the open quoted string is a block label */
  struct span star;        /* the '*' of the latest .* splat, while it lasts */
  struct span star_before; /* star as it was before the last token */
  int frame_delta;         /* +1, -1 or 0: what `last` did to the frames */
  struct frame popped;     /* the frame `last` closed, when it did */
};

/* Token-level problems, by the kinds HCL's scanner gives them. */
enum tok_kind {
  TK_BITWISE = 1, /* & | ~ ^: the first 4 reported */
  TK_BACKTICK,    /* every other one reported, from the first */
  TK_APOSTROPHE,  /* likewise */
  TK_SEMICOLON,   /* the first reported */
  TK_INVALID,     /* every one */
  TK_QNEWLINE,    /* every one */
};

/* Start scanning a bare template (template mode, hcl.l). */
void hcl_lex_begin_template(void *scanner);

/* Undo flex's in-place NUL after the last token (hcl.l). */
void hcl_lex_restore(void *scanner);

#endif
