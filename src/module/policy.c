/*
** check -policy=DIR: HashiCorp Terraform Policy's module policies,
** offline.  The language (beta) is documented, not in Terraform's source:
** Terraform hands each module call to an external policy plugin at module
** expansion (internal/terraform/node_module_expand.go:316-392, through
** internal/policy's client), with the call's source as the target and
** its address and installed version as metadata.  What is ported here is
** the documented language: each *.policy.hcl file of the directory
** evaluated on its own, with its `policy` block (settings that change
** nothing offline), `input` blocks (input.NAME), `locals` blocks
** (local.NAME), and `module_policy "SOURCE" "LABEL"` blocks
** (enforcement_level, filter, locals, enforce { condition, error_message,
** info_message }), SOURCE matched with `*` wildcards.  Where Terraform
** gives the plugin no input values at expansion (its attrs are unknown
** there), tfresolve gives what it knows before any plan: attrs is the
** module instance's resolved input variables, meta its source, installed
** version and address.  Every diagnostic here is ours (tfr_diag.ours):
** the plugin's texts are not public.
*/
#include "module/policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag_int.h"
#include "base/dirlist.h"
#include "base/strutil.h"
#include "eval/eval.h"
#include "eval/funcs.h"
#include "eval/typeexpr.h"
#include "module/scope.h"
#include "syntax/parse.h"
#include "syntax/refwalk.h"
#include "syntax/source.h"
#include "values/convert.h"

/* A local value: its name and expression. */
struct pol_local {
  const char *name;
  const struct ast *expr;
};

/* An enforce block. */
struct pol_enforce {
  const struct ast *cond, *msg;
  struct span at;
};

/* A module_policy block. */
struct pol_policy {
  const char *target, *label;
  struct span decl;
  bool mandatory;
  const struct ast *filter;
  struct pol_local *locals;
  size_t nlocals;
  struct pol_enforce *enf;
  size_t nenf;
};

/* A policy file: its inputs (values set), locals and module policies. */
struct pol_file {
  const char *path;
  struct src_file *src;
  const char **in_names;
  const tfr_value **in_vals;
  size_t nin;
  bool inputs_failed;
  struct pol_local *locals;
  size_t nlocals;
  struct pol_policy *pols;
  size_t npols;
};

/* One evaluation: a policy file, a policy of it (NULL: the file's own
** locals), and a module instance's attrs and meta. */
struct pol_eval {
  tfr_arena *a;
  tfr_diags *diags;
  const struct pol_file *f;
  const struct pol_policy *p;
  const tfr_value *attrs, *meta, *input;
  const tfr_value **lv; /* the policy's locals, then the file's */
  unsigned char *ls;    /* 0 not evaluated, 1 under way, 2 done */
};

/* An error or warning of ours at span s of src. */
static void say(tfr_diags *d, struct src_file *src, struct span s,
                enum tfr_severity sev, const char *summary,
                const char *detail) {
  struct tfr_range r = src_range(src, s);
  tfr_diags_add(d, sev, &r, summary, detail);
  tfr_diags_set_ours(d);
}

static bool is(const struct ast *x, const char *s) {
  size_t n = strlen(s);
  return x->n == n && !memcmp(x->str, s, n);
}

static const char *str_of(tfr_arena *a, const struct ast *x) {
  return tfr_arena_strndup(a, x->str, x->n);
}

/* A block's n labels, or NULL after an error when it has not n. */
static const struct ast *const *labels(tfr_arena *a, tfr_diags *d,
                                       struct src_file *src,
                                       const struct ast *blk, uint32_t n) {
  const struct ast *l = blk->kids[0];
  uint32_t have = l ? l->n : 0;
  static const struct ast *const none[1];
  if (have == n)
    return n ? (const struct ast *const *)l->items : none;
  say(d, src, blk->span, TFR_DIAG_ERROR,
      have < n ? "Missing name for block" : "Extraneous label for block",
      tfr_arena_printf(a, "A %.*s block must have %u label%s.", (int)blk->n,
                       blk->str, n, n == 1 ? "" : "s"));
  return NULL;
}

