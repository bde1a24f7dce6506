/*
** Reading one terragrunt configuration file as terragrunt evaluates it
** (pkg/config/config.go ParseConfigFile, locals.go, include.go,
** dependency.go): include blocks first, with functions only; then
** locals, in the order their references need; then dependency blocks;
** then inputs and the terraform block, with local.*, include.* (the
** exposed includes) and dependency.* in scope.  Terragrunt's errors are
** its texts (pkg/config/errors.go), located, and ours (JSON origin
** "tfresolve"): neither Terraform nor OpenTofu gives them.
*/
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/strutil.h"
#include "eval/refs.h"
#include "syntax/parse.h"
#include "values/number.h"
#include "terragrunt/tg_int.h"

const char *tg_show_path(struct tg_run *r, const char *abs) {
  size_t n = strlen(r->cwd);
  if (!strncmp(abs, r->cwd, n) && abs[n] == '/')
    return abs + n + 1;
  if (!strcmp(abs, r->cwd))
    return ".";
  return abs;
}

const char *tg_join(tfr_arena *a, const char *dir, const char *p) {
  const char *s = p[0] == '/' ? p : tfr_arena_printf(a, "%s/%s", dir, p);
  return str_path_clean(a, s, strlen(s), NULL);
}

const char *tg_dirname(tfr_arena *a, const char *p) {
  const char *s = strrchr(p, '/');
  if (!s)
    return ".";
  if (s == p)
    return "/";
  return tfr_arena_strndup(a, p, (size_t)(s - p));
}

void tg_error(struct tg_file *f, const struct ast *at, const char *summary,
              const char *detail) {
  struct tfr_range r = {0};
  if (at && f->src)
    r = src_range(f->src, at->span);
  tfr_diags_add(f->r->d, TFR_DIAG_ERROR, at ? &r : NULL, summary, detail);
  tfr_diags_set_ours(f->r->d);
}

/* ---- the scope: local, include, dependency, feature ------------------- */

static const tfr_value *lookup(void *ud, struct eval_ctx *c,
                               const struct ast *root, const char *name,
                               size_t len) {
  (void)c;
  (void)root;
  struct tg_file *f = ud;
  if (f->functions_only)
    return NULL;
  if (len == 5 && !memcmp(name, "local", 5))
    return f->local;
  if (len == 7 && !memcmp(name, "include", 7))
    return f->include;
  if (len == 10 && !memcmp(name, "dependency", 10))
    return f->dependency;
  if (len == 7 && !memcmp(name, "feature", 7))
    return f->feature;
  if (len == 6 && !memcmp(name, "values", 6))
    return f->r->values;
  if (len == 4 && !memcmp(name, "each", 4))
    return f->each;
  if (len == 5 && !memcmp(name, "count", 5))
    return f->count;
  if (len == 4 && !memcmp(name, "unit", 4))
    return f->units;
  if (len == 5 && !memcmp(name, "stack", 5))
    return f->stacks;
  return NULL;
}

/* x evaluated in f's scope; its errors in the run's diagnostics. */
static const tfr_value *eval_in(struct tg_file *f, const struct ast *x) {
  struct eval_scope es = {lookup, f, NULL};
  struct eval_ctx c = {0};
  c.a = f->r->a;
  c.diags = f->r->d;
  c.src = f->src;
  c.scope = &es;
  c.funcs = tg_funcs(f);
  c.dir = tg_dirname(f->r->a, f->path);
  return eval_expr(&c, x);
}

static bool is_name(const struct ast *x, const char *s) {
  return x->n == strlen(s) && !memcmp(x->str, s, x->n);
}

/* The attribute named s of a block body, or NULL. */
static const struct ast *attr_of(const struct ast *body, const char *s) {
  for (uint32_t i = 0; body && i < body->n; i++)
    if (body->items[i]->kind == AST_ATTR && is_name(body->items[i], s))
      return body->items[i]->kids[0];
  return NULL;
}

/* A block's first label, or "". */
static const char *label_of(tfr_arena *a, const struct ast *block) {
  const struct ast *l = block->kids[0];
  if (!l || !l->n || l->items[0]->kind != AST_STRING)
    return "";
  return tfr_arena_strndup(a, l->items[0]->str, l->items[0]->n);
}

/* A known string value's text, or NULL. */
static const char *str_of(tfr_arena *a, const tfr_value *v) {
  if (!v || v->type->kind != TFR_STRING ||
      (v->flags & (TFR_V_NULL | TFR_V_UNKNOWN)))
    return NULL;
  return tfr_arena_strndup(a, v->s, v->n);
}

/* A string attribute; NULL (after an error where it is not a string)
** when absent. */
static const char *str_attr(struct tg_file *f, const struct ast *body,
                            const char *name) {
  const struct ast *x = attr_of(body, name);
  if (!x)
    return NULL;
  const tfr_value *v = eval_in(f, x);
  if (v->flags & TFR_V_UNKNOWN)
    return NULL;
  const char *s = str_of(f->r->a, v);
  if (!s)
    tg_error(f, x, "Incorrect attribute value type",
             "Inappropriate value for attribute: string required.");
  return s;
}

/* A list of strings attribute (NULL, *n 0 when absent or unknown). */
static const char **strs_attr(struct tg_file *f, const struct ast *body,
                              const char *name, size_t *n) {
  *n = 0;
  const struct ast *x = attr_of(body, name);
  if (!x)
    return NULL;
  const tfr_value *v = eval_in(f, x);
  if (v->flags & (TFR_V_UNKNOWN | TFR_V_NULL))
    return NULL;
  unsigned k = v->type->kind;
  if (k != TFR_LIST && k != TFR_TUPLE && k != TFR_SET) {
    tg_error(f, x, "Incorrect attribute value type",
             "Inappropriate value for attribute: list of string required.");
    return NULL;
  }
  const char **out = tfr_arena_alloc(f->r->a, (v->n + 1) * sizeof *out);
  for (uint32_t i = 0; i < v->n; i++) {
    out[*n] = str_of(f->r->a, v->elems[i]);
    if (out[*n])
      (*n)++;
  }
  return out;
}

static int bool_attr(struct tg_file *f, const struct ast *body,
                     const char *name) {
  const struct ast *x = attr_of(body, name);
  if (!x)
    return -1;
  const tfr_value *v = eval_in(f, x);
  if (v->type->kind != TFR_BOOL || (v->flags & (TFR_V_NULL | TFR_V_UNKNOWN)))
    return -1;
  return v->b;
}

/* ---- include blocks ------------------------------------------------------ */

/* merge_strategy (include.go GetMergeStrategy; errors.go:62-66). */
static bool merge_of(struct tg_file *f, const struct ast *body,
                     enum tg_merge *m) {
  *m = TG_SHALLOW;
  const char *s = str_attr(f, body, "merge_strategy");
  if (!s || !strcmp(s, "shallow"))
    return true;
  if (!strcmp(s, "no_merge"))
    *m = TG_NO_MERGE;
  else if (!strcmp(s, "deep"))
    *m = TG_DEEP;
  else {
    tg_error(f, attr_of(body, "merge_strategy"), "Invalid merge strategy",
             tfr_arena_printf(f->r->a,
                              "Include merge strategy %s is unknown. Valid "
                              "strategies are: no_merge, shallow, deep, "
                              "deep_map_only",
                              s));
    return false;
  }
  return true;
}

static struct tg_cfg *open_file(struct tg_run *r, const char *path,
                                const char *config_path,
                                const struct tg_incl *from);

