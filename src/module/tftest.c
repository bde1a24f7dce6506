/*
** `terraform test`, the part that needs no provider (issue 6): the test
** files of a module, each run block's variables resolved, converted and
** validated, and the outcome held against expect_failures and the
** assertions that refer only to values known offline.
**
** Terraform's rules, from internal/configs/test_file.go (the schema),
** internal/moduletest (expected failures, assertions, which runs are
** skipped) and internal/backend/local/test.go (file order, variables of
** the test directory):
**   - a run's values: its `variables` block, else the file's, else the
**     usual sources (TF_VAR_, tfvars files, -var, -var-file; for files in
**     the test directory its own tfvars files above those);
**   - command = plan: errors fail the run (Terraform's "error" status),
**     but failures of the validation rules of expect_failures variables
**     are swallowed, and one that does not happen is "Missing expected
**     failure"; then the assertions;
**   - command = apply (the default): any error during the plan fails the
**     run, expected or not ("Expected failure while planning"); an
**     expected failure that does not happen fails it too;
**   - after a run with errors, the later runs of the file are skipped.
**
** The values of a run reach the resolver as a variables file in memory
** (tfr_cli_arg.content) named after the test file: a copy of the test
** file with every byte blanked except the `name = value` lines used, so
** that bytes and lines are those of the test file and diagnostics point
** into it.  Values that need evaluating (function calls, var.*) are
** evaluated here and appended after the end as HCL; diagnostics there
** are moved back to the expression they came from.
**
** Terraform 1.13 added a test file's `variable` blocks and file-level
** variables that read earlier runs' outputs, and evaluates a file as a
** graph (internal/moduletest/graph): tftest_vars.c gives the variable
** blocks' values, the runs' outputs and the graph's cycles; a file-level
** variable is evaluated once, its errors the file's, and a run that uses
** a variable with errors is skipped.
**
** This file runs them (the suite, the global values, each run);
** tftest_file.c finds the test files and decodes them (tftest_int.h).
*/
#include "base/dirlist.h"
#include "tfresolve/tftest.h"
#include "base/heap.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diag_int.h"
#include "module/engine_tofu.h"
#include "eval/eval.h"
#include "eval/funcs.h"
#include "render/render.h"
#include "module/module.h"
#include "module/opts.h"
#include "base/strutil.h"
#include "module/tftest_int.h"
#include "module/scope.h"
#include "module/validate.h"

const char *tfr_test_status_name(enum tfr_test_status s) {
  static const char *const names[] = {"pending", "skip", "pass", "fail",
                                      "error"};
  return (unsigned)s < 5 ? names[s] : "pending";
}

enum tfr_test_status tt_merge(enum tfr_test_status a, enum tfr_test_status b) {
  return a > b ? a : b;
}

/* ---- reaching the elements of a suite ---------------------------------- */

/* With the library's sizeof, which a program's may be smaller than. */
const struct tfr_test_file *tfr_test_suite_file(const struct tfr_test_suite *s,
                                                size_t i) {
  return s && i < s->nfiles ? &s->files[i] : NULL;
}

const struct tfr_test_run *tfr_test_file_run(const struct tfr_test_file *f,
                                             size_t i) {
  return f && i < f->nruns ? &f->runs[i] : NULL;
}

/* ---- the options ------------------------------------------------------- */

/*
** The first sized layouts (tftest.h, resolution.h): a program's size
** below them is not one of ours.  They never change: later fields are
** appended past them.
*/
static const size_t test_opts_v1 = STRUCT_END(struct tfr_test_opts, opentofu);

/*
** A program's test options as this library's struct, in *out: the fields
** past the program's size at their defaults, and its args at this
** library's stride.  False, after an error diagnostic, when they cannot
** be read.
*/
static bool read_opts(tfr_arena *a, tfr_diags *diags,
                      const struct tfr_test_opts *o,
                      struct tfr_test_opts *out) {
  static const char *init = "TFR_TEST_OPTS_INIT";
  return opts_read(a, diags, out, sizeof *out, o, o ? o->size : 0, test_opts_v1,
                   "struct tfr_test_opts", init) &&
         opts_read_args(a, diags, &out->args, out->nargs, &out->arg_size, init);
}

/* ---- small helpers ----------------------------------------------------- */

static char *span_text(tfr_arena *a, struct src_file *src, struct span s) {
  return tfr_arena_strndup(a, src->text + s.start, s.end - s.start);
}

/* ---- the suite --------------------------------------------------------- */

long tt_decl_index(const struct module *m, const char *name, size_t n) {
  const struct var_decl *v = module_var(m, name, n);
  return v ? (long)(v - m->vars) : -1;
}

static bool same_diag(const struct tfr_diag *x, const struct tfr_diag *y) {
  return x->sev == y->sev && !strcmp(x->summary, y->summary) &&
         !strcmp(x->detail ? x->detail : "", y->detail ? y->detail : "") &&
         !strcmp(x->subject.filename ? x->subject.filename : "",
                 y->subject.filename ? y->subject.filename : "") &&
         x->subject.start.byte == y->subject.start.byte;
}

static void copy_diag(tfr_diags *out, const struct tfr_diag *g,
                      const struct tfr_range *subject) {
  tfr_diags_add(out, g->sev, subject && subject->filename ? subject : NULL,
                g->summary, g->detail);
  tfr_diags_set_code(out, g->code);
  if (g->variable)
    tfr_diags_set_variable(out, g->variable);
  if (g->hide_source)
    tfr_diags_hide_source(out);
  if (g->note)
    tfr_diags_set_note(out, g->note);
  if (g->ours)
    tfr_diags_set_ours(out);
}

void tt_copy_all(tfr_diags *out, const tfr_diags *in) {
  for (size_t i = 0; i < tfr_diags_count(in); i++) {
    const struct tfr_diag *g = tfr_diags_get(in, i);
    copy_diag(out, g, &g->subject);
  }
}

/* The values and the collecting problems of one group. */
static bool setup_globals(struct tctx *t, struct globals *g,
                          const struct tfr_cli_arg *args, size_t nargs) {
  g->args = args;
  g->nargs = nargs;
  size_t n = t->m->nvars ? t->m->nvars : 1;
  g->given = tfr_arena_alloc(t->a, n * sizeof *g->given);
  g->set = tfr_arena_alloc(t->a, n * sizeof *g->set);
  g->seen = tfr_diags_new(t->a);
  tfr_diags_share_sources(g->seen, t->load);
  /* collecting: files that do not parse, bad -var options */
  struct module copy = *t->m;
  copy.raws = NULL;
  copy.nraws = 0;
  struct collect_opts co = {.env = t->o->env, .args = args, .nargs = nargs};
  module_collect(&copy, t->a, g->seen, &co);
  if (tfr_diags_has_errors(g->seen))
    return false;
  tfr_diags *scratch = tfr_diags_new(t->a);
  struct tfr_resolve_opts ro = TFR_RESOLVE_OPTS_INIT;
  ro.dir = t->dir;
  ro.env = t->o->env;
  ro.args = args;
  ro.nargs = nargs;
  ro.opentofu = t->o->opentofu;
  ro.keep_given = true; /* run blocks start from the given values */
  const struct tfr_resolution *res =
      tfr_resolve_module(t->a, scratch, t->mod, &ro);
  for (size_t k = 0; k < res->n && k < t->m->nvars; k++) {
    g->given[k] = res->vars[k].given;
    g->set[k] = res->vars[k].nattempts > 0;
  }
  return true;
}

