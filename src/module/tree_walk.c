/*
** The walk: arguments, rules, locals and outputs node by node.
*/
#include "module/tree_int.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "base/arena_int.h"
#include "base/diag_int.h"
#include "module/engine_tofu.h"
#include "module/finalize.h"
#include "module/tree_element.h"
#include "module/validate.h"

static const char *ref_steps(tfr_arena *a, const struct ast *x,
                             const char **root, const char **steps) {
  const char *path = "";
  for (;;) {
    while (x->kind == AST_PAREN)
      x = x->a;
    if (x->kind == AST_GETATTR && x->kids[0]->kind == AST_VARIABLE) {
      const struct ast *r = x->kids[0];
      bool var = r->n == 3 && !memcmp(r->str, "var", 3);
      bool each = r->n == 4 && !memcmp(r->str, "each", 4) && x->n == 5 &&
                  !memcmp(x->str, "value", 5);
      if (!var && !each)
        return NULL;
      *root = var ? "var" : "each";
      *steps = path;
      return tfr_arena_strndup(a, x->str, x->n);
    }
    if (x->kind == AST_GETATTR) {
      path = tfr_arena_printf(a, ".%.*s%s", (int)x->n, x->str, path);
      x = x->kids[0];
    } else if (x->kind == AST_INDEX && x->kids[0]->kind == AST_STRING) {
      path = tfr_arena_printf(
          a, "[%s]%s", str_go_quote(a, x->kids[0]->str, x->kids[0]->n), path);
      x = x->a;
    } else if (x->kind == AST_INDEX && x->kids[0]->kind == AST_NUMBER) {
      path = tfr_arena_printf(a, "[%.*s]%s", (int)x->kids[0]->n,
                              x->kids[0]->str, path);
      x = x->a;
    } else {
      return NULL;
    }
  }
}

/* The root's value of variable name as written in a var file: its
** expression (the winning one) and file, or NULL. */
static const struct ast *root_value_expr(struct tree *t, const char *name,
                                         struct src_file **src) {
  struct module *m = t->root->m;
  for (size_t i = m->nraws; i-- > 0;) {
    const struct raw_value *raw = &m->raws[i];
    if (strcmp(raw->name, name) || raw->undeclared)
      continue;
    if (!raw->src)
      return NULL; /* -var or TF_VAR_: no line to point at */
    *src = raw->src;
    return module_raw_expr(m, t->a, tfr_diags_new(t->a), raw);
  }
  return NULL;
}

/* Where the element at path of argument k of instance callee is written,
** followed through `var.` and `each.value` references up to the root's
** var files: its range in *at, and the root variable's element it comes
** from in *root_elem ("var.x[\"b\"].size", else NULL).  False when it
** is the argument as a whole, written in the call. */
bool tree_trace_element(struct tree *t, const struct tinst *callee, size_t k,
                        const char *path, struct tfr_range *at,
                        const char **root_elem) {
  *root_elem = NULL;
  const struct module_arg *arg = callee->tm->args[k];
  const struct ast *x = arg ? arg->expr : NULL;
  struct src_file *src = arg ? arg->src : NULL;
  for (int depth = 0; x && depth < 64; depth++) {
    const char *rest, *steps, *root;
    const struct ast *n = strict_locate_rest(x, path, &rest);
    const char *name = ref_steps(t->a, n, &root, &steps);
    if (!name) {
      if (n == x && depth == 0)
        return false;
      *at = src_range(src, n->span);
      return true;
    }
    const struct module_call *call = callee->tm->call;
    if (*root == 'e') { /* each.value: the for_each element of its key */
      const tfr_value *key = callee->rep.each_key;
      if (!call->for_each || !key || key->type->kind != TFR_STRING ||
          !tfr_value_is_known(key)) {
        *at = src_range(src, n->span);
        return true;
      }
      path = tfr_arena_printf(t->a, "[%s]%s%s",
                              str_go_quote(t->a, key->s, key->n), steps, rest);
      x = call->for_each;
      src = call->for_each_src;
      continue; /* evaluated where the call is, as the arguments are */
    }
    path = tfr_arena_printf(t->a, "%s%s", steps, rest);
    const struct tinst *caller = callee->parent;
    if (!caller->parent) { /* the root: its var file */
      struct src_file *vs = NULL;
      const struct ast *vx = root_value_expr(t, name, &vs);
      *at = src_range(src, n->span);
      if (vx) {
        *root_elem = tfr_arena_printf(t->a, "var.%s%s", name, path);
        *at = src_range(vs, strict_locate(vx, path)->span);
      }
      return true;
    }
    long j = module_var_index(caller->tm->m, name, strlen(name));
    arg = j >= 0 ? caller->tm->args[j] : NULL;
    if (!arg) { /* its default */
      *at = src_range(src, n->span);
      return true;
    }
    x = arg->expr;
    src = arg->src;
    callee = caller;
  }
  return false;
}

/* The note of a child's conversion error: which element of the value
** does not convert and where it is written, through the call to the
** root's var file (issue 37); *element gets that place. */
static const char *child_element(struct tree *t, struct tinst *in, size_t k,
                                 const tfr_value *given,
                                 struct tfr_range *element) {
  const struct var_decl *v = &in->tm->m->vars[k];
  const struct module_arg *arg = in->tm->args[k];
  const char *path = strict_failing_path(t->a, given, v->type);
  if (!path || !arg)
    return NULL;
  const char *from = NULL;
  struct tfr_range at = {0};
  bool found = tree_trace_element(t, in, k, path, &at, &from);
  char where[512] = "";
  if (found) {
    tfr_range_format(&at, where, sizeof where);
    *element = at;
  }
  return tfr_arena_printf(
      t->a, "The element that does not convert is %s.var.%s%s%s%s%s%s%s.",
      in->addr, v->name, path, from ? ", from " : "", from ? from : "",
      *where ? " (" : "", where, *where ? ")" : "");
}

