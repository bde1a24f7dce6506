/*
** Internal interface between the scanners, the grammars and the AST
** builders (src/syntax/ast_build.c).
**
** A fast-path twin exists: syntax/parse_fast.c parses files made only of
** the plain subset of HCL (blocks, attributes, literals) by hand and
** builds the very tree the grammar builds; anything else goes to the
** grammar.  The suite's `parse-fast-diff` test (every .tf of the fixtures
** and the corpus both ways: kinds, spans, text) and the fuzz target
** fuzz_hcl keep them equal.
*/
#ifndef TFR_PARSE_H
#define TFR_PARSE_H

#include <stdbool.h>
#include <stdint.h>

#include "syntax/ast.h"
#include "syntax/source.h"
#include "tfresolve/diag.h"
#include "tfresolve/syntax.h"

/*
** A list of nodes being built by the grammar.  While open, its items sit
** on the parse's scratch stack (lists nest strictly in an LR parse, so one
** stack serves them all); vec_close() moves them into the arena at their
** exact size, so lists cost no doubling garbage.  v is NULL until then.
*/
struct vec {
  struct ast **v;
  uint32_t n, cap;
  uint32_t start; /* where the items begin on the scratch stack */
};

/* A lexeme: where, and its (possibly unescaped) text. */
struct lexeme {
  const char *s;
  uint32_t len;
  uint16_t flags; /* AST_F_STRIP_L / AST_F_STRIP_R / AST_F_HEREDOC */
};

/* One step after an expression term: .name, [key], .0, .*, [*]. */
enum step_kind {
  STEP_ATTR,
  STEP_INDEX,
  STEP_LEGACY,
  STEP_SPLAT_ATTR,
  STEP_SPLAT_FULL
};
struct step {
  enum step_kind kind;
  struct span span;
  const char *name; /* ATTR, LEGACY (digits) */
  uint32_t len;
  struct ast *key; /* INDEX */
};
struct steps {
  struct step *v;
  uint32_t n, cap;
};

struct parse_ctx {
  tfr_arena *a;
  tfr_diags *diags;
  struct src_file *src;
  struct ast *root;
  bool failed;  /* an error was reported: stay quiet, stop soon */
  bool shallow; /* parse_fast.c built the tree: its depth is bounded */
  bool json;
  bool expr_mode;       /* a standalone expression, not a file body */
  bool template_mode;   /* a bare template (JSON strings of .tf.json) */
  bool no_fast;         /* the grammar only (tests compare the two parsers) */
  struct ast **scratch; /* items of the open vecs (malloc'd) */
  uint32_t top, scratch_cap;
  uint32_t start;        /* byte to start scanning at (recovery) */
  uint32_t err_at;       /* where the first error was reported */
  struct vec *top_items; /* the file body's own list */
  struct vec *spare;     /* a list done with, for vec_new to take again */
  struct ast **partial;  /* its items so far, kept for a failed parse */
  uint32_t npartial, cap_partial;
};

/* Remember a completed item of the file body (see parse_file_partial). */
void parse_note_item(struct parse_ctx *c, struct vec *items, struct ast *x);

/* Parse text as a bare template, as hcl parses the strings of .tf.json
** files where expressions are expected.  NULL after errors (in diags). */
struct ast_file *parse_template(tfr_arena *a, tfr_diags *diags,
                                const char *name, const char *text, size_t len);

/* The template (or, template false, the expression) in the JSON string s
** of src, as hcl reads a .tf.json string: positions are src's, counted
** from the string's opening quote over its unescaped text. */
struct ast_file *parse_embedded(tfr_arena *a, tfr_diags *diags,
                                struct src_file *src, const struct ast *s,
                                bool template);

/*
** Parse a configuration file (from parse_open: HCL, or JSON for names
** ending in .json), its tree in the arena tree; after syntax errors, the
*top-level
** items completed before the first error are still returned, as HCL's
** recovery does, so that the loader can list the variables of a broken
** file.  *complete says whether the parse succeeded.
*/
struct ast_file *parse_config(struct src_file *src, tfr_arena *tree,
                              tfr_diags *diags, bool *complete);

