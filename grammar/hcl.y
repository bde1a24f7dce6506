/*
** HCL native syntax: bodies, blocks, attributes, expressions, templates.
**
** The scanner (hcl.l) produces raw tokens; lex_filter() in this file sits
** between it and the parser and decides which newlines matter and which
** identifiers are keywords, as HCL's own token peeker does.  Actions are
** one line and call the builders in src/syntax/ast_build.c.
*/
%code requires {
#include "base/diag_int.h"
#include "syntax/parse.h"
#define HCL_YYLTYPE struct span
#define HCL_YYLTYPE_IS_DECLARED 1
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                        \
  do {                                                                     \
    if (N) {                                                               \
      (Cur).start = YYRHSLOC(Rhs, 1).start;                                \
      (Cur).end = YYRHSLOC(Rhs, N).end;                                    \
    } else {                                                               \
      (Cur).start = (Cur).end = YYRHSLOC(Rhs, 0).end;                      \
    }                                                                      \
  } while (0)
typedef void *yyscan_t;
}

%code provides {
int hcl_lex_filter(HCL_YYSTYPE *lval, HCL_YYLTYPE *lloc, yyscan_t scanner,
                   struct parse_ctx *ctx);
}

%code {
#undef yylex
#define yylex hcl_lex_filter
static void hcl_yyerror(YYLTYPE *lloc, yyscan_t scanner,
                        struct parse_ctx *ctx, const char *msg);
#define YYSTACK_USE_ALLOCA 0
/* Brackets are bounded by the token filter; long prefix-operator chains
** (!!!!x) are left to ast_check_depth, so give bison room for them. */
#define YYMAXDEPTH 250000
static struct span sp(struct span a, struct span b) {
  struct span s = {a.start, b.end};
  return s;
}
}

%define api.pure full
%define api.prefix {hcl_yy}
%locations
%define parse.error custom
%define parse.lac full
%param {yyscan_t scanner}
%param {struct parse_ctx *ctx}
%expect 0

%union {
  struct ast *node;
  struct vec *vec;
  struct steps *steps;
  struct lexeme tok;
}

%token <tok> IDENT "identifier" NUMBER "number"
%token <tok> TLIT "string literal"
%token <tok> TINTERP "\"${\"" TCONTROL "\"%{\"" TSEQEND "end of template sequence"
%token <tok> OQUOTE "opening quote" CQUOTE "closing quote"
%token <tok> OHEREDOC "heredoc" CHEREDOC "heredoc end marker"
%token NEWLINE "newline"
%token EQ "==" NE "!=" LE "<=" GE ">=" AND "&&" OR "||"
%token FATARROW "=>" DCOLON "::"
%token <tok> ELLIPSIS "..."
%token FOR "for" IN "in" IF "if" ELSE "else" ENDIF "endif" ENDFOR "endfor"
%token LEXERR "invalid token"
%token START_BODY START_EXPR START_TEMPLATE
%token <tok> CTEMPLATE "end of template"

%type <node> item attribute block expr term tuple object forexpr call
%type <node> template label tpart body_oneline forhead forarrow forcond
%type <vec> items labels exprs args obj_items tparts
%type <steps> steps
%type <tok> fname forgroup

%right '?' ':'
%left OR
%left AND
%left EQ NE
%left '<' '>' LE GE
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY

%start start

%%

start
  : START_BODY file
  | START_EXPR expr      { ctx->root = $2; }
  | START_TEMPLATE tparts CTEMPLATE { ctx->root = ast_template(ctx, $2, false, false, @$); }
  ;

file
  : items                { ctx->root = ast_list(ctx, AST_BODY, $1, @$); }
  | items attribute      { ctx->root = ast_list(ctx, AST_BODY, vec_push(ctx, $1, $2), @$); }
  | items block          { ctx->root = ast_list(ctx, AST_BODY, vec_push(ctx, $1, $2), @$); }
  ;

items
  : %empty               { $$ = vec_new(ctx); }
  | items item           { parse_note_item(ctx, $1, $2); $$ = vec_push(ctx, $1, $2); }
  ;

item
  : attribute NEWLINE    { $$ = $1; }
  | block NEWLINE        { $$ = $1; }
  ;

attribute
  : IDENT '=' expr       { $$ = ast_attr(ctx, $1, $3, @$); }
  ;

block
  : IDENT labels '{' NEWLINE items '}'
      { $$ = ast_block(ctx, $1, $2, ast_list(ctx, AST_BODY, $5, sp(@3, @6)), @$); }
  | IDENT labels '{' body_oneline '}'
      { $$ = ast_block(ctx, $1, $2, $4, @$); if (!$4->n) $4->span = sp(@3, @5); }
  ;

body_oneline
  : %empty               { $$ = ast_list(ctx, AST_BODY, vec_new(ctx), @$); }
  | attribute            { $$ = ast_list(ctx, AST_BODY, vec_push(ctx, vec_new(ctx), $1), @$); }
  ;

labels
  : %empty               { $$ = vec_new(ctx); }
  | labels label         { $$ = vec_push(ctx, $1, $2); }
  ;

label
  : IDENT                { $$ = ast_string(ctx, $1, @$); }
  | OQUOTE tparts CQUOTE { $$ = ast_label(ctx, $2, @$); }
  ;

