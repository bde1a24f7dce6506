/*
** The console's scopes in the module tree: `terraform console
** -scope=ADDRESS` (Terraform 1.16) evaluates in one module instance, and
** the root module's console sees the outputs of its module calls.
**
** Terraform (internal/command/console.go:121-146): the flag's text is
** parsed with hclsyntax.ParseTraversalAbs as the source "<module scope
** address>", the traversal read by addrs.ParseModuleInstance
** (internal/addrs/module_instance.go:32-52, 83-200); the eval walk runs
** and the scope is the instance's evaluation context, an error when the
** walk made none (internal/terraform/context_eval.go:107-118): the
** instance does not exist.  Expressions are then evaluated by lang's
** EvalExpr (internal/lang/eval.go:200-230): each reference read first,
** a variable or local value the walk did not set an error
** (internal/terraform/evaluate.go:318-329, 374-382), a module call's
** outputs as GetModule gives them (evaluate.go:387-620).
**
** The tree is only read: every evaluation works on copies of the
** instance, its module and the tree, whose caches (var.*, module.*, the
** references of expressions) live in the caller's arena.
*/
#include "module/tree_int.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/diag_int.h"
#include "eval/funcs.h"
#include "syntax/parse.h"
#include "syntax/refwalk.h"
#include "tfresolve/tfresolve.h"
#include "values/number.h"
#include "module/validate.h"

/* A scope: the root module (in NULL) or an instance of the tree. */
struct tfr_scope {
  const struct tfr_resolution *res;
  const struct tree *t;
  const struct tinst *in;
};

#define ADDR_SRC "<module scope address>"

/* ---- the address ------------------------------------------------------ */

/* One step of the traversal: its name (root or attribute) or index key. */
struct tstep {
  const struct ast *x; /* AST_VARIABLE, AST_GETATTR or AST_INDEX */
  struct span span;    /* as hcl's traversal step ranges it */
};

/* An error at span s of the address. */
static void addr_error(tfr_diags *d, struct src_file *src, struct span s,
                       const char *summary, const char *detail) {
  struct tfr_range r = src_range(src, s);
  tfr_diags_add(d, TFR_DIAG_ERROR, &r, summary, detail);
}

/* The token that starts at byte p of the source (blanks skipped): an
** identifier or number, an operator, or one character -- what hcl's
** traversal parser names in its errors. */
static struct span token_at(const struct src_file *src, uint32_t p) {
  const char *s = src->text;
  while (p < src->len && strchr(" \t\r\n", s[p]))
    p++;
  uint32_t e = p;
  while (e < src->len &&
         (s[e] == '_' || s[e] == '-' || (s[e] >= '0' && s[e] <= '9') ||
          ((s[e] | 32) >= 'a' && (s[e] | 32) <= 'z')))
    e++;
  if (e > p)
    return (struct span){p, e};
  static const char *const two[] = {"==", "!=", "<=", ">=", "&&",
                                    "||", "=>", "::", "${", "%{"};
  for (size_t i = 0; i < sizeof two / sizeof *two; i++)
    if (p + 1 < src->len && !memcmp(s + p, two[i], 2))
      return (struct span){p, p + 2};
  e = p < src->len ? p + 1 : p;
  while (e < src->len && ((unsigned char)s[e] & 0xC0) == 0x80)
    e++;
  return (struct span){p, e};
}

