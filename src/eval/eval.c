/*
** Expression evaluation with HCL's semantics (hclsyntax expression*.go):
** literals, templates, operators, conditionals, collections, for
** expressions, splats, indexes and attribute access.
*/
#include "base/arena_int.h"
#include "eval/eval.h"
#include "base/heap.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "values/convert.h"
#include "base/diag_int.h"
#include "values/number.h"
#include "base/strutil.h"
#include "eval/scratch.h"

#define MARKS (TFR_V_SENSITIVE | TFR_V_EPHEMERAL)

void eval_error(struct eval_ctx *c, const struct ast *at, const char *summary,
                const char *detail) {
  struct tfr_range r = src_range(c->src, at->span);
  tfr_diags_add(c->diags, TFR_DIAG_ERROR, &r, summary, detail);
}

void eval_error_span(struct eval_ctx *c, struct span s, const char *summary,
                     const char *detail) {
  struct tfr_range r = src_range(c->src, s);
  tfr_diags_add(c->diags, TFR_DIAG_ERROR, &r, summary, detail);
}

#define error_span eval_error_span

/* The first byte of c's source at or after i that is ch, or NO_POS. */
#define NO_POS UINT32_MAX
static uint32_t find_char(const struct eval_ctx *c, uint32_t i, uint32_t end,
                          char ch) {
  for (; i < end && i < c->src->len; i++)
    if (c->src->text[i] == ch)
      return i;
  return NO_POS;
}

struct span eval_call_start(const struct eval_ctx *c, const struct ast *x) {
  const struct ast *name = x->kids[0];
  uint32_t open = find_char(c, name->span.end, x->span.end, '(');
  return (struct span){x->span.start,
                       open == NO_POS ? name->span.end : open + 1};
}

struct span eval_call_close(const struct eval_ctx *c, const struct ast *x) {
  uint32_t e = x->span.end;
  if (e > x->span.start && e <= c->src->len && c->src->text[e - 1] == ')')
    return (struct span){e - 1, e};
  return x->span;
}

struct span eval_start_span(const struct eval_ctx *c, const struct ast *x) {
  switch (x->kind) {
  case AST_CALL:
    return eval_call_start(c, x);
  case AST_TUPLE:
  case AST_OBJECT:
  case AST_FOR:
    return (struct span){x->span.start, x->span.start + 1}; /* [ or { */
  case AST_UNARY: /* its operator, as HCL's StartRange */
    return (struct span){x->span.start, x->span.start + 1};
  case AST_BINARY:
    return eval_start_span(c, x->a);
  case AST_COND:
    return eval_start_span(c, x->a);
  case AST_STRING: /* a quoted literal: its text, as HCL's first part */
    if (!(x->flags & AST_F_HEREDOC) && x->span.end >= x->span.start + 2 &&
        x->span.end <= c->src->len && c->src->text[x->span.start] == '"')
      return x->span.end == x->span.start + 2 /* "": after it, as HCL */
                 ? (struct span){x->span.end, x->span.end}
                 : (struct span){x->span.start + 1, x->span.end - 1};
    return x->span;
  case AST_TEMPLATE:
    if (!(x->flags & AST_F_HEREDOC) && x->n && x->items[0]->kind != AST_TIF &&
        x->items[0]->kind != AST_TFOR)
      return eval_start_span(c, x->items[0]);
    return x->span;
  case AST_SPLAT: { /* its "[*]" or ".*" */
    for (uint32_t i = x->a->span.end; i < x->span.end && i < c->src->len; i++)
      if (c->src->text[i] == '[' || c->src->text[i] == '.') {
        char last = c->src->text[i] == '[' ? ']' : '*';
        uint32_t e = i + 1;
        while (e < x->span.end && e < c->src->len &&
               c->src->text[e - 1] != last)
          e++;
        return (struct span){i, e};
      }
    return x->span;
  }
  default:
    return x->span;
  }
}

/* The step of a traversal, ".name" or "[key]", after the expression of
** what it steps into: HCL's diagnostics about the step point at it. */
static struct span step_span(const struct eval_ctx *c, const struct ast *x,
                             const struct ast *of) {
  for (uint32_t i = of->span.end; i < x->span.end && i < c->src->len; i++)
    if (c->src->text[i] == '.' || c->src->text[i] == '[')
      return (struct span){i, x->span.end};
  return x->span;
}

const tfr_value *eval_dynamic(struct eval_ctx *c) {
  return tfr_unknown(c->a, &tfr_t_dynamic);
}

static bool is_null(const tfr_value *v) { return v->flags & TFR_V_NULL; }
static bool is_unknown(const tfr_value *v) { return v->flags & TFR_V_UNKNOWN; }
static unsigned marks_of(const tfr_value *v) { return v->flags & MARKS; }
static const tfr_value *with_marks(struct eval_ctx *c, const tfr_value *v,
                                   unsigned marks) {
  return marks ? tfr_value_mark(c->a, v, marks) : v;
}

/* ---- literals and templates -------------------------------------------- */

static const tfr_value *eval_number(struct eval_ctx *c, const struct ast *x) {
  const struct tfr_num *n = num_parse(c->a, x->str, x->n);
  if (!n) {
    eval_error(c, x, "Invalid number literal",
               "Failed to recognize the value of this number literal.");
    return eval_dynamic(c);
  }
  tfr_value *v = tfr_arena_alloc(c->a, sizeof *v);
  v->type = &tfr_t_number;
  v->num = n;
  return v;
}

/* A template's text, in the arena: at most the memory budget or
** TFR_MAX_STRING bytes (then too_large). */
static struct sbuf text_buf(struct eval_ctx *c) {
  size_t budget = arena_value_budget();
  return (struct sbuf){.arena = c->a,
                       .limit =
                           budget < TFR_MAX_STRING ? budget : TFR_MAX_STRING};
}

/* One interpolated value into a template's text; false when the template
** result cannot be known.  A null or a value that is not a string is an
** error but leaves the result known, as in HCL (TemplateExpr.Value: only
** an unknown part makes it unknown; a part that failed is unknown). */
static bool append_part(struct eval_ctx *c, struct sbuf *b,
                        const struct ast *at, const tfr_value *v,
                        const char *null_detail) {
  if (is_null(v)) {
    eval_error(c, at, "Invalid template interpolation value", null_detail);
    return true;
  }
  if (is_unknown(v))
    return false;
  const char *err = NULL;
  const tfr_value *s = conv_convert(c->a, v, &tfr_t_string, &err);
  if (!s) {
    eval_error(c, at, "Invalid template interpolation value",
               tfr_arena_printf(c->a,
                                "Cannot include the given value in a string "
                                "template: %s.",
                                err ? err : "string required"));
    return true;
  }
  if (is_unknown(s))
    return false;
  sbuf_put(b, s->s, s->n);
  return true;
}

static bool template_parts(struct eval_ctx *c, struct sbuf *b,
                           const struct ast *t, unsigned *marks,
                           size_t *unknown_at);

static bool as_bool(struct eval_ctx *c, const struct ast *at,
                    const tfr_value *v, bool *out, bool *known);

/* %{if} inside a template: the branch's text, or nothing. */
static bool template_if(struct eval_ctx *c, struct sbuf *b, const struct ast *p,
                        unsigned *marks) {
  const tfr_value *cond = eval_expr(c, p->kids[0]);
  bool t, known;
  if (!as_bool(c, p->kids[0], cond, &t, &known) || !known)
    return false;
  *marks |= marks_of(cond);
  const struct ast *branch = t ? p->kids[1] : p->kids[2];
  size_t ignored = SIZE_MAX;
  return !branch || template_parts(c, b, branch, marks, &ignored);
}

static const tfr_value *for_collection(struct eval_ctx *c,
                                       const struct ast *coll_expr,
                                       const tfr_value *coll);

static bool over_budget(struct eval_ctx *c, const struct ast *x);
static const tfr_value *for_key(struct eval_ctx *c, const tfr_value *coll,
                                uint32_t i);

/* A template's iterations keep nothing in the arena: their text is in
** the template's buffer (malloc'd). */
static void keep_nothing(void *ud, struct scratch *s) {
  (void)ud;
  (void)s;
}

/* %{for} inside a template: the body's text once per element; what the
** iterations allocate is given back as batches fill (scratch.h). */
static bool template_for(struct eval_ctx *c, struct sbuf *b,
                         const struct ast *p, unsigned *marks) {
  const tfr_value *coll =
      for_collection(c, p->kids[2], eval_expr(c, p->kids[2]));
  if (!coll)
    return false;
  *marks |= marks_of(coll);
  bool ok = true;
  const struct eval_binding *saved = c->bindings;
  bool saved_in_for = c->in_for;
  c->in_for = true;
  struct scratch s;
  scratch_begin(&s, c->a, c->diags, c->objtypes);
  for (uint32_t i = 0; i < coll->n && ok && !b->too_large; i++) {
    if (over_budget(c, p)) {
      ok = false;
      break;
    }
    struct eval_binding kb, vb;
    vb = (struct eval_binding){p->kids[1]->str, p->kids[1]->n, coll->elems[i],
                               saved};
    c->bindings = &vb;
    if (p->kids[0]) {
      kb = (struct eval_binding){p->kids[0]->str, p->kids[0]->n,
                                 for_key(c, coll, i), &vb};
      c->bindings = &kb;
    }
    size_t ignored = SIZE_MAX;
    ok = template_parts(c, b, p->kids[3], marks, &ignored);
    if (scratch_full(&s))
      scratch_release(&s, keep_nothing, NULL);
  }
  scratch_end(&s);
  c->bindings = saved;
  c->in_for = saved_in_for;
  return ok;
}