/* dir_list's keep: *.auto.tfvars and *.auto.tfvars.json. */
static bool auto_tfvars(const char *dir, const char *name, void *ctx) {
  (void)dir;
  (void)ctx;
  return str_ends_with(name, ".auto.tfvars") ||
         str_ends_with(name, ".auto.tfvars.json");
}

/* The test directory's terraform.tfvars and auto.tfvars files, as
** -var-file args after the command line's (they win over every other
** global value). */
static void test_dir_files(struct tctx *t, const char *test_dir,
                           const struct tfr_cli_arg *args, size_t nargs,
                           struct tfr_cli_arg **out, size_t *nout) {
  const char *tdir = tt_join(t->a, t->dir, test_dir);
  struct names files = {0};
  static const char *const fixed[] = {"terraform.tfvars",
                                      "terraform.tfvars.json"};
  for (int i = 0; i < 2; i++) {
    const char *p = tfr_arena_printf(t->a, "%s/%s", tdir, fixed[i]);
    struct stat st;
    if (stat(p, &st) == 0 && !S_ISDIR(st.st_mode))
      tt_names_add(t->a, &files, p);
  }
  size_t nautos = 0;
  const char **autos = dir_list(t->a, tdir, auto_tfvars, NULL, NULL, &nautos);
  for (size_t i = 0; i < nautos; i++) {
    const char *p = tfr_arena_printf(t->a, "%s/%s", tdir, autos[i]);
    struct stat st;
    if (stat(p, &st) == 0 && !S_ISDIR(st.st_mode))
      tt_names_add(t->a, &files, p);
  }
  struct tfr_cli_arg *v =
      tfr_arena_alloc(t->a, (nargs + files.n + 1) * sizeof *v);
  if (nargs)
    memcpy(v, args, nargs * sizeof *v);
  for (size_t i = 0; i < files.n; i++) {
    v[nargs + i].file = true;
    v[nargs + i].value = files.v[i];
  }
  *out = v;
  *nout = nargs + files.n;
}

/* ---- one run ----------------------------------------------------------- */

/* Where a test-file value is written: its expression, or the variable
** block (its DeclRange, which Terraform gives as the value's source:
** node_variable.go:73-77). */
static struct span val_span(const struct tval *v) {
  return v->def ? v->def->decl : v->attr->kids[0]->span;
}

void tt_offline(struct runctx *rc, const char *why) {
  if (!rc->skip)
    rc->skip = why;
}

static struct tval *find_val(struct runctx *rc, const char *name, size_t n,
                             bool run_level) {
  for (size_t i = 0; i < rc->nvals; i++)
    if (rc->vals[i].from_run == run_level && strlen(rc->vals[i].name) == n &&
        !memcmp(rc->vals[i].name, name, n))
      return &rc->vals[i];
  return NULL;
}

static const tfr_value *tlookup(void *ud, struct eval_ctx *c,
                                const struct ast *root, const char *name,
                                size_t len) {
  struct tscope *s = ud;
  if (len == 3 && !memcmp(name, "var", 3))
    return s->var;
  if (len == 3 && !memcmp(name, "run", 3) && s->run)
    return s->run;
  if (s->inner)
    return s->inner->lookup(s->inner->ud, c, root, name, len);
  return NULL;
}

const tfr_value *tt_eval_in_scope(struct tctx *t, tfr_diags *d,
                                  struct src_file *src, const struct ast *x,
                                  const tfr_value *var, const tfr_value *run,
                                  const struct eval_scope *inner, bool plan,
                                  bool *failed) {
  struct tscope s = {var, run, inner};
  struct eval_scope es = {tlookup, &s, NULL};
  struct eval_ctx c = {0};
  c.a = t->a;
  c.diags = d;
  c.src = src;
  c.scope = &es;
  c.funcs = &funcs_table;
  c.dir = t->dir;
  c.engine = engine_rules(t->o->opentofu)->eval;
  c.plan = plan;
  size_t before = tfr_diags_count(d);
  const tfr_value *v = eval_expr(&c, x);
  *failed = false;
  for (size_t i = before; i < tfr_diags_count(d); i++)
    *failed |= tfr_diags_get(d, i)->sev == TFR_DIAG_ERROR;
  return v;
}

static void eval_val(struct runctx *rc, struct tval *v);

/* The value of var.NAME for a test-file expression: a file-level value
** (for run-level expressions), else a global one; NULL when there is
** none. */
static const tfr_value *var_for(struct runctx *rc, const char *name, size_t n,
                                bool run_level, bool *avail, bool *global) {
  *avail = false;
  *global = false;
  if (run_level) {
    struct tval *fv = find_val(rc, name, n, false);
    if (fv && !fv->def) {
      *avail = true;
      eval_val(rc, fv);
      return fv->failed ? tfr_unknown(rc->t->a, &tfr_t_dynamic) : fv->value;
    }
  }
  /* a variable block's value, for both (GetVariable first:
  ** eval_context.go:227-231) */
  const struct tdef *d = tt_def(rc->f, name, n);
  if (d) {
    *avail = true;
    return d->failed ? tfr_unknown(rc->t->a, &tfr_t_dynamic) : d->value;
  }
  long k = tt_decl_index(rc->t->m, name, n);
  if (k >= 0 && rc->g->given[k]) {
    *avail = true;
    *global = true;
    return rc->g->given[k];
  }
  return NULL;
}

/* The index of rc's run in its file; the number of runs for the file's
** own values, which come after them (r NULL). */
static size_t run_index(const struct runctx *rc) {
  return rc->r ? (size_t)(rc->r - rc->f->runs) : rc->f->nruns;
}