struct element_of {
  struct tree *t;
  struct tinst *in;
  size_t k;
};

static const char *element_note(void *ud, const tfr_value *given,
                                struct tfr_range *at) {
  const struct element_of *e = ud;
  return child_element(e->t, e->in, e->k, given, at);
}

/* Variable k of instance in, given (NULL: no argument), made final
** (finalize.h); its diagnostics name the variable and the instance. */
static const tfr_value *prepare_arg(struct tree *t, struct tinst *in, size_t k,
                                    const tfr_value *given) {
  const struct var_decl *v = &in->tm->m->vars[k];
  const struct module_arg *arg = in->tm->args[k];
  size_t before = tfr_diags_count(t->diags);
  struct element_of e = {t, in, k};
  struct finalizer f = {t->a,
                        t->diags,
                        t->engine,
                        v,
                        tfr_arena_printf(t->a, "%s.var.%s", in->addr, v->name),
                        false,
                        element_note,
                        &e,
                        false};
  struct given_value g = {given, TFR_SRC_CONFIG,
                          arg && given ? src_range(arg->file, arg->span)
                                       : (struct tfr_range){0},
                          false};
  const tfr_value *val = var_final(&f, &g);
  tree_walk_said(t, before, in->addr);
  return val;
}

/* -strict for a module argument: an object attribute the child's type
** drops is ours to report ("Object attribute is ignored"), at its
** definition in the argument (an error with -strict, else a warning when
** asked for); a sensitive value's place is not quoted. */
struct dropped_arg {
  struct tree *t;
  struct tinst *in;
  const struct var_decl *v;
  struct src_file *src;
  bool secret;
};

/* Whether path f (as the loader opens paths) is dir or below it. */
static bool path_under(const char *f, const char *dir) {
  if (!strcmp(dir, "."))
    return *f != '/' && strcmp(f, "..") && strncmp(f, "../", 3);
  size_t n = strlen(dir);
  return !strncmp(f, dir, n) && (f[n] == '/' || !f[n]);
}

/* Third-party code: a path under the root's data directory (a registry
** module `terraform init` installed), or outside the user's own code
** (tfr_resolve_opts.own_dir, else the root's directory: `../..`).
** -strict is about the user's code alone, and the CLI counts warnings
** about third-party code in one line: not the user's to fix (issue 37). */
bool tree_third_party_path(const struct tree *t, const char *f) {
  if (path_under(f, t->data_path))
    return true;
  return !path_under(f, t->own_dir ? t->own_dir : t->root->dir);
}

static bool own_code(const struct tree *t, const struct tmod *tm) {
  return !tree_third_party_path(t, tm->dir);
}

/* "Object attribute is ignored" for d in the argument of c, as rep says
** (its variable's address, name and secrecy filled in here). */
static void arg_dropped(struct dropped_arg *c, const struct dropped_attr *d,
                        struct dropped_report rep) {
  struct tree *t = c->t;
  size_t before = tfr_diags_count(t->diags);
  struct tfr_range at = src_range(c->src, d->at);
  rep.addr = tfr_arena_printf(t->a, "%s.var.%s", c->in->addr, c->v->name);
  rep.var = c->v->name;
  rep.secret = c->secret;
  var_dropped(t->a, t->diags, t->engine, &rep, d->path, d->name, d->object,
              d->constructor, &at);
  diags_set_module_since(t->diags, before, c->in->addr);
}

/* OpenTofu's own warning in the validate walk for an attribute that an
** object constructor of the argument sets and the type drops
** (lint.DiscardedObjectConstructorAttrs: native syntax only). */
static void on_engine_dropped_arg(void *ctx, const struct dropped_attr *d) {
  if (d->constructor && !d->json)
    arg_dropped(ctx, d,
                (struct dropped_report){
                    .mode = DROPPED_ENGINE, .warned = true, .arg = true});
}

static void on_dropped_arg(void *ctx, const struct dropped_attr *d) {
  struct dropped_arg *c = ctx;
  struct tree *t = c->t;
  /* the engine's own warning says it (in the validate walk, its words) */
  bool warned = t->engine->warns_dropped_arg && d->constructor && !d->json;
  if (warned && !t->strict)
    return;
  bool strict = t->strict && own_code(t, c->in->parent->tm);
  const char *note =
      !strict && t->strict
          ? tfr_arena_printf(t->a,
                             "A warning even with -strict: this call is in "
                             "%s, third-party code outside the checked "
                             "directory, not yours to fix.",
                             c->in->parent->tm->rel)
          : NULL;
  arg_dropped(
      c, d,
      (struct dropped_report){.mode = strict ? DROPPED_ERROR : DROPPED_WARNING,
                              .warned = warned,
                              .note = note});
}

/* The warning for a deprecated variable k of tm that got a value, in instance
** addr (node_module_variable.go:337-344: a value that is not null,
** unknown included). */
static void deprecated_warning(struct tree *t, const struct tmod *tm, size_t k,
                               const char *addr) {
  const struct var_decl *v = &tm->m->vars[k];
  const struct module_arg *arg = tm->args[k];
  size_t before = tfr_diags_count(t->diags);
  struct tfr_range r = src_range(arg->file, arg->span);
  var_deprecated_warning(t->a, t->diags, t->engine, v, &r);
  diags_set_module_since(t->diags, before, addr);
}

/* The validate walk evaluates every call once, whatever its count or
** for_each: its warning stands when the plan walk has no instance to
** say it for (deprecated_unplanned). */
static void deprecated_seen(struct tree *t, struct tmod *tm, size_t k,
                            const char *addr) {
  if (!tm->deprecated_at)
    tm->deprecated_at = tfr_arena_alloc(
        t->a, (tm->m->nvars ? tm->m->nvars : 1) * sizeof *tm->deprecated_at);
  tm->deprecated_at[k] = addr;
}

