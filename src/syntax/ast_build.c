/*
** AST builders called from the grammar actions (hcl.y, json.y).
**
** Besides allocating nodes, this is where HCL's parse-time rules that are
** not about token order live: traversal and splat structure, template strip
** markers, heredoc indentation, directive nesting, for-expression shape,
** block labels, duplicate attributes, and the nesting-depth bound.
*/
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena_int.h"
#include "syntax/parse.h"
#include "base/heap.h"

void parse_error(struct parse_ctx *c, struct span s, const char *summary,
                 const char *detail) {
  struct tfr_range r = src_range(c->src, s);
  tfr_diags_add(c->diags, TFR_DIAG_ERROR, &r, summary, detail);
  if (!c->failed)
    c->err_at = s.start;
  c->failed = true;
}

int ast_nkids(enum ast_kind k) {
  switch (k) {
  case AST_TIF:
  case AST_COND:
    return k == AST_TIF ? 3 : 2;
  case AST_TFOR:
    return 4;
  case AST_FOR:
    return 6;
  case AST_GETATTR:
  case AST_INDEX:
  case AST_SPLAT:
  case AST_CALL:
  case AST_BINARY:
  case AST_ATTR:
    return 1;
  case AST_BLOCK:
    return 2;
  default:
    return 0;
  }
}

struct ast *ast_new(struct parse_ctx *c, enum ast_kind k, struct span s) {
  int nk = ast_nkids(k);
  struct ast *x =
      tfr_arena_alloc(c->a, sizeof *x + (size_t)nk * sizeof(struct ast *));
  x->kind = (uint8_t)k;
  x->span = s;
  return x;
}

/* ---- lists ------------------------------------------------------------- */

struct vec *vec_new(struct parse_ctx *c) {
  struct vec *v = c->spare;
  if (v) {
    c->spare = NULL;
    *v = (struct vec){0};
  } else {
    v = tfr_arena_alloc(c->a, sizeof(struct vec));
  }
  v->start = c->top;
  if (!c->top_items && !c->expr_mode && !c->json)
    c->top_items = v; /* the first list of a file is its body */
  return v;
}

void parse_note_item(struct parse_ctx *c, struct vec *items, struct ast *x) {
  if (items != c->top_items)
    return;
  if (c->npartial == c->cap_partial) {
    c->cap_partial = c->cap_partial ? c->cap_partial * 2 : 64;
    c->partial = heap_realloc(c->partial, c->cap_partial * sizeof *c->partial);
  }
  c->partial[c->npartial++] = x;
}

struct vec *vec_push(struct parse_ctx *c, struct vec *v, struct ast *x) {
  assert(!v->v && c->top == v->start + v->n);
  if (c->top == c->scratch_cap) {
    c->scratch_cap = c->scratch_cap ? c->scratch_cap * 2 : 1024;
    c->scratch = heap_realloc(c->scratch, c->scratch_cap * sizeof *c->scratch);
  }
  c->scratch[c->top++] = x;
  v->n++;
  return v;
}

void vec_close(struct parse_ctx *c, struct vec *v) {
  if (v->v)
    return;
  assert(c->top == v->start + v->n);
  v->v = tfr_arena_alloc(c->a, (v->n ? v->n : 1) * sizeof *v->v);
  if (v->n)
    memcpy(v->v, c->scratch + v->start, v->n * sizeof *v->v);
  v->cap = v->n;
  c->top = v->start;
}

struct vec *vec_pair(struct parse_ctx *c, struct vec *v, struct ast *k,
                     struct ast *x) {
  return vec_push(c, vec_push(c, v, k), x);
}

struct steps *steps_push(struct parse_ctx *c, struct steps *st, struct step s) {
  if (!st)
    st = tfr_arena_alloc(c->a, sizeof *st);
  if (st->n == st->cap) {
    uint32_t cap = st->cap ? st->cap * 2 : 4;
    struct step *nv = tfr_arena_alloc(c->a, cap * sizeof *nv);
    if (st->n)
      memcpy(nv, st->v, st->n * sizeof *nv);
    st->v = nv;
    st->cap = cap;
  }
  st->v[st->n++] = s;
  return st;
}

/* ---- depth ------------------------------------------------------------- */