/* One include block into *in; false after an error. */
static bool read_include(struct tg_file *f, const struct ast *b,
                         struct tg_incl *in) {
  struct tg_run *r = f->r;
  const struct ast *body = b->kids[1];
  in->name = label_of(r->a, b);
  in->at = src_range(f->src, b->span);
  f->functions_only = true;
  const char *p = str_attr(f, body, "path");
  bool ok = merge_of(f, body, &in->merge);
  in->expose = bool_attr(f, body, "expose") == 1;
  f->functions_only = false;
  if (!ok)
    return false;
  if (!p) { /* errors.go:19-25 */
    if (!attr_of(body, "path"))
      tg_error(f, b, "Missing required argument",
               tfr_arena_printf(r->a,
                                "The include configuration in %s must "
                                "specify a 'path' parameter",
                                tg_show_path(r, f->path)));
    return false;
  }
  in->path = tg_join(r->a, tg_dirname(r->a, f->path), p);
  struct stat st;
  if (stat(in->path, &st) != 0) { /* errors.go:28-38 */
    tg_error(f, attr_of(body, "path"), "Include configuration not found",
             tfr_arena_printf(r->a,
                              "Include configuration not found: %s "
                              "(referenced from: %s)",
                              tg_show_path(r, in->path),
                              tg_show_path(r, f->path)));
    return false;
  }
  r->why = in->at;
  in->cfg = open_file(r, in->path, f->config_path, in);
  return in->cfg != NULL;
}

/* include.NAME of the exposed includes (include.go includeMapAsCtyVal):
** a bare include is `include` itself. */
static void include_object(struct tg_file *f) {
  tfr_arena *a = f->r->a;
  if (f->nincl == 1 && !*f->incl[0].name) {
    f->include = f->incl[0].expose ? tg_cfg_value(a, f->incl[0].cfg)
                                   : tfr_null(a, &tfr_t_dynamic);
    return;
  }
  const char **names = tfr_arena_alloc(a, (f->nincl + 1) * sizeof *names);
  const tfr_value **vals = tfr_arena_alloc(a, (f->nincl + 1) * sizeof *vals);
  size_t n = 0;
  for (size_t i = 0; i < f->nincl; i++) {
    if (!f->incl[i].expose)
      continue;
    names[n] = f->incl[i].name;
    vals[n++] = tg_cfg_value(a, f->incl[i].cfg);
  }
  f->include = tfr_object(a, n, names, vals);
}

static bool read_includes(struct tg_file *f, const struct ast *body) {
  struct tg_run *r = f->r;
  size_t n = 0;
  for (uint32_t i = 0; i < body->n; i++)
    n +=
        body->items[i]->kind == AST_BLOCK && is_name(body->items[i], "include");
  f->incl = tfr_arena_alloc(r->a, (n + 1) * sizeof *f->incl);
  for (uint32_t i = 0; i < body->n; i++) {
    const struct ast *b = body->items[i];
    if (b->kind != AST_BLOCK || !is_name(b, "include"))
      continue;
    if (f->from) { /* errors.go:41-53 */
      f->functions_only = true;
      const char *p = str_attr(f, b->kids[1], "path");
      f->functions_only = false;
      tg_error(
          f, b, "Too many levels of includes",
          tfr_arena_printf(
              r->a,
              "%s includes %s, which itself includes %s. Only one "
              "level of includes is allowed.",
              tg_show_path(r, f->config_path), tg_show_path(r, f->path),
              p ? tg_show_path(r, tg_join(r->a, tg_dirname(r->a, f->path), p))
                : "?"));
      return false;
    }
    if (!read_include(f, b, &f->incl[f->nincl++]))
      return false;
  }
  include_object(f);
  return true;
}

/* ---- locals (locals.go: evaluated until none is left) ------------------- */

struct locals {
  const struct ast **x;
  const char **names;
  const tfr_value **v;
  uint8_t *state;
  size_t n;
};

static long local_index(const struct locals *l, const char *s) {
  for (size_t i = 0; i < l->n; i++)
    if (!strcmp(l->names[i], s))
      return (long)i;
  return -1;
}

static void local_object(struct tg_file *f, const struct locals *l) {
  const char **names = tfr_arena_alloc(f->r->a, (l->n + 1) * sizeof *names);
  const tfr_value **vals = tfr_arena_alloc(f->r->a, (l->n + 1) * sizeof *vals);
  size_t k = 0;
  for (size_t i = 0; i < l->n; i++)
    if (l->state[i] == 2) {
      names[k] = l->names[i];
      vals[k++] = l->v[i];
    }
  f->local = tfr_object(f->r->a, k, names, vals);
}

static void eval_local(struct tg_file *f, struct locals *l, size_t i) {
  if (l->state[i])
    return; /* done, or a cycle: hcl's unknown attribute error follows */
  l->state[i] = 1;
  struct refs rf = refs_of(f->r->a, l->x[i]);
  for (size_t j = 0; j < rf.locals.n; j++) {
    long t = local_index(l, rf.locals.v[j]);
    if (t >= 0)
      eval_local(f, l, (size_t)t);
  }
  local_object(f, l);
  l->v[i] = eval_in(f, l->x[i]);
  l->state[i] = 2;
}

static void read_locals(struct tg_file *f, const struct ast *body) {
  tfr_arena *a = f->r->a;
  struct locals l = {0};
  size_t cap = 0;
  for (uint32_t i = 0; i < body->n; i++)
    if (body->items[i]->kind == AST_BLOCK && is_name(body->items[i], "locals"))
      cap += body->items[i]->kids[1]->n;
  l.x = tfr_arena_alloc(a, (cap + 1) * sizeof *l.x);
  l.names = tfr_arena_alloc(a, (cap + 1) * sizeof *l.names);
  l.v = tfr_arena_alloc(a, (cap + 1) * sizeof *l.v);
  l.state = tfr_arena_alloc(a, cap + 1);
  f->local_names = tfr_arena_alloc(a, (cap + 1) * sizeof *f->local_names);
  f->local_lines = tfr_arena_alloc(a, (cap + 1) * sizeof *f->local_lines);
  for (uint32_t i = 0; i < body->n; i++) {
    const struct ast *b = body->items[i];
    if (b->kind != AST_BLOCK || !is_name(b, "locals"))
      continue;
    for (uint32_t j = 0; j < b->kids[1]->n; j++) {
      const struct ast *it = b->kids[1]->items[j];
      if (it->kind != AST_ATTR)
        continue;
      l.names[l.n] = tfr_arena_strndup(a, it->str, it->n);
      l.x[l.n++] = it->kids[0];
      f->local_lines[f->nlocals] = src_pos(f->src, it->span.start).line;
      f->local_names[f->nlocals++] = l.names[l.n - 1];
    }
  }
  for (size_t i = 0; i < l.n; i++)
    eval_local(f, &l, i);
  local_object(f, &l);
}

/* ---- dependency blocks (dependency.go) ---------------------------------- */

/* Whether terragrunt hands the mocks to this command
** (dependency.go:915-928: mocks set and the command allowed). */
static bool mocks_used(const struct tg_dep *d, const char *cmd) {
  if (!d->mocks)
    return false;
  if (!d->nallowed)
    return true;
  for (size_t i = 0; i < d->nallowed; i++)
    if (!strcmp(d->allowed[i], cmd))
      return true;
  return false;
}

/* dependency.NAME = {outputs = ...} (dependency.go:717-800): the mocks
** where terragrunt uses them; otherwise the state's outputs, which are
** never read offline: unknown.  skip_outputs without mocks: no outputs
** at all (dependency.go:187-190, 248). */
static const tfr_value *dep_outputs(struct tg_run *r, const struct tg_dep *d) {
  if (mocks_used(d, r->command))
    return d->mocks;
  if (d->skip_outputs)
    return NULL;
  return tfr_unknown(r->a, &tfr_t_dynamic);
}