/* After the plan walk: the validate walk's deprecation warnings of the
** modules that have no instance (count = 0, an empty for_each). */
static void deprecated_unplanned(struct tree *t) {
  for (size_t i = 0; i < t->nall; i++) {
    const struct tmod *tm = t->all[i];
    for (size_t k = 0; tm->deprecated_at && !tm->ninsts && k < tm->m->nvars;
         k++)
      if (tm->deprecated_at[k])
        deprecated_warning(t, tm, k, tm->deprecated_at[k]);
  }
}

static bool exec_var(struct tree *t, struct tmod *tm, size_t k) {
  bool ok = true;
  const struct var_decl *v = &tm->m->vars[k];
  const struct module_arg *arg = tm->args[k];
  for (size_t i = 0; i < tm->ninsts; i++) {
    struct tinst *in = tm->insts[i];
    const tfr_value *given = NULL;
    if (arg) {
      struct trep rep = in->rep;
      if (t->validate) /* TotallyUnknownRepetitionData */
        rep = (struct trep){tfr_unknown(t->a, &tfr_t_number),
                            tfr_unknown(t->a, &tfr_t_string),
                            tfr_unknown(t->a, &tfr_t_dynamic)};
      given = tree_eval_in(t, in->parent, arg->src, arg->expr, &rep, v->name,
                           in->addr);
      if (!given) {
        ok = false;
        in->failed[k] = true;
        continue;
      }
    }
    const tfr_value *val = prepare_arg(t, in, k, given);
    /* the attributes its type drops: ours at plan, the engine's own in
    ** the validate walk */
    dropped_fn report =
        !given                                        ? NULL
        : t->validate && t->engine->warns_dropped_arg ? on_engine_dropped_arg
        : !t->validate && val && (t->strict || t->warn_dropped) ? on_dropped_arg
                                                                : NULL;
    if (report) {
      struct dropped_arg c = {t, in, v, arg->src,
                              v->sensitive ||
                                  tfr_value_has_mark(given, TFR_V_SENSITIVE)};
      strict_dropped(t->a, arg->expr, given, v->type, report, &c);
    }
    if (v->deprecated && arg && given &&
        (!(given->flags & TFR_V_NULL) || t->engine->deprecated_null_warns)) {
      if (t->validate)
        deprecated_seen(t, tm, k, in->addr);
      else
        deprecated_warning(t, tm, k, in->addr);
    }
    if (!val) {
      ok = false;
      in->failed[k] = true;
      continue;
    }
    in->vars[k] = val;
    if (!t->validate) /* the validate walk's var.* is all unknown */
      in->var_obj = NULL;
    in->var_done[k] = true;
  }
  return ok;
}

/* Where a child variable's rule failures point: its argument, or
** Terraform's zero range when it was not given. */
struct arg_place {
  const struct tmod *tm;
};

static struct tfr_range arg_range(const void *ud, size_t k) {
  const struct tmod *tm = ud;
  if (tm->args[k])
    return src_range(tm->args[k]->file, tm->args[k]->span);
  return (struct tfr_range){.filename = ""};
}

/* The rule of v whose failure g is: its detail ends saying where the
** rule is (validate.c), or NULL. */
static const struct validation *failed_rule(struct tree *t,
                                            const struct var_decl *v,
                                            const struct tfr_diag *g) {
  size_t dn = g->detail ? strlen(g->detail) : 0;
  for (size_t j = 0; j < v->nvalidations; j++) {
    const struct validation *r = &v->validations[j];
    struct tfr_range rr = src_range(r->src, r->block);
    char where[512];
    tfr_range_format(&rr, where, sizeof where);
    const char *end = tfr_arena_printf(t->a, "rule at %s.", where);
    size_t en = strlen(end);
    if (dn >= en && !memcmp(g->detail + dn - en, end, en))
      return &v->validations[j];
  }
  return NULL;
}

/* Failure g of a rule of v, on the value the root's var file gives at
** from ("var.x[\"b\"]"): when the rule reads it through one path alone
** (var.cfg.port) and the var file writes that attribute, its element is
** that item (`port = 80`), not the whole element (issue 41). */
static void narrow_element(struct tree *t, const struct var_decl *v,
                           const char *from, struct tfr_diag *g) {
  const struct validation *rule = failed_rule(t, v, g);
  const char *path = rule ? element_read_path(t->a, rule, v->name) : NULL;
  if (!path)
    return;
  const char *steps = strpbrk(from + 4, ".[");
  size_t n = steps ? (size_t)(steps - (from + 4)) : strlen(from + 4);
  struct src_file *vs = NULL;
  const char *name = tfr_arena_strndup(t->a, from + 4, n);
  const struct ast *vx = root_value_expr(t, name, &vs);
  struct span at;
  if (!vx ||
      !element_item_at(
          vx, tfr_arena_printf(t->a, "%s%s", steps ? steps : "", path), &at))
    return;
  g->element = src_range(vs, at);
  char where[512];
  tfr_range_format(&g->element, where, sizeof where);
  const char *reads =
      tfr_arena_printf(t->a, "The rule reads %s%s (%s).", from, path, where);
  g->note = g->note ? tfr_arena_printf(t->a, "%s %s", g->note, reads) : reads;
}

