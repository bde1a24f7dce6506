/*
** One run of a test file judged: its expected failures, its assertions
** and what decides them offline (tftest.c runs it).
*/
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "base/strutil.h"
#include "module/tftest_int.h"
#include "module/scope.h"

const struct tfr_variable *tt_res_var(const struct tfr_resolution *res,
                                      const char *name, size_t n) {
  for (size_t k = 0; k < res->n; k++)
    if (strlen(res->vars[k].name) == n && !memcmp(res->vars[k].name, name, n))
      return &res->vars[k];
  return NULL;
}

static bool rule_failed(const struct tfr_variable *v) {
  for (size_t i = 0; v && i < v->nrules; i++)
    if (v->rules[i].result == TFR_RULE_FAILED)
      return true;
  return false;
}

/* A validation rule of v that cannot be decided offline, as a reason. */
const char *tt_deferred(tfr_arena *a, const struct tfr_variable *v) {
  for (size_t i = 0; v && i < v->nrules; i++)
    if (v->rules[i].result == TFR_RULE_DEFERRED) {
      char at[512];
      tfr_range_format(&v->rules[i].range, at, sizeof at);
      return tfr_arena_printf(
          a,
          "the validation rule of var.%s at %s cannot "
          "be decided offline (%s)",
          v->name, at, v->rules[i].detail ? v->rules[i].detail : "deferred");
    }
  return NULL;
}

/* The failure of a validation rule (a checkable object's failure): what
** expect_failures can expect. */
bool tt_is_rule_failure(const struct tfr_diag *g,
                        const struct tfr_resolution *res) {
  return g->sev == TFR_DIAG_ERROR && g->variable &&
         g->code == TFR_CODE_RULE_FAILED &&
         rule_failed(tt_res_var(res, g->variable, strlen(g->variable)));
}

long tt_expected_var(const struct trun *r, const char *name) {
  for (size_t i = 0; i < r->nexpect; i++)
    if (tt_ref_root(&r->expect_refs[i], "var") &&
        r->expect_refs[i].alen == strlen(name) &&
        !memcmp(r->expect_refs[i].attr, name, r->expect_refs[i].alen))
      return (long)i;
  return -1;
}

static bool contains(const char *hay, const char *s, size_t n) {
  size_t hn = strlen(hay);
  for (size_t i = 0; i + n <= hn; i++)
    if (!memcmp(hay + i, s, n))
      return true;
  return false;
}

/* expect_error_message: each string in the message of a failed rule of an
** expected variable. */
enum tfr_test_status tt_check_messages(struct runctx *rc,
                                       const struct tfr_resolution *res,
                                       const bool *found) {
  struct tctx *t = rc->t;
  struct trun *r = rc->r;
  enum tfr_test_status st = TFR_TEST_PASS;
  for (size_t i = 0; i < r->nmsgs; i++) {
    const tfr_value *m = r->msgs[i];
    bool ok = false;
    struct sbuf got = {0};
    for (size_t e = 0; e < r->nexpect; e++) {
      const struct ref *er = &r->expect_refs[e];
      if (!tt_ref_root(er, "var") || !found[e])
        continue;
      const struct tfr_variable *v = tt_res_var(res, er->attr, er->alen);
      for (size_t k = 0; v && k < v->nrules; k++) {
        const struct tfr_rule *rule = &v->rules[k];
        if (rule->result != TFR_RULE_FAILED || !rule->detail)
          continue;
        if (contains(rule->detail, m->s, m->n))
          ok = true;
        sbuf_str(&got, "\n  var.");
        sbuf_str(&got, v->name);
        sbuf_str(&got, ": ");
        sbuf_go_quote(&got, rule->detail, strlen(rule->detail));
      }
    }
    if (!ok) {
      struct sbuf want = {0};
      sbuf_go_quote(&want, m->s, m->n);
      tt_error_at(rc->out->diags, rc->f->src, r->msg_spans[i], TFR_DIAG_ERROR,
                  "Expected error message not found",
                  tfr_arena_printf(t->a,
                                   "No expected failure reported an error "
                                   "message containing %s. The failures "
                                   "reported:%s",
                                   want.p, got.p ? got.p : " none"));
      tfr_diags_set_ours(rc->out->diags); /* expect_error_message is ours */
      free(want.p);
      st = TFR_TEST_FAIL;
    }
    free(got.p);
  }
  return st;
}

