/*
** The walk: count and for_each, each call expanded.
*/
#include "module/tree_int.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "base/arena_int.h"
#include "base/diag_int.h"
#include "values/number.h"

/* ---- the walk ----------------------------------------------------------- */

static const char *inst_addr(struct tree *t, const struct tinst *parent,
                             const char *name, const char *key,
                             const tfr_value *num) {
  const char *base = tree_in_module(t, parent->addr, name);
  if (num)
    return tfr_arena_printf(t->a, "%s[%s]", base, num_format(t->a, num->num));
  if (key)
    return tfr_arena_printf(t->a, "%s[%s]", base,
                            str_go_quote(t->a, key, strlen(key)));
  return base;
}

static const tfr_value *num_val(tfr_arena *a, int64_t i) {
  tfr_value *v = tfr_arena_alloc(a, sizeof *v);
  v->type = &tfr_t_number;
  v->num = num_from_int(a, i);
  return v;
}

/* eval_count.go: the count of a call in pi; -1 after an error, -2 when
** unknown. */
static long count_value(struct tree *t, struct tinst *pi,
                        const struct module_call *c) {
  const tfr_value *v =
      tree_eval_in(t, pi, c->count_src, c->count, NULL, NULL, pi->addr);
  if (!v)
    return -1;
  const char *err = NULL;
  const tfr_value *n = conv_convert(t->a, v, &tfr_t_number, &err);
  if (!n) {
    tree_call_error_in(t, c->count_src, c->count->span, pi->addr,
                       "Incorrect value type",
                       tfr_arena_printf(t->a, "Invalid expression value: %s.",
                                        err ? err : "number required"));
    return -1;
  }
  bool bad = false;
  if (n->flags & TFR_V_EPHEMERAL) {

    tree_call_error_in(
        t, c->count_src, c->count->span, pi->addr, "Invalid count argument",
        "The given \"count\" is derived from an ephemeral value, which "
        "means that Terraform cannot persist it between plan/apply "
        "rounds. Use only non-ephemeral values to specify the number "
        "of resource instances.");
    bad = true;
  }
  n = tfr_value_unmark(t->a, n, TFR_V_SENSITIVE | TFR_V_EPHEMERAL, NULL);
  if (n->flags & TFR_V_NULL) {
    tree_call_error_in(
        t, c->count_src, c->count->span, pi->addr, "Invalid count argument",
        "The given \"count\" argument value is null. An integer is "
        "required.");
    return -1;
  }
  if (n->flags & TFR_V_UNKNOWN)
    return bad ? -1 : -2;
  int64_t i;
  if (!num_is_int(n->num) || !num_to_int64(n->num, &i) || i > INT32_MAX) {
    tree_call_error_in(
        t, c->count_src, c->count->span, pi->addr, "Invalid count argument",
        "The given \"count\" argument value is unsuitable: value must "
        "be a whole number, between -9223372036854775808 and "
        "9223372036854775807.");
    return -1;
  }
  if (i < 0) {
    tree_call_error_in(
        t, c->count_src, c->count->span, pi->addr, "Invalid count argument",
        "The given \"count\" argument value is unsuitable: must be "
        "greater than or equal to zero.");
    return -1;
  }
  return bad ? -1 : (long)i;
}

static const char *const unknown_map =
    "The \"for_each\" map includes keys derived from resource attributes "
    "that cannot be determined until apply, and so Terraform cannot "
    "determine the full set of keys that will identify the instances of "
    "this resource.\n\nWhen working with unknown values in for_each, it's "
    "better to define the map keys statically in your configuration and "
    "place apply-time results only in the map values.\n\nAlternatively, you "
    "could use the -target planning option to first apply only the "
    "resources that the for_each value depends on, and then apply a second "
    "time to fully converge.";
static const char *const unknown_set =
    "The \"for_each\" set includes values derived from resource attributes "
    "that cannot be determined until apply, and so Terraform cannot "
    "determine the full set of keys that will identify the instances of "
    "this resource.\n\nWhen working with unknown values in for_each, it's "
    "better to use a map value where the keys are defined statically in "
    "your configuration and where only the values contain apply-time "
    "results.\n\nAlternatively, you could use the -target planning option "
    "to first apply only the resources that the for_each value depends on, "
    "and then apply a second time to fully converge.";