/* The text of template t into b; false when it is not known.
** *unknown_at gets where the first part that is not known began (HCL's
** known prefix), if it is still SIZE_MAX. */
static bool template_parts(struct eval_ctx *c, struct sbuf *b,
                           const struct ast *t, unsigned *marks,
                           size_t *unknown_at) {
  if (t->kind == AST_STRING) {
    sbuf_put(b, t->str, t->n);
    return true;
  }
  bool known = true;
  for (uint32_t i = 0; i < t->n; i++) {
    const struct ast *p = t->items[i];
    bool ok;
    size_t at = b->n;
    if (p->kind == AST_STRING) {
      sbuf_put(b, p->str, p->n);
      continue;
    }
    if (p->kind == AST_TIF)
      ok = template_if(c, b, p, marks);
    else if (p->kind == AST_TFOR)
      ok = template_for(c, b, p, marks);
    else {
      const tfr_value *v = eval_expr(c, p);
      *marks |= marks_of(v);
      ok = append_part(c, b, p, v,
                       "The expression result is null. Cannot include a "
                       "null value in a string template.");
    }
    if (!ok && *unknown_at == SIZE_MAX)
      *unknown_at = at;
    known &= ok;
  }
  return known;
}

/* A template's value from its text in b, known or not. */
static const tfr_value *template_value(struct eval_ctx *c, const struct ast *x,
                                       struct sbuf *b, bool known,
                                       size_t unknown_at, size_t before) {
  /* still a string, as in HCL: known unless a part is unknown (its text
  ** is not used) */
  if (tfr_diags_count(c->diags) > before)
    return known ? tfr_string(c->a, "", 0) : tfr_unknown(c->a, &tfr_t_string);
  if (b->too_large) {
    eval_error(c, x, "Value too large",
               arena_value_budget() < TFR_MAX_STRING
                   ? "The template's result is longer than this run's "
                     "memory budget (-max-memory)."
                   : "The template's result is a string of more than 4 GiB, "
                     "the longest this program holds.");
    tfr_diags_set_ours(c->diags);
    return tfr_unknown(c->a, &tfr_t_string);
  }
  /* an unknown result is not null and keeps its known prefix, of at
  ** most 128 bytes (HCL's TemplateExpr, cty's StringPrefix) */
  return known ? tfr_string(c->a, b->p ? b->p : "", b->n)
               : tfr_unknown_string_prefix(
                     c->a, b->p ? b->p : "",
                     unknown_at == SIZE_MAX
                         ? 0
                         : (unknown_at < 128 ? unknown_at : 128));
}

static const tfr_value *eval_template(struct eval_ctx *c, const struct ast *x) {
  /* A template that is a single interpolation yields the value itself. */
  if (x->n == 1 && x->items[0]->kind != AST_STRING &&
      x->items[0]->kind != AST_TIF && x->items[0]->kind != AST_TFOR)
    return eval_expr(c, x->items[0]);
  /* the text is malloc'd, not the arena's: a %{for} gives back what its
  ** iterations allocate there (template_for) */
  struct sbuf b = text_buf(c);
  b.arena = NULL;
  unsigned marks = 0;
  size_t before = tfr_diags_count(c->diags);
  size_t unknown_at = SIZE_MAX;
  bool known = template_parts(c, &b, x, &marks, &unknown_at);
  const tfr_value *v = template_value(c, x, &b, known, unknown_at, before);
  free(b.p);
  return with_marks(c, v, marks);
}

/* ---- operators --------------------------------------------------------- */

/* A value as a bool, as HCL converts conditions. */
static bool as_bool(struct eval_ctx *c, const struct ast *at,
                    const tfr_value *v, bool *out, bool *known) {
  *known = false;
  if (is_null(v)) {
    eval_error(c, at, "Null condition",
               "The condition value is null. Conditions must either be "
               "true or false.");
    return false;
  }
  if (is_unknown(v)) /* before the conversion, as HCL's ConditionalExpr:
                     ** an unknown condition of another type is no error */
    return true;
  const char *err = NULL;
  const tfr_value *b = conv_convert(c->a, v, &tfr_t_bool, &err);
  if (!b) {
    eval_error(c, at, "Incorrect condition type",
               "The condition expression must be of type bool.");
    return false;
  }
  if (is_unknown(b))
    return true;
  *known = true;
  *out = b->b;
  return true;
}

static const tfr_value *operand(struct eval_ctx *c, const struct ast *at,
                                const tfr_value *v, const tfr_type *want,
                                const char *side) {
  const char *err = NULL;
  const tfr_value *r = conv_convert(c->a, v, want, &err);
  if (!r) {
    eval_error(c, at, "Invalid operand",
               tfr_arena_printf(c->a, "Unsuitable value for %s operand: %s.",
                                side, err ? err : "incorrect type"));
    return NULL;
  }
  return r; /* a null converts: the operation fails on it (eval_binary) */
}

static const tfr_value *number_value(struct eval_ctx *c,
                                     const struct tfr_num *n) {
  tfr_value *v = tfr_arena_alloc(c->a, sizeof *v);
  v->type = &tfr_t_number;
  v->num = n;
  return v;
}

/* The number function of each arithmetic operator. */
static const struct tfr_num *(*const arith_fns[])(tfr_arena *,
                                                  const struct tfr_num *,
                                                  const struct tfr_num *) = {
    [OP_ADD] = num_add,
    [OP_SUB] = num_sub,
    [OP_MUL] = num_mul,
    [OP_DIV] = num_div,
    [OP_MOD] = num_mod};

static const tfr_value *arith(struct eval_ctx *c, const struct ast *x,
                              const tfr_value *l, const tfr_value *r) {
  unsigned marks = marks_of(l) | marks_of(r);
  if (is_unknown(l) || is_unknown(r))
    return with_marks(c, tfr_unknown(c->a, &tfr_t_number), marks);
  assert(x->op >= OP_ADD && x->op <= OP_MOD);
  const struct tfr_num *n = arith_fns[x->op](c->a, l->num, r->num);
  if (!n) {
    static const char ops[] = {[OP_ADD] = '+',
                               [OP_SUB] = '-',
                               [OP_MUL] = '*',
                               [OP_DIV] = '/',
                               [OP_MOD] = '%'};
    const char *why = num_op_error(ops[x->op], l->num, r->num);
    eval_error(c, x, "Operation failed",
               tfr_arena_printf(c->a, "Error during operation: %s.",
                                why ? why : "the operation failed"));
    return eval_dynamic(c);
  }
  return with_marks(c, number_value(c, n), marks);
}

static const tfr_value *compare(struct eval_ctx *c, const struct ast *x,
                                const tfr_value *l, const tfr_value *r) {
  unsigned marks = marks_of(l) | marks_of(r);
  if (is_unknown(l) || is_unknown(r))
    return with_marks(c, tfr_unknown(c->a, &tfr_t_bool), marks);
  int k = num_cmp(l->num, r->num);
  bool res = x->op == OP_LT   ? k < 0
             : x->op == OP_LE ? k <= 0
             : x->op == OP_GT ? k > 0
                              : k >= 0;
  return with_marks(c, tfr_bool(res), marks);
}

/* == and !=: cty's Equals, which is false across types, also when one
** side is unknown (unknown values in the validate walk have their declared
** types).  Its function does not take marked values: the marks of both
** operands, from anywhere inside them, go to the result, also when one
** side is null: HCL calls stdlib.EqualFunc (hclsyntax/expression_ops.go:
** 278 in hcl v2.24.0), whose parameters have no AllowMarked, so cty's
** Function.Call unmarks them deeply before Value.Equals and puts all
** those marks on the result (cty/function/function.go:297-311 in go-cty
** v1.18.1); Equals's own rule for one null operand (value_ops.go:
** 146-160) never sees a mark. */
static const tfr_value *equality(struct eval_ctx *c, const struct ast *x,
                                 const tfr_value *l, const tfr_value *r) {
  unsigned marks = tfr_value_marks(l) | tfr_value_marks(r);
  int eq = tfr_value_equals(l, r); /* refinements included */
  if (eq < 0) {
    tfr_value *u = UNCONST(tfr_value *, tfr_unknown(c->a, &tfr_t_bool));
    u->flags |= TFR_V_NOTNULL;
    return with_marks(c, u, marks);
  }
  return with_marks(c, tfr_bool(x->op == OP_EQ ? eq : !eq), marks);
}

/* A logical operand converted to bool; NULL after reporting why not.  A
** null operand is allowed here: it counts as false when deciding. */
static const tfr_value *logic_operand(struct eval_ctx *c, const struct ast *at,
                                      const tfr_value *v, const char *side) {
  const char *err = NULL;
  const tfr_value *r = conv_convert(c->a, v, &tfr_t_bool, &err);
  if (!r)
    eval_error(c, at, "Invalid operand",
               tfr_arena_printf(c->a, "Unsuitable value for %s operand: %s.",
                                side, err ? err : "a bool is required"));
  return r;
}