/* The attributes of a locals block, appended to *v (*n of them). */
static void add_locals(tfr_arena *a, const struct ast *body,
                       struct pol_local **v, size_t *n) {
  size_t more = 0;
  for (uint32_t i = 0; i < body->n; i++)
    more += body->items[i]->kind == AST_ATTR;
  struct pol_local *out = tfr_arena_alloc(a, (*n + more + 1) * sizeof *out);
  if (*n)
    memcpy(out, *v, *n * sizeof *out);
  for (uint32_t i = 0; i < body->n; i++) {
    const struct ast *x = body->items[i];
    if (x->kind == AST_ATTR)
      out[(*n)++] = (struct pol_local){str_of(a, x), x->kids[0]};
  }
  *v = out;
}

static void unsupported(tfr_arena *a, tfr_diags *d, struct src_file *src,
                        const struct ast *x) {
  bool blk = x->kind == AST_BLOCK;
  say(d, src, x->span, TFR_DIAG_ERROR,
      blk ? "Unsupported block type" : "Unsupported argument",
      tfr_arena_printf(a,
                       blk ? "Blocks of type \"%.*s\" are not expected here."
                           : "An argument named \"%.*s\" is not expected "
                             "here.",
                       (int)x->n, x->str));
}

/* An enforce block: condition (required), error_message, info_message
** (evaluated for its errors only: offline there is no log to show it). */
static bool parse_enforce(tfr_arena *a, tfr_diags *d, struct src_file *src,
                          const struct ast *blk, struct pol_enforce *e) {
  const struct ast *body = blk->kids[1];
  *e = (struct pol_enforce){NULL, NULL, blk->span};
  for (uint32_t i = 0; i < body->n; i++) {
    const struct ast *x = body->items[i];
    if (x->kind == AST_ATTR && is(x, "condition"))
      e->cond = x->kids[0];
    else if (x->kind == AST_ATTR && is(x, "error_message"))
      e->msg = x->kids[0];
    else if (!(x->kind == AST_ATTR && is(x, "info_message")))
      unsupported(a, d, src, x);
  }
  if (!e->cond)
    say(d, src, blk->span, TFR_DIAG_ERROR, "Missing required argument",
        "The argument \"condition\" is required, but no definition was "
        "found.");
  return e->cond != NULL;
}

/* The enforcement level: "advisory" (the default here) or "mandatory". */
static void parse_level(tfr_arena *a, tfr_diags *d, struct src_file *src,
                        const struct ast *x, struct pol_policy *p) {
  tfr_diags *scratch = tfr_diags_new(a);
  const tfr_value *v = eval_const(a, scratch, src, x);
  bool str = !tfr_diags_has_errors(scratch) && v->type == &tfr_t_string &&
             !(v->flags & (TFR_V_NULL | TFR_V_UNKNOWN));
  if (str && v->n == 9 && !memcmp(v->s, "mandatory", 9))
    p->mandatory = true;
  else if (!(str && v->n == 8 && !memcmp(v->s, "advisory", 8)))
    say(d, src, x->span, TFR_DIAG_ERROR, "Invalid enforcement_level",
        "The enforcement level must be \"advisory\" or \"mandatory\".");
}

/* A module_policy block into *p; false after an error. */
static bool parse_policy(tfr_arena *a, tfr_diags *d, struct src_file *src,
                         const struct ast *blk, struct pol_policy *p) {
  const struct ast *const *l = labels(a, d, src, blk, 2);
  if (!l)
    return false;
  *p = (struct pol_policy){0};
  p->target = str_of(a, l[0]);
  p->label = str_of(a, l[1]);
  p->decl = (struct span){blk->span.start, l[1]->span.end};
  const struct ast *body = blk->kids[1];
  size_t before = tfr_diags_count(d);
  p->enf = tfr_arena_alloc(a, (body->n + 1) * sizeof *p->enf);
  for (uint32_t i = 0; i < body->n; i++) {
    const struct ast *x = body->items[i];
    bool attr = x->kind == AST_ATTR;
    if (attr && is(x, "enforcement_level"))
      parse_level(a, d, src, x->kids[0], p);
    else if (attr && is(x, "filter"))
      p->filter = x->kids[0];
    else if (!attr && is(x, "locals") && labels(a, d, src, x, 0))
      add_locals(a, x->kids[1], &p->locals, &p->nlocals);
    else if (!attr && is(x, "enforce") && labels(a, d, src, x, 0))
      p->nenf += parse_enforce(a, d, src, x, &p->enf[p->nenf]);
    else if (attr || !(is(x, "locals") || is(x, "enforce")))
      unsupported(a, d, src, x);
  }
  return !diags_errors_since(d, before);
}