/* A reference to run.NAME in a run's or the file's variables: the
** outputs of an earlier run (HclContext, eval_context.go:186-225), which
** a file-level variable waits for (Terraform 1.13: node_variable.go:
** 100-116).  False, after an error or with a reason the run is offline,
** when there is no value. */
static bool run_output_ref(struct runctx *rc, const struct tval *v,
                           const struct ref *r, tfr_diags *d) {
  struct tctx *t = rc->t;
  const struct tfile *f = rc->f;
  size_t j = 0;
  while (j < f->nruns && (strlen(f->runs[j].name) != r->alen ||
                          memcmp(f->runs[j].name, r->attr, r->alen)))
    j++;
  const char *rn = tfr_arena_strndup(t->a, r->attr, r->alen);
  if (j == f->nruns) {
    tt_error_at(d, f->src, r->span, TFR_DIAG_ERROR,
                "Reference to unknown run block",
                tfr_arena_printf(t->a,
                                 "The run block \"%s\" does not exist within "
                                 "this test file.",
                                 rn));
    return false;
  }
  const struct touts *o = &t->outs[j];
  /* OpenTofu reads them from the runs' states (command/test.go:1178-1210),
  ** which tfresolve does not model */
  bool later = j >= run_index(rc);
  if (later || !o->have ||
      !engine_rules(t->o->opentofu)->test_run_outputs_from_config) {
    /* a later run (parallel runs wait for it), or one skipped offline */
    tt_offline(rc,
               tfr_arena_printf(t->a,
                                "the value of \"%s\" is %s, an output "
                                "of %s run block, which only a plan with "
                                "providers produces",
                                v->name, span_text(t->a, f->src, val_span(v)),
                                later ? "a later" : "an earlier"));
    return false;
  }
  for (size_t k = 0; r->attr2 && k < o->n; k++)
    if (strlen(o->names[k]) == r->alen2 &&
        !memcmp(o->names[k], r->attr2, r->alen2) && !o->vals[k]) {
      tt_offline(rc, tfr_arena_printf(t->a,
                                      "the value of \"%s\" reads run.%s.%s, an "
                                      "output that only a plan with providers "
                                      "knows",
                                      v->name, rn, o->names[k]));
      return false;
    }
  return true;
}

/* run.*: the outputs of the runs before rc's that produced them. */
static const tfr_value *runs_object(struct runctx *rc) {
  struct tctx *t = rc->t;
  size_t n = run_index(rc), nv = 0;
  const char **names = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *names);
  const tfr_value **vals = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *vals);
  for (size_t j = 0; j < n; j++)
    if (t->outs[j].have) {
      names[nv] = rc->f->runs[j].name;
      vals[nv++] = tt_outputs_object(t->a, &t->outs[j]);
    }
  return tfr_object(t->a, nv, names, vals);
}

/* Evaluate a test-file value as GetVariables does: references checked
** first, then the expression with functions and var.*. */
static void eval_one(struct runctx *rc, struct tval *v, tfr_diags *d) {
  v->evaluated = true;
  struct tctx *t = rc->t;
  struct src_file *src = rc->f->src;
  const struct ast *x = v->attr->kids[0];
  struct refs l = tt_refs_of(t->a, x);
  v->constant = !l.n && !l.calls;
  const char **names = tfr_arena_alloc(t->a, (l.n ? l.n : 1) * sizeof *names);
  const tfr_value **vals =
      tfr_arena_alloc(t->a, (l.n ? l.n : 1) * sizeof *vals);
  size_t nv = 0;
  bool bad = false, runs = false;
  for (size_t i = 0; i < l.n; i++) {
    const struct ref *r = &l.v[i];
    if (tt_ref_root(r, "run") && r->attr) {
      runs = true;
      bad |= !run_output_ref(rc, v, r, d);
      continue;
    }
    if (tt_ref_root(r, "var") && r->attr) {
      bool avail, global;
      const tfr_value *val =
          var_for(rc, r->attr, r->alen, v->from_run, &avail, &global);
      if (global && engine_rules(t->o->opentofu)->test_global_warning)
        tt_error_at(
            d, src, r->span, TFR_DIAG_WARNING,
            "Variable referenced without definition",
            tfr_arena_printf(
                t->a,
                "Variable \"%.*s\" was referenced without providing a "
                "definition. Referencing undefined variables within Terraform "
                "Test files is deprecated, please add a `variable` block into "
                "the relevant test file to provide a definition for the "
                "variable. This will become required in future versions of "
                "Terraform.",
                (int)r->alen, r->attr));
      if (!avail) { /* eval_context.go:239-245 */
        tt_error_at(d, src, r->span, TFR_DIAG_ERROR,
                    "Reference to unavailable variable",
                    tfr_arena_printf(t->a,
                                     "The input variable \"%.*s\" does not "
                                     "exist within this test file.",
                                     (int)r->alen, r->attr));
        bad = true;
        continue;
      }
      bool dup = false;
      for (size_t k = 0; k < nv; k++)
        dup |=
            strlen(names[k]) == r->alen && !memcmp(names[k], r->attr, r->alen);
      if (!dup) {
        names[nv] = tfr_arena_strndup(t->a, r->attr, r->alen);
        vals[nv++] = val;
      }
      continue;
    }
    tt_error_at(d, src, r->span, TFR_DIAG_ERROR, "Invalid reference",
                "You can only reference run blocks and variables from within "
                "Terraform Test files."); /* eval_context.go:247-253 */
    bad = true;
  }
  if (bad) {
    v->failed = true;
    return;
  }
  bool failed;
  const tfr_value *val =
      tt_eval_in_scope(t, d, src, x, tfr_object(t->a, nv, names, vals),
                       runs ? runs_object(rc) : NULL, NULL, false, &failed);
  if (failed) {
    v->failed = true;
    return;
  }
  v->value = val;
}

/* The file-level value named as v, or NULL. */
static struct tvar *file_tvar(const struct tfile *f, const char *name) {
  for (size_t i = 0; i < f->vars.n; i++)
    if (!strcmp(f->vars.v[i].name, name))
      return &f->vars.v[i];
  return NULL;
}

/* eval_one, once for the file's values: their errors go to the file, and
** each run that uses them reads what the first found. */
static void eval_val(struct runctx *rc, struct tval *v) {
  if (v->evaluated)
    return;
  struct tvar *fv = v->from_run || v->def ? NULL : file_tvar(rc->f, v->name);
  if (!fv) {
    eval_one(rc, v, rc->pre);
    return;
  }
  if (!fv->done) {
    const char *before = rc->skip;
    rc->skip = NULL;
    eval_one(rc, v, rc->t->fdiags);
    fv->done = true;
    fv->why = rc->skip;
    fv->errors = v->failed && !fv->why;
    fv->constant = v->constant;
    fv->value = v->failed ? NULL : v->value;
    rc->skip = before;
  }
  v->evaluated = true;
  v->constant = fv->constant;
  v->value = fv->value;
  v->failed = !fv->value;
  if (fv->why)
    tt_offline(rc, fv->why);
}

/* Every value the run needs from the test file, in source order: the
** run's block, then the file's values it does not override. */
static void gather(struct runctx *rc) {
  struct tctx *t = rc->t;
  size_t n = rc->r->vars.n + rc->f->vars.n + rc->f->ndefs;
  rc->vals = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *rc->vals);
  for (int level = 0; level < 2; level++) { /* the run's, the file's */
    const struct tvars *vs = level ? &rc->f->vars : &rc->r->vars;
    for (size_t i = 0; i < vs->n; i++) {
      const struct tvar *tv = &vs->v[i];
      rc->vals[rc->nvals++] = (struct tval){
          tv->name, tv->attr,
          !level,   tt_decl_index(t->m, tv->name, strlen(tv->name)),
          false,    false,
          NULL,     false,
          NULL};
    }
  }
  /* the variable blocks' values, evaluated once for the file */
  for (size_t i = 0; i < rc->f->ndefs; i++) {
    const struct tdef *d = &rc->f->defs[i];
    rc->vals[rc->nvals++] = (struct tval){
        d->name, NULL, false,    tt_decl_index(t->m, d->name, strlen(d->name)),
        false,   true, d->value, d->failed,
        d};
  }
}