/*
** Every recursive walk over an AST (evaluation, dumping) may rely on its
** depth being at most AST_MAX_DEPTH: a parsed file that nests deeper is
** rejected here.  Bracket nesting is already bounded by the scanners; this
** catches long operator and traversal chains (a+a+a+..., a.b.c.d...).  The
** walk is iterative, so the check itself cannot overflow the stack.
*/
struct dfs {
  const struct ast *x;
  uint32_t left; /* children not yet visited: those below this index */
};

bool ast_check_depth(struct parse_ctx *c, const struct ast *root) {
  if (c->shallow)
    return true; /* parse_fast.c stops far below AST_MAX_DEPTH */
  if (!root)
    return true;
  /* one frame per level of the path from the root, children visited last
  ** to first: a node with many children (a large object) takes one frame,
  ** not one per child */
  struct dfs *st = heap_alloc((AST_MAX_DEPTH + 1) * sizeof *st);
  size_t n = 0;
  st[n++] = (struct dfs){root, ast_child_count(root)};
  bool ok = true;
  while (n) {
    struct dfs *d = &st[n - 1];
    if (!d->left) {
      n--;
      continue;
    }
    const struct ast *ch = ast_child(d->x, --d->left);
    if (!ch)
      continue;
    if (n == AST_MAX_DEPTH) { /* ch is at depth AST_MAX_DEPTH + 1 */
      parse_error(c, ch->span, "Nesting too deep",
                  "Expressions may be nested at most 1000 levels deep; "
                  "this one nests deeper (for example a very long chain of "
                  "operators or attribute accesses).");
      tfr_diags_set_ours(c->diags);
      ok = false;
      break;
    }
    st[n++] = (struct dfs){ch, ast_child_count(ch)};
  }
  free(st);
  return ok;
}

/* ---- leaves and operators ---------------------------------------------- */

static struct span lex_span(struct parse_ctx *c, const struct lexeme *t) {
  uint32_t at = (uint32_t)(t->s - c->src->text);
  return (struct span){at, at + t->len};
}

static struct ast *leaf(struct parse_ctx *c, enum ast_kind k, const char *s,
                        uint32_t n, struct span sp) {
  struct ast *x = ast_new(c, k, sp);
  x->str = s;
  x->n = n;
  return x;
}