/* Whether the dependency's configuration exists
** (getCleanedTargetConfigPath, config_helpers.go:1205-1218: config_path
** from the unit's directory, a directory's terragrunt.hcl). */
static bool dep_exists(struct tg_run *r, const struct tg_dep *d) {
  if (!d->config_path)
    return false;
  const char *p = tg_join(r->a, tg_dirname(r->a, r->unit), d->config_path);
  struct stat st;
  if (stat(tg_real(r, p), &st) == 0 && S_ISDIR(st.st_mode)) {
    const char *hcl = tfr_arena_printf(r->a, "%s/terragrunt.hcl", p);
    p = !tg_exists(r, hcl) &&
                tg_exists(r, tfr_arena_printf(r->a, "%s.json", hcl))
            ? tfr_arena_printf(r->a, "%s.json", hcl)
            : hcl;
  }
  return tg_exists(r, p);
}

/* dependency.NAME: outputs, and inputs where the dependency's file exists
** -- null: terragrunt reads it with a partial parse, which never decodes
** inputs (dependency.go:473-516, config_partial.go:585-587: a nil map,
** JSON null), and refuses dependency.NAME.inputs in a top-level attribute
** (no_dep_inputs). */
static const tfr_value *dep_value(struct tg_run *r, const struct tg_dep *d) {
  const char *names[2];
  const tfr_value *v[2];
  size_t n = 0;
  if (dep_exists(r, d)) {
    names[n] = "inputs";
    v[n++] = tfr_null(r->a, &tfr_t_dynamic);
  }
  if (d->outputs) {
    names[n] = "outputs";
    v[n++] = d->outputs;
  }
  return tfr_object(r->a, n, names, v);
}

/* One dependency block (or an instance of an expanded one) into d. */
static void read_dep(struct tg_file *f, const struct ast *b, struct tg_dep *d,
                     const char *key) {
  tfr_arena *a = f->r->a;
  const struct ast *db = b->kids[1];
  d->name = label_of(a, b);
  d->key = key;
  d->at = src_range(f->src, b->span);
  /* where the dependency is: only named offline, and it may read what
  ** stage 1 does not have yet (include.X.inputs): its errors are not
  ** terragrunt's to give here */
  tfr_diags *keep = f->r->d;
  f->r->d = tfr_diags_new(a);
  d->config_path = str_attr(f, db, "config_path");
  f->r->d = keep;
  const struct ast *m = attr_of(db, "mock_outputs");
  d->mocks = m ? eval_in(f, m) : NULL;
  d->allowed =
      strs_attr(f, db, "mock_outputs_allowed_terraform_commands", &d->nallowed);
  d->skip_outputs = bool_attr(f, db, "skip_outputs") == 1;
  d->outputs = dep_outputs(f->r, d);
}

/* The expansion block of b, or NULL; *twice: a second one. */
static const struct ast *expansion_of(const struct ast *b,
                                      const struct ast **twice) {
  const struct ast *e = NULL, *body = b->kids[1];
  *twice = NULL;
  for (uint32_t i = 0; i < body->n; i++)
    if (body->items[i]->kind == AST_BLOCK &&
        is_name(body->items[i], "expansion")) {
      if (e && !*twice)
        *twice = body->items[i];
      e = e ? e : body->items[i];
    }
  return e;
}

/* An expansion block's error (hclparse/errors.go: the text after the
** range it starts with, which is the diagnostic's). */
static long expand_error(struct tg_file *f, const struct ast *at,
                         const char *detail) {
  tg_error(f, at, "Invalid expansion", detail);
  return -1;
}

/* The instances of an expanded block (ExpandBlock, hclparse/expansion.go:
** 139-330): their keys in *keys and each or count in *vals; how many,
** or -1 after an error. */
static long expand(struct tg_file *f, const struct ast *e, const char ***keys,
                   const tfr_value ***vals) {
  tfr_arena *a = f->r->a;
  const struct ast *fe = attr_of(e->kids[1], "for_each");
  const struct ast *ct = attr_of(e->kids[1], "count");
  if (fe && ct)
    return expand_error(f, e,
                        "the expansion block sets both for_each and count; "
                        "set exactly one");
  if (!fe && !ct)
    return expand_error(f, e,
                        "the expansion block sets neither for_each nor "
                        "count; set exactly one");
  const char *attr = fe ? "for_each" : "count";
  const tfr_value *v = eval_in(f, fe ? fe : ct);
  if (v->flags & TFR_V_UNKNOWN)
    return expand_error(
        f, fe ? fe : ct,
        tfr_arena_printf(a,
                         "%s is not known at parse time; it must resolve to "
                         "a concrete value",
                         attr));
  if (v->flags & TFR_V_NULL)
    return expand_error(
        f, fe ? fe : ct,
        tfr_arena_printf(a, "%s is null; it must resolve to a concrete value",
                         attr));
  if (ct) {
    int64_t n = 0;
    if (v->type->kind != TFR_NUMBER || !num_is_int(v->num) ||
        !num_to_int64(v->num, &n))
      return expand_error(f, ct, "count must be a whole number");
    if (n < 0)
      return expand_error(
          f, ct,
          tfr_arena_printf(a, "count is %lld; it must not be negative",
                           (long long)n));
    if (n > 10000)
      return expand_error(f, ct, "count is above what is read here (10000)");
    *keys = tfr_arena_alloc(a, ((size_t)n + 1) * sizeof **keys);
    *vals = tfr_arena_alloc(a, ((size_t)n + 1) * sizeof **vals);
    for (long i = 0; i < (long)n; i++) {
      const char *idx[1] = {"index"};
      tfr_value *num = tfr_arena_alloc(a, sizeof *num);
      num->type = &tfr_t_number;
      num->num = num_from_int(a, i);
      const tfr_value *iv[1] = {num};
      (*keys)[i] = tfr_arena_printf(a, "%ld", i);
      (*vals)[i] = tfr_object(a, 1, idx, iv);
    }
    return (long)n;
  }
  unsigned k = v->type->kind;
  if (k != TFR_SET && k != TFR_MAP && k != TFR_OBJECT)
    return expand_error(
        f, fe,
        tfr_arena_printf(a, "for_each must be a set or a map, but got %s",
                         tfr_type_friendly(a, v->type)));
  *keys = tfr_arena_alloc(a, (v->n + 1) * sizeof **keys);
  *vals = tfr_arena_alloc(a, (v->n + 1) * sizeof **vals);
  for (uint32_t i = 0; i < v->n; i++) {
    const tfr_value *el = v->elems[i];
    const char *key = k == TFR_MAP      ? v->keys[i]
                      : k == TFR_OBJECT ? v->type->names[i]
                                        : NULL;
    if (k == TFR_SET) { /* a set's key is its element */
      if (el->flags & (TFR_V_UNKNOWN | TFR_V_NULL))
        return expand_error(f, fe,
                            "for_each element is not known at parse time; "
                            "it must resolve to a concrete value");
      if (el->type->kind == TFR_STRING)
        key = tfr_arena_strndup(a, el->s, el->n);
      else if (el->type->kind == TFR_NUMBER)
        key = num_format(a, el->num);
      else
        return expand_error(
            f, fe,
            tfr_arena_printf(a,
                             "for_each element keys must be strings or "
                             "numbers, but got %s",
                             tfr_type_friendly(a, el->type)));
    }
    const char *names[2] = {"key", "value"};
    const tfr_value *ev[2] = {tfr_string(a, key, strlen(key)), el};
    (*keys)[i] = key;
    (*vals)[i] = tfr_object(a, 2, names, ev);
  }
  return (long)v->n;
}