/* The value a declared or test-only variable gets from the test file. */
struct tval *tt_winning(struct runctx *rc, const char *name, size_t n) {
  struct tval *v = find_val(rc, name, n, true);
  return v ? v : find_val(rc, name, n, false);
}

/* Names the assertions refer to as var.NAME. */
static bool assert_refers(struct runctx *rc, const char *name) {
  for (size_t i = 0; i < rc->r->nasserts; i++) {
    const struct ast *xs[2] = {rc->r->asserts[i].cond, rc->r->asserts[i].msg};
    for (int j = 0; j < 2; j++) {
      struct refs l = tt_refs_of(rc->t->a, xs[j]);
      for (size_t k = 0; k < l.n; k++)
        if (tt_ref_root(&l.v[k], "var") && l.v[k].attr &&
            l.v[k].alen == strlen(name) &&
            !memcmp(l.v[k].attr, name, l.v[k].alen))
          return true;
    }
  }
  return false;
}

/* GetVariables: evaluate what the run uses; warn about run values the
** module does not declare; require the required ones. */
static void get_variables(struct runctx *rc) {
  struct tctx *t = rc->t;
  for (size_t i = 0; i < rc->nvals; i++) {
    struct tval *v = &rc->vals[i];
    if (!v->from_run)
      continue;
    eval_val(rc, v);
    if (v->decl < 0 && !assert_refers(rc, v->name)) {
      tt_error_at(rc->pre, rc->f->src, v->attr->kids[0]->span, TFR_DIAG_WARNING,
                  "Value for undeclared variable",
                  tfr_arena_printf(t->a,
                                   "The module under test does not declare a "
                                   "variable named \"%s\", but it is declared "
                                   "in run block \"%s\".",
                                   v->name, rc->r->name));
      tfr_diags_set_code(rc->pre, TFR_CODE_UNDECLARED_VALUE);
    }
  }
  for (size_t i = 0; i < rc->nvals; i++) {
    struct tval *v = &rc->vals[i];
    if (v->from_run || find_val(rc, v->name, strlen(v->name), true))
      continue;
    if (v->decl >= 0 || assert_refers(rc, v->name))
      eval_val(rc, v);
  }
  for (size_t k = 0; k < t->m->nvars; k++) {
    const struct var_decl *d = &t->m->vars[k];
    if (d->has_default || rc->g->set[k] ||
        tt_winning(rc, d->name, strlen(d->name)))
      continue;
    tfr_diags_add(rc->pre, TFR_DIAG_ERROR, &d->decl,
                  "No value for required variable",
                  tfr_arena_printf(t->a,
                                   "The module under test for run block "
                                   "\"%s\" has a required variable \"%s\" "
                                   "with no set value. Use a -var or "
                                   "-var-file command line argument or add "
                                   "this variable into a \"variables\" "
                                   "block within the test file or run "
                                   "block.",
                                   rc->r->name, d->name));
    tfr_diags_set_variable(rc->pre, d->name);
  }
}

/* A place in the variables text that holds an evaluated value. */
struct moved {
  uint32_t at, end; /* in the text */
  struct span orig; /* the expression in the test file */
};

struct content {
  char *text;
  size_t len;
  struct moved *moved;
  size_t nmoved;
};

/* A list, set or map anywhere in t: what a value written as HCL turns
** into a tuple or an object. */
static bool has_collection(const tfr_type *t) {
  switch (t->kind) {
  case TFR_LIST:
  case TFR_SET:
  case TFR_MAP:
    return true;
  case TFR_OBJECT:
  case TFR_TUPLE:
    for (uint32_t i = 0; i < t->n; i++)
      if (has_collection(t->types[i]))
        return true;
    return false;
  default:
    return false;
  }
}

/* The run's values as a variables file in memory (see the top). */
static struct content build_content(struct runctx *rc) {
  struct tctx *t = rc->t;
  struct src_file *src = rc->f->src;
  size_t L = src->len;
  struct sbuf tail = {0};
  struct content c = {0};
  c.moved =
      tfr_arena_alloc(t->a, (rc->nvals ? rc->nvals : 1) * sizeof *c.moved);
  bool *keep = heap_calloc(L ? L : 1, 1);
  for (size_t i = 0; i < rc->nvals; i++) {
    struct tval *v = &rc->vals[i];
    if (v->decl < 0 || v->failed ||
        tt_winning(rc, v->name, strlen(v->name)) != v)
      continue;
    const struct var_decl *vd = &t->m->vars[v->decl];
    if (v->def && ((v->def->sensitive && !vd->sensitive) ||
                   (v->def->ephemeral && !vd->ephemeral))) {
      /* its mark would go with the value into the module: fail closed */
      tt_offline(
          rc, tfr_arena_printf(t->a,
                               "var.%s of the test file is %s, and "
                               "tfresolve cannot carry that into the "
                               "module's variable, which is not",
                               v->name,
                               v->def->sensitive ? "sensitive" : "ephemeral"));
      continue;
    }
    if (v->constant) {
      memset(keep + v->attr->span.start, 1,
             v->attr->span.end - v->attr->span.start);
      continue;
    }
    if (tfr_type_has_dynamic(t->m->vars[v->decl].type) &&
        has_collection(v->value->type)) {
      /* written out as HCL, a list would arrive as a tuple, and `any`
      ** would keep that */
      tt_offline(
          rc, tfr_arena_printf(t->a,
                               "the value of \"%s\" is a %s, which "
                               "tfresolve can pass on only as written "
                               "in HCL (a tuple or an object), and the "
                               "variable's type (%s) would keep that",
                               v->name, tfr_type_friendly(t->a, v->value->type),
                               tfr_type_expr(t->a, t->m->vars[v->decl].type)));
      continue;
    }
    const char *hcl = render_hcl(t->a, v->value);
    size_t at = L + 1 + tail.n;
    sbuf_str(&tail, v->name);
    sbuf_str(&tail, " = ");
    at += strlen(v->name) + 3;
    sbuf_str(&tail, hcl);
    c.moved[c.nmoved++] =
        (struct moved){(uint32_t)at, (uint32_t)(at + strlen(hcl)), val_span(v)};
    sbuf_str(&tail, "\n");
  }
  c.len = L + 1 + tail.n;
  c.text = tfr_arena_alloc_raw(t->a, c.len + 1);
  for (size_t i = 0; i < L; i++) {
    char ch = src->text[i];
    c.text[i] = keep[i] || ch == '\n'                                 ? ch
                : ch == '\r' && i + 1 < L && src->text[i + 1] == '\n' ? '\r'
                                                                      : ' ';
  }
  c.text[L] = '\n';
  if (tail.n)
    memcpy(c.text + L + 1, tail.p, tail.n);
  c.text[c.len] = '\0';
  free(tail.p);
  free(keep);
  return c;
}