expr
  : term                 { $$ = $1; }
  | term steps           { $$ = ast_traverse(ctx, $1, $2); }
  | '-' expr %prec UNARY { $$ = ast_unary(ctx, OP_NEG, $2, @$); }
  | '!' expr %prec UNARY { $$ = ast_unary(ctx, OP_NOT, $2, @$); }
  | expr OR expr         { $$ = ast_binary(ctx, OP_OR, $1, $3, @$); }
  | expr AND expr        { $$ = ast_binary(ctx, OP_AND, $1, $3, @$); }
  | expr EQ expr         { $$ = ast_binary(ctx, OP_EQ, $1, $3, @$); }
  | expr NE expr         { $$ = ast_binary(ctx, OP_NE, $1, $3, @$); }
  | expr '<' expr        { $$ = ast_binary(ctx, OP_LT, $1, $3, @$); }
  | expr LE expr         { $$ = ast_binary(ctx, OP_LE, $1, $3, @$); }
  | expr '>' expr        { $$ = ast_binary(ctx, OP_GT, $1, $3, @$); }
  | expr GE expr         { $$ = ast_binary(ctx, OP_GE, $1, $3, @$); }
  | expr '+' expr        { $$ = ast_binary(ctx, OP_ADD, $1, $3, @$); }
  | expr '-' expr        { $$ = ast_binary(ctx, OP_SUB, $1, $3, @$); }
  | expr '*' expr        { $$ = ast_binary(ctx, OP_MUL, $1, $3, @$); }
  | expr '/' expr        { $$ = ast_binary(ctx, OP_DIV, $1, $3, @$); }
  | expr '%' expr        { $$ = ast_binary(ctx, OP_MOD, $1, $3, @$); }
  | expr '?' expr ':' expr { $$ = ast_cond(ctx, $1, $3, $5, @$); }
  ;

steps
  : '.' IDENT            { $$ = steps_push(ctx, NULL, (struct step){STEP_ATTR, sp(@1, @2), $2.s, $2.len, NULL}); }
  | '.' NUMBER           { $$ = steps_push(ctx, NULL, (struct step){STEP_LEGACY, sp(@1, @2), $2.s, $2.len, NULL}); }
  | '.' '*'              { $$ = steps_push(ctx, NULL, (struct step){STEP_SPLAT_ATTR, sp(@1, @2), NULL, 0, NULL}); }
  | '[' '*' ']'          { $$ = steps_push(ctx, NULL, (struct step){STEP_SPLAT_FULL, sp(@1, @3), NULL, 0, NULL}); }
  | '[' expr ']'         { $$ = steps_push(ctx, NULL, (struct step){STEP_INDEX, sp(@1, @3), NULL, 0, $2}); }
  | steps '.' IDENT      { $$ = steps_push(ctx, $1, (struct step){STEP_ATTR, sp(@2, @3), $3.s, $3.len, NULL}); }
  | steps '.' NUMBER     { $$ = steps_push(ctx, $1, (struct step){STEP_LEGACY, sp(@2, @3), $3.s, $3.len, NULL}); }
  | steps '.' '*'        { $$ = steps_push(ctx, $1, (struct step){STEP_SPLAT_ATTR, sp(@2, @3), NULL, 0, NULL}); }
  | steps '[' '*' ']'    { $$ = steps_push(ctx, $1, (struct step){STEP_SPLAT_FULL, sp(@2, @4), NULL, 0, NULL}); }
  | steps '[' expr ']'   { $$ = steps_push(ctx, $1, (struct step){STEP_INDEX, sp(@2, @4), NULL, 0, $3}); }
  ;

term
  : NUMBER               { $$ = ast_number(ctx, $1, @$); }
  | IDENT                { $$ = ast_name(ctx, $1, @$); }
  | template             { $$ = $1; }
  | '(' expr ')'         { $$ = ast_paren(ctx, $2, @$); }
  | tuple                { $$ = $1; }
  | object               { $$ = $1; }
  | forexpr              { $$ = $1; }
  | call                 { $$ = $1; }
  ;

template
  : OQUOTE tparts CQUOTE     { $$ = ast_template(ctx, $2, false, false, @$); }
  | OHEREDOC tparts CHEREDOC { $$ = ast_template(ctx, $2, true, $1.flags != 0, @$); }
  ;

tparts
  : %empty               { $$ = vec_new(ctx); }
  | tparts tpart         { $$ = vec_push(ctx, $1, $2); }
  ;

tpart
  : TLIT                 { $$ = ast_string(ctx, $1, @$); }
  | TINTERP expr TSEQEND { $$ = ast_tpart(ctx, TP_INTERP, NULL, NULL, $2, $1.flags | $3.flags, @$); }
  | TCONTROL IF expr TSEQEND { $$ = ast_tpart(ctx, TP_IF, NULL, NULL, $3, $1.flags | $4.flags, @$); }
  | TCONTROL ELSE TSEQEND    { $$ = ast_tpart(ctx, TP_ELSE, NULL, NULL, NULL, $1.flags | $3.flags, @$); }
  | TCONTROL ENDIF TSEQEND   { $$ = ast_tpart(ctx, TP_ENDIF, NULL, NULL, NULL, $1.flags | $3.flags, @$); }
  | TCONTROL FOR IDENT IN expr TSEQEND
      { $$ = ast_tpart(ctx, TP_FOR, NULL, &$3, $5, $1.flags | $6.flags, @$); }
  | TCONTROL FOR IDENT ',' IDENT IN expr TSEQEND
      { $$ = ast_tpart(ctx, TP_FOR, &$3, &$5, $7, $1.flags | $8.flags, @$); }
  | TCONTROL ENDFOR TSEQEND  { $$ = ast_tpart(ctx, TP_ENDFOR, NULL, NULL, NULL, $1.flags | $3.flags, @$); }
  ;

tuple
  : '[' ']'              { $$ = ast_list(ctx, AST_TUPLE, vec_new(ctx), @$); }
  | '[' exprs ']'        { $$ = ast_list(ctx, AST_TUPLE, $2, @$); }
  | '[' exprs ',' ']'    { $$ = ast_list(ctx, AST_TUPLE, $2, @$); }
  ;

exprs
  : expr                 { $$ = vec_push(ctx, vec_new(ctx), $1); }
  | exprs ',' expr       { $$ = vec_push(ctx, $1, $3); }
  ;

