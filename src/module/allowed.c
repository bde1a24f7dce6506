/*
** The values a variable's validation rules allow, read from their
** conditions' syntax trees (tfr_resolution_allowed), for an editor's
** completion: a condition that is an allow-list -- contains([...],
** var.x), anytrue([var.x == "a", ...]) or anytrue([for v in [...] :
** var.x == v]), var.x == "a", or a disjunction of these -- alone or
** joined to others by &&, allows its strings (a value must be in every
** such list), but those a negated one (!..., var.x != "a", alltrue([var.x
** != "a", ...])) joined the same way forbids.  Anything else says
** nothing.  Read one rule at a time (module_rule_reading), for
** `inspect -json` and `docs` (iface.c), a condition's conjuncts that
** compare var.x or length(var.x) with a number bound it too.
*/
#include "tfresolve/tfresolve.h"
#include "tfresolve/interface.h"

#include <string.h>

#include "base/arena_int.h"
#include "module/module.h"
#include "syntax/ast.h"

/* A list of strings being gathered (NULL v with any false: none). */
struct strs {
  const char **v;
  size_t n, cap;
};

static void put(tfr_arena *a, struct strs *l, const char *s) {
  for (size_t i = 0; i < l->n; i++)
    if (!strcmp(l->v[i], s))
      return;
  if (l->n == l->cap) {
    size_t nc = l->cap ? 2 * l->cap : 8;
    const char **v = tfr_arena_alloc(a, nc * sizeof *v);
    if (l->n)
      memcpy(v, l->v, l->n * sizeof *v);
    l->v = v;
    l->cap = nc;
  }
  l->v[l->n++] = s;
}

static const struct ast *bare(const struct ast *x) {
  while (x && x->kind == AST_PAREN)
    x = x->a;
  return x;
}

/* A string constant ("a", or a template of one literal part), or NULL. */
static const char *literal(tfr_arena *a, const struct ast *x) {
  x = bare(x);
  if (x && x->kind == AST_TEMPLATE && x->n == 1)
    x = x->items[0];
  return x && x->kind == AST_STRING ? tfr_arena_strndup(a, x->str, x->n) : NULL;
}

/* Whether x is root.NAME (root NULL: the bare name NAME, a for
** expression's value). */
static bool is_ref(const struct ast *x, const char *root, const char *name) {
  x = bare(x);
  if (!x)
    return false;
  if (!root)
    return x->kind == AST_VARIABLE && strlen(name) == x->n &&
           !memcmp(x->str, name, x->n);
  const struct ast *o = x->kind == AST_GETATTR ? bare(x->kids[0]) : NULL;
  return o && o->kind == AST_VARIABLE && o->n == strlen(root) &&
         !memcmp(o->str, root, o->n) && strlen(name) == x->n &&
         !memcmp(x->str, name, x->n);
}

/* x compares var.NAME with another operand by op: that operand. */
static const struct ast *compared(const struct ast *x, const char *name,
                                  int op) {
  x = bare(x);
  if (!x || x->kind != AST_BINARY || x->op != op)
    return NULL;
  return is_ref(x->a, "var", name)         ? x->kids[0]
         : is_ref(x->kids[0], "var", name) ? x->a
                                           : NULL;
}

/* The strings of a tuple of string constants, into l; false when x is
** none. */
static bool strings(tfr_arena *a, const struct ast *x, struct strs *l) {
  x = bare(x);
  if (!x || x->kind != AST_TUPLE)
    return false;
  for (uint32_t i = 0; i < x->n; i++) {
    const char *s = literal(a, x->items[i]);
    if (!s)
      return false;
    put(a, l, s);
  }
  return true;
}

/* `[var.NAME op "a", ...]` or `[for v in [...] : var.NAME op v]`: the
** strings into l. */
static bool each_compared(tfr_arena *a, const struct ast *x, const char *name,
                          int op, struct strs *l) {
  x = bare(x);
  if (x && x->kind == AST_FOR && !(x->flags & AST_F_OBJECT) && !x->kids[5] &&
      x->kids[1] && x->kids[1]->kind == AST_STRING) {
    char *v = tfr_arena_strndup(a, x->kids[1]->str, x->kids[1]->n);
    const struct ast *other = compared(x->kids[4], name, op);
    return other && is_ref(other, NULL, v) && strings(a, x->kids[2], l);
  }
  if (!x || x->kind != AST_TUPLE || !x->n)
    return false;
  struct strs got = {0};
  for (uint32_t i = 0; i < x->n; i++) {
    const char *s = literal(a, compared(x->items[i], name, op));
    if (!s)
      return false;
    put(a, &got, s);
  }
  for (size_t i = 0; i < got.n; i++)
    put(a, l, got.v[i]);
  return true;
}

