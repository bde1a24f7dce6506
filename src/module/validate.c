/*
** Variable validation rules (Terraform's eval_variable.go and
** checkVariableValidationBlock): the static checks done while loading,
** the walk with unknown values that catches errors before any value is
** known, and the final evaluation of every rule in dependency order.
*/
#include "base/arena_int.h"
#include "module/validate.h"
#include "base/heap.h"

#include <stdlib.h>
#include <string.h>

#include "base/diag_int.h"
#include "module/engine_tofu.h"
#include "eval/eval.h"
#include "eval/funcs.h"
#include "syntax/parse.h"
#include "eval/refs.h"
#include "module/scope.h"
#include "base/strutil.h"

/* ---- references -------------------------------------------------------- */

static long find_local(const void *ud, const char *s, size_t n,
                       const struct ast **expr, const char **name) {
  const struct module *m = ud;
  long i = scope_local_index(m, s, n);
  if (i >= 0) {
    *expr = m->locals[i].expr;
    *name = m->locals[i].name;
  }
  return i;
}

/* What x refers to, through the module's local values too. */
static struct refs refs_deep(tfr_arena *a, const struct module *m,
                             const struct ast *x) {
  struct refs_locals l = {m->nlocals, find_local, m};
  return refs_through(a, &l, x);
}

/* What a rule depends on: its condition and its error message (Terraform
** orders rules, and skips them, by both). */
static struct refs refs_rule(tfr_arena *a, const struct module *m,
                             const struct validation *rule) {
  struct refs_locals l = {m->nlocals, find_local, m};
  struct refs r = {0};
  r.follow = &l;
  r.seen = tfr_arena_alloc(a, (m->nlocals ? m->nlocals : 1) * sizeof *r.seen);
  refs_add(a, &r, rule->condition);
  refs_add(a, &r, rule->error_message);
  r.follow = NULL;
  return r;
}

/* What a rule refers to, in the forms the stages ask for.  One rule's
** forms are often the same (a message without references, a module
** without local values): they share one struct refs then. */
struct rule_refs {
  const struct refs *cond, *msg; /* the condition's and the message's own
                                    (with every var. reference, for
                                    walk_key) */
  const struct refs *own;        /* both, local values as names (refs_rule) */
  const struct refs *deep;       /* both, through local values */
  /* the index in the module of each name of their vars (-1: undeclared) */
  const long *cond_ix, *msg_ix, *own_ix, *deep_ix;
};

/* The references of a rule sharing another's trees that count for
** ordering and checking: none but its own variable (module_rules.c's templates
** refer to nothing else), which every use skips. */
static const struct refs self_only = {.any = true};
static const struct rule_refs shared_refs = {.cond = &self_only,
                                             .msg = &self_only,
                                             .own = &self_only,
                                             .deep = &self_only,
                                             .cond_ix = NULL,
                                             .msg_ix = NULL,
                                             .own_ix = NULL,
                                             .deep_ix = NULL};

static long index_of(const struct module *m, const char *name);

/* The module's index of each variable l names. */
static const long *indexes(tfr_arena *a, const struct module *m,
                           const struct ref_names *l) {
  if (!l->n)
    return NULL;
  long *ix = tfr_arena_alloc(a, l->n * sizeof *ix);
  for (size_t i = 0; i < l->n; i++)
    ix[i] = index_of(m, l->v[i]);
  return ix;
}

static struct rule_refs *rule_refs_new(tfr_arena *a, const struct module *m,
                                       const struct validation *rule) {
  struct rule_refs *rr = tfr_arena_alloc(a, sizeof *rr);
  rr->cond = rule->cond_refs ? rule->cond_refs : refs_every(a, rule->condition);
  rr->msg =
      rule->msg_refs ? rule->msg_refs : refs_every(a, rule->error_message);
  /* refs_rule(a, NULL, rule) without walking again: the message's names
  ** after the condition's, the first of each kept */
  const struct refs *c = rr->cond, *g = rr->msg;
  if (!g->any && !g->other_name) {
    rr->own = c; /* the condition's, its every list unread */
  } else {
    struct refs *own = tfr_arena_alloc(a, sizeof *own);
    refs_merge_names(a, &own->vars, &c->vars);
    refs_merge_names(a, &own->vars, &g->vars);
    refs_merge_names(a, &own->locals, &c->locals);
    refs_merge_names(a, &own->locals, &g->locals);
    refs_merge_names(a, &own->objects, &c->objects);
    refs_merge_names(a, &own->objects, &g->objects);
    own->any = c->any || g->any;
    own->other = c->other || g->other;
    own->other_name = c->other_name ? c->other_name : g->other_name;
    rr->own = own;
  }
  /* through local values: the same when there are none */
  if (m && m->nlocals) {
    struct refs *deep = tfr_arena_alloc(a, sizeof *deep);
    *deep = refs_rule(a, m, rule);
    rr->deep = deep;
  } else {
    rr->deep = rr->own;
  }
  if (m) {
    rr->cond_ix = indexes(a, m, &rr->cond->vars);
    rr->msg_ix = indexes(a, m, &rr->msg->vars);
    rr->own_ix =
        rr->own == rr->cond ? rr->cond_ix : indexes(a, m, &rr->own->vars);
    rr->deep_ix =
        rr->deep == rr->own ? rr->own_ix : indexes(a, m, &rr->deep->vars);
  }
  return rr;
}