/* Does this operand alone decide the result (false for &&, true for ||)?
** A null operand is not true, as cty's True() sees it. */
static bool decisive(const tfr_value *v, bool and) {
  if (is_unknown(v))
    return false;
  bool t = !is_null(v) && v->b;
  return and? !t : t;
}

/*
** && and || short-circuit as in Terraform >= 1.12: both operands are
** evaluated and must be bools, but when one known operand decides the
** result, errors from evaluating the other are dropped, so
** `var.x == null || length(var.x) > 0` is safe.
*/
static const tfr_value *logical(struct eval_ctx *c, const struct ast *x) {
  bool and = x->op == OP_AND;
  size_t c0 = tfr_diags_count(c->diags);
  const tfr_value *lv = eval_expr(c, x->a);
  size_t c1 = tfr_diags_count(c->diags);
  const tfr_value *rv = eval_expr(c, x->kids[0]);
  size_t c2 = tfr_diags_count(c->diags);
  const tfr_value *l = logic_operand(c, x->a, lv, "left");
  const tfr_value *r = logic_operand(c, x->kids[0], rv, "right");
  if (!l || !r) { /* conversion errors first, then the operands' */
    diags_move_to_end(c->diags, c0, c2);
    return tfr_unknown(c->a, &tfr_t_bool);
  }
  unsigned marks = marks_of(l) | marks_of(r);
  bool lerr = c1 > c0;
  if (is_unknown(l) && is_unknown(r)) {
    if (lerr)
      return tfr_unknown(c->a, &tfr_t_bool);
    diags_remove(c->diags, c1, c2);
    return with_marks(c, tfr_unknown(c->a, &tfr_t_bool), marks);
  }
  if (decisive(l, and)) {
    diags_remove(c->diags, c1, c2);
    return with_marks(c, tfr_bool(!and), marks);
  }
  if (decisive(r, and)) {
    diags_remove(c->diags, c0, c1);
    return with_marks(c, tfr_bool(!and), marks);
  }
  if (is_unknown(l)) {
    diags_remove(c->diags, c1, c2);
    return with_marks(c, tfr_unknown(c->a, &tfr_t_bool), marks);
  }
  if (is_unknown(r)) {
    diags_remove(c->diags, c0, c1);
    return with_marks(c, tfr_unknown(c->a, &tfr_t_bool), marks);
  }
  if (tfr_diags_count(c->diags) > c0)
    return tfr_unknown(c->a, &tfr_t_bool);
  if (is_null(l) || is_null(r)) {
    eval_error(c, x, "Operation failed",
               "Error during operation: argument must not be null.");
    return tfr_unknown(c->a, &tfr_t_bool);
  }
  return with_marks(c, tfr_bool(and? l->b && r->b : l->b || r->b), marks);
}

static const tfr_value *eval_binary(struct eval_ctx *c, const struct ast *x) {
  if (x->op == OP_AND || x->op == OP_OR)
    return logical(c, x);
  size_t c0 = tfr_diags_count(c->diags);
  const tfr_value *lv = eval_expr(c, x->a);
  const tfr_value *rv = eval_expr(c, x->kids[0]);
  size_t c2 = tfr_diags_count(c->diags);
  if ((x->op == OP_EQ || x->op == OP_NE) && diags_errors_since(c->diags, c0))
    return tfr_unknown(c->a, &tfr_t_bool); /* HCL calls no function then */
  if (x->op == OP_EQ || x->op == OP_NE)
    return equality(c, x, lv, rv);
  /* as HCL: both operands converted (each error reported), then the
  ** operator's function called, which takes no null */
  bool cmp =
      x->op == OP_LT || x->op == OP_LE || x->op == OP_GT || x->op == OP_GE;
  const tfr_type *rt = cmp ? &tfr_t_bool : &tfr_t_number;
  const tfr_value *l = operand(c, x->a, lv, &tfr_t_number, "left");
  const tfr_value *r = operand(c, x->kids[0], rv, &tfr_t_number, "right");
  if (!l || !r) {
    diags_move_to_end(c->diags, c0, c2);
    return tfr_unknown(c->a, rt);
  }
  if (tfr_diags_count(c->diags) > c0)
    return tfr_unknown(c->a, rt);
  if (is_null(l) || is_null(r)) {
    eval_error(c, x, "Operation failed",
               "Error during operation: argument must not be null.");
    return tfr_unknown(c->a, rt);
  }
  if (cmp)
    return compare(c, x, l, r);
  return arith(c, x, l, r);
}

static const tfr_value *eval_unary(struct eval_ctx *c, const struct ast *x) {
  bool neg = x->op == OP_NEG;
  const char *err = NULL;
  const tfr_value *v = conv_convert(c->a, eval_expr(c, x->a),
                                    neg ? &tfr_t_number : &tfr_t_bool, &err);
  /* after an error, an unknown of the operation's type, as HCL */
  const tfr_type *rt = neg ? &tfr_t_number : &tfr_t_bool;
  if (!v) {
    eval_error(c, x->a, "Invalid operand",
               tfr_arena_printf(c->a, "Unsuitable value for unary operand: %s.",
                                err ? err : "incorrect type"));
    return tfr_unknown(c->a, rt);
  }
  if (is_null(v)) {
    /* a null converts; it is the operation itself that fails */
    eval_error(c, x, "Operation failed",
               "Error during operation: argument must not be null.");
    return tfr_unknown(c->a, rt);
  }
  /* cty's NotFunc and NegateFunc allow marks but not unknowns: an
  ** unknown operand gives an unknown result without its marks, not null
  ** (cty/function/function.go:297-340 collects marks only from the
  ** parameters that do not allow them; stdlib/bool.go:8-23,
  ** number.go:308-323 in go-cty v1.18.1) */
  if (is_unknown(v)) {
    tfr_value *u = UNCONST(tfr_value *, tfr_unknown(c->a, rt));
    u->flags |= TFR_V_NOTNULL;
    return u;
  }
  const tfr_value *r =
      neg ? number_value(c, num_neg(c->a, v->num)) : tfr_bool(!v->b);
  return with_marks(c, r, marks_of(v));
}

/* Why two result types of a conditional do not unify, as HCL describes
** it: inside objects and tuples (and collections of them) it says which
** attribute or element differs. */
static const char *describe_mismatch(tfr_arena *a, const tfr_type *t,
                                     const tfr_type *f) {
  if (t->kind == TFR_OBJECT && f->kind == TFR_OBJECT) {
    for (uint32_t i = 0; i < t->n; i++) { /* names are sorted */
      long j = tfr_type_attr(f, t->names[i], strlen(t->names[i]));
      if (j < 0)
        return tfr_arena_printf(a,
                                "The 'true' value includes object attribute "
                                "\"%s\", which is absent in the 'false' value",
                                t->names[i]);
      if (!tfr_type_equal(t->types[i], f->types[j]))
        return tfr_arena_printf(a,
                                "Type mismatch for object attribute \"%s\": "
                                "%s",
                                t->names[i],
                                describe_mismatch(a, t->types[i], f->types[j]));
    }
    for (uint32_t j = 0; j < f->n; j++)
      if (tfr_type_attr(t, f->names[j], strlen(f->names[j])) < 0)
        return tfr_arena_printf(a,
                                "The 'false' value includes object attribute "
                                "\"%s\", which is absent in the 'true' value",
                                f->names[j]);
  } else if (t->kind == TFR_TUPLE && f->kind == TFR_TUPLE) {
    if (t->n != f->n)
      return tfr_arena_printf(a,
                              "The 'true' tuple has length %u, but the 'false' "
                              "tuple has length %u",
                              (unsigned)t->n, (unsigned)f->n);
    for (uint32_t i = 0; i < t->n; i++)
      if (!tfr_type_equal(t->types[i], f->types[i]))
        return tfr_arena_printf(a, "Type mismatch for tuple element %u: %s",
                                (unsigned)i,
                                describe_mismatch(a, t->types[i], f->types[i]));
  } else if (t->kind == f->kind &&
             (t->kind == TFR_LIST || t->kind == TFR_SET ||
              t->kind == TFR_MAP) &&
             ((t->elem->kind == TFR_OBJECT && f->elem->kind == TFR_OBJECT) ||
              (t->elem->kind == TFR_TUPLE && f->elem->kind == TFR_TUPLE))) {
    return tfr_arena_printf(a, "Mismatched %s element types: %s",
                            t->kind == TFR_LIST  ? "list"
                            : t->kind == TFR_SET ? "set"
                                                 : "map",
                            describe_mismatch(a, t->elem, f->elem));
  }
  const char *tn = tfr_type_friendly(a, t), *fn = tfr_type_friendly(a, f);
  if (!strcmp(tn, fn))
    return "At least one deeply-nested attribute or element is not "
           "compatible across both the 'true' and the 'false' value";
  return tfr_arena_printf(a,
                          "The 'true' value is %s, but the 'false' value "
                          "is %s",
                          tn, fn);
}

