/*
** The module tree: every `module` block followed into its child module,
** each instance's variables resolved from the arguments the caller gives,
** converted and validated as `terraform plan` does offline -- resources,
** data sources and provider functions unknown.
**
** Terraform's order (backend_local.go, context_plan.go): the root's values
** are parsed; the configuration tree is loaded (configload's
** moduleWalkerLoad, calls in name order, depth first) and each call's
** arguments checked against the child's variables (hcl's Content with the
** graph builders' schema); the graph of every module's expand, variable,
** validation, local and output nodes is built (its cycles are errors);
** the validate walk runs with every root variable unknown, then the plan
** walk with the final root values, node by node in dependency order, a
** node whose dependency failed skipped without a word.
**
** Sources: internal/terraform/node_module_expand.go (expansion),
** node_module_variable.go and eval_variable.go (arguments and rules),
** node_local.go, node_output.go, evaluate.go (references), eval_count.go,
** eval_for_each.go (repetition).
*/
#include "module/tree.h"
#include "base/heap.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/arena_int.h"
#include "base/diag_int.h"
#include "module/engine_tofu.h"
#include "eval/eval.h"
#include "eval/funcs.h"
#include "module/modcache.h"
#include "values/number.h"
#include "syntax/parse.h"
#include "syntax/refwalk.h"
#include "module/scope.h"
#include "module/source.h"
#include "module/strict.h"
#include "base/strutil.h"
#include "tfresolve/tfresolve.h"
#include "module/validate.h"
#include "values/secret.h"

/* ---- the configuration tree -------------------------------------------- */

struct tinst;

/* A module in the tree: the root, or a child loaded for one call path. */
struct tmod {
  const char *addr;    /* "" or "module.a.module.b" */
  const char *dir;     /* where its files are (as the loader opens them) */
  const char *rel;     /* the same relative to the root's directory */
  const char *source;  /* its call's source */
  struct module *m;    /* its configuration */
  struct tmod *parent; /* NULL for the root */
  const struct module_call *call; /* in parent->m */
  struct tmod **children;         /* per call of m (NULL: not loaded) */
  const struct module_arg **args; /* per variable of m: its argument */
  size_t depth;
  struct tinst **insts; /* in the current walk */
  size_t ninsts, cap;
  /* graph nodes: expand; per variable var and validation (or -1); per
  ** local; per output */
  long expand, *var_node, *valid_node, *local_node, *output_node;
  const tfr_value *path; /* path.* in its instances */
};

/* What a call's own arguments see of its repetition. */
struct trep {
  const tfr_value *count_index; /* NULL: no count */
  const tfr_value *each_key, *each_value;
};

/* How one call of an instance expanded. */
struct texp {
  enum { EXP_SINGLE, EXP_COUNT, EXP_FOR_EACH } mode;
  size_t n;
  struct tinst **insts;
  const char **keys; /* for_each keys */
};

/* A module instance: the root's one, or one per count index / for_each
** key of each calling instance. */
struct tinst {
  struct tmod *tm;
  const char *addr;
  struct tinst *parent;
  struct trep rep;
  const tfr_value **vars;    /* per variable: its value (NULL: none) */
  bool *var_done;            /* evaluated (else unknown / failed) */
  const tfr_value **locals;  /* NULL: not evaluated (failed) */
  const tfr_value **outputs; /* NULL: not evaluated */
  struct texp **calls;       /* per call of the module */
  struct tfr_rule **rules;   /* per variable: its rules' outcomes */
  bool *failed;              /* per variable: finalisation or rules failed */
  /* var.*, local.* and module.* as objects, made when first asked for and
  ** dropped when what they hold changes (NULL: to be made) */
  const tfr_value *var_obj, *local_obj, *module_obj;
  const tfr_value **call_val; /* per call: module.NAME, made when asked */
};

enum node_kind { N_EXPAND, N_VAR, N_VALID, N_LOCAL, N_OUTPUT };

struct tnode {
  enum node_kind kind;
  struct tmod *tm;
  size_t index;
  const char *name; /* as Terraform's graph names it */
  long *deps;
  size_t ndeps, cap;
  int state; /* 0 pending, 1 done, 2 failed, 3 skipped (a dependency
                was not done) */
  bool pre;  /* a root variable: resolved before the walk */
};

struct tree {
  tfr_arena *a;
  tfr_diags *diags;
  struct tmod *root;
  struct tmod **all; /* depth first */
  size_t nall, capall;
  char *const *env;
  struct tfr_cache *cache;   /* modules shared with other trees, or NULL */
  const struct overlays *ov; /* an editor's open files, or NULL */
  const tfr_value *const *const_values; /* the root's const variables' */
  bool strict, warn_dropped;
  const char *own_dir;  /* the user's code (third_party_path), or NULL */
  bool unchecked_error; /* a call not checked is an error (-strict too) */
  struct tfr_unchecked *unchecked; /* the calls not checked */
  size_t nunchecked, capunchecked;
  const struct engine_rules *engine;
  /* the manifest of installed modules */
  struct manifest_rec {
    const char *key, *source, *version, *dir;
  } * man;
  size_t nman;
  bool has_man;
  const char *data_dir;
  const char *data_path; /* data_dir as the loader opens paths */
  /* the graph */
  struct tnode *nodes;
  size_t nnodes, capnodes;
  long *order;        /* topological */
  size_t ninsts;      /* instances made in the current walk */
  tfr_arena *scratch; /* what a rule computes, reset after it */
  const tfr_value *path_cwd, *terraform; /* path.cwd, terraform.* */
  /* each expression's references, found once (an open-addressed table
  ** by the expression's address; cap a power of two) */
  struct ref_slot {
    const struct ast *x;
    struct tref_list *l;
  } * refs;
  size_t nrefs, caprefs;
  /* the root variables whose rules read module outputs (validate.h's
  ** validate_after_modules; NULL: none), evaluated here: where their
  ** failures point, and their outcomes */
  const bool *root_later;
  const struct value_place *root_at;
  struct tfr_rule *const *root_rules;
  bool validate; /* the walk is the validate walk */
  bool planned;  /* the plan walk ran */
};

/* ---- paths -------------------------------------------------------------- */

/* Go's filepath.Join(base, rel) with Clean's rules (slashes only). */
static const char *path_join(tfr_arena *a, const char *base, const char *rel) {
  const char *in =
      rel[0] == '/' ? rel : tfr_arena_printf(a, "%s/%s", base, rel);
  bool abs = in[0] == '/';
  size_t len = strlen(in);
  const char **parts = tfr_arena_alloc(a, (len + 1) * sizeof *parts);
  size_t *lens = tfr_arena_alloc(a, (len + 1) * sizeof *lens);
  size_t n = 0, up = 0; /* leading ".." of a relative path */
  for (const char *p = in; *p;) {
    while (*p == '/' || *p == '\\')
      p++;
    const char *s = p;
    while (*p && *p != '/' && *p != '\\')
      p++;
    size_t l = (size_t)(p - s);
    if (!l || (l == 1 && s[0] == '.'))
      continue;
    if (l == 2 && s[0] == '.' && s[1] == '.') {
      if (n > up)
        n--;
      else if (!abs)
        parts[n] = s, lens[n] = l, n++, up++;
      continue;
    }
    parts[n] = s, lens[n] = l, n++;
  }
  struct sbuf b = {0};
  if (abs)
    sbuf_put(&b, "/", 1);
  for (size_t i = 0; i < n; i++) {
    if (i)
      sbuf_put(&b, "/", 1);
    sbuf_put(&b, parts[i], lens[i]);
  }
  if (!b.n)
    sbuf_put(&b, ".", 1);
  const char *out = tfr_arena_strndup(a, b.p, b.n);
  free(b.p);
  return out;
}

static bool is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static const char *env_get(const struct tree *t, const char *name) {
  size_t n = strlen(name);
  if (!t->env)
    return getenv(name);
  for (char *const *e = t->env; *e; e++)
    if (!strncmp(*e, name, n) && (*e)[n] == '=')
      return *e + n + 1;
  return NULL;
}

/* ---- the manifest (.terraform/modules/modules.json) -------------------- */

static const struct ast *json_member(const struct ast *obj, const char *name) {
  if (!obj || obj->kind != AST_OBJECT)
    return NULL;
  for (uint32_t i = 0; i < obj->n; i++) {
    const struct ast *k = obj->items[2 * i];
    if (k->n == strlen(name) && !memcmp(k->str, name, k->n))
      return obj->items[2 * i + 1];
  }
  return NULL;
}

static const char *json_str(tfr_arena *a, const struct ast *obj,
                            const char *name) {
  const struct ast *v = json_member(obj, name);
  return v && v->kind == AST_STRING ? tfr_arena_strndup(a, v->str, v->n) : NULL;
}

/* The manifest `terraform init` writes, as configload reads it; a missing
** or unreadable one is no manifest (every registry module is then not
** installed). */
static void load_manifest(struct tree *t) {
  const char *dd = env_get(t, "TF_DATA_DIR");
  t->data_dir = dd && *dd ? dd : ".terraform";
  t->data_path = path_join(t->a, t->root->dir, t->data_dir);
  const char *path =
      path_join(t->a, t->root->dir,
                tfr_arena_printf(t->a, "%s/modules/modules.json", t->data_dir));
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return;
  tfr_diags *scratch = tfr_diags_new(t->a);
  struct src_file *src = parse_open(t->a, scratch, t->ov, path, NULL, 0);
  if (!src)
    return;
  bool complete;
  struct ast_file *f = parse_config(src, t->a, scratch, &complete);
  if (!f || !complete)
    return;
  const struct ast *mods = json_member(f->body, "Modules");
  if (!mods || mods->kind != AST_TUPLE)
    return;
  t->has_man = true;
  t->man = tfr_arena_alloc(t->a, (mods->n ? mods->n : 1) * sizeof *t->man);
  for (uint32_t i = 0; i < mods->n; i++) {
    const struct ast *r = mods->items[i];
    const char *key = json_str(t->a, r, "Key");
    if (!key)
      continue;
    t->man[t->nman++] = (struct manifest_rec){key, json_str(t->a, r, "Source"),
                                              json_str(t->a, r, "Version"),
                                              json_str(t->a, r, "Dir")};
  }
}

static const struct manifest_rec *manifest_find(const struct tree *t,
                                                const char *key) {
  for (size_t i = 0; i < t->nman; i++)
    if (!strcmp(t->man[i].key, key))
      return &t->man[i];
  return NULL;
}

/* ---- versions (go-version's constraints, as far as modules use them) ---- */

static int vparse(const char *s, long v[3]) {
  int n = 0;
  v[0] = v[1] = v[2] = 0;
  if (*s == 'v')
    s++;
  while (n < 3 && *s >= '0' && *s <= '9') {
    char *end;
    v[n++] = strtol(s, &end, 10);
    s = end;
    if (*s != '.')
      break;
    s++;
  }
  return n;
}

static int vcmp(const long x[3], const long y[3]) {
  for (int i = 0; i < 3; i++)
    if (x[i] != y[i])
      return x[i] < y[i] ? -1 : 1;
  return 0;
}

/* Whether version satisfies every comma-separated constraint; true for
** one it cannot read (Terraform would have refused it at init). */
static bool version_ok(const char *constraint, const char *version) {
  long have[3];
  if (!version || !vparse(version, have))
    return true;
  for (const char *p = constraint; *p;) {
    while (*p == ' ' || *p == ',')
      p++;
    if (!*p)
      break;
    char op[3] = "=";
    if (strchr("=!<>~", *p)) {
      size_t k = 0;
      while (k < 2 && strchr("=!<>~", *p))
        op[k++] = *p++;
      op[k] = 0;
    }
    while (*p == ' ')
      p++;
    long want[3];
    int parts = vparse(p, want);
    while (*p && *p != ',')
      p++;
    if (!parts)
      return true;
    int c = vcmp(have, want);
    bool ok;
    if (!strcmp(op, "=") || !strcmp(op, "=="))
      ok = c == 0;
    else if (!strcmp(op, "!="))
      ok = c != 0;
    else if (!strcmp(op, ">"))
      ok = c > 0;
    else if (!strcmp(op, ">="))
      ok = c >= 0;
    else if (!strcmp(op, "<"))
      ok = c < 0;
    else if (!strcmp(op, "<="))
      ok = c <= 0;
    else if (!strcmp(op, "~>")) {
      /* at least want, below the next release of its second-last part */
      long upper[3] = {want[0], want[1], want[2]};
      int bump = parts >= 2 ? parts - 2 : 0;
      upper[bump]++;
      for (int i = bump + 1; i < 3; i++)
        upper[i] = 0;
      ok = c >= 0 && vcmp(have, upper) < 0;
    } else
      return true;
    if (!ok)
      return false;
  }
  return true;
}

/* ---- loading ------------------------------------------------------------ */

static void add_mod(struct tree *t, struct tmod *tm) {
  if (t->nall == t->capall) {
    t->capall = t->capall ? 2 * t->capall : 8;
    struct tmod **n = tfr_arena_alloc(t->a, t->capall * sizeof *n);
    if (t->nall)
      memcpy(n, t->all, t->nall * sizeof *n);
    t->all = n;
  }
  t->all[t->nall++] = tm;
}

