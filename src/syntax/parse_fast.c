/*
** A fast path for the HCL native syntax that most files are made of.
**
** tfvars files and variable declarations are mostly literals: bodies of
** attributes and blocks, numbers, plain quoted strings, true/false/null,
** names, tuples, objects and function calls; validation rules add
** operators, attribute and index traversals, parentheses and conditionals.
** This recursive-descent parser reads exactly that subset, straight from
** the bytes, and builds the very AST the grammar (grammar/hcl.y) builds
** for it: the same nodes, spans and flags, through the same builders
** (tests/parse_fast_diff.c compares the two on every fixture and corpus
** file).
**
** It reports nothing.  On anything outside the subset (splats, legacy
** index steps, templates, heredocs, block comments, for expressions, a
** missing newline, a repeated argument...) it gives up and the grammar
** parses the file from the start, so every diagnostic, and every file the
** subset does not cover, stays the grammar's.
*/
#include <stdlib.h>
#include <string.h>

#include "base/compat.h"
#include "base/arena_int.h"
#include "syntax/parse.h"
#include "syntax/parse_fast.h"
#include "base/strutil.h"
#include "base/heap.h"

/* Deeper nesting is left to the grammar (which bounds it at 1000). */
#define FAST_MAX_DEPTH 200

struct fp {
  struct parse_ctx *c;
  struct fast_scan s;
  struct fast_tok ahead; /* the token peek read, when ahead_at is pos */
  uint32_t ahead_at, ahead_end;
  bool ahead_nl, has_ahead;
  bool skip;      /* check the syntax only: build no nodes */
  bool lazy_type; /* `type` arguments of variable blocks and the condition
                     and error_message of their validation blocks: read,
                     not built */
  const struct fast_tok *block_type; /* of the body being read */
  const struct fast_tok *outer_type; /* of the block around it (or NULL) */
  const char *var_name; /* the variable block's label being read (a plain
                           identifier), or NULL */
  size_t var_len;
  /* the rule expressions checked, each by its text with var.NAME of its
  ** own variable cut out (parse_cut_name): the same text is the same
  ** syntax, whatever the name; keys in rule_keys */
  struct bytemap rule_seen;
  tfr_arena *rule_keys;
  struct sbuf keybuf;
  struct bytemap seen; /* the type texts lazy_type has checked */
  parse_item_fn item;  /* top-level blocks go here (parse_hcl_stream) */
  void *item_ctx;
  int depth;
  struct ast **stack; /* children of the lists being built (malloc'd) */
  uint32_t top, cap;
};

/* The code point of the h hex digits at s, or -1 (not all hex digits,
** above U+10FFFF, or a surrogate: the scanner's errors). */
static long hex_cp(const char *s, uint32_t h, uint32_t n) {
  if (n < h)
    return -1;
  long cp = 0;
  for (uint32_t i = 0; i < h; i++) {
    int d = str_hex_digit(s[i]);
    if (d < 0)
      return -1;
    cp = cp * 16 + d;
  }
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    return -1;
  return cp;
}

/* Length of the valid escape sequence at s (a backslash), or 0. */
static uint32_t escape_len(const char *s, uint32_t n) {
  if (n < 2)
    return 0;
  switch (s[1]) {
  case 'n':
  case 'r':
  case 't':
  case '"':
  case '\\':
    return 2;
  case 'u':
    return hex_cp(s + 2, 4, n - 2) >= 0 ? 6 : 0;
  case 'U':
    return hex_cp(s + 2, 8, n - 2) >= 0 ? 10 : 0;
  default:
    return 0;
  }
}