/* The steps of the traversal x, root first, into v (room for max); the
** part of x that is not one (a call, an operator...) reported as hcl's
** traversal parser does (hclsyntax/parser_traversal.go:36-211).  -1
** after an error.  The text was parsed as an expression first: one that
** is not even that (`module.a[`) has the expression parser's error, not
** the traversal parser's ("Index value required" there). */
static long traversal_steps(tfr_diags *d, struct src_file *src,
                            const struct ast *x, struct tstep *v, size_t max) {
  const struct ast *spine[64];
  size_t n = 0;
  const struct ast *p = x;
  while (p && n < 64 &&
         (p->kind == AST_GETATTR || p->kind == AST_INDEX ||
          p->kind == AST_SPLAT || p->kind == AST_BINARY ||
          p->kind == AST_COND || p->kind == AST_PAREN)) {
    spine[n++] = p;
    p = p->kind == AST_GETATTR ? p->kids[0] : p->a;
  }
  if (p && p->kind == AST_CALL) { /* a name, then "(" */
    struct span name = token_at(src, p->span.start);
    addr_error(d, src, token_at(src, name.end), "Invalid character",
               "Expected an attribute access or an index operator.");
    return -1;
  }
  if (!p || p->kind != AST_VARIABLE || n >= 64) {
    addr_error(d, src, token_at(src, p ? p->span.start : 0),
               "Variable name required", "Must begin with a variable name.");
    return -1;
  }
  size_t k = 0;
  v[k++] = (struct tstep){p, p->span};
  for (size_t i = n; i-- > 0 && k < max;) {
    const struct ast *s = spine[i];
    uint32_t after = (s->kind == AST_GETATTR ? s->kids[0] : s->a)->span.end;
    struct span next = token_at(src, after);
    const char *why = NULL, *summary = "Attribute name required";
    if (s->kind == AST_GETATTR) {
      v[k++] = (struct tstep){s, {next.start, s->span.end}};
      continue;
    }
    if (s->kind == AST_INDEX && (s->flags & AST_F_LEGACY)) {
      why = "Dot must be followed by attribute name.";
      next = token_at(src, next.end);
    } else if (s->kind == AST_INDEX) {
      const struct ast *key = s->kids[0];
      if (key->kind == AST_NUMBER || key->kind == AST_STRING) {
        v[k++] = (struct tstep){s, {next.start, s->span.end}};
        continue;
      }
      summary = "Index value required";
      why = "Index brackets must contain either a literal number or a "
            "literal string.";
      next = token_at(src, next.end);
    } else if (s->kind == AST_SPLAT) {
      why = s->flags & AST_F_FULL
                ? "Splat expressions ([*]) may not be used here."
                : "Splat expressions (.*) may not be used here.";
      next = token_at(src, next.end);
    } else {
      summary = "Invalid character";
      why = "Expected an attribute access or an index operator.";
    }
    addr_error(d, src, next, summary, why);
    return -1;
  }
  return (long)k;
}

/* One module instance step: a call's name and its key. */
struct inst_step {
  const char *name;
  size_t nlen;
  enum { KEY_NONE, KEY_INT, KEY_STRING } key;
  long long ikey;
  const char *skey;
  size_t slen;
};

/* The instance key of index step s as addrs.ParseModuleInstance reads it
** (module_instance.go:143-172): a string, or a number that is a whole
** int; false after its error. */
static bool step_key(tfr_arena *a, tfr_diags *d, struct src_file *src,
                     const struct tstep *s, struct inst_step *out) {
  const struct ast *key = s->x->kids[0];
  if (key->kind == AST_STRING) {
    out->key = KEY_STRING;
    out->skey = key->str;
    out->slen = key->n;
    return true;
  }
  const struct tfr_num *num = num_parse(a, key->str, key->n);
  int64_t i = 0;
  bool whole = num && num_to_int64(num, &i);
  if (!whole) {
    /* gocty's error converting to int (cty/gocty/out.go:145-171) */
    addr_error(d, src, s->span, "Invalid address operator",
               tfr_arena_printf(a,
                                "Invalid module index: value must be a whole "
                                "number, between %lld and %lld.",
                                (long long)INT64_MIN, (long long)INT64_MAX));
    return false;
  }
  out->key = KEY_INT;
  out->ikey = (long long)i;
  return true;
}

static bool step_is(const struct tstep *s, const char *name) {
  const char *str = s->x->str;
  size_t n = s->x->n;
  return n == strlen(name) && !memcmp(str, name, n);
}