static void call_error_in(struct tree *t, struct src_file *src, struct span at,
                          const char *addr, const char *summary,
                          const char *detail) {
  size_t before = tfr_diags_count(t->diags);
  struct tfr_range r = src_range(src, at);
  tfr_diags_add(t->diags, TFR_DIAG_ERROR, &r, summary, detail);
  diags_set_module_since(t->diags, before, addr);
}

static void call_error(struct tree *t, const struct module_call *c,
                       struct span at, const char *addr, const char *summary,
                       const char *detail) {
  call_error_in(t, c->src, at, addr, summary, detail);
}

/* The argument check of Terraform's init walk: every argument must be a
** variable of the child (hcl's Unsupported argument, with its
** suggestion among the variables not set). */
static void unsupported_args(struct tree *t, struct tmod *tm) {
  const struct module_call *c = tm->call;
  const struct module *m = tm->m;
  for (size_t i = 0; i < c->nargs; i++) {
    const struct module_arg *arg = &c->args[i];
    long k = module_var_index(m, arg->name, strlen(arg->name));
    if (k >= 0) {
      if (!tm->args[k])
        tm->args[k] = arg;
      continue;
    }
    const char *near = "";
    for (size_t j = 0; j < m->nvars && !*near; j++) {
      bool set = false;
      for (size_t q = 0; q < c->nargs && !set; q++)
        set = !strcmp(c->args[q].name, m->vars[j].name);
      if (!set && str_distance(arg->name, strlen(arg->name), m->vars[j].name,
                               strlen(m->vars[j].name)) < 3)
        near = tfr_arena_printf(
            t->a, " Did you mean %s?",
            str_go_quote(t->a, m->vars[j].name, strlen(m->vars[j].name)));
    }
    call_error_in(
        t, arg->file, arg->name_span, tm->addr, "Unsupported argument",
        tfr_arena_printf(t->a,
                         "An argument named %s is not expected "
                         "here.%s",
                         str_go_quote(t->a, arg->name, strlen(arg->name)),
                         near));
  }
}

static struct tmod *new_mod(struct tree *t, struct module *m, const char *addr,
                            const char *dir, const char *rel) {
  struct tmod *tm = tfr_arena_alloc(t->a, sizeof *tm);
  tm->addr = addr;
  tm->dir = dir;
  tm->rel = rel;
  tm->m = m;
  tm->children =
      tfr_arena_alloc(t->a, (m->ncalls ? m->ncalls : 1) * sizeof *tm->children);
  tm->args =
      tfr_arena_alloc(t->a, (m->nvars ? m->nvars : 1) * sizeof *tm->args);
  add_mod(t, tm);
  return tm;
}

/* Whether dir is being loaded by one of tm's ancestors (a cycle). */
static bool loading(const struct tmod *tm, const char *dir) {
  for (; tm; tm = tm->parent)
    if (!strcmp(tm->dir, dir))
      return true;
  return false;
}

/* A call whose instances are not checked, for the verdict to name
** (tfr_resolution.unchecked): why, in a few words, and where. */
static void add_unchecked(struct tree *t, const char *addr,
                          enum tfr_unchecked_reason reason, const char *why,
                          struct tfr_range at) {
  if (t->nunchecked == t->capunchecked) {
    t->capunchecked = t->capunchecked ? 2 * t->capunchecked : 4;
    struct tfr_unchecked *n =
        tfr_arena_alloc(t->a, t->capunchecked * sizeof *n);
    if (t->nunchecked)
      memcpy(n, t->unchecked, t->nunchecked * sizeof *n);
    t->unchecked = n;
  }
  t->unchecked[t->nunchecked++] = (struct tfr_unchecked){addr, reason, why, at};
}

/* Terraform's "Module not installed" at the call
** (configs/configload/loader_load.go:47-57, 97-108): a warning unless
** -strict or -unchecked=error (ours: everything else is still checked),
** as plan's error with them.  The call is not checked: rel is its local
** directory that does not exist, or NULL (a remote source). */
/* The last diagnostic is an error only because of -strict or
** -unchecked=error (a module not checked fails the check): said in a
** note, and the run goes on past it (tfr_diag.strict). */
static void unchecked_fails(struct tree *t) {
  tfr_diags_set_note(t->diags, "An error because of -strict or "
                               "-unchecked=error: a module that is not "
                               "checked fails the check.");
  diags_set_strict(t->diags);
}

static void not_installed(struct tree *t, const struct module_call *c,
                          const char *addr, const char *detail,
                          const char *rel) {
  size_t before = tfr_diags_count(t->diags);
  call_error(t, c, c->decl, addr, "Module not installed", detail);
  add_unchecked(t, addr,
                rel ? TFR_UNCHECKED_NO_DIRECTORY : TFR_UNCHECKED_NOT_INSTALLED,
                rel ? tfr_arena_printf(t->a, "directory %s not found", rel)
                    : tfr_arena_printf(t->a, "not installed: run \"%s init\"",
                                       t->engine->command),
                src_range(c->src, c->decl));
  if (t->unchecked_error) {
    /* plan's error, but only because of the flag: everything else is
    ** still checked and reported (issue 37) */
    diags_at(t->diags, before)->strict = true;
    return;
  }
  diags_at(t->diags, before)->sev = TFR_DIAG_WARNING;
  tfr_diags_set_note(t->diags,
                     tfr_arena_printf(t->a,
                                      "A warning here, not an error: %s is "
                                      "not checked. Run \"terraform init\" "
                                      "or \"terraform get\" to install it "
                                      "(with -strict or -unchecked=error "
                                      "this is an error, as in plan).",
                                      addr));
}

/* A call's source that does not parse: Terraform's error at the source,
** and the call is not followed (node_module_install.go:277-328; OpenTofu
** gives the same texts with its name where it decodes the call,
** module_call.go:215-252). */
static bool source_ok(struct tree *t, const struct module_call *c,
                      const char *addr) {
  struct source_error err;
  const char *product = t->engine->product;
  if (source_normal(t->a, c->source, t->engine->registry_host,
                    c->version != NULL, &err))
    return true;
  const char *rel = err.relative, *detail;
  if (rel)
    detail = tfr_arena_printf(
        t->a,
        "%s failed to determine your intended installation method for "
        "remote module package %s.\n\nIf you intended this as a path "
        "relative to the current module, use \"./%s\" instead. The \"./\" "
        "prefix indicates that the address is a relative filesystem path.",
        product, str_go_quote(t->a, rel, strlen(rel)), rel);
  else if (c->version)
    detail = tfr_arena_printf(
        t->a,
        "Failed to parse module registry address: %s.\n\n%s assumed that "
        "you intended a module registry source address because you also set "
        "the argument \"version\", which applies only to registry modules.",
        err.text, product);
  else
    detail = tfr_arena_printf(
        t->a, "Failed to parse module source address: %s.", err.text);
  call_error_in(t, c->source_src, c->source_span, addr,
                !rel && c->version ? "Invalid registry module source address"
                                   : "Invalid module source address",
                detail);
  return false;
}

/* The "Module source has changed" and "Module version requirements have
** changed" errors of a call whose manifest record no longer matches it
** (loader_load.go:59-91): both sources as ParseModuleSource prints them
** (source.c; modsdir/manifest.go:100-112 reads the record's so), a call
** with a `version` read as a registry address only (config_build.go:
** 180-184); one that does not parse is not compared (its error is the
** configuration's). */
static void check_record(struct tree *t, const struct module_call *c,
                         const char *addr, const struct manifest_rec *rec) {
  const struct engine_rules *e = t->engine;
  const char *given = source_normal(t->a, c->source, e->registry_host,
                                    c->version != NULL, NULL);
  const char *had = rec->source ? rec->source : "";
  const char *had_normal =
      *had ? source_normal(t->a, had, e->registry_host, false, NULL) : NULL;
  if (had_normal)
    had = had_normal;
  const char *run = tfr_arena_printf(t->a,
                                     "Run \"%s\" to install all modules "
                                     "required by this configuration.",
                                     e->init_command);
  if (given && strcmp(given, had))
    call_error_in(
        t, c->source_src, c->source_span, addr, "Module source has changed",
        e->source_change_named
            ? tfr_arena_printf(t->a,
                               "The source address was changed from %s to %s "
                               "since this module was installed. %s",
                               str_go_quote(t->a, had, strlen(had)),
                               str_go_quote(t->a, given, strlen(given)), run)
            : tfr_arena_printf(t->a,
                               "The source address was changed since this "
                               "module was installed. %s",
                               run));
  if (c->version && !rec->version)
    call_error_in(t, c->source_src, c->source_span, addr,
                  "Module version requirements have changed",
                  tfr_arena_printf(t->a,
                                   "The version requirements have changed "
                                   "since this module was installed and the "
                                   "installed version is no longer "
                                   "acceptable. %s",
                                   run));
  else if (c->version && !version_ok(c->version, rec->version))
    call_error_in(t, c->source_src, c->source_span, addr,
                  "Module version requirements have changed",
                  tfr_arena_printf(t->a,
                                   "The version requirements have changed "
                                   "since this module was installed and the "
                                   "installed version (%s) is no longer "
                                   "acceptable. %s",
                                   rec->version, run));
}

/* Where the child of call c is, as configload's moduleWalkerLoad finds it
** (loader_load.go:45-93): its record in the manifest (key: the call path,
** dotted), checked against the call; "Module not installed" without one
** (false).  Without a manifest at all a local source is read where it is
** (Terraform would say it is not installed: tfresolve checks it). */
static bool child_dir(struct tree *t, const struct tmod *tm,
                      const struct module_call *c, const char *addr,
                      const char *key, const char **dir, const char **rel) {
  if (!t->has_man && source_is_local(c->source)) {
    *dir = path_join(t->a, tm->dir, c->source);
    *rel = path_join(t->a, tm->rel, c->source);
    return true;
  }
  const struct manifest_rec *rec = manifest_find(t, key);
  if (!rec) {
    not_installed(t, c, addr,
                  tfr_arena_printf(t->a,
                                   "This module is not yet installed. Run "
                                   "\"%s\" to install all modules required by "
                                   "this configuration.",
                                   t->engine->init_command),
                  NULL);
    return false;
  }
  check_record(t, c, addr, rec);
  const char *d = rec->dir ? rec->dir : "";
  *dir = path_join(t->a, t->root->dir, d);
  *rel = path_join(t->a, ".", d);
  return true;
}

static const char *eval_source(struct tree *t, struct tmod *tm,
                               const struct module_call *c, const char *addr);

/* The children of tm, depth first, calls in name order. */
static void load_children(struct tree *t, struct tmod *tm) {
  const struct module *m = tm->m;
  for (size_t i = 0; i < m->ncalls; i++) {
    const struct module_call *c = &m->calls[i];
    const char *addr =
        *tm->addr ? tfr_arena_printf(t->a, "%s.module.%s", tm->addr, c->name)
                  : tfr_arena_printf(t->a, "module.%s", c->name);
    if (!c->source && c->source_expr) {
      struct module_call *mc =
          UNCONST(struct module_call *, c); /* the tree's own */
      mc->source = eval_source(t, tm, c, addr);
    }
    if (!c->source)
      continue; /* its block's error is reported */
    if (!source_ok(t, c, addr))
      continue;
    /* the manifest's key: the call names from the root, dotted */
    const char *key = addr + 7;
    struct sbuf kb = {0};
    for (const char *p = key; *p;) {
      if (!strncmp(p, ".module.", 8)) {
        sbuf_put(&kb, ".", 1);
        p += 8;
      } else
        sbuf_put(&kb, p++, 1);
    }
    key = tfr_arena_strndup(t->a, kb.p, kb.n);
    free(kb.p);
    const char *dir, *rel;
    if (!child_dir(t, tm, c, addr, key, &dir, &rel))
      continue;
    if (!is_dir(dir)) {
      not_installed(t, c, addr,
                    tfr_arena_printf(t->a,
                                     "This module's local cache directory %s "
                                     "could not be read. Run \"%s\" to "
                                     "install all modules required by this "
                                     "configuration.",
                                     rel, t->engine->init_command),
                    source_is_local(c->source) ? rel : NULL);
      continue;
    }
    if (tm->depth + 1 > TREE_MAX_DEPTH || loading(tm, dir)) {
      bool deep = tm->depth + 1 > TREE_MAX_DEPTH;
      call_error(t, c, c->decl, addr,
                 deep ? "Module tree too deep" : "Module calls itself",
                 deep ? tfr_arena_printf(t->a,
                                         "The module call path %s is deeper "
                                         "than %d levels, the most tfresolve "
                                         "follows.",
                                         addr, TREE_MAX_DEPTH)
                      : tfr_arena_printf(t->a,
                                         "The module call %s loads %s, which "
                                         "one of its callers already loads: "
                                         "the tree would never end.",
                                         addr, rel));
      tfr_diags_set_ours(t->diags);
      continue;
    }
    size_t before = tfr_diags_count(t->diags);
    struct module *cm =
        modcache_load(t->cache, t->a, t->diags, dir, m->opentofu, t->ov);
    if (cm->tree_diags)
      diags_append(t->diags, cm->tree_diags);
    cm->addr = addr;
    diags_set_module_since(t->diags, before, addr);
    struct tmod *child = new_mod(t, cm, addr, dir, rel);
    child->source = c->source;
    child->parent = tm;
    child->call = c;
    child->depth = tm->depth + 1;
    tm->children[i] = child;
    unsupported_args(t, child);
    load_children(t, child);
  }
}