/* The dependency blocks of a file, each expanded block's instances
** (dependency.go:70-90: Expansion, decoded by ExpandBlocks). */
static void read_deps(struct tg_file *f, struct tg_cfg *c,
                      const struct ast *body) {
  tfr_arena *a = f->r->a;
  size_t cap = 1;
  for (uint32_t i = 0; i < body->n; i++)
    cap += body->items[i]->kind == AST_BLOCK &&
           is_name(body->items[i], "dependency");
  c->deps = tfr_arena_alloc(a, cap * sizeof *c->deps);
  for (uint32_t i = 0; i < body->n; i++) {
    const struct ast *b = body->items[i], *twice;
    if (b->kind != AST_BLOCK || !is_name(b, "dependency"))
      continue;
    const struct ast *e = expansion_of(b, &twice);
    if (twice) {
      expand_error(f, twice,
                   "the dependency block declares more than one expansion "
                   "block; a block may declare at most one");
      continue;
    }
    if (!e) {
      read_dep(f, b, &c->deps[c->ndeps++], NULL);
      continue;
    }
    const char **keys;
    const tfr_value **vals;
    long n = expand(f, e, &keys, &vals);
    if (n <= 0)
      continue;
    struct tg_dep *v = tfr_arena_alloc(a, (cap + (size_t)n) * sizeof *v);
    memcpy(v, c->deps, c->ndeps * sizeof *v);
    c->deps = v;
    cap += (size_t)n;
    for (long k = 0; k < n; k++) {
      const char *ck = attr_of(e->kids[1], "count") ? "count" : "each";
      if (*ck == 'c')
        f->count = vals[k];
      else
        f->each = vals[k];
      read_dep(f, b, &c->deps[c->ndeps++], keys[k]);
      f->count = f->each = NULL;
    }
  }
}

/* dependency.*: each block's value by name, an expanded block's
** instances by key under its name (dependencyBlocksToCtyValue,
** dependency.go:717-830). */
static const tfr_value *deps_value(struct tg_run *r, const struct tg_dep *v,
                                   size_t k) {
  const char **names = tfr_arena_alloc(r->a, (k + 1) * sizeof *names);
  const tfr_value **vals = tfr_arena_alloc(r->a, (k + 1) * sizeof *vals);
  size_t m = 0;
  for (size_t i = 0; i < k; i++) {
    size_t q = 0;
    while (q < m && strcmp(names[q], v[i].name))
      q++;
    if (q < m)
      continue; /* an instance of a block already done */
    names[m] = v[i].name;
    if (!v[i].key) {
      vals[m++] = dep_value(r, &v[i]);
      continue;
    }
    const char **ik = tfr_arena_alloc(r->a, (k + 1) * sizeof *ik);
    const tfr_value **iv = tfr_arena_alloc(r->a, (k + 1) * sizeof *iv);
    size_t ni = 0;
    for (size_t j = i; j < k; j++)
      if (!strcmp(v[j].name, v[i].name) && v[j].key) {
        ik[ni] = v[j].key;
        iv[ni++] = dep_value(r, &v[j]);
      }
    vals[m++] = tfr_object(r->a, ni, ik, iv);
  }
  return tfr_object(r->a, m, names, vals);
}

/* dependency.* of a unit: its dependency blocks and its includes', by name
** (include.go:212-310 merges them before any output is read); *out, *n. */
static const tfr_value *dep_object(struct tg_run *r, const struct tg_cfg *c,
                                   struct tg_dep **out, size_t *n) {
  const struct tg_incl *in = c->file->incl;
  size_t cap = c->ndeps + 1;
  for (size_t i = 0; i < c->file->nincl; i++)
    cap += in[i].cfg->ndeps;
  struct tg_dep *v = tfr_arena_alloc(r->a, cap * sizeof *v);
  size_t k = 0;
  for (size_t i = 0; i <= c->file->nincl; i++) {
    const struct tg_cfg *from = i < c->file->nincl ? in[i].cfg : c;
    for (size_t j = 0; j < from->ndeps; j++) {
      /* matched by name, an expanded one's by name[key] (mergeKey,
      ** dependency.go:217-228) */
      const struct tg_dep *dj = &from->deps[j];
      size_t q = 0;
      while (q < k && (strcmp(v[q].name, dj->name) || !v[q].key != !dj->key ||
                       (dj->key && strcmp(v[q].key, dj->key))))
        q++;
      v[q] = *dj;
      k += q == k;
    }
  }
  *out = v;
  *n = k;
  return deps_value(r, v, k);
}

/* Each dependency.NAME.outputs.OUT in x whose dependency gives no mock
** outputs to this command: a warning (ours) naming both, as the value is
** unknown offline and what reads it is not checked (terragrunt#2795). */
static void warn_unmocked(struct tg_file *f, const struct ast *x) {
  if (!x)
    return;
  const struct ast *o = x->kind == AST_GETATTR ? x->kids[0] : NULL;
  const struct ast *d = o && o->kind == AST_GETATTR ? o->kids[0] : NULL;
  const struct ast *key = NULL; /* dependency.NAME["KEY"]: an instance */
  if (d && d->kind == AST_INDEX && d->kids[0] && d->kids[0]->kind == AST_STRING)
    key = d->kids[0], d = d->a;
  const struct ast *v = d && d->kind == AST_GETATTR ? d->kids[0] : NULL;
  if (v && v->kind == AST_VARIABLE && is_name(v, "dependency") &&
      is_name(o, "outputs")) {
    for (size_t i = 0; i < f->ndeps; i++) {
      const struct tg_dep *dp = &f->deps[i];
      if (strlen(dp->name) != d->n || memcmp(dp->name, d->str, d->n) ||
          !key != !dp->key || (key && !is_name(key, dp->key)) ||
          mocks_used(dp, f->r->command) || dp->skip_outputs)
        continue;
      struct tfr_range r = src_range(f->src, x->span);
      tfr_diags_add(
          f->r->d, TFR_DIAG_WARNING, &r, "Dependency output unknown offline",
          tfr_arena_printf(
              f->r->a,
              "Output \"%.*s\" of dependency \"%s\" comes from its state, "
              "which is not read offline, and the dependency has no "
              "mock_outputs for \"%s\": the value is unknown, and what "
              "reads it is not checked.",
              (int)x->n, x->str, dp->name, f->r->command));
      tfr_diags_set_ours(f->r->d);
    }
    return;
  }
  for (uint32_t i = 0; i < ast_child_count(x); i++)
    warn_unmocked(f, ast_child(x, i));
}

/* ---- inputs and the terraform block ------------------------------------- */

/* The name an object constructor's key writes, or NULL. */
static const char *key_text(tfr_arena *a, const struct ast *k) {
  if (k->kind == AST_VARIABLE || k->kind == AST_STRING)
    return tfr_arena_strndup(a, k->str, k->n);
  if (k->kind == AST_TEMPLATE && k->n == 1 && k->items[0]->kind == AST_STRING)
    return tfr_arena_strndup(a, k->items[0]->str, k->items[0]->n);
  return NULL;
}

/* The references of x to local.*, include.* and dependency.*, in words
** (", reads local.env, dependency.vpc"). */
static const char *reads_of(struct tg_file *f, const struct ast *x) {
  struct refs rf = refs_of(f->r->a, x);
  const char *s = "";
  for (size_t i = 0; i < rf.locals.n; i++) {
    int line = 0;
    for (size_t k = 0; k < f->nlocals && !line; k++)
      if (!strcmp(f->local_names[k], rf.locals.v[i]))
        line = f->local_lines[k];
    s = tfr_arena_printf(f->r->a, "%s%slocal.%s", s, *s ? ", " : "",
                         rf.locals.v[i]);
    if (line) /* where it is set, in the same file */
      s = tfr_arena_printf(f->r->a, "%s (%s:%d)", s, f->src->name, line);
  }
  for (size_t i = 0; i < rf.objects.n; i++) {
    const char *o = rf.objects.v[i];
    if (!strncmp(o, "include", 7) || !strncmp(o, "dependency", 10) ||
        !strncmp(o, "values", 6) || !strncmp(o, "feature", 7))
      s = tfr_arena_printf(f->r->a, "%s%s%s", s, *s ? ", " : "", o);
  }
  return *s ? tfr_arena_printf(f->r->a, ", reads %s", s) : "";
}