/* A child's rule failed on a value taken whole from an element of a root
** variable (through var. and each.value): the failures from before on
** point at that element's place in the var file, and say which element
** it is when it is not the whole variable (issue 37). */
static void rule_failure_origin(struct tree *t, const struct tinst *in,
                                size_t k, size_t before) {
  const struct var_decl *v = &in->tm->m->vars[k];
  if (v->sensitive || !in->tm->args[k] ||
      (in->vars[k] && tfr_value_has_mark(in->vars[k], TFR_V_SENSITIVE)))
    return;
  const char *from = NULL;
  struct tfr_range at = {0};
  if (!tree_trace_element(t, in, k, "", &at, &from) || !from)
    return;
  char where[512];
  tfr_range_format(&at, where, sizeof where);
  const char *note =
      strpbrk(from + 4, ".[")
          ? tfr_arena_printf(t->a, "The value is %s (%s).", from, where)
          : NULL;
  for (size_t i = before; i < tfr_diags_count(t->diags); i++) {
    struct tfr_diag *g = diags_at(t->diags, i);
    if (g->code != TFR_CODE_RULE_FAILED || g->sev != TFR_DIAG_ERROR)
      continue;
    g->element = at;
    if (note && !g->note)
      g->note = note;
    narrow_element(t, v, from, g);
  }
}

/* A root variable's rules failed on the value a var file gives it: each
** failure of a rule that reads one attribute of it points at that
** attribute's item (issue 41). */
static void root_rule_elements(struct tree *t, const struct var_decl *v,
                               size_t before) {
  if (v->sensitive)
    return;
  const char *from = tfr_arena_printf(t->a, "var.%s", v->name);
  for (size_t i = before; i < tfr_diags_count(t->diags); i++) {
    struct tfr_diag *g = diags_at(t->diags, i);
    if (g->code == TFR_CODE_RULE_FAILED && g->sev == TFR_DIAG_ERROR &&
        !g->hide_source)
      narrow_element(t, v, from, g);
  }
}

static struct tfr_range decl_range(const void *ud, size_t k) {
  const struct module *m = ud;
  return m->vars[k].decl;
}

/* A root variable's rules in Terraform's validate walk: every root
** variable unknown, a failure at the declaration, only errors kept; a
** reference to something undeclared is an error of this variable's rules
** alone (eval_variable.go:267-271, evaluate.go). */
static bool exec_root_validate(struct tree *t, struct tmod *tm, size_t k,
                               struct scope *s) {
  const struct module *m = tm->m;
  size_t before = tfr_diags_count(t->diags);
  if (validate_var_refs(m, t->a, t->diags, k)) {
    if (!t->walk_clean) {
      t->walk_clean = tfr_arena_alloc(t->a, sizeof *t->walk_clean);
      tfr_arena_on_free(t->a, (void (*)(void *))bytemap_free, t->walk_clean);
    }
    const struct value_place decl = {decl_range, m};
    struct rules_run run = {t->a,  t->scratch, t->diags,     s,
                            &decl, true,       t->walk_clean};
    validate_var_rules(&run, m, k, NULL);
  }
  tree_walk_said(t, before, "");
  return !diags_errors_since(t->diags, before);
}

/* A root variable's rules, as Terraform's one graph orders them: after
** the module outputs and local values they read
** (transform_variable_validation.go, node_variable_validation.go:
** 116-135), in the validate walk and the plan walk. */
static bool exec_root_valid(struct tree *t, struct tmod *tm, size_t k) {
  struct tinst *in = tm->insts[0];
  struct scope s;
  struct tscope ts;
  tree_init_scope(t, &s, &ts, in, NULL, -1, NULL);
  if (t->validate)
    return exec_root_validate(t, tm, k, &s);
  /* an unknown condition is skipped in silence in every walk
  ** (eval_variable.go:393-396): the init walk's is decided again in the
  ** plan walk, so ours to say only there */
  s.init = s.quiet_deferred = t->init;
  size_t before = tfr_diags_count(t->diags);
  struct rules_run run = {t->a,       t->scratch, t->diags, &s,
                          t->root_at, false,      NULL};
  bool passed = validate_var_rules(&run, tm->m, k, t->root_rules[k]);
  diags_set_module_since(t->diags, before, "");
  root_rule_elements(t, &tm->m->vars[k], before);
  if (!passed && t->root_soft && t->root_soft[k]) {
    validate_soften(tm->m, t->diags, before, t->root_soft, NULL);
    passed = true; /* its null stays: the caller's to set */
  }
  if (passed && !diags_errors_since(t->diags, before))
    return true;
  in->failed[k] = true;
  in->vars[k] = NULL;
  in->var_obj = NULL;
  return false;
}

static bool exec_valid(struct tree *t, struct tmod *tm, size_t k) {
  if (!tm->parent)
    return exec_root_valid(t, tm, k);
  bool ok = true;
  const struct module *m = tm->m;
  const struct var_decl *v = &m->vars[k];
  const struct value_place place = {arg_range, tm};
  for (size_t i = 0; i < tm->ninsts; i++) {
    struct tinst *in = tm->insts[i];
    size_t before = tfr_diags_count(t->diags);
    if (t->validate && !validate_var_refs(m, t->a, t->diags, k)) {

      diags_set_module_since(t->diags, before, in->addr);
      in->failed[k] = true;
      ok = false;
      continue;
    }
    if (in->failed[k] || (!t->validate && !in->var_done[k]))
      continue;
    const tfr_value *own = NULL;
    if (t->validate)
      own = in->var_done[k] ? in->vars[k] : NULL;
    struct scope s;
    struct tscope ts;
    tree_init_scope(
        t, &s, &ts, in, NULL, t->validate ? (long)k : -1,
        own ? tfr_value_mark(t->a, own,
                             (v->sensitive ? TFR_V_SENSITIVE : 0) |
                                 (v->ephemeral ? TFR_V_EPHEMERAL : 0))
            : NULL);
    if (t->validate && !own) {
      /* unknown of its type, as every other variable */
      s.var = tree_var_object(t, in, -1, NULL);
    }
    s.quiet_deferred = true;
    /* what the rules compute lives in a scratch arena, reset after each:
    ** only their outcomes' texts are kept (diagnostics are copied) */
    struct rules_run run = {t->a,   t->scratch,  t->diags, &s,
                            &place, t->validate, NULL};
    bool passed = validate_var_rules(&run, m, k, in->rules[k]);
    if (!t->validate && !passed)
      rule_failure_origin(t, in, k, before);
    tree_walk_said(t, before, in->addr);
    if (!passed || diags_errors_since(t->diags, before)) {
      ok = false;
      if (!t->validate) {
        in->failed[k] = true;
        in->var_done[k] = false;
        in->var_obj = NULL;
      }
    }
  }
  return ok;
}