/* The range of steps [from, to) (hcl's Traversal.SourceRange). */
static struct span steps_span(const struct tstep *v, size_t from, size_t to) {
  return (struct span){v[from].span.start, v[to - 1].span.end};
}

/* addrs.ParseModuleInstance over the steps (module_instance.go:32-52,
** 83-200): the instance steps into out (*nout of them); false after its
** errors. */
static bool parse_instance(tfr_arena *a, tfr_diags *d, struct src_file *src,
                           const struct tstep *v, size_t n,
                           struct inst_step *out, size_t *nout) {
  size_t i = 0, before = tfr_diags_count(d);
  *nout = 0;
  while (i < n) {
    if (v[i].x->kind == AST_INDEX) {
      addr_error(d, src, v[i].span, "Invalid address operator",
                 "Module address prefix must be followed by dot and then a "
                 "name.");
      break;
    }
    if (!step_is(&v[i], "module"))
      break;
    struct span kw = v[i++].span;
    if (i == n || v[i].x->kind != AST_GETATTR) {
      addr_error(d, src, i == n ? kw : v[i].span, "Invalid address operator",
                 "Prefix \"module.\" must be followed by a module name.");
      break;
    }
    struct inst_step *st = &out[(*nout)++];
    *st = (struct inst_step){v[i].x->str, v[i].x->n, KEY_NONE, 0, NULL, 0};
    i++;
    if (i < n && v[i].x->kind == AST_INDEX)
      step_key(a, d, src, &v[i++], st);
  }
  if (i < n)
    addr_error(d, src, steps_span(v, i, n), "Invalid module instance address",
               i == 0 ? "A module instance address must begin with "
                        "\"module.\"."
                      : "The module instance address is followed by "
                        "additional invalid content.");
  return !diags_errors_since(d, before);
}

/* ---- the instance -------------------------------------------------------- */

/* The index of call name (n bytes) in m, or -1. */
static long call_index(const struct module *m, const char *name, size_t n) {
  for (size_t c = 0; c < m->ncalls; c++)
    if (strlen(m->calls[c].name) == n && !memcmp(m->calls[c].name, name, n))
      return (long)c;
  return -1;
}

/* The instance of expansion e with key st, or NULL. */
static const struct tinst *keyed(const struct texp *e,
                                 const struct inst_step *st) {
  for (size_t i = 0; i < e->n; i++) {
    bool hit = false;
    if (e->mode == EXP_SINGLE)
      hit = st->key == KEY_NONE;
    else if (e->mode == EXP_COUNT)
      hit = st->key == KEY_INT && st->ikey == (long long)i;
    else
      hit = st->key == KEY_STRING && strlen(e->keys[i]) == st->slen &&
            !memcmp(e->keys[i], st->skey, st->slen);
    if (hit)
      return e->insts[i];
  }
  return NULL;
}

/* The instance address as Terraform writes it (ModuleInstance.String). */
static const char *inst_text(tfr_arena *a, const struct inst_step *v,
                             size_t n) {
  const char *s = "";
  for (size_t i = 0; i < n; i++) {
    const char *key =
        v[i].key == KEY_INT ? tfr_arena_printf(a, "[%lld]", v[i].ikey)
        : v[i].key == KEY_STRING
            ? tfr_arena_printf(a, "[%s]", str_go_quote(a, v[i].skey, v[i].slen))
            : "";
    s = tfr_arena_printf(a, "%s%smodule.%.*s%s", s, i ? "." : "",
                         (int)v[i].nlen, v[i].name, key);
  }
  return s;
}

/* Our error for an instance the tree did not evaluate (Terraform, which
** has installed every module and knows every count, would have it). */
static void not_evaluated(tfr_arena *a, tfr_diags *d, const char *addr,
                          const char *why) {
  tfr_diags_add(
      d, TFR_DIAG_ERROR, NULL, "Module instance not evaluated",
      tfr_arena_printf(a, "tfresolve cannot evaluate in %s: %s.", addr, why));
  tfr_diags_set_ours(d);
}