object
  : '{' '}'                      { $$ = ast_list(ctx, AST_OBJECT, vec_new(ctx), @$); }
  | '{' NEWLINE '}'              { $$ = ast_list(ctx, AST_OBJECT, vec_new(ctx), @$); }
  | '{' obj_items '}'            { $$ = ast_list(ctx, AST_OBJECT, $2, @$); }
  | '{' NEWLINE obj_items '}'    { $$ = ast_list(ctx, AST_OBJECT, $3, @$); }
  | '{' obj_items sep '}'        { $$ = ast_list(ctx, AST_OBJECT, $2, @$); }
  | '{' NEWLINE obj_items sep '}' { $$ = ast_list(ctx, AST_OBJECT, $3, @$); }
  ;

obj_items
  : expr '=' expr               { $$ = vec_pair(ctx, vec_new(ctx), $1, $3); }
  | expr ':' expr               { $$ = vec_pair(ctx, vec_new(ctx), $1, $3); }
  | obj_items sep expr '=' expr { $$ = vec_pair(ctx, $1, $3, $5); }
  | obj_items sep expr ':' expr { $$ = vec_pair(ctx, $1, $3, $5); }
  ;

sep : ',' | NEWLINE | ',' NEWLINE ;

forexpr
  : '[' forhead ':' expr forarrow forgroup forcond ']'
      { $$ = ast_for(ctx, $2, $4, $5, $6, $7, false, @$); }
  | '{' forhead ':' expr forarrow forgroup forcond '}'
      { $$ = ast_for(ctx, $2, $4, $5, $6, $7, true, @$); }
  ;

forhead
  : FOR IDENT IN expr            { $$ = ast_for_head(ctx, NULL, &$2, $4); }
  | FOR IDENT ',' IDENT IN expr  { $$ = ast_for_head(ctx, &$2, &$4, $6); }
  ;

forarrow
  : %empty               { $$ = NULL; }
  | FATARROW expr        { $$ = $2; }
  ;

forgroup
  : %empty               { $$ = (struct lexeme){NULL, 0, 0}; }
  | ELLIPSIS             { $$ = $1; }
  ;

forcond
  : %empty               { $$ = NULL; }
  | IF expr              { $$ = $2; }
  ;

call
  : fname '(' ')'             { $$ = ast_call(ctx, $1, vec_new(ctx), false, @$); }
  | fname '(' args ')'        { $$ = ast_call(ctx, $1, $3, false, @$); }
  | fname '(' args ',' ')'    { $$ = ast_call(ctx, $1, $3, false, @$); }
  | fname '(' args ELLIPSIS ')'     { $$ = ast_call(ctx, $1, $3, true, @$); }
  ;

fname
  : IDENT                { $$ = $1; }
  | fname DCOLON IDENT   { $$ = $1; $$.len = (uint32_t)(@3.end - @1.start); }
  ;

args
  : expr                 { $$ = vec_push(ctx, vec_new(ctx), $1); }
  | args ',' expr        { $$ = vec_push(ctx, $1, $3); }
  ;

%%
#undef yylex
#include "syntax/hcl_lex.h"
#include "hcl.lex.h"
#include "base/strutil.h"

/* Bison calls this only when its stack is exhausted: the input nests
** deeper than any real configuration (syntax errors go through
** yyreport_syntax_error below). */
static void hcl_yyerror(YYLTYPE *lloc, yyscan_t scanner,
                        struct parse_ctx *ctx, const char *msg) {
  (void)scanner;
  (void)msg;
  if (!ctx->failed)
    parse_error(ctx, *lloc, "Nesting too deep",
                "The expression nests too deeply to be parsed; no real "
                "configuration needs this many levels.");
}

/* ---- token filter ------------------------------------------------------ */

static struct frame *top(struct lex_state *x) {
  return x->nframes ? &x->frames[x->nframes - 1] : NULL;
}

/* Tokens that can end an operand: a "[" after them is an index. */
static bool ends_operand(int t) {
  return t == IDENT || t == NUMBER || t == ')' || t == ']' || t == '}' ||
         t == CQUOTE || t == CHEREDOC || t == '*';
}

static bool push_frame(struct lex_state *x, enum frame_kind k,
                       struct span at) {
  if (x->nframes >= AST_MAX_DEPTH) {
    parse_error(x->ctx, at, "Nesting too deep",
                "Brackets, braces and templates may be nested at most 1000 "
                "levels deep.");
    return false;
  }
  if (x->nframes == x->capframes) {
    x->capframes = x->capframes ? x->capframes * 2 : 32;
    x->frames = realloc(x->frames, x->capframes * sizeof *x->frames);
    if (!x->frames)
      abort();
  }
  struct frame *f = &x->frames[x->nframes++];
  f->kind = (uint8_t)k;
  f->ctl = 0;
  f->start = at.start;
  f->kw = 0;
  f->name = x->last == IDENT ? x->prev_loc.start : at.start;
  f->expr = x->last != IDENT && x->last != CQUOTE;
  /* a "*" ends an operand only as the splat ".*"; after a multiplication
  ** "[" opens a tuple (or a for expression) */
  if (k == FR_BRACKET && ends_operand(x->last) &&
      !(x->last == '*' && x->before != '.'))
    f->kind = FR_INDEX;
  return true;
}

static int raw_next(YYSTYPE *lval, YYLTYPE *lloc, yyscan_t scanner,
                    struct lex_state *x) {
  if (x->have_peek) {
    x->have_peek = false;
    lval->tok = x->peek_val;
    *lloc = x->peek_loc;
    return x->peek_tok;
  }
  return hcl_yylex(lval, lloc, scanner);
}

static bool ident_is(const YYSTYPE *lval, const char *kw) {
  size_t n = strlen(kw);
  return lval->tok.len == n && memcmp(lval->tok.s, kw, n) == 0;
}