/* cond ? a : b — both results are evaluated and unified, as HCL does. */
static const tfr_value *eval_cond(struct eval_ctx *c, const struct ast *x) {
  /* Both results are evaluated (their types decide the result's), but
  ** only the chosen one's errors count, as in HCL. */
  size_t c0 = tfr_diags_count(c->diags);
  const tfr_value *tv = eval_expr(c, x->kids[0]);
  size_t c1 = tfr_diags_count(c->diags);
  const tfr_value *fv = eval_expr(c, x->kids[1]);
  size_t c2 = tfr_diags_count(c->diags);
  const tfr_type *rt;
  bool tnull = is_null(tv) && tv->type->kind == TFR_DYNAMIC;
  bool fnull = is_null(fv) && fv->type->kind == TFR_DYNAMIC;
  if (tnull)
    rt = fv->type;
  else if (fnull)
    rt = tv->type;
  else if (tv->type->kind == TFR_DYNAMIC || fv->type->kind == TFR_DYNAMIC)
    rt = &tfr_t_dynamic; /* not known yet, as HCL leaves it */
  else {
    const tfr_type *both[2] = {tv->type, fv->type};
    rt = conv_unify(c->a, 2, both);
  }
  if (!rt) { /* HCL reports this alone, from one result to the other */
    diags_remove(c->diags, c0, c2);
    eval_error_span(
        c, (struct span){x->kids[0]->span.start, x->kids[1]->span.end},
        "Inconsistent conditional result types",
        tfr_arena_printf(c->a,
                         "The true and false result expressions must "
                         "have consistent types. %s.",
                         describe_mismatch(c->a, tv->type, fv->type)));
    return eval_dynamic(c);
  }
  const tfr_value *cond = eval_expr(c, x->a);
  bool t, known;
  if (!as_bool(c, x->a, cond, &t, &known)) {
    diags_remove(c->diags, c0, c2);
    return tfr_unknown(c->a, rt); /* of the result's type, as HCL */
  }
  /* The result has the marks of the condition and of both results, as
  ** HCL (since 2.23) gives them, whichever result is chosen. */
  unsigned marks = marks_of(cond) | marks_of(tv) | marks_of(fv);
  if (!known) {
    diags_remove(c->diags, c0, c2);
    return with_marks(c, tfr_unknown(c->a, rt), marks);
  }
  if (t)
    diags_remove(c->diags, c1, c2);
  else
    diags_remove(c->diags, c0, c1);
  const tfr_value *pick = t ? tv : fv;
  const char *err = NULL;
  const tfr_value *r = conv_convert(c->a, pick, rt, &err);
  if (!r) {
    eval_error(c, t ? x->kids[0] : x->kids[1],
               "Inconsistent conditional result types",
               tfr_arena_printf(c->a,
                                "The %s result value is not compatible with "
                                "the %s result value: %s.",
                                t ? "true" : "false", t ? "false" : "true",
                                err ? err : "incorrect type"));
    return eval_dynamic(c);
  }
  return with_marks(c, r, marks);
}

/* ---- collections ------------------------------------------------------- */

static const tfr_value *eval_tuple(struct eval_ctx *c, const struct ast *x) {
  const tfr_value **v =
      tfr_arena_alloc_raw(c->a, (x->n ? x->n : 1) * sizeof *v);
  for (uint32_t i = 0; i < x->n; i++)
    v[i] = eval_expr(c, x->items[i]);
  return tfr_tuple(c->a, x->n, v);
}

/* An object constructor's key: a bare name (or true, false, null) is the
** name itself; anything else is an expression that must give a string.
** Its bytes at *name, *len of them (not NUL-terminated; alive as long as
** the run), its marks added to *marks.  KEY_FAILED after an error,
** KEY_UNKNOWN when its value is not known. */
enum { KEY_OK, KEY_FAILED, KEY_UNKNOWN };
static int object_key(struct eval_ctx *c, const struct ast *k,
                      const char **name, uint32_t *len, unsigned *marks) {
  switch (k->kind) {
  case AST_VARIABLE: /* a bare name is its own key, as are literals */
    *len = k->n;
    *name = value_nfc_bytes(c->a, k->str, len);
    return KEY_OK;
  case AST_BOOL:
    *name = k->flags & AST_F_TRUE ? "true" : "false";
    *len = k->flags & AST_F_TRUE ? 4 : 5;
    return KEY_OK;
  case AST_NULL:
    *name = "null";
    *len = 4;
    return KEY_OK;
  case AST_STRING: /* (a name stops at a NUL byte, as everywhere) */
    *len = k->n;
    *name = value_nfc_bytes(c->a, k->str, len);
    *len = (uint32_t)strnlen(*name, *len);
    return KEY_OK;
  default:
    break;
  }
  const tfr_value *v = eval_expr(c, k->kind == AST_PAREN ? k->a : k);
  if (is_null(v)) {
    eval_error(c, k, "Null value as key", "Can't use a null value as a key.");
    return KEY_FAILED;
  }
  const char *err = NULL;
  const tfr_value *s = conv_convert(c->a, v, &tfr_t_string, &err);
  if (!s) {
    eval_error(c, k, "Incorrect key type",
               tfr_arena_printf(c->a, "Can't use this value as a key: %s.",
                                err ? err : "string required"));
    return KEY_FAILED;
  }
  *marks |= marks_of(v) | marks_of(s);
  if (is_unknown(s))
    return KEY_UNKNOWN;
  *name = s->s;
  *len = (uint32_t)strnlen(s->s, s->n);
  return KEY_OK;
}

/* Objects with more items than this find repeated keys by sorting (a JSON
** value with a map); smaller ones by scanning the names so far. */
#define OBJECT_SCAN_MAX 16

static const tfr_value *eval_object(struct eval_ctx *c, const struct ast *x) {
  size_t n = x->n;
  const char **names = tfr_arena_alloc_raw(c->a, (n ? n : 1) * sizeof *names);
  uint32_t *lens = tfr_arena_alloc_raw(c->a, (n ? n : 1) * sizeof *lens);
  const tfr_value **vals =
      tfr_arena_alloc_raw(c->a, (n ? n : 1) * sizeof *vals);
  bool json = x->flags & AST_F_JSON, scan = n <= OBJECT_SCAN_MAX;
  const struct ast **keys = /* where each key is, for a JSON value's errors */
      json ? tfr_arena_alloc_raw(c->a, (n ? n : 1) * sizeof *keys) : NULL;
  size_t out = 0;
  bool unknown = false, failed = false;
  unsigned marks =
      0; /* of the keys: a key cannot carry them, the object does */
  /* A JSON value reports a repeated key where it comes, and a small
  ** object looks for one at once; a large one leaves its repeated keys to
  ** value_object_shared, which finds them when it sorts the names (the
  ** last one wins either way). */
  struct bytemap seen = {0};
  for (size_t i = 0; i < n; i++) {
    const struct ast *kx = x->items[2 * i];
    const char *name = NULL;
    uint32_t len = 0;
    int got = object_key(c, kx, &name, &len, &marks);
    const tfr_value *v = eval_expr(c, x->items[2 * i + 1]);
    if (got != KEY_OK) {
      failed |= got == KEY_FAILED;
      unknown |= got == KEY_UNKNOWN;
      continue;
    }
    size_t j = 0;
    if (scan) {
      while (j < out && (lens[j] != len || memcmp(names[j], name, len) != 0))
        j++;
    } else if (json) { /* indexes kept as index + 1: never NULL */
      void *at = bytemap_get(&seen, name, len);
      j = at ? (size_t)((uintptr_t)at - 1) : out;
      if (!at)
        bytemap_put(&seen, name, len, (void *)(uintptr_t)(out + 1));
    } else {
      j = out;
    }
    if (j < out && json) {
      /* in a JSON value a repeated key is an error, the first one stays */
      struct tfr_range first = src_range(c->src, keys[j]->span);
      char where[512];
      tfr_range_format(&first, where, sizeof where);
      struct sbuf q = {0};
      sbuf_go_quote(&q, name, len);
      eval_error(c, kx, "Duplicate object attribute",
                 tfr_arena_printf(c->a,
                                  "An attribute named %s was already defined "
                                  "at %s.",
                                  q.p ? q.p : "\"\"", where));
      free(q.p); /* the object is still known, as HCL's JSON gives it */
      continue;
    }
    names[j] = name; /* a repeated key: the last one wins, as in HCL */
    lens[j] = len;
    vals[j] = v;
    if (keys)
      keys[j] = kx;
    if (j == out)
      out++;
  }
  bytemap_free(&seen);
  if (failed || unknown)
    return eval_dynamic(c);
  return with_marks(
      c, value_object_shared(c->a, out, names, lens, vals, c->objtypes), marks);
}

/* ---- for expressions --------------------------------------------------- */

/* The collection of a for expression, or NULL (error reported, or the
** result is unknown: then *unknown is set by the caller from its type). */
static const tfr_value *for_collection(struct eval_ctx *c,
                                       const struct ast *coll_expr,
                                       const tfr_value *coll) {
  if (is_null(coll)) {
    eval_error(c, coll_expr, "Iteration over null value",
               "A null value cannot be used as the collection in a 'for' "
               "expression.");
    return NULL;
  }
  switch (coll->type->kind) {
  case TFR_LIST:
  case TFR_SET:
  case TFR_MAP:
  case TFR_OBJECT:
  case TFR_TUPLE:
    break;
  case TFR_DYNAMIC:
    return NULL;
  default:
    eval_error(c, coll_expr, "Iteration over non-iterable value",
               tfr_arena_printf(c->a,
                                "A value of type %s cannot be used as the "
                                "collection in a 'for' expression.",
                                tfr_type_friendly(c->a, coll->type)));
    return NULL;
  }
  if (is_unknown(coll))
    return NULL;
  return coll;
}