/* The scanner takes any run of digits, dots and exponents, as HCL's does;
** only decimal digits ("." digits)? (e [+-]? digits)? is a number. */
static bool valid_number(const char *s, uint32_t n) {
  uint32_t i = 0, d;
  for (d = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
    ;
  if (i == d)
    return false;
  if (i < n && s[i] == '.') {
    for (d = ++i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
      ;
    if (i == d)
      return false;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < n && (s[i] == '+' || s[i] == '-'))
      i++;
    for (d = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
      ;
    if (i == d)
      return false;
  }
  return i == n;
}

struct ast *ast_number(struct parse_ctx *c, struct lexeme t, struct span s) {
  if (!valid_number(t.s, t.len))
    parse_error(c, s, "Invalid number literal",
                "Failed to recognize the value of this number literal.");
  return leaf(c, AST_NUMBER, t.s, t.len, s);
}

struct ast *ast_string(struct parse_ctx *c, struct lexeme t, struct span s) {
  return leaf(c, AST_STRING, t.s, t.len, s);
}

static bool lex_is(struct lexeme t, const char *kw) {
  size_t n = strlen(kw);
  return t.len == n && memcmp(t.s, kw, n) == 0;
}

/* A bare identifier: the keywords true/false/null, or a variable. */
struct ast *ast_name(struct parse_ctx *c, struct lexeme t, struct span s) {
  if (lex_is(t, "true") || lex_is(t, "false")) {
    struct ast *x = ast_new(c, AST_BOOL, s);
    x->flags = lex_is(t, "true") ? AST_F_TRUE : 0;
    return x;
  }
  if (lex_is(t, "null"))
    return ast_new(c, AST_NULL, s);
  return leaf(c, AST_VARIABLE, t.s, t.len, s);
}

struct ast *ast_unary(struct parse_ctx *c, enum ast_op op, struct ast *x,
                      struct span s) {
  struct ast *u = ast_new(c, AST_UNARY, s);
  u->op = (uint8_t)op;
  u->a = x;
  return u;
}

struct ast *ast_binary(struct parse_ctx *c, enum ast_op op, struct ast *x,
                       struct ast *y, struct span s) {
  struct ast *b = ast_new(c, AST_BINARY, s);
  b->op = (uint8_t)op;
  b->a = x;
  b->kids[0] = y;
  return b;
}

struct ast *ast_cond(struct parse_ctx *c, struct ast *x, struct ast *y,
                     struct ast *z, struct span s) {
  struct ast *k = ast_new(c, AST_COND, s);
  k->a = x;
  k->kids[0] = y;
  k->kids[1] = z;
  return k;
}

struct ast *ast_paren(struct parse_ctx *c, struct ast *x, struct span s) {
  struct ast *p = ast_new(c, AST_PAREN, s);
  p->a = x;
  return p;
}

/* ---- collections, calls, bodies ---------------------------------------- */

/* A table of a body's arguments by name (open addressing; cap a power
** of two, at least twice their number). */
static struct ast **attr_table(uint32_t n, uint32_t *cap) {
  *cap = 16;
  while (*cap < n * 2)
    *cap *= 2;
  return heap_calloc(*cap, sizeof(struct ast *));
}

/* Argument x added to tab, or the argument of its name already there. */
static struct ast *attr_seen(struct ast **tab, uint32_t cap, struct ast *x) {
  uint32_t h = 2166136261u;
  for (uint32_t k = 0; k < x->n; k++)
    h = (h ^ (uint8_t)x->str[k]) * 16777619u;
  for (uint32_t j = h & (cap - 1);; j = (j + 1) & (cap - 1)) {
    struct ast *y = tab[j];
    if (!y) {
      tab[j] = x;
      return NULL;
    }
    if (y->n == x->n && memcmp(y->str, x->str, x->n) == 0)
      return y;
  }
}

/* A body may not set the same argument twice (HCL checks this while
** parsing).  Bodies of tfvars files can be large, so use a hash set. */
static void check_duplicates(struct parse_ctx *c, struct vec *v) {
  if (v->n < 2)
    return;
  uint32_t cap;
  struct ast **tab = attr_table(v->n, &cap);
  for (uint32_t i = 0; i < v->n; i++) {
    struct ast *x = v->v[i], *y;
    if (x->kind != AST_ATTR || !(y = attr_seen(tab, cap, x)))
      continue;
    struct tfr_range first =
        src_range(c->src, (struct span){y->span.start, y->span.start + y->n});
    char where[64];
    tfr_range_format(&first, where, sizeof where);
    parse_error(c, (struct span){x->span.start, x->span.start + x->n},
                "Attribute redefined",
                tfr_arena_printf(c->a,
                                 "The argument \"%.*s\" was already set "
                                 "at %s. Each argument may be set only "
                                 "once.",
                                 (int)x->n, x->str, where));
  }
  free(tab);
}

/* Whether a body sets some argument twice (the fast parser leaves such
** a body to the grammar, which reports every repetition). */
bool ast_body_has_duplicate(struct ast *const *v, uint32_t n) {
  if (n < 2)
    return false;
  if (n <= 16) { /* most bodies: compare each pair, no table */
    for (uint32_t i = 1; i < n; i++) {
      const struct ast *x = v[i];
      if (x->kind != AST_ATTR)
        continue;
      for (uint32_t j = 0; j < i; j++)
        if (v[j]->kind == AST_ATTR && v[j]->n == x->n &&
            memcmp(v[j]->str, x->str, x->n) == 0)
          return true;
    }
    return false;
  }
  uint32_t cap;
  struct ast **tab = attr_table(n, &cap);
  bool dup = false;
  for (uint32_t i = 0; i < n && !dup; i++)
    dup = v[i]->kind == AST_ATTR && attr_seen(tab, cap, v[i]);
  free(tab);
  return dup;
}

struct ast *ast_list(struct parse_ctx *c, enum ast_kind k, struct vec *v,
                     struct span s) {
  struct ast *x = ast_new(c, k, s);
  vec_close(c, v);
  if (k == AST_BODY)
    check_duplicates(c, v);
  x->n = k == AST_OBJECT ? v->n / 2 : v->n;
  x->items = v->v;
  return x;
}

struct ast *ast_call(struct parse_ctx *c, struct lexeme name, struct vec *args,
                     bool expand, struct span s) {
  struct ast *x = ast_new(c, AST_CALL, s);
  vec_close(c, args);
  x->n = args->n;
  x->items = args->v;
  x->kids[0] = leaf(c, AST_STRING, name.s, name.len,
                    (struct span){s.start, s.start + name.len});
  if (expand)
    x->flags = AST_F_EXPAND;
  return x;
}

struct ast *ast_attr(struct parse_ctx *c, struct lexeme name, struct ast *v,
                     struct span s) {
  struct ast *x = ast_new(c, AST_ATTR, s);
  x->str = name.s;
  x->n = name.len;
  x->kids[0] = v;
  return x;
}

struct ast *ast_block(struct parse_ctx *c, struct lexeme type,
                      struct vec *labels, struct ast *body, struct span s) {
  struct ast *x = ast_new(c, AST_BLOCK, s);
  vec_close(c, labels);
  x->str = type.s;
  x->n = type.len;
  struct span ls = {s.start, s.start};
  if (labels->n)
    ls = (struct span){labels->v[0]->span.start,
                       labels->v[labels->n - 1]->span.end};
  x->kids[0] = ast_list(c, AST_TUPLE, labels, ls);
  x->kids[1] = body;
  return x;
}

/* A quoted block label: a plain string, no template sequences. */
struct ast *ast_label(struct parse_ctx *c, struct vec *tparts, struct span s) {
  vec_close(c, tparts);
  for (uint32_t i = 0; i < tparts->n; i++) {
    struct ast *p = tparts->v[i];
    if (p->kind == AST_STRING)
      continue;
    bool dollar = p->kind == TP_INTERP;
    parse_error(c, (struct span){p->span.start, p->span.start + 2},
                "Invalid string literal",
                dollar ? "Template sequences are not allowed in this string. "
                         "To include a literal \"$\", double it (as \"$$\") "
                         "to escape it."
                       : "Template sequences are not allowed in this string. "
                         "To include a literal \"%\", double it (as \"%%\") "
                         "to escape it.");
    return ast_new(c, AST_STRING, s);
  }
  struct ast *x;
  if (tparts->n == 1)
    x = leaf(c, AST_STRING, tparts->v[0]->str, tparts->v[0]->n, s);
  else
    x = leaf(c, AST_STRING, "", 0, s);
  x->flags |= AST_F_QUOTED;
  return x;
}

/* ---- for expressions --------------------------------------------------- */

struct ast *ast_for_head(struct parse_ctx *c, struct lexeme *k,
                         struct lexeme *v, struct ast *coll) {
  struct ast *x = ast_new(c, AST_FOR, coll->span);
  if (k)
    x->kids[0] = leaf(c, AST_STRING, k->s, k->len, lex_span(c, k));
  x->kids[1] = leaf(c, AST_STRING, v->s, v->len, lex_span(c, v));
  x->kids[2] = coll;
  return x;
}

struct ast *ast_for(struct parse_ctx *c, struct ast *head, struct ast *e1,
                    struct ast *e2, struct lexeme group, struct ast *cond,
                    bool object, struct span s) {
  const char *bad = NULL;
  struct span at = s;
  if (!object && e2) {
    bad = "Key expression is not valid when building a tuple.";
    at = e1->span;
  } else if (!object && group.s) {
    bad = "Grouping ellipsis (...) cannot be used when building a tuple.";
    at = (struct span){(uint32_t)(group.s - c->src->text),
                       (uint32_t)(group.s - c->src->text) + 3};
  } else if (object && !e2) {
    bad = "Key expression is required when building an object.";
    at = e1->span;
  }
  if (bad) {
    parse_error(c, at, "Invalid 'for' expression", bad);
    return head;
  }
  head->span = s;
  head->kids[3] = object ? e1 : NULL;
  head->kids[4] = object ? e2 : e1;
  head->kids[5] = cond;
  head->flags =
      (uint16_t)((object ? AST_F_OBJECT : 0) | (group.s ? AST_F_GROUP : 0));
  return head;
}

/* ---- traversals -------------------------------------------------------- */

static struct ast *getattr(struct parse_ctx *c, struct ast *x,
                           const struct step *st) {
  struct ast *g =
      ast_new(c, AST_GETATTR, (struct span){x->span.start, st->span.end});
  g->str = st->name;
  g->n = st->len;
  g->kids[0] = x;
  return g;
}

static struct ast *index_of(struct parse_ctx *c, struct ast *x, struct ast *key,
                            struct span end, uint16_t fl) {
  struct ast *k = ast_new(c, AST_INDEX, (struct span){x->span.start, end.end});
  k->a = x;
  k->kids[0] = key;
  k->flags = fl;
  return k;
}

/* foo.0: the digits become an index; foo.0.1 is HCL's "legacy index"
** error, since the scanner reads 0.1 as one number. */
static struct ast *legacy(struct parse_ctx *c, struct ast *x,
                          const struct step *st, const struct step *splat) {
  bool in_splat = splat != NULL;
  const char *dot = memchr(st->name, '.', st->len);
  if (dot) {
    int a = (int)(dot - st->name);
    /* inside .* HCL points at the splat's star */
    struct span at = splat
                         ? (struct span){splat->span.end - 1, splat->span.end}
                         : (struct span){st->span.end - st->len, st->span.end};
    parse_error(c, at, "Invalid legacy index syntax",
                tfr_arena_printf(
                    c->a,
                    "When using the legacy index syntax, chaining two indexes "
                    "together is not permitted. Use the proper index syntax%s "
                    "instead, like [%.*s][%.*s].",
                    in_splat ? " with a full splat expression [*]" : "", a,
                    st->name, (int)st->len - a - 1, dot + 1));
    return x;
  }
  struct span ns = {st->span.end - st->len, st->span.end};
  return index_of(c, x, leaf(c, AST_NUMBER, st->name, st->len, ns), st->span,
                  AST_F_LEGACY);
}

static struct ast *apply_steps(struct parse_ctx *c, struct ast *x,
                               struct steps *st, uint32_t i);

/* .* takes only the attribute (and legacy index) steps right after it;
** [*] takes every step after it, splats included. */
static struct ast *splat(struct parse_ctx *c, struct ast *x, struct steps *st,
                         uint32_t *i) {
  const struct step *sp = &st->v[*i];
  struct ast *item = ast_new(c, AST_SPLAT_ITEM, sp->span);
  struct ast *each = item;
  struct ast *s = ast_new(c, AST_SPLAT, x->span);
  s->a = x;
  (*i)++;
  if (sp->kind == STEP_SPLAT_FULL) {
    each = apply_steps(c, item, st, *i);
    *i = st->n;
    s->flags = AST_F_FULL;
  } else {
    for (; *i < st->n && !c->failed; (*i)++) {
      const struct step *n = &st->v[*i];
      if (n->kind == STEP_ATTR)
        each = getattr(c, each, n);
      else if (n->kind == STEP_LEGACY)
        each = legacy(c, each, n, sp);
      else if (n->kind == STEP_SPLAT_ATTR) {
        parse_error(c, (struct span){n->span.end - 1, n->span.end},
                    "Nested splat expression not allowed",
                    "A splat expression (*) cannot be used inside another "
                    "attribute-only splat expression.");
        return x;
      } else
        break;
    }
  }
  s->kids[0] = each;
  s->span.end = *i ? st->v[*i - 1].span.end : sp->span.end;
  return s;
}

static struct ast *apply_steps(struct parse_ctx *c, struct ast *x,
                               struct steps *st, uint32_t i) {
  while (i < st->n && !c->failed) {
    const struct step *s = &st->v[i];
    switch (s->kind) {
    case STEP_ATTR:
      x = getattr(c, x, s);
      i++;
      break;
    case STEP_LEGACY:
      x = legacy(c, x, s, NULL);
      i++;
      break;
    case STEP_INDEX:
      x = index_of(c, x, s->key, s->span, 0);
      i++;
      break;
    default:
      x = splat(c, x, st, &i);
      break;
    }
  }
  return x;
}

struct ast *ast_traverse(struct parse_ctx *c, struct ast *x, struct steps *st) {
  if (st->n > AST_MAX_DEPTH) {
    parse_error(c, st->v[AST_MAX_DEPTH].span, "Nesting too deep",
                "A traversal may have at most 1000 steps.");
    tfr_diags_set_ours(c->diags);
    return x;
  }
  return apply_steps(c, x, st, 0);
}

/* ---- templates --------------------------------------------------------- */

struct ast *ast_tpart(struct parse_ctx *c, int k, struct lexeme *k1,
                      struct lexeme *k2, struct ast *x, unsigned strip,
                      struct span s) {
  size_t size = sizeof(struct ast) + 4 * sizeof(struct ast *);
  struct ast *p = tfr_arena_alloc(c->a, size);
  p->kind = (uint8_t)k;
  p->span = s;
  p->flags = (uint16_t)strip;
  p->a = x;
  if (k1)
    p->kids[0] = leaf(c, AST_STRING, k1->s, k1->len, lex_span(c, k1));
  if (k2)
    p->kids[1] = leaf(c, AST_STRING, k2->s, k2->len, lex_span(c, k2));
  p->kids[2] = x;
  return p;
}

/* Unicode White_Space at s (n bytes left): its length, or 0. */
static int space_len(const char *s, uint32_t n) {
  unsigned char b = (unsigned char)s[0];
  if (b == ' ' || (b >= '\t' && b <= '\r'))
    return 1;
  if (b == 0xC2 && n >= 2 &&
      ((unsigned char)s[1] == 0x85 || (unsigned char)s[1] == 0xA0))
    return 2;
  if (b == 0xE1 && n >= 3 && (unsigned char)s[1] == 0x9A &&
      (unsigned char)s[2] == 0x80)
    return 3;
  if (b == 0xE2 && n >= 3) {
    unsigned char b1 = (unsigned char)s[1], b2 = (unsigned char)s[2];
    if (b1 == 0x80 && (b2 <= 0x8A || b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF))
      return 3;
    if (b1 == 0x81 && b2 == 0x9F)
      return 3;
  }
  if (b == 0xE3 && n >= 3 && (unsigned char)s[1] == 0x80 &&
      (unsigned char)s[2] == 0x80)
    return 3;
  return 0;
}

static void trim_left(struct ast *lit) {
  int k;
  while (lit->n && (k = space_len(lit->str, lit->n)) > 0) {
    lit->str += k;
    lit->n -= (uint32_t)k;
  }
}

static void trim_right(struct ast *lit) {
  while (lit->n) {
    uint32_t b = lit->n - 1;
    while (b > 0 && ((unsigned char)lit->str[b] & 0xC0) == 0x80)
      b--;
    if (space_len(lit->str + b, lit->n - b) != (int)(lit->n - b))
      break;
    lit->n = b;
  }
}

/* ~ markers trim the whitespace of the literal right next to them. */
static void apply_strip(struct vec *v) {
  for (uint32_t i = 0; i < v->n; i++) {
    struct ast *p = v->v[i];
    if (p->kind == AST_STRING)
      continue;
    if ((p->flags & AST_F_STRIP_L) && i > 0 && v->v[i - 1]->kind == AST_STRING)
      trim_right(v->v[i - 1]);
    if ((p->flags & AST_F_STRIP_R) && i + 1 < v->n &&
        v->v[i + 1]->kind == AST_STRING)
      trim_left(v->v[i + 1]);
  }
}

static bool ends_nl(const struct ast *p) {
  return p->kind == AST_STRING && p->n && p->str[p->n - 1] == '\n';
}

/* Leading whitespace of a literal, in characters ("\r\n" counts once). */
static uint32_t lead_spaces(const struct ast *p, uint32_t *bytes) {
  uint32_t i = 0, count = 0;
  int k;
  while (i < p->n && (k = space_len(p->str + i, p->n - i)) > 0) {
    if (p->str[i] == '\r' && i + 1 < p->n && p->str[i + 1] == '\n')
      k = 2;
    i += (uint32_t)k;
    count++;
  }
  *bytes = i;
  return count;
}

/* <<- heredocs: remove the smallest indentation of the non-blank lines
** from every line; a line that starts with a template sequence has zero
** indentation. */
static void flush_indent(struct vec *v) {
  uint32_t min = UINT32_MAX;
  bool newline = true;
  for (uint32_t i = 0; i < v->n; i++) {
    struct ast *p = v->v[i];
    if (newline) {
      newline = false;
      if (p->kind == AST_STRING) {
        uint32_t b, sp = lead_spaces(p, &b);
        bool blank = b == p->n && ends_nl(p);
        if (!blank && sp < min)
          min = sp;
      } else {
        min = 0;
      }
    }
    if (ends_nl(p))
      newline = true;
  }
  if (min == 0 || min == UINT32_MAX)
    return;
  newline = true;
  for (uint32_t i = 0; i < v->n; i++) {
    struct ast *p = v->v[i];
    if (newline && p->kind == AST_STRING) {
      uint32_t b, sp = lead_spaces(p, &b);
      if (!(b == p->n && ends_nl(p))) {
        for (uint32_t k = 0; k < min && k < sp; k++) {
          int len = space_len(p->str, p->n);
          if (p->str[0] == '\r' && p->n > 1 && p->str[1] == '\n')
            len = 2;
          p->str += len;
          p->n -= (uint32_t)len;
          p->span.start += (uint32_t)len;
        }
      }
    }
    newline = ends_nl(p);
  }
}

/* Join runs of adjacent literals into one. */
static void meld(struct parse_ctx *c, struct vec *v) {
  uint32_t out = 0;
  for (uint32_t i = 0; i < v->n;) {
    struct ast *p = v->v[i];
    uint32_t j = i + 1;
    if (p->kind == AST_STRING) {
      size_t total = p->n;
      while (j < v->n && v->v[j]->kind == AST_STRING)
        total += v->v[j++]->n;
      if (j > i + 1) {
        char *buf = tfr_arena_alloc(c->a, total + 1);
        size_t at = 0;
        for (uint32_t k = i; k < j; k++) {
          memcpy(buf + at, v->v[k]->str, v->v[k]->n);
          at += v->v[k]->n;
        }
        struct ast *m =
            leaf(c, AST_STRING, buf, (uint32_t)total,
                 (struct span){p->span.start, v->v[j - 1]->span.end});
        p = m;
      }
    }
    v->v[out++] = p;
    i = j;
  }
  v->n = out;
}

struct open_dir {
  struct ast *node; /* AST_TIF or AST_TFOR */
  struct ast *raw;  /* the opening directive part */
  struct vec *body;
  struct vec *then; /* TIF: the then-branch once in the else clause */
  bool in_else;
};

static const char *at_text(struct parse_ctx *c, struct span s) {
  struct tfr_range r = src_range(c->src, s);
  char buf[512];
  tfr_range_format(&r, buf, sizeof buf);
  return tfr_arena_strdup(c->a, buf);
}

static struct ast *as_template(struct parse_ctx *c, struct vec *v) {
  struct span s = {0, 0};
  vec_close(c, v);
  if (v->n)
    s = (struct span){v->v[0]->span.start, v->v[v->n - 1]->span.end};
  return ast_list(c, AST_TEMPLATE, v, s);
}

static void unbalanced(struct parse_ctx *c, struct ast *p, const char *what) {
  parse_error(c, p->span,
              tfr_arena_printf(c->a, "Unexpected %s directive", what),
              "The control directives within this template are unbalanced.");
}

/* Close the innermost %{if} or %{for} and add it to its parent. */
static void close_dir(struct open_dir *d, struct vec *parent,
                      struct parse_ctx *c, struct span end) {
  struct ast *n = d->node;
  n->span.end = end.end;
  if (n->kind == AST_TIF) {
    n->kids[1] = as_template(c, d->in_else ? d->then : d->body);
    n->kids[2] = d->in_else ? as_template(c, d->body) : NULL;
  } else {
    n->kids[3] = as_template(c, d->body);
  }
  vec_push(c, parent, n);
}

/* Turn the flat list of parts into the tree of %{if}/%{for} directives. */
static struct vec *structure(struct parse_ctx *c, struct vec *parts,
                             struct span end) {
  struct vec *root = vec_new(c);
  struct open_dir *st = NULL;
  uint32_t n = 0, cap = 0;
  for (uint32_t i = 0; i < parts->n && !c->failed; i++) {
    struct ast *p = parts->v[i];
    struct open_dir *t = n ? &st[n - 1] : NULL;
    struct vec *cur = t ? t->body : root;
    switch (p->kind) {
    case TP_INTERP:
      vec_push(c, cur, p->a);
      break;
    case TP_IF:
    case TP_FOR: {
      if (n == cap) {
        cap = cap ? cap * 2 : 4;
        struct open_dir *ns = tfr_arena_alloc(c->a, cap * sizeof *ns);
        if (n)
          memcpy(ns, st, n * sizeof *ns);
        st = ns;
      }
      struct ast *d =
          ast_new(c, p->kind == TP_IF ? AST_TIF : AST_TFOR, p->span);
      if (p->kind == TP_IF) {
        d->kids[0] = p->a;
      } else {
        d->kids[0] = p->kids[0];
        d->kids[1] = p->kids[1];
        d->kids[2] = p->kids[2];
      }
      st[n++] = (struct open_dir){d, p, vec_new(c), NULL, false};
      break;
    }
    case TP_ELSE:
      if (!t)
        unbalanced(c, p, "else");
      else if (t->node->kind == AST_TFOR)
        parse_error(c, p->span, "Unexpected else directive",
                    "An else clause is not expected for a for directive.");
      else if (t->in_else)
        parse_error(c, p->span, "Unexpected else directive",
                    tfr_arena_printf(c->a,
                                     "Already in the else clause for the if "
                                     "started at %s.",
                                     at_text(c, t->raw->span)));
      else {
        vec_close(c, t->body); /* it is on top of the scratch stack now */
        t->then = t->body;
        t->body = vec_new(c);
        t->in_else = true;
      }
      break;
    case TP_ENDIF:
    case TP_ENDFOR: {
      bool want_if = p->kind == TP_ENDIF;
      const char *what = want_if ? "endif" : "endfor";
      if (!t)
        unbalanced(c, p, what);
      else if ((t->node->kind == AST_TIF) != want_if)
        parse_error(
            c, p->span, tfr_arena_printf(c->a, "Unexpected %s directive", what),
            tfr_arena_printf(c->a,
                             want_if ? "Expecting an endfor directive "
                                       "corresponding to the for directive "
                                       "at %s."
                                     : "Expecting an endif directive for the "
                                       "if started at %s.",
                             at_text(c, t->raw->span)));
      else {
        n--;
        close_dir(t, n ? st[n - 1].body : root, c, p->span);
      }
      break;
    }
    default:
      vec_push(c, cur, p);
    }
  }
  if (n && !c->failed) {
    struct open_dir *t = &st[n - 1];
    bool is_if = t->node->kind == AST_TIF;
    parse_error(c, end, "Unexpected end of template",
                tfr_arena_printf(c->a,
                                 "The %s directive at %s is missing its "
                                 "corresponding %s directive.",
                                 is_if ? "if" : "for", at_text(c, t->raw->span),
                                 is_if ? "endif" : "endfor"));
  }
  c->top = root->start + root->n; /* drop what unbalanced directives left */
  vec_close(c, root);
  return root;
}

struct ast *ast_template(struct parse_ctx *c, struct vec *parts, bool heredoc,
                         bool flush, struct span s) {
  uint16_t fl = heredoc ? AST_F_HEREDOC : 0;
  struct ast *only = parts->n == 1 ? c->scratch[parts->start] : NULL;
  if (!parts->v && !flush && parts->n <= 1 &&
      (!only || only->kind == AST_STRING)) {
    /* a plain literal, the most common template by far: its own node,
    ** spanning the quotes (nothing else refers to it), and no list (a map
    ** of 300,000 strings makes no second node or list each) */
    c->top = parts->start;
    if (parts != c->top_items)
      c->spare = parts;
    struct ast *x = only ? only : leaf(c, AST_STRING, "", 0, s);
    x->span = s;
    x->flags = fl;
    return x;
  }
  vec_close(c, parts);
  apply_strip(parts);
  if (flush)
    flush_indent(parts);
  meld(c, parts);
  struct span end = {s.end - 1, s.end};
  if (heredoc) {
    end.start = s.end;
    while (end.start > s.start && c->src->text[end.start - 1] != '\n')
      end.start--;
  }
  struct vec *v = structure(c, parts, end);
  if (v->n == 0 || (v->n == 1 && v->v[0]->kind == AST_STRING)) {
    /* a literal after all (parts melded into one, a heredoc flushed) */
    struct ast *x = v->n ? v->v[0] : leaf(c, AST_STRING, "", 0, s);
    x->span = s;
    x->flags = fl;
    return x;
  }
  struct ast *t = ast_list(c, AST_TEMPLATE, v, s);
  t->flags = fl;
  return t;
}
