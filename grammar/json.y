/*
** HCL JSON syntax: one JSON value per file, read the way hashicorp/hcl's
** json package reads it (json/parser.go), but as an LALR grammar.
**
** The scanner (json.l) only cuts the text into tokens, as hcl's scanner
** does.  Strings, numbers and keywords (one SCALAR token) are checked
** here, in the action that takes them as a value, which is also where hcl
** checks them.  The grammar is the fast path for valid files: at the
** first error it stops, and json_replay(), a port of hcl's
** recursive-descent parser that only reports, reads the text again and
** gives hcl's diagnostics in hcl's order, including those hcl adds after
** recovering ("Mismatched braces", "Root value must be object", ...).
** Objects keep every property, duplicates included, in source order; the
** loader reports duplicates as Terraform does.
**
** Speed: the items of the lists being read are gathered on one scratch
** stack (json_push()) and copied into the arena once, at the closing
** bracket, at their exact size: no vector doubling.  Scalars are spelt
** out in the list rules to save a reduction per item, and the scanner is
** called directly, with no wrapper.
**
** Nesting is bounded: a value more than AST_MAX_DEPTH levels deep is
** rejected (see json_level()), so the tree, bison's stack (at most five
** entries per level) and every later walk stay bounded.
*/
%code requires {
#include <stdbool.h>
#include <stdint.h>

#include "syntax/parse.h"

typedef void *yyscan_t;

/* What the scanner says about a SCALAR token, in its flags (these are not
** AST flags): which kind of scalar, and for a string whether it is
** closed and has no backslash, so that it needs no decoding. */
enum {
  JSON_F_STRING = 1,
  JSON_F_NUMBER = 2,
  JSON_F_KEYWORD = 4,
  JSON_F_PLAIN = 8
};

/*
** State shared by the scanner and the parser of one parse_json() call.
** The bracket stack says what encloses the current token, for the error
** messages that depend on it ("Trailing comma in object", "Unclosed
** object" at the opening brace).
*/
struct json_lex {
  struct parse_ctx *ctx;
  yyscan_t scanner;
  uint32_t off;            /* byte offset of the next unread byte */
  uint32_t depth;          /* brackets open around the next value */
  uint8_t kind[AST_MAX_DEPTH];  /* AST_OBJECT or AST_TUPLE, per level */
  uint32_t open[AST_MAX_DEPTH]; /* byte offset of its '{' or '[' */
  uint32_t mark[AST_MAX_DEPTH]; /* where its items start in items[] */
  struct ast **items;      /* items of every open list, innermost last */
  uint32_t nitems, capitems;
  char *text;              /* flex's copy of the text (json.l) */
};
}

%code provides {
int json_yylex(JSON_YYSTYPE *lval, JSON_YYLTYPE *lloc, yyscan_t scanner);
bool json_scan_begin(struct json_lex *lx);
void json_scan_end(struct json_lex *lx);
}

%code {
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag_int.h"

/* The parser's stack is malloc'ed, never alloca'ed; with the depth bound
** it never holds more than about 5 * AST_MAX_DEPTH entries. */
#define YYSTACK_USE_ALLOCA 0
#define YYMAXDEPTH (8 * AST_MAX_DEPTH + 64)

#define YYLLOC_DEFAULT(Cur, Rhs, N)                                        \
  do {                                                                     \
    if (N) {                                                               \
      (Cur).start = YYRHSLOC(Rhs, 1).start;                                \
      (Cur).end = YYRHSLOC(Rhs, N).end;                                    \
    } else {                                                               \
      (Cur).start = (Cur).end = YYRHSLOC(Rhs, 0).end;                      \
    }                                                                      \
  } while (0)

/* Leave the parser (return 1) when a helper has reported an error. */
#define CHECK(x)                                                           \
  do {                                                                     \
    if (!(x))                                                              \
      YYABORT;                                                             \
  } while (0)

#undef yylex
#define yylex(lval, lloc, lx) json_yylex(lval, lloc, (lx)->scanner)
static void yyerror(const YYLTYPE *loc, struct json_lex *lx,
                    const char *msg);
static bool json_open(struct json_lex *lx, enum ast_kind k, struct span at);
static bool json_push(struct json_lex *lx, struct ast *x);
static bool json_push_pair(struct json_lex *lx, struct ast *k,
                           struct ast *v);
static struct ast *json_close(struct json_lex *lx, enum ast_kind k,
                              struct span s);
static struct ast *json_key(struct json_lex *lx, struct ast *x);
static struct ast *json_scalar(struct json_lex *lx, struct lexeme t,
                               struct span s);
}