/* A diagnostic's range in the variables text, as a range of the test
** file. */
static struct tfr_range real_range(struct runctx *rc, const struct content *c,
                                   const struct tfr_range *r) {
  struct src_file *src = rc->f->src;
  if (!r->filename || strcmp(r->filename, src->name))
    return *r;
  if (r->start.byte > src->len) {
    for (size_t i = 0; i < c->nmoved; i++)
      if (r->start.byte >= c->moved[i].at && r->start.byte <= c->moved[i].end)
        return src_range(src, c->moved[i].orig);
    return src_range(src, (struct span){0, 0});
  }
  struct tfr_range out = *r;
  out.filename = src->name;
  out.start = src_pos(src, (uint32_t)r->start.byte);
  out.end = src_pos(
      src, (uint32_t)(r->end.byte <= src->len ? r->end.byte : src->len));
  return out;
}

static bool dropped(const struct tfr_diag *g, const struct globals *gl) {
  /* Terraform's test command parses only the global values a run needs:
  ** no word about the others */
  if (g->sev == TFR_DIAG_WARNING &&
      (g->code == TFR_CODE_UNDECLARED_VALUE ||
       g->code == TFR_CODE_ENV_NAME_CASE ||
       /* this tool's; the run is skipped or failed for other reasons */
       g->code == TFR_CODE_RULE_DEFERRED))
    return true;
  for (size_t i = 0; i < tfr_diags_count(gl->seen); i++)
    if (same_diag(g, tfr_diags_get(gl->seen, i)))
      return true; /* shown once, before the files */
  return false;
}

/* Did the resolution get to the values (Terraform's plan), rather than
** stop at errors in the values as written (GetVariables, validate)? */
static bool reached_plan(const struct tfr_resolution *res,
                         const tfr_diags *rd) {
  for (size_t k = 0; k < res->n; k++)
    if (res->vars[k].value)
      return true;
  for (size_t i = 0; i < tfr_diags_count(rd); i++) {
    const struct tfr_diag *g = tfr_diags_get(rd, i);
    if (g->sev == TFR_DIAG_ERROR &&
        (g->code == TFR_CODE_INVALID_INPUT ||
         g->code == TFR_CODE_REQUIRED_NOT_SET || tt_is_rule_failure(g, res)))
      return true;
  }
  return res->n == 0;
}

/* The plan's diagnostics sorted: keep[i] for those the run reports (not
** dropped, not an expected failure of a plan), subj[i] with the test
** file's ranges, found[e] for each expected failure that happened;
** whether any kept one is an error. */
static bool sort_plan_diags(struct runctx *rc, const struct tfr_resolution *res,
                            const tfr_diags *rd, const struct content *c,
                            bool *keep, struct tfr_range *subj, bool *found) {
  struct trun *r = rc->r;
  bool errors = false;
  for (size_t i = 0; i < tfr_diags_count(rd); i++) {
    const struct tfr_diag *g = tfr_diags_get(rd, i);
    keep[i] = !dropped(g, rc->g);
    subj[i] = real_range(rc, c, &g->subject);
    if (!keep[i])
      continue;
    if (tt_is_rule_failure(g, res)) {
      long e = tt_expected_var(r, g->variable);
      if (e >= 0) {
        found[e] = true;
        if (!r->apply) {
          keep[i] = false; /* an expected failure: swallowed */
          continue;
        }
      }
    }
    errors |= g->sev == TFR_DIAG_ERROR;
  }
  return errors;
}

/* Why the run cannot be decided offline (a deferred rule, an expected
** failure only a plan can report), or NULL. */
static const char *run_offline(struct runctx *rc,
                               const struct tfr_resolution *res) {
  struct tctx *t = rc->t;
  struct trun *r = rc->r;
  const char *why = NULL;
  for (size_t k = 0; k < res->n && !why; k++)
    why = tt_deferred(t->a, &res->vars[k]);
  for (size_t e = 0; e < r->nexpect && !why; e++)
    if (!tt_ref_root(&r->expect_refs[e], "var"))
      why = tfr_arena_printf(t->a,
                             "it expects a failure from %s, which only a "
                             "plan with providers can report",
                             tt_ref_text(t->a, &r->expect_refs[e]));
  return why;
}

/* An apply run whose plan failed, expected or not (Terraform's
** ExplainExpectedFailures): the apply never ran; the run is an error. */
static void plan_failed_apply(struct runctx *rc,
                              const struct tfr_resolution *res,
                              const tfr_diags *rd, const bool *keep,
                              const struct tfr_range *subj, bool *found) {
  struct tctx *t = rc->t;
  struct trun *r = rc->r;
  tfr_diags *d = rc->out->diags;
  for (size_t i = 0; i < tfr_diags_count(rd); i++) {
    const struct tfr_diag *g = tfr_diags_get(rd, i);
    if (!keep[i])
      continue;
    if (tt_is_rule_failure(g, res) && tt_expected_var(r, g->variable) >= 0)
      tfr_diags_add(d, TFR_DIAG_WARNING, NULL,
                    "Expected failure while planning",
                    tfr_arena_printf(t->a,
                                     "A custom condition within var.%s "
                                     "failed during the planning stage "
                                     "and prevented the requested apply "
                                     "operation. While this was an "
                                     "expected failure, the apply "
                                     "operation could not be executed and "
                                     "so the overall test case will be "
                                     "marked as a failure and the "
                                     "original diagnostic included in the "
                                     "test report.",
                                     g->variable));
    copy_diag(d, g, &subj[i]);
  }
  if (r->nmsgs)
    tt_check_messages(rc, res, found);
  rc->out->status = TFR_TEST_ERROR;
}

/* Expected failures that did not happen (ValidateExpectedFailures), each
** an error; whether any.  One that might fail offline gives *why. */
static bool missing_failures(struct runctx *rc,
                             const struct tfr_resolution *res,
                             const bool *found, const char **why) {
  struct tctx *t = rc->t;
  struct trun *r = rc->r;
  bool missing = false;
  for (size_t e = 0; e < r->nexpect; e++) {
    const struct ref *er = &r->expect_refs[e];
    if (!tt_ref_root(er, "var") || found[e])
      continue;
    const char *dw = tt_deferred(t->a, tt_res_var(res, er->attr, er->alen));
    if (dw) { /* it might fail: cannot tell */
      if (!*why)
        *why = dw;
      continue;
    }
    tt_error_at(rc->out->diags, rc->f->src, er->span, TFR_DIAG_ERROR,
                "Missing expected failure",
                tfr_arena_printf(t->a,
                                 "The checkable object, var.%.*s, was "
                                 "expected to report an error but did not.",
                                 (int)er->alen, er->attr));
    missing = true;
  }
  return missing;
}