static bool call_named(const struct ast *x, const char *fn) {
  return x && x->kind == AST_CALL && x->kids[0] &&
         x->kids[0]->n == strlen(fn) &&
         !memcmp(x->kids[0]->str, fn, strlen(fn));
}

/* Whether x is an allow-list of var.NAME: its strings into l. */
static bool one_of(tfr_arena *a, const struct ast *x, const char *name,
                   struct strs *l) {
  x = bare(x);
  if (!x)
    return false;
  if (call_named(x, "contains") && x->n == 2)
    return is_ref(x->items[1], "var", name) && strings(a, x->items[0], l);
  if (call_named(x, "anytrue") && x->n == 1)
    return each_compared(a, x->items[0], name, OP_EQ, l);
  if (x->kind == AST_BINARY && x->op == OP_OR) {
    struct strs both = {0};
    if (!one_of(a, x->a, name, &both) || !one_of(a, x->kids[0], name, &both))
      return false;
    for (size_t i = 0; i < both.n; i++)
      put(a, l, both.v[i]);
    return true;
  }
  const char *s = literal(a, compared(x, name, OP_EQ));
  if (s)
    put(a, l, s);
  return s != NULL;
}

/* What x forbids var.NAME to be, into l. */
static void none_of(tfr_arena *a, const struct ast *x, const char *name,
                    struct strs *l) {
  x = bare(x);
  if (!x)
    return;
  if (x->kind == AST_UNARY && x->op == OP_NOT) {
    struct strs got = {0};
    if (one_of(a, x->a, name, &got))
      for (size_t i = 0; i < got.n; i++)
        put(a, l, got.v[i]);
  } else if (call_named(x, "alltrue") && x->n == 1) {
    each_compared(a, x->items[0], name, OP_NE, l);
  } else {
    const char *s = literal(a, compared(x, name, OP_NE));
    if (s)
      put(a, l, s);
  }
}

/* A number as written that is a JSON number too: [-]digits[.digits],
** no leading zero. */
static bool json_number(const char *t, size_t n) {
  size_t i = n && t[0] == '-', first = i;
  bool dot = false;
  for (; i < n; i++) {
    if (t[i] >= '0' && t[i] <= '9')
      continue;
    if (t[i] != '.' || dot || i == first || i + 1 == n)
      return false;
    dot = true;
  }
  return i > first &&
         !(t[first] == '0' && first + 1 < n && t[first + 1] != '.');
}

/* A number constant (N or -N) as written, or NULL. */
static const char *number(tfr_arena *a, const struct ast *x) {
  x = bare(x);
  bool neg = x && x->kind == AST_UNARY && x->op == OP_NEG;
  if (neg)
    x = bare(x->a);
  if (!x || x->kind != AST_NUMBER)
    return NULL;
  const char *t =
      tfr_arena_printf(a, "%s%.*s", neg ? "-" : "", (int)x->n, x->str);
  return json_number(t, strlen(t)) ? t : NULL;
}

/* What x is: var.NAME (0), length(var.NAME) (1), or neither (-1). */
static int subject(const struct ast *x, const char *name) {
  x = bare(x);
  if (is_ref(x, "var", name))
    return 0;
  return call_named(x, "length") && x->n == 1 &&
                 is_ref(x->items[0], "var", name)
             ? 1
             : -1;
}

/* A conjunct `SUBJECT OP N` or `N OP SUBJECT` (OP one of < <= > >=): its
** bound into *b or *len (a later one of a side replaces an earlier). */
static void bound(tfr_arena *a, const struct ast *x, const char *name,
                  struct tfr_iface_bound *b, struct tfr_iface_bound *len) {
  x = bare(x);
  if (!x || x->kind != AST_BINARY ||
      (x->op != OP_LT && x->op != OP_LE && x->op != OP_GT && x->op != OP_GE))
    return;
  bool less = x->op == OP_LT || x->op == OP_LE;
  int sub = subject(x->a, name);
  const struct ast *num = x->kids[0];
  if (sub < 0) { /* N OP SUBJECT: the other way round */
    sub = subject(x->kids[0], name);
    num = x->a;
    less = !less;
  }
  const char *t = sub < 0 ? NULL : number(a, num);
  if (!t)
    return;
  struct tfr_iface_bound *at = sub ? len : b;
  bool excl = x->op == OP_LT || x->op == OP_GT;
  if (less) {
    at->max = t;
    at->max_excl = excl;
  } else {
    at->min = t;
    at->min_excl = excl;
  }
}