static const tfr_value *for_key(struct eval_ctx *c, const tfr_value *coll,
                                uint32_t i) {
  switch (coll->type->kind) {
  case TFR_MAP:
    return tfr_string_nocopy(c->a, coll->keys[i], coll->keylens[i]);
  case TFR_OBJECT:
    return tfr_string_nocopy(c->a, coll->type->names[i],
                             strlen(coll->type->names[i]));
  case TFR_SET:
    return coll->elems[i];
  default:
    return number_value(c, num_from_int(c->a, i));
  }
}

const char eval_budget_summary[] = "Value too large",
           eval_budget_detail[] =
               "Evaluating this expression takes more memory than this "
               "run's memory budget (-max-memory).";

bool eval_budget_said(const tfr_diags *d) {
  for (size_t i = 0; i < tfr_diags_count(d); i++) {
    const struct tfr_diag *g = tfr_diags_get(d, i);
    if (!strcmp(g->summary, eval_budget_summary) && g->detail &&
        !strcmp(g->detail, eval_budget_detail))
      return true;
  }
  return false;
}

/*
** The memory budget (-max-memory), checked where iterations allocate:
** true, with "Value too large" reported once (the loops around stop too,
** and each would say it again), when the arena holds more than it.
*/
static bool over_budget(struct eval_ctx *c, const struct ast *x) {
  if (tfr_arena_used(c->a) <= arena_value_budget())
    return false;
  if (eval_budget_said(c->diags))
    return true;
  eval_error(c, x, eval_budget_summary, eval_budget_detail);
  tfr_diags_set_ours(c->diags);
  return true;
}

/* One key of an object for expression, with how many values it has
** (grouping) and its first. */
struct group {
  const char *key;
  uint32_t len, n, first;
};

/* One for expression being evaluated: its parts, what its iterations
** kept so far (vals; for an object, each value's group and the groups in
** the order of their first key), and where the scratch batch began. */
struct for_run {
  const struct ast *x, *kv, *vv, *key_e, *val_e, *cond_e;
  bool object, group;
  const tfr_value *coll;
  const struct eval_binding *outer;
  const tfr_value **vals;
  uint32_t *gidx;
  struct group *groups;
  uint32_t *slots; /* object: groups by key hash (index + 1; 0: empty),
                      malloc'd, a power of two at least twice the elements */
  size_t nslots;
  size_t nv, ng, batch_v, batch_g;
  unsigned marks; /* the result's: the collection's, every 'if' value's
                     and (an object) every key's, as in HCL */
  bool known;     /* false: a bad 'if' value or key (reported once) */
  bool unknown;   /* an unknown 'if' value or key */
  bool stopped;   /* over the memory budget */
};

/* HCL first tries the 'if' clause with unknown values, to catch a clause
** that is wrong whatever the element: false when it is. */
static bool for_cond_valid(struct eval_ctx *c, struct for_run *r) {
  const tfr_value *dyn = eval_dynamic(c);
  struct eval_binding vb = {r->vv->str, r->vv->n, dyn, r->outer}, kb;
  c->bindings = &vb;
  if (r->kv) {
    kb = (struct eval_binding){r->kv->str, r->kv->n, dyn, &vb};
    c->bindings = &kb;
  }
  size_t pre = tfr_diags_count(c->diags);
  const tfr_value *cv = eval_expr(c, r->cond_e);
  const char *err = NULL;
  c->bindings = r->outer;
  if (is_null(cv))
    eval_error(c, r->cond_e, "Condition is null",
               "The value of the 'if' clause must not be null.");
  else if (!conv_convert(c->a, cv, &tfr_t_bool, &err))
    eval_error(c, r->cond_e, "Invalid 'for' condition",
               tfr_arena_printf(c->a, "The 'if' clause value is invalid: %s.",
                                err ? err : "bool required"));
  return tfr_diags_count(c->diags) == pre;
}

/* e's value for the bound element converted to want, as the 'if' clause
** and an object's key are: NULL when it is null or does not convert
** (reported while r is known, then r is not), or unknown (r->unknown). */
static const tfr_value *for_part(struct eval_ctx *c, struct for_run *r,
                                 const struct ast *e, const tfr_type *want,
                                 const char *summary, const char *null_detail,
                                 const char *invalid, const char *required) {
  const tfr_value *v = eval_expr(c, e);
  if (is_null(v)) {
    if (r->known)
      eval_error(c, e, summary, null_detail);
    r->known = false;
    return NULL;
  }
  r->marks |= marks_of(v);
  const char *err = NULL;
  const tfr_value *cv = conv_convert(c->a, v, want, &err);
  if (!cv) {
    if (r->known)
      eval_error(
          c, e, summary,
          tfr_arena_printf(c->a, "%s: %s.", invalid, err ? err : required));
    r->known = false;
    return NULL;
  }
  if (is_unknown(cv)) {
    r->unknown = true;
    return NULL;
  }
  return cv;
}

/* The 'if' clause for the bound element: whether it is taken. */
static bool for_cond(struct eval_ctx *c, struct for_run *r) {
  const tfr_value *b =
      for_part(c, r, r->cond_e, &tfr_t_bool, "Invalid 'for' condition",
               "The value of the 'if' clause must not be null.",
               "The 'if' clause value is invalid", "bool required");
  return b && b->b;
}

/* The key of an object for expression for the bound element, as a known
** string; NULL when there is none (reported, or unknown). */
static const tfr_value *for_object_key(struct eval_ctx *c, struct for_run *r) {
  /* the key first, as HCL */
  return for_part(c, r, r->key_e, &tfr_t_string, "Invalid object key",
                  "Key expression in 'for' expression must not produce a "
                  "null value.",
                  "The key expression produced an invalid result",
                  "string required");
}

/* Add v under key ks: a new group, or (grouping) the group of an equal
** key, found through its hash; without grouping a repeated key is an
** error and the first value stays, as in HCL. */
static void for_add(struct eval_ctx *c, struct for_run *r, const tfr_value *ks,
                    const tfr_value *v) {
  size_t mask = r->nslots - 1, at = (size_t)str_hash(ks->s, ks->n) & mask;
  size_t j;
  for (;; at = (at + 1) & mask) {
    j = r->slots[at] ? r->slots[at] - 1 : r->ng;
    if (j == r->ng || (r->groups[j].len == ks->n &&
                       memcmp(r->groups[j].key, ks->s, ks->n) == 0))
      break;
  }
  if (j < r->ng && !r->group) {
    struct sbuf q = {0};
    sbuf_go_quote(&q, ks->s, ks->n);
    eval_error(c, r->key_e, "Duplicate object key",
               tfr_arena_printf(c->a,
                                "Two different items produced the key %s "
                                "in this 'for' expression. If duplicates "
                                "are expected, use the ellipsis (...) after "
                                "the value expression to enable grouping by "
                                "key.",
                                q.p ? q.p : "\"\""));
    free(q.p);
    return;
  }
  if (j == r->ng) {
    r->groups[r->ng++] = (struct group){ks->s, ks->n, 0, (uint32_t)r->nv};
    r->slots[at] = (uint32_t)r->ng;
  }
  r->groups[j].n++;
  r->gidx[r->nv] = (uint32_t)j;
  r->vals[r->nv++] = v;
}

/* One element: bound, its 'if' clause, its key and value kept. */
static void for_item(struct eval_ctx *c, struct for_run *r, uint32_t i) {
  struct eval_binding kb, vb;
  vb = (struct eval_binding){r->vv->str, r->vv->n, r->coll->elems[i], r->outer};
  c->bindings = &vb;
  if (r->kv) {
    kb = (struct eval_binding){r->kv->str, r->kv->n, for_key(c, r->coll, i),
                               &vb};
    c->bindings = &kb;
  }
  if (r->cond_e && !for_cond(c, r))
    return;
  if (!r->object) {
    r->vals[r->nv++] = eval_expr(c, r->val_e);
    return;
  }
  const tfr_value *ks = for_object_key(c, r);
  if (ks)
    for_add(c, r, ks, eval_expr(c, r->val_e));
}

/* The roots a scratch batch of a for expression keeps: the values and the
** keys of the groups it added. */
static void for_keep(void *ud, struct scratch *s) {
  struct for_run *r = ud;
  for (size_t k = r->batch_v; k < r->nv; k++)
    r->vals[k] = scratch_value(s, r->vals[k]);
  for (size_t j = r->batch_g; j < r->ng; j++)
    r->groups[j].key = scratch_bytes(s, r->groups[j].key, r->groups[j].len);
}

/* Every element is visited, as in HCL: each one's errors are reported; a
** bad 'if' or key value only once (known turns false).  What an iteration
** does not keep is given back as batches fill (scratch.h). */
static void for_iterate(struct eval_ctx *c, struct for_run *r) {
  struct scratch s;
  scratch_begin(&s, c->a, c->diags, c->objtypes);
  for (uint32_t i = 0; i < r->coll->n; i++) {
    if (over_budget(c, r->x)) {
      r->stopped = true;
      break;
    }
    for_item(c, r, i);
    if (scratch_full(&s)) {
      scratch_release(&s, for_keep, r);
      r->batch_v = r->nv;
      r->batch_g = r->ng;
    }
  }
  scratch_end(&s);
}