static uint32_t utf8_encode(char *out, uint32_t cp) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xC0 | (cp >> 6));
    out[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (char)(0xE0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = (char)(0xF0 | (cp >> 18));
  out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  out[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

/* Character classes for the scanner's loops.  A source's text is followed
** by two NUL bytes, which have no class: every loop stops there without a
** bounds check (a NUL inside the text stops them too, and is then read as
** the character it is). */
enum { C_BLANK = 1, C_ID = 2, C_DIGIT = 4, C_IDSTART = 8, C_LINE = 16 };
#define ID_ (C_ID | C_IDSTART)
static const uint8_t cls[256] = {
    ['\t'] = C_BLANK,
    [' '] = C_BLANK,
    ['\n'] = C_LINE,
    ['\r'] = C_LINE,
    ['-'] = C_ID,
    ['_'] = ID_,
    ['0'] = C_ID | C_DIGIT,
    ['1'] = C_ID | C_DIGIT,
    ['2'] = C_ID | C_DIGIT,
    ['3'] = C_ID | C_DIGIT,
    ['4'] = C_ID | C_DIGIT,
    ['5'] = C_ID | C_DIGIT,
    ['6'] = C_ID | C_DIGIT,
    ['7'] = C_ID | C_DIGIT,
    ['8'] = C_ID | C_DIGIT,
    ['9'] = C_ID | C_DIGIT,
    ['A'] = ID_,
    ['B'] = ID_,
    ['C'] = ID_,
    ['D'] = ID_,
    ['E'] = ID_,
    ['F'] = ID_,
    ['G'] = ID_,
    ['H'] = ID_,
    ['I'] = ID_,
    ['J'] = ID_,
    ['K'] = ID_,
    ['L'] = ID_,
    ['M'] = ID_,
    ['N'] = ID_,
    ['O'] = ID_,
    ['P'] = ID_,
    ['Q'] = ID_,
    ['R'] = ID_,
    ['S'] = ID_,
    ['T'] = ID_,
    ['U'] = ID_,
    ['V'] = ID_,
    ['W'] = ID_,
    ['X'] = ID_,
    ['Y'] = ID_,
    ['Z'] = ID_,
    ['a'] = ID_,
    ['b'] = ID_,
    ['c'] = ID_,
    ['d'] = ID_,
    ['e'] = ID_,
    ['f'] = ID_,
    ['g'] = ID_,
    ['h'] = ID_,
    ['i'] = ID_,
    ['j'] = ID_,
    ['k'] = ID_,
    ['l'] = ID_,
    ['m'] = ID_,
    ['n'] = ID_,
    ['o'] = ID_,
    ['p'] = ID_,
    ['q'] = ID_,
    ['r'] = ID_,
    ['s'] = ID_,
    ['t'] = ID_,
    ['u'] = ID_,
    ['v'] = ID_,
    ['w'] = ID_,
    ['x'] = ID_,
    ['y'] = ID_,
    ['z'] = ID_,
};
#undef ID_

#define CLS(i) cls[(unsigned char)t[i]]

/* Skip blanks and line comments (and newlines when they do not matter
** here: inside parentheses and brackets). */
static inline TFR_ALWAYS_INLINE void skip(struct fast_scan *p, bool nl) {
  const char *t = p->t;
  uint32_t i = p->pos, n = p->len;
  for (;;) {
    while (CLS(i) & C_BLANK)
      i++;
    if (t[i] == '#' || (t[i] == '/' && t[i + 1] == '/')) {
      if (i >= n)
        break;
      while (i < n && t[i] != '\n' && t[i] != '\r')
        i++;
      continue;
    }
    if (!nl && (t[i] == '\n' || (t[i] == '\r' && t[i + 1] == '\n')) && i < n) {
      i += t[i] == '\r' ? 2 : 1;
      continue;
    }
    break;
  }
  p->pos = i;
}

void fast_skip(struct fast_scan *p, bool nl) { skip(p, nl); }

/* The next token.  With nl, a run of newlines (and the blanks and
** comments between them) is one FT_NL, as the grammar's token filter
** makes it.  (Longer than a screen: one case per first character, the
** hot loop of the fast parser kept in one function.) */
void fast_lex(struct fast_scan *p, bool nl, struct fast_tok *k) {
  skip(p, nl);
  const char *t = p->t;
  uint32_t i = p->pos, n = p->len;
  k->start = i;
  k->ch = 0;
  if (i >= n) {
    k->kind = FT_EOF;
    k->end = i;
    return;
  }
  unsigned char ch = (unsigned char)t[i];
  uint8_t c = cls[ch];
  if (c & C_IDSTART) {
    while (CLS(i) & C_ID)
      i++;
    k->kind = (unsigned char)t[i] >= 0x80 ? FT_BAD : FT_IDENT;
  } else if (c & C_DIGIT) {
    while (CLS(i) & C_DIGIT)
      i++;
    if (t[i] == '.' && (CLS(i + 1) & C_DIGIT))
      for (i++; CLS(i) & C_DIGIT; i++)
        ;
    if (t[i] == 'e' || t[i] == 'E') {
      uint32_t j = i + 1;
      if (t[j] == '+' || t[j] == '-')
        j++;
      if (CLS(j) & C_DIGIT)
        for (i = j; CLS(i) & C_DIGIT; i++)
          ;
    }
    /* "1.2.3", "1e", "1x": the scanner reads these otherwise */
    k->kind = t[i] == '.' || (CLS(i) & C_ID) || (unsigned char)t[i] >= 0x80
                  ? FT_BAD
                  : FT_NUM;
  } else if (ch == '"') {
    /* a literal with no template sequences: plain text, escapes, $${ */
    k->kind = FT_BAD;
    static const bool stop[256] = {
        ['"'] = 1, ['\n'] = 1, ['\r'] = 1, ['\0'] = 1,
        ['$'] = 1, ['%'] = 1,  ['\\'] = 1};
    for (i++; i < n; i++) {
      /* plain text: strcspn scans many bytes a step (and stops at NUL) */
      i += (uint32_t)strcspn(t + i, "\"\n\r$%\\");
      while (!stop[(unsigned char)t[i]])
        i++;
      if (i >= n)
        break;
      char b = t[i];
      if (b == '"') {
        i++;
        k->kind = FT_STR;
        break;
      }
      if (b == '\n' || b == '\r' || b == '\0')
        break;
      if (b == '$' || b == '%') {
        if (i + 1 < n && t[i + 1] == '{')
          break;
        if (i + 2 < n && t[i + 1] == b && t[i + 2] == '{') {
          k->ch = 1; /* to be decoded */
          i += 2;
        }
      } else if (b == '\\') {
        uint32_t e = escape_len(t + i, n - i);
        if (!e)
          break;
        k->ch = 1;
        i += e - 1;
      }
    }
  } else if (c & C_LINE) {
    if (ch == '\r' && t[i + 1] != '\n') {
      k->kind = FT_BAD;
      k->end = p->pos = i;
      return;
    }
    k->kind = FT_NL;
    k->end = i + (ch == '\r' ? 2 : 1);
    for (;;) {
      p->pos = k->end;
      skip(p, true);
      uint32_t j = p->pos;
      if (t[j] == '\n' && j < n)
        k->end = j + 1;
      else if (t[j] == '\r' && t[j + 1] == '\n' && j + 1 < n)
        k->end = j + 2;
      else
        break;
    }
    return;
  } else if (ch == '=' || ch == ',' || ch == ':' || ch == '[' || ch == ']' ||
             ch == '{' || ch == '}' || ch == '(' || ch == ')') {
    i++;
    /* "==", "=>", "::" are other tokens */
    k->kind = (ch == '=' && (t[i] == '=' || t[i] == '>')) ||
                      (ch == ':' && t[i] == ':')
                  ? FT_BAD
                  : FT_PUNCT;
    k->ch = (char)ch;
  } else if (ch == '-') {
    i++;
    k->kind = FT_PUNCT;
    k->ch = '-';
  } else {
    k->kind = FT_BAD;
  }
  k->end = i;
  p->pos = i;
}

/* Operator tokens (the shared scanner leaves them FT_BAD: tfvars values
** have none): k->ch is one of these codes. */
enum {
  OPT_DOT = 1,
  OPT_NOT,
  OPT_OR,
  OPT_AND,
  OPT_EQ,
  OPT_NE,
  OPT_LT,
  OPT_LE,
  OPT_GT,
  OPT_GE,
  OPT_ADD,
  OPT_MUL,
  OPT_DIV,
  OPT_MOD,
  OPT_QUEST
};
#define FT_OP (FT_BAD + 1)

/* An FT_BAD token that is an operator made FT_OP ("-" is FT_PUNCT). */
static void op_token(struct fp *p, struct fast_tok *k) {
  const char *t = p->s.t + k->start;
  if (k->start >= p->s.len)
    return;
  char c0 = t[0], c1 = t[1];
  int op = 0, len = 1;
  switch (c0) {
  case '.':
    op = c1 == '.' ? 0 : OPT_DOT; /* "..." is another token */
    break;
  case '!':
    op = c1 == '=' ? (len = 2, OPT_NE) : OPT_NOT;
    break;
  case '|':
    op = c1 == '|' ? (len = 2, OPT_OR) : 0;
    break;
  case '&':
    op = c1 == '&' ? (len = 2, OPT_AND) : 0;
    break;
  case '=':
    op = c1 == '=' ? (len = 2, OPT_EQ) : 0;
    break;
  case '<':
    op = c1 == '=' ? (len = 2, OPT_LE) : c1 == '<' ? 0 : OPT_LT;
    break;
  case '>':
    op = c1 == '=' ? (len = 2, OPT_GE) : OPT_GT;
    break;
  case '+':
    op = OPT_ADD;
    break;
  case '*':
    op = OPT_MUL;
    break;
  case '/':
    op = c1 == '*' ? 0 : OPT_DIV; /* a block comment: the grammar's */
    break;
  case '%':
    op = OPT_MOD;
    break;
  case '?':
    op = OPT_QUEST;
    break;
  default:
    break;
  }
  if (!op)
    return;
  k->kind = FT_OP;
  k->ch = (char)op;
  k->end = k->start + (uint32_t)len;
  p->s.pos = k->end;
}

static void lex(struct fp *p, bool nl, struct fast_tok *k) {
  if (p->has_ahead && p->ahead_at == p->s.pos && p->ahead_nl == nl) {
    *k = p->ahead;
    p->s.pos = p->ahead_end;
    p->has_ahead = false;
    return;
  }
  fast_lex(&p->s, nl, k);
  if (k->kind == FT_BAD && k->end == k->start)
    op_token(p, k);
}

/* The next token, left to be read again (at once, from the token kept). */
static void peek(struct fp *p, bool nl, struct fast_tok *k) {
  uint32_t at = p->s.pos;
  lex(p, nl, k);
  p->ahead = *k;
  p->ahead_at = at;
  p->ahead_end = p->s.pos;
  p->ahead_nl = nl;
  p->has_ahead = true;
  p->s.pos = at;
}

static bool is_punct(const struct fast_tok *k, char ch) {
  return k->kind == FT_PUNCT && k->ch == ch;
}

static void push(struct fp *p, struct ast *x) {
  if (p->top == p->cap) {
    p->cap = p->cap ? p->cap * 2 : 256;
    p->stack = heap_realloc(p->stack, p->cap * sizeof *p->stack);
  }
  p->stack[p->top++] = x;
}

/* The children pushed since from, moved into the arena (as vec_close
** does). */
static struct ast **items(struct fp *p, uint32_t from) {
  uint32_t n = p->top - from;
  if (p->skip) {
    p->top = from;
    return NULL;
  }
  struct ast **v = tfr_arena_alloc(p->c->a, (n ? n : 1) * sizeof *v);
  if (n)
    memcpy(v, p->stack + from, n * sizeof *v);
  p->top = from;
  return v;
}

/* A list node of the children pushed since from, as ast_list makes it. */
/* What a checked expression stands for when no nodes are built. */
static struct ast checked;

static struct ast *list(struct fp *p, enum ast_kind k, uint32_t from,
                        struct span s) {
  uint32_t n = p->top - from;
  if (p->skip) {
    p->top = from;
    return &checked;
  }
  struct ast *x = ast_new(p->c, k, s);
  x->items = items(p, from);
  x->n = k == AST_OBJECT ? n / 2 : n;
  return x;
}

static struct lexeme lexeme(struct fp *p, const struct fast_tok *k) {
  return (struct lexeme){p->s.t + k->start, k->end - k->start, 0};
}

static struct span tspan(const struct fast_tok *k) {
  return (struct span){k->start, k->end};
}

const char *fast_str_text(tfr_arena *a, const char *t, const struct fast_tok *k,
                          uint32_t *len) {
  const char *s = t + k->start + 1;
  uint32_t n = k->end - k->start - 2;
  if (!k->ch) {
    *len = n;
    return n ? s : "";
  }
  char *out = tfr_arena_alloc_raw(a, n + 1), *o = out;
  for (uint32_t i = 0; i < n;) {
    char c = s[i];
    if ((c == '$' || c == '%') && i + 2 < n && s[i + 1] == c &&
        s[i + 2] == '{') {
      *o++ = c;
      *o++ = '{';
      i += 3;
    } else if (c == '\\') {
      char e = s[i + 1];
      if (e == 'u' || e == 'U') {
        uint32_t h = e == 'u' ? 4 : 8;
        o += utf8_encode(o, (uint32_t)hex_cp(s + i + 2, h, n - i - 2));
        i += 2 + h;
      } else {
        *o++ = e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e;
        i += 2;
      }
    } else {
      *o++ = c;
      i++;
    }
  }
  *o = '\0';
  *len = (uint32_t)(o - out);
  return out;
}

/* The text of a string token: the source itself, or (with escapes) a
** decoded copy in the arena, as the scanner's literal runs are. */
static void str_text(struct fp *p, const struct fast_tok *k, struct ast *x) {
  x->str = fast_str_text(p->c->a, p->s.t, k, &x->n);
}

static struct ast *expr(struct fp *p, bool nl);

/* An expression, then the punctuation ch (*k); NULL when either is not
** there. */
static struct ast *expr_then(struct fp *p, bool nl, char ch,
                             struct fast_tok *k) {
  struct ast *x = expr(p, nl);
  if (!x)
    return NULL;
  lex(p, nl, k);
  return is_punct(k, ch) ? x : NULL;
}

/* [expr {"," expr} [","]] close: the expressions pushed, *k the closing
** token; false when that is not the shape. */
static bool expr_list(struct fp *p, char close, struct fast_tok *k) {
  peek(p, false, k);
  if (is_punct(k, close)) {
    lex(p, false, k);
    return true;
  }
  for (;;) {
    struct ast *e = expr(p, false);
    if (!e)
      return false;
    push(p, e);
    lex(p, false, k);
    if (is_punct(k, close))
      return true;
    if (!is_punct(k, ','))
      return false;
    peek(p, false, k);
    if (is_punct(k, close)) {
      lex(p, false, k);
      return true;
    }
  }
}

/* The rest of a call after its name: "(" args ")". */
static struct ast *call(struct fp *p, const struct fast_tok *name) {
  struct fast_tok k;
  lex(p, false, &k); /* "(" */
  uint32_t from = p->top;
  if (!expr_list(p, ')', &k))
    return NULL;
  struct span s = {name->start, k.end};
  if (p->skip) {
    p->top = from;
    return &checked;
  }
  struct ast *x = ast_new(p->c, AST_CALL, s);
  x->n = p->top - from;
  x->items = items(p, from);
  struct ast *fn =
      ast_new(p->c, AST_STRING, (struct span){name->start, name->end});
  fn->str = p->s.t + name->start;
  fn->n = name->end - name->start;
  x->kids[0] = fn;
  return x;
}

static struct ast *tuple(struct fp *p, const struct fast_tok *open) {
  struct fast_tok k;
  uint32_t from = p->top;
  if (!expr_list(p, ']', &k))
    return NULL;
  return list(p, AST_TUPLE, from, (struct span){open->start, k.end});
}

/* "{" [NEWLINE] [items [sep]] "}", sep being ",", NEWLINE or both. */
static struct ast *object(struct fp *p, const struct fast_tok *open) {
  struct fast_tok k;
  uint32_t from = p->top;
  lex(p, true, &k);
  if (k.kind == FT_NL)
    lex(p, true, &k);
  while (!is_punct(&k, '}')) {
    /* the key: read again as an expression */
    p->ahead = k;
    p->ahead_at = k.start;
    p->ahead_end = p->s.pos;
    p->ahead_nl = true;
    p->has_ahead = true;
    p->s.pos = k.start;
    struct ast *key = expr(p, true);
    if (!key)
      return NULL;
    lex(p, true, &k);
    if (!is_punct(&k, '=') && !is_punct(&k, ':'))
      return NULL;
    struct ast *val = expr(p, true);
    if (!val)
      return NULL;
    push(p, key);
    push(p, val);
    lex(p, true, &k);
    if (is_punct(&k, ',')) {
      lex(p, true, &k);
      if (k.kind == FT_NL)
        lex(p, true, &k);
    } else if (k.kind == FT_NL) {
      lex(p, true, &k);
    } else if (!is_punct(&k, '}')) {
      return NULL;
    }
  }
  return list(p, AST_OBJECT, from, (struct span){open->start, k.end});
}

static bool is_word(struct fp *p, const struct fast_tok *k, const char *w) {
  size_t n = strlen(w);
  return k->end - k->start == n && !memcmp(p->s.t + k->start, w, n);
}

static struct ast *term(struct fp *p, bool nl);

static bool is_op(const struct fast_tok *k, int op) {
  return k->kind == FT_OP && k->ch == op;
}

/* Give up when a tree would be deeper than the bound the rest of the
** library relies on (ast_check_depth is skipped for this parser's trees):
** each wrapping node (operator, step) counts as a level. */
static bool deeper(struct fp *p) { return ++p->depth <= FAST_MAX_DEPTH; }

/* Binary operators: the grammar's precedence (higher binds tighter) and
** AST operator; 0 when k is none. */
static int binop(const struct fast_tok *k, enum ast_op *op) {
  if (k->kind == FT_PUNCT && k->ch == '-') {
    *op = OP_SUB;
    return 5;
  }
  if (k->kind != FT_OP)
    return 0;
  static const struct {
    int prec;
    enum ast_op op;
  } t[] = {[OPT_OR] = {1, OP_OR},   [OPT_AND] = {2, OP_AND},
           [OPT_EQ] = {3, OP_EQ},   [OPT_NE] = {3, OP_NE},
           [OPT_LT] = {4, OP_LT},   [OPT_LE] = {4, OP_LE},
           [OPT_GT] = {4, OP_GT},   [OPT_GE] = {4, OP_GE},
           [OPT_ADD] = {5, OP_ADD}, [OPT_MUL] = {6, OP_MUL},
           [OPT_DIV] = {6, OP_DIV}, [OPT_MOD] = {6, OP_MOD}};
  int c = k->ch;
  if (c <= 0 || c >= (int)(sizeof t / sizeof t[0]) || !t[c].prec)
    return 0;
  *op = t[c].op;
  return t[c].prec;
}

/* A term with its steps (.name, [key]) and unary operators. */
static struct ast *unary(struct fp *p, bool nl) {
  struct fast_tok k;
  peek(p, nl, &k);
  if (is_op(&k, OPT_NOT) || (k.kind == FT_PUNCT && k.ch == '-')) {
    lex(p, nl, &k);
    int depth = p->depth;
    if (!deeper(p))
      return NULL;
    struct ast *x = unary(p, nl);
    p->depth = depth;
    if (!x)
      return NULL;
    if (p->skip)
      return &checked;
    return ast_unary(p->c, k.ch == '-' ? OP_NEG : OP_NOT, x,
                     (struct span){k.start, x->span.end});
  }
  struct ast *x = term(p, nl);
  if (!x)
    return NULL;
  /* the steps on the stack (a longer chain moves to the arena): only the
  ** nodes they become stay */
  struct step buf[4];
  struct steps steps = {buf, 0, 4}, *st = &steps;
  int depth = p->depth;
  for (;;) {
    peek(p, nl, &k);
    if (is_op(&k, OPT_DOT)) {
      lex(p, nl, &k);
      struct fast_tok n;
      lex(p, nl, &n);
      if (n.kind != FT_IDENT || n.start != k.end || !deeper(p))
        return NULL; /* ".0", ".*", a split step: the grammar's */
      if (!p->skip)
        st = steps_push(p->c, st,
                        (struct step){STEP_ATTR,
                                      {k.start, n.end},
                                      p->s.t + n.start,
                                      n.end - n.start,
                                      NULL});
    } else if (k.kind == FT_PUNCT && k.ch == '[') {
      lex(p, nl, &k);
      struct fast_tok n;
      peek(p, false, &n);
      if (is_op(&n, OPT_MUL) || !deeper(p))
        return NULL; /* [*] */
      struct ast *key = expr_then(p, false, ']', &n);
      if (!key)
        return NULL;
      if (!p->skip)
        st = steps_push(
            p->c, st,
            (struct step){STEP_INDEX, {k.start, n.end}, NULL, 0, key});
    } else {
      break;
    }
  }
  p->depth = depth;
  if (st->n && !p->skip)
    x = ast_traverse(p->c, x, st);
  return x;
}

/* Operators of precedence min and higher, left-associative. */
static struct ast *binary(struct fp *p, bool nl, int min) {
  struct ast *x = unary(p, nl);
  int depth = p->depth;
  while (x) {
    struct fast_tok k;
    peek(p, nl, &k);
    enum ast_op op = OP_NONE;
    int prec = binop(&k, &op);
    if (!prec || prec < min)
      break;
    lex(p, nl, &k);
    if (!deeper(p))
      return NULL;
    struct ast *y = binary(p, nl, prec + 1);
    if (!y)
      return NULL;
    x = p->skip ? &checked
                : ast_binary(p->c, op, x, y,
                             (struct span){x->span.start, y->span.end});
  }
  p->depth = depth;
  return x;
}

/* An expression of the subset: operators, then "? :" (right-associative,
** lowest).  Whatever follows it is the caller's to check: every caller
** accepts only tokens that cannot continue an expression. */
static struct ast *expr(struct fp *p, bool nl) {
  struct ast *x = binary(p, nl, 1);
  if (!x)
    return NULL;
  struct fast_tok k;
  peek(p, nl, &k);
  if (!is_op(&k, OPT_QUEST))
    return x;
  lex(p, nl, &k);
  int depth = p->depth;
  if (!deeper(p))
    return NULL;
  struct ast *y = expr_then(p, nl, ':', &k);
  if (!y)
    return NULL;
  struct ast *z = expr(p, nl);
  p->depth = depth;
  if (!z)
    return NULL;
  return p->skip ? &checked
                 : ast_cond(p->c, x, y, z,
                            (struct span){x->span.start, z->span.end});
}

/* A term of the subset. */
static struct ast *term(struct fp *p, bool nl) {
  if (++p->depth > FAST_MAX_DEPTH)
    return NULL;
  struct fast_tok k;
  struct ast *x = NULL;
  lex(p, nl, &k);
  switch (k.kind) {
  case FT_NUM:
    x = p->skip ? &checked : ast_number(p->c, lexeme(p, &k), tspan(&k));
    break;
  case FT_STR:
    if (p->skip) {
      x = &checked;
      break;
    }
    x = ast_new(p->c, AST_STRING, tspan(&k));
    str_text(p, &k, x);
    break;
  case FT_IDENT: {
    if (is_word(p, &k, "for"))
      break; /* a for expression, maybe */
    struct fast_tok n;
    peek(p, nl, &n);
    if (is_punct(&n, '('))
      x = call(p, &k);
    else
      x = p->skip ? &checked : ast_name(p->c, lexeme(p, &k), tspan(&k));
    break;
  }
  case FT_PUNCT:
    if (k.ch == '[') {
      x = tuple(p, &k);
    } else if (k.ch == '{') {
      x = object(p, &k);
    } else if (k.ch == '(') {
      struct ast *in = expr(p, false);
      struct fast_tok c;
      if (in)
        lex(p, false, &c);
      if (in && is_punct(&c, ')'))
        x = p->skip ? &checked
                    : ast_paren(p->c, in, (struct span){k.start, c.end});
    } else if (k.ch == '-') {
      struct fast_tok n;
      lex(p, nl, &n);
      if (n.kind == FT_NUM && p->skip)
        x = &checked;
      else if (n.kind == FT_NUM)
        x = ast_unary(p->c, OP_NEG, ast_number(p->c, lexeme(p, &n), tspan(&n)),
                      (struct span){k.start, n.end});
    }
    break;
  default:
    break;
  }
  p->depth--;
  return x;
}

static bool body(struct fp *p, bool top, struct fast_tok *close);

/* Where the type expression starting at i ends, found by matching
** brackets alone (strings without escapes or templates, no comments, no
** CR); 0 when that cannot tell. */
static uint32_t type_extent(const char *t, uint32_t i, uint32_t n) {
  int depth = 0;
  for (; i < n; i++) {
    unsigned char c = (unsigned char)t[i];
    if (c == '(' || c == '[' || c == '{') {
      depth++;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--depth < 0)
        return 0;
      if (!depth)
        return i + 1;
    } else if (c == '"') {
      for (i++; i < n && t[i] != '"'; i++)
        if (t[i] == '\\' || t[i] == '\n' || t[i] == '$' || t[i] == '%')
          return 0;
      if (i >= n)
        return 0;
    } else if (c == '#' || c == '/' || c == '\r' || c >= 0x80) {
      return 0;
    } else if (!depth && !(cls[c] & C_ID)) {
      return i;
    }
  }
  return 0;
}

/* A variable's `type`: an AST_F_LAZY placeholder for the expression,
** checked by reading it, or by its text when the same text was checked
** before in this file; NULL outside the subset. */
static struct ast *lazy_type(struct fp *p) {
  struct fast_tok first;
  peek(p, true, &first);
  uint32_t end = type_extent(p->s.t, first.start, p->s.len);
  const char *text = p->s.t + first.start;
  if (end && bytemap_get(&p->seen, text, end - first.start)) {
    p->has_ahead = false;
    p->s.pos = end;
  } else {
    p->skip = true;
    struct ast *x = expr(p, true);
    p->skip = false;
    if (!x)
      return NULL;
    if (end == p->s.pos)
      bytemap_put(&p->seen, text, end - first.start, UNCONST(void *, text));
  }
  struct ast *v = ast_new(p->c, AST_NULL, (struct span){first.start, p->s.pos});
  v->flags = AST_F_LAZY;
  return v;
}

static bool ident_byte(unsigned char c) { return c >= 0x80 || (cls[c] & C_ID); }

bool parse_plain_name(const char *s, size_t n) {
  if (!n || !(cls[(unsigned char)s[0]] & C_IDSTART) ||
      (unsigned char)s[0] >= 0x80)
    return false;
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)s[i] >= 0x80 || !(cls[(unsigned char)s[i]] & C_ID))
      return false;
  return true;
}