/* eval_for_each.go's validateResourceOrActionForEach; false after an
** error. */
static bool for_each_ok(struct tree *t, struct tinst *pi,
                        const struct module_call *c, const tfr_value *v) {
  const char *bad = NULL, *summary = "Invalid for_each argument";
  bool ok = true;
  /* marks.Has: the value's own marks, not its elements' */
  if (v->flags & TFR_V_SENSITIVE) {
    tree_call_error_in(
        t, c->for_each_src, c->for_each->span, pi->addr, summary,
        "Sensitive values, or values derived from sensitive values, "
        "cannot be used as for_each arguments. If used, the sensitive "
        "value could be exposed as a resource instance key.");
    ok = false;
  }
  if (v->flags & TFR_V_EPHEMERAL) {
    tree_call_error_in(
        t, c->for_each_src, c->for_each->span, pi->addr, summary,
        "The given \"for_each\" value is derived from an ephemeral "
        "value, which means that Terraform cannot persist it between "
        "plan/apply rounds. Use only non-ephemeral values to specify a "
        "resource's instance keys.");
    ok = false;
  }
  if (!ok)
    return false;
  const tfr_type *ty = v->type;
  if (v->flags & TFR_V_NULL)
    bad = "The given \"for_each\" argument value is unsuitable: the given "
          "\"for_each\" argument value is null. A map, or set of strings is "
          "allowed.";
  else if (ty->kind == TFR_DYNAMIC)
    return true;
  else if (ty->kind != TFR_MAP && ty->kind != TFR_SET && ty->kind != TFR_OBJECT)
    bad = tfr_arena_printf(t->a,
                           "The given \"for_each\" argument value is "
                           "unsuitable: the \"for_each\" argument must be a "
                           "map, or set of strings, and you have provided a "
                           "value of type %s.",
                           tfr_type_friendly(t->a, ty));
  else if ((v->flags & TFR_V_UNKNOWN) || !v->n)
    return true;
  else if (ty->kind == TFR_SET) {
    if (!tfr_value_is_wholly_known(v))
      return true;
    summary = "Invalid for_each set argument";
    if (ty->elem->kind != TFR_STRING)
      bad = tfr_arena_printf(t->a,
                             "The given \"for_each\" argument value is "
                             "unsuitable: \"for_each\" supports maps and sets "
                             "of strings, but you have provided a set "
                             "containing type %s.",
                             tfr_type_friendly(t->a, ty->elem));
    for (uint32_t i = 0; !bad && i < v->n; i++)
      if (v->elems[i]->flags & TFR_V_NULL)
        bad = "The given \"for_each\" argument value is unsuitable: "
              "\"for_each\" sets must not contain null values.";
  }
  if (!bad)
    return true;
  tree_call_error_in(t, c->for_each_src, c->for_each->span, pi->addr, summary,
                     bad);
  return false;
}

/* Whether n more instances of c in pi would pass TREE_MAX_INSTANCES:
** every instance counts, a plain call's one too (then ours to say, once
** a walk, at its count or for_each, or its block): a count from a var
** file must not make the machine build a billion instances. */
static bool too_many(struct tree *t, struct tinst *pi,
                     const struct module_call *c, size_t n) {
  if (!t->limit_said && n <= TREE_MAX_INSTANCES - t->ninsts) {
    t->ninsts += n;
    return false;
  }
  if (t->limit_said)
    return true;
  t->limit_said = true;
  const struct ast *x = c->count ? c->count : c->for_each;
  const char *addr = inst_addr(t, pi, c->name, NULL, NULL);
  size_t before = tfr_diags_count(t->diags);
  struct tfr_range r =
      x ? src_range(c->count ? c->count_src : c->for_each_src, x->span)
        : src_range(c->src, c->decl);
  tfr_diags_add(
      t->diags, TFR_DIAG_ERROR, &r, "Too many module instances",
      x ? tfr_arena_printf(t->a,
                           "This gives %s %zu instances, and the tree would "
                           "have more than %d module instances, the most "
                           "tfresolve follows.",
                           addr, n, TREE_MAX_INSTANCES)
        : tfr_arena_printf(t->a,
                           "With %s the tree would have more than %d module "
                           "instances, the most tfresolve follows.",
                           addr, TREE_MAX_INSTANCES));
  tfr_diags_set_ours(t->diags);
  diags_set_module_since(t->diags, before, pi->addr);
  return true;
}