/* The rule's references: found once, when the module was loaded
** (validate_static), and read by every resolution of it since (the module
** is read-only then, shared by threads); found here, in a, otherwise. */
static const struct rule_refs *rule_refs(tfr_arena *a, const struct module *m,
                                         const struct validation *rule) {
  return rule->refs    ? rule->refs
         : rule->alias ? &shared_refs
                       : rule_refs_new(a, m, rule);
}

/* ---- static checks ----------------------------------------------------- */

static void error_in(tfr_diags *d, struct src_file *src, struct span s,
                     enum tfr_severity sev, const char *summary,
                     const char *detail, const char *var) {
  struct tfr_range r = src_range(src, s);
  tfr_diags_add(d, sev, &r, summary, detail);
  tfr_diags_set_variable(d, var);
}

void validate_static(struct module *m, tfr_arena *a, tfr_diags *diags) {
  const char *alias = NULL; /* the last alias looked up: rules sharing */
  const struct var_decl *alias_var = NULL; /* trees come in runs */
  for (size_t k = 0; k < m->nvars; k++) {
    const struct var_decl *v = &m->vars[k];
    for (size_t i = 0; i < v->nvalidations; i++) {
      struct validation *rule = (struct validation *)&v->validations[i];
      if (rule->alias) { /* its template passed these checks */
        if (rule->alias != alias) {
          alias = rule->alias;
          alias_var = module_var(m, alias, strlen(alias));
        }
        rule->alias_var = alias_var;
        rule->refs = &shared_refs;
        continue;
      }
      rule->refs = rule_refs_new(a, m, rule);
      if (!rule->range.filename)
        rule->range = src_range(rule->src, rule->block);
      struct refs r = *rule->refs->cond;
      if (!r.any)
        error_in(diags, rule->src, rule->cond_span, TFR_DIAG_ERROR,
                 "Invalid validation expression",
                 "The condition expression must refer to at least one "
                 "object from elsewhere in the configuration, or else its "
                 "result would not be checking anything.",
                 v->name);
      bool self = false;
      for (size_t j = 0; j < r.vars.n; j++)
        self |= !strcmp(r.vars.v[j], v->name);
      if (!self)
        error_in(diags, rule->src, rule->cond_span, TFR_DIAG_ERROR,
                 "Invalid variable validation condition",
                 tfr_arena_printf(a,
                                  "The condition for variable \"%s\" must "
                                  "refer to var.%s in order to test incoming "
                                  "values.",
                                  v->name, v->name),
                 v->name);
    }
  }
}

/* ---- the walk with unknown values (Terraform's validate stage) --------- */

/* The variable's index, or -1. */
static long index_of(const struct module *m, const char *name) {
  const struct var_decl *v = module_var(m, name, strlen(name));
  return v ? (long)(v - m->vars) : -1;
}

/* evaluate.go's suggestion for an undeclared module call: " Did you mean
** \"NAME\"?" for a call fewer than three edits away, else "". */
static const char *near_call(tfr_arena *a, const struct module *m,
                             const char *name) {
  for (size_t i = 0; i < m->ncalls; i++)
    if (str_distance(name, strlen(name), m->calls[i].name,
                     strlen(m->calls[i].name)) < 3)
      return tfr_arena_printf(a, " Did you mean \"%s\"?", m->calls[i].name);
  return "";
}

/* Terraform's error for a reference to a resource, data source or module
** call that m does not declare, or that is not a whole reference; true
** when it is fine.  count, each and self are left to evaluation. */
static bool object_declared(const struct module *m, tfr_arena *a,
                            tfr_diags *diags, struct src_file *src,
                            struct span at, const char *obj, const char *var) {
  size_t parts = 1;
  for (const char *p = obj; *p; p++)
    parts += *p == '.';
  const char *dot = strchr(obj, '.');
  size_t rootlen = dot ? (size_t)(dot - obj) : strlen(obj);
  const char *in = m->addr && *m->addr ? m->addr : "the root module";
#define ROOT_IS(s) (rootlen == strlen(s) && !memcmp(obj, s, rootlen))
  if (ROOT_IS("count") || ROOT_IS("each") || ROOT_IS("self"))
    return true;
  const char *summary = NULL, *detail = NULL;
  /* resource.TYPE.NAME is TYPE.NAME written with the escaping prefix
  ** (terraform internal/addrs/parse_ref.go:236-255) */
  bool escaped = ROOT_IS("resource"), whole = parts >= 3;
  if (escaped && whole) {
    obj += rootlen + 1;
    parts--;
    rootlen = (size_t)(strchr(obj, '.') - obj);
  }
  if (escaped && !whole) {
    summary = "Invalid reference";
    detail = "The \"resource\" object must be followed by two attribute "
             "names: the resource type and the resource name.";
  } else if (ROOT_IS("data") || ROOT_IS("ephemeral")) {
    const char *kind = ROOT_IS("data") ? "data" : "ephemeral";
    if (parts < 3) {
      summary = "Invalid reference";
      detail = tfr_arena_printf(
          a,
          "The \"%s\" object must be followed by two "
          "attribute names: the %s type and the "
          "resource name.",
          kind, ROOT_IS("data") ? "data source" : "ephemeral resource");
    } else if (!module_declares(m, obj)) {
      const char *t = obj + rootlen + 1, *n = strchr(t, '.') + 1;
      summary = "Reference to undeclared resource";
      detail = tfr_arena_printf(a,
                                "%s %s resource \"%.*s\" \"%s\" has not "
                                "been declared in %s.",
                                ROOT_IS("data") ? "A" : "An", kind,
                                (int)(n - 1 - t), t, n, in);
    }
  } else if (ROOT_IS("module")) {
    if (parts < 2) {
      summary = "Invalid reference";
      detail = "The \"module\" object cannot be accessed directly. Instead, "
               "access one of its attributes.";
    } else if (!module_declares(m, obj)) {
      summary = "Reference to undeclared module";
      detail = tfr_arena_printf(a,
                                "No module call named \"%s\" is declared in "
                                "%s.%s",
                                obj + rootlen + 1, in,
                                near_call(a, m, obj + rootlen + 1));
    }
  } else if (parts < 2) {
    summary = "Invalid reference";
    detail = "A reference to a resource type must be followed by at least "
             "one attribute access, specifying the resource name.";
  } else if (!module_declares(m, obj)) {
    summary = "Reference to undeclared resource";
    /* the hint for a data source written without "data."
    ** (terraform internal/terraform/evaluate_valid.go:208-217) */
    const char *as_data = tfr_arena_printf(a, "data.%s", obj);
    detail = tfr_arena_printf(
        a,
        "A managed resource \"%.*s\" \"%s\" has not been declared in "
        "%s.%s",
        (int)rootlen, obj, obj + rootlen + 1, in,
        module_declares(m, as_data)
            ? tfr_arena_printf(a, "\n\nDid you mean the data resource %s?",
                               as_data)
            : "");
  }
#undef ROOT_IS
  if (!summary)
    return true;
  error_in(diags, src, at, TFR_DIAG_ERROR, summary, detail, var);
  return false;
}