/* The value of an evaluated for expression. */
static const tfr_value *for_result(struct eval_ctx *c, struct for_run *r) {
  /* as HCL: only a bad 'if' value or key makes the whole unknown; errors
  ** inside the values leave a tuple or object of (unknown) values */
  if (r->stopped)
    return eval_dynamic(c);
  if (!r->known || r->unknown)
    return with_marks(c, eval_dynamic(c), r->marks);
  if (!r->object)
    return with_marks(c, tfr_tuple(c->a, r->nv, r->vals), r->marks);
  size_t ng = r->ng ? r->ng : 1;
  const char **names = tfr_arena_alloc_raw(c->a, ng * sizeof *names);
  const tfr_value **ov = tfr_arena_alloc_raw(c->a, ng * sizeof *ov);
  /* a group's values in their order: each group's slice of one array */
  const tfr_value **each = NULL;
  uint32_t *at = NULL;
  if (r->group) {
    each = tfr_arena_alloc_raw(c->a, (r->nv ? r->nv : 1) * sizeof *each);
    at = tfr_arena_alloc_raw(c->a, ng * sizeof *at);
    for (size_t j = 0, sum = 0; j < r->ng; sum += r->groups[j++].n)
      at[j] = (uint32_t)sum;
    for (size_t k = 0; k < r->nv; k++)
      each[at[r->gidx[k]]++] = r->vals[k];
  }
  for (size_t j = 0, sum = 0; j < r->ng; sum += r->groups[j++].n) {
    names[j] = tfr_arena_strndup(c->a, r->groups[j].key, r->groups[j].len);
    ov[j] = r->group ? tfr_tuple(c->a, r->groups[j].n, each + sum)
                     : r->vals[r->groups[j].first];
  }
  return with_marks(c, tfr_object(c->a, r->ng, names, ov), r->marks);
}

/* Set up r for x: NULL, or the result when there is nothing to iterate
** (an unknown, null or non-iterable collection). */
static const tfr_value *for_start(struct eval_ctx *c, const struct ast *x,
                                  struct for_run *r) {
  *r = (struct for_run){.x = x,
                        .kv = x->kids[0],
                        .vv = x->kids[1],
                        .key_e = x->kids[3],
                        .val_e = x->kids[4],
                        .cond_e = x->kids[5],
                        .object = x->flags & AST_F_OBJECT,
                        .group = x->flags & AST_F_GROUP,
                        .outer = c->bindings,
                        .known = true};
  const tfr_value *raw = eval_expr(c, x->kids[2]);
  r->coll = for_collection(c, x->kids[2], raw);
  if (!r->coll) {
    /* an unknown collection's marks hold (hcl's ForExpr); a null, an
    ** untyped or a non-iterable one gives an unmarked DynamicVal */
    int k = raw->type->kind;
    bool iterable = k == TFR_LIST || k == TFR_SET || k == TFR_MAP ||
                    k == TFR_OBJECT || k == TFR_TUPLE;
    return iterable && !is_null(raw) && is_unknown(raw)
               ? with_marks(c, eval_dynamic(c), marks_of(raw))
               : eval_dynamic(c);
  }
  size_t n = r->coll->n ? r->coll->n : 1;
  r->vals = tfr_arena_alloc_raw(c->a, n * sizeof *r->vals);
  if (r->object) {
    r->gidx = tfr_arena_alloc_raw(c->a, n * sizeof *r->gidx);
    r->groups = tfr_arena_alloc_raw(c->a, n * sizeof *r->groups);
    for (r->nslots = 2; r->nslots < 2 * n;)
      r->nslots *= 2;
    r->slots = heap_calloc(r->nslots, sizeof *r->slots);
  }
  r->marks = marks_of(r->coll);
  return NULL;
}

static const tfr_value *eval_for(struct eval_ctx *c, const struct ast *x) {
  struct for_run r;
  const tfr_value *none = for_start(c, x, &r);
  if (none)
    return none;
  bool saved_in_for = c->in_for;
  c->in_for = true;
  bool valid = !r.cond_e || for_cond_valid(c, &r);
  if (valid)
    for_iterate(c, &r);
  free(r.slots);
  c->bindings = r.outer;
  c->in_for = saved_in_for;
  return valid ? for_result(c, &r) : eval_dynamic(c);
}

/* ---- traversal --------------------------------------------------------- */

static bool whole_index(const tfr_value *key, int64_t *out) {
  return num_to_int64(key->num, out);
}

/* hcl.Index: a key that does not convert to the key type, with cty's
** conversion message. */
static void key_error(struct eval_ctx *c, struct span at, const char *err) {
  eval_error_span(c, at, "Invalid index",
                  tfr_arena_printf(c->a,
                                   "The given key does not identify an "
                                   "element in this collection value: %s.",
                                   err));
}

const tfr_value *eval_index(struct eval_ctx *c, struct span at,
                            const tfr_value *v, const tfr_value *key) {
  if (is_null(v)) {
    eval_error_span(c, at, "Attempt to index null value",
                    "This value is null, so it does not have any indices.");
    return eval_dynamic(c);
  }
  if (is_null(key)) {
    eval_error_span(c, at, "Invalid index",
                    "Can't use a null value as an indexing key.");
    return eval_dynamic(c);
  }
  /* an untyped collection or key: any value, with the collection's
  ** marks (hcl ops.go:51-53 in v2.24.0) */
  if (v->type->kind == TFR_DYNAMIC || key->type->kind == TFR_DYNAMIC)
    return with_marks(c, eval_dynamic(c), marks_of(v));
  unsigned marks = marks_of(v) | marks_of(key);
  const tfr_type *t = v->type;
  const char *err = NULL;
  switch (t->kind) {
  case TFR_LIST:
  case TFR_TUPLE: {
    const tfr_value *k = conv_convert(c->a, key, &tfr_t_number, &err);
    if (!k) {
      key_error(c, at, err);
      return eval_dynamic(c);
    }
    /* an unknown tuple's elements are known from its type: HasIndex is
    ** known, so the element's type or Invalid index (hcl v2.24.0
    ** ops.go:87-94, cty value_ops.go HasIndex and Length of a tuple) */
    if (is_unknown(k) || (is_unknown(v) && t->kind == TFR_LIST))
      return with_marks(
          c, tfr_unknown(c->a, t->kind == TFR_LIST ? t->elem : &tfr_t_dynamic),
          marks);
    if (!num_is_int(k->num)) {
      eval_error_span(c, at, "Invalid index",
                      "The given key does not identify an element in this "
                      "collection value: indexing a sequence requires a whole "
                      "number, but the given index has a fractional part.");
      return eval_dynamic(c);
    }
    if (num_sign(k->num) < 0) {
      eval_error_span(
          c, at, "Invalid index",
          "The given key does not identify an element in this "
          "collection value: a negative number is not a valid index "
          "for a sequence.");
      return eval_dynamic(c);
    }
    int64_t i;
    bool fits = whole_index(k, &i);
    uint32_t len = is_unknown(v) ? t->n : v->n; /* an unknown tuple's */
    if (fits && (uint64_t)i < len)
      return with_marks(
          c, is_unknown(v) ? tfr_unknown(c->a, t->types[i]) : v->elems[i],
          marks);
    /* hcl.Index says why only when index - length < 1 (ops.go:137-165),
    ** so for an index equal to the length, and only when the collection
    ** is not marked (its marked length is not looked at) */
    const char *why = "";
    if (fits && (uint64_t)i == len && !marks_of(v))
      why = len ? ": the given index is greater than or equal to the "
                  "length of the collection"
                : ": the collection has no elements";
    eval_error_span(c, at, "Invalid index",
                    tfr_arena_printf(c->a,
                                     "The given key does not identify an "
                                     "element in this collection value%s.",
                                     why));
    return eval_dynamic(c);
  }
  case TFR_MAP:
  case TFR_OBJECT: {
    /* a number looks up the attribute its digits name (HCL says more
    ** only when there is none) */
    bool was_number = t->kind == TFR_OBJECT && key->type->kind == TFR_NUMBER;
    const tfr_value *k = conv_convert(c->a, key, &tfr_t_string, &err);
    if (!k) {
      key_error(c, at, err);
      return eval_dynamic(c);
    }
    if (is_unknown(k) || is_unknown(v))
      return with_marks(
          c, tfr_unknown(c->a, t->kind == TFR_MAP ? t->elem : &tfr_t_dynamic),
          marks);
    for (uint32_t i = 0; i < v->n; i++) {
      const char *name = t->kind == TFR_MAP ? v->keys[i] : t->names[i];
      size_t len = t->kind == TFR_MAP ? v->keylens[i] : strlen(name);
      if (len == k->n && memcmp(name, k->s, len) == 0)
        return with_marks(c, v->elems[i], marks);
    }
    eval_error_span(
        c, at, "Invalid index",
        was_number ? "The given key does not identify an element in this "
                     "collection value. An object only supports looking up "
                     "attributes by name, not by numeric index."
                   : "The given key does not identify an element in this "
                     "collection value.");
    return eval_dynamic(c);
  }
  case TFR_SET:
    eval_error_span(
        c, at, "Invalid index",
        "Elements of a set are identified only by their value and "
        "don't have any separate index or key to select with, so it's "
        "only possible to perform operations across all elements of "
        "the set.");
    return eval_dynamic(c);
  default:
    eval_error_span(c, at, "Invalid index",
                    "This value does not have any indices.");
    return eval_dynamic(c);
  }
}