/* What var.* is in an assertion: the module's final values (unknown when
** there is none), and the test-only ones. */
static const tfr_value *assertion_vars(struct runctx *rc,
                                       const struct tfr_resolution *res,
                                       const tfr_value **mvals) {
  struct tctx *t = rc->t;
  const struct module *m = module_of(res->module);
  size_t n = m->nvars + rc->nvals;
  const char **names = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *names);
  const tfr_value **vals = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *vals);
  size_t nv = 0;
  for (size_t k = 0; k < m->nvars; k++) {
    const struct var_decl *vd = &m->vars[k];
    const tfr_value *x =
        res->vars[k].value ? res->vars[k].value
                           : tfr_unknown(t->a, tfr_type_plain(t->a, vd->type));
    mvals[k] = res->vars[k].value;
    unsigned marks = (vd->sensitive ? TFR_V_SENSITIVE : 0) |
                     (vd->ephemeral ? TFR_V_EPHEMERAL : 0);
    names[nv] = vd->name;
    vals[nv++] = marks ? tfr_value_mark(t->a, x, marks) : x;
  }
  for (size_t i = 0; i < rc->nvals; i++) {
    struct tval *v = &rc->vals[i];
    if (v->decl >= 0 || tt_winning(rc, v->name, strlen(v->name)) != v ||
        !v->evaluated || v->failed || !v->value)
      continue;
    names[nv] = v->name;
    vals[nv++] = v->value;
  }
  return tfr_object(t->a, nv, names, vals);
}

/* Why assertion as cannot be decided offline because of what it refers
** to (a variable declared nowhere, a resource only a plan knows), or
** NULL. */
static const char *assertion_offline(struct runctx *rc, const struct module *m,
                                     const struct tassert *as, int line) {
  struct tctx *t = rc->t;
  for (int j = 0; j < 2; j++) {
    struct refs l = tt_refs_of(t->a, j ? as->msg : as->cond);
    for (size_t k = 0; k < l.n; k++) {
      const struct ref *rf = &l.v[k];
      if (tt_ref_root(rf, "local") || tt_ref_root(rf, "path") ||
          tt_ref_root(rf, "terraform"))
        continue;
      if (tt_ref_root(rf, "var") && rf->attr) {
        bool declared = tt_decl_index(m, rf->attr, rf->alen) >= 0;
        struct tval *tv = tt_winning(rc, rf->attr, rf->alen);
        if (declared || (tv && tv->value))
          continue;
        return tfr_arena_printf(t->a,
                                "the assertion on line %d refers to "
                                "var.%.*s, which neither the module nor "
                                "the test file declares",
                                line, (int)rf->alen, rf->attr);
      }
      return tfr_arena_printf(t->a,
                              "the assertion on line %d refers to %s, "
                              "which only a plan with providers can know",
                              line, tt_ref_text(t->a, rf));
    }
  }
  return NULL;
}