/* A constant bool argument's value (dflt when x is NULL or no bool). */
static bool const_bool(tfr_arena *a, struct src_file *src, const struct ast *x,
                       bool dflt) {
  tfr_diags *scratch = tfr_diags_new(a);
  const tfr_value *v = x ? eval_const(a, scratch, src, x) : NULL;
  return v && v->type == &tfr_t_bool && !(v->flags & TFR_V_NULL) &&
                 !(v->flags & TFR_V_UNKNOWN)
             ? v->b
             : dflt;
}

/* The value of input block blk (name): TFPOLICY_INPUT_<name> in env,
** taken literally for a primitive type and as an HCL expression
** otherwise (as TF_VAR_ values are), else its default, converted to its
** type (optional() defaults first) and marked when sensitive; NULL after
** an error. */
static const tfr_value *input_value(tfr_arena *a, tfr_diags *d,
                                    struct src_file *src, const struct ast *blk,
                                    const char *name, char *const *env) {
  const struct ast *type = NULL, *def = NULL, *sens = NULL, *nul = NULL;
  const struct ast *body = blk->kids[1];
  for (uint32_t i = 0; i < body->n; i++) {
    const struct ast *x = body->items[i];
    bool attr = x->kind == AST_ATTR;
    if (attr && is(x, "type"))
      type = x->kids[0];
    else if (attr && is(x, "default"))
      def = x->kids[0];
    else if (attr && is(x, "sensitive"))
      sens = x->kids[0];
    else if (attr && is(x, "nullable"))
      nul = x->kids[0];
    else if (!attr || !is(x, "description"))
      unsupported(a, d, src, x);
  }
  if (!type) {
    say(d, src, blk->span, TFR_DIAG_ERROR, "Missing required argument",
        "The argument \"type\" is required, but no definition was found.");
    return NULL;
  }
  const struct tfr_defaults *defs = NULL;
  const tfr_type *t = typeexpr_parse(a, d, src, type, true, true, &defs);
  size_t plen = strlen(name) + 15;
  const char *raw = NULL;
  for (char *const *e = env; e && *e && !raw; e++)
    if (!strncmp(*e, "TFPOLICY_INPUT_", 15) &&
        !strncmp(*e + 15, name, plen - 15) && (*e)[plen] == '=')
      raw = *e + plen + 1;
  const tfr_value *v = NULL;
  size_t before = tfr_diags_count(d);
  if (raw && t && tfr_type_is_primitive(t)) {
    v = tfr_string(a, raw, strlen(raw));
  } else if (raw && t) {
    struct tfr_file *e = parse_bytes_expr(
        a, d, tfr_arena_printf(a, "<value for input.%s>", name), raw,
        strlen(raw));
    v = e ? eval_const(a, d, e->f.src, e->f.body) : NULL;
  } else if (def && t) {
    v = eval_const(a, d, src, def);
  } else if (t) {
    say(d, src, blk->span, TFR_DIAG_ERROR, "No value for required input",
        tfr_arena_printf(a,
                         "The policy input \"%s\" has no default, and "
                         "TFPOLICY_INPUT_%s is not set.",
                         name, name));
  }
  if (!v || diags_errors_since(d, before))
    return NULL;
  const char *err = NULL;
  const tfr_value *cv =
      conv_convert(a, defs ? conv_apply_defaults(a, v, defs) : v, t, &err);
  if (!cv) {
    say(d, src, (def && !raw ? def : blk)->span, TFR_DIAG_ERROR,
        "Invalid value for input",
        tfr_arena_printf(a, "Unsuitable value for input.%s: %s.", name, err));
    return NULL;
  }
  if ((cv->flags & TFR_V_NULL) && !const_bool(a, src, nul, true)) {
    say(d, src, blk->span, TFR_DIAG_ERROR, "Invalid value for input",
        tfr_arena_printf(a,
                         "The value of input.%s is null, which it does not "
                         "accept (nullable = false).",
                         name));
    return NULL;
  }
  return const_bool(a, src, sens, false)
             ? tfr_value_mark(a, cv, TFR_V_SENSITIVE)
             : cv;
}

