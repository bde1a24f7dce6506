/*
** The test files of the `test` command (see tftest.c): finding them
** (the module's directory and its test directory, internal/command and
** internal/backend/local/test.go), decoding one into struct tfile, trun
** and tvars with Terraform's messages (internal/configs/test_file.go),
** run.Validate's checks of expect_failures, and the references
** (run.NAME, var.NAME...) that the decoder and tftest.c look at.
*/
#include "base/dirlist.h"
#include "module/engine_tofu.h"
#include "module/tftest_int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/arena_int.h"
#include "syntax/body.h"
#include "values/convert.h"
#include "eval/eval.h"
#include "syntax/parse.h"
#include "syntax/refwalk.h"
#include "base/strutil.h"
#include "eval/typeexpr.h"

/* ---- small helpers ----------------------------------------------------- */

static bool is_name(const struct ast *x, const char *s) {
  size_t n = strlen(s);
  return x->n == n && !memcmp(x->str, s, n);
}

static struct span name_span(const struct ast *x) {
  return (struct span){x->span.start, x->span.start + x->n};
}

/* `type "label"...`: HCL's DefRange of a block. */
static struct span def_span(const struct ast *b) {
  const struct ast *labels = b->kids[0];
  return (struct span){b->span.start,
                       labels->n ? labels->items[labels->n - 1]->span.end
                                 : b->span.start + b->n};
}

void tt_error_at(tfr_diags *d, struct src_file *src, struct span s,
                 enum tfr_severity sev, const char *summary,
                 const char *detail) {
  struct tfr_range r = src_range(src, s);
  tfr_diags_add(d, sev, &r, summary, detail);
}

/* Unwrap (x). */
static const struct ast *unparen(const struct ast *x) {
  while (x && x->kind == AST_PAREN)
    x = x->a;
  return x;
}

/* A bare keyword (hcl.ExprAsKeyword): the name of a lone root. */
static bool keyword(const struct ast *x, const char *kw) {
  x = unparen(x);
  return x->kind == AST_VARIABLE && is_name(x, kw);
}

/* ---- references -------------------------------------------------------- */

static const struct ast *step_in(const struct ast *x) {
  return refwalk_step_in(x);
}

static bool step_name(const struct ast *s, const char **name, uint32_t *n) {
  if (s->kind == AST_GETATTR) {
    *name = s->str;
    *n = s->n;
    return true;
  }
  if (s->kind == AST_INDEX && s->kids[0]->kind == AST_STRING) {
    *name = s->kids[0]->str;
    *n = s->kids[0]->n;
    return true;
  }
  return false;
}

static void add_ref(tfr_arena *a, struct refs *l, const struct ast *x,
                    const struct ast *root) {
  /* the steps above the root, outermost first: find the first two */
  const struct ast *first = NULL, *second = NULL;
  for (const struct ast *y = x; y != root; y = step_in(y)) {
    second = first;
    first = y;
  }
  if (l->n == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 8;
    struct ref *nv = tfr_arena_alloc(a, l->cap * sizeof *nv);
    if (l->n)
      memcpy(nv, l->v, l->n * sizeof *nv);
    l->v = nv;
  }
  struct ref *r = &l->v[l->n++];
  memset(r, 0, sizeof *r);
  r->root = root;
  r->span = root->span;
  if (first && step_name(first, &r->attr, &r->alen)) {
    r->span.end = first->span.end;
    if (second)
      step_name(second, &r->attr2, &r->alen2);
  }
}

struct ref_visit {
  struct refwalk w; /* first: the walk hands it back */
  tfr_arena *a;
  struct refs *l;
};

static bool on_ref(struct refwalk *w, const struct ast *x,
                   const struct ast *root) {
  struct ref_visit *v = (struct ref_visit *)w;
  add_ref(v->a, v->l, x, root);
  return false;
}

static bool on_call(struct refwalk *w, const struct ast *x) {
  (void)x;
  ((struct ref_visit *)w)->l->calls = true;
  return false;
}

struct refs tt_refs_of(tfr_arena *a, const struct ast *x) {
  struct refs l = {0};
  struct ref_visit v = {{on_ref, on_call, false}, a, &l};
  refwalk(&v.w, x, NULL);
  return l;
}

bool tt_ref_root(const struct ref *r, const char *s) {
  return is_name(r->root, s);
}

/* "aws_s3_bucket.b", "data.aws_ami.x", "output.id": for messages. */
const char *tt_ref_text(tfr_arena *a, const struct ref *r) {
  const char *s = tfr_arena_strndup(a, r->root->str, r->root->n);
  if (r->attr)
    s = tfr_arena_printf(a, "%s.%.*s", s, (int)r->alen, r->attr);
  if (r->attr2 && tt_ref_root(r, "data"))
    s = tfr_arena_printf(a, "%s.%.*s", s, (int)r->alen2, r->attr2);
  return s;
}

/* ---- the test file schema (configs/test_file.go) ----------------------- */

