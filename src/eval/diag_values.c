/*
** The values Terraform lists under a diagnostic's source line
** (views/json/diagnostic.go's NewDiagnostic, with tfdiags' TraversalStr
** and CompactValueStr): what each reference of the diagnostic's
** expression was when it was evaluated.
*/
#include "eval/eval.h"

#include <stdlib.h>
#include <string.h>

#include "base/diag_int.h"
#include "syntax/refwalk.h"
#include "base/arena_int.h"
#include "base/strutil.h"
#include "values/secret.h"

struct dv_walk {
  struct refwalk w;
  struct eval_ctx *c;
  bool unknown; /* the diagnostic is about an unknown value */
  struct tfr_diag_value *v;
  size_t n, cap;
};

/* An index step hclsyntax keeps in a traversal: a literal key (a number,
** a quoted string without interpolation, true, false, null), and the
** legacy foo.0; any other key makes an IndexExpr, which ends it. */
static bool literal_step(const struct ast *x) {
  if (x->kind == AST_GETATTR)
    return true;
  const struct ast *k = x->kids[0];
  return k->kind == AST_NUMBER || k->kind == AST_STRING ||
         k->kind == AST_BOOL || k->kind == AST_NULL;
}

/* tfdiags.CompactValueStr of a known, unmarked value. */
static void compact_value(struct sbuf *b, tfr_arena *a, const tfr_value *v) {
  const tfr_type *t = v->type;
  if (v->flags & TFR_V_NULL) {
    sbuf_str(b, "null");
  } else if (t->kind == TFR_BOOL) {
    sbuf_str(b, v->b ? "true" : "false");
  } else if (t->kind == TFR_NUMBER) {
    value_put_number_g10(b, v->num);
  } else if (t->kind == TFR_STRING) {
    sbuf_go_quote(b, v->s, v->n);
  } else if (t->kind == TFR_OBJECT) {
    if (t->n == 0)
      sbuf_str(b, "object with no attributes");
    else if (t->n == 1) {
      sbuf_str(b, "object with 1 attribute ");
      sbuf_go_quote(b, t->names[0], strlen(t->names[0]));
    } else {
      char n[64];
      snprintf(n, sizeof n, "object with %u attributes", t->n);
      sbuf_str(b, n);
    }
  } else if (t->kind != TFR_DYNAMIC) { /* collections and tuples */
    const char *f = tfr_type_friendly(a, t);
    char n[64];
    if (v->n == 0)
      snprintf(n, sizeof n, "empty ");
    else
      n[0] = '\0';
    sbuf_str(b, n);
    sbuf_str(b, f);
    if (v->n == 1)
      sbuf_str(b, " with 1 element");
    else if (v->n > 1) {
      snprintf(n, sizeof n, " with %u elements", v->n);
      sbuf_str(b, n);
    }
  } else {
    sbuf_str(b, tfr_type_friendly(a, t));
  }
}

/* statementStr: what to say of v, or NULL to say nothing (a sensitive or
** ephemeral value; an unknown of unknown type when unknowns are not the
** problem). */
static const char *statement(tfr_arena *a, const tfr_value *v, bool unknown) {
  if (v->flags & (TFR_V_SENSITIVE | TFR_V_EPHEMERAL))
    return NULL; /* only a diagnostic caused by them names them */
  if (v->flags & TFR_V_UNKNOWN) {
    const char *f = tfr_type_friendly(a, v->type);
    if (v->type->kind == TFR_DYNAMIC)
      return unknown ? "will be known only after apply" : NULL;
    return tfr_arena_printf(
        a, unknown ? "is a %s, known only after apply" : "is a %s", f);
  }
  struct sbuf b = {0};
  sbuf_str(&b, "is ");
  compact_value(&b, a, v);
  const char *r = tfr_arena_strndup(a, b.p, b.n);
  free(b.p);
  return r;
}