/* The identifier after "%{" must be a directive keyword. */
static int directive_keyword(struct lex_state *x, const YYSTYPE *lval,
                             YYLTYPE *lloc) {
  static const char *const kws[] = {"if", "for", "else", "endif", "endfor"};
  static const int toks[] = {IF, FOR, ELSE, ENDIF, ENDFOR};
  for (int i = 0; i < 5; i++)
    if (ident_is(lval, kws[i]))
      return toks[i];
  const char *hint = "";
  for (int i = 0; i < 5; i++)
    if (str_distance(lval->tok.s, lval->tok.len, kws[i], strlen(kws[i])) < 3) {
      hint = tfr_arena_printf(x->ctx->a, " Did you mean \"%s\"?", kws[i]);
      break;
    }
  parse_error(x->ctx, *lloc, "Invalid template control keyword",
              tfr_arena_printf(x->ctx->a,
                               "\"%.*s\" is not a valid template control "
                               "keyword.%s",
                               (int)lval->tok.len, lval->tok.s, hint));
  return 0;
}

/* Decide whether an identifier is a keyword here, as HCL's parser does:
** "for" right after "[" or an expression "{"; "in" and "if" inside a for
** expression; directive keywords right after "%{". */
static int classify_ident(struct lex_state *x, const YYSTYPE *lval,
                          YYLTYPE *lloc) {
  struct frame *f = top(x);
  if (x->last == TCONTROL) {
    int t = directive_keyword(x, lval, lloc);
    if (f) {
      f->kw = (uint8_t)(t == FOR ? 1 : t == IF ? 2 : t == ELSE ? 3
                        : t == ENDIF ? 4 : 5);
      if (t == FOR)
        f->ctl = 2;
    }
    return t;
  }
  if (f && ((x->last == '[' && f->kind == FR_BRACKET) ||
            (x->last == '{' && f->expr)) &&
      ident_is(lval, "for")) {
    f->kind = FR_FOR;
    f->ctl = 2; /* in the for header, until "in" */
    return FOR;
  }
  if (f && f->ctl == 2 && x->last != '.' && ident_is(lval, "in")) {
    f->ctl = 1;
    return IN;
  }
  if (f && f->kind == FR_FOR && f->ctl == 1 && x->last != '.' &&
      ident_is(lval, "if"))
    return IF;
  return IDENT;
}

/* Keep the frame stack in step with the bracket tokens, and remember
** what the token did, so that error messages can look at the frames as
** they were before the offending token. */
static bool track_frames(struct lex_state *x, int t, YYLTYPE *lloc) {
  enum frame_kind k;
  x->frame_delta = 0;
  switch (t) {
  case '(':
    k = FR_PAREN;
    break;
  case '[':
    k = FR_BRACKET;
    break;
  case '{':
    k = FR_BRACE;
    break;
  case TINTERP:
  case TCONTROL:
    k = FR_SEQ;
    break;
  case OQUOTE:
  case OHEREDOC:
    k = FR_TEMPLATE;
    break;
  case ')':
  case ']':
  case '}':
  case TSEQEND:
  case CQUOTE:
  case CHEREDOC:
    if (x->nframes) {
      x->popped = x->frames[--x->nframes];
      x->frame_delta = -1;
    }
    return true;
  default:
    return true;
  }
  x->frame_delta = 1;
  return push_frame(x, k, *lloc);
}

static bool newlines_matter(struct lex_state *x) {
  struct frame *f = top(x);
  return f ? f->kind == FR_BRACE : !x->ctx->expr_mode;
}

/* After an expression "{" a newline may hide a "for": look past it. */
static int brace_newline(YYSTYPE *lval, YYLTYPE *lloc, yyscan_t scanner,
                         struct lex_state *x) {
  YYSTYPE v;
  YYLTYPE l;
  int t;
  do
    t = raw_next(&v, &l, scanner, x);
  while (t == NEWLINE);
  if (t == IDENT && ident_is(&v, "for")) {
    *lval = v;
    *lloc = l;
    return IDENT;
  }
  x->have_peek = true;
  x->peek_tok = t;
  x->peek_val = v.tok;
  x->peek_loc = l;
  return NEWLINE;
}

int hcl_lex_filter(YYSTYPE *lval, YYLTYPE *lloc, yyscan_t scanner,
                   struct parse_ctx *ctx) {
  struct lex_state *x = hcl_yyget_extra(scanner);
  if (!x->started) {
    x->started = true;
    lloc->start = lloc->end = x->off;
    return ctx->template_mode ? START_TEMPLATE
           : ctx->expr_mode   ? START_EXPR
                              : START_BODY;
  }
  for (;;) {
    if (ctx->failed)
      return 0;
    int t = raw_next(lval, lloc, scanner, x);
    if (t == LEXERR && (ctx->failed || !x->told))
      return 0;
    if (t == LEXERR)
      return LEXERR; /* reported by hcl_prescan: the parser reacts */
    if (t == 0) {
      lloc->start = lloc->end = (uint32_t)ctx->src->len;
      x->before = x->last;
      x->before_loc = x->prev_loc;
      x->last = 0;
      x->frame_delta = 0;
      return 0;
    } else if (t == NEWLINE) {
      struct frame *f = top(x);
      if (!newlines_matter(x) || x->last == NEWLINE || x->last == 0)
        continue;
      if (x->last == '{' && f && f->expr)
        t = brace_newline(lval, lloc, scanner, x);
    }
    if (t == IDENT)
      t = classify_ident(x, lval, lloc);
    else if (x->last == TCONTROL) {
      parse_error(ctx, *lloc, "Invalid template directive",
                  "A template directive keyword (\"if\", \"for\", etc) is "
                  "expected at the beginning of a %{ sequence.");
      return 0;
    }
    x->star_before = x->star;
    if (t == '*' && x->last == '.')
      x->star = *lloc;
    else if (t != '.' && t != IDENT && t != NUMBER && t != '*')
      x->star = (struct span){0, 0};
    if (t == OQUOTE)
      x->label = (x->last == IDENT || x->last == CQUOTE) &&
                 newlines_matter(x);
    if (t == 0 || !track_frames(x, t, lloc))
      return 0;
    x->before = x->last;
    x->before_loc = x->prev_loc;
    x->last = t;
    x->prev_loc = *lloc;
    return t;
  }
}