/* Errors for each var.NAME and local.NAME in x that m does not declare
** (var: the variable the diagnostics belong to, or NULL); true if none. */
static bool refs_declared_in(const struct module *m, tfr_arena *a,
                             tfr_diags *diags, struct src_file *src,
                             const struct refs *rp, const long *ix,
                             const char *var);

static bool refs_declared(const struct module *m, tfr_arena *a,
                          tfr_diags *diags, struct src_file *src,
                          const struct ast *x, const char *var) {
  struct refs r = refs_of(a, x);
  return refs_declared_in(m, a, diags, src, &r, NULL, var);
}

/* didyoumean.NameSuggestion: a declared variable at most two edits from
** name (Terraform takes the first it meets in a map; we take the
** closest, then the first by name). */
static const char *near_variable(const struct module *m, const char *name) {
  return module_closest_var(m, name, 3);
}

static bool refs_declared_in(const struct module *m, tfr_arena *a,
                             tfr_diags *diags, struct src_file *src,
                             const struct refs *rp, const long *ix,
                             const char *var) {
  bool ok = true;
  const struct refs r = *rp;
  for (size_t j = 0; j < r.vars.n; j++)
    if ((ix ? ix[j] : index_of(m, r.vars.v[j])) < 0) {
      const char *nm = r.vars.v[j], *near = near_variable(m, nm);
      error_in(diags, src, r.vars.at[j], TFR_DIAG_ERROR,
               "Reference to undeclared input variable",
               tfr_arena_printf(
                   a,
                   "An input variable with the name %s has not been "
                   "declared.%s",
                   str_go_quote(a, nm, strlen(nm)),
                   near ? tfr_arena_printf(a, " Did you mean %s?",
                                           str_go_quote(a, near, strlen(near)))
                        : tfr_arena_printf(a,
                                           " This variable can be declared "
                                           "with a variable %s {} block.",
                                           str_go_quote(a, nm, strlen(nm)))),
               var);
      ok = false;
    }
  for (size_t j = 0; j < r.locals.n; j++) {
    const char *nm = r.locals.v[j];
    if (scope_local_index(m, nm, strlen(nm)) >= 0)
      continue;
    const char *hint = "";
    for (size_t q = 0; q < m->nlocals && !*hint; q++)
      if (str_distance(nm, strlen(nm), m->locals[q].name,
                       strlen(m->locals[q].name)) < 3)
        hint = tfr_arena_printf(a, " Did you mean \"%s\"?", m->locals[q].name);
    error_in(diags, src, r.locals.at[j], TFR_DIAG_ERROR,
             "Reference to undeclared local value",
             tfr_arena_printf(a,
                              "A local value with the name \"%s\" has not "
                              "been declared.%s",
                              nm, hint),
             var);
    ok = false;
  }
  for (size_t j = 0; j < r.objects.n; j++)
    ok &=
        object_declared(m, a, diags, src, r.objects.at[j], r.objects.v[j], var);
  return ok;
}

/* ---- cycles (Terraform's graph: dag.Validate) ------------------------- */

