/*
** The syntax tree shared by the HCL native and HCL JSON front ends.
**
** Nodes are compact (they store byte spans, not full ranges) because a
** 50 MB tfvars file becomes millions of them.  Every node, list and string
** lives in the parse arena.
*/
#ifndef TFR_AST_H
#define TFR_AST_H

#include <stdbool.h>
#include <stdint.h>

#include "syntax/source.h"

/*
** Node layout: a 16-byte header, one word (a string, a child list or the
** first child), then as many further children as the kind needs (kids[]).
** "str/n" is a string of n bytes, not NUL-terminated, often pointing into
** the source text; "items/n" is an array of n children.
*/
enum ast_kind {
  /* expressions */
  AST_NUMBER, /* str/n: the literal as written, e.g. "1.5e3" */
  AST_BOOL,   /* AST_F_TRUE when true */
  AST_NULL,
  AST_STRING,     /* str/n: a literal string (escapes already decoded) */
  AST_TEMPLATE,   /* items/n: AST_STRING parts, expressions, TIF, TFOR */
  AST_TIF,        /* kids: cond, then (TEMPLATE), else (TEMPLATE or NULL) */
  AST_TFOR,       /* kids: key var (STRING or NULL), value var (STRING),
                     collection, body (TEMPLATE) */
  AST_VARIABLE,   /* str/n: root name (var, local, each, ...) */
  AST_GETATTR,    /* str/n: attribute name; kids: object */
  AST_INDEX,      /* a: collection; kids: key.  AST_F_LEGACY for foo.0 */
  AST_SPLAT,      /* a: source; kids: each (built on AST_SPLAT_ITEM).
                     AST_F_FULL for [*] */
  AST_SPLAT_ITEM, /* the element a splat's "each" expression refers to */
  AST_CALL,       /* items/n: arguments; kids: name (STRING, may hold
                     "::").  AST_F_EXPAND when the last argument has ... */
  AST_TUPLE,      /* items/n */
  AST_OBJECT,     /* items: 2n entries, key and value alternating; n pairs */
  AST_FOR,        /* kids: key var (STRING or NULL), value var (STRING),
                     collection, key expr (object form) or NULL, value
                     expr, condition or NULL.  AST_F_OBJECT, AST_F_GROUP */
  AST_UNARY,      /* op; a */
  AST_BINARY,     /* op; a, kids: right operand */
  AST_COND,       /* a ? kids[0] : kids[1] */
  AST_PAREN,      /* (a): keeps an object key from being read as a name */
  /* bodies */
  AST_BODY,  /* items/n: AST_ATTR and AST_BLOCK */
  AST_ATTR,  /* str/n: name; kids: value */
  AST_BLOCK, /* str/n: type; kids: labels (TUPLE of STRING), body */
};

enum ast_op {
  OP_NONE,
  OP_NOT,
  OP_NEG,
  OP_OR,
  OP_AND,
  OP_EQ,
  OP_NE,
  OP_LT,
  OP_LE,
  OP_GT,
  OP_GE,
  OP_ADD,
  OP_SUB,
  OP_MUL,
  OP_DIV,
  OP_MOD,
};

enum {
  AST_F_TRUE = 1 << 0,
  AST_F_LEGACY = 1 << 1,
  AST_F_FULL = 1 << 2,
  AST_F_EXPAND = 1 << 3,
  AST_F_COLON = 1 << 4,
  AST_F_OBJECT = 1 << 5,
  AST_F_GROUP = 1 << 6,
  AST_F_HEREDOC = 1 << 7,  /* AST_TEMPLATE / AST_STRING written as heredoc */
  AST_F_QUOTED = 1 << 8,   /* block label written in quotes */
  AST_F_STRIP_L = 1 << 9,  /* template part had ~ before it */
  AST_F_STRIP_R = 1 << 10, /* template part had ~ after it */
  AST_F_LAZY = 1 << 11,    /* an AST_NULL standing for the expression at
                              its span, read but not built (parse_fast.c's
                              lazy `type` arguments) */
  AST_F_JSON = 1 << 12,    /* AST_OBJECT parsed from JSON: a repeated key
                              is an error, as in hcl's JSON values */
};

struct ast {
  uint8_t kind;
  uint8_t op;
  uint16_t flags;
  uint32_t n; /* string length, item count or pair count */
  struct span span;
  union {
    const char *str;
    struct ast **items;
    struct ast *a;
  };
  struct ast *kids[];
};

/* Deeper expressions are rejected with a diagnostic, so that every
** recursive walk over an AST is bounded. */
#define AST_MAX_DEPTH 1000

/* Number of kids[] a node of this kind carries. */
int ast_nkids(enum ast_kind k);

/* Generic access to every child of a node, in source order (NULL
** children included), for walkers that do not care about the kind. */
uint32_t ast_child_count(const struct ast *x);
struct ast *ast_child(const struct ast *x, uint32_t i);

/* HCL's JSON syntax: a "//" property of a body is a comment. */
bool ast_json_comment(const struct ast *key);

/* HCL's JSON syntax: a block value is one object or an array of them; the
** elements (*n of them; for a single value, one points at x). */
/* Where hcl says a JSON value starts: an object's "{", an array's "[",
** a primitive's whole token. */
struct span ast_json_start(const struct ast *x);
const struct ast *const *ast_json_blocks(const struct ast *x,
                                         const struct ast **one, size_t *n);

/* The members of x's block objects (JSON's "NAME": {...} levels), one at
** a time, comments left out:
**   struct json_members it;
**   for (ast_json_members(&it, x); ast_json_next(&it);) it.key, it.value */
struct json_members {
  const struct ast *one, *const *objs;
  size_t n, i;
  uint32_t j;
  const struct ast *key, *value, *obj; /* the member, and its object */
};
void ast_json_members(struct json_members *it, const struct ast *x);
bool ast_json_next(struct json_members *it);

/* A parsed file: the body (native syntax or JSON object) and its source. */
struct ast_file {
  struct src_file *src;
  struct ast *body;    /* AST_BODY for native syntax; any value for JSON */
  struct ast *partial; /* after a syntax error: the items parsed before */
  bool json;
};

const char *ast_kind_name(enum ast_kind k);
const char *ast_op_name(enum ast_op op);

/* Dump as JSON (one object per node, with "range"), for golden tests. */
void ast_dump_json(struct ast_file *f, FILE *out);

#endif