/* in, the next instance of e (of call c); true when the tree is past the
** memory budget with it (then the expansion fails). */
static bool push_inst(struct tree *t, struct texp *e, struct tinst *in,
                      const char *key, const struct module_call *c) {
  e->insts[e->n] = in;
  if (e->keys)
    e->keys[e->n] = key;
  e->n++;
  return tree_over_budget(t, c->src, c->decl, in->addr, "The instance %s",
                          in->addr);
}

/* What an expression evaluated in instance in can be unknown from, its
** references followed through local values, the caller's arguments and
** module outputs: ORIGIN_MANAGED (resources, ephemeral resources: known
** only after apply) and ORIGIN_DATA (data sources: plan reads them from
** the providers, which tfresolve does not). */
enum { ORIGIN_MANAGED = 1, ORIGIN_DATA = 2 };

struct origin_seen {
  struct {
    const void *in, *x;
  } * v;
  size_t n, cap; /* cap: a power of two */
};

/* Whether (in, x) was walked already (else it is now). */
static bool seen_before(struct tree *t, struct origin_seen *s, const void *in,
                        const void *x) {
  if (2 * (s->n + 1) > s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 64;
    struct origin_seen n = {tfr_arena_alloc(t->a, cap * sizeof *n.v), s->n,
                            cap};
    for (size_t i = 0; i < s->cap; i++)
      if (s->v[i].x) {
        size_t h = ((uintptr_t)s->v[i].x ^ (uintptr_t)s->v[i].in * 31) *
                   0x9E3779B97F4A7C15ull;
        for (h &= cap - 1; n.v[h].x; h = (h + 1) & (cap - 1))
          ;
        n.v[h] = s->v[i];
      }
    *s = n;
  }
  size_t h = ((uintptr_t)x ^ (uintptr_t)in * 31) * 0x9E3779B97F4A7C15ull;
  for (h &= s->cap - 1; s->v[h].x; h = (h + 1) & (s->cap - 1))
    if (s->v[h].x == x && s->v[h].in == in)
      return true;
  s->v[h].in = in;
  s->v[h].x = x;
  s->n++;
  return false;
}

static int origin_walk(struct tree *t, struct origin_seen *seen,
                       struct tinst *in, const struct ast *x, int depth);

/* Whether a module (its children too) has a managed resource. */
static bool has_managed(const struct tmod *tm) {
  for (size_t i = 0; i < tm->m->nobjects; i++) {
    const char *o = tm->m->objects[i];
    if (strncmp(o, "data.", 5) && strncmp(o, "module.", 7) &&
        strncmp(o, "ephemeral.", 10))
      return true;
  }
  for (size_t c = 0; c < tm->m->ncalls; c++)
    if (tm->children[c] && has_managed(tm->children[c]))
      return true;
  return false;
}

/* Whether a depends_on names a managed resource, or a module with one:
** offline every managed resource is to be created, a pending change. */
static bool depends_pending(struct tree *t, const struct tmod *tm,
                            const struct ast *x) {
  struct tref_list l = tree_refs_of_x(t, x);
  for (size_t i = 0; i < l.n; i++) {
    const struct tref *r = &l.v[i];
    if (tree_root_is(r, "data") || tree_root_is(r, "var") ||
        tree_root_is(r, "local"))
      continue;
    if (!tree_root_is(r, "module"))
      return true;
    for (size_t c = 0; c < tm->m->ncalls; c++)
      if (tm->children[c] && r->a1 &&
          tree_a1_is(r, tm->m->calls[c].name, strlen(tm->m->calls[c].name)) &&
          has_managed(tm->children[c]))
        return true;
  }
  return false;
}

static int cmp_data_name(const void *key, const void *d) {
  return strcmp(key, ((const struct data_decl *)d)->name);
}