struct decoder {
  tfr_arena *a;
  tfr_diags *d;
  struct tfile *f;
  const struct engine_rules *e;
};

static void derr(struct decoder *dc, struct span s, const char *summary,
                 const char *detail) {
  tt_error_at(dc->d, dc->f->src, s, TFR_DIAG_ERROR, summary, detail);
}

static void unsupported_attr(struct decoder *dc, const struct ast *it) {
  derr(dc, name_span(it), "Unsupported argument",
       tfr_arena_printf(dc->a,
                        "An argument named \"%.*s\" is not expected "
                        "here.",
                        (int)it->n, it->str));
}

static void unsupported_block(struct decoder *dc, const struct ast *it) {
  derr(dc, name_span(it), "Unsupported block type",
       tfr_arena_printf(dc->a,
                        "Blocks of type \"%.*s\" are not expected "
                        "here.",
                        (int)it->n, it->str));
}

/* A block's labels must be exactly the named ones (hcl's messages). */
static bool labels_ok(struct decoder *dc, const struct ast *b, int want,
                      const char *label_name) {
  const struct ast *labels = b->kids[0];
  char type[64];
  snprintf(type, sizeof type, "%.*s", (int)(b->n < 60 ? b->n : 60), b->str);
  if ((int)labels->n > want) {
    derr(dc, labels->items[want]->span,
         tfr_arena_printf(dc->a, "Extraneous label for %s", type),
         want ? tfr_arena_printf(dc->a,
                                 "Only %d labels (%s) are expected "
                                 "for %s blocks.",
                                 want, label_name, type)
              : tfr_arena_printf(dc->a,
                                 "No labels are expected for %s "
                                 "blocks.",
                                 type));
    return false;
  }
  if ((int)labels->n < want) {
    derr(dc, name_span(b), tfr_arena_printf(dc->a, "Missing name for %s", type),
         tfr_arena_printf(dc->a, "All %s blocks must have %d labels (%s).",
                          type, want, label_name));
    return false;
  }
  return true;
}

/* A body of attributes only (hcl's JustAttributes). */
static void just_attributes(struct decoder *dc, const struct ast *body,
                            struct tvars *out) {
  out->v = tfr_arena_alloc(dc->a, (body->n ? body->n : 1) * sizeof *out->v);
  out->n = 0;
  for (uint32_t i = 0; i < body->n; i++) {
    const struct ast *it = body->items[i];
    if (it->kind == AST_BLOCK) {
      derr(dc, name_span(it),
           tfr_arena_printf(dc->a, "Unexpected \"%.*s\" block", (int)it->n,
                            it->str),
           "Blocks are not allowed here.");
      continue;
    }
    out->v[out->n++] = (struct tvar){
        .name = tfr_arena_strndup(dc->a, it->str, it->n), .attr = it};
  }
}

static void variables_block(struct decoder *dc, const struct ast *b,
                            struct tvars *out, const char *where) {
  if (!labels_ok(dc, b, 0, NULL))
    return;
  if (out->present) {
    struct tfr_range prev = src_range(dc->f->src, out->def);
    char at[512];
    tfr_range_format(&prev, at, sizeof at);
    derr(dc, def_span(b), "Multiple \"variables\" blocks",
         tfr_arena_printf(dc->a,
                          "This %s already has a variables block "
                          "defined at %s.",
                          where, at));
    return;
  }
  out->present = true;
  out->def = def_span(b);
  just_attributes(dc, b->kids[1], out);
}

/* A constant bool attribute (parallel, skip_cleanup). */
/* A constant attribute converted to type t; NULL after a diagnostic
** (the expression's own, or "bool required" / "string required"). */
static const tfr_value *const_value(struct decoder *dc, const struct ast *x,
                                    const tfr_type *t, const char *detail) {
  struct eval_ctx c = {0};
  c.a = dc->a;
  c.diags = dc->d;
  c.src = dc->f->src;
  size_t before = tfr_diags_count(dc->d);
  const tfr_value *v = eval_expr(&c, x);
  if (tfr_diags_count(dc->d) > before)
    return NULL;
  const char *err = NULL;
  const tfr_value *r = v ? conv_convert(dc->a, v, t, &err) : NULL;
  if (!r || (r->flags & (TFR_V_NULL | TFR_V_UNKNOWN))) {
    derr(dc, x->span, "Incorrect attribute value type", detail);
    return NULL;
  }
  return r;
}

static int const_bool(struct decoder *dc, const struct ast *x) {
  const tfr_value *b = const_value(
      dc, x, &tfr_t_bool, "Inappropriate value for attribute: bool required.");
  return b ? b->b : -1;
}

static const char *const_string(struct decoder *dc, const struct ast *x) {
  const tfr_value *s =
      const_value(dc, x, &tfr_t_string,
                  "Inappropriate value for attribute: string required.");
  return s ? tfr_arena_strndup(dc->a, s->s, s->n) : NULL;
}