/* ---- syntax errors ----------------------------------------------------- */

#define S(c) YYTRANSLATE(c)

/* The frame @p depth levels out from the one the parser was in before
** reading the lookahead token (0 = that frame), or NULL. */
static const struct frame *ctx_frame(const struct lex_state *x,
                                     uint32_t depth) {
  int64_t i = (int64_t)x->nframes - 1 - depth;
  if (x->frame_delta > 0)
    i--;
  if (x->frame_delta < 0)
    i++;
  if (i == (int64_t)x->nframes && x->frame_delta < 0)
    return &x->popped;
  return i >= 0 && i < (int64_t)x->nframes ? &x->frames[i] : NULL;
}

static const char *const kw_names[] = {"", "for", "if", "else", "endif",
                                       "endfor"};

static const char *marker_summary(struct parse_ctx *ctx,
                                  const struct frame *f) {
  return tfr_arena_printf(ctx->a, "Extra characters in %s marker",
                          kw_names[f->kw < 6 ? f->kw : 0]);
}

#define MARKER_DETAIL                                                      \
  "Expected a closing brace to end the sequence, but found extra "         \
  "characters."

struct expected {
  bool has[YYNTOKENS];
};

static bool has(const struct expected *e, yysymbol_kind_t k) {
  return k >= 0 && k < YYNTOKENS && e->has[k];
}

static struct span frame_span(const struct lex_state *x,
                              const struct frame *f) {
  (void)x;
  struct span s = {f->start, f->start + 1};
  return s;
}

static bool for_error(struct parse_ctx *ctx, struct lex_state *x,
                      const struct expected *e, struct span at);

/* The end of the file inside something: name what is left open. */
static void eof_error(struct parse_ctx *ctx, struct lex_state *x,
                      const struct expected *e, struct span at) {
  const struct frame *f = ctx_frame(x, 0);
  if (has(e, YYSYMBOL_NUMBER) && !has(e, YYSYMBOL_YYEOF)) {
    parse_error(ctx, at, "Missing expression",
                "Expected the start of an expression, but found the end of "
                "the file.");
    return;
  }
  if (!f && has(e, S('{')) && has(e, YYSYMBOL_OQUOTE) && !has(e, S('='))) {
    /* a block header cut short by the end of the file */
    parse_error(ctx, at, "Invalid block definition",
                "Either a quoted string block label or an opening brace "
                "(\"{\") is expected here.");
    return;
  }
  if (!f) {
    parse_error(ctx, at, "Syntax error", "Unexpected end of file.");
    return;
  }
  switch (f->kind) {
  case FR_BRACE:
    if (f->expr)
      parse_error(ctx, frame_span(x, f),
                  "Unterminated object constructor expression",
                  "There is no corresponding closing brace before the end "
                  "of the file. This may be caused by incorrect brace "
                  "nesting elsewhere in this file.");
    else
      parse_error(ctx, frame_span(x, f), "Unclosed configuration block",
                  "There is no closing brace for this block before the end "
                  "of the file. This may be caused by incorrect brace "
                  "nesting elsewhere in this file.");
    return;
  case FR_FOR:
    if (!for_error(ctx, x, e, at))
      parse_error(ctx, at, "Invalid 'for' expression",
                  "Extra characters after the end of the 'for' expression.");
    return;
  case FR_INDEX:
    if (x->before == '*')
      parse_error(ctx, at, "Missing close bracket on splat index",
                  "The star for a full splat operator must be immediately "
                  "followed by a closing bracket (\"]\").");
    else
      parse_error(ctx, at, "Missing close bracket on index",
                  "The index operator must end with a closing bracket "
                  "(\"]\").");
    return;
  case FR_BRACKET:
    parse_error(ctx, frame_span(x, f),
                "Unterminated tuple constructor expression",
                "There is no corresponding closing bracket before the end "
                "of the file. This may be caused by incorrect bracket "
                "nesting elsewhere in this file.");
    return;
  case FR_PAREN:
    if (has(e, S(',')))
      parse_error(ctx, (struct span){f->name, f->start + 1},
                  "Unterminated function call",
                  "There is no closing parenthesis for this function call "
                  "before the end of the file. This may be caused by "
                  "incorrect parenthesis nesting elsewhere in this file.");
    else
      parse_error(ctx, at, "Unbalanced parentheses",
                  "Expected a closing parenthesis to terminate the "
                  "expression.");
    return;
  case FR_SEQ:
    if (f->kw) {
      parse_error(ctx, at, marker_summary(ctx, f), MARKER_DETAIL);
      return;
    }
    parse_error(ctx, frame_span(x, f),
                "Unclosed template interpolation sequence",
                "There is no closing brace for this interpolation sequence "
                "before the end of the file. This might be caused by "
                "incorrect nesting inside the given expression.");
    return;
  default:
    parse_error(ctx, at, "Unterminated template string",
                "No closing marker was found for the string.");
  }
}

static void err(struct parse_ctx *ctx, struct span at, const char *summary,
                const char *detail) {
  parse_error(ctx, at, summary, detail);
}