/* A block of a policy file, into f. */
static void file_block(tfr_arena *a, tfr_diags *d, const struct ast *x,
                       char *const *env, struct pol_file *f, size_t *others,
                       struct span *other_at) {
  struct src_file *src = f->src;
  bool input = is(x, "input");
  bool other = is(x, "resource_policy") || is(x, "provider_policy");
  const struct ast *const *l = input   ? labels(a, d, src, x, 1)
                               : other ? labels(a, d, src, x, 2)
                                       : NULL;
  if (is(x, "policy")) {
    labels(a, d, src, x, 0); /* its settings change nothing offline */
  } else if (input && l) {
    const char *name = str_of(a, l[0]);
    const tfr_value *v = input_value(a, d, src, x, name, env);
    f->inputs_failed |= !v;
    f->in_names[f->nin] = name;
    f->in_vals[f->nin++] = v;
  } else if (is(x, "locals")) {
    if (labels(a, d, src, x, 0))
      add_locals(a, x->kids[1], &f->locals, &f->nlocals);
  } else if (is(x, "module_policy")) {
    if (parse_policy(a, d, src, x, &f->pols[f->npols]))
      f->npols++;
  } else if (other) {
    if (l && !(*others)++)
      *other_at = (struct span){x->span.start, l[1]->span.end};
  } else if (!input) {
    unsupported(a, d, src, x); /* (an input: its label error is said) */
  }
}

/* Policy file path, parsed and read into f; false when it could not be
** (errors said). */
static bool load_file(tfr_arena *a, tfr_diags *d, const char *path,
                      char *const *env, struct pol_file *f) {
  struct tfr_file *tf = parse_bytes(a, d, path, NULL, 0, TFR_SYNTAX_HCL);
  if (!tf || !tf->f.body || tf->f.body->kind != AST_BODY)
    return false;
  const struct ast *body = tf->f.body;
  *f = (struct pol_file){0};
  f->path = path;
  f->src = tf->f.src;
  size_t n = body->n + 1, others = 0;
  f->in_names = tfr_arena_alloc(a, n * sizeof *f->in_names);
  f->in_vals = tfr_arena_alloc(a, n * sizeof *f->in_vals);
  f->pols = tfr_arena_alloc(a, n * sizeof *f->pols);
  struct span other_at = {0, 0};
  for (uint32_t i = 0; i < body->n; i++) {
    const struct ast *x = body->items[i];
    if (x->kind == AST_BLOCK)
      file_block(a, d, x, env, f, &others, &other_at);
    else
      unsupported(a, d, f->src, x);
  }
  if (others)
    say(d, f->src, other_at, TFR_DIAG_WARNING, "Policies not evaluated offline",
        tfr_arena_printf(a,
                         "This file has %zu resource_policy or "
                         "provider_policy block%s: they need a plan's "
                         "values, so check -policy evaluates its "
                         "module_policy blocks only.",
                         others, others == 1 ? "" : "s"));
  return true;
}

/* ---- evaluation ------------------------------------------------------- */

static const tfr_value *pol_lookup(void *ud, struct eval_ctx *c,
                                   const struct ast *root, const char *name,
                                   size_t len);
static const tfr_value *pol_attr(void *ud, const char *name, size_t len,
                                 const char *attr, size_t alen);

/* The context of an expression of e's policy file. */
static struct eval_ctx pol_ctx(struct pol_eval *e, struct eval_scope *es) {
  *es = (struct eval_scope){pol_lookup, e, pol_attr};
  struct eval_ctx c = {0};
  c.a = e->a;
  c.diags = e->diags;
  c.src = e->f->src;
  c.scope = es;
  c.funcs = &funcs_table;
  c.plan = true; /* impure functions are unknown, as in plan */
  scope_funcs(&c, NULL);
  return c;
}