/* Where the data source r (data.TYPE.NAME) comes from: plan reads it (its
** values are the provider's: ORIGIN_DATA) unless its configuration holds
** something only apply knows, or its depends_on has a pending change,
** when the read waits for apply and its result is unknown in plan
** (ORIGIN_MANAGED): node_resource_abstract_instance.go:1944-1950 and
** 2141-2190. */
static int data_origin(struct tree *t, struct origin_seen *seen,
                       struct tinst *in, const struct tref *r, int depth) {
  const struct module *m = in->tm->m;
  if (!r->a1 || !r->a2 || !m->ndata)
    return ORIGIN_DATA;
  const char *name =
      tfr_arena_printf(t->a, "%.*s.%.*s", (int)r->l1, r->a1, (int)r->l2, r->a2);
  const struct data_decl *d =
      bsearch(name, m->data, m->ndata, sizeof *m->data, cmp_data_name);
  if (!d)
    return ORIGIN_DATA;
  int o = 0;
  for (size_t i = 0; i < d->nexprs; i++)
    o |= origin_walk(t, seen, in, d->exprs[i], depth + 1);
  if (d->depends_on && depends_pending(t, in->tm, d->depends_on))
    o |= ORIGIN_MANAGED;
  return o & ORIGIN_MANAGED ? ORIGIN_MANAGED : ORIGIN_DATA;
}

/* Each expression once per instance: what a walk reaches again adds
** nothing to the union of what it found. */
static int origin_walk(struct tree *t, struct origin_seen *seen,
                       struct tinst *in, const struct ast *x, int depth) {
  if (!x || !in || depth > 64 || seen_before(t, seen, in, x))
    return 0;
  struct tref_list l = tree_refs_of_x(t, x);
  const struct module *m = in->tm->m;
  int o = 0;
  for (size_t i = 0; i < l.n; i++) {
    const struct tref *r = &l.v[i];
    if (tree_root_is(r, "data"))
      o |= data_origin(t, seen, in, r, depth);
    else if (tree_root_is(r, "var")) {
      long k = r->a1 ? module_var_index(m, r->a1, r->l1) : -1;
      if (k >= 0 && in->tm->parent && in->tm->args[k])
        o |= origin_walk(t, seen, in->parent, in->tm->args[k]->expr, depth + 1);
    } else if (tree_root_is(r, "local")) {
      long k = r->a1 ? scope_local_index(m, r->a1, r->l1) : -1;
      if (k >= 0)
        o |= origin_walk(t, seen, in, m->locals[k].expr, depth + 1);
    } else if (tree_root_is(r, "module")) {
      for (size_t c = 0; c < m->ncalls; c++) {
        const struct texp *e = in->calls[c];
        if (!e || !e->n || !r->a1 || strlen(m->calls[c].name) != r->l1 ||
            memcmp(m->calls[c].name, r->a1, r->l1))
          continue;
        const struct module *cm = e->insts[0]->tm->m;
        for (size_t q = 0; q < cm->noutputs; q++)
          if (!r->a2 || (strlen(cm->outputs[q].name) == r->l2 &&
                         !memcmp(cm->outputs[q].name, r->a2, r->l2)))
            o |= origin_walk(t, seen, e->insts[0], cm->outputs[q].expr,
                             depth + 1);
      }
    } else if (!tree_root_is(r, "count") && !tree_root_is(r, "each") &&
               !tree_root_is(r, "path") && !tree_root_is(r, "terraform") &&
               !tree_root_is(r, "self"))
      o |= ORIGIN_MANAGED; /* a resource type, resource.*, ephemeral.* */
  }
  return o;
}

static int origin(struct tree *t, struct tinst *in, const struct ast *x,
                  int depth) {
  struct origin_seen seen = {0};
  return origin_walk(t, &seen, in, x, depth);
}

/* A count or for_each (what) left unknown by the memory budget: once
** the budget's error was said (eval_budget_said), an evaluation that
** finds the arena past the budget again stops with an unknown result and
** no error of its own (src/eval/eval.c over_budget), so that even a for
** over literals looks like something only apply knows.  The budget's
** error is said here instead of a reason that is not the one. */
static void budget_repetition(struct tree *t, struct tinst *pi,
                              struct src_file *xsrc, const struct ast *x,
                              const char *what) {
  tree_call_error_in(t, xsrc, x->span, pi->addr, eval_budget_summary,
                     eval_budget_detail);
  tfr_diags_set_ours(t->diags);
  tfr_diags_set_note(
      t->diags,
      tfr_arena_printf(t->a,
                       "The tree's values already fill the memory budget, so "
                       "this \"%s\" could not be evaluated; raise "
                       "-max-memory.",
                       what));
}