/* Errors inside a for expression: which part of the header is missing. */
static bool for_error(struct parse_ctx *ctx, struct lex_state *x,
                      const struct expected *e, struct span at) {
  const char *d = NULL;
  const struct frame *f = ctx_frame(x, 0);
  bool directive = f && f->kind == FR_SEQ;
  if (x->before == FOR && has(e, YYSYMBOL_IDENT))
    d = directive ? "For directive requires variable name after 'for'."
                  : "For expression requires variable name after 'for'.";
  else if (x->before == ',' && f && f->ctl == 2)
    d = directive ? "For directive requires value variable name after comma."
                  : "For expression requires value variable name after "
                    "comma.";
  else if (has(e, YYSYMBOL_IN))
    d = directive ? "For directive requires 'in' keyword after names."
                  : "For expression requires the 'in' keyword after its "
                    "name declarations.";
  else if (f && f->kind == FR_FOR && has(e, S(':')) && !has(e, S('=')))
    d = "For expression requires a colon after the collection expression.";
  else if (f && f->kind == FR_FOR && f->ctl != 2 && !directive &&
           (has(e, S(']')) || has(e, S('}'))) && !has(e, S(',')))
    d = "Extra characters after the end of the 'for' expression.";
  if (!d)
    return false;
  err(ctx, at, directive ? "Invalid 'for' directive" : "Invalid 'for' expression",
      d);
  return true;
}

/* Was the token before the lookahead a name after "::"? */
static bool after_dcolon(struct parse_ctx *ctx, const struct lex_state *x) {
  uint32_t i = x->before_loc.start;
  const char *t = ctx->src->text;
  while (i > 0 && (t[i - 1] == ' ' || t[i - 1] == '\t'))
    i--;
  return x->before == IDENT && i >= 2 && t[i - 1] == ':' && t[i - 2] == ':';
}

/* Errors after a complete expression: what separator was missing. */
static bool separator_error(struct parse_ctx *ctx, struct lex_state *x,
                            const struct expected *e, yysymbol_kind_t la,
                            struct span at) {
  const struct frame *f = ctx_frame(x, 0);
  if (has(e, YYSYMBOL_TSEQEND) && f && f->kind == FR_SEQ) {
    const struct frame *up = ctx_frame(x, 1);
    bool in_quotes = up && up->kind == FR_TEMPLATE &&
                     ctx->src->text[up->start] == '"';
    if (f->kw)
      err(ctx, at, marker_summary(ctx, f), MARKER_DETAIL);
    else if (la == S(':'))
      err(ctx, at, "Extra characters after interpolation expression",
          "Template interpolation doesn't expect a colon at this location. "
          "Did you intend this to be a literal sequence to be processed as "
          "part of another language? If so, you can escape it by starting "
          "with \"$${\" instead of just \"${\".");
    else if (la == YYSYMBOL_OQUOTE && in_quotes)
      err(ctx, frame_span(x, f), "Unclosed template interpolation sequence",
          "There is no closing brace for this interpolation sequence before "
          "the end of the quoted template. This might be caused by "
          "incorrect nesting inside the given expression.");
    else
      err(ctx, at, "Extra characters after interpolation expression",
          "Expected a closing brace to end the interpolation expression, "
          "but found extra characters.\n\nThis can happen when you include "
          "interpolation syntax for another language, such as shell "
          "scripting, but forget to escape the interpolation start token. "
          "If this is an embedded sequence for another language, escape it "
          "by starting with \"$${\" instead of just \"${\".");
    return true;
  }
  if (has(e, S('=')) && has(e, S(':')) && f && f->kind == FR_BRACE) {
    if (la == YYSYMBOL_NEWLINE || la == S(','))
      err(ctx, at, "Missing attribute value",
          "Expected an attribute value, introduced by an equals sign "
          "(\"=\").");
    else if (la == YYSYMBOL_IDENT)
      err(ctx, at, "Missing key/value separator",
          "Expected an equals sign (\"=\") to mark the beginning of the "
          "attribute value. If you intended to given an attribute name "
          "containing periods or spaces, write the name in quotes to "
          "create a string literal.");
    else
      err(ctx, at, "Missing key/value separator",
          "Expected an equals sign (\"=\") to mark the beginning of the "
          "attribute value.");
    return true;
  }
  if (has(e, S(',')) && has(e, S('}')) && f && f->kind == FR_BRACE) {
    err(ctx, at, "Missing attribute separator",
        "Expected a newline or comma to mark the beginning of the next "
        "attribute.");
    return true;
  }
  if (has(e, S(',')) && has(e, S(']'))) {
    err(ctx, at, "Missing item separator",
        "Expected a comma to mark the beginning of the next item.");
    return true;
  }
  if (has(e, S(',')) && has(e, S(')'))) {
    err(ctx, at, "Missing argument separator",
        "A comma is required to separate each function argument from the "
        "next.");
    return true;
  }
  if (x->before == ELLIPSIS && has(e, S(')'))) {
    err(ctx, x->before_loc, "Missing closing parenthesis",
        "An expanded function argument (with ...) must be immediately "
        "followed by closing parentheses.");
    return true;
  }
  if (has(e, S('(')) && has(e, YYSYMBOL_DCOLON) && after_dcolon(ctx, x)) {
    err(ctx, at, "Missing open parenthesis",
        "Function selector must be followed by an open parenthesis to begin "
        "the function call.");
    return true;
  }
  if (has(e, S(')'))) {
    err(ctx, at, "Unbalanced parentheses",
        "Expected a closing parenthesis to terminate the expression.");
    return true;
  }
  if (has(e, S(']')) && x->before == '*') {
    err(ctx, at, "Missing close bracket on splat index",
        "The star for a full splat operator must be immediately followed "
        "by a closing bracket (\"]\").");
    return true;
  }
  if (has(e, S(']'))) {
    err(ctx, at, "Missing close bracket on index",
        "The index operator must end with a closing bracket (\"]\").");
    return true;
  }
  if (has(e, S(':')) && has(e, S('+'))) {
    err(ctx, at, "Missing false expression in conditional",
        "The conditional operator (...?...:...) requires a false "
        "expression, delimited by a colon.");
    return true;
  }
  return false;
}