/* Whether a var.NAME of the name (a whole word: no identifier byte or dot
** before it, no identifier byte after it) starts at byte i of t, within
** [start, end).  Its callers, which try every byte of a rule, test for the
** 'v' first: a call per byte was a tenth of loading 10,000 rules. */
static bool name_at(const char *t, uint32_t i, uint32_t start, uint32_t end,
                    const char *name, size_t nlen) {
  if (t[i] != 'v' || i + 4 + nlen > end || memcmp(t + i, "var.", 4) ||
      memcmp(t + i + 4, name, nlen))
    return false;
  uint32_t e = i + 4 + (uint32_t)nlen;
  return !(i > start &&
           (ident_byte((unsigned char)t[i - 1]) || t[i - 1] == '.')) &&
         !(e < end && ident_byte((unsigned char)t[e]));
}

/* The text from *from up to the cut at i, and the cut, to b. */
static void put_cut(struct sbuf *b, const char *t, uint32_t *from, uint32_t i,
                    size_t nlen) {
  sbuf_put(b, t + *from, i - *from);
  sbuf_put(b, "\x01", 1);
  *from = i + 4 + (uint32_t)nlen;
}

/* The length before a cut text (4 bytes, at lenat), now that it is known. */
static void cut_length(struct sbuf *b, size_t lenat) {
  uint32_t len = (uint32_t)(b->n - lenat - sizeof len);
  if (b->p)
    memcpy(b->p + lenat, &len, sizeof len);
}