/* Decide one run that got as far as resolving its variables. */
static void decide(struct runctx *rc, const struct tfr_resolution *res,
                   tfr_diags *rd, const struct content *c) {
  struct tctx *t = rc->t;
  struct trun *r = rc->r;
  struct tfr_test_run *out = rc->out;
  bool *found =
      tfr_arena_alloc(t->a, (r->nexpect ? r->nexpect : 1) * sizeof *found);
  /* the plan's diagnostics, with the test file's ranges */
  size_t n = tfr_diags_count(rd);
  struct tfr_range *subj = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *subj);
  bool *keep = tfr_arena_alloc(t->a, n ? n : 1);
  bool errors = sort_plan_diags(rc, res, rd, c, keep, subj, found);
  const char *why = run_offline(rc, res);
  if (r->apply && errors) {
    plan_failed_apply(rc, res, rd, keep, subj, found);
    return;
  }
  for (size_t i = 0; i < n; i++)
    if (keep[i])
      copy_diag(out->diags, tfr_diags_get(rd, i), &subj[i]);
  bool missing =
      reached_plan(res, rd) && missing_failures(rc, res, found, &why);
  if (errors) { /* a plan with errors that were not expected */
    out->status = TFR_TEST_ERROR;
    return;
  }
  if (missing) {
    /* a plan reports it as an error, an apply as a failure */
    out->status = r->apply ? TFR_TEST_FAIL : TFR_TEST_ERROR;
    return;
  }
  if (why) {
    tt_offline(rc, why);
    return;
  }
  enum tfr_test_status st = TFR_TEST_PASS;
  if (r->nmsgs)
    st = tt_check_messages(rc, res, found);
  st = tt_merge(st, tt_assertions(rc, res));
  out->status = st;
}

/* Terraform skips a run when a run it comes after did not complete. */
static bool prior_failed(const struct tfile *f, const struct trun *runs,
                         const struct tfr_test_run *done, size_t i) {
  const struct trun *r = &runs[i];
  bool parallel = r->parallel >= 0 ? r->parallel == 1 : f->parallel;
  const char *key = r->state_key                        ? r->state_key
                    : r->has_module && r->module_source ? r->module_source
                                                        : "";
  bool same_seen = false;
  for (size_t j = i; j-- > 0;) {
    const struct trun *p = &runs[j];
    const char *pk = p->state_key                        ? p->state_key
                     : p->has_module && p->module_source ? p->module_source
                                                         : "";
    bool prior = !parallel;
    if (!same_seen && !strcmp(pk, key)) {
      prior = true;
      same_seen = true;
    }
    if (prior && (done[j].status == TFR_TEST_ERROR ||
                  (done[j].status == TFR_TEST_SKIP && !done[j].offline)))
      return true;
  }
  return false;
}

/* A file-level value the run used that has errors (the file's), as the
** reason the run is skipped, or NULL. */
static const char *failed_file_value(struct runctx *rc) {
  for (size_t i = 0; i < rc->nvals; i++) {
    const struct tval *v = &rc->vals[i];
    const struct tvar *fv =
        v->from_run || v->def ? NULL : file_tvar(rc->f, v->name);
    if (fv && fv->done && fv->errors && v->evaluated)
      return tfr_arena_printf(rc->t->a,
                              "it uses var.%s, whose value has errors, and "
                              "Terraform skips the runs that use it",
                              v->name);
  }
  return NULL;
}

/* The outputs of run i, which completed (EvaluateRun's outputVals,
** eval_context.go:412-427). */
static void keep_outputs(struct tctx *t, const struct tfr_resolution *res,
                         size_t i) {
  const struct module *m = module_of(res->module);
  const tfr_value **vals =
      tfr_arena_alloc(t->a, (m->nvars ? m->nvars : 1) * sizeof *vals);
  for (size_t k = 0; k < m->nvars && k < res->n; k++)
    vals[k] = res->vars[k].value;
  t->outs[i] = tt_run_outputs(t->a, m, vals, t->dir, t->o->opentofu);
}

/* The module resolved with the run's values (c: its variables as a
** values file, after the command's), what it says in rd. */
static const struct tfr_resolution *
resolve_run(struct runctx *rc, const struct content *c, tfr_diags *rd) {
  struct tctx *t = rc->t;
  const struct globals *g = rc->g;
  struct tfr_cli_arg *args =
      tfr_arena_alloc(t->a, (g->nargs + 1) * sizeof *args);
  if (g->nargs)
    memcpy(args, g->args, g->nargs * sizeof *args);
  args[g->nargs].file = true;
  args[g->nargs].value = rc->f->src->name;
  args[g->nargs].content = c->text;
  args[g->nargs].content_len = c->len;
  struct tfr_resolve_opts ro = TFR_RESOLVE_OPTS_INIT;
  ro.dir = t->dir;
  ro.env = t->o->env;
  ro.args = args;
  ro.nargs = g->nargs + 1;
  ro.opentofu = t->o->opentofu;
  ro.keep_given = true; /* run blocks start from the given values */
  tfr_diags_share_sources(rd, t->load);
  const struct tfr_resolution *res = tfr_resolve_module(t->a, rd, t->mod, &ro);
  tfr_diags_share_sources(rc->out->diags, rd);
  return res;
}

static void run_one(struct tctx *t, struct tfile *f, size_t i,
                    struct tfr_test_run *done) {
  struct trun *r = &f->runs[i];
  struct tfr_test_run *out = &done[i];
  out->name = r->name;
  out->apply = r->apply;
  out->decl = src_range(f->src, r->def);
  out->diags = tfr_diags_new(t->a);
  tfr_diags_share_sources(out->diags, t->load);
  tfr_diags_add_source(out->diags, f->src->name, f->src->text, f->src->len);
  if (f->parsed_in)
    diags_share_blocks(out->diags, f->parsed_in);
  if (prior_failed(f, f->runs, done, i)) {
    out->status = TFR_TEST_SKIP;
    out->skip_reason = "an earlier run block of this file failed with "
                       "errors, and Terraform skips the runs after it";
    return;
  }
  struct runctx rc = {0};
  rc.t = t;
  rc.f = f;
  rc.r = r;
  rc.out = out;
  rc.g = f->in_test_dir ? &t->testdir : &t->main;
  rc.pre = tfr_diags_new(t->a);
  bool off;
  const char *why = tt_blocked(t->a, f, t->m, i, done, &off);
  if (why) {
    out->status = TFR_TEST_SKIP;
    out->offline = off;
    out->skip_reason = why;
    return;
  }
  if (r->has_module) {
    out->status = TFR_TEST_SKIP;
    out->offline = true;
    out->skip_reason = tfr_arena_printf(
        t->a,
        "it runs the module \"%s\" (a module block), which only a "
        "plan with providers runs",
        r->module_source ? r->module_source : "?");
    return;
  }
  gather(&rc);
  get_variables(&rc);
  why = failed_file_value(&rc);
  if (why) { /* ReferencesCompleted, eval_context.go:676-682 */
    out->status = TFR_TEST_SKIP;
    out->skip_reason = why;
    return;
  }
  if (tfr_diags_has_errors(rc.pre)) {
    tt_copy_all(out->diags, rc.pre);
    out->status = TFR_TEST_ERROR;
    return;
  }
  if (rc.skip) {
    out->status = TFR_TEST_SKIP;
    out->offline = true;
    out->skip_reason = rc.skip;
    return;
  }
  tt_copy_all(out->diags, rc.pre);
  struct content c = build_content(&rc);
  if (rc.skip) {
    out->status = TFR_TEST_SKIP;
    out->offline = true;
    out->skip_reason = rc.skip;
    return;
  }
  tfr_diags *rd = tfr_diags_new(t->a);
  const struct tfr_resolution *res = resolve_run(&rc, &c, rd);
  decide(&rc, res, rd, &c);
  if (rc.skip && out->status <= TFR_TEST_PASS) {
    out->status = TFR_TEST_SKIP;
    out->offline = true;
    out->skip_reason = rc.skip;
  }
  if (out->status == TFR_TEST_PASS || out->status == TFR_TEST_FAIL)
    keep_outputs(t, res, i); /* for run.NAME in the file's variables */
  /* last, so that excerpts quote the test file, not the values text */
  tfr_diags_add_source(out->diags, f->src->name, f->src->text, f->src->len);
  if (f->parsed_in)
    diags_share_blocks(out->diags, f->parsed_in);
}