/* A local value that refers to itself (node_local.go). */
static bool self_local(struct tree *t, struct tinst *in, size_t k) {
  const struct local_decl *d = &in->tm->m->locals[k];
  struct tref_list l = tree_refs_of_x(t, d->expr);
  bool found = false;
  for (size_t i = 0; i < l.n; i++) {
    const struct tref *r = &l.v[i];
    if (!tree_root_is(r, "local") || !tree_a1_is(r, d->name, strlen(d->name)))
      continue;
    size_t before = tfr_diags_count(t->diags);
    struct tfr_range rg = src_range(d->src, r->span);
    tfr_diags_add(t->diags, TFR_DIAG_ERROR, &rg, "Self-referencing local value",
                  tfr_arena_printf(t->a,
                                   "Local value %slocal.%s cannot use its own "
                                   "result as part of its expression.",
                                   tree_node_prefix(t, in->tm), d->name));
    diags_set_module_since(t->diags, before, in->addr);
    found = true;
  }
  return found;
}

static bool exec_local(struct tree *t, struct tmod *tm, size_t k) {
  bool ok = true;
  const struct local_decl *d = &tm->m->locals[k];
  for (size_t i = 0; i < tm->ninsts; i++) {
    struct tinst *in = tm->insts[i];
    if (self_local(t, in, k)) {
      ok = false;
      continue;
    }
    const tfr_value *v =
        tree_eval_in(t, in, d->src, d->expr, NULL, NULL, in->addr);
    if (!v) {
      ok = false;
      continue;
    }
    in->locals[k] = v;
    in->local_obj = NULL;
  }
  return ok;
}

/* An error of a check rule at x in instance in, with the values
** Terraform lists under it (Expression and EvalContext). */
static void rule_error(struct tree *t, struct tinst *in, struct src_file *src,
                       const struct ast *x, enum tfr_severity sev,
                       const char *summary, const char *detail) {
  size_t before = tfr_diags_count(t->diags);
  struct tfr_range r = src_range(src, x->span);
  tfr_diags_add(t->diags, sev, &r, summary, detail);
  struct inst_ctx ic;
  tree_inst_ctx(t, &ic, in, src, NULL);
  eval_diag_values(&ic.c, x, false, t->diags);
  diags_set_module_since(t->diags, before, in->addr);
}

/* A check rule's error message in instance in, as lang.EvalCheckErrorMessage
** (lang/checks.go:24-98): "" when it cannot be shown (an error or warning
** says why, or it is unknown). */
static const char *check_message(struct tree *t, struct tinst *in,
                                 const struct out_rule *r) {
  const tfr_value *m =
      tree_eval_in(t, in, r->msg_src, r->msg, NULL, NULL, in->addr);
  if (!m)
    return "";
  const char *err = NULL, *why = NULL;
  const tfr_value *sm = conv_convert(t->a, m, &tfr_t_string, &err);
  if (!sm)
    why = tfr_arena_printf(t->a, "Unsuitable value for error message: %s.",
                           err ? err : "string required");
  else if (sm->flags & TFR_V_UNKNOWN)
    return "";
  else if (sm->flags & TFR_V_NULL)
    why = "Unsuitable value for error message: must not be null.";
  if (why) {
    rule_error(t, in, r->msg_src, r->msg, TFR_DIAG_ERROR,
               "Invalid error message", why);
    return "";
  }
  bool sens = tfr_value_has_mark(sm, TFR_V_SENSITIVE);
  if ((sens || tfr_value_has_mark(sm, TFR_V_EPHEMERAL)) && !t->validate) {
    rule_error(
        t, in, r->msg_src, r->msg, TFR_DIAG_WARNING,
        sens ? "Error message refers to sensitive values"
             : "Error message refers to ephemeral values",
        sens ? "The error expression used to explain this condition refers "
               "to sensitive values, so Terraform will not display the "
               "resulting message.\n\nYou can correct this by removing "
               "references to sensitive values, or by carefully using the "
               "nonsensitive() function if the expression will not reveal "
               "the sensitive data."
             : "The error expression used to explain this condition refers "
               "to ephemeral values, so Terraform will not display the "
               "resulting message.\n\nYou can correct this by removing "
               "references to ephemeral values, or by using the "
               "ephemeralasnull() function on the references to not reveal "
               "ephemeral data.");
  }
  if (sens || tfr_value_has_mark(sm, TFR_V_EPHEMERAL))
    return "";
  const char *text = sm->s;
  size_t n = sm->n;
  str_go_trim_space(&text, &n);
  return tfr_arena_strndup(t->a, text, n);
}