/* Errors where a body item, label or block brace was expected. */
static bool body_error(struct parse_ctx *ctx, struct lex_state *x,
                       const struct expected *e, yysymbol_kind_t la,
                       struct span at, struct span prev) {
  (void)x;
  if (has(e, S('=')) && !has(e, S('{')) && !has(e, S(':')) &&
      x->before == IDENT) {
    /* a one-line block: only "name = value" may follow its "{" */
    if (la == S('{') || la == YYSYMBOL_OQUOTE || la == YYSYMBOL_IDENT)
      err(ctx, (struct span){prev.start, at.end},
          "Argument definition required",
          tfr_arena_printf(ctx->a,
                           "A single-line block definition can contain only "
                           "a single argument. If you meant to define "
                           "argument \"%.*s\", use an equals sign to assign "
                           "it a value. To define a nested block, place it "
                           "on a line of its own within its parent block.",
                           (int)(prev.end - prev.start),
                           ctx->src->text + prev.start));
    else
      err(ctx, prev, "Argument or block definition required",
          "An argument or block definition is required here. To set an "
          "argument, use the equals sign \"=\" to introduce the argument "
          "value.");
    return true;
  }
  if (has(e, YYSYMBOL_NEWLINE) && has(e, YYSYMBOL_IDENT) &&
      x->before == '{') {
    err(ctx, at, "Argument or block definition required",
        "An argument or block definition is required here.");
    return true;
  }
  if (x->before == '}' && has(e, YYSYMBOL_NEWLINE) && !has(e, S('+'))) {
    err(ctx, at, "Missing newline after block definition",
        "A block definition must end with a newline.");
    return true;
  }
  if (has(e, S('=')) && has(e, S('{'))) {
    err(ctx, prev, "Argument or block definition required",
        "An argument or block definition is required here. To set an "
        "argument, use the equals sign \"=\" to introduce the argument "
        "value.");
    return true;
  }
  if (has(e, S('{')) && has(e, YYSYMBOL_OQUOTE)) {
    if (la == S('='))
      err(ctx, at, "Invalid block definition",
          "The equals sign \"=\" indicates an argument definition, and must "
          "not be used when defining a block.");
    else if (la == YYSYMBOL_NEWLINE)
      err(ctx, at, "Invalid block definition",
          "A block definition must have block content delimited by \"{\" "
          "and \"}\", starting on the same line as the block header.");
    else
      err(ctx, at, "Invalid block definition",
          "Either a quoted string block label or an opening brace (\"{\") "
          "is expected here.");
    return true;
  }
  if (has(e, YYSYMBOL_NEWLINE) && has(e, S('+')) && !has(e, S('}'))) {
    if (la == S(','))
      err(ctx, at, "Unexpected comma after argument",
          "Argument definitions must be separated by newlines, not commas. "
          "An argument definition must end with a newline.");
    else
      err(ctx, at, "Missing newline after argument",
          "An argument definition must end with a newline.");
    return true;
  }
  if (has(e, S('}')) && has(e, S('+')) && !has(e, S(','))) {
    if (la == S(','))
      err(ctx, at, "Invalid single-argument block definition",
          "Single-line block syntax can include only one argument "
          "definition. To define multiple arguments, use the multi-line "
          "block syntax with one argument definition per line.");
    else if (la == YYSYMBOL_NEWLINE)
      err(ctx, at, "Invalid single-argument block definition",
          "An argument definition on the same line as its containing block "
          "creates a single-line block definition, which must also be "
          "closed on the same line. Place the block's closing brace "
          "immediately after the argument definition.");
    else
      err(ctx, at, "Invalid single-argument block definition",
          "A single-line block definition must end with a closing brace "
          "immediately after its single argument definition.");
    return true;
  }
  if (has(e, YYSYMBOL_IDENT) && !has(e, YYSYMBOL_NUMBER)) {
    if (la == YYSYMBOL_OQUOTE)
      err(ctx, at, "Invalid argument name",
          "Argument names must not be quoted.");
    else
      err(ctx, at, "Argument or block definition required",
          "An argument or block definition is required here.");
    return true;
  }
  return false;
}

static int yyreport_syntax_error(const yypcontext_t *yyctx, yyscan_t scanner,
                                 struct parse_ctx *ctx) {
  if (ctx->failed)
    return 0;
  struct lex_state *x = hcl_yyget_extra(scanner);
  struct expected e = {{false}};
  yysymbol_kind_t list[YYNTOKENS];
  int n = yypcontext_expected_tokens(yyctx, list, YYNTOKENS);
  for (int i = 0; i < n; i++)
    e.has[list[i]] = true;
  yysymbol_kind_t la = yypcontext_token(yyctx);
  struct span at = *yypcontext_location(yyctx);
  struct span prev = x->before_loc;
  if (la == YYSYMBOL_YYEOF) {
    eof_error(ctx, x, &e, at);
    return 0;
  }
  if (la == YYSYMBOL_LEXERR && x->bad_in_string) {
    if (x->label)
      err(ctx, at, "Invalid string literal",
          "This item is not valid in a string literal.");
    else
      err(ctx, at, "Unterminated template string",
          "No closing marker was found for the string.");
    return 0;
  }
  if (ctx->expr_mode && has(&e, YYSYMBOL_YYEOF) && !ctx_frame(x, 0)) {
    err(ctx, at, "Extra characters after expression",
        "An expression was successfully parsed, but extra characters were "
        "found after it.");
    return 0;
  }
  if (x->before == '.' && has(&e, YYSYMBOL_IDENT)) {
    /* inside a .* splat, HCL points at that splat's star */
    err(ctx, x->star_before.end ? x->star_before : at,
        "Invalid attribute name",
        "An attribute name is required after a dot.");
    return 0;
  }
  if (x->before == DCOLON) {
    err(ctx, at, "Missing function name",
        "Function scope resolution symbol :: must be followed by a "
        "function name in this scope.");
    return 0;
  }
  if (has(&e, YYSYMBOL_NUMBER) && has(&e, YYSYMBOL_OQUOTE) &&
      !has(&e, S(','))) {
    err(ctx, at, "Invalid expression",
        "Expected the start of an expression, but found an invalid "
        "expression token.");
    return 0;
  }
  if (for_error(ctx, x, &e, at) || separator_error(ctx, x, &e, la, at) ||
      body_error(ctx, x, &e, la, at, prev))
    return 0;
  if (has(&e, YYSYMBOL_NUMBER)) {
    err(ctx, at, "Invalid expression",
        "Expected the start of an expression, but found an invalid "
        "expression token.");
    return 0;
  }
  err(ctx, at, "Syntax error",
      tfr_arena_printf(ctx->a, "Unexpected %s here.", yysymbol_name(la)));
  return 0;
}