/* A notice of ours about a module as a whole ("OpenTofu files ignored"
** where 37 installed modules ship versions.tofu) is said once, its note
** naming every module it is about (issue 37): the rest go. */
static void notices_once(struct tree *t) {
  size_t n = tfr_diags_count(t->diags), ngroups = 0;
  struct strmap groups = {0};
  size_t *group = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *group);
  size_t *first = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *first);
  bool *keep = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *keep);
  for (size_t i = 0; i < n; i++) {
    const struct tfr_diag *g = diags_at(t->diags, i);
    keep[i] = true;
    group[i] = SIZE_MAX;
    if (!g->ours || g->sev != TFR_DIAG_WARNING || g->subject.filename)
      continue;
    const char *key = tfr_arena_printf(t->a, "%s\n%s", g->summary,
                                       g->detail ? g->detail : "");
    if (strmap_add(&groups, key, ngroups, &group[i])) {
      group[i] = ngroups;
      first[ngroups++] = i;
    } else
      keep[i] = false;
  }
  strmap_free(&groups);
  for (size_t k = 0; k < ngroups; k++) {
    struct sbuf who = {0};
    size_t many = 0;
    for (size_t i = first[k]; i < n; i++) {
      if (group[i] != k)
        continue;
      const char *m = diags_at(t->diags, i)->module;
      sbuf_str(&who, many++ ? ", " : "");
      sbuf_str(&who, m && *m ? m : "the root module");
    }
    if (many > 1)
      diags_at(t->diags, first[k])->note = tfr_arena_printf(
          t->a, "Said once for the %zu modules it is about: %.*s.", many,
          (int)who.n, who.p);
    free(who.p);
  }
  diags_keep(t->diags, keep);
}

/* The validate graph builder's check (transform_module_variable.go): a
** variable without a default must be given; hcl's error at the body. */
static void required_args(struct tree *t) {
  for (size_t i = 1; i < t->nall; i++) {
    struct tmod *tm = t->all[i];
    for (size_t k = 0; k < tm->m->nvars; k++) {
      const struct var_decl *v = &tm->m->vars[k];
      if (v->has_default || tm->args[k])
        continue;
      call_error(
          t, tm->call, tm->call->missing, tm->addr, "Missing required argument",
          tfr_arena_printf(t->a,
                           "The argument %s is required, but no "
                           "definition was found.",
                           str_go_quote(t->a, v->name, strlen(v->name))));
      const char *near = NULL;
      for (size_t q = 0; q < tm->call->nargs && !near; q++)
        if (module_var_index(tm->m, tm->call->args[q].name,
                             strlen(tm->call->args[q].name)) < 0 &&
            str_distance(v->name, strlen(v->name), tm->call->args[q].name,
                         strlen(tm->call->args[q].name)) < 3)
          near = tm->call->args[q].name;
      if (near)
        tfr_diags_set_note(t->diags,
                           tfr_arena_printf(t->a,
                                            "The call sets \"%s\": did you "
                                            "mean \"%s\"?",
                                            near, v->name));
    }
  }
}

struct tree *tree_load(tfr_arena *a, tfr_diags *diags, struct module *root,
                       const tfr_value *const *const_values, char *const *env,
                       struct tfr_cache *cache, bool strict, bool warn_dropped,
                       bool unchecked_error, const struct overlays *ov,
                       bool *ok) {
  *ok = true;
  if (!root->ncalls)
    return NULL;
  struct tree *t = tfr_arena_alloc(a, sizeof *t);
  t->a = a;
  t->diags = diags;
  t->env = env;
  t->ov = ov;
  /* without a cache shared with other resolutions, one of the tree's
  ** own: a module called from several places is read once */
  if (!cache) {
    cache = tfr_cache_new();
    tfr_arena_on_free(a, (void (*)(void *))tfr_cache_free, cache);
  }
  t->cache = cache;
  t->scratch = tfr_arena_new();
  tfr_arena_on_free(a, (void (*)(void *))tfr_arena_free, t->scratch);
  t->const_values = const_values;
  t->strict = strict;
  t->warn_dropped = warn_dropped;
  t->unchecked_error = strict || unchecked_error;
  t->engine = engine_rules(root->opentofu);
  t->root = new_mod(t, root, "", root->dir, ".");
  size_t before = tfr_diags_count(diags);
  if (root->tree_diags)
    for (size_t j = 0; j < tfr_diags_count(root->tree_diags); j++) {
      const struct tfr_diag *g = tfr_diags_get(root->tree_diags, j);
      tfr_diags_add(diags, g->sev, g->subject.filename ? &g->subject : NULL,
                    g->summary, g->detail);
      if (g->ours)
        tfr_diags_set_ours(diags);
    }
  /* OpenTofu decodes a call's source with its module: a root call's
  ** invalid source is a root configuration error */
  for (size_t i = 0; t->engine->source_at_decode && i < root->ncalls; i++)
    if (root->calls[i].source)
      source_ok(t, &root->calls[i], "");
  /* a root module with configuration errors loads no child: plan stops
  ** there (internal/command/meta_config.go:109-117) */
  if (diags_errors_since(diags, before)) {
    *ok = false;
    return t;
  }
  load_manifest(t);
  load_children(t, t->root);
  notices_once(t);
  if (diags_errors_since(diags, before)) {
    *ok = false;
    return t;
  }
  required_args(t);
  *ok = !diags_errors_since(diags, before);
  return t;
}

/* ---- references --------------------------------------------------------- */

/* One reference: its root name and the names of its first steps. */
struct tref {
  const char *root;
  size_t rlen;
  const char *a1, *a2; /* attribute names (NULL: none, or an index) */
  size_t l1, l2;
  bool i1;          /* the first step is an index */
  struct span span; /* the whole traversal */
};

struct tref_list {
  tfr_arena *a;
  struct tref *v;
  size_t n, cap;
};

/* The steps of traversal x from its root, innermost first. */
static size_t steps_of(const struct ast *x, const struct ast *root,
                       const struct ast **out, size_t max) {
  size_t n = 0;
  for (const struct ast *p = x; p && p != root;
       p = p->kind == AST_GETATTR ? p->kids[0] : p->a)
    n++;
  size_t k = n;
  for (const struct ast *p = x; p && p != root;
       p = p->kind == AST_GETATTR ? p->kids[0] : p->a) {
    k--;
    if (k < max)
      out[k] = p;
  }
  return n;
}

struct ref_collect {
  struct refwalk w; /* first */
  struct tref_list *l;
};

static bool collect_ref(struct refwalk *w, const struct ast *x,
                        const struct ast *root) {
  struct tref_list *l = ((struct ref_collect *)(void *)w)->l;
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 8;
    struct tref *nv = tfr_arena_alloc(l->a, l->cap * sizeof *nv);
    if (l->n)
      memcpy(nv, l->v, l->n * sizeof *nv);
    l->v = nv;
  }
  struct tref *r = &l->v[l->n++];
  *r = (struct tref){0};
  r->root = root->str;
  r->rlen = root->n;
  r->span = x->span;
  const struct ast *st[3] = {0};
  size_t n = steps_of(x, root, st, 3);
  if (n >= 1 && st[0]->kind == AST_GETATTR)
    r->a1 = st[0]->str, r->l1 = st[0]->n;
  else if (n >= 1)
    r->i1 = true;
  /* module.NAME[KEY].OUT: the output after an index */
  const struct ast *s2 = n >= 2 ? st[1] : NULL;
  if (s2 && s2->kind == AST_INDEX && n >= 3)
    s2 = st[2];
  if (s2 && s2->kind == AST_GETATTR)
    r->a2 = s2->str, r->l2 = s2->n;
  return false;
}

static struct tref_list refs_walk(tfr_arena *a, const struct ast *x) {
  struct tref_list l = {a, NULL, 0, 0};
  if (!x)
    return l;
  struct ref_collect c = {{collect_ref, NULL, true}, &l};
  refwalk(&c.w, x, NULL);
  return l;
}

/* x's references, found once per expression. */
static struct tref_list refs_of_x(struct tree *t, const struct ast *x) {
  if (!x)
    return (struct tref_list){t->a, NULL, 0, 0};
  if (2 * (t->nrefs + 1) > t->caprefs) {
    size_t cap = t->caprefs ? 2 * t->caprefs : 256;
    struct ref_slot *n = tfr_arena_alloc(t->a, cap * sizeof *n);
    for (size_t i = 0; i < t->caprefs; i++)
      if (t->refs[i].x) {
        size_t h = ((uintptr_t)t->refs[i].x >> 4) * 0x9E3779B97F4A7C15ull;
        for (h &= cap - 1; n[h].x; h = (h + 1) & (cap - 1))
          ;
        n[h] = t->refs[i];
      }
    t->refs = n;
    t->caprefs = cap;
  }
  size_t h = ((uintptr_t)x >> 4) * 0x9E3779B97F4A7C15ull;
  for (h &= t->caprefs - 1; t->refs[h].x; h = (h + 1) & (t->caprefs - 1))
    if (t->refs[h].x == x)
      return *t->refs[h].l;
  struct tref_list *l = tfr_arena_alloc(t->a, sizeof *l);
  *l = refs_walk(t->a, x);
  t->refs[h] = (struct ref_slot){x, l};
  t->nrefs++;
  return *l;
}

static bool root_is(const struct tref *r, const char *s) {
  return r->rlen == strlen(s) && !memcmp(r->root, s, r->rlen);
}

static bool a1_is(const struct tref *r, const char *s, size_t n) {
  return r->a1 && r->l1 == n && !memcmp(r->a1, s, n);
}

/* evaluate.go's errors for count and each where the expression has no
** such repetition, or an attribute they do not have; true if none. */
static bool repetition_refs(struct tree *t, struct src_file *src,
                            const struct tref_list *l, const struct trep *rep,
                            const char *var) {
  bool ok = true;
  for (size_t i = 0; i < l->n; i++) {
    const struct tref *r = &l->v[i];
    const char *summary = NULL, *detail = NULL;
    if (root_is(r, "count")) {
      if (!rep || !rep->count_index) {
        summary = "Reference to \"count\" in non-counted context";
        detail = "The \"count\" object can only be used in \"module\", "
                 "\"resource\", and \"data\" blocks, and only when the "
                 "\"count\" argument is set.";
      } else if (r->a1 && !a1_is(r, "index", 5)) {
        summary = "Invalid \"count\" attribute";
        detail = tfr_arena_printf(
            t->a,
            "The \"count\" object does not have an attribute named %s. The "
            "only supported attribute is count.index, which is the index of "
            "each instance of a resource block that has the \"count\" "
            "argument set.",
            str_go_quote(t->a, r->a1, r->l1));
      }
    } else if (root_is(r, "each")) {
      if (!rep || !rep->each_key) {
        summary = "Reference to \"each\" in context without for_each";
        detail = "The \"each\" object can be used only in \"module\" or "
                 "\"resource\" blocks, and only when the \"for_each\" "
                 "argument is set.";
      } else if (r->a1 && !a1_is(r, "key", 3) && !a1_is(r, "value", 5)) {
        summary = "Invalid \"each\" attribute";
        detail = tfr_arena_printf(
            t->a,
            "The \"each\" object does not have an attribute named %s. The "
            "supported attributes are each.key and each.value, the current "
            "key and value pair of the \"for_each\" attribute set.",
            str_go_quote(t->a, r->a1, r->l1));
      }
    }
    if (!summary)
      continue;
    struct tfr_range rg = src_range(src, r->span);
    tfr_diags_add(t->diags, TFR_DIAG_ERROR, &rg, summary, detail);
    if (var)
      tfr_diags_set_variable(t->diags, var);
    ok = false;
  }
  return ok;
}

/* ---- the graph ---------------------------------------------------------- */

static long add_node(struct tree *t, enum node_kind kind, struct tmod *tm,
                     size_t index, const char *name) {
  if (t->nnodes == t->capnodes) {
    t->capnodes = t->capnodes ? 2 * t->capnodes : 64;
    struct tnode *n = tfr_arena_alloc(t->a, t->capnodes * sizeof *n);
    if (t->nnodes)
      memcpy(n, t->nodes, t->nnodes * sizeof *n);
    t->nodes = n;
  }
  struct tnode *n = &t->nodes[t->nnodes];
  *n = (struct tnode){kind, tm, index, name, NULL, 0, 0, 0, false};
  return (long)t->nnodes++;
}