/* One attribute of a run block (command, expect_failures...). */
static void run_attr(struct decoder *dc, struct trun *r, const struct ast *it) {
  const struct ast *x = it->kids[0];
  if (is_name(it, "command")) {
    if (keyword(x, "apply"))
      r->apply = true;
    else if (keyword(x, "plan"))
      r->apply = false;
    else
      derr(dc, x->span, "Invalid \"command\" keyword",
           "The \"command\" argument requires one of the following "
           "keywords without quotes: apply or plan.");
  } else if (is_name(it, "expect_failures")) {
    r->expect = x;
  } else if (is_name(it, "expect_error_message")) {
    r->expect_msg = x;
  } else if (is_name(it, "state_key")) {
    r->state_key = const_string(dc, x);
  } else if (is_name(it, "parallel")) {
    r->parallel = const_bool(dc, x);
  } else if (is_name(it, "skip_cleanup")) {
    const_bool(dc, x);
  } else if (is_name(it, "providers")) {
    /* which providers the run passes on: nothing to do offline */
  } else {
    unsupported_attr(dc, it);
  }
}

/* An assert block: condition and error_message, both required. */
static void assert_block(struct decoder *dc, struct trun *r,
                         const struct ast *it) {
  if (!labels_ok(dc, it, 0, NULL))
    return;
  const struct ast *cond = NULL, *msg = NULL, *ab = it->kids[1];
  for (uint32_t j = 0; j < ab->n; j++) {
    const struct ast *y = ab->items[j];
    if (y->kind == AST_BLOCK)
      unsupported_block(dc, y);
    else if (is_name(y, "condition"))
      cond = y->kids[0];
    else if (is_name(y, "error_message"))
      msg = y->kids[0];
    else
      unsupported_attr(dc, y);
  }
  if (!cond || !msg) {
    derr(dc, ab->span, "Missing required argument",
         tfr_arena_printf(dc->a,
                          "The argument \"%s\" is required, but "
                          "no definition was found.",
                          cond ? "error_message" : "condition"));
    return;
  }
  r->asserts[r->nasserts++] = (struct tassert){cond, msg};
}

/* A second block of a kind a run block has at most one of: Terraform's
** "Multiple" error, pointing at the first (defined at def). */
static void second_block(struct decoder *dc, const struct ast *it,
                         const char *kind, struct span def) {
  struct tfr_range prev = src_range(dc->f->src, def);
  char at[512];
  tfr_range_format(&prev, at, sizeof at);
  derr(dc, def_span(it),
       tfr_arena_printf(dc->a, "Multiple \"%s\" blocks", kind),
       tfr_arena_printf(dc->a,
                        "This run block already has a %s block defined at "
                        "%s.",
                        kind, at));
}

/* A plan_options block: checked, nothing kept (there is no plan).
** *def is the first one's, for "Multiple" (*have says there is one). */
static void plan_options_block(struct decoder *dc, const struct ast *it,
                               bool *have, struct span *def) {
  if (!labels_ok(dc, it, 0, NULL))
    return;
  if (*have) {
    second_block(dc, it, "plan_options", *def);
    return;
  }
  *have = true;
  *def = def_span(it);
  const struct ast *ob = it->kids[1];
  for (uint32_t j = 0; j < ob->n; j++) {
    const struct ast *y = ob->items[j];
    if (y->kind == AST_BLOCK) {
      unsupported_block(dc, y);
    } else if (is_name(y, "mode")) {
      if (!keyword(y->kids[0], "normal") &&
          !keyword(y->kids[0], "refresh-only"))
        derr(dc, y->kids[0]->span, "Invalid \"mode\" keyword",
             "The \"mode\" argument requires one of the following "
             "keywords without quotes: normal or refresh-only");
    } else if (!is_name(y, "refresh") && !is_name(y, "replace") &&
               !is_name(y, "target")) {
      unsupported_attr(dc, y);
    }
  }
}

/* A module block: the run tests another module (its source kept for
** the skip reason).  *def is the previous one's, for "Multiple". */
static void module_block(struct decoder *dc, struct trun *r,
                         const struct ast *it, struct span *def) {
  if (!labels_ok(dc, it, 0, NULL))
    return;
  if (r->has_module)
    second_block(dc, it, "module", *def);
  r->has_module = true;
  *def = def_span(it);
  const struct ast *mb = it->kids[1];
  bool source = false;
  for (uint32_t j = 0; j < mb->n; j++) {
    const struct ast *y = mb->items[j];
    if (y->kind == AST_BLOCK) {
      unsupported_block(dc, y);
    } else if (is_name(y, "source")) {
      source = true;
      r->module_source = const_string(dc, y->kids[0]);
    } else if (!is_name(y, "version")) {
      unsupported_attr(dc, y);
    }
  }
  if (!source)
    derr(dc, def_span(it),
         "Missing \"source\" attribute for module "
         "block",
         "You must specify a source attribute when executing alternate "
         "modules during test executions.");
}