/* ---- entry point ------------------------------------------------------- */

/* A scanner over c's text from skip on, in place (see parse_hcl), for x. */
static yyscan_t scan_open(struct parse_ctx *c, struct lex_state *x,
                          size_t skip, YY_BUFFER_STATE *buf) {
  x->ctx = c;
  x->off = (uint32_t)skip;
  yyscan_t scanner;
  hcl_yylex_init_extra(x, &scanner);
  *buf = hcl_yy_scan_buffer((char *)c->src->text + skip,
                            c->src->len - skip + 2, scanner);
  if (c->template_mode)
    hcl_lex_begin_template(scanner);
  return scanner;
}

static void scan_close(struct lex_state *x, yyscan_t scanner,
                       YY_BUFFER_STATE buf) {
  hcl_lex_restore(scanner);
  hcl_yy_delete_buffer(buf, scanner);
  hcl_yylex_destroy(scanner);
  free(x->braces);
  free(x->heredocs);
  free(x->lit);
  free(x->frames);
}

/* A scan of the whole text for token-level problems only (an invalid
** character, a newline in a quoted string, a bitwise operator...),
** reported before any syntax error, with HCL's limits per kind, as its
** checkInvalidTokens does; the parse after it only reacts to them. */
static void hcl_prescan(struct parse_ctx *c, size_t skip) {
  struct lex_state x = {0};
  x.prescan = true;
  YY_BUFFER_STATE buf;
  yyscan_t scanner = scan_open(c, &x, skip, &buf);
  YYSTYPE v;
  YYLTYPE l;
  uint32_t last = UINT32_MAX;
  for (int stuck = 0; stuck < 3;) {
    /* other errors are the parse's to report: a bad escape in a string
    ** leaves the scanner where it was (ESCERR); any other ends the scan */
    if (hcl_yylex(&v, &l, scanner) == 0 || x.lexerr)
      break;
    stuck = l.start == last ? stuck + 1 : 0; /* an end-of-file rule */
    last = l.start;
  }
  scan_close(&x, scanner, buf);
}

/* One run of the grammar over the text from skip on; told: the token-level
** problems were reported by hcl_prescan. */
static void run_grammar(struct parse_ctx *c, size_t skip, bool told) {
  struct lex_state x = {0};
  x.told = told;
  YY_BUFFER_STATE buf;
  yyscan_t scanner = scan_open(c, &x, skip, &buf);
  hcl_yyparse(scanner, c);
  scan_close(&x, scanner, buf);
  free(c->scratch);
  c->scratch = NULL;
  c->top = c->scratch_cap = 0;
}

struct ast_file *parse_hcl(struct parse_ctx *c) {
  struct ast_file *fast = parse_hcl_fast(c);
  if (fast)
    return fast;
  size_t skip = c->start;
  if (!skip && c->src->len >= 3 &&
      memcmp(c->src->text, "\xEF\xBB\xBF", 3) == 0)
    skip = 3; /* a leading byte order mark is ignored, as HCL does */
  /* Scan the text in place: flex needs the two NULs src_file keeps after
  ** it, and puts back what it changed (hcl_lex_restore).  Meanwhile a
  ** byte after the current token may be a NUL: positions (diagnostics)
  ** must not count lines then, so the line table is built first. */
  src_lines(c->src);
  size_t before = tfr_diags_count(c->diags);
  run_grammar(c, skip, false);
  if (c->failed && !c->start) {
    /* HCL reports the token-level problems of the whole file before any
    ** syntax error: again, in that order (a recovery parse's own
    ** diagnostics are dropped anyway) */
    diags_remove(c->diags, before, tfr_diags_count(c->diags));
    c->failed = false;
    c->root = NULL;
    c->top_items = NULL;
    free(c->partial);
    c->partial = NULL;
    c->npartial = c->cap_partial = 0;
    c->err_at = 0;
    hcl_prescan(c, skip);
    bool bad_tokens = tfr_diags_count(c->diags) > before;
    run_grammar(c, skip, true);
    if (bad_tokens && !c->failed) { /* cannot be: the parse meets them */
      c->failed = true;
      c->err_at = (uint32_t)c->src->len;
    }
  }
  if (c->root && !c->expr_mode && !c->template_mode)
    c->root->span = (struct span){(uint32_t)skip, (uint32_t)c->src->len};
  struct ast_file *f = tfr_arena_alloc(c->a, sizeof *f);
  f->src = c->src;
  f->body = c->failed ? NULL : c->root;
  f->json = false;
  if (c->failed && c->npartial) {
    struct ast *b = ast_new(c, AST_BODY, (struct span){0, 0});
    b->items = tfr_arena_alloc(c->a, c->npartial * sizeof *b->items);
    memcpy(b->items, c->partial, c->npartial * sizeof *b->items);
    b->n = c->npartial;
    f->partial = b;
  }
  free(c->partial);
  c->partial = NULL;
  return f;
}