static void dep(struct tree *t, long from, long to) {
  if (to < 0 || to == from)
    return;
  struct tnode *n = &t->nodes[from];
  for (size_t i = 0; i < n->ndeps; i++)
    if (n->deps[i] == to)
      return;
  if (n->ndeps == n->cap) {
    n->cap = n->cap ? 2 * n->cap : 4;
    long *d = tfr_arena_alloc(t->a, n->cap * sizeof *d);
    if (n->ndeps)
      memcpy(d, n->deps, n->ndeps * sizeof *d);
    n->deps = d;
  }
  n->deps[n->ndeps++] = to;
}

/* The nodes an expression evaluated in tm depends on. */
static void ref_deps(struct tree *t, long self, struct tmod *tm,
                     const struct ast *x) {
  struct tref_list l = refs_of_x(t, x);
  const struct module *m = tm->m;
  for (size_t i = 0; i < l.n; i++) {
    const struct tref *r = &l.v[i];
    if (!r->a1)
      continue;
    if (root_is(r, "var")) {
      long k = module_var_index(m, r->a1, r->l1);
      if (k >= 0) {
        dep(t, self, tm->var_node[k]);
        dep(t, self, tm->valid_node[k]);
      }
    } else if (root_is(r, "local")) {
      long k = scope_local_index(m, r->a1, r->l1);
      if (k >= 0)
        dep(t, self, tm->local_node[k]);
    } else if (root_is(r, "module")) {
      for (size_t c = 0; c < m->ncalls; c++) {
        struct tmod *ch = tm->children[c];
        if (!ch || strlen(m->calls[c].name) != r->l1 ||
            memcmp(m->calls[c].name, r->a1, r->l1))
          continue;
        dep(t, self, ch->expand);
        long o = -1;
        for (size_t q = 0; r->a2 && q < ch->m->noutputs; q++)
          if (strlen(ch->m->outputs[q].name) == r->l2 &&
              !memcmp(ch->m->outputs[q].name, r->a2, r->l2))
            o = ch->output_node[q];
        if (o >= 0)
          dep(t, self, o);
        else
          for (size_t q = 0; q < ch->m->noutputs; q++)
            dep(t, self, ch->output_node[q]);
      }
    }
  }
}

/* a, b and c one after another, in the tree's arena (graph names: a
** module of thousands of locals names them all). */
static const char *cat3(struct tree *t, const char *a, const char *b,
                        const char *c) {
  size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
  char *s = tfr_arena_alloc_raw(t->a, la + lb + lc + 1);
  memcpy(s, a, la);
  memcpy(s + la, b, lb);
  memcpy(s + la + lb, c, lc + 1);
  return s;
}

static const char *node_prefix(struct tree *t, const struct tmod *tm) {
  return *tm->addr ? tfr_arena_printf(t->a, "%s.", tm->addr) : "";
}

static void build_graph(struct tree *t) {
  for (size_t i = 0; i < t->nall; i++) {
    struct tmod *tm = t->all[i];
    const struct module *m = tm->m;
    const char *p = node_prefix(t, tm);
    const char *pv = cat3(t, p, "var.", ""), *pl = cat3(t, p, "local.", ""),
               *po = cat3(t, p, "output.", "");
    size_t nv = m->nvars ? m->nvars : 1;
    tm->var_node = tfr_arena_alloc(t->a, nv * sizeof *tm->var_node);
    tm->valid_node = tfr_arena_alloc(t->a, nv * sizeof *tm->valid_node);
    tm->local_node = tfr_arena_alloc(t->a, (m->nlocals ? m->nlocals : 1) *
                                               sizeof *tm->local_node);
    tm->output_node = tfr_arena_alloc(t->a, (m->noutputs ? m->noutputs : 1) *
                                                sizeof *tm->output_node);
    tm->expand = tm->parent ? add_node(t, N_EXPAND, tm, 0,
                                       cat3(t, tm->addr, " (expand)", ""))
                            : -1;
    for (size_t k = 0; k < m->nvars; k++) {
      tm->var_node[k] =
          add_node(t, N_VAR, tm, k, cat3(t, pv, m->vars[k].name, " (expand)"));
      tm->valid_node[k] = -1;
      if (!tm->parent)
        t->nodes[tm->var_node[k]].pre = true;
      if (m->vars[k].nvalidations &&
          (tm->parent || (t->root_later && t->root_later[k])))
        tm->valid_node[k] = add_node(
            t, N_VALID, tm, k, cat3(t, pv, m->vars[k].name, " (validation)"));
    }
    for (size_t k = 0; k < m->nlocals; k++)
      tm->local_node[k] = add_node(t, N_LOCAL, tm, k,
                                   cat3(t, pl, m->locals[k].name, " (expand)"));
    for (size_t k = 0; k < m->noutputs; k++)
      tm->output_node[k] = add_node(
          t, N_OUTPUT, tm, k, cat3(t, po, m->outputs[k].name, " (expand)"));
  }
  for (size_t n = 0; n < t->nnodes; n++) {
    struct tnode *nd = &t->nodes[n];
    struct tmod *tm = nd->tm;
    const struct module *m = tm->m;
    long self = (long)n;
    if (tm->parent && nd->kind != N_EXPAND)
      dep(t, self, tm->expand);
    switch (nd->kind) {
    case N_EXPAND:
      if (tm->parent->parent)
        dep(t, self, tm->parent->expand);
      ref_deps(t, self, tm->parent, tm->call->count);
      ref_deps(t, self, tm->parent, tm->call->for_each);
      break;
    case N_VAR:
      if (!nd->pre && tm->args[nd->index])
        ref_deps(t, self, tm->parent, tm->args[nd->index]->expr);
      break;
    case N_VALID: {
      dep(t, self, tm->var_node[nd->index]);
      const struct var_decl *v = &m->vars[nd->index];
      for (size_t i = 0; i < v->nvalidations; i++) {
        ref_deps(t, self, tm, v->validations[i].condition);
        ref_deps(t, self, tm, v->validations[i].error_message);
      }
      break;
    }
    case N_LOCAL:
      ref_deps(t, self, tm, m->locals[nd->index].expr);
      break;
    case N_OUTPUT:
      ref_deps(t, self, tm, m->outputs[nd->index].expr);
      break;
    }
  }
}

/* A binary heap of node indexes, least name first. */
struct heap {
  long *v;
  size_t n;
  const struct tnode *nodes;
};

static bool less(const struct heap *h, size_t i, size_t j) {
  return strcmp(h->nodes[h->v[i]].name, h->nodes[h->v[j]].name) < 0;
}

static void heap_push(struct heap *h, long x) {
  size_t i = h->n++;
  h->v[i] = x;
  while (i && less(h, i, (i - 1) / 2)) {
    long s = h->v[i];
    h->v[i] = h->v[(i - 1) / 2];
    h->v[(i - 1) / 2] = s;
    i = (i - 1) / 2;
  }
}

static long heap_pop(struct heap *h) {
  long top = h->v[0];
  h->v[0] = h->v[--h->n];
  for (size_t i = 0;;) {
    size_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < h->n && less(h, l, m))
      m = l;
    if (r < h->n && less(h, r, m))
      m = r;
    if (m == i)
      break;
    long s = h->v[i];
    h->v[i] = h->v[m];
    h->v[m] = s;
    i = m;
  }
  return top;
}

/* Tarjan's components of the nodes left (nodes with pending[n] > 0). */
struct tarjan {
  struct tree *t;
  const size_t *pending;
  long *index, *low;
  bool *on;
  long *stack;
  size_t sp;
  long next;
  bool any;
};

static void strong(struct tarjan *tj, long v) {
  struct tree *t = tj->t;
  tj->index[v] = tj->low[v] = tj->next++;
  tj->stack[tj->sp++] = v;
  tj->on[v] = true;
  const struct tnode *n = &t->nodes[v];
  for (size_t i = 0; i < n->ndeps; i++) {
    long w = n->deps[i];
    if (!tj->pending[w])
      continue;
    if (tj->index[w] < 0) {
      strong(tj, w);
      if (tj->low[w] < tj->low[v])
        tj->low[v] = tj->low[w];
    } else if (tj->on[w] && tj->index[w] < tj->low[v])
      tj->low[v] = tj->index[w];
  }
  if (tj->low[v] != tj->index[v])
    return;
  size_t start = tj->sp;
  while (tj->stack[start - 1] != v)
    start--;
  start--;
  size_t k = tj->sp - start;
  for (size_t i = start; i < tj->sp; i++)
    tj->on[tj->stack[i]] = false;
  if (k > 1) {
    /* as validate.c's cycles: from the shortest name, one per line */
    const char **names = tfr_arena_alloc(t->a, k * sizeof *names);
    for (size_t i = 0; i < k; i++)
      names[i] = t->nodes[tj->stack[start + i]].name;
    size_t first = 0;
    for (size_t i = 1; i < k; i++) {
      size_t li = strlen(names[i]), lf = strlen(names[first]);
      if (li < lf || (li == lf && strcmp(names[i], names[first]) < 0))
        first = i;
    }
    struct sbuf b = {0};
    sbuf_str(&b, "Cycle:");
    for (size_t i = 0; i < k; i++) {
      sbuf_str(&b, "\n  ");
      sbuf_str(&b, names[(first + i) % k]);
    }
    tfr_diags_add(t->diags, TFR_DIAG_ERROR, NULL,
                  tfr_arena_strndup(t->a, b.p, b.n), "");
    free(b.p);
    tj->any = true;
  }
  tj->sp = start;
}

/* The nodes in dependency order (ties: the least name first), or false
** after the cycles' errors. */
static bool order_graph(struct tree *t) {
  size_t n = t->nnodes;
  size_t *pending = heap_calloc(n ? n : 1, sizeof *pending);
  size_t *ndeps_of = heap_calloc(n ? n : 1, sizeof *ndeps_of);
  for (size_t i = 0; i < n; i++) {
    pending[i] = t->nodes[i].ndeps;
    for (size_t j = 0; j < t->nodes[i].ndeps; j++)
      ndeps_of[t->nodes[i].deps[j]]++;
  }
  /* dependents, as one array */
  size_t *first = heap_calloc(n + 1, sizeof *first);
  for (size_t i = 0; i < n; i++)
    first[i + 1] = first[i] + ndeps_of[i];
  long *dependents = heap_alloc((first[n] ? first[n] : 1) * sizeof *dependents);
  memset(ndeps_of, 0, (n ? n : 1) * sizeof *ndeps_of);
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < t->nodes[i].ndeps; j++) {
      long d = t->nodes[i].deps[j];
      dependents[first[d] + ndeps_of[d]++] = (long)i;
    }
  struct heap h = {heap_alloc((n ? n : 1) * sizeof *h.v), 0, t->nodes};
  t->order = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *t->order);
  size_t done = 0;
  for (size_t i = 0; i < n; i++)
    if (!pending[i])
      heap_push(&h, (long)i);
  while (h.n) {
    long x = heap_pop(&h);
    t->order[done++] = x;
    for (size_t j = first[x]; j < first[x + 1]; j++)
      if (!--pending[dependents[j]])
        heap_push(&h, dependents[j]);
  }
  bool ok = done == n;
  if (!ok) {
    struct tarjan tj = {t,
                        pending,
                        heap_alloc(n * sizeof(long)),
                        heap_alloc(n * sizeof(long)),
                        heap_calloc(n, sizeof(bool)),
                        heap_alloc(n * sizeof(long)),
                        0,
                        0,
                        false};
    for (size_t i = 0; i < n; i++)
      tj.index[i] = -1;
    /* in name order, as the reference sorts them */
    long *left = heap_alloc(n * sizeof *left);
    size_t nl = 0;
    for (size_t i = 0; i < n; i++)
      if (pending[i])
        left[nl++] = (long)i;
    for (size_t i = 0; i < nl; i++)
      if (tj.index[left[i]] < 0)
        strong(&tj, left[i]);
    free(left);
    free(tj.index);
    free(tj.low);
    free(tj.on);
    free(tj.stack);
  }
  free(h.v);
  free(dependents);
  free(first);
  free(ndeps_of);
  free(pending);
  return ok;
}

/* ---- instances and their scope ------------------------------------------ */

static struct tinst *new_inst(struct tree *t, struct tmod *tm,
                              struct tinst *parent, const char *addr,
                              struct trep rep) {
  struct tinst *in = tfr_arena_alloc(t->a, sizeof *in);
  const struct module *m = tm->m;
  size_t nv = m->nvars ? m->nvars : 1;
  in->tm = tm;
  in->addr = addr;
  in->parent = parent;
  in->rep = rep;
  in->vars = tfr_arena_alloc(t->a, nv * sizeof *in->vars);
  in->var_done = tfr_arena_alloc(t->a, nv * sizeof *in->var_done);
  in->failed = tfr_arena_alloc(t->a, nv * sizeof *in->failed);
  in->rules = tfr_arena_alloc(t->a, nv * sizeof *in->rules);
  in->locals =
      tfr_arena_alloc(t->a, (m->nlocals ? m->nlocals : 1) * sizeof *in->locals);
  in->outputs = tfr_arena_alloc(t->a, (m->noutputs ? m->noutputs : 1) *
                                          sizeof *in->outputs);
  in->calls =
      tfr_arena_alloc(t->a, (m->ncalls ? m->ncalls : 1) * sizeof *in->calls);
  in->call_val =
      tfr_arena_alloc(t->a, (m->ncalls ? m->ncalls : 1) * sizeof *in->call_val);
  for (size_t k = 0; k < m->nvars; k++)
    in->rules[k] = module_skipped_rules(t->a, &m->vars[k]);
  if (tm->ninsts == tm->cap) {
    tm->cap = tm->cap ? 2 * tm->cap : 4;
    struct tinst **n = tfr_arena_alloc(t->a, tm->cap * sizeof *n);
    if (tm->ninsts)
      memcpy(n, tm->insts, tm->ninsts * sizeof *n);
    tm->insts = n;
  }
  tm->insts[tm->ninsts++] = in;
  return in;
}