/* Append r to the file's runs, unless the name is taken. */
static void add_run(struct decoder *dc, const struct trun *r) {
  struct tfile *f = dc->f;
  for (size_t i = 0; i < f->nruns; i++)
    if (!strcmp(f->runs[i].name, r->name)) {
      struct tfr_range prev = src_range(f->src, f->runs[i].def);
      char at[512];
      tfr_range_format(&prev, at, sizeof at);
      derr(dc, r->def, "Duplicate \"run\" block names",
           tfr_arena_printf(dc->a,
                            "This test file already has a run named "
                            "%s block defined at %s.",
                            r->name, at));
      return;
    }
  if (f->nruns == f->cap) {
    f->cap = f->cap ? f->cap * 2 : 8;
    struct trun *nv = tfr_arena_alloc(dc->a, f->cap * sizeof *nv);
    if (f->nruns)
      memcpy(nv, f->runs, f->nruns * sizeof *nv);
    f->runs = nv;
  }
  f->runs[f->nruns++] = *r;
}

/* A run block, decoded and appended to dc->f's runs. */
static void run_block(struct decoder *dc, const struct ast *b) {
  if (!labels_ok(dc, b, 1, "name"))
    return;
  const struct ast *label = b->kids[0]->items[0];
  struct trun r = {0};
  r.name = tfr_arena_strndup(dc->a, label->str, label->n);
  r.def = def_span(b);
  r.apply = true; /* the default command */
  r.parallel = -1;
  if (!str_is_identifier(label->str, label->n))
    derr(dc, label->span, "Invalid run block name",
         "A name must start with a letter or underscore and may contain "
         "only letters, digits, underscores, and dashes.");
  const struct ast *body = b->kids[1];
  size_t nasserts = 0;
  for (uint32_t i = 0; i < body->n; i++)
    nasserts +=
        body->items[i]->kind == AST_BLOCK && is_name(body->items[i], "assert");
  r.asserts =
      tfr_arena_alloc(dc->a, (nasserts ? nasserts : 1) * sizeof *r.asserts);
  bool have_options = false;
  struct span options_def = {0}, module_def = {0};
  for (uint32_t i = 0; i < body->n; i++) {
    const struct ast *it = body->items[i];
    if (it->kind == AST_ATTR)
      run_attr(dc, &r, it);
    else if (is_name(it, "assert"))
      assert_block(dc, &r, it);
    else if (is_name(it, "variables"))
      variables_block(dc, it, &r.vars, "run block");
    else if (is_name(it, "plan_options"))
      plan_options_block(dc, it, &have_options, &options_def);
    else if (is_name(it, "module"))
      module_block(dc, &r, it, &module_def);
    else if (is_name(it, "backend"))
      labels_ok(dc, it, 1, "type");
    else if (!is_name(it, "override_resource") &&
             !is_name(it, "override_data") && !is_name(it, "override_module"))
      unsupported_block(dc, it);
  }
  add_run(dc, &r);
}

/* "path:line,col-col" of span s of the test file, for messages. */
static const char *at_text(struct decoder *dc, struct span s) {
  struct tfr_range r = src_range(dc->f->src, s);
  char at[512];
  tfr_range_format(&r, at, sizeof at);
  return tfr_arena_strdup(dc->a, at);
}

struct tdef *tt_def(const struct tfile *f, const char *name, size_t n) {
  for (size_t i = 0; i < f->ndefs; i++)
    if (strlen(f->defs[i].name) == n && !memcmp(f->defs[i].name, name, n))
      return &f->defs[i];
  return NULL;
}

static const struct tvar *file_var(const struct tfile *f, const char *name) {
  for (size_t i = 0; i < f->vars.n; i++)
    if (!strcmp(f->vars.v[i].name, name))
      return &f->vars.v[i];
  return NULL;
}

/* "Duplicate \"variable\" block names" (configs/test_file.go:482-530):
** subject s, the earlier one at `prev`. */
static void duplicate_var(struct decoder *dc, struct span s, const char *name,
                          struct span prev) {
  derr(dc, s, "Duplicate \"variable\" block names",
       tfr_arena_printf(dc->a,
                        "This test file already has a variable named %s "
                        "defined at %s.",
                        name, at_text(dc, prev)));
}

/* A variable's default (named_values.go:188-219): converted to its type,
** after the defaults of optional attributes; NULL after an error. */
static const tfr_value *var_default(struct decoder *dc, const struct ast *x,
                                    const struct tdef *v) {
  size_t before = tfr_diags_count(dc->d);
  const tfr_value *val = eval_const(dc->a, dc->d, dc->f->src, x);
  if (!val || tfr_diags_count(dc->d) > before)
    return NULL;
  if (v->defaults && !(val->flags & TFR_V_NULL))
    val = conv_apply_defaults(dc->a, val, v->defaults);
  const char *err = NULL;
  const tfr_value *c = conv_convert(dc->a, val, v->type, &err);
  if (!c) {
    derr(dc, x->span, "Invalid default value for variable",
         tfr_arena_printf(dc->a,
                          "This default value is not compatible with the "
                          "variable's type constraint: %s.",
                          err ? err : "incorrect type"));
    return NULL;
  }
  if ((c->flags & TFR_V_NULL) && !v->nullable) {
    derr(dc, x->span, "Invalid default value for variable",
         "A null default value is not valid when nullable=false.");
    return NULL;
  }
  return c;
}