static const tfr_value *pol_eval_expr(struct pol_eval *e, const struct ast *x) {
  struct eval_scope es;
  struct eval_ctx c = pol_ctx(e, &es);
  return eval_expr(&c, x);
}

/* The i-th local value of e: the policy's, then the file's. */
static const struct pol_local *local_at(const struct pol_eval *e, size_t i) {
  size_t np = e->p ? e->p->nlocals : 0;
  return i < np ? &e->p->locals[i] : &e->f->locals[i - np];
}

static size_t nlocals(const struct pol_eval *e) {
  return (e->p ? e->p->nlocals : 0) + e->f->nlocals;
}

/* local.NAME's value, evaluated once per evaluation; a cycle is an
** error. */
static const tfr_value *local_value(struct pol_eval *e, size_t i) {
  const struct pol_local *l = local_at(e, i);
  if (e->ls[i] == 2)
    return e->lv[i];
  if (e->ls[i] == 1) {
    say(e->diags, e->f->src, l->expr->span, TFR_DIAG_ERROR,
        "Self-referencing local value",
        tfr_arena_printf(e->a,
                         "Local value local.%s cannot use its own result "
                         "as part of its expression.",
                         l->name));
    return tfr_unknown(e->a, &tfr_t_dynamic);
  }
  e->ls[i] = 1;
  const tfr_value *v = pol_eval_expr(e, l->expr);
  e->lv[i] = v;
  e->ls[i] = 2;
  return v;
}

static long local_find(const struct pol_eval *e, const char *s, size_t n) {
  for (size_t i = 0; i < nlocals(e); i++) {
    const char *name = local_at(e, i)->name;
    if (strlen(name) == n && !memcmp(name, s, n))
      return (long)i;
  }
  return -1;
}

/* The local object: every local value (the first of a name). */
static const tfr_value *locals_object(struct pol_eval *e) {
  size_t n = nlocals(e), k = 0;
  const char **names = tfr_arena_alloc(e->a, (n + 1) * sizeof *names);
  const tfr_value **vals = tfr_arena_alloc(e->a, (n + 1) * sizeof *vals);
  for (size_t i = 0; i < n; i++) {
    const char *name = local_at(e, i)->name;
    if (local_find(e, name, strlen(name)) != (long)i)
      continue;
    names[k] = name;
    vals[k++] = local_value(e, i);
  }
  return tfr_object(e->a, k, names, vals);
}

static const tfr_value *pol_lookup(void *ud, struct eval_ctx *c,
                                   const struct ast *root, const char *name,
                                   size_t len) {
  (void)c;
  (void)root;
  struct pol_eval *e = ud;
  if (len == 5 && !memcmp(name, "attrs", 5))
    return e->attrs;
  if (len == 4 && !memcmp(name, "meta", 4))
    return e->meta;
  if (len == 5 && !memcmp(name, "input", 5))
    return e->input;
  if (len == 5 && !memcmp(name, "local", 5))
    return locals_object(e);
  return NULL;
}

static const tfr_value *pol_attr(void *ud, const char *name, size_t len,
                                 const char *attr, size_t alen) {
  struct pol_eval *e = ud;
  if (!(len == 5 && !memcmp(name, "local", 5)))
    return NULL;
  long i = local_find(e, attr, alen);
  return i < 0 ? NULL : local_value(e, (size_t)i);
}

/* x as a bool: 1 true, 0 false, -1 not known offline, -2 an error (said;
** what: "condition", "filter"). */
static int eval_bool(struct pol_eval *e, const struct ast *x,
                     const char *what) {
  size_t before = tfr_diags_count(e->diags);
  const tfr_value *v = pol_eval_expr(e, x);
  if (diags_errors_since(e->diags, before))
    return -2;
  v = tfr_value_unmark(e->a, v, TFR_V_SENSITIVE | TFR_V_EPHEMERAL, NULL);
  if (!tfr_value_is_known(v))
    return -1;
  const char *err = NULL;
  const tfr_value *b = conv_convert(e->a, v, &tfr_t_bool, &err);
  if (b && !(b->flags & TFR_V_NULL))
    return b->b;
  say(e->diags, e->f->src, x->span, TFR_DIAG_ERROR,
      tfr_arena_printf(e->a, "Invalid policy %s", what),
      tfr_arena_printf(e->a, "The %s must be a bool, not %s.", what,
                       b ? "null" : tfr_type_friendly(e->a, v->type)));
  return -2;
}