/* Why a call of the tree was not checked, from the resolution's list. */
static const char *unchecked_why(const struct tfr_resolution *res,
                                 const char *inst, const char *call) {
  for (size_t i = 0; i < res->nunchecked; i++) {
    const char *u = res->unchecked[i].address;
    if (!strcmp(u, inst) || !strcmp(u, call))
      return res->unchecked[i].why;
  }
  return "its instances are known only when Terraform plans";
}

/* Follow the steps from the root instance; NULL after an error. */
static const struct tinst *find_instance(tfr_arena *a, tfr_diags *d,
                                         const struct tfr_resolution *res,
                                         const struct tree *t,
                                         const struct inst_step *v, size_t n) {
  const char *addr = inst_text(a, v, n);
  if (t && !t->planned) {
    not_evaluated(a, d, addr,
                  "the module tree was not planned (see the errors above)");
    return NULL;
  }
  const struct tinst *in = t && t->root->ninsts ? t->root->insts[0] : NULL;
  for (size_t i = 0; in && i < n; i++) {
    long c = call_index(in->tm->m, v[i].name, v[i].nlen);
    if (c < 0) {
      in = NULL;
      break;
    }
    const struct texp *e = in->calls[c];
    if (!in->tm->children[c] || !e) {
      const char *here = inst_text(a, v, i + 1);
      const char *call = tfr_arena_printf(
          a, "%s%s%s", in->tm->addr, *in->tm->addr ? "." : "",
          tfr_arena_printf(a, "module.%.*s", (int)v[i].nlen, v[i].name));
      not_evaluated(a, d, addr, unchecked_why(res, here, call));
      return NULL;
    }
    in = keyed(e, &v[i]);
  }
  if (!in) {
    /* context_eval.go:107-116 */
    tfr_diags_add(d, TFR_DIAG_ERROR, NULL,
                  "Failed to retrieve evaluation scope after graph walk",
                  tfr_arena_printf(a,
                                   "The module address \"%s\" does not have "
                                   "an evaluation scope. This usually "
                                   "indicates that the module or the specific "
                                   "module instance provided does not exist.",
                                   addr));
  }
  return in;
}

const tfr_scope *tfr_resolution_scope(tfr_arena *a, tfr_diags *diags,
                                      const struct tfr_resolution *res,
                                      const char *address) {
  struct tfr_scope *sc = tfr_arena_alloc(a, sizeof *sc);
  sc->res = res;
  sc->t = resolve_tree(res);
  if (!address || !*address) /* console.go:127: the root module */
    return sc;
  tfr_file *f = parse_bytes_expr(a, diags, ADDR_SRC, address, strlen(address));
  if (!f)
    return NULL;
  struct tstep steps[TREE_MAX_DEPTH * 4 + 8];
  size_t max = sizeof steps / sizeof *steps;
  long n = traversal_steps(diags, f->f.src, f->f.body, steps, max);
  struct inst_step inst[TREE_MAX_DEPTH * 4 + 8];
  size_t ni = 0;
  if (n < 0 || !parse_instance(a, diags, f->f.src, steps, (size_t)n, inst, &ni))
    return NULL;
  if (!ni)
    return sc; /* no module steps: the root (never reached: an error) */
  if (res && res->tree && !sc->t) {
    not_evaluated(a, diags, inst_text(a, inst, ni),
                  "the module tree was not loaded (see the errors above)");
    return NULL;
  }
  sc->in = find_instance(a, diags, res, sc->t, inst, ni);
  return sc->in ? sc : NULL;
}

/* ---- evaluating ------------------------------------------------------- */

/* What an evaluation reads and writes instead of the tree's own: copies
** whose caches are the caller's. */
struct scope_copy {
  struct tree t;
  struct tmod tm;
  struct tinst in;
};