void validate_cycle(tfr_arena *a, tfr_diags *diags,
                    const struct engine_rules *e, const char **names,
                    size_t n) {
  struct sbuf b = {0};
  sbuf_str(&b, "Cycle:");
  if (e->cycle_one_line) {
    /* OpenTofu's one line (O dag.go:122-151): the names in the order they
    ** were popped (the reverse of the references'), comma-separated; its
    ** graph's map order decides where a cycle starts, here the walk's */
    for (size_t i = 0; i < n; i++) {
      sbuf_str(&b, i ? ", " : " ");
      sbuf_str(&b, names[n - 1 - i]);
    }
  } else {
    /* Terraform's: from the shortest name (then the least), one per line
    ** (T dag.go:121-167) */
    size_t first = 0;
    for (size_t i = 1; i < n; i++) {
      size_t li = strlen(names[i]), lf = strlen(names[first]);
      if (li < lf || (li == lf && strcmp(names[i], names[first]) < 0))
        first = i;
    }
    for (size_t i = 0; i < n; i++) {
      sbuf_str(&b, "\n  ");
      sbuf_str(&b, names[(first + i) % n]);
    }
  }
  tfr_diags_add(diags, TFR_DIAG_ERROR, NULL, tfr_arena_strndup(a, b.p, b.n),
                "");
  free(b.p);
}

/* The context that evaluates x, a rule's condition or error message, in
** the scope (es: the scope's lookup, kept by the caller). */
static struct eval_ctx rule_ctx(tfr_arena *a, tfr_diags *diags,
                                const struct validation *rule,
                                const struct ast *x, struct scope *s,
                                struct eval_scope *es) {
  *es = (struct eval_scope){scope_lookup, s, scope_attr};
  struct eval_ctx c = {0};
  c.a = a;
  c.diags = diags;
  c.src = x == rule->error_message ? rule->msg_src : rule->cond_src;
  c.scope = es;
  c.funcs = &funcs_table;
  c.dir = s->m ? s->m->dir : s->dir;
  c.plan = true;
  c.attr_hint = &s->attr_hint;
  scope_funcs(&c, s->m ? s->m : s->funcs_of);
  c.unknown_funcs = x == rule->error_message ? EVAL_FUNCS_HCL
                    : s->init                ? EVAL_FUNCS_INIT
                                             : EVAL_FUNCS_TERRAFORM;
  return c;
}

/* x evaluated in the scope; NULL if it reported an error, with the value
** HCL gives it nevertheless in *despite (if not NULL). */
static const tfr_value *eval_in(tfr_arena *a, tfr_diags *diags,
                                const struct validation *rule,
                                const struct ast *x, struct scope *s,
                                const char *var, const tfr_value **despite) {
  struct eval_scope es;
  struct eval_ctx c = rule_ctx(a, diags, rule, x, s, &es);
  size_t before = tfr_diags_count(diags);
  const tfr_value *v = eval_expr(&c, x);
  bool failed = false;
  for (size_t i = before; i < tfr_diags_count(diags); i++) {
    tfr_diags_set_variable_at(diags, i, var);
    failed |= tfr_diags_get(diags, i)->sev == TFR_DIAG_ERROR;
  }
  if (despite)
    *despite = v;
  return failed ? NULL : v;
}

static bool run_rule(tfr_arena *a, tfr_diags *diags, const struct module *m,
                     size_t k, const struct validation *rule, struct scope *s,
                     const struct value_place *value_at, bool walk_validate,
                     struct tfr_rule *out);

/*
** Terraform's diagnostics about a rule carry the expression (x: its
** condition or its error message) and the evaluation context, so that
** the values of x's references are listed under the source line: give
** them to the last diagnostic.  unknown: the diagnostic is about an
** unknown value.
*/
static void rule_values(tfr_arena *a, tfr_diags *diags,
                        const struct validation *rule, const struct ast *x,
                        struct scope *s, bool unknown) {
  struct eval_scope es;
  struct eval_ctx c = rule_ctx(a, diags, rule, x, s, &es);
  eval_diag_values(&c, x, unknown, diags);
}

/*
** Rules sharing work in the validate walk: there every variable is the
** unknown of its type, so a rule's outcome there depends only on its text,
** the type and marks of its own variable and the rest of the module (the
** same for every rule).  The key is the condition's and the message's
** source with every reference to the rule's own variable cut out (the
** other variables' names stay: they are the same unknowns for every rule),
** the variable's type (type_id: the same for the same type) and marks.
** A rule whose key was seen without errors has that outcome again: it is
** not evaluated.  NULL when the rule's text is not at hand (.tf.json).
*/
static const char *walk_key(const struct var_decl *v,
                            const struct validation *rule, size_t *len,
                            char key[static 10]) {
  uint32_t id = v->type_id, t = rule->text_key;
  if (!t)
    return NULL;
  char k[10] = {(char)(id & 0xff),          (char)(id >> 8 & 0xff),
                (char)(id >> 16 & 0xff),    (char)(id >> 24),
                (char)(t & 0xff),           (char)(t >> 8 & 0xff),
                (char)(t >> 16 & 0xff),     (char)(t >> 24),
                (char)('0' + v->sensitive), (char)('0' + v->ephemeral)};
  memcpy(key, k, sizeof k);
  *len = sizeof k;
  return key;
}

/* ---- the final walk ---------------------------------------------------- */

/* Trim spaces as Terraform does before showing an error message. */
static const char *trimmed(tfr_arena *a, const tfr_value *v) {
  const char *s = v->s;
  size_t n = v->n;
  str_go_trim_space(&s, &n);
  return tfr_arena_strndup(a, s, n);
}