/* Output o's precondition blocks in instance in, as evalCheckRules
** (eval_conditions.go:33-260): each rule's message, then its condition;
** an unknown condition is decided later (at apply), in silence.  False
** if one failed or had an error. */
static bool output_preconds(struct tree *t, struct tinst *in,
                            const struct output_decl *o) {
  bool ok = true;
  for (size_t i = 0; i < o->npreconds; i++) {
    const struct out_rule *r = &o->preconds[i];
    size_t before = tfr_diags_count(t->diags);
    const char *msg = check_message(t, in, r);
    const tfr_value *c =
        tree_eval_in(t, in, r->cond_src, r->cond, NULL, NULL, in->addr);
    if (diags_errors_since(t->diags, before)) {
      ok = false;
      continue;
    }
    if (!c || !tfr_value_is_known(c))
      continue;
    const char *err = NULL, *why = NULL;
    const tfr_value *b = NULL;
    if (c->flags & TFR_V_NULL)
      why = "Condition expression must return either true or false, not null.";
    else if (!(b = conv_convert(t->a, c, &tfr_t_bool, &err)))
      why = tfr_arena_printf(t->a, "Invalid condition result value: %s.",
                             err ? err : "bool required");
    if (why)
      rule_error(t, in, r->cond_src, r->cond, TFR_DIAG_ERROR,
                 "Invalid condition result", why);
    else if (!b->b)
      rule_error(t, in, r->cond_src, r->cond, TFR_DIAG_ERROR,
                 "Module output value precondition failed",
                 *msg ? msg
                      : "This check failed, but has an invalid error message "
                        "as described in the other accompanying messages.");
    ok &= !why && b->b;
  }
  return ok;
}

/* Output k of every instance of tm, as NodeApplyableOutput.Execute
** (node_output.go:400-560): an ephemeral root output refused, the
** preconditions, the value converted to its type, a root output's
** sensitive and deprecated checks. */
static bool exec_output(struct tree *t, struct tmod *tm, size_t k) {
  bool ok = true;
  const struct output_decl *o = &tm->m->outputs[k];
  for (size_t i = 0; i < tm->ninsts; i++) {
    struct tinst *in = tm->insts[i];
    if (o->ephemeral && !tm->parent) {
      tree_call_error_in(
          t, o->src, o->decl, in->addr, "Ephemeral output not allowed",
          "Ephemeral outputs are not allowed in context of a root "
          "module");
      ok = false;
      continue;
    }
    if (!output_preconds(t, in, o)) {
      ok = false; /* failed preconditions prevent further evaluation */
      continue;
    }
    const tfr_value *v = o->expr ? tree_eval_in(t, in, o->expr_src, o->expr,
                                                NULL, NULL, in->addr)
                                 : tfr_null(t->a, &tfr_t_dynamic);
    if (!v) {
      ok = false;
      continue;
    }
    struct span at = o->expr ? o->expr->span : o->decl;
    if (o->type) {
      if (o->defaults && !(v->flags & TFR_V_NULL))
        v = conv_apply_defaults(t->a, v, o->defaults);
      const char *err = NULL;
      const tfr_value *cv = conv_convert(t->a, v, o->type, &err);
      if (!cv) {
        tree_call_error_in(
            t, o->expr ? o->expr_src : o->src, at, in->addr,
            "Invalid output value",
            tfr_arena_printf(t->a,
                             "The value expression does not match this "
                             "output value's type constraint: %s.",
                             err ? err : "incorrect type"));
        ok = false;
        continue;
      }
      v = cv;
    }
    if (!tm->parent && !o->sensitive &&
        tfr_value_has_mark(v, TFR_V_SENSITIVE)) {
      tree_call_error_in(
          t, o->src, o->decl, in->addr, "Output refers to sensitive values",
          "To reduce the risk of accidentally exporting sensitive data "
          "that was intended to be only internal, Terraform requires "
          "that any root module output containing sensitive data be "
          "explicitly marked as sensitive, to confirm your intent.\n\n"
          "If you do intend to export this data, annotate the output "
          "value as sensitive by adding the following argument:\n"
          "    sensitive = true");
      ok = false;
      continue;
    }
    if (!o->ephemeral && tfr_value_has_mark(v, TFR_V_EPHEMERAL)) {
      tree_call_error_in(
          t, o->expr ? o->expr_src : o->src, at, in->addr,
          "Ephemeral value not allowed",
          "This output value is not declared as returning an ephemeral "
          "value, so it cannot be set to a result derived from an "
          "ephemeral value.");
      ok = false;
      continue;
    }
    if (o->deprecated && !tm->parent) {
      tree_call_error_in(
          t, o->src, o->deprecated_at, in->addr,
          "Root module output deprecated",
          "Root module outputs cannot be deprecated, as there is no "
          "higher-level module to inform of the deprecation.");
      ok = false;
    }
    in->outputs[k] = v;
    if (in->parent) {
      in->parent->module_obj = NULL;
      in->parent->call_val[tm->call - in->parent->tm->m->calls] = NULL;
    }
  }
  return ok;
}

/* Where static reference x stops naming an object as addrs.ParseRef
** reads it (parse_ref.go): 0 when nothing is left, else the byte where
** the rest of its steps (its Remaining) starts. */
static uint32_t ref_rest(const struct ast *x) {
  const struct ast *root = x;
  while (root->kind != AST_VARIABLE)
    root = root->kind == AST_GETATTR ? root->kids[0] : root->a;
  const struct ast *st[4] = {0};
  size_t n = tree_steps_of(x, root, st, 4);
  size_t k;
  if (refwalk_is_name(root, "self"))
    k = 0;
  else if (refwalk_is_name(root, "data") ||
           refwalk_is_name(root, "ephemeral") ||
           refwalk_is_name(root, "resource"))
    k = 2;
  else
    k = 1;
  if (k > n || (k && st[k - 1]->kind != AST_GETATTR))
    return 0; /* not a whole name: ParseRef's own error */
  bool object =
      !refwalk_is_name(root, "var") && !refwalk_is_name(root, "local") &&
      !refwalk_is_name(root, "path") && !refwalk_is_name(root, "terraform") &&
      !refwalk_is_name(root, "count") && !refwalk_is_name(root, "each") && k;
  if (object && k < n && k < 4 && st[k]->kind == AST_INDEX)
    k++; /* an instance key */
  if (refwalk_is_name(root, "module") && k < n && k < 4 &&
      st[k]->kind == AST_GETATTR)
    k++; /* an output of the call */
  if (k >= n)
    return 0;
  return k ? st[k - 1]->span.end : root->span.end;
}