/* One attribute of a variable block; false after an error. */
static bool var_attr(struct decoder *dc, const struct ast *it, struct tdef *v,
                     const struct ast **def) {
  const struct ast *x = it->kids[0];
  size_t before = tfr_diags_count(dc->d);
  if (is_name(it, "type")) {
    const tfr_type *t = typeexpr_variable(dc->a, dc->d, dc->f->src, x,
                                          "Terraform", &v->defaults);
    if (t) {
      v->type = t;
      v->literal = tfr_type_is_primitive(t); /* decodeVariableType */
    }
  } else if (is_name(it, "default")) {
    *def = x;
  } else if (is_name(it, "sensitive")) {
    v->sensitive = const_bool(dc, x) == 1;
  } else if (is_name(it, "ephemeral")) {
    v->ephemeral = const_bool(dc, x) == 1;
  } else if (is_name(it, "nullable")) {
    v->nullable = const_bool(dc, x) != 0;
  } else if (is_name(it, "const")) {
    const_bool(dc, x);
  } else if (is_name(it, "description") || is_name(it, "deprecated")) {
    const_string(dc, x);
  } else {
    unsupported_attr(dc, it);
  }
  return tfr_diags_count(dc->d) == before;
}

/* A `variable` block of a test file (Terraform 1.13; test_file.go:478-501):
** decoded as a module's (decodeVariableBlock: type, default, sensitive,
** nullable, ephemeral; its validation blocks are not checked by the test
** command, eval: moduletest/graph/node_variable.go:43-78), added unless
** its name is taken. */
static void variable_block(struct decoder *dc, const struct ast *b) {
  if (!labels_ok(dc, b, 1, "name"))
    return;
  const struct ast *label = b->kids[0]->items[0];
  struct tdef v = {0};
  v.name = tfr_arena_strndup(dc->a, label->str, label->n);
  v.decl = def_span(b);
  v.type = &tfr_t_dynamic;
  v.literal = true; /* VariableParseLiteral without a type */
  v.nullable = true;
  const struct ast *body = b->kids[1], *def = NULL;
  bool ok = true;
  for (uint32_t i = 0; i < body->n; i++) {
    const struct ast *it = body->items[i];
    if (it->kind == AST_ATTR)
      ok &= var_attr(dc, it, &v, &def);
    else if (!is_name(it, "validation")) {
      unsupported_block(dc, it);
      ok = false;
    }
  }
  if (def && !(v.def = var_default(dc, def, &v)))
    ok = false;
  if (!ok)
    return;
  struct tfile *f = dc->f;
  const struct tdef *same = tt_def(f, v.name, strlen(v.name));
  if (same) {
    duplicate_var(dc, v.decl, v.name, same->decl);
    return;
  }
  struct tdef *nv = tfr_arena_alloc(dc->a, (f->ndefs + 1) * sizeof *nv);
  if (f->ndefs)
    memcpy(nv, f->defs, f->ndefs * sizeof *nv);
  nv[f->ndefs++] = v;
  f->defs = nv;
  const struct tvar *fv = file_var(f, v.name);
  if (fv)
    duplicate_var(dc, v.decl, v.name, fv->attr->kids[0]->span);
}

/* A file-level variables attribute named as an earlier variable block
** (test_file.go:522-529). */
static void variables_vs_blocks(struct decoder *dc) {
  for (size_t i = 0; i < dc->f->vars.n; i++) {
    const struct tvar *v = &dc->f->vars.v[i];
    const struct tdef *d = tt_def(dc->f, v->name, strlen(v->name));
    if (d)
      duplicate_var(dc, d->decl, v->name, v->attr->span);
  }
}

/* An unsupported block of the file's body: hcl's text, with its "Did you
** mean" among the file's block types (hclsyntax/structure.go:94-120). */
static void unsupported_top(struct decoder *dc, const struct ast *it) {
  static const char *const tf[] = {
      "run",       "provider",          "mock_provider", "variable",
      "variables", "override_resource", "override_data", "override_module"};
  static const char *const tofu[] = {
      "run",           "provider",        "variables",    "override_resource",
      "override_data", "override_module", "mock_provider"};
  const char *type = tfr_arena_strndup(dc->a, it->str, it->n);
  const char *s = dc->e->test_variable_blocks ? str_suggest(type, tf, 8)
                                              : str_suggest(type, tofu, 7);
  derr(dc, name_span(it), "Unsupported block type",
       tfr_arena_printf(
           dc->a, "Blocks of type \"%s\" are not expected here.%s", type,
           s ? tfr_arena_printf(dc->a, " Did you mean \"%s\"?", s) : ""));
}