%define api.pure full
%define api.prefix {json_yy}
%define api.location.type {struct span}
%define api.token.prefix {TOK_}
%locations
%define parse.error custom
%param {struct json_lex *lx}
%expect 0

%union {
  struct ast *node;
  struct lexeme tok;
}

%token <tok> SCALAR "string, number or keyword"
%token LBRACE "{" RBRACE "}" LBRACK "[" RBRACK "]" COMMA "," COLON ":"
%token EQUALS "="
%token <tok> LEXERR "invalid character"

%type <node> value nested key object array

%start file

%%

file
  : value                { lx->ctx->root = $1; }
  ;

value
  : SCALAR               { $$ = json_scalar(lx, $1, @1); CHECK($$); }
  | nested
  ;

nested
  : object
  | array
  ;

object
  : lbrace RBRACE        { $$ = json_close(lx, AST_OBJECT, @$); }
  | lbrace members RBRACE { $$ = json_close(lx, AST_OBJECT, @$); }
  ;

lbrace
  : LBRACE               { CHECK(json_open(lx, AST_OBJECT, @1)); }
  ;

/* Scalar values are spelt out so that a property costs two reductions
** (key, members), not three. */
members
  : key COLON SCALAR
      { CHECK(json_push_pair(lx, $1, json_scalar(lx, $3, @3))); }
  | key COLON nested     { CHECK(json_push_pair(lx, $1, $3)); }
  | members COMMA key COLON SCALAR
      { CHECK(json_push_pair(lx, $3, json_scalar(lx, $5, @5))); }
  | members COMMA key COLON nested { CHECK(json_push_pair(lx, $3, $5)); }
  ;

/* Any value, as in hcl, so that "{1: 2}" says the name must be a string
** (after any error inside that value). */
key
  : SCALAR       { $$ = json_key(lx, json_scalar(lx, $1, @1)); CHECK($$); }
  | nested               { $$ = json_key(lx, $1); CHECK($$); }
  ;

array
  : lbrack RBRACK        { $$ = json_close(lx, AST_TUPLE, @$); }
  | lbrack elements RBRACK { $$ = json_close(lx, AST_TUPLE, @$); }
  ;

lbrack
  : LBRACK               { CHECK(json_open(lx, AST_TUPLE, @1)); }
  ;

/* Again one reduction per scalar element. */
elements
  : SCALAR               { CHECK(json_push(lx, json_scalar(lx, $1, @1))); }
  | nested               { CHECK(json_push(lx, $1)); }
  | elements COMMA SCALAR { CHECK(json_push(lx, json_scalar(lx, $3, @3))); }
  | elements COMMA nested { CHECK(json_push(lx, $3)); }
  ;

%%

#define VALUE_DETAIL                                                       \
  "A JSON value must start with a brace, a bracket, a number, a string, "  \
  "or a keyword."

static struct span span_at(uint32_t start, uint32_t end) {
  struct span s = {start, end};
  return s;
}

/* Only reached if bison's stack overflows, which the depth bound rules
** out; kept so that the parser can never fail silently. */
static void yyerror(const YYLTYPE *loc, struct json_lex *lx,
                    const char *msg) {
  if (!lx->ctx->failed)
    parse_error(lx->ctx, *loc, "Invalid JSON", msg);
}

/*
** A syntax error: the parse stops here and json_replay() reads the text
** again as hcl does, with hcl's diagnostics in place of this one.
*/
static int yyreport_syntax_error(const yypcontext_t *yyctx,
                                 struct json_lex *lx) {
  if (!lx->ctx->failed)
    parse_error(lx->ctx, *yypcontext_location(yyctx), "Invalid JSON",
                "Syntax error.");
  return 0;
}