size_t parse_cut_name(struct sbuf *b, const char *text, struct span s,
                      const char *name, size_t nlen, struct span *at) {
  size_t n = 0, lenat = b->n;
  uint32_t len = 0;
  sbuf_put(b, (const char *)&len, sizeof len);
  uint32_t from = s.start;
  for (uint32_t i = s.start; i < s.end; i++)
    if (text[i] == 'v' && name_at(text, i, s.start, s.end, name, nlen)) {
      if (at)
        at[n] = (struct span){i, i + 4 + (uint32_t)nlen};
      n++;
      put_cut(b, text, &from, i, nlen);
      i = from - 1;
    }
  sbuf_put(b, text + from, s.end - from);
  cut_length(b, lenat);
  return n;
}

/*
** Where the expression at i ends when it is all on its line and plain
** (brackets, operators, strings without templates; no comment, heredoc or
** CR): after its last token, where the fast parser ends it too; 0 when
** that cannot tell.  Its text, cut as parse_cut_name cuts it for the
** variable being read (in strings too: the same text either way), goes to
** p->keybuf on the way.
*/
static uint32_t rule_extent(struct fp *p, uint32_t i) {
  /* the bytes of a quoted string that rule_extent looks at */
  static const bool str_stop[256] = {
      ['"'] = 1,  ['\\'] = 1, ['$'] = 1, ['%'] = 1,
      ['\n'] = 1, ['\r'] = 1, ['v'] = 1, ['\0'] = 1};
  /* outside strings, the bytes that need no look but for moving last on
  ** (with the identifier bytes but 'v': PLAIN): no blank, bracket, quote,
  ** newline, comment or heredoc start, nor the 'v' of a var.NAME */
  static const bool op_byte[256] = {
      ['.'] = 1, [','] = 1, [':'] = 1, ['?'] = 1, ['!'] = 1, ['='] = 1,
      ['>'] = 1, ['&'] = 1, ['|'] = 1, ['+'] = 1, ['*'] = 1, ['%'] = 1};
#define PLAIN(c) (((cls[c] & C_ID) && (c) != 'v') || op_byte[c])
  const char *t = p->s.t, *name = p->var_name;
  uint32_t n = p->s.len, from = i, start = i, last = 0;
  size_t nlen = p->var_len;
  int depth = 0;
  struct sbuf *b = &p->keybuf;
  b->n = 0;
  uint32_t len = 0;
  sbuf_put(b, (const char *)&len, sizeof len);
  for (; i < n; i++) {
    unsigned char c = (unsigned char)t[i];
    if (PLAIN(c)) { /* a run of them: each only moves last on */
      while (PLAIN((unsigned char)t[i + 1]))
        i++;
      last = i + 1;
      continue;
    }
    if (c == '\n')
      break;
    if (cls[c] & C_BLANK)
      continue;
    if (c == 'v' && name_at(t, i, start, n, name, nlen)) {
      put_cut(b, t, &from, i, nlen);
      i = from - 1;
      last = from;
      continue;
    }
    if (c == '\r' || c == '#' ||
        (c == '/' && (t[i + 1] == '/' || t[i + 1] == '*')) ||
        (c == '<' && t[i + 1] == '<'))
      return 0;
    if (c == '(' || c == '[' || c == '{') {
      depth++;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--depth < 0)
        return 0;
    } else if (c == '"') {
      for (i++;; i++) {
        while (!str_stop[(unsigned char)t[i]])
          i++; /* plain text (the text ends in NUL) */
        if (i >= n)
          return 0;
        if (t[i] == '"')
          break;
        if (t[i] == '\\')
          i++;
        else if ((t[i] == '$' || t[i] == '%') && t[i + 1] == '{')
          return 0;
        if (i >= n || t[i] == '\n' || t[i] == '\r')
          return 0;
        if (t[i] == 'v' && name_at(t, i, start, n, name, nlen)) {
          put_cut(b, t, &from, i, nlen);
          i = from - 1;
        }
      }
    }
    last = i + 1;
  }
  if (depth || !last)
    return 0;
  sbuf_put(b, t + from, last - from);
  cut_length(b, 0);
  return last;
}
#undef PLAIN