/* One assertion whose condition and message are known: pass, fail (with
** its message) or error (a condition that is no bool, a message that is
** no string). */
static enum tfr_test_status judge(struct runctx *rc, const struct tassert *as,
                                  const tfr_value *cond, const tfr_value *msg) {
  struct tctx *t = rc->t;
  tfr_diags *d = rc->out->diags;
  if (cond->flags & TFR_V_NULL) {
    tt_error_at(d, rc->f->src, as->cond->span, TFR_DIAG_ERROR,
                "Invalid condition run",
                "Condition expression must return either true or false, not "
                "null.");
    return TFR_TEST_ERROR;
  }
  const char *err = NULL;
  const tfr_value *b = conv_convert(t->a, cond, &tfr_t_bool, &err);
  if (!b) {
    tt_error_at(d, rc->f->src, as->cond->span, TFR_DIAG_ERROR,
                "Invalid condition run",
                tfr_arena_printf(t->a, "Invalid condition run value: %s.",
                                 err ? err : "bool required"));
    return TFR_TEST_ERROR;
  }
  if (b->b)
    return TFR_TEST_PASS;
  const char *text;
  const tfr_value *ms = conv_convert(t->a, msg, &tfr_t_string, &err);
  if (!ms || (ms->flags & TFR_V_NULL)) {
    tt_error_at(d, rc->f->src, as->msg->span, TFR_DIAG_ERROR,
                "Invalid error message",
                tfr_arena_printf(t->a,
                                 "Unsuitable value for error message: "
                                 "%s.",
                                 ms ? "value must not be null"
                                    : (err ? err : "string required")));
    text = "Failed to evaluate condition error message.";
  } else if (tfr_value_has_mark(ms, TFR_V_SENSITIVE)) {
    text = "The error message included a sensitive value, so it will not "
           "be displayed.";
  } else {
    text = tfr_arena_strndup(t->a, ms->s, ms->n);
  }
  tt_error_at(d, rc->f->src, as->cond->span, TFR_DIAG_ERROR,
              "Test assertion failed", text);
  return TFR_TEST_FAIL;
}

/* The assertions (EvaluateRun), those that refer only to what is known
** offline. */
enum tfr_test_status tt_assertions(struct runctx *rc,
                                   const struct tfr_resolution *res) {
  struct tctx *t = rc->t;
  struct trun *r = rc->r;
  const struct module *m = module_of(res->module);
  tfr_diags *d = rc->out->diags;
  if (!r->nasserts)
    return TFR_TEST_PASS;
  const tfr_value **mvals =
      tfr_arena_alloc(t->a, (m->nvars ? m->nvars : 1) * sizeof *mvals);
  const tfr_value *var = assertion_vars(rc, res, mvals);
  const struct eval_scope *inner = scope_module(t->a, m, mvals);
  enum tfr_test_status st = TFR_TEST_PASS;
  const char *unknown = NULL;
  for (size_t i = 0; i < r->nasserts; i++) {
    const struct tassert *as = &r->asserts[i];
    struct tfr_pos at = src_pos(rc->f->src, as->cond->span.start);
    const char *out = assertion_offline(rc, m, as, at.line);
    if (out) {
      if (!unknown)
        unknown = out;
      continue;
    }
    tfr_diags *scratch = tfr_diags_new(t->a);
    bool mfail, cfail;
    const tfr_value *msg = tt_eval_in_scope(
        t, scratch, rc->f->src, as->msg, var, NULL, inner, !r->apply, &mfail);
    const tfr_value *cond = tt_eval_in_scope(
        t, scratch, rc->f->src, as->cond, var, NULL, inner, !r->apply, &cfail);
    if (mfail || cfail) {
      tt_copy_all(d, scratch);
      st = tt_merge(st, TFR_TEST_ERROR);
      continue;
    }
    if (!tfr_value_is_wholly_known(cond) || !tfr_value_is_wholly_known(msg)) {
      if (!unknown)
        unknown = tfr_arena_printf(t->a,
                                   "the assertion on line %d depends on a "
                                   "value that cannot be known offline",
                                   at.line);
      continue;
    }
    tt_copy_all(d, scratch); /* warnings */
    st = tt_merge(st, judge(rc, as, cond, msg));
  }
  if (st == TFR_TEST_PASS && unknown)
    tt_offline(rc, unknown);
  return st;
}