/* The file's values that no run used: Terraform evaluates them too
** (each a node of the file's graph), after every run they may read. */
static void settle_file_values(struct tctx *t, struct tfile *f) {
  struct runctx rc = {0};
  rc.t = t;
  rc.f = f;
  rc.r = NULL; /* after every run */
  rc.g = f->in_test_dir ? &t->testdir : &t->main;
  rc.pre = t->fdiags;
  for (size_t i = 0; i < f->vars.n; i++) {
    const struct tvar *tv = &f->vars.v[i];
    if (tv->done)
      continue;
    struct tval v = {0};
    v.name = tv->name;
    v.attr = tv->attr;
    v.decl = tt_decl_index(t->m, tv->name, strlen(tv->name));
    eval_val(&rc, &v);
  }
}

/* A file whose runs have static errors: those runs are errors, the
** others do not run (renderPreWalkDiags). */
static bool static_errors(tfr_arena *a, struct tfile *f,
                          struct tfr_test_run *done, tfr_diags *load,
                          bool cycles) {
  bool any = cycles;
  for (size_t i = 0; i < f->nruns; i++) {
    tt_validate_run(a, f, &f->runs[i]);
    any |= tfr_diags_has_errors(f->runs[i].static_diags);
  }
  if (!any)
    return false;
  for (size_t i = 0; i < f->nruns; i++) {
    struct tfr_test_run *out = &done[i];
    out->name = f->runs[i].name;
    out->apply = f->runs[i].apply;
    out->decl = src_range(f->src, f->runs[i].def);
    out->diags = tfr_diags_new(a);
    tfr_diags_share_sources(out->diags, load);
    tt_copy_all(out->diags, f->runs[i].static_diags);
    tfr_diags_add_source(out->diags, f->src->name, f->src->text, f->src->len);
    if (f->parsed_in)
      diags_share_blocks(out->diags, f->parsed_in);
    out->status = tfr_diags_has_errors(f->runs[i].static_diags)
                      ? TFR_TEST_ERROR
                      : TFR_TEST_PENDING;
  }
  return true;
}

static void run_file(struct tctx *t, struct tfile *f,
                     struct tfr_test_file *out) {
  struct tfr_test_run *done =
      tfr_arena_alloc(t->a, (f->nruns ? f->nruns : 1) * sizeof *done);
  out->runs = done;
  out->nruns = f->nruns;
  out->diags = tfr_diags_new(t->a);
  out->status = f->nruns ? TFR_TEST_SKIP : TFR_TEST_PASS;
  if (f->json) {
    for (size_t i = 0; i < f->nruns; i++) {
      done[i].name = f->runs[i].name;
      done[i].status = TFR_TEST_SKIP;
      done[i].offline = true;
      done[i].skip_reason = "JSON test files are not read offline yet";
      done[i].diags = tfr_diags_new(t->a);
    }
    return;
  }
  if (!f->nruns)
    return; /* passes, before any graph (backend/local/test.go:272-275) */
  tfr_diags_share_sources(out->diags, t->load);
  tfr_diags_add_source(out->diags, f->src->name, f->src->text, f->src->len);
  if (f->parsed_in)
    diags_share_blocks(out->diags, f->parsed_in);
  /* the graph: its cycles stop the file (TestFileRunner.Test,
  ** backend/local/test.go:310-314) */
  bool cycles = engine_rules(t->o->opentofu)->test_variable_blocks &&
                tt_cycles(t->a, f, t->m, out->diags);
  if (static_errors(t->a, f, done, t->load, cycles)) {
    out->status = TFR_TEST_ERROR;
    return;
  }
  struct globals *g = f->in_test_dir ? &t->testdir : &t->main;
  tfr_diags_share_sources(out->diags, g->values_seen);
  tt_eval_defs(t->a, f, g->values, out->diags);
  if (tfr_diags_has_errors(out->diags))
    out->status = TFR_TEST_ERROR; /* File.AppendDiagnostics */
  t->outs = tfr_arena_alloc(t->a, (f->nruns ? f->nruns : 1) * sizeof *t->outs);
  t->fdiags = out->diags;
  for (size_t i = 0; i < f->nruns; i++) {
    run_one(t, f, i, done);
    out->status = tt_merge(out->status, done[i].status);
  }
  settle_file_values(t, f);
  if (tfr_diags_has_errors(out->diags)) /* File.AppendDiagnostics */
    out->status = TFR_TEST_ERROR;
}

/* A suite that stops before any run: an error. */
static const struct tfr_test_suite *stopped(struct tfr_test_suite *suite) {
  suite->fatal = true;
  suite->status = TFR_TEST_ERROR;
  return suite;
}

/* The module under test: loaded (its problems the suite's), and its
** declarations. */
static void load_module(struct tctx *t) {
  t->load = tfr_diags_new(t->a);
  t->mod = tfr_module_load(t->a, t->load, t->dir, t->o->opentofu);
  tt_copy_all(t->suite->diags, t->load);
  tfr_diags_share_sources(t->suite->diags, t->load);
  struct tfr_resolve_opts ro = TFR_RESOLVE_OPTS_INIT;
  ro.declarations_only = true;
  tfr_diags *scratch = tfr_diags_new(t->a);
  t->m = module_of(tfr_resolve_module(t->a, scratch, t->mod, &ro)->module);
}