/* The first call in x of a function of a provider other than the
** built-in one ("provider::aws::arn_parse"), or NULL. */
static const struct ast *provider_call(const struct ast *x) {
  if (!x)
    return NULL;
  if (x->kind == AST_CALL) {
    const struct ast *name = x->kids[0];
    if (name->n > 10 && !memcmp(name->str, "provider::", 10) &&
        !(name->n > 21 && !memcmp(name->str, "provider::terraform::", 21)))
      return x;
  }
  for (uint32_t i = 0; i < ast_child_count(x); i++) {
    const struct ast *c = provider_call(ast_child(x, i));
    if (c)
      return c;
  }
  return NULL;
}

/* Why a condition's result cannot be known offline. */
static const char *deferred_reason(tfr_arena *a, const struct module *m,
                                   const struct scope *s,
                                   const struct ast *cond) {
  struct refs r = refs_deep(a, m, cond);
  if (r.other_name)
    return tfr_arena_printf(a,
                            "This condition refers to %s%s%s%s, which "
                            "cannot be known before apply",
                            r.other_name, r.via ? " (through local." : "",
                            r.via ? r.via : "", r.via ? ")" : "");
  for (size_t i = 0; i < m->nlocals; i++)
    if (r.seen[i] && s->local_err && s->local_err[i])
      return tfr_arena_printf(a,
                              "This condition uses local.%s, which could "
                              "not be evaluated offline (%s)",
                              m->locals[i].name, s->local_err[i]);
  /* a module instance's variable from what only apply knows (tree_expand.c) */
  for (size_t i = 0; s->var && i < r.vars.n; i++) {
    long ix = tfr_type_attr(s->var->type, r.vars.v[i], strlen(r.vars.v[i]));
    if (ix >= 0 && !(s->var->flags & TFR_V_UNKNOWN) &&
        !tfr_value_is_wholly_known(s->var->elems[ix]))
      return tfr_arena_printf(a,
                              "This condition uses var.%s, whose value the "
                              "caller gives from something known only after "
                              "apply",
                              r.vars.v[i]);
  }
  const struct ast *pc = provider_call(cond);
  if (pc)
    return tfr_arena_printf(a,
                            "This condition calls %.*s, a function of a "
                            "provider, which plan asks the provider for and "
                            "tfresolve does not run",
                            (int)pc->kids[0]->n, pc->kids[0]->str);
  /* nothing unknowable: a call gave an unknown result of type any, as
  ** cty's does when an argument's type is any where its parameter does not
  ** allow that (contains(list, null) with a literal null); Terraform skips
  ** such a rule at every step (internal/terraform/eval_variable.go:393) */
  return "This condition's result is unknown although every value it uses "
         "is known (a function given an argument of no particular type, "
         "such as a literal null in contains(list, null), returns an "
         "unknown value), and Terraform skips a rule whose condition is "
         "unknown";
}

/* The first error added to diags since index before, as one line. */
static const char *first_error(tfr_arena *a, const tfr_diags *diags,
                               size_t before) {
  for (size_t i = before; i < tfr_diags_count(diags); i++) {
    const struct tfr_diag *g = tfr_diags_get(diags, i);
    if (g->sev == TFR_DIAG_ERROR)
      return g->detail && *g->detail
                 ? tfr_arena_printf(a, "%s: %s", g->summary, g->detail)
                 : g->summary;
  }
  return "the rule could not be evaluated";
}

static bool outcome(struct tfr_rule *out, enum tfr_rule_result r,
                    const char *detail) {
  out->result = r;
  out->detail = detail;
  return r == TFR_RULE_PASSED || r == TFR_RULE_DEFERRED;
}

/*
** A .tf.json error message that failed to evaluate: Terraform takes its
** JSON string literally, and its errors (diags from index at on) become
** one warning that quotes them.
*/
static const tfr_value *json_message_fallback(tfr_arena *a, tfr_diags *diags,
                                              const struct validation *rule,
                                              size_t at, const char *var,
                                              const char *product) {
  const char *why = diags_error_text(a, diags, at);
  diags_remove(diags, at, tfr_diags_count(diags));
  const struct ast *lit = rule->message_literal;
  struct tfr_range r = src_range(rule->src, lit->span);
  module_literal_message_warning(a, diags, &r, why, var, product);
  return tfr_string(a, lit->str, lit->n);
}

/* ---- rules sharing trees ----------------------------------------------- */

/* The rule's own trees, read again from its file at its spans, in a: the
** rule with them in *own; NULL if they cannot be read (cannot be: they
** were checked when the file was read). */
static const struct validation *
own_trees(tfr_arena *a, const struct validation *rule, struct validation *own) {
  struct ast cond = {0}, msg = {0};
  cond.kind = msg.kind = AST_NULL;
  cond.flags = msg.flags = AST_F_LAZY;
  cond.span = rule->cond_span;
  msg.span = rule->msg_span;
  tfr_diags *scratch = tfr_diags_new(a);
  const struct ast *c = parse_config_lazy(rule->src, a, scratch, &cond);
  const struct ast *g = parse_config_lazy(rule->src, a, scratch, &msg);
  if (!c || !g)
    return NULL;
  *own = *rule;
  own->condition = c;
  own->error_message = g;
  own->cond_src = own->msg_src = rule->src;
  own->alias = NULL;
  own->cond_refs = own->msg_refs = NULL;
  own->refs = NULL;
  return own;
}