/* The whole file; errors go to dc->d (configuration errors). */
static void decode_file(struct decoder *dc, const struct ast *body) {
  bool have_test = false;
  for (uint32_t i = 0; i < body->n; i++) {
    const struct ast *it = body->items[i];
    if (it->kind == AST_ATTR) {
      unsupported_attr(dc, it);
    } else if (is_name(it, "run")) {
      run_block(dc, it);
    } else if (is_name(it, "variables")) {
      bool had = dc->f->vars.present;
      variables_block(dc, it, &dc->f->vars, "test file");
      if (!had)
        variables_vs_blocks(dc);
    } else if (is_name(it, "variable") && dc->e->test_variable_blocks) {
      variable_block(dc, it);
    } else if (is_name(it, "provider") || is_name(it, "mock_provider")) {
      labels_ok(dc, it, 1, "name");
    } else if (is_name(it, "test")) {
      if (!labels_ok(dc, it, 0, NULL))
        continue;
      if (have_test) {
        derr(dc, def_span(it), "Multiple \"test\" blocks",
             "This test file already has a test block.");
        continue;
      }
      have_test = true;
      const struct ast *tb = it->kids[1];
      for (uint32_t j = 0; j < tb->n; j++) {
        const struct ast *y = tb->items[j];
        if (y->kind == AST_BLOCK)
          unsupported_block(dc, y);
        else if (is_name(y, "parallel"))
          dc->f->parallel = const_bool(dc, y->kids[0]) == 1;
        else if (is_name(y, "skip_cleanup"))
          const_bool(dc, y->kids[0]);
        else
          unsupported_attr(dc, y);
      }
    } else if (!is_name(it, "override_resource") &&
               !is_name(it, "override_data") &&
               !is_name(it, "override_module")) {
      unsupported_top(dc, it);
    }
  }
}

/* run.Validate: the expect_failures references, and this tool's
** expect_error_message.  Errors make the run an error before anything
** runs (Terraform reports them while building the file's graph). */
/* expect_failures: a static list of checkable references. */
static void expect_failures(tfr_arena *a, struct tfile *f, struct trun *r,
                            tfr_diags *d) {
  if (r->expect) {
    const struct ast *list = unparen(r->expect);
    if (list->kind != AST_TUPLE) {
      tt_error_at(d, f->src, r->expect->span, TFR_DIAG_ERROR,
                  "Invalid expression",
                  "A static list expression is required.");
    } else {
      r->expect_refs =
          tfr_arena_alloc(a, (list->n ? list->n : 1) * sizeof *r->expect_refs);
      for (uint32_t i = 0; i < list->n; i++) {
        const struct ast *x = list->items[i], *y = x;
        bool ok = true;
        while (y->kind == AST_GETATTR || y->kind == AST_INDEX) {
          if (y->kind == AST_INDEX && y->kids[0]->kind != AST_STRING &&
              y->kids[0]->kind != AST_NUMBER)
            ok = false;
          y = step_in(y);
        }
        if (!ok || y->kind != AST_VARIABLE) {
          tt_error_at(d, f->src, x->span, TFR_DIAG_ERROR, "Invalid expression",
                      "A single static variable reference is required: only "
                      "attribute access and indexing with constant keys. No "
                      "calculations, function calls, template expressions, "
                      "etc are allowed here.");
          continue;
        }
        struct refs l = {0};
        add_ref(a, &l, x, y);
        struct ref rf = l.v[0];
        rf.span = x->span;
        static const char *const bad[] = {"local", "run",  "path", "module",
                                          "count", "each", "self", "terraform"};
        bool checkable = rf.attr != NULL;
        for (size_t k = 0; k < sizeof bad / sizeof *bad && checkable; k++)
          if (tt_ref_root(&rf, bad[k]))
            checkable = false;
        if (tt_ref_root(&rf, "data") && !rf.attr2)
          checkable = false;
        if (!checkable) {
          tt_error_at(
              d, f->src, x->span, TFR_DIAG_ERROR,
              "Invalid `expect_failures` reference",
              tfr_arena_printf(a,
                               "You cannot expect failures from %s. You "
                               "can only expect failures from checkable "
                               "objects such as input variables, output "
                               "values, check blocks, managed resources "
                               "and data sources.",
                               tt_ref_text(a, &rf)));
          continue;
        }
        r->expect_refs[r->nexpect++] = rf;
      }
    }
  }
}