/* An unknown count or for_each: Terraform's error (text) when it comes
** from what only apply knows (a data source whose read waits for apply
** too: data_origin); when it comes from data sources only, which plan
** reads, a warning of ours: the call's instances are not checked.
** Either way the call has no instances here. */
static void unknown_repetition(struct tree *t, struct tinst *pi,
                               const struct module_call *c, const struct ast *x,
                               const char *text) {
  struct src_file *xsrc = x == c->count     ? c->count_src
                          : x == c->enabled ? c->enabled_src
                                            : c->for_each_src;
  const char *what = x == c->count     ? "count"
                     : x == c->enabled ? "enabled"
                                       : "for_each";
  if (tfr_arena_used(t->a) > arena_value_budget() &&
      eval_budget_said(t->diags)) {
    budget_repetition(t, pi, xsrc, x, what);
    return;
  }
  if (origin(t, pi, x, 0) != ORIGIN_DATA) {
    tree_call_error_in(t, xsrc, x->span, pi->addr,
                       tfr_arena_printf(t->a, "Invalid %s argument", what),
                       text);
    return;
  }
  size_t before = tfr_diags_count(t->diags);
  struct tfr_range r = src_range(xsrc, x->span);
  const char *call = inst_addr(t, pi, c->name, NULL, NULL);
  tfr_diags_add(t->diags,
                t->unchecked_error ? TFR_DIAG_ERROR : TFR_DIAG_WARNING, &r,
                "Module instances depend on data sources",
                tfr_arena_printf(t->a,
                                 "The \"%s\" value of %s comes from data "
                                 "sources, which terraform plan reads from "
                                 "the providers and tfresolve cannot, so the "
                                 "instances of %s are not checked.",
                                 what, call, call));
  tfr_diags_set_ours(t->diags);
  if (t->unchecked_error)
    tree_unchecked_fails(t);
  diags_set_module_since(t->diags, before, pi->addr);
  tree_add_unchecked(
      t, call, TFR_UNCHECKED_DATA_SOURCES,
      tfr_arena_printf(t->a, "its %s comes from data sources", what), r);
}

/* "Invalid enabled argument" at a call's `enabled` in pi, with the values
** it refers to (OpenTofu's Expression and EvalContext; unknown: caused by
** an unknown value, DiagnosticCausedByUnknown). */
static void enabled_error(struct tree *t, struct tinst *pi,
                          const struct module_call *c, const char *detail,
                          bool unknown) {
  tree_call_error_in(t, c->enabled_src, c->enabled->span, pi->addr,
                     "Invalid enabled argument", detail);
  struct inst_ctx ic;
  tree_inst_ctx(t, &ic, pi, c->enabled_src, NULL);
  eval_diag_values(&ic.c, c->enabled, unknown, t->diags);
}

/* An unknown `enabled`: OpenTofu's error; when it comes from data sources
** plan reads, or the memory budget left it unknown, unknown_repetition's
** warning or error instead (no error said before: after one, OpenTofu's
** error goes with it). */
static void unknown_enabled(struct tree *t, struct tinst *pi,
                            const struct module_call *c, bool said) {
  static const char *const text =
      "The given \"enabled\" argument value is derived from a value that "
      "won't be known until the apply phase, so OpenTofu cannot determine "
      "whether an instance of this object is declared or not.";
  bool budget =
      tfr_arena_used(t->a) > arena_value_budget() && eval_budget_said(t->diags);
  if (!said && (budget || origin(t, pi, c->enabled, 0) == ORIGIN_DATA))
    unknown_repetition(t, pi, c, c->enabled, text);
  else
    enabled_error(t, pi, c, text, true);
}