/* A module call's depends_on in the validate walk, as validateDependsOn
** (node_resource_validate.go:936-976, node_module_expand.go:303): each
** reference a whole object, then (while none had an error) one the
** calling module declares. */
static bool depends_on_valid(struct tree *t, struct tmod *tm) {
  const struct module_call *c = tm->call;
  const struct module *pm = tm->parent->m;
  const char *addr = tm->parent->ninsts ? tm->parent->insts[0]->addr : "";
  size_t before = tfr_diags_count(t->diags);
  for (size_t i = 0; i < c->ndepends_on; i++) {
    const struct ast *x = c->depends_on[i];
    struct src_file *src = c->depends_on_src[i];
    uint32_t rest = ref_rest(x);
    if (rest)
      tree_call_error_in(t, src, (struct span){rest, x->span.end}, addr,
                         "Invalid depends_on reference",
                         "References in depends_on must be to a whole object "
                         "(resource, etc), not to an attribute of an object.");
    if (!diags_errors_since(t->diags, before)) {
      size_t at = tfr_diags_count(t->diags);
      validate_refs(pm, t->a, t->diags, src, x, NULL);
      diags_set_module_since(t->diags, at, addr);
    }
  }
  return !diags_errors_since(t->diags, before);
}

static bool exec_node(struct tree *t, struct tnode *n) {
  struct tmod *tm = n->tm;
  switch (n->kind) {
  case N_EXPAND: {
    bool ok = !t->validate || depends_on_valid(t, tm);
    for (size_t i = 0; i < tm->parent->ninsts; i++)
      ok &= tree_expand_call(t, tm, tm->parent->insts[i]);
    return ok;
  }
  case N_VAR:
    return exec_var(t, tm, n->index);
  case N_VALID:
    return exec_valid(t, tm, n->index);
  case N_LOCAL:
    return exec_local(t, tm, n->index);
  case N_OUTPUT:
    return exec_output(t, tm, n->index);
  }
  return false;
}

/* One walk over the graph: the root's instance first, then every node in
** order, a node skipped (state 3) when one of its dependencies is not
** done. */
/* The rules of a root variable that the plan walk skips (a dependency
** was not done): why, in the rule runner's words (validate.c) when it is
** the variable's own value or another root variable's. */
static void skip_root_rules(struct tree *t, const struct tnode *n) {
  if (t->validate || n->kind != N_VALID || n->tm != t->root || !t->root_rules)
    return;
  const struct module *m = t->root->m;
  const char *why = NULL;
  if (t->nodes[t->root->var_node[n->index]].state != 1)
    why = "the variable has no valid value";
  for (size_t j = 0; j < n->ndeps && !why; j++) {
    const struct tnode *d = &t->nodes[n->deps[j]];
    if (d->state != 1 && d->tm == t->root && d->index != n->index &&
        (d->kind == N_VAR || d->kind == N_VALID))
      why = tfr_arena_printf(t->a, "it refers to var.%s, which is not valid",
                             m->vars[d->index].name);
  }
  if (why)
    validate_skip_rules(&m->vars[n->index], t->root_rules[n->index], why);
}

static void walk(struct tree *t, const tfr_value *const *root_values) {
  for (size_t i = 0; i < t->nall; i++)
    t->all[i]->ninsts = 0;
  t->ninsts = 0;
  t->limit_said = false;
  struct tinst *root = tree_new_inst(t, t->root, NULL, "", (struct trep){0});
  const struct module *rm = t->root->m;
  for (size_t k = 0; k < rm->nvars; k++) {
    struct tnode *n = &t->nodes[t->root->var_node[k]];
    /* unknown: every variable in the validate walk, those that are not
    ** const in the init walk */
    bool unknown = t->validate || (t->init && !rm->vars[k].is_const);
    if (unknown || (root_values && root_values[k])) {
      root->vars[k] = unknown ? NULL : root_values[k];
      root->var_done[k] = true;
      n->state = 1;
    } else
      n->state = 2;
  }
  for (size_t i = 0; i < t->nnodes; i++) {
    struct tnode *n = &t->nodes[t->order[i]];
    if (n->pre)
      continue;
    bool skip = false;
    for (size_t j = 0; j < n->ndeps && !skip; j++)
      skip = t->nodes[n->deps[j]].state != 1;
    if (skip) {
      n->state = 3;
      skip_root_rules(t, n);
      continue;
    }
    n->state = exec_node(t, n) ? 1 : 2;
  }
}

bool tree_graph(struct tree *t, tfr_diags *diags) {
  t->diags = diags;
  size_t before = tfr_diags_count(diags);
  if (!tree_build_graph(t))
    return false;
  if (!tree_order_graph(t)) {
    diags_set_module_since(diags, before, "");
    return false;
  }
  return true;
}

bool tree_init_walk(struct tree *t, const tfr_value *const *root_values,
                    const struct value_place *root_at,
                    struct tfr_rule *const *root_rules) {
  size_t before = tfr_diags_count(t->diags);
  t->init = true;
  bool ok = tree_graph(t, t->diags);
  if (ok) {
    t->root_at = root_at;
    t->root_rules = root_rules;
    t->root_soft = NULL;
    for (size_t i = 0; i < t->nnodes; i++)
      t->nodes[i].state = 0;
    walk(t, root_values);
  }
  t->init = false;
  diags_unset_root_module(t->diags, before); /* as the root's alone */
  return ok && !diags_errors_since(t->diags, before);
}

bool tree_validate(struct tree *t, tfr_diags *diags) {
  t->diags = diags;
  size_t before = tfr_diags_count(diags);
  t->validate = true;
  walk(t, NULL);
  t->validate = false;
  return !diags_errors_since(diags, before);
}