/* TraversalStr of the root and the first n steps of chain. */
static const char *traversal_text(struct eval_ctx *c, const struct ast *root,
                                  const struct ast *const *steps, size_t n) {
  struct sbuf b = {0};
  sbuf_put(&b, root->str, root->n);
  for (size_t i = 0; i < n; i++) {
    const struct ast *s = steps[i];
    if (s->kind == AST_GETATTR) {
      sbuf_put(&b, ".", 1);
      sbuf_put(&b, s->str, s->n);
      continue;
    }
    struct eval_ctx k = *c;
    k.diags = tfr_diags_new(c->a);
    const tfr_value *key = eval_expr(&k, s->kids[0]);
    sbuf_put(&b, "[", 1);
    if (key->type->kind == TFR_DYNAMIC || (key->flags & TFR_V_UNKNOWN))
      sbuf_str(&b, "...");
    else
      compact_value(&b, c->a, key);
    sbuf_put(&b, "]", 1);
  }
  const char *r = tfr_arena_strndup(c->a, b.p, b.n);
  free(b.p);
  return r;
}

static bool seen(const struct dv_walk *d, const char *t) {
  for (size_t i = 0; i < d->n; i++)
    if (!strcmp(d->v[i].traversal, t))
      return true;
  return false;
}

/*
** One reference: the longest prefix of its traversal (two steps at
** least, root included) that evaluates without an error, once.
*/
static bool on_ref(struct refwalk *w, const struct ast *x,
                   const struct ast *root) {
  struct dv_walk *d = (struct dv_walk *)w;
  const struct ast *steps[64];
  size_t m = 0;
  for (const struct ast *s = x; s != root; s = refwalk_step_in(s))
    m++;
  if (m == 0 || m > 64)
    return false;
  size_t i = m;
  for (const struct ast *s = x; s != root; s = refwalk_step_in(s))
    steps[--i] = s;
  size_t len = 0;
  while (len < m && literal_step(steps[len]))
    len++;
  for (; len > 0; len--) {
    struct eval_ctx e = *d->c;
    e.diags = tfr_diags_new(d->c->a);
    const tfr_value *v = eval_expr(&e, steps[len - 1]);
    if (tfr_diags_has_errors(e.diags))
      continue;
    const char *t = traversal_text(d->c, root, steps, len);
    const char *st = seen(d, t) ? NULL : statement(d->c->a, v, d->unknown);
    if (st) {
      ARENA_GROW(d->c->a, d->v, d->n, d->cap, 8);
      d->v[d->n++] = (struct tfr_diag_value){t, st};
    }
    break;
  }
  return false;
}

static int by_traversal(const void *x, const void *y) {
  return strcmp(((const struct tfr_diag_value *)x)->traversal,
                ((const struct tfr_diag_value *)y)->traversal);
}

void eval_diag_values(struct eval_ctx *c, const struct ast *x, bool unknown,
                      tfr_diags *diags) {
  if (!x || !c->scope)
    return;
  struct dv_walk d = {{on_ref, NULL, true}, c, unknown, NULL, 0, 0};
  refwalk(&d.w, x, NULL);
  if (!d.n)
    return;
  qsort(d.v, d.n, sizeof *d.v, by_traversal);
  diags_set_values(diags, d.v, d.n);
}

static bool every_part(void *ud, const char *msg, const char *q, size_t n) {
  (void)ud, (void)msg, (void)q, (void)n;
  return true;
}

void eval_hide_for_keys(struct eval_ctx *c, const struct ast *x, size_t before,
                        const tfr_value *v) {
  if (!(x->flags & AST_F_OBJECT) || !v || !(v->flags & TFR_V_SENSITIVE))
    return;
  struct tfr_range k = src_range(c->src, x->kids[3]->span);
  for (size_t i = before; i < tfr_diags_count(c->diags); i++) {
    const struct tfr_diag *g = tfr_diags_get(c->diags, i);
    if (!g->subject.filename || !k.filename ||
        strcmp(g->subject.filename, k.filename) ||
        g->subject.start.byte != k.start.byte ||
        g->subject.end.byte != k.end.byte)
      continue;
    const char *hidden = secret_quoted(c->a, g->detail, every_part, NULL);
    if (hidden != g->detail)
      secret_hide_detail(c->diags, i, hidden);
  }
}