/* Where each top-level key of inputs is written: its `key = value` in an
** object constructor, else the whole attribute. */
static void input_ranges(struct tg_file *f, struct tg_cfg *c,
                         const struct ast *attr) {
  const struct ast *x = attr->kids[0];
  for (size_t i = 0; i < c->ninputs; i++) {
    struct tg_input *in = &c->inputs[i];
    struct span s = attr->span;
    const struct ast *vx = x;
    for (uint32_t k = 0; x->kind == AST_OBJECT && k < x->n; k++) {
      const char *t = key_text(f->r->a, x->items[2 * k]);
      if (t && !strcmp(t, in->name)) {
        s.start = x->items[2 * k]->span.start;
        s.end = x->items[2 * k + 1]->span.end;
        vx = x->items[2 * k + 1];
      }
    }
    in->at = src_range(f->src, s);
    in->chain = tfr_arena_printf(f->r->a, "input at %s:%d%s", in->at.filename,
                                 in->at.start.line, reads_of(f, vx));
  }
}

static void read_inputs(struct tg_file *f, struct tg_cfg *c,
                        const struct ast *attr) {
  warn_unmocked(f, attr->kids[0]);
  const tfr_value *v = eval_in(f, attr->kids[0]);
  c->has_inputs = true;
  if (v->flags & TFR_V_NULL)
    return; /* cty_helpers: a null inputs is no inputs */
  unsigned k = v->type->kind;
  if (v->flags & TFR_V_UNKNOWN || (k != TFR_OBJECT && k != TFR_MAP)) {
    if (!(v->flags & TFR_V_UNKNOWN))
      tg_error(f, attr->kids[0], "Incorrect attribute value type",
               "Inappropriate value for attribute \"inputs\": object "
               "required.");
    return;
  }
  c->inputs = tfr_arena_alloc(f->r->a, (v->n + 1) * sizeof *c->inputs);
  for (uint32_t i = 0; i < v->n; i++) {
    struct tg_input *in = &c->inputs[c->ninputs++];
    in->name = k == TFR_OBJECT
                   ? v->type->names[i]
                   : tfr_arena_strndup(f->r->a, v->keys[i], v->keylens[i]);
    in->v = v->elems[i];
  }
  input_ranges(f, c, attr);
}

static void read_extra(struct tg_file *f, struct tg_extra *e,
                       const struct ast *b) {
  const struct ast *body = b->kids[1];
  e->name = label_of(f->r->a, b);
  struct tfr_range at = src_range(f->src, b->span);
  e->file = at.filename;
  e->line = at.start.line;
  e->cmds = strs_attr(f, body, "commands", &e->ncmds);
  e->args = strs_attr(f, body, "arguments", &e->nargs);
  e->req = strs_attr(f, body, "required_var_files", &e->nreq);
  e->opt = strs_attr(f, body, "optional_var_files", &e->nopt);
  const struct ast *ev = attr_of(body, "env_vars");
  const tfr_value *v = ev ? eval_in(f, ev) : NULL;
  if (v && (v->type->kind == TFR_OBJECT || v->type->kind == TFR_MAP) &&
      !(v->flags & (TFR_V_NULL | TFR_V_UNKNOWN))) {
    e->env = tfr_arena_alloc(f->r->a, (v->n + 1) * sizeof *e->env);
    for (uint32_t i = 0; i < v->n; i++) {
      const char *name =
          v->type->kind == TFR_OBJECT
              ? v->type->names[i]
              : tfr_arena_strndup(f->r->a, v->keys[i], v->keylens[i]);
      const char *s = str_of(f->r->a, v->elems[i]);
      if (s)
        e->env[e->nenv++] = tfr_arena_printf(f->r->a, "%s=%s", name, s);
    }
  }
}

static void read_terraform(struct tg_file *f, struct tg_cfg *c,
                           const struct ast *b) {
  const struct ast *body = b->kids[1];
  const struct ast *s = attr_of(body, "source");
  if (s) {
    c->source = str_attr(f, body, "source");
    c->source_at = src_range(f->src, s->span);
  }
  size_t n = 0;
  for (uint32_t i = 0; i < body->n; i++)
    n += body->items[i]->kind == AST_BLOCK &&
         is_name(body->items[i], "extra_arguments");
  c->extra = tfr_arena_alloc(f->r->a, (n + 1) * sizeof *c->extra);
  for (uint32_t i = 0; i < body->n; i++)
    if (body->items[i]->kind == AST_BLOCK &&
        is_name(body->items[i], "extra_arguments"))
      read_extra(f, &c->extra[c->nextra++], body->items[i]);
}

/* feature.NAME.value: each feature block's default (feature_flag.go). */
static void read_features(struct tg_file *f, const struct ast *body) {
  tfr_arena *a = f->r->a;
  size_t cap = body->n + 1;
  for (size_t i = 0; i < f->nincl; i++)
    cap += f->incl[i].cfg->features ? f->incl[i].cfg->features->n : 0;
  const char **names = tfr_arena_alloc(a, cap * sizeof *names);
  const tfr_value **vals = tfr_arena_alloc(a, cap * sizeof *vals);
  size_t n = 0;
  /* the included files' first (mergeFeatureFlags, include.go:657-686) */
  for (size_t i = 0; i < f->nincl; i++) {
    const tfr_value *fv = f->incl[i].cfg->features;
    for (uint32_t j = 0; fv && j < fv->n; j++) {
      names[n] = fv->type->names[j];
      vals[n++] = fv->elems[j];
    }
  }
  for (uint32_t i = 0; i < body->n; i++) {
    const struct ast *b = body->items[i];
    if (b->kind != AST_BLOCK || !is_name(b, "feature"))
      continue;
    const struct ast *d = attr_of(b->kids[1], "default");
    const char *vn[1] = {"value"};
    const tfr_value *vv[1] = {d ? eval_in(f, d) : tfr_null(a, &tfr_t_dynamic)};
    const char *name = label_of(a, b);
    size_t k = 0;
    while (k < n && strcmp(names[k], name))
      k++;
    names[k] = name;
    vals[k] = tfr_object(a, 1, vn, vv);
    n += k == n;
  }
  f->feature = tfr_object(a, n, names, vals);
}

/* generate blocks (config.go:2097-2170): if_exists is required. */
static void read_generate(struct tg_file *f, struct tg_cfg *c,
                          const struct ast *body) {
  tfr_arena *a = f->r->a;
  c->gens = tfr_arena_alloc(a, (body->n + 1) * sizeof *c->gens);
  for (uint32_t i = 0; i < body->n; i++) {
    const struct ast *b = body->items[i];
    if (b->kind != AST_BLOCK || !is_name(b, "generate"))
      continue;
    struct tg_gen *g = &c->gens[c->ngens];
    const struct ast *gb = b->kids[1];
    g->name = label_of(a, b);
    g->at = src_range(f->src, b->span);
    g->path = str_attr(f, gb, "path");
    g->contents = str_attr(f, gb, "contents");
    g->if_exists = str_attr(f, gb, "if_exists");
    g->comment_prefix = str_attr(f, gb, "comment_prefix");
    g->disable = bool_attr(f, gb, "disable") == 1;
    g->disable_signature = bool_attr(f, gb, "disable_signature") == 1;
    if (!g->comment_prefix)
      g->comment_prefix = "# "; /* codegen/generate.go:33 */
    if (!g->if_exists) {
      tg_error(f, b, "Missing required argument",
               tfr_arena_printf(a,
                                "generate block \"%s\" is missing required "
                                "attribute \"if_exists\"",
                                g->name));
      continue;
    }
    if (g->path && g->contents)
      c->ngens++;
  }
}