/* After a plan walk without errors: a call whose expansion was skipped
** has no instance and is not checked.  Without errors, a node is skipped
** only below a root variable -missing-required=info leaves without a
** value, which its count or for_each reads (the topmost such call is
** said; its own calls go with it). */
static void unexpanded(struct tree *t) {
  if (tfr_diags_has_errors(t->diags))
    return;
  for (size_t i = 1; i < t->nall; i++) {
    const struct tmod *tm = t->all[i];
    if (t->nodes[tm->expand].state != 3 ||
        (tm->parent->parent && t->nodes[tm->parent->expand].state != 1))
      continue;
    const struct module_call *c = tm->call;
    const struct ast *x = c->count ? c->count : c->for_each;
    struct src_file *src = c->count ? c->count_src : c->for_each_src;
    struct tfr_range at =
        x ? src_range(src, x->span) : src_range(c->src, c->decl);
    const char *what = c->count ? "count" : "for_each";
    tree_add_unchecked(
        t, tm->addr, TFR_UNCHECKED_NOT_SET,
        tfr_arena_printf(t->a, "its %s reads a variable that is not set", what),
        at);
    if (!t->unchecked_error)
      continue; /* the verdict says it */
    size_t before = tfr_diags_count(t->diags);
    tfr_diags_add(t->diags, TFR_DIAG_ERROR, &at, "Module instances not known",
                  tfr_arena_printf(t->a,
                                   "The \"%s\" value of %s reads a root "
                                   "variable that has no value, so the "
                                   "instances of %s are not checked.",
                                   what, tm->addr, tm->addr));
    tfr_diags_set_ours(t->diags);
    tree_unchecked_fails(t);
    diags_set_module_since(t->diags, before, tm->parent->addr);
  }
}

static int call_cmp(const void *key, const void *elem) {
  return strcmp(key, ((const struct module_call *)elem)->name);
}

/* The call of m named name, or NULL. */
static const struct module_call *call_named(const struct module *m,
                                            const char *name) {
  return m->ncalls
             ? bsearch(name, m->calls, m->ncalls, sizeof *m->calls, call_cmp)
             : NULL;
}

/* Removed blocks naming a module call that is still declared, as
** refactoring.FindRemoveStatements checks them before the plan walk
** (remove_statement.go:42-73), once per module of the configuration. */
static void removed_calls(struct tree *t) {
  for (size_t i = 0; i < t->nall; i++) {
    const struct module *m = t->all[i]->m;
    for (size_t j = 0; j < m->nrefactors; j++) {
      const struct refactor_stmt *r = &m->refactors[j];
      const struct module_call *c = call_named(m, r->from);
      if (!r->removed || !c)
        continue;
      tree_call_error_in(
          t, c->src, c->decl, m->addr, "Removed module still exists",
          tfr_arena_printf(t->a,
                           "This statement declares that %s was "
                           "removed, but it is still declared in "
                           "configuration.",
                           tree_in_module(t, m->addr, r->from)));
    }
  }
}

/* Moved blocks from a module call, in each instance of the module that
** has them, as refactoring.ValidateMoves checks them after the plan walk
** (move_validate.go:36-120): not to the same address, nor from a call
** that is still declared. */
static void moved_calls(struct tree *t) {
  for (size_t i = 0; i < t->nall; i++) {
    const struct tmod *tm = t->all[i];
    const struct module *m = tm->m;
    for (size_t j = 0; j < m->nrefactors; j++) {
      const struct refactor_stmt *r = &m->refactors[j];
      if (r->removed)
        continue;
      const struct module_call *c = call_named(m, r->from);
      for (size_t k = 0; k < tm->ninsts; k++) {
        const char *at = tm->insts[k]->addr;
        const char *from = tree_in_module(t, at, r->from);
        const char *to = tree_in_module(t, at, r->to);
        if (!strcmp(r->from, r->to)) {
          tree_call_error_in(
              t, r->src, r->decl, at, "Redundant move statement",
              tfr_arena_printf(t->a,
                               "This statement declares a move from "
                               "%s to the same address, which is "
                               "the same as not declaring this "
                               "move at all.",
                               from));
          continue;
        }
        if (!c)
          continue;
        struct tfr_range d = src_range(c->src, c->decl);
        tree_call_error_in(
            t, r->src, r->decl, at, "Moved object still exists",
            tfr_arena_printf(t->a,
                             "This statement declares a move from %s, but that "
                             "module call is still declared at %s:%d,%d.\n\n"
                             "Change your configuration so that this call will "
                             "be declared as %s instead.",
                             from, d.filename, d.start.line, d.start.column,
                             to));
      }
    }
  }
}

void tree_plan(struct tree *t, tfr_diags *diags,
               const tfr_value *const *root_values,
               const struct value_place *root_at,
               struct tfr_rule *const *root_rules, const bool *root_soft) {
  t->diags = diags;
  t->root_at = root_at;
  t->root_rules = root_rules;
  t->root_soft = root_soft;
  for (size_t i = 0; i < t->nnodes; i++)
    t->nodes[i].state = 0;
  size_t before = tfr_diags_count(diags);
  removed_calls(t);
  if (diags_errors_since(diags, before))
    return; /* context_plan.go stops before the walk */
  walk(t, root_values);
  t->planned = true;
  size_t walked = tfr_diags_count(diags);
  moved_calls(t);
  /* invalid moves are said instead of the walk's errors, which they are
  ** likely the cause of (context_plan.go:859-867) */
  if (diags_errors_since(diags, walked))
    diags_remove(diags, before, walked);
  else
    deprecated_unplanned(t);
  unexpanded(t);
}

bool tree_root_failed(const struct tree *t, size_t k) {
  return t->planned && t->root->ninsts && t->root->insts[0]->failed[k];
}