/* What scope_lookup asks of an instance beyond var, path and terraform. */
struct tscope {
  struct tree *t;
  struct tinst *in;
  const struct trep *rep;
  bool vars; /* var.NAME answered at once (not in rules: their own
                variable may stand for another's, validate.c's alias) */
};

static const tfr_value *str_val(tfr_arena *a, const char *s) {
  return tfr_string(a, s, strlen(s));
}

/* One child instance's outputs as an object (evaluate.go GetModule). */
static const tfr_value *outputs_object(struct tree *t, const struct tmod *ch,
                                       const struct tinst *ci) {
  const struct module *m = ch->m;
  size_t n = m->noutputs;
  const char **names = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *names);
  const tfr_value **vals = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *vals);
  for (size_t i = 0; i < n; i++) {
    const struct output_decl *o = &m->outputs[i];
    names[i] = o->name;
    const tfr_value *v = ci && !t->validate ? ci->outputs[i] : NULL;
    if (!v)
      v = tfr_unknown(t->a,
                      o->type ? tfr_type_plain(t->a, o->type) : &tfr_t_dynamic);
    else if (o->sensitive)
      v = tfr_value_mark(t->a, v, TFR_V_SENSITIVE);
    vals[i] = v;
  }
  return tfr_object(t->a, n, names, vals);
}

/* The value of module.NAME in an instance. */
static const tfr_value *module_value(struct tree *t, struct tinst *in,
                                     size_t c) {
  const struct module *m = in->tm->m;
  const struct module_call *call = &m->calls[c];
  struct tmod *ch = in->tm->children[c];
  if (!ch)
    return tfr_unknown(t->a, &tfr_t_dynamic);
  const struct module *cm = ch->m;
  bool typed = false, no_dynamic = true;
  const char **names =
      tfr_arena_alloc(t->a, (cm->noutputs ? cm->noutputs : 1) * sizeof *names);
  const tfr_type **types =
      tfr_arena_alloc(t->a, (cm->noutputs ? cm->noutputs : 1) * sizeof *types);
  for (size_t i = 0; i < cm->noutputs; i++) {
    const struct output_decl *o = &cm->outputs[i];
    typed |= o->type != NULL;
    types[i] = o->type ? tfr_type_plain(t->a, o->type) : &tfr_t_dynamic;
    no_dynamic &= !tfr_type_has_dynamic(types[i]);
    names[i] = o->name;
  }
  const tfr_type *inst_ty =
      tfr_type_object(t->a, cm->noutputs, names, types, NULL);
  if (t->validate) {
    if (typed) {
      if (call->count && no_dynamic)
        return tfr_unknown(t->a, tfr_type_list(t->a, inst_ty));
      if (call->for_each && no_dynamic)
        return tfr_unknown(t->a, tfr_type_map(t->a, inst_ty));
      if (call->count || call->for_each)
        return tfr_unknown(t->a, &tfr_t_dynamic);
      return outputs_object(t, ch, NULL);
    }
    if (call->count || call->for_each) {
      const tfr_type **dyn = tfr_arena_alloc(
          t->a, (cm->noutputs ? cm->noutputs : 1) * sizeof *dyn);
      for (size_t i = 0; i < cm->noutputs; i++)
        dyn[i] = &tfr_t_dynamic;
      const tfr_type *o = tfr_type_object(t->a, cm->noutputs, names, dyn, NULL);
      return tfr_unknown(t->a, call->count ? tfr_type_list(t->a, o)
                                           : tfr_type_map(t->a, o));
    }
    return outputs_object(t, ch, NULL);
  }
  const struct texp *e = in->calls[c];
  if (!e)
    return tfr_unknown(t->a, &tfr_t_dynamic);
  if (e->mode == EXP_SINGLE)
    return outputs_object(t, ch, e->n ? e->insts[0] : NULL);
  const tfr_value **vals =
      tfr_arena_alloc(t->a, (e->n ? e->n : 1) * sizeof *vals);
  for (size_t i = 0; i < e->n; i++)
    vals[i] = outputs_object(t, ch, e->insts[i]);
  if (e->mode == EXP_COUNT) {
    if (no_dynamic)
      return tfr_list(t->a, inst_ty, e->n, vals);
    return tfr_tuple(t->a, e->n, vals);
  }
  if (no_dynamic) {
    uint32_t *lens = tfr_arena_alloc(t->a, (e->n ? e->n : 1) * sizeof *lens);
    for (size_t i = 0; i < e->n; i++)
      lens[i] = (uint32_t)strlen(e->keys[i]);
    return tfr_map(t->a, inst_ty, e->n, e->keys, lens, vals);
  }
  return tfr_object(t->a, e->n, e->keys, vals);
}

/* module.NAME of an instance, made once until what it holds changes. */
static const tfr_value *call_value(struct tree *t, struct tinst *in, size_t c) {
  if (!in->call_val[c])
    in->call_val[c] = module_value(t, in, c);
  return in->call_val[c];
}

static const tfr_value *more(void *ud, const char *name, size_t len) {
  struct tscope *ts = ud;
  struct tree *t = ts->t;
  struct tinst *in = ts->in;
  const struct module *m = in->tm->m;
#define IS(s) (len == strlen(s) && !memcmp(name, s, len))
  if (IS("local") && in->local_obj)
    return in->local_obj;
  if (IS("module") && in->module_obj)
    return in->module_obj;
  if (IS("local")) {
    size_t n = m->nlocals;
    const char **names = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *names);
    const tfr_value **vals = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *vals);
    for (size_t i = 0; i < n; i++) {
      names[i] = m->locals[i].name;
      vals[i] =
          in->locals[i] ? in->locals[i] : tfr_unknown(t->a, &tfr_t_dynamic);
    }
    return tfr_object(t->a, n, names, vals);
  }
  if (IS("module")) {
    size_t n = m->ncalls;
    const char **names = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *names);
    const tfr_value **vals = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *vals);
    for (size_t i = 0; i < n; i++) {
      names[i] = m->calls[i].name;
      vals[i] = call_value(t, in, i);
    }
    return in->module_obj = tfr_object(t->a, n, names, vals);
  }
  if (IS("count") && ts->rep && ts->rep->count_index) {
    const char *names[] = {"index"};
    const tfr_value *vals[] = {ts->rep->count_index};
    return tfr_object(t->a, 1, names, vals);
  }
  if (IS("each") && ts->rep && ts->rep->each_key) {
    const char *names[] = {"key", "value"};
    const tfr_value *vals[] = {ts->rep->each_key, ts->rep->each_value};
    return tfr_object(t->a, 2, names, vals);
  }
  /* an ephemeral resource: unknown and ephemeral (evaluate.go:1081-1088);
  ** its attributes keep the mark (eval_getattr, src/eval/eval.c) */
  if (IS("ephemeral"))
    return tfr_value_mark(t->a, tfr_unknown(t->a, &tfr_t_dynamic),
                          TFR_V_EPHEMERAL);
#undef IS
  return tfr_unknown(t->a, &tfr_t_dynamic);
}

/* local.NAME and module.NAME of an instance, without the object of them
** all (a module of 500 local values would build it 500 times); NULL for
** a name it does not declare (the object's path gives the error). */
static const tfr_value *var_value(struct tree *t, struct tinst *in, size_t k);

static const tfr_value *more_attr(void *ud, const char *name, size_t len,
                                  const char *attr, size_t alen) {
  struct tscope *ts = ud;
  struct tinst *in = ts->in;
  const struct module *m = in->tm->m;
  if (len == 5 && !memcmp(name, "local", 5)) {
    long k = scope_local_index(m, attr, alen);
    if (k < 0)
      return NULL;
    return in->locals[k] ? in->locals[k]
                         : tfr_unknown(ts->t->a, &tfr_t_dynamic);
  }
  if (len == 3 && !memcmp(name, "var", 3) && ts->vars) {
    /* as scope_var_object gives it, without the object of them all */
    long k = module_var_index(m, attr, alen);
    if (k < 0)
      return NULL;
    const struct var_decl *v = &m->vars[k];
    const tfr_value *x = var_value(ts->t, in, (size_t)k);
    if (!x)
      x = tfr_unknown(ts->t->a, tfr_type_plain(ts->t->a, v->type));
    unsigned marks = (v->sensitive ? TFR_V_SENSITIVE : 0) |
                     (v->ephemeral ? TFR_V_EPHEMERAL : 0);
    return marks ? tfr_value_mark(ts->t->a, x, marks) : x;
  }
  if (len == 6 && !memcmp(name, "module", 6))
    for (size_t i = 0; i < m->ncalls; i++)
      if (strlen(m->calls[i].name) == alen &&
          !memcmp(m->calls[i].name, attr, alen))
        return call_value(ts->t, in, i);
  return NULL;
}

/* Variable k of an instance as var.* holds it: in the validate walk
** every variable is unknown of its type (NULL); else its value, unknown
** while it has none. */
static const tfr_value *var_value(struct tree *t, struct tinst *in, size_t k) {
  if (t->validate)
    return NULL;
  if (in->var_done[k] || !in->tm->parent)
    return in->vars[k] ? in->vars[k] : tfr_unknown(t->a, &tfr_t_dynamic);
  return tfr_unknown(t->a, &tfr_t_dynamic);
}

/* var.*: the instance's values; in the validate walk every variable is
** unknown of its type, but own (the rule's variable), which has own_val. */
static const tfr_value *var_object(struct tree *t, struct tinst *in, long own,
                                   const tfr_value *own_val) {
  const struct module *m = in->tm->m;
  const tfr_value **vals =
      tfr_arena_alloc(t->a, (m->nvars ? m->nvars : 1) * sizeof *vals);
  for (size_t k = 0; k < m->nvars; k++)
    vals[k] = (long)k == own ? own_val : var_value(t, in, k);
  return scope_var_object(t->a, m, vals);
}

static void init_scope(struct tree *t, struct scope *s, struct tscope *ts,
                       struct tinst *in, const struct trep *rep, long own,
                       const tfr_value *own_val) {
  *s = (struct scope){0};
  s->a = t->a;
  if (own >= 0)
    s->var = var_object(t, in, own, own_val);
  else {
    if (!in->var_obj)
      in->var_obj = var_object(t, in, -1, NULL);
    s->var = in->var_obj;
  }
  if (!t->terraform) { /* path.cwd and terraform.*, once */
    scope_fixed(s, t->root->dir);
    t->path_cwd = tfr_value_is_known(s->path->elems[0]) ? s->path->elems[0]
                                                        : str_val(t->a, ".");
    t->terraform = s->terraform;
  }
  if (!in->tm->path) {
    const char *names[] = {"cwd", "module", "root"};
    const tfr_value *vals[] = {t->path_cwd, str_val(t->a, in->tm->rel),
                               str_val(t->a, ".")};
    in->tm->path = tfr_object(t->a, 3, names, vals);
  }
  s->path = in->tm->path;
  s->terraform = t->terraform;
  s->plan = true;
  s->dir = t->root->dir;
  *ts = (struct tscope){t, in, rep, false};
  s->more = more;
  s->more_attr = more_attr;
  s->more_ud = ts;
}

/* Evaluate x (in src) in instance in, as lang's EvalExpr: the static
** reference checks first.  NULL after an error (reported, with the
** instance's address). */
static const tfr_value *eval_in(struct tree *t, struct tinst *in,
                                struct src_file *src, const struct ast *x,
                                const struct trep *rep, const char *var,
                                const char *module) {
  size_t before = tfr_diags_count(t->diags);
  const tfr_value *v = NULL;
  struct tref_list l = refs_of_x(t, x);
  bool ok = repetition_refs(t, src, &l, rep, var);
  /* which names are declared does not change: the validate walk, which
  ** evaluates every expression and stops at errors, checked them */
  if (t->validate)
    ok &= validate_refs(in->tm->m, t->a, t->diags, src, x, var);
  if (ok) {
    struct scope s;
    struct tscope ts;
    init_scope(t, &s, &ts, in, rep, -1, NULL);
    ts.vars = true;
    struct eval_scope es = {scope_lookup, &s, scope_attr};
    struct eval_ctx c = {0};
    c.a = t->a;
    c.diags = t->diags;
    c.src = src;
    c.scope = &es;
    c.funcs = &funcs_table;
    c.dir = t->root->dir;
    c.plan = true;
    c.opentofu = in->tm->m->opentofu;
    v = eval_expr(&c, x);
    for (size_t i = before; i < tfr_diags_count(t->diags); i++)
      if (var)
        tfr_diags_set_variable_at(t->diags, i, var);
  }
  if (t->validate) /* only errors count there */
    for (size_t i = tfr_diags_count(t->diags); i > before; i--)
      if (tfr_diags_get(t->diags, i - 1)->sev != TFR_DIAG_ERROR)
        diags_remove(t->diags, i - 1, i);
  diags_set_module_since(t->diags, before, module);
  return diags_errors_since(t->diags, before) ? NULL : v;
}