/* ---- module instances ---------------------------------------------------- */

/* attrs: the instance's variables as plan gives them (sensitive ones
** marked; one without a value unknown). */
static const tfr_value *instance_attrs(tfr_arena *a,
                                       const struct tfr_instance *in) {
  const char **names = tfr_arena_alloc(a, (in->n + 1) * sizeof *names);
  const tfr_value **vals = tfr_arena_alloc(a, (in->n + 1) * sizeof *vals);
  for (size_t k = 0; k < in->n; k++) {
    const struct tfr_variable *v = &in->vars[k];
    const tfr_value *val =
        v->value ? v->value
                 : tfr_unknown(a, v->type ? v->type : &tfr_t_dynamic);
    names[k] = v->name;
    vals[k] = v->sensitive ? tfr_value_mark(a, val, TFR_V_SENSITIVE) : val;
  }
  return tfr_object(a, in->n, names, vals);
}

static const tfr_value *str_or_null(tfr_arena *a, const char *s) {
  return s ? tfr_string(a, s, strlen(s)) : tfr_null(a, &tfr_t_string);
}

/* meta: source (as written), version (the installed one; null for a
** local module, as node_module_expand.go:366-373 gives the plugin) and,
** ours, the instance's address. */
static const tfr_value *instance_meta(tfr_arena *a,
                                      const struct tfr_instance *in) {
  static const char *const names[] = {"address", "source", "version"};
  const tfr_value *vals[] = {str_or_null(a, in->address),
                             str_or_null(a, in->source),
                             str_or_null(a, in->installed_version)};
  return tfr_object(a, 3, names, vals);
}

/* Whether a module_policy's source pattern (`*` matches any run of
** characters) names source, as written or, for a registry address
** written short (NAMESPACE/NAME/PROVIDER), with Terraform's registry host
** before it (the normalized address Terraform gives the plugin). */
static bool glob(const char *p, const char *s) {
  const char *star = NULL, *ss = NULL;
  while (*s) {
    if (*p == '*') {
      star = p++;
      ss = s;
    } else if (*p == *s) {
      p++;
      s++;
    } else if (star) {
      p = star + 1;
      s = ++ss;
    } else {
      return false;
    }
  }
  while (*p == '*')
    p++;
  return !*p;
}

static bool names_source(tfr_arena *a, const char *pattern,
                         const char *source) {
  if (!source)
    return false;
  if (glob(pattern, source))
    return true;
  size_t slashes = 0;
  for (const char *s = source; *s; s++)
    slashes += *s == '/';
  bool registry = slashes == 2 && source[0] != '.' && source[0] != '/' &&
                  !strchr(source, ':');
  return registry &&
         glob(pattern, tfr_arena_printf(a, "registry.terraform.io/%s", source));
}

/* The first attrs.NAME a condition refers to, directly or through the
** local values it reads (each once), that names a variable of the
** instance (refwalk). */
struct attrs_ref {
  struct refwalk w;
  const struct pol_eval *e;
  const struct tfr_instance *in;
  bool *seen; /* per local value of e: walked */
  const struct tfr_variable *found;
};

/* The name of the first step after root in x (NULL: none, or an index). */
static const struct ast *first_attr(const struct ast *x,
                                    const struct ast *root) {
  if (x == root)
    return NULL;
  const struct ast *step = x;
  while (refwalk_step_in(step) != root)
    step = refwalk_step_in(step);
  return step->kind == AST_GETATTR ? step : NULL;
}