/* Called with each top-level block of a file as soon as it is read;
** true when what it keeps refers to the block's tree. */
typedef bool (*parse_item_fn)(void *ctx, const struct ast *block);

/*
** Read a native file made of blocks of the plain subset (parse_fast.c)
** block by block, handing each to item, the tree of a block item keeps
** nothing of released at once (so that the tree stays small and in the
** cache).  The `type` arguments of variable blocks, and the condition and
** error_message of their validation blocks, are checked but not built: an
** AST_NULL with AST_F_LAZY and the expression's span stands for each
** (parse_config_lazy builds it).  False as soon as the file turns out to
** hold anything else (a top-level argument, syntax outside the subset, an
** error): the caller undoes what item did and parses the file as usual.
** Reports nothing.
*/
bool parse_config_stream(struct src_file *src, tfr_arena *tree,
                         tfr_diags *diags, parse_item_fn item, void *ctx);

/* Whether s (n bytes) is a name that var.NAME spells as it is: an
** identifier of ASCII letters, digits, _ and -, not starting with a digit
** or -. */
bool parse_plain_name(const char *s, size_t n);

/*
** The text of s with each var.NAME of the variable name (nlen bytes; a
** whole word: no identifier byte or dot before it, no identifier byte
** after it) cut to \x01, its length first (4 bytes), appended to b; the
** cuts' spans go to at when it is not NULL (room for every one).  The
** number of cuts.  Rules whose texts cut this way are equal differ only in
** their own variable's name.
*/
struct sbuf;
size_t parse_cut_name(struct sbuf *b, const char *text, struct span s,
                      const char *name, size_t nlen, struct span *at);

/* The tree of such a lazy argument x of src, in tree. */
const struct ast *parse_config_lazy(struct src_file *src, tfr_arena *tree,
                                    tfr_diags *diags, const struct ast *x);

/* The bytes of a file (content, or read from path when content is NULL:
** an overlay of ov, an editor's open file, in place of the disk's; ov
** NULL: none), known to diags for quoting and checked to be UTF-8; NULL
** when they cannot be read or are not (reported).  parse_opened parses
** them.  The source is for one thread (src_read_private). */
struct src_file *parse_open(tfr_arena *a, tfr_diags *diags,
                            const struct overlays *ov, const char *path,
                            const char *content, size_t len);
/* The same for a file read from path, but one that cannot be read is not
** reported: NULL with *err set (an errno value, SRC_NOT_REGULAR or
** SRC_OVER_BUDGET), for a caller that words it itself.  named: a file the
** user named (-var-file): a pipe or a device is read too, as
** `-var-file=<(command)` wants; the files a module directory holds must
** be regular files (a FIFO there would block every run). */
struct src_file *parse_open_quiet(tfr_arena *a, tfr_diags *diags,
                                  const struct overlays *ov, const char *path,
                                  bool named, int *err);
struct tfr_file *parse_opened(tfr_arena *a, tfr_diags *diags,
                              struct src_file *src, enum tfr_syntax syntax);
/* parse_opened for one expression (-var values, console input): newlines
** are insignificant, nothing may follow it. */
struct tfr_file *parse_opened_expr(tfr_arena *a, tfr_diags *diags,
                                   struct src_file *src);
/* parse_open then parse_opened (text NULL: read from name), and the same
** for one expression: what tfr_parse_bytes, tfr_parse_file and
** tfr_parse_expr do, for the library's own callers. */
struct tfr_file *parse_bytes(tfr_arena *a, tfr_diags *diags, const char *name,
                             const char *text, size_t len,
                             enum tfr_syntax syntax);
struct tfr_file *parse_bytes_expr(tfr_arena *a, tfr_diags *diags,
                                  const char *name, const char *text,
                                  size_t len);

/* What the public API calls a tfr_file. */
struct tfr_file {
  struct ast_file f;
};

/* The fast path for plain files (parse_fast.c): the AST the grammar would
** build, or NULL (nothing reported) when the file needs the grammar; and
** the same block by block (parse_config_stream). */
struct ast_file *parse_hcl_fast(struct parse_ctx *c);
bool parse_hcl_stream(struct parse_ctx *c, parse_item_fn item, void *ctx);