/*
** A value at nesting level depth + 1 (the root is level 1).  Each level
** is one level of the tree too, so a value accepted here keeps the tree
** within AST_MAX_DEPTH and ast_check_depth() has nothing to add.
*/
static bool json_level(struct json_lex *lx, struct span at) {
  char detail[80];
  if (lx->depth < AST_MAX_DEPTH)
    return true;
  snprintf(detail, sizeof detail,
           "JSON values may be nested at most %d levels deep.",
           AST_MAX_DEPTH);
  parse_error(lx->ctx, at, "Nesting too deep", detail);
  return false;
}

/* An opening brace or bracket: one more level, or too deep. */
static bool json_open(struct json_lex *lx, enum ast_kind k, struct span at) {
  if (!json_level(lx, at))
    return false;
  lx->kind[lx->depth] = (uint8_t)k;
  lx->open[lx->depth] = at.start;
  lx->mark[lx->depth] = lx->nitems;
  lx->depth++;
  return true;
}

/* One more item (element, or property name or value) of the innermost
** open list; false when x is NULL (an error was reported).  The scratch
** stack is malloc'ed and freed by parse_json(). */
static bool json_push(struct json_lex *lx, struct ast *x) {
  if (!x)
    return false;
  if (lx->nitems == lx->capitems) {
    uint32_t cap = lx->capitems ? lx->capitems * 2 : 1024;
    struct ast **v = realloc(lx->items, cap * sizeof *v);
    if (!v)
      abort();
    lx->items = v;
    lx->capitems = cap;
  }
  lx->items[lx->nitems++] = x;
  return true;
}

/* A property: its name, then its value (NULL after an error). */
static bool json_push_pair(struct json_lex *lx, struct ast *k,
                           struct ast *v) {
  return v && json_push(lx, k) && json_push(lx, v);
}

/* A closed object (name/value pairs) or tuple: its items move from the
** scratch stack into the arena. */
static struct ast *json_close(struct json_lex *lx, enum ast_kind k,
                              struct span s) {
  struct parse_ctx *c = lx->ctx;
  uint32_t m = lx->mark[--lx->depth];
  struct vec *v = vec_new(c);
  v->n = v->cap = lx->nitems - m;
  if (v->n) {
    v->v = tfr_arena_alloc(c->a, v->n * sizeof *v->v);
    memcpy(v->v, lx->items + m, v->n * sizeof *v->v);
  }
  lx->nitems = m;
  struct ast *x = ast_list(c, k, v, s);
  if (x && k == AST_OBJECT)
    x->flags |= AST_F_JSON;
  return x;
}

/* hcl parses a property name as any value, then insists on a string;
** its diagnostic points at the first token of the name.  x is NULL when
** the value was bad (and reported) already. */
static struct ast *json_key(struct json_lex *lx, struct ast *x) {
  if (!x || x->kind == AST_STRING)
    return x;
  struct span at = x->span;
  if (x->kind == AST_OBJECT || x->kind == AST_TUPLE)
    at.end = at.start + 1;
  parse_error(lx->ctx, at, "Invalid object property name",
              "A JSON object property name must be a string");
  return NULL;
}

/* ---- strings ------------------------------------------------------------ */

/* The byte a one-letter escape stands for, or -1. */
static int simple_escape(unsigned char ch) {
  switch (ch) {
  case '"':
  case '\\':
  case '/':
    return ch;
  case 'b':
    return '\b';
  case 'f':
    return '\f';
  case 'n':
    return '\n';
  case 'r':
    return '\r';
  case 't':
    return '\t';
  default:
    return -1;
  }
}

static int hexval(unsigned char ch) {
  if (ch >= '0' && ch <= '9')
    return ch - '0';
  if (ch >= 'a' && ch <= 'f')
    return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F')
    return ch - 'A' + 10;
  return -1;
}