/* ---- one file ------------------------------------------------------------ */

static bool on_stack(struct tg_run *r, const char *path) {
  for (size_t i = 0; i < r->nstack; i++)
    if (!strcmp(r->stack[i], path))
      return true;
  return false;
}

/* A file read again while it is being read (include or
** read_terragrunt_config in a cycle): ours, where terragrunt goes on to
** its maximum parse depth (parsing_context.go:31-33, 257;
** errors.go:448-460). */
static bool cycle_error(struct tg_run *r, const char *path) {
  const char *chain = "";
  for (size_t i = 0; i < r->nstack; i++)
    chain =
        tfr_arena_printf(r->a, "%s%s -> ", chain, tg_show_path(r, r->stack[i]));
  tfr_diags_add(
      r->d, TFR_DIAG_ERROR, r->why.filename ? &r->why : NULL,
      "Configuration files read in a cycle",
      tfr_arena_printf(r->a,
                       "%s%s: terragrunt would read these files without end "
                       "and stop with \"maximum parse depth of 1000 "
                       "exceeded\".",
                       chain, tg_show_path(r, path)));
  tfr_diags_set_ours(r->d);
  return false;
}

/* A block's attributes as an object (remote_state: read_terragrunt_config
** and exposed includes show it; nothing here uses it). */
static const tfr_value *attrs_value(struct tg_file *f, const struct ast *body) {
  tfr_arena *a = f->r->a;
  const char **names = tfr_arena_alloc(a, (body->n + 1) * sizeof *names);
  const tfr_value **vals = tfr_arena_alloc(a, (body->n + 1) * sizeof *vals);
  size_t n = 0;
  for (uint32_t i = 0; i < body->n; i++) {
    const struct ast *it = body->items[i];
    if (it->kind != AST_ATTR)
      continue;
    const char *name = tfr_arena_strndup(a, it->str, it->n);
    size_t k = 0;
    while (k < n && strcmp(names[k], name))
      k++;
    names[k] = name;
    vals[k] = eval_in(f, it->kids[0]);
    n += k == n;
  }
  return tfr_object(a, n, names, vals);
}