/* The tree of a lazy argument of a streamed block (AST_F_LAZY), built
** now in c->a from c->src; NULL cannot happen (it was checked). */
struct ast *parse_lazy(struct parse_ctx *c, const struct ast *x);

/* Whether s (n bytes) is a JSON number (RFC 8259), as the JSON grammar
** checks it. */
bool json_number_ok(const char *s, uint32_t n);

/* Decode the JSON string token s[0..n) (its quotes included) into out
** (room for n bytes); 0, or the offset of the first error, as Go's
** encoding/json reports it. */
uint32_t json_unescape(const char *s, uint32_t n, char *out, uint32_t *outlen);

/* Whether a body sets some argument twice. */
bool ast_body_has_duplicate(struct ast *const *v, uint32_t n);

/* Diagnostics at a byte span of the current file. */
void parse_error(struct parse_ctx *c, struct span s, const char *summary,
                 const char *detail);

/* Node builders (ast_build.c).  All results live in c->a. */
struct ast *ast_new(struct parse_ctx *c, enum ast_kind k, struct span s);
struct ast *ast_number(struct parse_ctx *c, struct lexeme t, struct span s);
struct ast *ast_name(struct parse_ctx *c, struct lexeme t, struct span s);
struct ast *ast_string(struct parse_ctx *c, struct lexeme t, struct span s);
struct ast *ast_unary(struct parse_ctx *c, enum ast_op op, struct ast *x,
                      struct span s);
struct ast *ast_binary(struct parse_ctx *c, enum ast_op op, struct ast *x,
                       struct ast *y, struct span s);
struct ast *ast_cond(struct parse_ctx *c, struct ast *x, struct ast *y,
                     struct ast *z, struct span s);
struct ast *ast_paren(struct parse_ctx *c, struct ast *x, struct span s);
struct ast *ast_list(struct parse_ctx *c, enum ast_kind k, struct vec *v,
                     struct span s);
struct ast *ast_call(struct parse_ctx *c, struct lexeme name, struct vec *args,
                     bool expand, struct span s);
struct ast *ast_for_head(struct parse_ctx *c, struct lexeme *k,
                         struct lexeme *v, struct ast *coll);
struct ast *ast_for(struct parse_ctx *c, struct ast *head, struct ast *e1,
                    struct ast *e2, struct lexeme group, struct ast *cond,
                    bool object, struct span s);
struct ast *ast_traverse(struct parse_ctx *c, struct ast *x, struct steps *st);
struct ast *ast_template(struct parse_ctx *c, struct vec *parts, bool heredoc,
                         bool flush, struct span s);
struct ast *ast_tpart(struct parse_ctx *c, int k, struct lexeme *k1,
                      struct lexeme *k2, struct ast *x, unsigned strip,
                      struct span s);
struct ast *ast_attr(struct parse_ctx *c, struct lexeme name, struct ast *v,
                     struct span s);
struct ast *ast_block(struct parse_ctx *c, struct lexeme type,
                      struct vec *labels, struct ast *body, struct span s);
struct ast *ast_label(struct parse_ctx *c, struct vec *tparts, struct span s);

/* Reject a tree deeper than AST_MAX_DEPTH (iteratively). */
bool ast_check_depth(struct parse_ctx *c, const struct ast *root);

struct vec *vec_new(struct parse_ctx *c);
/* Move an open list's items into the arena; v->v is valid after. */
void vec_close(struct parse_ctx *c, struct vec *v);
struct vec *vec_push(struct parse_ctx *c, struct vec *v, struct ast *x);
/* Push an object element: key and value. */
struct vec *vec_pair(struct parse_ctx *c, struct vec *v, struct ast *k,
                     struct ast *x);
struct steps *steps_push(struct parse_ctx *c, struct steps *st, struct step s);

/* Template part kinds produced by the grammar before structuring. */
enum { TP_INTERP = 100, TP_IF, TP_ELSE, TP_ENDIF, TP_FOR, TP_ENDFOR };

/* Entry points (hcl.y, json.y). */
struct ast_file *parse_hcl(struct parse_ctx *c);
struct ast_file *parse_json(struct parse_ctx *c);

/* UTF-8 check of a whole file; reports the first bad byte.  */
bool parse_check_utf8(struct parse_ctx *c);

#endif