/* expect_error_message (this tool's): strings, for the input variables
** among expect_failures. */
static void expect_messages(tfr_arena *a, struct tfile *f, struct trun *r,
                            tfr_diags *d) {
  if (!r->expect_msg)
    return;
  bool any_var = false;
  for (size_t i = 0; i < r->nexpect; i++)
    any_var |= tt_ref_root(&r->expect_refs[i], "var");
  if (!any_var) {
    tt_error_at(d, f->src, r->expect_msg->span, TFR_DIAG_ERROR,
                "Invalid expect_error_message",
                "expect_error_message checks the error messages of the input "
                "variables in expect_failures, and this run block expects no "
                "failure from an input variable.");
    tfr_diags_set_ours(d); /* expect_error_message is tfresolve's */
    return;
  }
  const struct ast *x = unparen(r->expect_msg);
  const struct ast *const *items = &r->expect_msg;
  uint32_t n = 1;
  if (x->kind == AST_TUPLE) {
    items = (const struct ast *const *)x->items;
    n = x->n;
  }
  r->msgs = tfr_arena_alloc(a, (n ? n : 1) * sizeof *r->msgs);
  r->msg_spans = tfr_arena_alloc(a, (n ? n : 1) * sizeof *r->msg_spans);
  for (uint32_t i = 0; i < n; i++) {
    struct eval_ctx c = {0};
    c.a = a;
    c.diags = d;
    c.src = f->src;
    size_t before = tfr_diags_count(d);
    const tfr_value *v = eval_expr(&c, items[i]);
    if (tfr_diags_count(d) > before)
      continue;
    if (!v || v->type->kind != TFR_STRING ||
        (v->flags & (TFR_V_NULL | TFR_V_UNKNOWN))) {
      tt_error_at(d, f->src, items[i]->span, TFR_DIAG_ERROR,
                  "Invalid expect_error_message",
                  "The value must be a string, or a list of strings, each of "
                  "which must appear in the error message of an expected "
                  "failure.");
      tfr_diags_set_ours(d);
      continue;
    }
    r->msgs[r->nmsgs] = v;
    r->msg_spans[r->nmsgs++] = items[i]->span;
  }
}

void tt_validate_run(tfr_arena *a, struct tfile *f, struct trun *r) {
  r->static_diags = tfr_diags_new(a);
  expect_failures(a, f, r, r->static_diags);
  expect_messages(a, f, r, r->static_diags);
}

/* The run names of a JSON test file: {"run": {"NAME": {...}}}. */
static void json_runs(tfr_arena *a, struct tfile *f, const struct ast *body) {
  static const char *const blocks[] = {"run", NULL};
  struct body_iter top = body_start(body, true, blocks);
  struct body_item it;
  while (body_next(&top, &it)) {
    if (!it.is_block || it.node->kind != AST_STRING ||
        it.body->kind != AST_OBJECT)
      continue;
    /* a "run" property again adds to the runs before it */
    struct trun *v =
        tfr_arena_alloc(a, (f->nruns + it.body->n + 1) * sizeof *v);
    if (f->nruns)
      memcpy(v, f->runs, f->nruns * sizeof *v);
    f->runs = v;
    struct body_iter runs = body_start(it.body, true, NULL);
    struct body_item r;
    while (body_next(&runs, &r))
      f->runs[f->nruns++].name = tfr_arena_strndup(a, r.name, r.len);
  }
}

/* Parse and decode the test file `name` (relative to the module in dir)
** into f.  Syntax and configuration errors go to diags; a JSON file
** gets only its run names. */
void tt_read_file(tfr_arena *a, tfr_diags *diags, const char *dir,
                  const char *test_dir, const char *name, bool opentofu,
                  struct tfile *f) {
  size_t tlen = strlen(test_dir);
  f->name = name;
  f->path = tt_join(a, dir, name);
  f->json = str_ends_with(f->name, ".json");
  f->in_test_dir = !strncmp(f->name, test_dir, tlen) && f->name[tlen] == '/' &&
                   !strchr(f->name + tlen + 1, '/');
  tfr_file *pf = parse_bytes(a, diags, f->path, NULL, 0,
                             f->json ? TFR_SYNTAX_JSON : TFR_SYNTAX_HCL);
  f->parsed_in = diags;
  if (!pf)
    return;
  f->src = pf->f.src;
  if (f->json) {
    json_runs(a, f, pf->f.body);
    return;
  }
  struct decoder dc = {a, diags, f, engine_rules(opentofu)};
  decode_file(&dc, pf->f.body);
}

/* ---- finding the test files -------------------------------------------- */

static bool ignored_name(const char *n) {
  size_t k = strlen(n);
  return n[0] == '.' || (k && n[k - 1] == '~') ||
         (n[0] == '#' && k && n[k - 1] == '#');
}