static void copy_instance(struct scope_copy *cp, struct eval_ctx *c,
                          const struct tree *t, const struct tinst *in) {
  cp->t = *t;
  cp->t.a = c->a;
  cp->t.diags = c->diags;
  cp->t.refs = NULL;
  cp->t.nrefs = cp->t.caprefs = 0;
  /* its own: the tree's is the resolution's, which other readers share */
  cp->t.scratch = tfr_arena_new();
  tfr_arena_on_free(c->a, (void (*)(void *))tfr_arena_free, cp->t.scratch);
  cp->tm = *in->tm;
  cp->in = *in;
  cp->in.tm = &cp->tm;
  cp->in.var_obj = cp->in.local_obj = cp->in.module_obj = NULL;
  size_t nc = in->tm->m->ncalls ? in->tm->m->ncalls : 1;
  cp->in.call_val = tfr_arena_alloc(c->a, nc * sizeof *cp->in.call_val);
}

/* A reference to a variable or local value the walk did not set. */
struct unset_walk {
  struct refwalk w; /* first */
  struct eval_ctx *c;
  const struct tinst *in;
  bool bad;
};

/* The name a reference's first step reads (var.NAME, var["NAME"]). */
static const struct ast *first_step(const struct ast *x,
                                    const struct ast *root) {
  const struct ast *st[1] = {NULL};
  return tree_steps_of(x, root, st, 1) ? st[0] : NULL;
}

static bool unset_ref(struct refwalk *w, const struct ast *x,
                      const struct ast *root) {
  struct unset_walk *u = (struct unset_walk *)(void *)w;
  const struct ast *s = first_step(x, root);
  const struct module *m = u->in->tm->m;
  bool var = refwalk_is_name(root, "var"),
       local = refwalk_is_name(root, "local");
  if (!s || (!var && !local))
    return false;
  const char *name = NULL;
  size_t n = 0;
  if (s->kind == AST_GETATTR)
    name = s->str, n = s->n;
  else if (s->kind == AST_INDEX && s->kids[0]->kind == AST_STRING)
    name = s->kids[0]->str, n = s->kids[0]->n;
  if (!name)
    return false;
  long k = var ? module_var_index(m, name, n) : scope_local_index(m, name, n);
  if (k < 0 || (var ? u->in->vars[k] : u->in->locals[k]))
    return false;
  /* evaluate.go:318-329 and 374-382 */
  struct tfr_range r =
      src_range(u->c->src, (struct span){root->span.start, s->span.end});
  const char *addr =
      tfr_arena_printf(u->c->a, "%s.%.*s", var ? "var" : "local", (int)n, name);
  tfr_diags_add(u->c->diags, TFR_DIAG_ERROR, &r,
                var ? "Reference to uninitialized variable"
                    : "Reference to uninitialized local value",
                tfr_arena_printf(u->c->a,
                                 "The %s %s was not processed by the most "
                                 "recent operation, this likely means the "
                                 "previous operation either failed or was "
                                 "incomplete due to targeting.",
                                 var ? "variable" : "local value", addr));
  u->bad = true;
  return false;
}

/* var.*: each variable's value as the walk set it, before its rules (a
** value they rejected is still there: node_module_variable.go:264-266
** sets it, the validation node runs after). */
static const tfr_value *set_vars(tfr_arena *a, const struct tinst *in) {
  const struct module *m = in->tm->m;
  const tfr_value **v =
      tfr_arena_alloc(a, (m->nvars ? m->nvars : 1) * sizeof *v);
  for (size_t k = 0; k < m->nvars; k++)
    v[k] = in->vars[k];
  return scope_var_object(a, m, v);
}