/* A validation rule's condition or error_message: read (its syntax
** checked) but not built, an AST_F_LAZY placeholder standing for it.  The
** loader builds it when it needs the tree: rules that differ only in
** their own variable's name share one.  A text checked before but for
** that name is not checked again; the placeholder's n numbers its text so
** cut (from 1; 0: not numbered) for the loader. */
static struct ast *lazy_expr(struct fp *p) {
  struct fast_tok first;
  peek(p, true, &first);
  uint32_t end = p->var_name ? rule_extent(p, first.start) : 0;
  uintptr_t id = 0;
  if (end) {
    id = (uintptr_t)bytemap_get(&p->rule_seen, p->keybuf.p, p->keybuf.n);
    if (id) {
      p->has_ahead = false;
      p->s.pos = end;
      goto done;
    }
  }
  p->skip = true;
  struct ast *x = expr(p, true);
  p->skip = false;
  if (!x)
    return NULL;
  if (end && end == p->s.pos) {
    if (!p->rule_keys)
      p->rule_keys = tfr_arena_new();
    id = p->rule_seen.n + 1;
    bytemap_put(&p->rule_seen,
                tfr_arena_strndup(p->rule_keys, p->keybuf.p, p->keybuf.n),
                p->keybuf.n, (void *)id);
  }
done:;
  struct ast *v = ast_new(p->c, AST_NULL, (struct span){first.start, p->s.pos});
  v->flags = AST_F_LAZY;
  v->n = (uint32_t)id;
  return v;
}