/* The index of attribute name in object type t, or -1: c's hint first (an
** attribute of that index and of that very name), else a search. */
static long attr_index(struct eval_ctx *c, const tfr_type *t, const char *name,
                       size_t len) {
  uint32_t *hint = c->attr_hint;
  if (hint && *hint < t->n && !memchr(name, '\0', len)) {
    const char *m = t->names[*hint];
    if (!strncmp(m, name, len) && m[len] == '\0')
      return (long)*hint;
  }
  long i = tfr_type_attr(t, name, len);
  if (hint && i >= 0)
    *hint = (uint32_t)i;
  return i;
}

/* Why name cannot be read from a list, set or tuple of type t: hcl's
** hints when it holds objects, the attribute named when each has it
** (ops.go:325-369), else "no attributes" (ops.go:381-388). */
static const char *collection_attr_detail(struct eval_ctx *c, const tfr_type *t,
                                          const char *name, size_t len) {
  if (t->kind == TFR_TUPLE || t->elem->kind != TFR_OBJECT)
    return "This value does not have any attributes.";
  if (t->kind == TFR_SET)
    return "Can't access attributes on a set of objects. Did you mean to "
           "access an attribute across all elements of the set?";
  if (tfr_type_attr(t->elem, name, len) >= 0)
    return tfr_arena_printf(c->a,
                            "Can't access attributes on a list of objects. "
                            "Did you mean to access attribute \"%.*s\" for "
                            "a specific element of the list, or across all "
                            "elements of the list?",
                            (int)len, name);
  return "Can't access attributes on a list of objects. Did you mean to "
         "access an attribute for a specific element of the list, or across "
         "all elements of the list?";
}

const tfr_value *eval_getattr(struct eval_ctx *c, struct span at,
                              const tfr_value *v, const char *name,
                              size_t len) {
  if (is_null(v)) {
    eval_error_span(c, at, "Attempt to get attribute from null value",
                    "This value is null, so it does not have any attributes.");
    return eval_dynamic(c);
  }
  unsigned marks = marks_of(v);
  const tfr_type *t = v->type;
  switch (t->kind) {
  case TFR_OBJECT: {
    long i = attr_index(c, t, name, len);
    if (i < 0) {
      eval_error_span(c, at, "Unsupported attribute",
                      tfr_arena_printf(c->a,
                                       "This object does not have an attribute "
                                       "named \"%.*s\".",
                                       (int)len, name));
      return eval_dynamic(c);
    }
    if (is_unknown(v))
      return with_marks(c, tfr_unknown(c->a, t->types[i]), marks);
    return with_marks(c, v->elems[i], marks);
  }
  case TFR_MAP:
    if (is_unknown(v))
      return with_marks(c, tfr_unknown(c->a, t->elem), marks);
    for (uint32_t i = 0; i < v->n; i++)
      if (v->keylens[i] == len && memcmp(v->keys[i], name, len) == 0)
        return with_marks(c, v->elems[i], marks);
    eval_error_span(
        c, at, "Missing map element",
        tfr_arena_printf(c->a,
                         "This map does not have an element with the "
                         "key \"%.*s\".",
                         (int)len, name));
    return eval_dynamic(c);
  case TFR_DYNAMIC: /* any value, with its marks (hcl ops.go:322-323) */
    return with_marks(c, eval_dynamic(c), marks);
  case TFR_LIST: /* hcl ops.go:325-369: hints for collections of objects */
  case TFR_SET:
  case TFR_TUPLE:
    eval_error_span(c, at, "Unsupported attribute",
                    collection_attr_detail(c, t, name, len));
    return eval_dynamic(c);
  default:
    eval_error_span(
        c, at, "Unsupported attribute",
        tfr_arena_printf(c->a,
                         "Can't access attributes on a primitive-typed "
                         "value (%s).",
                         tfr_type_friendly(c->a, t)));
    return eval_dynamic(c);
  }
}

/* The result has the source's marks, as in HCL. */
/*
** The element type of the list a splat over a list or set builds from its
** items' values, as cty.ListVal takes it (the first type that is not any,
** values of type any fit any); NULL when two differ, which cty.CanListVal
** refuses (value_init.go:190).
*/
static const tfr_type *splat_list_type(const tfr_value *const *v, size_t n) {
  const tfr_type *et = &tfr_t_dynamic;
  for (size_t i = 0; i < n; i++)
    if (et->kind == TFR_DYNAMIC)
      et = v[i]->type;
    else if (v[i]->type->kind != TFR_DYNAMIC && !tfr_type_equal(et, v[i]->type))
      return NULL;
  return et;
}

/* The range of a full splat's item part, "[*]" to the end (hcl's Each),
** which starts at the splat marker: its AST_SPLAT_ITEM. */
static struct span splat_each_span(const struct ast *x) {
  const struct ast *n = x->kids[0];
  while (n->kind != AST_SPLAT_ITEM)
    n = n->kind == AST_GETATTR ? n->kids[0] : n->a;
  return (struct span){n->span.start, x->span.end};
}

/* The type of the item part's value for an unknown item of type t. */
static const tfr_type *splat_item_type(struct eval_ctx *c, const struct ast *x,
                                       const tfr_type *t) {
  const tfr_value *saved = c->splat_item;
  c->splat_item = tfr_unknown(c->a, t);
  const tfr_type *r = eval_expr(c, x->kids[0])->type;
  c->splat_item = saved;
  return r;
}

/*
** A splat of an unknown value, as hcl's SplatExpr.Value: of a list or set,
** an unknown list of the item's type; of a tuple, an unknown tuple of the
** items' types; of any other type (it would be wrapped in a tuple, but
** might be null), any value, after the item has been checked on it.
*/
static const tfr_value *splat_unknown(struct eval_ctx *c, const struct ast *x,
                                      const tfr_value *src) {
  const tfr_type *t = src->type;
  if (t->kind == TFR_LIST || t->kind == TFR_SET)
    return tfr_unknown(c->a,
                       tfr_type_list(c->a, splat_item_type(c, x, t->elem)));
  if (t->kind == TFR_TUPLE) {
    const tfr_type **ts =
        tfr_arena_alloc_raw(c->a, (t->n ? t->n : 1) * sizeof *ts);
    for (size_t i = 0; i < t->n; i++)
      ts[i] = splat_item_type(c, x, t->types[i]);
    return tfr_unknown(c->a, tfr_type_tuple(c->a, t->n, ts));
  }
  if (t->kind != TFR_DYNAMIC) {
    const tfr_value *saved = c->splat_item;
    c->splat_item = src;
    eval_expr(c, x->kids[0]);
    c->splat_item = saved;
  }
  return eval_dynamic(c);
}

static const tfr_value *eval_splat(struct eval_ctx *c, const struct ast *x) {
  size_t before = tfr_diags_count(c->diags);
  const tfr_value *src = eval_expr(c, x->a);
  if (diags_errors_since(c->diags,
                         before)) /* hcl: any value, whatever the source */
    return eval_dynamic(c);
  unsigned marks = marks_of(src);
  bool seq = src->type->kind == TFR_LIST || src->type->kind == TFR_SET ||
             src->type->kind == TFR_TUPLE;
  if (is_null(src) && !seq) /* a value that is no sequence: none */
    return with_marks(c, tfr_tuple(c->a, 0, NULL), marks);
  if (is_null(src)) {
    eval_error(c, x->a, "Splat of null value",
               "Splat expressions (with the * symbol) cannot be applied to "
               "null sequences.");
    return eval_dynamic(c);
  }
  /* an unknown that is no sequence and cannot be null is still one
  ** element (HCL's autoUpgrade: only one that could be null is unknown) */
  if (is_unknown(src) &&
      (seq || src->type->kind == TFR_DYNAMIC || !(src->flags & TFR_V_NOTNULL)))
    return with_marks(c, splat_unknown(c, x, src), marks);
  const tfr_value *one[1] = {src};
  const tfr_value *const *items = seq ? src->elems : one;
  size_t n = seq ? src->n : 1;
  const tfr_value **out = tfr_arena_alloc_raw(c->a, (n ? n : 1) * sizeof *out);
  const tfr_value *saved = c->splat_item;
  for (size_t i = 0; i < n; i++) {
    c->splat_item = items[i];
    out[i] = eval_expr(c, x->kids[0]);
  }
  c->splat_item = saved;
  if (src->type->kind == TFR_LIST || src->type->kind == TFR_SET) {
    const tfr_type *et = n ? splat_list_type(out, n) : NULL;
    if (n && !et) { /* hclsyntax/expression.go:1948-1956 */
      error_span(c, splat_each_span(x), "Invalid nested splat expressions",
                 "The second level of splat expression produced elements of "
                 "different types, so it isn't possible to construct a valid "
                 "list to represent the top-level result.\n\nConsider using "
                 "a for expression instead, to produce a tuple-typed result "
                 "which can therefore have non-homogenous element types.");
      return eval_dynamic(c);
    }
    if (!et) { /* empty: the type the item would have, as HCL finds it */
      c->splat_item = tfr_unknown(c->a, src->type->elem);
      et = eval_expr(c, x->kids[0])->type;
      c->splat_item = saved;
    }
    return with_marks(c, tfr_list(c->a, et, n, out), marks);
  }
  return with_marks(c, tfr_tuple(c->a, n, out), marks);
}

/* ---- variables and calls ----------------------------------------------- */