/* What a condition is being read for: the variable, the allow-list met
** so far (set: one was found), what is forbidden, and (NULL: not wanted)
** the bounds. */
struct reading {
  tfr_arena *a;
  const char *name;
  struct strs allowed, forbidden;
  bool set;
  struct tfr_iface_bound *bounds, *length;
};

/* The conjuncts of x: the allow-list met with each, forbidden and bounds
** gathered. */
static void conjuncts(struct reading *rd, const struct ast *x, int depth) {
  tfr_arena *a = rd->a;
  x = bare(x);
  if (!x || depth > AST_MAX_DEPTH)
    return;
  if (x->kind == AST_BINARY && x->op == OP_AND) {
    conjuncts(rd, x->a, depth + 1);
    conjuncts(rd, x->kids[0], depth + 1);
    return;
  }
  struct strs one = {0};
  if (!one_of(a, x, rd->name, &one)) {
    none_of(a, x, rd->name, &rd->forbidden);
    if (rd->bounds)
      bound(a, x, rd->name, rd->bounds, rd->length);
    return;
  }
  if (!rd->set) {
    rd->allowed = one;
    rd->set = true;
    return;
  }
  struct strs meet = {0};
  for (size_t i = 0; i < rd->allowed.n; i++)
    for (size_t k = 0; k < one.n; k++)
      if (!strcmp(rd->allowed.v[i], one.v[k]))
        put(a, &meet, rd->allowed.v[i]);
  rd->allowed = meet;
}

/* The allowed strings not forbidden, NULL-terminated; *n of them. */
static const char **allowed_only(tfr_arena *a, const struct reading *rd,
                                 size_t *n) {
  const char **out = tfr_arena_alloc(a, (rd->allowed.n + 1) * sizeof *out);
  *n = 0;
  for (size_t i = 0; i < rd->allowed.n; i++) {
    bool no = false;
    for (size_t k = 0; k < rd->forbidden.n && !no; k++)
      no = !strcmp(rd->allowed.v[i], rd->forbidden.v[k]);
    if (!no)
      out[(*n)++] = rd->allowed.v[i];
  }
  out[*n] = NULL;
  return out;
}

void module_rule_reading(tfr_arena *a, const struct ast *cond, const char *name,
                         struct tfr_iface_rule *r) {
  struct reading rd = {.a = a, .name = name};
  rd.bounds = &r->bounds;
  rd.length = &r->length_bounds;
  /* "${...}" alone is what it interpolates (hcl's TemplateWrapExpr): a
  ** .tf.json condition is one */
  const struct ast *x = bare(cond);
  if (x && x->kind == AST_TEMPLATE && x->n == 1 && x->items[0] &&
      x->items[0]->kind != AST_STRING && x->items[0]->kind != AST_TIF &&
      x->items[0]->kind != AST_TFOR)
    cond = x->items[0];
  conjuncts(&rd, cond, 0);
  r->allowed = rd.set ? allowed_only(a, &rd, &r->nallowed) : NULL;
  r->forbidden = rd.forbidden.v;
  r->nforbidden = rd.forbidden.n;
}

const char **tfr_resolution_allowed(tfr_arena *a,
                                    const struct tfr_resolution *res,
                                    const char *name, size_t *n) {
  *n = 0;
  if (!res || !res->module || !name)
    return NULL;
  const struct var_decl *v =
      module_var(module_of(res->module), name, strlen(name));
  struct reading rd = {.a = a};
  for (size_t i = 0; v && i < v->nvalidations; i++) {
    const struct validation *r = &v->validations[i];
    /* a rule sharing another's tree names that rule's variable */
    rd.name = r->alias ? r->alias : v->name;
    conjuncts(&rd, r->condition, 0);
  }
  return rd.set ? allowed_only(a, &rd, n) : NULL;
}