/* The slot of variable ix in the scope's var object. */
static const tfr_value **var_slot(const struct module *m, struct scope *s,
                                  long ix) {
  const tfr_value *var = s->var;
  const char *name = m->vars[ix].name;
  if ((size_t)ix >= var->n || strcmp(var->type->names[ix], name))
    ix = tfr_type_attr(var->type, name, strlen(name));
  return ix < 0 ? NULL : UNCONST(const tfr_value **, &var->elems[ix]);
}

static bool run_own(tfr_arena *a, tfr_diags *diags, const struct module *m,
                    size_t k, const struct validation *rule, struct scope *s,
                    const struct value_place *value_at, bool walk_validate,
                    struct tfr_rule *out);

/*
** A rule evaluated in another rule's trees (module_rules.c's rule_template):
** the other rule's variable has this one's value meanwhile.  Without a
** diagnostic that is the rule's outcome; with one, whose ranges would be
** the other rule's, the rule is evaluated again in its own trees.
*/
static bool run_rule(tfr_arena *a, tfr_diags *diags, const struct module *m,
                     size_t k, const struct validation *rule, struct scope *s,
                     const struct value_place *value_at, bool walk_validate,
                     struct tfr_rule *out) {
  if (!rule->alias)
    return run_own(a, diags, m, k, rule, s, value_at, walk_validate, out);
  const struct var_decl *av =
      rule->alias_var ? rule->alias_var
                      : module_var(m, rule->alias, strlen(rule->alias));
  const tfr_value **from = av ? var_slot(m, s, av - m->vars) : NULL,
                  **to = from ? var_slot(m, s, (long)k) : NULL;
  struct validation own;
  if (!to) /* (cannot be: the template's variable is declared) */
    return run_own(a, diags, m, k, own_trees(a, rule, &own) ? &own : rule, s,
                   value_at, walk_validate, out);
  size_t before = tfr_diags_count(diags);
  const tfr_value *saved = *from;
  *from = *to;
  bool ok = run_own(a, diags, m, k, rule, s, value_at, walk_validate, out);
  *from = saved;
  if (tfr_diags_count(diags) == before || !own_trees(a, rule, &own))
    return ok;
  diags_remove(diags, before, tfr_diags_count(diags));
  return run_own(a, diags, m, k, &own, s, value_at, walk_validate, out);
}

/* A rule whose condition is unknown: deferred, and ours to say so in
** the plan walk (but for a child's, whose outcome says it). */
static bool deferred(tfr_arena *a, tfr_diags *diags, const struct module *m,
                     size_t k, const struct validation *rule, struct scope *s,
                     bool walk_validate, struct tfr_rule *out) {
  if (walk_validate) /* the usual outcome there: nothing to say */
    return outcome(out, TFR_RULE_DEFERRED, NULL);
  const char *why = deferred_reason(a, m, s, rule->condition);
  if (s->quiet_deferred) /* a child's: its outcome says it */
    return outcome(out, TFR_RULE_DEFERRED, why);
  error_in(diags, rule->src, rule->cond_span, TFR_DIAG_WARNING,
           "Validation rule deferred",
           tfr_arena_printf(a,
                            "%s, so the rule is neither passed nor "
                            "failed here.",
                            why),
           m->vars[k].name);
  tfr_diags_set_code(diags, TFR_CODE_RULE_DEFERRED);
  tfr_diags_set_ours(diags);
  return outcome(out, TFR_RULE_DEFERRED, why);
}

/* A failed rule's error message as Terraform shows it (msg: its known
** value, or NULL when it failed to evaluate): a message that is not a
** string, or refers to sensitive or ephemeral values, is an error of its
** own and not shown (eval_variable.go:453-502). */
static const char *message_text(tfr_arena *a, tfr_diags *diags,
                                const struct validation *rule, struct scope *s,
                                const char *var, const struct engine_rules *e,
                                const tfr_value *msg) {
  static const char failed[] = "Failed to evaluate condition error message.";
  if (!msg || (msg->flags & TFR_V_NULL))
    return failed;
  const char *err = NULL, *summary = NULL, *detail = NULL, *text;
  const tfr_value *ms = conv_convert(a, msg, &tfr_t_string, &err);
  if (!ms) {
    summary = "Invalid error message";
    detail = tfr_arena_printf(a, "Unsuitable value for error message: %s.",
                              err ? err : "string required");
    text = failed;
  } else if (tfr_value_has_mark(ms, TFR_V_EPHEMERAL) &&
             !tfr_value_has_mark(ms, TFR_V_SENSITIVE)) {
    summary = "Error message refers to ephemeral values";
    detail = e->ephemeral_message;
    text = e->ephemeral_text;
  } else if (tfr_value_has_mark(ms, TFR_V_SENSITIVE)) {
    summary = "Error message refers to sensitive values";
    detail = e->sensitive_message;
    text = "The error message included a sensitive value, so it will "
           "not be displayed.";
  } else {
    text = trimmed(a, ms);
  }
  if (summary) {
    error_in(diags, rule->src, rule->msg_span, TFR_DIAG_ERROR, summary, detail,
             var);
    rule_values(a, diags, rule, rule->error_message, s, false);
  }
  return *text ? text : failed;
}