static int cmp_str(const void *x, const void *y) {
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

void tt_names_add(tfr_arena *a, struct names *l, const char *s) {
  if (l->n == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 16;
    const char **nv = tfr_arena_alloc(a, l->cap * sizeof *nv);
    if (l->n)
      memcpy(nv, l->v, l->n * sizeof *nv);
    l->v = nv;
  }
  l->v[l->n++] = s;
}

/* A name relative to the module: rel may be NULL (the module itself). */
const char *tt_join(tfr_arena *a, const char *dir, const char *name) {
  if (!dir || !strcmp(dir, "."))
    return tfr_arena_strdup(a, name);
  return tfr_arena_printf(a, "%s/%s", dir, name);
}

static bool is_test_name(const char *n, const struct engine_rules *e) {
  return str_ends_with(n, ".tftest.hcl") || str_ends_with(n, ".tftest.json") ||
         (e->reads_tofu_files && (str_ends_with(n, ".tofutest.hcl") ||
                                  str_ends_with(n, ".tofutest.json")));
}

/* OpenTofu: x.tofutest.hcl replaces x.tftest.hcl. */
static bool replaced_by_tofu(const struct names *l, const char *n) {
  const char *ext = str_ends_with(n, ".tftest.hcl")    ? ".tftest.hcl"
                    : str_ends_with(n, ".tftest.json") ? ".tftest.json"
                                                       : NULL;
  if (!ext)
    return false;
  size_t base = strlen(n) - strlen(ext);
  for (size_t i = 0; i < l->n; i++)
    if (!strncmp(l->v[i], n, base) &&
        (!strcmp(l->v[i] + base, ".tofutest.hcl") ||
         !strcmp(l->v[i] + base, ".tofutest.json")))
      return true;
  return false;
}

/* dir_list's keep: a test file (one stat sees, not a directory, and not
** one to ignore). */
static bool keep_test_file(const char *dir, const char *name, void *ctx) {
  if (ignored_name(name) || !is_test_name(name, ctx))
    return false;
  return dir_entry_kind(dir, name) == DIR_ENTRY_OTHER;
}

/* The test files of one directory, as names relative to the module. */
static bool list_dir(tfr_arena *a, const char *path, const char *rel,
                     bool opentofu, struct names *out) {
  size_t n;
  const struct engine_rules *e = engine_rules(opentofu);
  const char **names =
      dir_list(a, path, keep_test_file, UNCONST(void *, e), NULL, &n);
  if (!names)
    return false;
  struct names here = {0};
  for (size_t i = 0; i < n; i++)
    tt_names_add(a, &here, names[i]);
  for (size_t i = 0; i < here.n; i++)
    if (!(e->reads_tofu_files && replaced_by_tofu(&here, here.v[i])))
      tt_names_add(a, out,
                   rel ? tfr_arena_printf(a, "%s/%s", rel, here.v[i])
                       : here.v[i]);
  return true;
}

/* filepath.IsLocal: relative, no "..", not empty. */
bool tt_local_path(const char *p) {
  if (!*p || p[0] == '/')
    return false;
  for (const char *s = p; *s;) {
    const char *e = strchr(s, '/');
    size_t n = e ? (size_t)(e - s) : strlen(s);
    if (n == 2 && s[0] == '.' && s[1] == '.')
      return false;
    s += n + (e ? 1 : 0);
  }
  return true;
}

/* "tests/./x" → "tests/x"; trailing slashes off: path.Clean, lightly. */
const char *tt_clean_rel(tfr_arena *a, const char *p) {
  struct sbuf b = {0};
  for (const char *s = p; *s;) {
    const char *e = strchr(s, '/');
    size_t n = e ? (size_t)(e - s) : strlen(s);
    if (n && !(n == 1 && s[0] == '.')) {
      if (b.n)
        sbuf_put(&b, "/", 1);
      sbuf_put(&b, s, n);
    }
    s += n + (e ? 1 : 0);
  }
  const char *r = tfr_arena_strdup(a, b.p ? b.p : ".");
  free(b.p);
  return r;
}

/* The test files of the module and of its test directory, by name
** relative to the module, sorted, then narrowed to o->filter (-filter)
** when given.  Missing files and directories are warnings in diags.
** Names live in a. */
struct names tt_find_tests(tfr_arena *a, tfr_diags *diags, const char *dir,
                           const char *test_dir,
                           const struct tfr_test_opts *o) {
  struct names names = {0};
  list_dir(a, dir, NULL, o->opentofu, &names);
  const char *tpath = tt_join(a, dir, test_dir);
  if (strcmp(test_dir, ".") &&
      !list_dir(a, tpath, test_dir, o->opentofu, &names)) {
    struct stat st;
    if (strcmp(test_dir, "tests") && stat(tpath, &st) != 0)
      tfr_diags_add(diags, TFR_DIAG_WARNING, NULL,
                    "Test directory does not exist",
                    tfr_arena_printf(a,
                                     "Requested test directory %s does "
                                     "not exist.",
                                     tpath));
  }
  if (names.n)
    qsort(names.v, names.n, sizeof *names.v, cmp_str);
  if (o->nfilter) {
    struct names kept = {0};
    for (size_t i = 0; i < o->nfilter; i++) {
      const char *want = tt_clean_rel(a, o->filter[i]);
      size_t j = 0;
      while (j < names.n && strcmp(names.v[j], want))
        j++;
      if (j == names.n) {
        tfr_diags_add(diags, TFR_DIAG_WARNING, NULL, "Unknown test file",
                      tfr_arena_printf(a,
                                       "The specified test file, %s, "
                                       "could not be found.",
                                       o->filter[i]));
        continue;
      }
      bool dup = false;
      for (size_t k = 0; k < kept.n; k++)
        dup |= !strcmp(kept.v[k], want);
      if (!dup)
        tt_names_add(a, &kept, names.v[j]);
    }
    if (kept.n)
      qsort(kept.v, kept.n, sizeof *kept.v, cmp_str);
    names = kept;
  }
  return names;
}