/* A module source that is not a literal string, as Terraform's init walk
** evaluates it (node_module_install.go evalSource): only const variables
** (the root's, known by then), local values and path.* are known; NULL
** after its error. */
static const char *eval_source(struct tree *t, struct tmod *tm,
                               const struct module_call *c, const char *addr) {
  const struct ast *x = c->source_expr;
  struct src_file *src = c->source_src;
  struct tref_list l = refs_of_x(t, x);
  for (size_t i = 0; i < l.n; i++)
    if (!root_is(&l.v[i], "var") && !root_is(&l.v[i], "local") &&
        !root_is(&l.v[i], "path")) {
      call_error_in(t, src, l.v[i].span, addr, "Invalid module source",
                    "The module source can only reference constant input "
                    "variables and local values.");
      return NULL;
    }
  const struct module *m = tm->m;
  const tfr_value **vals =
      tfr_arena_alloc(t->a, (m->nvars ? m->nvars : 1) * sizeof *vals);
  for (size_t k = 0; k < m->nvars && !tm->parent && t->const_values; k++)
    vals[k] = m->vars[k].is_const ? t->const_values[k] : NULL;
  struct scope s = {0};
  s.a = t->a;
  s.var = scope_var_object(t->a, m, vals);
  scope_fixed(&s, t->root->dir);
  const char *names[] = {"cwd", "module", "root"};
  const tfr_value *pv[] = {s.path->elems[0], str_val(t->a, tm->rel),
                           str_val(t->a, ".")};
  s.path = tfr_object(t->a, 3, names, pv);
  scope_locals(&s, m);
  s.plan = true;
  struct eval_scope es = {scope_lookup, &s, scope_attr};
  struct eval_ctx ec = {0};
  ec.a = t->a;
  ec.diags = t->diags;
  ec.src = src;
  ec.scope = &es;
  ec.funcs = &funcs_table;
  ec.dir = t->root->dir;
  ec.plan = true;
  size_t before = tfr_diags_count(t->diags);
  const tfr_value *v = eval_expr(&ec, x);
  const char *err = NULL;
  if (!diags_errors_since(t->diags, before)) {
    const tfr_value *cv = conv_convert(t->a, v, &tfr_t_string, &err);
    if (!cv)
      tfr_diags_add(t->diags, TFR_DIAG_ERROR, NULL, "Incorrect value type",
                    tfr_arena_printf(t->a, "Invalid expression value: %s.",
                                     err ? err : "string required"));
    v = cv;
  }
  diags_set_module_since(t->diags, before, addr);
  if (!v || diags_errors_since(t->diags, before))
    return NULL;
  const char *detail = NULL, *summary = "Unknown module source";
  if (v->flags & TFR_V_NULL)
    summary = "Unsuitable module source",
    detail = "Unsuitable value: null value is not allowed.";
  else if (!tfr_value_is_wholly_known(v))
    detail = "Only literal values and const variables can be evaluated "
             "during init.";
  else if (v->flags & (TFR_V_SENSITIVE | TFR_V_EPHEMERAL))
    detail = "The module source cannot be derived from a sensitive or "
             "ephemeral value.";
  if (detail) {
    call_error_in(t, src, x->span, addr, summary, detail);
    return NULL;
  }
  return tfr_arena_strndup(t->a, v->s, v->n);
}

/* ---- the walk ----------------------------------------------------------- */

static const char *inst_addr(struct tree *t, const struct tinst *parent,
                             const char *name, const char *key,
                             const tfr_value *num) {
  const char *base =
      *parent->addr ? tfr_arena_printf(t->a, "%s.module.%s", parent->addr, name)
                    : tfr_arena_printf(t->a, "module.%s", name);
  if (num)
    return tfr_arena_printf(t->a, "%s[%s]", base, num_format(t->a, num->num));
  if (key)
    return tfr_arena_printf(t->a, "%s[%s]", base,
                            str_go_quote(t->a, key, strlen(key)));
  return base;
}