/* Evaluate x in a child instance: the references checked as lang's
** EvalExpr checks them, then the expression. */
static const tfr_value *eval_instance(struct eval_ctx *c,
                                      const struct tfr_scope *sc,
                                      const struct ast *x) {
  struct unset_walk u = {{unset_ref, NULL, true}, c, sc->in, false};
  refwalk(&u.w, x, NULL);
  if (u.bad)
    return eval_dynamic(c);
  struct scope_copy cp;
  copy_instance(&cp, c, sc->t, sc->in);
  struct inst_ctx ic;
  tree_inst_ctx(&cp.t, &ic, &cp.in, c->src, NULL);
  ic.ts.vars = false; /* var.NAME from s.var below */
  ic.s.var = set_vars(c->a, sc->in);
  ic.s.plan = false;
  c->scope = &ic.es;
  if (!c->dir)
    c->dir = sc->t->root->dir;
  return eval_expr(c, x);
}

/* The tree's answers for the root console: module.NAME (and the other
** names the console's own scope leaves to it) from the tree's root
** instance; var and local stay the console's. */
struct root_hook {
  struct scope *tree_scope; /* the root instance's, on copies */
};

static const tfr_value *root_more(void *ud, const char *name, size_t len) {
  const struct scope *ts = ((const struct root_hook *)ud)->tree_scope;
  return ts->more(ts->more_ud, name, len);
}

static const tfr_value *root_attr(void *ud, const char *name, size_t len,
                                  const char *attr, size_t alen) {
  const struct scope *ts = ((const struct root_hook *)ud)->tree_scope;
  if (len != 6 || memcmp(name, "module", 6))
    return NULL;
  return ts->more_attr(ts->more_ud, name, len, attr, alen);
}

/* The root console's scope: var.* of the resolution, its local values
** evaluated when asked, and (with a tree) module.NAME from the tree's
** root instance. */
static const struct eval_scope *root_scope(struct eval_ctx *c,
                                           const struct tfr_resolution *res,
                                           const struct tree *t) {
  const struct module *m = module_of(res->module);
  const tfr_value **vals =
      tfr_arena_alloc(c->a, (res->n ? res->n : 1) * sizeof *vals);
  for (size_t k = 0; k < res->n && k < m->nvars; k++)
    vals[k] = res->vars[k].value; /* both sorted by name */
  const struct eval_scope *es = scope_module(c->a, m, vals);
  if (!t || !t->planned || !t->root->ninsts)
    return es;
  struct scope *s = es->ud;
  struct scope_copy *cp = tfr_arena_alloc(c->a, sizeof *cp);
  copy_instance(cp, c, t, t->root->insts[0]);
  struct inst_ctx *ic = tfr_arena_alloc(c->a, sizeof *ic);
  tree_init_scope(&cp->t, &ic->s, &ic->ts, &cp->in, NULL, -1, NULL);
  struct root_hook *h = tfr_arena_alloc(c->a, sizeof *h);
  h->tree_scope = &ic->s;
  s->more = root_more;
  s->more_attr = root_attr;
  s->more_ud = h;
  struct eval_scope *out = tfr_arena_alloc(c->a, sizeof *out);
  *out = (struct eval_scope){scope_lookup, s, scope_attr};
  return out;
}

bool tree_console_eval(struct eval_ctx *c, const struct tfr_resolution *res,
                       const struct tfr_scope *sc, const struct ast *x,
                       const tfr_value **out) {
  bool in_instance = sc && sc->in;
  if (sc && !in_instance)
    res = sc->res;
  const struct module *m = in_instance          ? sc->in->tm->m
                           : res && res->module ? module_of(res->module)
                                                : NULL;
  if (!m)
    return false;
  scope_funcs(c, m); /* its required_providers' functions */
  if (!validate_console_refs(m, c->a, c->diags, c->src, x)) {
    *out = eval_dynamic(c);
    return true;
  }
  if (in_instance) {
    *out = eval_instance(c, sc, x);
    return true;
  }
  c->scope = root_scope(c, res, resolve_tree(res));
  if (!c->dir)
    c->dir = m->dir;
  *out = eval_expr(c, x);
  return true;
}