/* The global values, for the files of the test directory too when one
** needs them (its own var files on top); whether they are usable.  -var
** for undeclared names are not used by tests. */
/* Is name (n bytes) declared by the module, or (blocks) by a variable
** block of one of the files? */
static bool declared(const struct tctx *t, const struct tfile *files,
                     size_t nfiles, const char *name, size_t n, bool blocks) {
  if (tt_decl_index(t->m, name, n) >= 0)
    return true;
  for (size_t i = 0; blocks && i < nfiles; i++)
    if (tt_def(&files[i], name, n))
      return true;
  return false;
}

/* The -var and -var-file options, but -var for names not declared (see
** declared()). */
static size_t used_args(const struct tctx *t, const struct tfile *files,
                        size_t nfiles, bool blocks, struct tfr_cli_arg *out) {
  const struct tfr_test_opts *o = t->o;
  size_t n = 0;
  for (size_t i = 0; i < o->nargs; i++) {
    const char *eq = o->args[i].file ? NULL : strchr(o->args[i].value, '=');
    if (eq && !declared(t, files, nfiles, o->args[i].value,
                        (size_t)(eq - o->args[i].value), blocks))
      continue;
    out[n++] = o->args[i];
  }
  return n;
}

/* Every value of args and the usual sources, collected (what the test
** command's variable blocks are chosen from: its GlobalVariables). */
static void collect_all(struct tctx *t, struct globals *g,
                        const struct tfr_cli_arg *args, size_t nargs) {
  struct module *m = tfr_arena_alloc(t->a, sizeof *m);
  *m = *t->m;
  m->raws = NULL;
  m->nraws = 0;
  /* what it says was said by setup_globals for the same sources */
  g->values_seen = tfr_diags_new(t->a);
  struct collect_opts co = {.env = t->o->env, .args = args, .nargs = nargs};
  module_collect(m, t->a, g->values_seen, &co);
  g->values = m;
}

/* The global values, for the files of the test directory too when one
** needs them (its own var files on top); whether they are usable.  -var
** for undeclared names are not used by tests. */
static bool globals(struct tctx *t, const char *test_dir,
                    const struct tfile *files, size_t nfiles) {
  const struct tfr_test_opts *o = t->o;
  tfr_diags *sd = t->suite->diags;
  size_t cap = o->nargs ? o->nargs : 1;
  struct tfr_cli_arg *args = tfr_arena_alloc(t->a, cap * sizeof *args);
  struct tfr_cli_arg *all = tfr_arena_alloc(t->a, cap * sizeof *all);
  size_t nargs = used_args(t, files, nfiles, false, args);
  size_t nall = used_args(t, files, nfiles, true, all);
  bool ok = setup_globals(t, &t->main, args, nargs);
  tt_copy_all(sd, t->main.seen);
  collect_all(t, &t->main, all, nall);
  bool need_testdir = false;
  for (size_t i = 0; i < nfiles; i++)
    need_testdir |= files[i].in_test_dir;
  if (ok && need_testdir) {
    struct tfr_cli_arg *targs, *tall;
    size_t ntargs, ntall;
    test_dir_files(t, test_dir, args, nargs, &targs, &ntargs);
    test_dir_files(t, test_dir, all, nall, &tall, &ntall);
    if (ntargs > nargs) {
      ok = setup_globals(t, &t->testdir, targs, ntargs);
      collect_all(t, &t->testdir, tall, ntall);
      for (size_t i = 0; i < tfr_diags_count(t->testdir.seen); i++) {
        const struct tfr_diag *g = tfr_diags_get(t->testdir.seen, i);
        bool dup = false;
        for (size_t k = 0; k < tfr_diags_count(t->main.seen); k++)
          dup |= same_diag(g, tfr_diags_get(t->main.seen, k));
        if (!dup)
          copy_diag(sd, g, &g->subject);
      }
      tfr_diags_share_sources(sd, t->testdir.seen);
    } else {
      t->testdir = t->main;
    }
  }
  tfr_diags_share_sources(sd, t->main.seen);
  return ok;
}

/* A file's runs counted into the suite's totals. */
static void count_runs(struct tfr_test_suite *suite,
                       const struct tfr_test_file *out) {
  suite->status = tt_merge(suite->status, out->status);
  for (size_t j = 0; j < out->nruns; j++)
    switch (out->runs[j].status) {
    case TFR_TEST_PASS:
      suite->passed++;
      break;
    case TFR_TEST_FAIL:
    case TFR_TEST_ERROR:
      suite->failed++;
      break;
    case TFR_TEST_SKIP:
      suite->skipped++;
      break;
    default:
      break;
    }
}

const struct tfr_test_suite *tfr_test_run_dir(tfr_arena *a,
                                              const struct tfr_test_opts *to) {
  struct tfr_test_suite *suite = tfr_arena_alloc(a, sizeof *suite);
  suite->status = TFR_TEST_PASS;
  suite->diags = tfr_diags_new(a);
  /* this library's struct: every use below reads the copy */
  struct tfr_test_opts opts;
  const struct tfr_test_opts *o = &opts;
  if (!read_opts(a, suite->diags, to, &opts))
    return stopped(suite);
  struct tctx t = {0};
  t.a = a;
  t.o = o;
  t.dir = o->dir ? o->dir : ".";
  t.suite = suite;
  t.sdiags = suite->diags;
  const char *test_dir = o->test_dir ? o->test_dir : "tests";
  if (!tt_local_path(test_dir)) {
    tfr_diags_add(suite->diags, TFR_DIAG_ERROR, NULL,
                  "Invalid testing directory",
                  "The testing directory must be a relative path pointing to "
                  "a directory local to the configuration directory.");
    return stopped(suite);
  }
  test_dir = tt_clean_rel(a, test_dir);
  load_module(&t);
  if (!t.m->has_config && !tfr_diags_has_errors(suite->diags)) {
    /* as every run's plan would say (show and check say it too) */
    module_no_config_error(suite->diags, engine_rules(t.m->opentofu)->product);
    return stopped(suite);
  }
  /* the test files, by name */
  struct names names = tt_find_tests(a, suite->diags, t.dir, test_dir, o);
  /* parse and decode every file: errors in any stop everything */
  struct tfile *files =
      tfr_arena_alloc(a, (names.n ? names.n : 1) * sizeof *files);
  for (size_t i = 0; i < names.n; i++)
    tt_read_file(a, suite->diags, t.dir, test_dir, names.v[i], o->opentofu,
                 &files[i]);
  if (tfr_diags_has_errors(suite->diags))
    return stopped(suite);
  if (!globals(&t, test_dir, files, names.n))
    return stopped(suite);
  /* run */
  struct tfr_test_file *outs =
      tfr_arena_alloc(a, (names.n ? names.n : 1) * sizeof *outs);
  for (size_t i = 0; i < names.n; i++) {
    outs[i].name = files[i].name;
    outs[i].path = files[i].path;
    run_file(&t, &files[i], &outs[i]);
    count_runs(suite, &outs[i]);
  }
  suite->files = outs;
  suite->nfiles = names.n;
  return suite;
}