/* Whether the argument name of the block being read is built lazily. */
static bool lazy_arg(struct fp *p, const struct fast_tok *name) {
  if (!p->lazy_type || !p->block_type)
    return false;
  if (is_word(p, p->block_type, "variable"))
    return is_word(p, name, "type");
  return p->outer_type && is_word(p, p->block_type, "validation") &&
         is_word(p, p->outer_type, "variable") &&
         (is_word(p, name, "condition") || is_word(p, name, "error_message"));
}

/* IDENT labels "{" NEWLINE items "}" */
static struct ast *block(struct fp *p, const struct fast_tok *type) {
  struct fast_tok k;
  uint32_t from = p->top;
  for (;;) {
    lex(p, true, &k);
    if (k.kind == FT_IDENT) {
      struct ast *l = ast_new(p->c, AST_STRING, tspan(&k));
      l->str = p->s.t + k.start;
      l->n = k.end - k.start;
      push(p, l);
    } else if (k.kind == FT_STR) {
      struct ast *l = ast_new(p->c, AST_STRING, tspan(&k));
      str_text(p, &k, l);
      l->flags = AST_F_QUOTED;
      push(p, l);
    } else {
      break;
    }
  }
  if (!is_punct(&k, '{'))
    return NULL;
  struct fast_tok open = k;
  lex(p, true, &k);
  if (k.kind != FT_NL)
    return NULL; /* a one-line block */
  uint32_t nlabels = p->top - from;
  struct span ls = {type->start, type->start};
  if (nlabels)
    ls = (struct span){p->stack[from]->span.start,
                       p->stack[p->top - 1]->span.end};
  struct ast *labels = list(p, AST_TUPLE, from, ls);
  uint32_t bfrom = p->top;
  struct fast_tok close;
  const struct fast_tok *outer = p->block_type, *outer2 = p->outer_type;
  const char *var_name = p->var_name;
  size_t var_len = p->var_len;
  if (nlabels == 1 && is_word(p, type, "variable")) {
    /* its name, when var.NAME spells it: an identifier, or a string
    ** holding one */
    const struct ast *l = p->skip ? NULL : labels->items[0];
    p->var_name = l && parse_plain_name(l->str, l->n) ? l->str : NULL;
    p->var_len = p->var_name ? l->n : 0;
  }
  p->outer_type = outer;
  p->block_type = type;
  bool ok = ++p->depth <= FAST_MAX_DEPTH && body(p, false, &close);
  p->block_type = outer;
  p->outer_type = outer2;
  p->var_name = var_name;
  p->var_len = var_len;
  if (!ok)
    return NULL;
  p->depth--;
  struct ast *b =
      list(p, AST_BODY, bfrom, (struct span){open.start, close.end});
  if (ast_body_has_duplicate(b->items, b->n))
    return NULL;
  struct ast *x =
      ast_new(p->c, AST_BLOCK, (struct span){type->start, close.end});
  x->str = p->s.t + type->start;
  x->n = type->end - type->start;
  x->kids[0] = labels;
  x->kids[1] = b;
  return x;
}