static void add_error(struct tree *t, struct src_file *src, struct span at,
                      const char *summary, const char *detail,
                      const char *module) {
  size_t before = tfr_diags_count(t->diags);
  struct tfr_range r = src_range(src, at);
  tfr_diags_add(t->diags, TFR_DIAG_ERROR, &r, summary, detail);
  diags_set_module_since(t->diags, before, module);
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
      eval_in(t, pi, c->count_src, c->count, NULL, NULL, pi->addr);
  if (!v)
    return -1;
  const char *err = NULL;
  const tfr_value *n = conv_convert(t->a, v, &tfr_t_number, &err);
  if (!n) {
    add_error(t, c->count_src, c->count->span, "Incorrect value type",
              tfr_arena_printf(t->a, "Invalid expression value: %s.",
                               err ? err : "number required"),
              pi->addr);
    return -1;
  }
  bool bad = false;
  if (n->flags & TFR_V_EPHEMERAL) {

    add_error(t, c->count_src, c->count->span, "Invalid count argument",
              "The given \"count\" is derived from an ephemeral value, which "
              "means that Terraform cannot persist it between plan/apply "
              "rounds. Use only non-ephemeral values to specify the number "
              "of resource instances.",
              pi->addr);
    bad = true;
  }
  n = tfr_value_unmark(t->a, n, TFR_V_SENSITIVE | TFR_V_EPHEMERAL, NULL);
  if (n->flags & TFR_V_NULL) {
    add_error(t, c->count_src, c->count->span, "Invalid count argument",
              "The given \"count\" argument value is null. An integer is "
              "required.",
              pi->addr);
    return -1;
  }
  if (n->flags & TFR_V_UNKNOWN)
    return bad ? -1 : -2;
  int64_t i;
  if (!num_is_int(n->num) || !num_to_int64(n->num, &i) || i > INT32_MAX) {
    add_error(t, c->count_src, c->count->span, "Invalid count argument",
              "The given \"count\" argument value is unsuitable: value must "
              "be a whole number, between -9223372036854775808 and "
              "9223372036854775807.",
              pi->addr);
    return -1;
  }
  if (i < 0) {
    add_error(t, c->count_src, c->count->span, "Invalid count argument",
              "The given \"count\" argument value is unsuitable: must be "
              "greater than or equal to zero.",
              pi->addr);
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
    add_error(t, c->for_each_src, c->for_each->span, summary,
              "Sensitive values, or values derived from sensitive values, "
              "cannot be used as for_each arguments. If used, the sensitive "
              "value could be exposed as a resource instance key.",
              pi->addr);
    ok = false;
  }
  if (v->flags & TFR_V_EPHEMERAL) {
    add_error(t, c->for_each_src, c->for_each->span, summary,
              "The given \"for_each\" value is derived from an ephemeral "
              "value, which means that Terraform cannot persist it between "
              "plan/apply rounds. Use only non-ephemeral values to specify a "
              "resource's instance keys.",
              pi->addr);
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
  add_error(t, c->for_each_src, c->for_each->span, summary, bad, pi->addr);
  return false;
}

/* Whether n more instances of c would pass TREE_MAX_INSTANCES (then
** ours to say, at x, its count or for_each): a count from a var file
** must not make the machine build a billion instances. */
static bool too_many(struct tree *t, struct tinst *pi,
                     const struct module_call *c, const struct ast *x,
                     struct src_file *xsrc, size_t n) {
  if (n <= TREE_MAX_INSTANCES - t->ninsts) {
    t->ninsts += n;
    return false;
  }
  size_t before = tfr_diags_count(t->diags);
  struct tfr_range r = src_range(xsrc, x->span);
  tfr_diags_add(
      t->diags, TFR_DIAG_ERROR, &r, "Too many module instances",
      tfr_arena_printf(t->a,
                       "This gives %s %zu instances, and the tree would have "
                       "more than %d module instances, the most tfresolve "
                       "follows.",
                       inst_addr(t, pi, c->name, NULL, NULL), n,
                       TREE_MAX_INSTANCES));
  tfr_diags_set_ours(t->diags);
  diags_set_module_since(t->diags, before, pi->addr);
  return true;
}

static void push_inst(struct tree *t, struct texp *e, struct tinst *in,
                      const char *key, size_t cap) {
  (void)t;
  (void)cap;
  e->insts[e->n] = in;
  if (e->keys)
    e->keys[e->n] = key;
  e->n++;
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
  struct tref_list l = refs_of_x(t, x);
  for (size_t i = 0; i < l.n; i++) {
    const struct tref *r = &l.v[i];
    if (root_is(r, "data") || root_is(r, "var") || root_is(r, "local"))
      continue;
    if (!root_is(r, "module"))
      return true;
    for (size_t c = 0; c < tm->m->ncalls; c++)
      if (tm->children[c] && r->a1 &&
          a1_is(r, tm->m->calls[c].name, strlen(tm->m->calls[c].name)) &&
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
  struct tref_list l = refs_of_x(t, x);
  const struct module *m = in->tm->m;
  int o = 0;
  for (size_t i = 0; i < l.n; i++) {
    const struct tref *r = &l.v[i];
    if (root_is(r, "data"))
      o |= data_origin(t, seen, in, r, depth);
    else if (root_is(r, "var")) {
      long k = r->a1 ? module_var_index(m, r->a1, r->l1) : -1;
      if (k >= 0 && in->tm->parent && in->tm->args[k])
        o |= origin_walk(t, seen, in->parent, in->tm->args[k]->expr, depth + 1);
    } else if (root_is(r, "local")) {
      long k = r->a1 ? scope_local_index(m, r->a1, r->l1) : -1;
      if (k >= 0)
        o |= origin_walk(t, seen, in, m->locals[k].expr, depth + 1);
    } else if (root_is(r, "module")) {
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
    } else if (!root_is(r, "count") && !root_is(r, "each") &&
               !root_is(r, "path") && !root_is(r, "terraform") &&
               !root_is(r, "self"))
      o |= ORIGIN_MANAGED; /* a resource type, resource.*, ephemeral.* */
  }
  return o;
}

static int origin(struct tree *t, struct tinst *in, const struct ast *x,
                  int depth) {
  struct origin_seen seen = {0};
  return origin_walk(t, &seen, in, x, depth);
}

/* An unknown count or for_each: Terraform's error (text) when it comes
** from what only apply knows (a data source whose read waits for apply
** too: data_origin); when it comes from data sources only, which plan
** reads, a warning of ours: the call's instances are not checked.
** Either way the call has no instances here. */
static void unknown_repetition(struct tree *t, struct tinst *pi,
                               const struct module_call *c, const struct ast *x,
                               const char *text) {
  struct src_file *xsrc = x == c->count ? c->count_src : c->for_each_src;
  if (origin(t, pi, x, 0) != ORIGIN_DATA) {
    add_error(t, xsrc, x->span,
              x == c->count ? "Invalid count argument"
                            : "Invalid for_each argument",
              text, pi->addr);
    return;
  }
  size_t before = tfr_diags_count(t->diags);
  struct tfr_range r = src_range(xsrc, x->span);
  const char *call = inst_addr(t, pi, c->name, NULL, NULL);
  const char *what = x == c->count ? "count" : "for_each";
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
    unchecked_fails(t);
  diags_set_module_since(t->diags, before, pi->addr);
  add_unchecked(t, call, TFR_UNCHECKED_DATA_SOURCES,
                tfr_arena_printf(t->a, "its %s comes from data sources", what),
                r);
}

/* node_module_expand.go: the instances of tm's call in parent instance pi;
** false after an error. */
static bool expand_call(struct tree *t, struct tmod *tm, struct tinst *pi) {
  const struct module_call *c = tm->call;
  size_t ci = (size_t)(c - pi->tm->m->calls);
  struct texp *e = tfr_arena_alloc(t->a, sizeof *e);
  if (t->validate) {
    if (c->count && count_value(t, pi, c) == -1)
      return false;
    if (c->for_each) {
      const tfr_value *v =
          eval_in(t, pi, c->for_each_src, c->for_each, NULL, NULL, pi->addr);
      if (!v || !for_each_ok(t, pi, c, v))
        return false;
    }
    e->insts = tfr_arena_alloc(t->a, sizeof *e->insts);
    push_inst(t, e,
              new_inst(t, tm, pi, inst_addr(t, pi, c->name, NULL, NULL),
                       (struct trep){0}),
              NULL, 1);
    pi->calls[ci] = e;
    pi->module_obj = NULL;
    pi->call_val[ci] = NULL;
    pi->call_val[ci] = NULL;
    return true;
  }
  if (c->count) {
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
    if (n < 0 || too_many(t, pi, c, c->count, c->count_src, (size_t)n))
      return false;
    e->mode = EXP_COUNT;
    e->insts = tfr_arena_alloc(t->a, (n ? (size_t)n : 1) * sizeof *e->insts);
    for (long i = 0; i < n; i++) {
      const tfr_value *k = num_val(t->a, i);
      push_inst(t, e,
                new_inst(t, tm, pi, inst_addr(t, pi, c->name, NULL, k),
                         (struct trep){k, NULL, NULL}),
                NULL, (size_t)n);
    }
  } else if (c->for_each) {
    const tfr_value *v =
        eval_in(t, pi, c->for_each_src, c->for_each, NULL, NULL, pi->addr);
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
    size_t n =
        (v->flags & TFR_V_NULL) || v->type->kind == TFR_DYNAMIC ? 0 : v->n;
    if (too_many(t, pi, c, c->for_each, c->for_each_src, n))
      return false;
    e->insts = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *e->insts);
    e->keys = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *e->keys);
    /* keys in order: a map's and an object's are sorted, a set of
    ** strings is ordered by its strings */
    for (size_t i = 0; i < n; i++) {
      const char *key;
      const tfr_value *val;
      if (v->type->kind == TFR_SET) {
        key = tfr_arena_strndup(t->a, v->elems[i]->s, v->elems[i]->n);
        val = v->elems[i];
      } else if (v->type->kind == TFR_MAP) {
        key = tfr_arena_strndup(t->a, v->keys[i], v->keylens[i]);
        val = v->elems[i];
      } else {
        key = v->type->names[i];
        val = v->elems[i];
      }
      push_inst(t, e,
                new_inst(t, tm, pi, inst_addr(t, pi, c->name, key, NULL),
                         (struct trep){NULL, str_val(t->a, key), val}),
                key, n);
    }
  } else {
    e->insts = tfr_arena_alloc(t->a, sizeof *e->insts);
    push_inst(t, e,
              new_inst(t, tm, pi, inst_addr(t, pi, c->name, NULL, NULL),
                       (struct trep){0}),
              NULL, 1);
  }
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
static bool trace_element(struct tree *t, const struct tinst *callee, size_t k,
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
  bool found = trace_element(t, in, k, path, &at, &from);
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

static const tfr_value *prepare_arg(struct tree *t, struct tinst *in, size_t k,
                                    const tfr_value *given) {
  struct tmod *tm = in->tm;
  const struct var_decl *v = &tm->m->vars[k];
  const struct module_arg *arg = tm->args[k];
  const char *addr = tfr_arena_printf(t->a, "%s.var.%s", in->addr, v->name);
  struct tfr_range src = arg ? src_range(arg->file, arg->span) : v->decl;
  char decl[512], at[512];
  tfr_range_format(&v->decl, decl, sizeof decl);
  tfr_range_format(&src, at, sizeof at);
  size_t before = tfr_diags_count(t->diags);
  const tfr_value *val = NULL;
  if (!given) {
    if (!v->has_default) {
      tfr_diags_add(t->diags, TFR_DIAG_ERROR, &v->decl,
                    "Required variable not set",
                    tfr_arena_printf(t->a,
                                     "The variable \"%s\" is required, but "
                                     "is not set.",
                                     v->name));
      goto done;
    }
    given = v->dflt;
    if (!given)
      goto done; /* its default has errors of its own */
  }
  if (v->defaults && !(given->flags & TFR_V_NULL))
    given = conv_apply_defaults(t->a, given, v->defaults);
  const char *err = NULL;
  val = conv_convert(t->a, given, v->type, &err);
  if (!val) {
    /* the keys of a sensitive value, or of a value derived from one, are
    ** not shown (secret.h) */
    const char *shown = err ? err : "incorrect type";
    const char *hidden =
        v->sensitive || tfr_value_has_mark(given, TFR_V_SENSITIVE)
            ? secret_conv_error(t->a, shown, v->type)
            : shown;
    if (v->sensitive)
      tfr_diags_add(t->diags, TFR_DIAG_ERROR, &v->decl,
                    "Invalid value for input variable",
                    tfr_arena_printf(t->a,
                                     "The given value is not suitable for %s, "
                                     "which is sensitive: %s. Invalid value "
                                     "defined at %s.",
                                     addr, hidden, at));
    else
      tfr_diags_add(t->diags, TFR_DIAG_ERROR, &src,
                    "Invalid value for input variable",
                    tfr_arena_printf(t->a,
                                     "The given value is not suitable for %s "
                                     "declared at %s: %s.",
                                     addr, decl, hidden));
    size_t last = tfr_diags_count(t->diags) - 1;
    if (hidden != shown)
      secret_hide_detail(t->diags, last, tfr_diags_get(t->diags, last)->detail);
    else if (!v->sensitive) {
      struct tfr_range element = {0};
      const char *note = child_element(t, in, k, given, &element);
      if (note) {
        tfr_diags_set_note(t->diags, note);
        diags_at(t->diags, last)->element = element;
      }
    }
    goto done;
  }
  if ((val->flags & TFR_V_NULL) && !v->nullable) {
    if (v->has_default && v->dflt) {
      val = v->dflt;
    } else {
      tfr_diags_add(t->diags, TFR_DIAG_ERROR, &src, "Required variable not set",
                    tfr_arena_printf(t->a,
                                     "The given value is not suitable for %s "
                                     "defined at %s: required variable may "
                                     "not be set to null.",
                                     addr, decl));
      val = NULL;
      goto done;
    }
  }
  if (v->ephemeral)
    val = tfr_value_mark(t->a, val, TFR_V_EPHEMERAL);
  else if (tfr_value_has_mark(val, TFR_V_EPHEMERAL)) {
    tfr_diags_add(t->diags, TFR_DIAG_ERROR, &src, "Ephemeral value not allowed",
                  "This input variable is not declared as accepting a "
                  "ephemeral values, so it cannot be set to a result derived "
                  "from an ephemeral value.");
    val = NULL;
  }
done:
  for (size_t i = before; i < tfr_diags_count(t->diags); i++)
    tfr_diags_set_variable_at(t->diags, i, v->name);
  if (t->validate)
    for (size_t i = tfr_diags_count(t->diags); i > before; i--)
      if (tfr_diags_get(t->diags, i - 1)->sev != TFR_DIAG_ERROR)
        diags_remove(t->diags, i - 1, i);
  diags_set_module_since(t->diags, before, in->addr);
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
static bool third_party_path(const struct tree *t, const char *f) {
  if (path_under(f, t->data_path))
    return true;
  return !path_under(f, t->own_dir ? t->own_dir : t->root->dir);
}

static bool own_code(const struct tree *t, const struct tmod *tm) {
  return !third_party_path(t, tm->dir);
}

static void on_dropped_arg(void *ctx, const struct dropped_attr *d) {
  struct dropped_arg *c = ctx;
  struct tree *t = c->t;
  bool strict = t->strict && own_code(t, c->in->parent->tm);
  /* a sensitive value's keys and attribute names are its own (secret.h) */
  const char *near = c->secret ? NULL : strict_suggest(d->object, d->name);
  size_t before = tfr_diags_count(t->diags);
  struct tfr_range at = src_range(c->src, d->at);
  tfr_diags_add(
      t->diags, strict ? TFR_DIAG_ERROR : TFR_DIAG_WARNING, &at,
      "Object attribute is ignored",
      tfr_arena_printf(
          t->a,
          "The object type of %s.var.%s%s does not include an attribute "
          "named %s: %s drops this %s silently, so an optional attribute it "
          "may be meant for keeps its default (-strict makes this an "
          "error).%s",
          c->in->addr, c->v->name,
          c->secret ? secret_path(t->a, d->path) : d->path,
          c->secret ? SECRET_TEXT
                    : str_go_quote(t->a, d->name, strlen(d->name)),
          t->engine->product,
          d->constructor ? "definition" : "attribute of the value",
          near ? tfr_arena_printf(t->a,
                                  " Did you mean to set attribute %s "
                                  "instead?",
                                  str_go_quote(t->a, near, strlen(near)))
               : ""));
  tfr_diags_set_code(t->diags, TFR_CODE_IGNORED_ATTRIBUTE);
  tfr_diags_set_variable(t->diags, c->v->name);
  tfr_diags_set_ours(t->diags);
  if (strict)
    diags_set_strict(t->diags);
  else if (t->strict)
    tfr_diags_set_note(
        t->diags,
        tfr_arena_printf(t->a,
                         "A warning even with -strict: this call is in %s, "
                         "third-party code outside the checked directory, "
                         "not yours to fix.",
                         c->in->parent->tm->rel));
  if (c->secret) {
    secret_hide_source(t->diags, before);
    secret_hide_detail(t->diags, before,
                       tfr_diags_get(t->diags, before)->detail);
  }
  diags_set_module_since(t->diags, before, c->in->addr);
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
      given =
          eval_in(t, in->parent, arg->src, arg->expr, &rep, v->name, in->addr);
      if (!given) {
        ok = false;
        in->failed[k] = true;
        continue;
      }
    }
    const tfr_value *val = prepare_arg(t, in, k, given);
    if (val && arg && given && (t->strict || t->warn_dropped) && !t->validate) {
      struct dropped_arg c = {t, in, v, arg->src,
                              v->sensitive ||
                                  tfr_value_has_mark(given, TFR_V_SENSITIVE)};
      strict_dropped(t->a, arg->expr, given, v->type, on_dropped_arg, &c);
    }
    if (v->deprecated && arg && given && !(given->flags & TFR_V_NULL) &&
        !t->validate && t->engine->deprecated_warns) {
      size_t before = tfr_diags_count(t->diags);
      struct tfr_range r = src_range(arg->file, arg->span);
      tfr_diags_add(t->diags, TFR_DIAG_WARNING, &r,
                    "Deprecated variable got a value", v->deprecated);
      tfr_diags_set_variable(t->diags, v->name);
      diags_set_module_since(t->diags, before, in->addr);
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
  if (!trace_element(t, in, k, "", &at, &from) || !from)
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
  }
}

/* A root variable's rules that read module outputs, in the plan walk
** once those are evaluated, as Terraform's graph orders them
** (transform_variable_validation.go, node_variable_validation.go:
** 116-135); resolve.c evaluated the others, and the validate walk of
** them all. */
static bool exec_root_valid(struct tree *t, struct tmod *tm, size_t k) {
  struct tinst *in = tm->insts[0];
  if (t->validate)
    return true;
  struct scope s;
  struct tscope ts;
  init_scope(t, &s, &ts, in, NULL, -1, NULL);
  size_t before = tfr_diags_count(t->diags);
  bool passed = validate_var_rules(tm->m, t->a, t->diags, k, &s, t->root_at,
                                   false, t->root_rules[k]);
  diags_set_module_since(t->diags, before, "");
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
    init_scope(t, &s, &ts, in, NULL, t->validate ? (long)k : -1,
               own ? tfr_value_mark(t->a, own,
                                    (v->sensitive ? TFR_V_SENSITIVE : 0) |
                                        (v->ephemeral ? TFR_V_EPHEMERAL : 0))
                   : NULL);
    if (t->validate && !own) {
      /* unknown of its type, as every other variable */
      s.var = var_object(t, in, -1, NULL);
    }
    s.quiet_deferred = true;
    /* what the rules compute lives in a scratch arena, reset after them:
    ** only their outcomes' texts are kept (diagnostics are copied) */
    struct arena_mark mark = arena_mark(t->scratch);
    bool passed = validate_var_rules(m, t->scratch, t->diags, k, &s, &place,
                                     t->validate, in->rules[k]);
    for (size_t ri = 0; ri < v->nvalidations; ri++)
      if (in->rules[k][ri].detail)
        in->rules[k][ri].detail =
            tfr_arena_strdup(t->a, in->rules[k][ri].detail);
    arena_reset(t->scratch, mark);
    if (!t->validate && !passed)
      rule_failure_origin(t, in, k, before);
    if (t->validate)
      for (size_t j = tfr_diags_count(t->diags); j > before; j--)
        if (tfr_diags_get(t->diags, j - 1)->sev != TFR_DIAG_ERROR)
          diags_remove(t->diags, j - 1, j);
    diags_set_module_since(t->diags, before, in->addr);
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
  struct tref_list l = refs_of_x(t, d->expr);
  bool found = false;
  for (size_t i = 0; i < l.n; i++) {
    const struct tref *r = &l.v[i];
    if (!root_is(r, "local") || !a1_is(r, d->name, strlen(d->name)))
      continue;
    size_t before = tfr_diags_count(t->diags);
    struct tfr_range rg = src_range(d->src, r->span);
    tfr_diags_add(t->diags, TFR_DIAG_ERROR, &rg, "Self-referencing local value",
                  tfr_arena_printf(t->a,
                                   "Local value %slocal.%s cannot use its own "
                                   "result as part of its expression.",
                                   node_prefix(t, in->tm), d->name));
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
    const tfr_value *v = eval_in(t, in, d->src, d->expr, NULL, NULL, in->addr);
    if (!v) {
      ok = false;
      continue;
    }
    in->locals[k] = v;
    in->local_obj = NULL;
  }
  return ok;
}

static bool exec_output(struct tree *t, struct tmod *tm, size_t k) {
  bool ok = true;
  const struct output_decl *o = &tm->m->outputs[k];
  for (size_t i = 0; i < tm->ninsts; i++) {
    struct tinst *in = tm->insts[i];
    const tfr_value *v =
        o->expr ? eval_in(t, in, o->expr_src, o->expr, NULL, NULL, in->addr)
                : tfr_null(t->a, &tfr_t_dynamic);
    if (!v) {
      ok = false;
      continue;
    }
    struct span at = o->expr ? o->expr->span : o->decl;
    const char *msg = NULL;
    if (o->type) {
      if (o->defaults && !(v->flags & TFR_V_NULL))
        v = conv_apply_defaults(t->a, v, o->defaults);
      const char *err = NULL;
      const tfr_value *cv = conv_convert(t->a, v, o->type, &err);
      if (!cv) {
        add_error(t, o->expr ? o->expr_src : o->src, at, "Invalid output value",
                  tfr_arena_printf(t->a,
                                   "The value expression does not match this "
                                   "output value's type constraint: %s.",
                                   err ? err : "incorrect type"),
                  in->addr);
        ok = false;
        continue;
      }
      v = cv;
    }
    if (!tm->parent && !o->sensitive &&
        tfr_value_has_mark(v, TFR_V_SENSITIVE)) {
      add_error(t, o->src, o->decl, "Output refers to sensitive values",
                "To reduce the risk of accidentally exporting sensitive data "
                "that was intended to be only internal, Terraform requires "
                "that any root module output containing sensitive data be "
                "explicitly marked as sensitive, to confirm your intent.\n\n"
                "If you do intend to export this data, annotate the output "
                "value as sensitive by adding the following argument:\n"
                "    sensitive = true",
                in->addr);
      ok = false;
      continue;
    }
    if (!o->ephemeral && tfr_value_has_mark(v, TFR_V_EPHEMERAL))
      msg = "This output value is not declared as returning an ephemeral "
            "value, so it cannot be set to a result derived from an "
            "ephemeral value.";
    if (msg) {
      add_error(t, o->expr ? o->expr_src : o->src, at,
                "Ephemeral value not allowed", msg, in->addr);
      ok = false;
      continue;
    }
    if (o->ephemeral && !tm->parent) {
      add_error(t, o->src, o->decl, "Ephemeral output not allowed",
                "Ephemeral outputs are not allowed in context of a root "
                "module",
                in->addr);
      ok = false;
      continue;
    }
    in->outputs[k] = v;
    if (in->parent) {
      in->parent->module_obj = NULL;
      in->parent->call_val[tm->call - in->parent->tm->m->calls] = NULL;
    }
  }
  return ok;
}

static bool exec_node(struct tree *t, struct tnode *n) {
  struct tmod *tm = n->tm;
  switch (n->kind) {
  case N_EXPAND: {
    bool ok = true;
    for (size_t i = 0; i < tm->parent->ninsts; i++)
      ok &= expand_call(t, tm, tm->parent->insts[i]);
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
static void walk(struct tree *t, const tfr_value *const *root_values) {
  for (size_t i = 0; i < t->nall; i++)
    t->all[i]->ninsts = 0;
  t->ninsts = 0;
  struct tinst *root = new_inst(t, t->root, NULL, "", (struct trep){0});
  const struct module *rm = t->root->m;
  for (size_t k = 0; k < rm->nvars; k++) {
    struct tnode *n = &t->nodes[t->root->var_node[k]];
    if (t->validate || (root_values && root_values[k])) {
      root->vars[k] = t->validate ? NULL : root_values[k];
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
      continue;
    }
    n->state = exec_node(t, n) ? 1 : 2;
  }
}

bool tree_graph(struct tree *t, tfr_diags *diags, const bool *root_later) {
  t->diags = diags;
  t->root_later = root_later;
  size_t before = tfr_diags_count(diags);
  build_graph(t);
  if (!order_graph(t)) {
    diags_set_module_since(diags, before, "");
    return false;
  }
  return true;
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
    add_unchecked(
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
    unchecked_fails(t);
    diags_set_module_since(t->diags, before, tm->parent->addr);
  }
}

void tree_plan(struct tree *t, tfr_diags *diags,
               const tfr_value *const *root_values,
               const struct value_place *root_at,
               struct tfr_rule *const *root_rules) {
  t->diags = diags;
  t->root_at = root_at;
  t->root_rules = root_rules;
  for (size_t i = 0; i < t->nnodes; i++)
    t->nodes[i].state = 0;
  walk(t, root_values);
  t->planned = true;
  unexpanded(t);
}

bool tree_root_failed(const struct tree *t, size_t k) {
  return t->planned && t->root->ninsts && t->root->insts[0]->failed[k];
}

/* ---- the result --------------------------------------------------------- */

/* The calling module's variables an argument reads, directly or through
** its local values (each once, in order). */
static void reads_of(struct tree *t, const struct module *caller,
                     const struct module_call *call, const struct ast *x,
                     struct tfr_variable *out) {
  bool repetition = false; /* each.* or count.* followed */
  size_t cap = 8, n = 0;
  const char **v = tfr_arena_alloc(t->a, cap * sizeof *v);
  const struct ast **todo =
      tfr_arena_alloc(t->a, (caller->nlocals + 2) * sizeof *todo);
  bool *seen = tfr_arena_alloc(t->a, (caller->nlocals + 1) * sizeof *seen);
  size_t ntodo = 0;
  todo[ntodo++] = x;
  while (ntodo) {
    struct tref_list l = refs_of_x(t, todo[--ntodo]);
    for (size_t i = 0; i < l.n; i++) {
      const struct tref *r = &l.v[i];
      if ((root_is(r, "each") || root_is(r, "count")) && !repetition) {
        repetition = true; /* the call's for_each or count */
        if (call->for_each || call->count)
          todo[ntodo++] = call->for_each ? call->for_each : call->count;
        continue;
      }
      if (!r->a1)
        continue;
      if (root_is(r, "local")) {
        long k = scope_local_index(caller, r->a1, r->l1);
        if (k >= 0 && !seen[k]) {
          seen[k] = true;
          todo[ntodo++] = caller->locals[k].expr;
        }
        continue;
      }
      if (!root_is(r, "var") || module_var_index(caller, r->a1, r->l1) < 0)
        continue;
      bool dup = false;
      for (size_t q = 0; q < n && !dup; q++)
        dup = strlen(v[q]) == r->l1 && !memcmp(v[q], r->a1, r->l1);
      if (dup)
        continue;
      if (n == cap) {
        const char **nv = tfr_arena_alloc(t->a, 2 * cap * sizeof *nv);
        memcpy(nv, v, n * sizeof *nv);
        v = nv;
        cap *= 2;
      }
      v[n++] = tfr_arena_strndup(t->a, r->a1, r->l1);
    }
  }
  out->reads = v;
  out->nreads = n;
}

/* tfr_variable.from_*: the root variable's element argument k of
** instance in takes its value from, whole. */
static void from_element(struct tree *t, const struct tinst *in, size_t k,
                         struct tfr_variable *out) {
  const char *from = NULL;
  struct tfr_range at = {0};
  if (!trace_element(t, in, k, "", &at, &from) || !from)
    return;
  out->from_element = from;
  out->from_range = at;
  const tfr_value *val = in->vars[k];
  if (val && !in->tm->m->vars[k].sensitive &&
      !tfr_value_has_mark(val, TFR_V_SENSITIVE))
    out->from_value = tfr_value_unmark(t->a, val, TFR_V_EPHEMERAL, NULL);
}

static struct tfr_variable child_var(struct tree *t, const struct tmod *tm,
                                     const struct tinst *in, size_t k) {
  const struct var_decl *v = &tm->m->vars[k];
  const struct module_arg *arg = tm->args[k];
  struct tfr_variable out = {0};
  out.name = v->name;
  out.decl = v->decl;
  out.declared = v->type;
  out.typed = v->typed;
  out.nullable = v->nullable;
  out.description = v->description;
  out.deprecated = v->deprecated;
  out.ephemeral = v->ephemeral;
  out.default_value = v->has_default ? v->dflt : NULL;
  out.type_range = v->type_range;
  out.rules = in ? in->rules[k] : module_skipped_rules(t->a, v);
  out.nrules = v->nvalidations;
  if (arg) {
    out.source = TFR_SRC_CONFIG;
    out.arg_range = src_range(arg->file, arg->span);
    out.source_file = out.arg_range.filename;
    out.source_line = out.arg_range.start.line;
    struct tfr_attempt *at = tfr_arena_alloc(t->a, sizeof *at);
    at->source = TFR_SRC_CONFIG;
    at->file = out.source_file;
    at->line = out.source_line;
    at->text = arg->file->text + arg->span.start;
    at->text_len = arg->span.end - arg->span.start;
    at->won = in && in->var_done[k];
    at->failed = in && in->failed[k];
    out.attempts = at;
    out.nattempts = 1;
    reads_of(t, tm->parent->m, tm->call, arg->expr, &out);
    if (in)
      from_element(t, in, k, &out);

  } else
    out.source = v->has_default ? TFR_SRC_DEFAULT : TFR_SRC_NONE;
  const tfr_value *val = in && in->var_done[k] ? in->vars[k] : NULL;
  out.sensitive =
      v->sensitive || (val && tfr_value_has_mark(val, TFR_V_SENSITIVE));
  if (!val) {
    out.error = true;
    out.type = tfr_type_plain(t->a, v->type);
    out.reason =
        in && in->failed[k] ? "its value has errors" : "plan stops before this";
    return out;
  }
  out.value =
      tfr_value_unmark(t->a, val, TFR_V_SENSITIVE | TFR_V_EPHEMERAL, NULL);
  out.type = out.value->type;
  return out;
}

/* One instance of the result: in, or (NULL: the walk did not run) module
** tm once under its call's address, every variable in error. */
static void put_instance(struct tree *t, struct tfr_instance *o,
                         const struct tmod *tm, const struct tinst *in) {
  o->address = in ? in->addr : tm->addr;
  o->call = tm->addr;
  o->source = tm->source;
  o->dir = tm->rel;
  o->call_range = src_range(tm->call->src, tm->call->decl);
  o->parent = in ? in->parent->addr : tm->parent->addr;
  struct tfr_variable *vars =
      tfr_arena_alloc(t->a, (tm->m->nvars ? tm->m->nvars : 1) * sizeof *vars);
  for (size_t k = 0; k < tm->m->nvars; k++)
    vars[k] = child_var(t, tm, in, k);
  o->vars = vars;
  o->n = tm->m->nvars;
}

/* Mark the diagnostics about third-party modules' code (tfr_diag
** .third_party): the CLI counts their warnings in one line. */
static void mark_third_party(struct tree *t) {
  for (size_t i = 0; i < tfr_diags_count(t->diags); i++) {
    struct tfr_diag *g = diags_at(t->diags, i);
    if (g->subject.filename && g->module && *g->module)
      g->third_party = third_party_path(t, g->subject.filename);
  }
}

static int by_address(const void *x, const void *y) {
  return strcmp(((const struct tfr_unchecked *)x)->address,
                ((const struct tfr_unchecked *)y)->address);
}

void tree_result(struct tree *t, struct tfr_resolution *res) {
  mark_third_party(t);
  res->tree = true;
  size_t n = 0;
  for (size_t i = 1; i < t->nall; i++)
    n += t->planned ? t->all[i]->ninsts : 1;
  struct tfr_instance *out = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *out);
  size_t j = 0;
  /* depth first through the instances: a child's after its caller's */
  struct tinst **stack = NULL;
  size_t sp = 0, cap = 0;
  if (t->planned && t->root->ninsts) {
    cap = 16;
    stack = heap_alloc(cap * sizeof *stack);
    stack[sp++] = t->root->insts[0];
  }
  while (sp) {
    struct tinst *in = stack[--sp];
    if (in->tm->parent)
      put_instance(t, &out[j++], in->tm, in);
    /* children in reverse, so that they pop in order */
    const struct module *m = in->tm->m;
    for (size_t c = m->ncalls; c-- > 0;) {
      const struct texp *e = in->calls[c];
      for (size_t q = e ? e->n : 0; q-- > 0;) {
        if (sp == cap) {
          cap *= 2;
          stack = heap_realloc(stack, cap * sizeof *stack);
        }
        stack[sp++] = e->insts[q];
      }
    }
  }
  free(stack);
  if (!t->planned)
    for (size_t i = 1; i < t->nall; i++)
      put_instance(t, &out[j++], t->all[i], NULL);
  res->instances = out;
  res->ninstances = j;
  if (t->nunchecked > 1)
    qsort(t->unchecked, t->nunchecked, sizeof *t->unchecked, by_address);
  res->unchecked = t->unchecked;
  res->nunchecked = t->nunchecked;
}

void tree_mark_diags(tfr_diags *diags, size_t from) {
  diags_set_module_since(diags, from, "");
}

void tree_set_own_dir(struct tree *t, const char *dir) {
  t->own_dir = dir ? path_join(t->a, dir, ".") : NULL;
}