/* One rule of variable k in its trees, its outcome in *out; false if it
** failed. */
static bool run_own(tfr_arena *a, tfr_diags *diags, const struct module *m,
                    size_t k, const struct validation *rule, struct scope *s,
                    const struct value_place *value_at, bool walk_validate,
                    struct tfr_rule *out) {
  const struct var_decl *v = &m->vars[k];
  size_t before = tfr_diags_count(diags);
  const tfr_value *cond =
      eval_in(a, diags, rule, rule->condition, s, v->name, NULL);
  size_t msg_at = tfr_diags_count(diags);
  /* a quoted literal message (the usual one) gives no diagnostic: it is
  ** made only when a failed rule shows it */
  const struct ast *lit =
      rule->error_message->kind == AST_STRING ? rule->error_message : NULL;
  const tfr_value *despite = NULL;
  const tfr_value *msg =
      lit ? NULL
          : eval_in(a, diags, rule, rule->error_message, s, v->name, &despite);
  bool msg_failed = !lit && !msg;
  if (msg_failed && rule->message_literal)
    msg = json_message_fallback(a, diags, rule, msg_at, v->name,
                                engine_rules(m->opentofu)->product);
  if (!cond)
    return outcome(out, TFR_RULE_INVALID, first_error(a, diags, before));
  if (!tfr_value_is_wholly_known(cond))
    return deferred(a, diags, m, k, rule, s, walk_validate, out);
  if (cond->flags & TFR_V_NULL) {
    error_in(diags, rule->src, rule->cond_span, TFR_DIAG_ERROR,
             "Invalid variable validation result",
             "Validation condition expression must return either true or "
             "false, not null.",
             v->name);
    rule_values(a, diags, rule, rule->condition, s, false);
    return outcome(out, TFR_RULE_INVALID, first_error(a, diags, before));
  }
  const char *err = NULL;
  const tfr_value *b = conv_convert(a, cond, &tfr_t_bool, &err);
  if (!b) {
    error_in(diags, rule->src, rule->cond_span, TFR_DIAG_ERROR,
             "Invalid variable validation result",
             tfr_arena_printf(a,
                              "Invalid validation condition result value: "
                              "%s.",
                              err ? err : "a bool is required"),
             v->name);
    rule_values(a, diags, rule, rule->condition, s, false);
    return outcome(out, TFR_RULE_INVALID, first_error(a, diags, before));
  }
  if (b->b)
    return msg || lit
               ? outcome(out, TFR_RULE_PASSED, NULL)
               : outcome(out, TFR_RULE_INVALID, first_error(a, diags, before));
  if (lit) /* eval_expr's value of it */
    msg = tfr_string(a, lit->str, lit->n);
  /* The message, as Terraform takes it: unknown is an error of its own
  ** (and no "Invalid value for variable"); null, empty, or one that
  ** failed to evaluate, is "Failed to evaluate condition error message."
  ** (eval_variable.go).  A failed expression has the value HCL gives it:
  ** unknown, but for a template none of whose parts is unknown.  OpenTofu
  ** never takes a failed one as unknown (engine_tofu.h). */
  const struct engine_rules *e = engine_rules(m->opentofu);
  bool known_despite = despite && !(despite->flags & TFR_V_UNKNOWN);
  if (!msg && !known_despite && e->failed_message_unknown)
    msg = tfr_unknown(a, &tfr_t_string);
  if (msg && (msg->flags & TFR_V_UNKNOWN) && walk_validate)
    return outcome(out, TFR_RULE_DEFERRED, "its error message is unknown");
  if (msg && (msg->flags & TFR_V_UNKNOWN)) {
    error_in(diags, rule->src, rule->msg_span, TFR_DIAG_ERROR,
             "Invalid error message", e->unknown_message, v->name);
    rule_values(a, diags, rule, rule->error_message, s, true);
    return outcome(
        out, e->unknown_message_fails ? TFR_RULE_FAILED : TFR_RULE_INVALID,
        first_error(a, diags, before));
  }
  const char *text = message_text(a, diags, rule, s, v->name, e, msg);
  struct tfr_range rr = src_range(rule->src, rule->block);
  char where[512];
  tfr_range_format(&rr, where, sizeof where);
  struct tfr_range at = value_at->range(value_at->ud, k);
  tfr_diags_add(diags, TFR_DIAG_ERROR, &at, "Invalid value for variable",
                tfr_arena_printf(a,
                                 "%s\n\nThis was checked by the validation "
                                 "rule at %s.",
                                 text, where));
  tfr_diags_set_code(diags, TFR_CODE_RULE_FAILED);
  tfr_diags_set_variable(diags, v->name);
  rule_values(a, diags, rule, rule->condition, s, false);
  if (v->sensitive && !e->errors_at_decl)
    tfr_diags_hide_source(diags); /* at may be the secret itself */
  return outcome(out, TFR_RULE_FAILED, text);
}

/* Every rule of variable k skipped, for the same reason. */
void validate_skip_rules(const struct var_decl *v, struct tfr_rule *rules,
                         const char *why) {
  for (size_t i = 0; i < v->nvalidations; i++)
    outcome(&rules[i], TFR_RULE_SKIPPED, why);
}