static bool on_attrs(struct refwalk *w, const struct ast *x,
                     const struct ast *root) {
  struct attrs_ref *r = (struct attrs_ref *)w;
  const struct ast *step = first_attr(x, root);
  if (step && refwalk_is_name(root, "local")) {
    long i = local_find(r->e, step->str, step->n);
    if (i < 0 || r->seen[i])
      return false;
    r->seen[i] = true;
    return refwalk(w, local_at(r->e, (size_t)i)->expr, NULL);
  }
  if (!step || !refwalk_is_name(root, "attrs"))
    return false;
  for (size_t k = 0; k < r->in->n; k++) {
    const struct tfr_variable *v = &r->in->vars[k];
    if (strlen(v->name) == step->n && !memcmp(v->name, step->str, step->n)) {
      r->found = v;
      return true;
    }
  }
  return false;
}

static const struct tfr_variable *attrs_var(const struct pol_eval *e,
                                            const struct ast *cond,
                                            const struct tfr_instance *in) {
  struct attrs_ref r = {
      {.ref = on_attrs}, e, in, tfr_arena_alloc(e->a, nlocals(e) + 1), NULL};
  refwalk(&r.w, cond, NULL);
  return r.found;
}

/* ---- verdicts ------------------------------------------------------- */

/* An enforce block's error_message as it is shown: never a sensitive
** value (Terraform's words for a validation rule's, eval_variable.go). */
static const char *message(struct pol_eval *e, const struct pol_enforce *en) {
  if (!en->msg)
    return "The policy's condition is false.";
  size_t before = tfr_diags_count(e->diags);
  const tfr_value *v = pol_eval_expr(e, en->msg);
  if (diags_errors_since(e->diags, before))
    return "(its error_message has errors: see them)";
  if (tfr_value_has_mark(v, TFR_V_SENSITIVE))
    return "The error message included a sensitive value, so it will not "
           "be displayed.";
  const char *err = NULL;
  const tfr_value *s = conv_convert(e->a, v, &tfr_t_string, &err);
  if (!s || (s->flags & TFR_V_NULL))
    return "(its error_message is not a string)";
  if (!tfr_value_is_known(s))
    return "(its error_message is known only after apply)";
  return tfr_arena_strndup(e->a, s->s, s->n);
}

/* Where an expression of e's file is, "file:1,3-7". */
static const char *at_text(struct pol_eval *e, struct span s) {
  struct tfr_range r = src_range(e->f->src, s);
  char buf[4200];
  tfr_range_format(&r, buf, sizeof buf);
  return tfr_arena_strdup(e->a, buf);
}

/* A failed enforce block: an error (mandatory) or a warning (advisory)
** at the module call; where the value of the first attrs.NAME of its
** condition came from a var file, that line too (element) and a note. */
static void fail(struct pol_eval *e, const struct tfr_instance *in,
                 const struct pol_enforce *en) {
  const struct pol_policy *p = e->p;
  struct tfr_diag g = {0};
  g.sev = p->mandatory ? TFR_DIAG_ERROR : TFR_DIAG_WARNING;
  g.summary =
      p->mandatory ? "Mandatory policy failed" : "Advisory policy failed";
  g.detail = tfr_arena_printf(
      e->a,
      "%s\n\nThis was checked by the enforce block at %s of module_policy "
      "\"%s\" \"%s\" (%s), enforcement level %s.",
      message(e, en), at_text(e, en->at), p->target, p->label,
      at_text(e, p->decl), p->mandatory ? "mandatory" : "advisory");
  g.subject = in->call_range;
  g.module = in->address;
  g.ours = true;
  const struct tfr_variable *v = attrs_var(e, en->cond, in);
  if (v) {
    g.variable = v->name;
    if (v->from_element && v->from_range.filename) {
      g.element = v->from_range;
      g.note = tfr_arena_printf(
          e->a, "attrs.%s comes from %s, set at %s:%d.", v->name,
          v->from_element, v->from_range.filename, v->from_range.start.line);
    } else if (v->source == TFR_SRC_CONFIG && v->source_file) {
      g.note = tfr_arena_printf(e->a,
                                "attrs.%s is set by the module argument at "
                                "%s:%d.",
                                v->name, v->source_file, v->source_line);
    }
  }
  tfr_diags_add_full(e->diags, &g);
}