/* The blocks read_terragrunt_config shows as their attributes. */
static bool simple_block(const struct ast *b) {
  static const char *const names[] = {"dependencies", "exclude", "errors",
                                      "engine", "catalog"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (is_name(b, names[i]))
      return true;
  return false;
}

static void others_add(struct tg_file *f, struct tg_cfg *c, const char *name,
                       const tfr_value *v) {
  tfr_arena *a = f->r->a;
  size_t n = c->others ? c->others->n : 0;
  const char **names = tfr_arena_alloc(a, (n + 1) * sizeof *names);
  const tfr_value **vals = tfr_arena_alloc(a, (n + 1) * sizeof *vals);
  size_t k = 0;
  for (uint32_t i = 0; i < n; i++)
    if (strcmp(c->others->type->names[i], name)) {
      names[k] = c->others->type->names[i];
      vals[k++] = c->others->elems[i];
    }
  names[k] = name;
  vals[k++] = v;
  c->others = tfr_object(a, k, names, vals);
}

/* Stage 1: what comes before any dependency output -- the includes (their
** stage 1), feature defaults, locals, the dependency blocks. */
static void open_body(struct tg_file *f, struct tg_cfg *c,
                      const struct ast *body) {
  read_features(f, body);
  c->features = f->feature;
  read_locals(f, body);
  c->locals = f->local;
  read_deps(f, c, body);
}

/* Stage 2: with dependency.* known, the rest: generate, inputs, the
** terraform block. */
static void close_file(struct tg_cfg *c, const tfr_value *dep,
                       const struct tg_dep *deps, size_t ndeps) {
  struct tg_file *f = c->file;
  const struct ast *body = f->body;
  f->dependency = dep;
  f->deps = deps;
  f->ndeps = ndeps;
  read_generate(f, c, body);
  for (uint32_t i = 0; i < body->n; i++) {
    const struct ast *it = body->items[i];
    if (it->kind == AST_BLOCK && is_name(it, "remote_state"))
      c->remote_state = attrs_value(f, it->kids[1]);
    else if (it->kind == AST_ATTR && !is_name(it, "inputs") &&
             !is_name(it, "remote_state"))
      others_add(f, c, tfr_arena_strndup(f->r->a, it->str, it->n),
                 eval_in(f, it->kids[0]));
    else if (it->kind == AST_BLOCK && simple_block(it))
      others_add(f, c, tfr_arena_strndup(f->r->a, it->str, it->n),
                 attrs_value(f, it->kids[1]));
    else if (it->kind == AST_ATTR && is_name(it, "remote_state"))
      c->remote_state = eval_in(f, it->kids[0]);
    else if (it->kind == AST_ATTR && is_name(it, "inputs"))
      read_inputs(f, c, it);
    else if (it->kind == AST_BLOCK && is_name(it, "terraform"))
      read_terraform(f, c, it);
  }
}

/* A dependency.NAME.inputs (or dependency.NAME[KEY].inputs) traversal in
** x, or NULL (DetectInputsCtyUsage, config.go:1685-1725). */
static const struct ast *dep_inputs(const struct ast *x, int depth) {
  if (!x || depth > AST_MAX_DEPTH)
    return NULL;
  if (x->kind == AST_GETATTR && is_name(x, "inputs")) {
    const struct ast *o = x->kids[0];
    if (o && o->kind == AST_INDEX && o->kids[0] &&
        (o->kids[0]->kind == AST_STRING || o->kids[0]->kind == AST_NUMBER))
      o = o->a;
    if (o && o->kind == AST_GETATTR && o->kids[0] &&
        o->kids[0]->kind == AST_VARIABLE && is_name(o->kids[0], "dependency"))
      return x;
  }
  for (uint32_t i = 0; i < ast_child_count(x); i++) {
    const struct ast *hit = dep_inputs(ast_child(x, i), depth + 1);
    if (hit)
      return hit;
  }
  return NULL;
}

/* Terragrunt's refusal of dependency inputs in a top-level attribute of a
** native-syntax file (DetectDeprecatedConfigurations, config.go:1654-1667,
** run on every file it parses); false after it. */
static bool no_dep_inputs(struct tg_file *f) {
  for (uint32_t i = 0; f->body->kind == AST_BODY && i < f->body->n; i++) {
    const struct ast *it = f->body->items[i];
    const struct ast *hit =
        it->kind == AST_ATTR ? dep_inputs(it->kids[0], 0) : NULL;
    if (hit) {
      tg_error(f, hit, "Dependency inputs not supported",
               "Reading inputs from dependencies is no longer supported. To "
               "acquire values from dependencies, use outputs "
               "(dependency.foo.outputs.bar) instead.");
      return false;
    }
  }
  return true;
}

/* The one-label dependency, unit and stack blocks (the candidates of
** blockIterationCandidateSchema, expansion.go:19-26). */
static bool iteration_candidate(const struct ast *b) {
  return b->kind == AST_BLOCK && b->kids[0] && b->kids[0]->n == 1 &&
         (is_name(b, "dependency") || is_name(b, "unit") ||
          is_name(b, "stack"));
}

bool tg_block_iteration_ok(struct tg_file *f) {
  bool on = tg_experiment(f->r, "block-iteration");
  for (uint32_t i = 0; f->body->kind == AST_BODY && i < f->body->n; i++) {
    const struct ast *b = f->body->items[i], *body;
    if (!iteration_candidate(b))
      continue;
    body = b->kids[1];
    const char *block = tfr_arena_printf(f->r->a, "%.*s \"%s\"", (int)b->n,
                                         b->str, label_of(f->r->a, b));
    for (uint32_t k = 0; k < body->n; k++) {
      const struct ast *it = body->items[k];
      if (it->kind != AST_BLOCK || !is_name(it, "expansion") ||
          (on && is_name(b, "dependency"))) /* read_deps expands it */
        continue;
      /* with the experiment, a unit's or stack's: not read here (a
      ** stack block iteration changes the generated paths) */
      tg_error(f, it,
               on ? "Block iteration not supported"
                  : "Block iteration requires an experiment",
               on ? tfr_arena_printf(f->r->a,
                                     "The expansion block of the %s block "
                                     "(terragrunt's block-iteration "
                                     "experiment) is not read offline yet.",
                                     block)
                  : tfr_arena_printf(
                        f->r->a,
                        "the %s block in %s uses an expansion block, which "
                        "requires the 'block-iteration' experiment; enable "
                        "it with --experiment block-iteration",
                        block, f->src->name));
      return false;
    }
    const struct ast *en = attr_of(body, "enabled");
    if (!on && en && !is_name(b, "dependency")) { /* expansion.go:69-79 */
      tg_error(f, en, "Block iteration requires an experiment",
               tfr_arena_printf(f->r->a,
                                "the %s block in %s uses an enabled "
                                "attribute, which requires the "
                                "'block-iteration' experiment; enable it "
                                "with --experiment block-iteration",
                                block, f->src->name));
      return false;
    }
  }
  return true;
}

static bool errors_since(struct tg_run *r, size_t before) {
  for (size_t i = before; i < tfr_diags_count(r->d); i++)
    if (tfr_diags_get(r->d, i)->sev == TFR_DIAG_ERROR)
      return true;
  return false;
}

static struct tg_cfg *open_file(struct tg_run *r, const char *path,
                                const char *config_path,
                                const struct tg_incl *from) {
  if (on_stack(r, path) || r->nstack == sizeof r->stack / sizeof *r->stack) {
    cycle_error(r, path);
    return NULL;
  }
  struct src_file *src =
      parse_open(r->a, r->d, NULL, tg_show_path(r, tg_real(r, path)), NULL, 0);
  size_t plen = strlen(path);
  bool json = plen > 5 && !strcmp(path + plen - 5, ".json");
  tfr_file *tf = src ? parse_opened(r->a, r->d, src,
                                    json ? TFR_SYNTAX_JSON : TFR_SYNTAX_HCL)
                     : NULL;
  if (!tf)
    return NULL;
  r->stack[r->nstack++] = path;
  struct tg_file *f = tfr_arena_alloc(r->a, sizeof *f);
  *f = (struct tg_file){.r = r,
                        .path = path,
                        .config_path = config_path,
                        .original = r->unit,
                        .from = from,
                        .src = src,
                        .body = json ? tg_json_body(r, src, tf->f.body)
                                     : tf->f.body};
  struct tg_cfg *c = tfr_arena_alloc(r->a, sizeof *c);
  c->path = src->name;
  c->file = f;
  size_t before = tfr_diags_count(r->d);
  f->local = f->include = f->dependency = f->feature =
      tfr_object(r->a, 0, NULL, NULL);
  if ((json || no_dep_inputs(f)) && tg_block_iteration_ok(f) &&
      read_includes(f, f->body))
    open_body(f, c, f->body);
  r->nstack--;
  return errors_since(r, before) ? NULL : c;
}

struct tg_cfg *tg_read_file(struct tg_run *r, const char *path,
                            const char *config_path,
                            const struct tg_incl *from) {
  struct tg_cfg *c = open_file(r, path, config_path, from);
  if (!c)
    return NULL;
  size_t before = tfr_diags_count(r->d);
  struct tg_dep *deps;
  size_t ndeps;
  const tfr_value *dep = dep_object(r, c, &deps, &ndeps);
  struct tg_file *f = c->file;
  for (size_t i = 0; i < f->nincl; i++)
    close_file(f->incl[i].cfg, dep, deps, ndeps);
  include_object(f); /* with the included files' inputs now */
  close_file(c, dep, deps, ndeps);
  if (errors_since(r, before))
    return NULL;
  /* the includes are the unit's to merge */
  if (f->nincl && !tg_merge_includes(r, c, f->incl, f->nincl))
    return NULL;
  return c;
}

const tfr_value *tg_read_values(struct tg_run *r, const char *dir) {
  const char *path = tfr_arena_printf(r->a, "%s/terragrunt.values.hcl", dir);
  struct stat st;
  if (stat(path, &st) != 0)
    return NULL;
  struct src_file *src =
      parse_open(r->a, r->d, NULL, tg_show_path(r, path), NULL, 0);
  tfr_file *tf = src ? parse_opened(r->a, r->d, src, TFR_SYNTAX_HCL) : NULL;
  if (!tf)
    return tfr_unknown(r->a, &tfr_t_dynamic);
  struct tg_file f = {.r = r,
                      .path = path,
                      .config_path = r->unit,
                      .original = r->unit,
                      .src = src,
                      .functions_only = true};
  const struct ast *body = tf->f.body;
  const char **names = tfr_arena_alloc(r->a, (body->n + 1) * sizeof *names);
  const tfr_value **vals = tfr_arena_alloc(r->a, (body->n + 1) * sizeof *vals);
  size_t n = 0;
  for (uint32_t i = 0; i < body->n; i++) {
    const struct ast *it = body->items[i];
    if (it->kind != AST_ATTR)
      continue;
    names[n] = tfr_arena_strndup(r->a, it->str, it->n);
    vals[n++] = eval_in(&f, it->kids[0]);
  }
  return tfr_object(r->a, n, names, vals);
}

/* ---- stack files --------------------------------------------------------- */

/* A stack file's values as terragrunt writes them to the generated
** directory's terragrunt.values.hcl and reads them back (stack.go:1888-2004:
** hclwrite's literals, then an object of what they parse to): lists and
** sets become tuples, maps objects, a null its untyped null. */
static const tfr_value *as_written(tfr_arena *a, const tfr_value *v) {
  if (v->flags & TFR_V_NULL)
    return v->type->kind == TFR_DYNAMIC ? v : tfr_null(a, &tfr_t_dynamic);
  unsigned k = v->type->kind;
  if (k != TFR_LIST && k != TFR_SET && k != TFR_TUPLE && k != TFR_MAP &&
      k != TFR_OBJECT)
    return v;
  const tfr_value **e = tfr_arena_alloc(a, (v->n + 1) * sizeof *e);
  for (uint32_t i = 0; i < v->n; i++)
    e[i] = as_written(a, v->elems[i]);
  const tfr_value *w =
      k == TFR_MAP || k == TFR_OBJECT
          ? tfr_object(a, v->n, k == TFR_MAP ? v->keys : v->type->names, e)
          : tfr_tuple(a, v->n, e);
  unsigned m = v->flags & (TFR_V_SENSITIVE | TFR_V_EPHEMERAL);
  return m ? tfr_value_mark(a, w, m) : w;
}

/* One unit or stack block (stack.go:82-128). */
static bool read_comp(struct tg_file *f, const struct ast *b,
                      struct tg_comp *c) {
  const struct ast *body = b->kids[1];
  c->name = label_of(f->r->a, b);
  c->stack = is_name(b, "stack");
  c->at = src_range(f->src, b->span);
  c->source = str_attr(f, body, "source");
  c->path = str_attr(f, body, "path");
  c->source_at = c->path_at = c->at;
  if (attr_of(body, "source"))
    c->source_at = src_range(f->src, attr_of(body, "source")->span);
  if (attr_of(body, "path"))
    c->path_at = src_range(f->src, attr_of(body, "path")->span);
  c->no_stack = bool_attr(f, body, "no_dot_terragrunt_stack") == 1;
  c->no_validation = bool_attr(f, body, "no_validation") == 1;
  c->enabled = bool_attr(f, body, "enabled") != 0;
  const struct ast *vx = attr_of(body, "values");
  const tfr_value *v = vx ? eval_in(f, vx) : NULL;
  /* a non-null object or map is written (stack.go:1888-1960); one not
  ** wholly known is not, but here that is a value of a call that cannot
  ** run offline (run_cmd...), known when terragrunt runs: kept, unknown */
  if (v && !(v->flags & TFR_V_NULL) &&
      (v->type->kind == TFR_OBJECT || v->type->kind == TFR_MAP))
    c->values = as_written(f->r->a, v);
  else if (v && (v->flags & TFR_V_UNKNOWN))
    c->values = v;
  else if (v && !(v->flags & TFR_V_NULL)) { /* stack.go:802-804, 1905-1908 */
    tg_error(f, vx, "Invalid stack file",
             tfr_arena_printf(f->r->a,
                              "failed to write values %s writeValues: "
                              "expected object or map, got %s",
                              c->name, tfr_type_friendly(f->r->a, v->type)));
    return false;
  }
  for (int i = 0; i < 2; i++) { /* never quoted: sensitive */
    const char *name = i ? "path" : "source";
    const struct ast *x = attr_of(body, name);
    if (x && (i ? c->path : c->source) &&
        tfr_value_has_mark(eval_in(f, x), TFR_V_SENSITIVE)) {
      tg_error(f, x, "Sensitive value in a stack file",
               tfr_arena_printf(f->r->a,
                                "The %s of %s \"%s\" is sensitive: it names "
                                "a directory, which cannot hold a sensitive "
                                "value (terragrunt cannot decode a marked "
                                "value into it).",
                                name, c->stack ? "stack" : "unit", c->name));
      return false;
    }
  }
  const char *miss = !attr_of(body, "source") ? "source"
                     : !attr_of(body, "path") ? "path"
                                              : NULL;
  if (miss) /* hcl's decode of a required attribute */
    tg_error(f, b, "Missing required argument",
             tfr_arena_printf(f->r->a,
                              "The argument \"%s\" is required, but no "
                              "definition was found.",
                              miss));
  return c->source && c->path;
}

/* unit.NAME.path and stack.NAME.path of a stack file: where each block
** generates (injectStackComponentRefs, setStackComponentRefVars,
** stack.go:1308-1378; hclparse/stack.go:94-121), a block whose path is
** not a known string left out. */
static const tfr_value *component_refs(struct tg_file *f, const char *kind) {
  tfr_arena *a = f->r->a;
  const struct ast *body = f->body;
  const char **names = tfr_arena_alloc(a, (body->n + 1) * sizeof *names);
  const tfr_value **vals = tfr_arena_alloc(a, (body->n + 1) * sizeof *vals);
  size_t n = 0;
  tfr_diags *keep = f->r->d; /* read_comp reports them */
  f->r->d = tfr_diags_new(a);
  for (uint32_t i = 0; i < body->n; i++) {
    const struct ast *b = body->items[i];
    if (b->kind != AST_BLOCK || !is_name(b, kind))
      continue;
    const char *name = label_of(a, b), *path = str_attr(f, b->kids[1], "path");
    size_t k = 0;
    while (k < n && strcmp(names[k], name))
      k++;
    if (!path || k < n)
      continue;
    const char *dir = tg_dirname(a, f->path);
    if (bool_attr(f, b->kids[1], "no_dot_terragrunt_stack") != 1)
      dir = tfr_arena_printf(a, "%s/.terragrunt-stack", dir);
    const char *gen = tg_join(a, dir, path);
    const char *pn[1] = {"path"};
    const tfr_value *pv[1] = {tfr_string(a, gen, strlen(gen))};
    names[n] = name;
    vals[n++] = tfr_object(a, 1, pn, pv);
  }
  f->r->d = keep;
  return tfr_object(a, n, names, vals);
}

/* A block of a stack file not read here (include: stack.go:1672-1750;
** autoinclude: stack.go:248-372): a warning of ours. */
static void not_read(struct tg_file *f, const struct ast *b, const char *kind,
                     const char *what) {
  if (b->kind != AST_BLOCK || !is_name(b, kind))
    return;
  struct tfr_range at = src_range(f->src, b->span);
  tfr_diags_add(f->r->d, TFR_DIAG_WARNING, &at, "Block not read",
                tfr_arena_printf(f->r->a,
                                 "This %s block is not read offline yet: %s.",
                                 kind, what));
  tfr_diags_set_ours(f->r->d);
}

size_t tg_read_stack(struct tg_run *r, const char *virt, const char *real,
                     const tfr_value *values, struct tg_comp **out) {
  struct src_file *src =
      parse_open(r->a, r->d, NULL, tg_show_path(r, real), NULL, 0);
  tfr_file *tf = src ? parse_opened(r->a, r->d, src, TFR_SYNTAX_HCL) : NULL;
  if (!tf)
    return (size_t)-1;
  const tfr_value *saved = r->values;
  r->values = values;
  struct tg_file *f = tfr_arena_alloc(r->a, sizeof *f);
  *f = (struct tg_file){
      .r = r, .path = virt, .config_path = virt, .original = virt, .src = src};
  f->local = f->include = f->dependency = f->feature =
      tfr_object(r->a, 0, NULL, NULL);
  size_t before = tfr_diags_count(r->d), n = 0;
  const struct ast *body = tf->f.body;
  f->body = body;
  if (!tg_block_iteration_ok(f)) { /* stack.go:1194 */
    r->values = saved;
    return (size_t)-1;
  }
  read_locals(f, body);
  f->units = component_refs(f, "unit");
  f->stacks = component_refs(f, "stack");
  *out = tfr_arena_alloc(r->a, (body->n + 1) * sizeof **out);
  for (uint32_t i = 0; i < body->n; i++) {
    const struct ast *it = body->items[i];
    if (it->kind == AST_BLOCK &&
        (is_name(it, "unit") || is_name(it, "stack")) &&
        read_comp(f, it, &(*out)[n]))
      n++;
    not_read(f, it, "include", "its units and stacks are not read");
    for (uint32_t k = 0; it->kind == AST_BLOCK && k < it->kids[1]->n; k++)
      not_read(f, it->kids[1]->items[k], "autoinclude",
               "the file terragrunt generates from it is not made, so the "
               "unit is read without it");
  }
  r->values = saved;
  bool any = false, incl = false; /* declared ones, valid or not
                                     (stack.go:1276-1279) */
  for (uint32_t i = 0; i < body->n; i++) {
    const struct ast *it = body->items[i];
    any = any || (it->kind == AST_BLOCK &&
                  (is_name(it, "unit") || is_name(it, "stack")));
    incl = incl || (it->kind == AST_BLOCK && is_name(it, "include"));
  }
  if (!any && !errors_since(r, before))
    tg_error(f, NULL, incl ? "Stack file not read" : "Invalid stack file",
             incl ? "The units and stacks of this stack file come from its "
                    "include blocks, which are not read offline yet."
                  : "stack config must contain at least one unit or stack");
  return errors_since(r, before) ? (size_t)-1 : n;
}