/* Items up to the end of the file (top) or the "}" of a block body
** (*close), each on its own line. */
static bool body(struct fp *p, bool top, struct fast_tok *close) {
  bool stream = top && p->item; /* each item handed over, not kept */
  struct fast_tok k;
  for (;;) {
    struct arena_mark mark =
        stream ? arena_mark(p->c->a) : (struct arena_mark){0};
    lex(p, true, &k);
    if (k.kind == FT_NL)
      continue;
    if (top ? k.kind == FT_EOF : is_punct(&k, '}')) {
      *close = k;
      return true;
    }
    if (k.kind != FT_IDENT)
      return false;
    struct fast_tok name = k;
    peek(p, true, &k);
    struct ast *item;
    if (is_punct(&k, '=')) {
      if (stream)
        return false; /* a top-level argument: the grammar reports it */
      lex(p, true, &k);
      struct ast *v = !lazy_arg(p, &name)                     ? expr(p, true)
                      : is_word(p, p->block_type, "variable") ? lazy_type(p)
                                                              : lazy_expr(p);
      if (!v)
        return false;
      item = ast_attr(p->c, lexeme(p, &name), v,
                      (struct span){name.start, v->span.end});
    } else {
      item = block(p, &name);
      if (!item)
        return false;
    }
    lex(p, true, &k);
    if (k.kind != FT_NL && !(k.kind == FT_EOF && top))
      return false;
    if (!stream)
      push(p, item);
    else if (p->c->failed)
      return false; /* reported: the grammar reports it again, in order */
    else if (!p->item(p->item_ctx, item))
      arena_reset(p->c->a, mark);
    if (k.kind == FT_EOF) {
      *close = k;
      return true;
    }
  }
}