/* A filter or condition that needs values known only after apply. */
static void deferred(struct pol_eval *e, const struct ast *x,
                     const char *what) {
  say(e->diags, e->f->src, x->span, TFR_DIAG_WARNING,
      "Policy not decided offline",
      tfr_arena_printf(e->a,
                       "The %s of module_policy \"%s\" \"%s\" depends on "
                       "values known only after apply (resources, data "
                       "sources, module outputs): it is neither passed nor "
                       "failed before plan.",
                       what, e->p->target, e->p->label));
}

/* Policy p of file f on instance in: its filter, then each enforce
** block.  Every diagnostic it gives is ours and about in. */
static void check_instance(tfr_arena *a, tfr_diags *d, const struct pol_file *f,
                           const tfr_value *input, const struct pol_policy *p,
                           const struct tfr_instance *in) {
  size_t nl = p->nlocals + f->nlocals + 1;
  struct pol_eval e = {a,
                       d,
                       f,
                       p,
                       instance_attrs(a, in),
                       instance_meta(a, in),
                       input,
                       tfr_arena_alloc(a, nl * sizeof *e.lv),
                       tfr_arena_alloc(a, nl)};
  size_t before = tfr_diags_count(d);
  int r = p->filter ? eval_bool(&e, p->filter, "filter") : 1;
  if (r == -1)
    deferred(&e, p->filter, "filter");
  for (size_t i = 0; r == 1 && i < p->nenf; i++) {
    int c = eval_bool(&e, p->enf[i].cond, "condition");
    if (c == -1)
      deferred(&e, p->enf[i].cond, "condition");
    else if (c == 0)
      fail(&e, in, &p->enf[i]);
  }
  for (size_t i = before; i < tfr_diags_count(d); i++) {
    struct tfr_diag *g = diags_at(d, i);
    g->ours = true;
    if (!g->module)
      g->module = in->address;
  }
}

static bool keep_policy(const char *dir, const char *name, void *ctx) {
  return name[0] != '.' && str_ends_with(name, ".policy.hcl") &&
         dir_keep_files(dir, name, ctx);
}

/* The file's policies on every instance whose source they name. */
static void check_file(tfr_arena *a, tfr_diags *d, const struct pol_file *f,
                       const struct tfr_resolution *res) {
  const tfr_value *input = tfr_object(a, f->nin, f->in_names, f->in_vals);
  for (size_t k = 0; k < f->npols; k++)
    for (size_t i = 0; i < res->ninstances; i++) {
      const struct tfr_instance *in = &res->instances[i];
      if (names_source(a, f->pols[k].target, in->source))
        check_instance(a, d, f, input, &f->pols[k], in);
    }
}

const struct tfr_resolution *policy_check(tfr_arena *a, tfr_diags *diags,
                                          const struct tfr_resolution *res,
                                          const char *dir, char *const *env) {
  size_t before = tfr_diags_count(diags), n = 0;
  const char **names = dir_list(a, dir, keep_policy, NULL, NULL, &n);
  if (!names) {
    tfr_diags_add(diags, TFR_DIAG_ERROR, NULL,
                  "Failed to read policy directory",
                  tfr_arena_printf(a,
                                   "The directory %s cannot be read: no "
                                   "policy was checked.",
                                   dir));
    tfr_diags_set_ours(diags);
  } else if (!n) {
    tfr_diags_add(diags, TFR_DIAG_WARNING, NULL, "No policy files",
                  tfr_arena_printf(a,
                                   "The directory %s has no *.policy.hcl "
                                   "file: no policy was checked.",
                                   dir));
    tfr_diags_set_ours(diags);
  }
  for (size_t i = 0; i < n; i++) {
    const char *path = strcmp(dir, ".")
                           ? tfr_arena_printf(a, "%s/%s", dir, names[i])
                           : names[i];
    struct pol_file f;
    if (load_file(a, diags, path, env, &f) && !f.inputs_failed)
      check_file(a, diags, &f, res);
  }
  for (size_t i = before; i < tfr_diags_count(diags); i++)
    diags_at(diags, i)->ours = true;
  if (!diags_errors_since(diags, before) || !res->valid)
    return res;
  struct tfr_resolution *copy = tfr_arena_alloc(a, sizeof *copy);
  *copy = *res;
  copy->valid = false;
  return copy;
}