/* Four hex digits at s[i..]: the value, or -1 - k when digit k (0-3) is
** bad or missing (the token has n bytes). */
static int32_t hex4(const char *s, uint32_t i, uint32_t n) {
  int32_t r = 0;
  for (int k = 0; k < 4; k++) {
    uint32_t at = i + (uint32_t)k;
    int h = at < n ? hexval((unsigned char)s[at]) : -1;
    if (h < 0)
      return -1 - k;
    r = r * 16 + h;
  }
  return r;
}

static uint32_t put_utf8(char *out, uint32_t n, uint32_t cp) {
  if (cp < 0x80) {
    out[n++] = (char)cp;
  } else if (cp < 0x800) {
    out[n++] = (char)(0xC0 | cp >> 6);
    out[n++] = (char)(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out[n++] = (char)(0xE0 | cp >> 12);
    out[n++] = (char)(0x80 | (cp >> 6 & 0x3F));
    out[n++] = (char)(0x80 | (cp & 0x3F));
  } else {
    out[n++] = (char)(0xF0 | cp >> 18);
    out[n++] = (char)(0x80 | (cp >> 12 & 0x3F));
    out[n++] = (char)(0x80 | (cp >> 6 & 0x3F));
    out[n++] = (char)(0x80 | (cp & 0x3F));
  }
  return n;
}

/*
** A \uXXXX escape at s[i] (s[i] == '\\', s[i+1] == 'u').  Decodes it, and
** the low half of a surrogate pair after it, into out as Go does (a lone
** surrogate becomes U+FFFD).  Returns the index after the escape, or 0
** with *bad set to Go's error offset.
*/
static uint32_t unescape_u(const char *s, uint32_t i, uint32_t n, char *out,
                           uint32_t *w, uint32_t *bad) {
  int32_t r = hex4(s, i + 2, n);
  if (r < 0) {
    uint32_t at = i + 2 + (uint32_t)(-1 - r);
    *bad = at < n ? at + 1 : n;
    return 0;
  }
  i += 6;
  if (r >= 0xD800 && r < 0xE000) {
    int32_t r2 = -1;
    if (i + 6 <= n && s[i] == '\\' && s[i + 1] == 'u')
      r2 = hex4(s, i + 2, n);
    if (r < 0xDC00 && r2 >= 0xDC00 && r2 < 0xE000) {
      r = 0x10000 + ((r - 0xD800) << 10) + (r2 - 0xDC00);
      i += 6;
    } else {
      r = 0xFFFD;
    }
  }
  *w = put_utf8(out, *w, (uint32_t)r);
  return i;
}

/*
** Decode the string token s[0..n) (opening quote included) into out,
** which has room for n bytes (JSON escapes never grow).  Returns 0, or
** the offset Go's encoding/json reports for the first error: one past the
** bad byte, or n when the string is not closed.  hcl points its
** diagnostic at the token start plus that offset.
*/
uint32_t json_unescape(const char *s, uint32_t n, char *out,
                       uint32_t *outlen) {
  uint32_t i = 1, w = 0, bad = 0;
  for (;;) {
    const char *bs = memchr(s + i, '\\', n - i);
    uint32_t stop = bs ? (uint32_t)(bs - s) : n;
    if (!bs && stop > i && s[n - 1] == '"') {
      memcpy(out + w, s + i, n - 1 - i);
      *outlen = w + (n - 1 - i);
      return 0;
    }
    memcpy(out + w, s + i, stop - i);
    w += stop - i;
    if (!bs || stop + 1 >= n)
      return n; /* not closed */
    i = stop;
    int e = simple_escape((unsigned char)s[i + 1]);
    if (s[i + 1] == 'u') {
      i = unescape_u(s, i, n, out, &w, &bad);
      if (!i)
        return bad;
    } else if (e >= 0) {
      out[w++] = (char)e;
      i += 2;
    } else {
      return i + 2; /* Go: one past the bad escape character */
    }
  }
}

/* A string value or property name: decoded, or "Invalid JSON string". */
static struct ast *json_string(struct json_lex *lx, struct lexeme t,
                               struct span s) {
  struct parse_ctx *c = lx->ctx;
  struct lexeme v = {t.s + 1, 0, 0};
  if (!json_level(lx, s))
    return NULL;
  if (t.flags & JSON_F_PLAIN) {
    v.len = t.len - 2;
    return ast_string(c, v, s);
  }
  char *out = tfr_arena_alloc(c->a, t.len);
  uint32_t bad = json_unescape(t.s, t.len, out, &v.len);
  if (bad) {
    /* hcl adds Go's error offset to the token's start as bytes and as
    ** columns, on the token's line, and ends the range one further */
    struct tfr_range r = src_range(c->src, span_at(s.start, s.start));
    r.start.byte += bad;
    r.start.column += (int)bad;
    r.end = r.start;
    r.end.byte++;
    r.end.column++;
    tfr_diags_add(c->diags, TFR_DIAG_ERROR, &r, "Invalid JSON string",
                  "There is a syntax error in the given JSON string.");
    if (!c->failed)
      c->err_at = s.start + bad;
    c->failed = true;
    return NULL;
  }
  v.s = out;
  return ast_string(c, v, s);
}

/* ---- numbers and keywords ----------------------------------------------- */

static uint32_t digits(const char *s, uint32_t i, uint32_t n) {
  while (i < n && s[i] >= '0' && s[i] <= '9')
    i++;
  return i;
}

/* RFC 8259: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
bool json_number_ok(const char *s, uint32_t n) {
  uint32_t i = 0, j;
  if (i < n && s[i] == '-')
    i++;
  if (i < n && s[i] == '0') {
    i++;
  } else {
    j = digits(s, i, n);
    if (j == i)
      return false;
    i = j;
  }
  if (i < n && s[i] == '.') {
    j = digits(s, i + 1, n);
    if (j == i + 1)
      return false;
    i = j;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < n && (s[i] == '+' || s[i] == '-'))
      i++;
    j = digits(s, i, n);
    if (j == i)
      return false;
    i = j;
  }
  return i == n;
}

/* A number value, kept as written.  Not ast_number(), which checks the
** native syntax's number grammar (no sign, leading zeros allowed). */
static struct ast *json_number(struct json_lex *lx, struct lexeme t,
                               struct span s) {
  if (!json_level(lx, s))
    return NULL;
  if (json_number_ok(t.s, t.len)) {
    struct ast *x = ast_new(lx->ctx, AST_NUMBER, s);
    x->str = t.s;
    x->n = t.len;
    return x;
  }
  parse_error(lx->ctx, s, "Invalid JSON number",
              "There is a syntax error in the given JSON number.");
  return NULL;
}

/* Levenshtein distance of two short ASCII words (a: at most 7 bytes). */
static uint32_t distance(const char *a, uint32_t na, const char *b) {
  uint32_t nb = (uint32_t)strlen(b), row[8];
  for (uint32_t j = 0; j <= nb; j++)
    row[j] = j;
  for (uint32_t i = 1; i <= na; i++) {
    uint32_t diag = row[0];
    row[0] = i;
    for (uint32_t j = 1; j <= nb; j++) {
      uint32_t up = row[j];
      uint32_t best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best)
        best = up + 1;
      if (row[j - 1] + 1 < best)
        best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[nb];
}

/* hcl's keywordSuggestion(): the first of false, true, null that is
** fewer than 3 edits away. */
static const char *suggest(const char *s, uint32_t n) {
  static const char *const words[] = {"false", "true", "null"};
  if (n > 7)
    return NULL; /* at least 3 edits from every 4- or 5-letter word */
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (distance(s, n, words[i]) < 3)
      return words[i];
  return NULL;
}

static bool word_is(struct lexeme t, const char *w) {
  return t.len == strlen(w) && memcmp(t.s, w, t.len) == 0;
}

/* true, false or null; anything else is explained as hcl does. */
static struct ast *json_keyword(struct json_lex *lx, struct lexeme t,
                                struct span s) {
  struct parse_ctx *c = lx->ctx;
  struct ast *x;
  if (!json_level(lx, s))
    return NULL;
  if (word_is(t, "true") || word_is(t, "false")) {
    x = ast_new(c, AST_BOOL, s);
    x->flags |= word_is(t, "true") ? AST_F_TRUE : 0;
    return x;
  }
  if (word_is(t, "null"))
    return ast_new(c, AST_NULL, s);
  const char *detail;
  int len = (int)t.len;
  if (word_is(t, "undefined") || word_is(t, "NaN") ||
      word_is(t, "Infinity")) {
    detail = tfr_arena_printf(c->a,
                              "The JavaScript identifier \"%.*s\" cannot "
                              "be used in JSON.",
                              len, t.s);
  } else {
    const char *dym = suggest(t.s, t.len);
    detail = tfr_arena_printf(c->a,
                              "\"%.*s\" is not a valid JSON keyword.%s%s%s",
                              len, t.s, dym ? " Did you mean \"" : "",
                              dym ? dym : "", dym ? "\"?" : "");
  }
  parse_error(c, s, "Invalid JSON keyword", detail);
  return NULL;
}

/* A scalar token as a value, by the kind the scanner saw. */
static struct ast *json_scalar(struct json_lex *lx, struct lexeme t,
                               struct span s) {
  if (t.flags & JSON_F_STRING)
    return json_string(lx, t, s);
  if (t.flags & JSON_F_NUMBER)
    return json_number(lx, t, s);
  return json_keyword(lx, t, s);
}

/* ---- after a syntax error: hcl's recovery ------------------------------ */

/*
** hcl does not stop at the first error: its recursive-descent parser
** (json/parser.go) returns an invalid value from the list that failed,
** leaves the tokens where its recover() stopped, and the enclosing lists
** go on from there, each adding what it then finds wrong; a root value
** that is not an object or array adds "Root value must be object".  The
** grammar above stops at the first error, so after one the text is read
** again by this port of hcl's parser, which only reports: its diagnostics
** replace the grammar's.  Scalars are checked by the grammar's own
** functions.  Nesting is bounded as above; past the bound the replay
** stops.
*/
struct replay {
  struct json_lex *lx;
  int tok;                 /* the next token (TOK_*), as Peek() */
  struct lexeme v;
  struct span at;
  bool after_invalid;      /* hcl's scanner stops after an invalid byte */
  bool stop;               /* too deep: report nothing more */
};

/* The values parseValue() tells apart; NK_INVALID is hcl's invalidVal. */
enum nk { NK_INVALID, NK_STRING, NK_SCALAR, NK_LIST };

static void rp_fetch(struct replay *p) {
  if (p->after_invalid) {
    p->tok = TOK_YYEOF;
    p->at = span_at(p->at.start + 1, p->at.start + 1);
    return;
  }
  YYSTYPE v;
  p->tok = json_yylex(&v, &p->at, p->lx->scanner);
  if (p->tok == TOK_LEXERR) {
    p->at.end = p->at.start + 1; /* hcl's invalid token is one byte */
    p->after_invalid = true;
  }
  if (p->tok == TOK_SCALAR || p->tok == TOK_LEXERR)
    p->v = v.tok;
}

/* Read(): the current token; the next becomes current (EOF stays). */
static int rp_read(struct replay *p, struct span *at, struct lexeme *v) {
  int t = p->tok;
  if (at)
    *at = p->at;
  if (v)
    *v = p->v;
  if (t != TOK_YYEOF)
    rp_fetch(p);
  return t;
}

/* hcl's recover(): read on from token t until the bracket that seems to
** close the list (open, close) or the end. */
static void rp_recover(struct replay *p, int t, int open_t, int close_t) {
  int open = 1;
  for (;;) {
    if (t == open_t) {
      open++;
    } else if (t == close_t) {
      if (--open <= 1)
        return;
    } else if (t == TOK_YYEOF) {
      return;
    }
    t = rp_read(p, NULL, NULL);
  }
}

static void rp_error(struct replay *p, struct span at, const char *summary,
                     const char *detail) {
  if (!p->stop)
    parse_error(p->lx->ctx, at, summary, detail);
}

static enum nk rp_value(struct replay *p, struct span *start);

static bool rp_open(struct replay *p) {
  if (p->stop || !json_level(p->lx, p->at)) {
    p->stop = true;
    return false;
  }
  p->lx->depth++;
  return true;
}

/* parseObject(): true for an object, false after an error. */
static bool rp_object(struct replay *p) {
  struct span open, at, key;
  rp_read(p, &open, NULL);
  for (;;) {
    if (p->tok == TOK_RBRACE)
      break;
    enum nk k = rp_value(p, &key);
    if (p->stop)
      return false;
    if (k != NK_STRING) {
      rp_error(p, key, "Invalid object property name",
               "A JSON object property name must be a string");
      return false;
    }
    int colon = rp_read(p, &at, NULL);
    if (colon != TOK_COLON) {
      rp_recover(p, colon, TOK_LBRACE, TOK_RBRACE);
      if (colon == TOK_RBRACE || colon == TOK_COMMA)
        rp_error(p, at, "Missing object value",
                 "A JSON object attribute must have a value, introduced "
                 "by a colon.");
      else if (colon == TOK_EQUALS)
        rp_error(p, at, "Missing property value colon",
                 "JSON uses a colon as its name/value delimiter, not an "
                 "equals sign.");
      else
        rp_error(p, at, "Missing property value colon",
                 "A colon must appear between an object property's name "
                 "and its value.");
      return false;
    }
    rp_value(p, &at);
    if (p->stop)
      return false;
    switch (p->tok) {
    case TOK_COMMA:
      rp_read(p, &at, NULL);
      if (p->tok == TOK_RBRACE) {
        rp_error(p, at, "Trailing comma in object",
                 "JSON does not permit a trailing comma after the final "
                 "property in an object.");
        return false;
      }
      continue;
    case TOK_YYEOF:
      rp_error(p, span_at(open.start, open.end), "Unclosed object",
               "No closing brace was found for this JSON object.");
      return false;
    case TOK_RBRACK:
      rp_read(p, NULL, NULL);
      rp_error(p, p->at, "Mismatched braces",
               "A JSON object must be closed with a brace, not a bracket.");
      return false;
    case TOK_RBRACE:
      break;
    default:
      rp_recover(p, rp_read(p, NULL, NULL), TOK_LBRACE, TOK_RBRACE);
      rp_error(p, p->at, "Missing attribute seperator comma",
               "A comma must appear between each property definition in "
               "an object.");
      return false;
    }
    break;
  }
  rp_read(p, NULL, NULL);
  return true;
}

/* parseArray(): true for an array, false after an error. */
static bool rp_array(struct replay *p) {
  struct span open, at;
  rp_read(p, &open, NULL);
  for (;;) {
    if (p->tok == TOK_RBRACK)
      break;
    rp_value(p, &at);
    if (p->stop)
      return false;
    switch (p->tok) {
    case TOK_COMMA:
      rp_read(p, &at, NULL);
      if (p->tok == TOK_RBRACK) {
        rp_error(p, at, "Trailing comma in array",
                 "JSON does not permit a trailing comma after the final "
                 "value in an array.");
        return false;
      }
      continue;
    case TOK_COLON:
      rp_recover(p, rp_read(p, NULL, NULL), TOK_LBRACK, TOK_RBRACK);
      rp_error(p, p->at, "Invalid array value",
               "A colon is not used to introduce values in a JSON array.");
      return false;
    case TOK_YYEOF:
      rp_recover(p, rp_read(p, NULL, NULL), TOK_LBRACK, TOK_RBRACK);
      rp_error(p, open, "Unclosed object",
               "No closing bracket was found for this JSON array.");
      return false;
    case TOK_RBRACE:
      rp_recover(p, rp_read(p, NULL, NULL), TOK_LBRACK, TOK_RBRACK);
      rp_error(p, p->at, "Mismatched brackets",
               "A JSON array must be closed with a bracket, not a brace.");
      return false;
    case TOK_RBRACK:
      break;
    default:
      rp_recover(p, rp_read(p, NULL, NULL), TOK_LBRACK, TOK_RBRACK);
      rp_error(p, p->at, "Missing attribute seperator comma",
               "A comma must appear between each value in an array.");
      return false;
    }
    break;
  }
  rp_read(p, NULL, NULL);
  return true;
}

/* parseValue(): what was read; *start is the span of its first token
** (hcl's StartRange(), also the range of an invalid value). */
static enum nk rp_value(struct replay *p, struct span *start) {
  struct lexeme v;
  bool ok;
  *start = p->at;
  switch (p->tok) {
  case TOK_LBRACE:
  case TOK_LBRACK:
    if (!rp_open(p))
      return NK_INVALID;
    ok = p->tok == TOK_LBRACE ? rp_object(p) : rp_array(p);
    p->lx->depth--;
    return ok ? NK_LIST : NK_INVALID;
  case TOK_SCALAR:
    rp_read(p, NULL, &v);
    if (!json_level(p->lx, *start)) {
      p->stop = true;
      return NK_INVALID;
    }
    if (!json_scalar(p->lx, v, *start))
      return NK_INVALID;
    return (v.flags & JSON_F_STRING) ? NK_STRING : NK_SCALAR;
  case TOK_RBRACE:
    rp_error(p, *start, "Missing JSON value", VALUE_DETAIL);
    return NK_INVALID;
  case TOK_RBRACK:
    rp_error(p, *start, "Missing array element value", VALUE_DETAIL);
    return NK_INVALID;
  case TOK_YYEOF:
    rp_error(p, *start, "Missing value", "The JSON data ends prematurely.");
    return NK_INVALID;
  default:
    rp_error(p, *start, "Invalid start of value", VALUE_DETAIL);
    return NK_INVALID;
  }
}

/* Read the file again as hcl does, replacing the diagnostics from `from`
** on with hcl's. */
static void json_replay(struct json_lex *lx, size_t from) {
  struct parse_ctx *c = lx->ctx;
  struct replay r = {0}, *p = &r;
  struct span start;
  diags_remove(c->diags, from, tfr_diags_count(c->diags));
  lx->depth = 0;
  lx->off = 0;
  p->lx = lx;
  if (!json_scan_begin(lx))
    return;
  rp_fetch(p);
  enum nk root = rp_value(p, &start);
  if (!p->stop && tfr_diags_count(c->diags) == from && p->tok != TOK_YYEOF)
    rp_error(p, p->at, "Extraneous data after value",
             "Extra characters appear after the JSON value.");
  if (!p->stop && root != NK_LIST)
    rp_error(p, start, "Root value must be object",
             "The root value in a JSON-based configuration must be "
             "either a JSON object or a JSON array of objects.");
  json_scan_end(lx);
  c->failed = true;
}

/* ---- entry point -------------------------------------------------------- */

/*
** Parse c->src as one JSON value.  The result and its nodes live in c->a;
** body is NULL after an error, which is then in c->diags.  A root value
** that is neither an object nor an array is an error, as in hcl (json.Parse
** accepts a root array; Terraform rejects it later, when it wants a body
** or a tfvars object: "Incorrect JSON value type").
*/
struct ast_file *parse_json(struct parse_ctx *c) {
  struct json_lex x = {0}, *lx = &x;
  struct ast_file *f = tfr_arena_alloc(c->a, sizeof *f);
  f->src = c->src;
  f->json = true;
  c->json = true;
  c->root = NULL;
  lx->ctx = c;
  c->src->json_columns = true;
  size_t ndiags = tfr_diags_count(c->diags);
  if (!json_scan_begin(lx))
    return f;
  int rc = json_yyparse(lx);
  json_scan_end(lx);
  free(lx->items);
  lx->items = NULL;
  if (c->failed)
    json_replay(lx, ndiags);
  if (rc && !c->failed)
    parse_error(c, span_at(lx->off, lx->off), "Invalid JSON",
                "The JSON parser stopped without a diagnostic.");
  if (c->failed)
    return f;
  struct ast *root = c->root;
  if (root->kind != AST_OBJECT && root->kind != AST_TUPLE) {
    parse_error(c, root->span, "Root value must be object",
                "The root value in a JSON-based configuration must be "
                "either a JSON object or a JSON array of objects.");
    return f;
  }
  f->body = root;
  return f;
}