/* OpenTofu's lifecycle { enabled } of a call in pi (O lang/evalchecks/
** eval_lifecycle_enabled.go:22-113; node_module_expand.go:149-155): 1 or
** 0 instances, -1 after an error (each check says its own). */
static int enabled_value(struct tree *t, struct tinst *pi,
                         const struct module_call *c) {
  const tfr_value *v =
      tree_eval_in(t, pi, c->enabled_src, c->enabled, NULL, NULL, pi->addr);
  if (!v)
    return -1;
  size_t before = tfr_diags_count(t->diags);
  if (v->flags & TFR_V_SENSITIVE)
    enabled_error(t, pi, c,
                  "Sensitive values, or values derived from sensitive values, "
                  "cannot be used in \"enabled\" arguments. If used, the "
                  "sensitive value would be exposed by whether an instance is "
                  "present.",
                  false);
  if (v->flags & TFR_V_EPHEMERAL)
    enabled_error(t, pi, c,
                  "The given \"enabled\" argument value is unsuitable: the "
                  "given value is ephemeral.",
                  false);
  if (v->flags & TFR_V_NULL)
    enabled_error(t, pi, c,
                  "The given \"enabled\" argument value is unsuitable: the "
                  "given value is null.",
                  false);
  if (v->flags & TFR_V_UNKNOWN) {
    unknown_enabled(t, pi, c, diags_errors_since(t->diags, before));
    return -1;
  }
  if (diags_errors_since(t->diags, before))
    return -1;
  const char *err = NULL;
  v = tfr_value_unmark(t->a, v, TFR_V_SENSITIVE | TFR_V_EPHEMERAL, NULL);
  const tfr_value *b = conv_convert(t->a, v, &tfr_t_bool, &err);
  if (!b) {
    enabled_error(t, pi, c,
                  tfr_arena_printf(t->a,
                                   "The given \"enabled\" argument value is "
                                   "unsuitable: %s.",
                                   err ? err : "bool required"),
                  false);
    return -1;
  }
  return b->b;
}

/* node_module_expand.go: the instances of tm's call in parent instance pi;
** false after an error. */
/* The one instance of a call without count or for_each (and of every
** call in the validate walk). */
static bool expand_single(struct tree *t, struct tmod *tm, struct tinst *pi,
                          struct texp *e) {
  const struct module_call *c = tm->call;
  if (too_many(t, pi, c, 1)) /* one per call path: passes (tree_load) */
    return false;
  e->insts = tfr_arena_alloc(t->a, sizeof *e->insts);
  return !push_inst(t, e,
                    tree_new_inst(t, tm, pi,
                                  inst_addr(t, pi, c->name, NULL, NULL),
                                  (struct trep){0}),
                    NULL, c);
}

/* OpenTofu's lifecycle { enabled } at plan: one instance, or none when
** it is false (its instances/expansion_mode.go:45-60, expander.go:62-66);
** the validate walk has one, as for any call (node_module_expand.go:
** 268-300). */
static bool expand_enabled(struct tree *t, struct tmod *tm, struct tinst *pi,
                           struct texp *e) {
  int on = enabled_value(t, pi, tm->call);
  if (on < 0)
    return false;
  if (on)
    return expand_single(t, tm, pi, e);
  e->insts = tfr_arena_alloc(t->a, sizeof *e->insts);
  return true;
}

/* The validate walk: count and for_each checked, one instance. */
static bool expand_validate(struct tree *t, struct tmod *tm, struct tinst *pi,
                            struct texp *e) {
  const struct module_call *c = tm->call;
  if (c->count && count_value(t, pi, c) == -1)
    return false;
  if (c->for_each) {
    const tfr_value *v =
        tree_eval_in(t, pi, c->for_each_src, c->for_each, NULL, NULL, pi->addr);
    if (!v || !for_each_ok(t, pi, c, v))
      return false;
  }
  return expand_single(t, tm, pi, e);
}