/* A reader of c's whole text, past a leading byte order mark (ignored, as
** HCL does). */
static struct fp fp_start(struct parse_ctx *c) {
  struct fp p = {0};
  p.c = c;
  p.s.t = c->src->text;
  p.s.len = (uint32_t)c->src->len;
  if (p.s.len >= 3 && memcmp(p.s.t, "\xEF\xBB\xBF", 3) == 0)
    p.s.pos = 3;
  return p;
}

struct ast *parse_lazy(struct parse_ctx *c, const struct ast *x) {
  struct fp p = fp_start(c);
  p.s.pos = x->span.start;
  struct ast *e = expr(&p, true);
  free(p.stack);
  return e && !c->failed && e->span.end == x->span.end ? e : NULL;
}

bool parse_hcl_stream(struct parse_ctx *c, parse_item_fn item, void *ctx) {
  struct fp p = fp_start(c);
  p.lazy_type = true;
  p.item = item;
  p.item_ctx = ctx;
  struct fast_tok close;
  bool ok = body(&p, true, &close);
  free(p.stack);
  bytemap_free(&p.seen);
  bytemap_free(&p.rule_seen);
  tfr_arena_free(p.rule_keys);
  free(p.keybuf.p);
  return ok;
}

struct ast_file *parse_hcl_fast(struct parse_ctx *c) {
  if (c->start || c->expr_mode || c->template_mode || c->json || c->no_fast)
    return NULL;
  struct fp p = fp_start(c);
  uint32_t skip = p.s.pos;
  struct fast_tok close;
  struct ast *root = NULL;
  /* the nodes of a file that turns out to need the grammar (a map of
  ** 300,000 entries with a template in its last one) are given back */
  struct arena_mark mark = arena_mark(c->a);
  if (body(&p, true, &close)) {
    root = list(&p, AST_BODY, 0, (struct span){skip, p.s.len});
    if (ast_body_has_duplicate(root->items, root->n))
      root = NULL;
  }
  free(p.stack);
  if (!root) {
    arena_reset(c->a, mark);
    return NULL;
  }
  c->root = root;
  c->shallow = true;
  struct ast_file *f = tfr_arena_alloc(c->a, sizeof *f);
  f->src = c->src;
  f->body = root;
  f->json = false;
  return f;
}