/* Whether a `for` around binds the name x. */
static bool bound(const struct eval_ctx *c, const struct ast *x) {
  for (const struct eval_binding *b = c->bindings; b; b = b->next)
    if (b->len == x->n && memcmp(b->name, x->str, x->n) == 0)
      return true;
  return false;
}

/* A scope that allocated while it looked a name up (local.* evaluated on
** demand) may keep what it made: the iterations around (scratch.h) must
** not give it back.  used: the arena's size before the lookup. */
static void kept_by_scope(struct eval_ctx *c, size_t used) {
  if (tfr_arena_used(c->a) != used)
    arena_keep(c->a);
}

static const tfr_value *eval_variable(struct eval_ctx *c, const struct ast *x) {
  for (const struct eval_binding *b = c->bindings; b; b = b->next)
    if (b->len == x->n && memcmp(b->name, x->str, x->n) == 0)
      return b->value;
  if (c->scope) {
    size_t used = tfr_arena_used(c->a);
    const tfr_value *v = c->scope->lookup(c->scope->ud, c, x, x->str, x->n);
    kept_by_scope(c, used);
    if (v)
      return v;
  } else if (!c->in_for) {
    eval_error(c, x, "Variables not allowed",
               "Variables may not be used here.");
    return eval_dynamic(c);
  }
  const char *hint = "";
  for (const struct eval_binding *b = c->bindings; b; b = b->next)
    if (str_distance(b->name, b->len, x->str, x->n) < 3) {
      hint = tfr_arena_printf(c->a, " Did you mean \"%.*s\"?", (int)b->len,
                              b->name);
      break;
    }
  eval_error(c, x, "Unknown variable",
             tfr_arena_printf(c->a, "There is no variable named \"%.*s\".%s",
                              (int)x->n, x->str, hint));
  return eval_dynamic(c);
}

/* Evaluate x with its diagnostics collected apart: true if it succeeded. */
static bool try_eval(struct eval_ctx *c, const struct ast *x,
                     const tfr_value **out, tfr_diags *into) {
  tfr_diags *saved = c->diags;
  c->diags = into;
  size_t before = tfr_diags_count(into);
  *out = eval_expr(c, x);
  c->diags = saved;
  for (size_t i = before; i < tfr_diags_count(into); i++)
    if (tfr_diags_get(into, i)->sev == TFR_DIAG_ERROR)
      return false;
  return true;
}

/*
** can(expr) and try(exprs...) see their arguments' errors, not only values
** (hcl's ext/tryfunc, as of hcl 2.17.1: every argument is evaluated in
** turn until one succeeds).
*/
static const tfr_value *eval_can_try(struct eval_ctx *c, const struct ast *x,
                                     bool is_try) {
  /* messages name the function as the call wrote it (core::can) */
  int nlen = (int)x->kids[0]->n;
  const char *name = x->kids[0]->str;
  if (!is_try && x->n != 1) {
    eval_error(c, x->n ? x->items[1] : x,
               x->n ? "Too many function arguments"
                    : "Not enough function arguments",
               tfr_arena_printf(c->a,
                                x->n ? "Function \"%.*s\" expects only 1 "
                                       "argument(s)."
                                     : "Function \"%.*s\" expects 1 "
                                       "argument(s). Missing value for "
                                       "\"expression\".",
                                nlen, name));
    if (!x->n)
      tfr_diags_set_code(c->diags, TFR_CODE_MISSING_ARGUMENT);
    return eval_dynamic(c);
  }
  /* the error of a call, as HCL's FunctionCallExpr gives a function's
  ** (hclsyntax/expression.go: Subject StartRange, the name and its
  ** parenthesis): seen in an outer try's list of errors */
  struct span start = eval_call_start(c, x);
  if (is_try && x->n == 0) {
    eval_error_span(
        c, start, "Error in function call",
        tfr_arena_printf(c->a,
                         "Call to function \"%.*s\" failed: at least "
                         "one argument is required.",
                         nlen, name));
    tfr_diags_set_code(c->diags, TFR_CODE_FUNCTION_FAILED);
    return eval_dynamic(c);
  }
  tfr_diags *errs = tfr_diags_new(c->a);
  for (uint32_t i = 0; i < x->n; i++) {
    const tfr_value *v;
    if (!try_eval(c, x->items[i], &v, errs))
      continue;
    if (!tfr_value_is_wholly_known(v))
      return is_try ? eval_dynamic(c) : tfr_unknown(c->a, &tfr_t_bool);
    return is_try ? v : tfr_bool(true);
  }
  if (!is_try)
    return tfr_bool(false);
  struct sbuf b = text_buf(c);
  const char *head = tfr_arena_printf(c->a,
                                      "Call to function \"%.*s\" failed: no "
                                      "expression succeeded:\n",
                                      nlen, name);
  sbuf_put(&b, head, strlen(head));
  for (size_t i = 0; i < tfr_diags_count(errs); i++) {
    const struct tfr_diag *g = tfr_diags_get(errs, i);
    char where[600] = "";
    if (g->subject.filename) {
      char r[512];
      tfr_range_format(&g->subject, r, sizeof r);
      snprintf(where, sizeof where, " (at %s)", r);
    }
    const char *line = tfr_arena_printf(c->a, "- %s%s\n  %s\n", g->summary,
                                        where, g->detail ? g->detail : "");
    sbuf_put(&b, line, strlen(line));
  }
  const char *tail = "\nAt least one expression must produce a successful "
                     "result.";
  sbuf_put(&b, tail, strlen(tail));
  eval_error_span(c, start, "Error in function call", b.p);
  tfr_diags_set_code(c->diags, TFR_CODE_FUNCTION_FAILED);
  return eval_dynamic(c);
}

static const tfr_value *eval_call(struct eval_ctx *c, const struct ast *x) {
  const struct ast *name = x->kids[0];
  if (c->funcs) {
    const char *n = name->str;
    size_t len = name->n;
    if (len > 6 && !memcmp(n, "core::", 6)) {
      n += 6;
      len -= 6;
    }
    if ((len == 3 && !memcmp(n, "can", 3)) ||
        (len == 3 && !memcmp(n, "try", 3)))
      return eval_can_try(c, x, n[0] == 't');
  }
  if (!c->funcs) {
    eval_error(c, x, "Function calls not allowed",
               "Functions may not be called here.");
    return eval_dynamic(c);
  }
  if (c->funcs->special) {
    const tfr_value *v =
        c->funcs->special(c->funcs->ud, c, x, name->str, name->n);
    if (v)
      return v;
  }
  /* the arguments are evaluated by the call, in HCL's order */
  const tfr_value *v =
      c->funcs->call(c->funcs->ud, c, x, name->str, name->n, x->n, NULL);
  if (v)
    return v;
  eval_error(c, name, "Call to unknown function",
             tfr_arena_printf(c->a, "There is no function named \"%.*s\".",
                              (int)name->n, name->str));
  return eval_dynamic(c);
}

/* ---- dispatch ---------------------------------------------------------- */

const tfr_value *eval_expr(struct eval_ctx *c, const struct ast *x) {
  switch (x->kind) {
  case AST_NUMBER:
    return eval_number(c, x);
  case AST_BOOL:
    return tfr_bool(x->flags & AST_F_TRUE);
  case AST_NULL:
    return tfr_null(c->a, &tfr_t_dynamic);
  case AST_STRING:
    return tfr_string(c->a, x->str, x->n);
  case AST_TEMPLATE:
    return eval_template(c, x);
  case AST_VARIABLE:
    return eval_variable(c, x);
  case AST_GETATTR:
    if (c->scope && c->scope->attr && x->kids[0]->kind == AST_VARIABLE &&
        !bound(c, x->kids[0])) {
      size_t used = tfr_arena_used(c->a);
      const tfr_value *v = c->scope->attr(c->scope->ud, x->kids[0]->str,
                                          x->kids[0]->n, x->str, x->n);
      kept_by_scope(c, used);
      if (v)
        return v;
    }
    return eval_getattr(c, step_span(c, x, x->kids[0]),
                        eval_expr(c, x->kids[0]), x->str, x->n);
  case AST_INDEX: {
    const tfr_value *coll = eval_expr(c, x->a);
    return eval_index(c, step_span(c, x, x->a), coll, eval_expr(c, x->kids[0]));
  }
  case AST_SPLAT:
    return eval_splat(c, x);
  case AST_SPLAT_ITEM:
    return c->splat_item ? c->splat_item : eval_dynamic(c);
  case AST_CALL:
    return eval_call(c, x);
  case AST_TUPLE:
    return eval_tuple(c, x);
  case AST_OBJECT:
    return eval_object(c, x);
  case AST_FOR: {
    size_t before = tfr_diags_count(c->diags);
    const tfr_value *v = eval_for(c, x);
    eval_hide_for_keys(c, x, before, v); /* a sensitive key (secret.h) */
    return v;
  }
  case AST_UNARY:
    return eval_unary(c, x);
  case AST_BINARY:
    return eval_binary(c, x);
  case AST_COND:
    return eval_cond(c, x);
  case AST_PAREN:
    return eval_expr(c, x->a);
  default:
    error_span(c, x->span, "Invalid expression", "This is not an expression.");
    return eval_dynamic(c);
  }
}

const tfr_value *eval_const(tfr_arena *a, tfr_diags *diags,
                            struct src_file *src, const struct ast *x) {
  struct eval_ctx c = {0};
  c.a = a;
  c.diags = diags;
  c.src = src;
  return eval_expr(&c, x);
}