static bool expand_count(struct tree *t, struct tmod *tm, struct tinst *pi,
                         struct texp *e) {
  const struct module_call *c = tm->call;
  long n = count_value(t, pi, c);
  if (n == -2) {
    unknown_repetition(
        t, pi, c, c->count,
        "The \"count\" value depends on resource attributes that cannot "
        "be determined until apply, so Terraform cannot predict how many "
        "instances will be created. To work around this, use the -target "
        "argument to first apply only the resources that the count "
        "depends on.");
    return false;
  }
  if (n < 0 || too_many(t, pi, c, (size_t)n))
    return false;
  e->mode = EXP_COUNT;
  e->insts = tfr_arena_alloc(t->a, (n ? (size_t)n : 1) * sizeof *e->insts);
  for (long i = 0; i < n; i++) {
    const tfr_value *k = num_val(t->a, i);
    if (push_inst(t, e,
                  tree_new_inst(t, tm, pi, inst_addr(t, pi, c->name, NULL, k),
                                (struct trep){k, NULL, NULL}),
                  NULL, c))
      return false;
  }
  return true;
}

/* Element i of a for_each value v, and its key. */
static const tfr_value *for_each_elem(struct tree *t, const tfr_value *v,
                                      size_t i, const char **key) {
  if (v->type->kind == TFR_SET)
    *key = tfr_arena_strndup(t->a, v->elems[i]->s, v->elems[i]->n);
  else if (v->type->kind == TFR_MAP)
    *key = tfr_arena_strndup(t->a, v->keys[i], v->keylens[i]);
  else
    *key = v->type->names[i];
  return v->elems[i];
}

static bool expand_for_each(struct tree *t, struct tmod *tm, struct tinst *pi,
                            struct texp *e) {
  const struct module_call *c = tm->call;
  const tfr_value *v =
      tree_eval_in(t, pi, c->for_each_src, c->for_each, NULL, NULL, pi->addr);
  if (!v)
    return false;
  if ((v->flags & TFR_V_UNKNOWN) ||
      (v->type->kind == TFR_SET && !tfr_value_is_wholly_known(v))) {
    unknown_repetition(t, pi, c, c->for_each,
                       v->type->kind == TFR_SET ? unknown_set : unknown_map);
    return false;
  }
  if (!for_each_ok(t, pi, c, v))
    return false;
  e->mode = EXP_FOR_EACH;
  /* for_each_ok rejected a value marked as a whole; its elements keep
  ** their marks into each.value (eval_for_each.go:99-109: only the
  ** top-level marks are an error, then AsValueMap hands out the
  ** elements as they are; expansion_mode.go:90-99). each.key is a
  ** plain string (expansion_mode.go:97): a key from a marked value
  ** marks the whole map (hcl's object and for expressions) or set,
  ** which for_each_ok rejected. count.index is plain too
  ** (expansion_mode.go:72). */
  size_t n = (v->flags & TFR_V_NULL) || v->type->kind == TFR_DYNAMIC ? 0 : v->n;
  if (too_many(t, pi, c, n))
    return false;
  e->insts = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *e->insts);
  e->keys = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *e->keys);
  /* keys in order: a map's and an object's are sorted, a set of
  ** strings is ordered by its strings */
  for (size_t i = 0; i < n; i++) {
    const char *key;
    const tfr_value *val = for_each_elem(t, v, i, &key);
    if (push_inst(
            t, e,
            tree_new_inst(t, tm, pi, inst_addr(t, pi, c->name, key, NULL),
                          (struct trep){NULL, tree_str_val(t->a, key), val}),
            key, c))
      return false;
  }
  return true;
}

bool tree_expand_call(struct tree *t, struct tmod *tm, struct tinst *pi) {
  const struct module_call *c = tm->call;
  size_t ci = (size_t)(c - pi->tm->m->calls);
  struct texp *e = tfr_arena_alloc(t->a, sizeof *e);
  bool ok = t->validate   ? expand_validate(t, tm, pi, e)
            : c->count    ? expand_count(t, tm, pi, e)
            : c->for_each ? expand_for_each(t, tm, pi, e)
            : c->enabled  ? expand_enabled(t, tm, pi, e)
                          : expand_single(t, tm, pi, e);
  if (!ok)
    return false;
  pi->calls[ci] = e;
  pi->module_obj = NULL;
  pi->call_val[ci] = NULL;
  return true;
}

/* eval_variable.go's PrepareFinalInputVariableValue for a value from the
** configuration (node_module_variable.go): NULL after an error. */
/* `var.NAME` or `each.value` followed by attribute and constant index
** steps only: NAME ("value" for each), its root in *root, and the steps
** as a path (`["b"].size`) in *steps; else NULL. */