/* Terraform's init walk has no local values (its graph keeps only const
** variables), so a const variable's rule that refers to one gets
** evaluate.go's error at each reference; true if there was one. */
static bool uninitialized_locals(tfr_arena *a, tfr_diags *diags,
                                 const struct module *m,
                                 const struct var_decl *v,
                                 const struct validation *rule) {
  bool any = false;
  for (int part = 0; part < 2; part++) {
    const struct ast *x = part ? rule->error_message : rule->condition;
    struct refs r = refs_of(a, x);
    for (size_t j = 0; j < r.locals.n; j++) {
      if (scope_local_index(m, r.locals.v[j], strlen(r.locals.v[j])) < 0)
        continue;
      error_in(diags, part ? rule->msg_src : rule->cond_src, r.locals.at[j],
               TFR_DIAG_ERROR, "Reference to uninitialized local value",
               tfr_arena_printf(a,
                                "The local value local.%s was not processed "
                                "by the most recent operation, this likely "
                                "means the previous operation either failed "
                                "or was incomplete due to targeting.",
                                r.locals.v[j]),
               v->name);
      any = true;
    }
  }
  return any;
}

/* Whether the validate walk has seen rule i of variable k pass (its walk
** key in run->clean), and the key in key[0..*len) (*len 0: none). */
static bool walk_clean(const struct rules_run *run, const struct var_decl *v,
                       const struct validation *rule, char key[static 10],
                       size_t *len) {
  *len = 0;
  if (!run->clean || !walk_key(v, rule, len, key))
    return false;
  return bytemap_get(run->clean, key, *len) != NULL;
}

/* The one runner of a variable's rules, the root's and every child
** instance's, in every walk: variable k's rules in order in run's scope,
** each outcome in rules[i]; an engine that stops at a rule's error skips
** the rest (engine_tofu.h); the init walk's rules reading local values
** fail.  Each rule is evaluated in run->scratch, reset after it (NULL:
** in run->a), its outcome's text copied to run->a.  False if one
** failed. */
static bool var_rules(const struct rules_run *run, const struct module *m,
                      size_t k, struct tfr_rule *rules) {
  const struct var_decl *v = &m->vars[k];
  bool stop = engine_rules(m->opentofu)->rules_stop_at_error;
  bool ok = true, erred = false;
  tfr_arena *t = run->scratch ? run->scratch : run->a;
  tfr_diags *diags = run->diags;
  struct arena_mark empty = arena_mark(t);
  for (size_t i = 0; i < v->nvalidations; i++) {
    struct tfr_rule dummy, *out = rules ? &rules[i] : &dummy;
    if (erred && stop) {
      outcome(out, TFR_RULE_SKIPPED,
              "an earlier rule of this variable has an error, and OpenTofu "
              "stops there");
      continue;
    }
    const struct validation *rule = &v->validations[i];
    char key[10];
    size_t klen;
    if (walk_clean(run, v, rule, key, &klen)) {
      outcome(out, TFR_RULE_PASSED, NULL);
      continue;
    }
    size_t before = tfr_diags_count(diags);
    if (run->s->init && uninitialized_locals(t, diags, m, v, rule)) {
      ok = false;
      outcome(out, TFR_RULE_INVALID, first_error(t, diags, before));
    } else {
      ok &= run_rule(t, diags, m, k, rule, run->s, run->value_at,
                     run->walk_validate, out);
    }
    erred = diags_errors_since(diags, before);
    if (run->scratch && out->detail)
      out->detail = tfr_arena_strdup(run->a, out->detail);
    if (run->scratch)
      arena_reset(t, empty);
    if (!erred && klen)
      bytemap_put(run->clean, tfr_arena_strndup(run->a, key, klen), klen,
                  (void *)1);
  }
  return ok;
}

void validate_soften(const struct module *m, tfr_diags *diags, size_t from,
                     const bool *soft, bool *failed) {
  for (size_t i = from; soft && i < tfr_diags_count(diags); i++) {
    struct tfr_diag *g = diags_at(diags, i);
    if (g->code != TFR_CODE_RULE_FAILED || g->sev != TFR_DIAG_ERROR ||
        !g->variable || (g->module && *g->module))
      continue;
    long k = index_of(m, g->variable);
    if (k < 0 || !soft[k])
      continue;
    g->sev = TFR_DIAG_WARNING;
    g->note = "A warning here, not an error: with -missing-required=info, "
              "a rule that only fails while the variable is at its default "
              "of null says that the caller must set it.";
    if (failed)
      failed[k] = false;
  }
}

bool validate_refs(const struct module *m, tfr_arena *a, tfr_diags *diags,
                   struct src_file *src, const struct ast *x, const char *var) {
  return refs_declared(m, a, diags, src, x, var);
}

bool validate_var_refs(const struct module *m, tfr_arena *a, tfr_diags *diags,
                       size_t k) {
  bool ok = true;
  const struct var_decl *v = &m->vars[k];
  for (size_t i = 0; i < v->nvalidations; i++) {
    const struct validation *rule = &v->validations[i];
    const struct rule_refs *rr = rule_refs(a, m, rule);
    ok &= refs_declared_in(m, a, diags, rule->cond_src, rr->cond, rr->cond_ix,
                           v->name);
    ok &= refs_declared_in(m, a, diags, rule->msg_src, rr->msg, rr->msg_ix,
                           v->name);
  }
  return ok;
}

bool validate_var_rules(const struct rules_run *run, const struct module *m,
                        size_t k, struct tfr_rule *rules) {
  return var_rules(run, m, k, rules);
}

bool validate_console_refs(const struct module *m, tfr_arena *a,
                           tfr_diags *diags, struct src_file *src,
                           const struct ast *x) {
  return refs_declared(m, a, diags, src, x, NULL);
}
