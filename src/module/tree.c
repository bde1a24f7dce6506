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

#include <stdint.h>
#include <stdio.h>
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
  dev_t dev;           /* its directory as stat finds it (a symlink */
  ino_t ino;           /* followed): what loading() compares */
  struct module *m;    /* its configuration (a child's: the cache's,
                          shared, until build_graph gives it its own copy
                          with its address) */
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
  /* per variable: where the validate walk saw a deprecated one get a
  ** value (its instance's address), NULL: not seen */
  const char **deprecated_at;
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
  struct strmap man_keys; /* each key's first record (freed with a) */
  bool has_man;
  const char *data_dir;
  const char *data_path; /* data_dir as the loader opens paths */
  /* the graph */
  struct tnode *nodes;
  size_t nnodes, capnodes;
  long *order;   /* topological */
  size_t ninsts; /* instances made in the current walk */
  /* bytes held for the tree outside a: the module files read for it
  ** (its cache's), its manifest's text */
  size_t held;
  /* each directory's module, read once (load_module): by "dev:ino" */
  struct strmap dir_keys;
  struct dir_mod {
    const struct module *m;
    tfr_diags *diags; /* what reading it said */
  } * dir_mods;
  size_t ndir_mods, capdir_mods;
  bool cut;           /* loading stopped at a limit: no child is followed */
  bool limit_said;    /* "Too many module instances" said in this walk */
  bool budget_said;   /* the memory budget is spent (and said) */
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

/* A path being cleaned (Go's filepath.Clean, slashes only): out holds w
** bytes; floor is what no ".." may remove (the root, leading ".."s). */
struct clean_path {
  char *out;
  size_t w, floor;
  bool abs;
};

/* Each segment of s (separated by '/' or '\\') added to p. */
static void clean_add(struct clean_path *p, const char *s) {
  while (*s) {
    while (*s == '/' || *s == '\\')
      s++;
    const char *seg = s;
    while (*s && *s != '/' && *s != '\\')
      s++;
    size_t l = (size_t)(s - seg);
    if (!l || (l == 1 && seg[0] == '.'))
      continue;
    if (l == 2 && seg[0] == '.' && seg[1] == '.' && p->w > p->floor) {
      while (p->w > p->floor && p->out[p->w - 1] != '/')
        p->w--; /* the last segment, then its separator */
      if (p->w > p->floor)
        p->w--;
      continue;
    }
    if (l == 2 && seg[0] == '.' && seg[1] == '.' && p->abs)
      continue; /* nothing above the root */
    if (p->w > (p->abs ? 1u : 0u))
      p->out[p->w++] = '/';
    memcpy(p->out + p->w, seg, l);
    p->w += l;
    if (l == 2 && seg[0] == '.' && seg[1] == '.')
      p->floor = p->w;
  }
}

/* Go's filepath.Join(base, rel) with Clean's rules (slashes only), built
** in its result's bytes: no copy of its parts, no table per byte (a path
** of 60 MB in a manifest cost 16 bytes a byte).  Always a new string:
** callers keep it longer than the strings it is made of may live. */
static const char *path_join(tfr_arena *a, const char *base, const char *rel) {
  /* as Join reads base + "/" + rel: an empty base makes it absolute */
  bool abs = rel[0] == '/' || base[0] == '/' || !base[0];
  if (rel[0] == '/')
    base = "";
  struct clean_path p = {tfr_arena_alloc(a, strlen(base) + strlen(rel) + 3), 0,
                         0, abs};
  if (abs)
    p.out[p.w++] = '/', p.floor = 1;
  clean_add(&p, base);
  clean_add(&p, rel);
  if (!p.w)
    p.out[p.w++] = '.';
  p.out[p.w] = 0;
  return p.out;
}

static bool is_dir(const char *path, struct stat *st) {
  return stat(path, st) == 0 && S_ISDIR(st->st_mode);
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

/* Whether what the tree holds -- its arena (instances, their values) and
** t->held (module files, the manifest) -- passes the memory budget
** (-max-memory, arena_value_budget), as eval.c's over_budget checks an
** expression's: then "Value too large" said once, at src's range at
** (none: src NULL), for the module addr, what (a printf format with one
** %s, arg) taking it past; true from then on without a word. */
static bool tree_over_budget(struct tree *t, struct src_file *src,
                             struct span at, const char *addr, const char *what,
                             const char *arg) {
  if (t->budget_said)
    return true;
  size_t used = tfr_arena_used(t->a), budget = arena_value_budget();
  if (used <= budget && t->held <= budget - used)
    return false;
  size_t before = tfr_diags_count(t->diags);
  struct tfr_range r = src ? src_range(src, at) : (struct tfr_range){0};
  const char *subject = tfr_arena_printf(t->a, what, arg);
  tfr_diags_add(t->diags, TFR_DIAG_ERROR, src ? &r : NULL, "Value too large",
                tfr_arena_printf(t->a,
                                 "%s takes the module tree past this run's "
                                 "memory budget (-max-memory).",
                                 subject));
  tfr_diags_set_ours(t->diags);
  diags_set_module_since(t->diags, before, addr);
  t->budget_said = true;
  return true;
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

/* Whether a member of obj is a string holding a NUL, which a C string
** would end early. */
static bool json_nul(const struct ast *obj, const char *name) {
  const struct ast *v = json_member(obj, name);
  return v && v->kind == AST_STRING && memchr(v->str, 0, v->n);
}

static const char *json_str(tfr_arena *a, const struct ast *obj,
                            const char *name) {
  const struct ast *v = json_member(obj, name);
  return v && v->kind == AST_STRING ? tfr_arena_strndup(a, v->str, v->n) : NULL;
}

/* The records of the manifest at path, its text and syntax tree in tmp
** and the strings kept in t->a. */
static void read_manifest(struct tree *t, tfr_arena *tmp, const char *path) {
  tfr_diags *scratch = tfr_diags_new(tmp);
  struct src_file *src = parse_open(tmp, scratch, t->ov, path, NULL, 0);
  if (!src)
    return;
  bool complete;
  struct ast_file *f = parse_config(src, tmp, scratch, &complete);
  if (!f || !complete)
    return;
  const struct ast *mods = json_member(f->body, "Modules");
  if (!mods || mods->kind != AST_TUPLE)
    return;
  t->has_man = true;
  tfr_arena_on_free(t->a, (void (*)(void *))strmap_free, &t->man_keys);
  t->man = tfr_arena_alloc(t->a, (mods->n ? mods->n : 1) * sizeof *t->man);
  for (uint32_t i = 0; i < mods->n; i++) {
    const struct ast *r = mods->items[i];
    const char *key = json_str(t->a, r, "Key");
    /* a NUL in a record would cut its key, source or directory and
    ** match another call or directory: such a record is none (Terraform
    ** could read no directory by it: its call is not installed) */
    if (!key || json_nul(r, "Key") || json_nul(r, "Source") ||
        json_nul(r, "Dir"))
      continue;
    size_t first;
    strmap_add(&t->man_keys, key, t->nman, &first);
    t->man[t->nman++] = (struct manifest_rec){key, json_str(t->a, r, "Source"),
                                              json_str(t->a, r, "Version"),
                                              json_str(t->a, r, "Dir")};
  }
}

/* The manifest `terraform init` writes, as configload reads it; a missing
** or unreadable one is no manifest (every registry module is then not
** installed).  Its text, the scanner's copy and the syntax tree are
** released once its strings are kept: a manifest of 60 MB held them all
** for the rest of the run. */
static void load_manifest(struct tree *t) {
  const char *dd = env_get(t, "TF_DATA_DIR");
  t->data_dir = dd && *dd ? dd : ".terraform";
  t->data_path = path_join(t->a, t->root->dir, t->data_dir);
  const char *rel =
      tfr_arena_printf(t->a, "%s/modules/modules.json", t->data_dir);
  const char *path = path_join(t->a, t->root->dir, rel);
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return;
  /* its text, read or mapped, then what parsing it keeps: charged before
  ** it is read (a manifest larger than the budget is an error, not none);
  ** the strings kept are in t->a, charged after */
  const char *what = "Reading the module manifest %s";
  t->held += (size_t)st.st_size;
  if (tree_over_budget(t, NULL, (struct span){0}, "", what, rel)) {
    t->cut = true;
    return;
  }
  tfr_arena *tmp = tfr_arena_new();
  read_manifest(t, tmp, path);
  /* at its peak: the text and the strings kept from it */
  if (tree_over_budget(t, NULL, (struct span){0}, "", what, rel))
    t->cut = true;
  tfr_arena_free(tmp);
  t->held -= (size_t)st.st_size; /* given back with tmp */
}

static const struct manifest_rec *manifest_find(const struct tree *t,
                                                const char *key) {
  size_t i;
  return strmap_get(&t->man_keys, key, &i) ? &t->man[i] : NULL;
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

/* The keys (str_near_key) of the child's variables, made once for a call's
** suggestions. */
static struct near_key *var_keys(struct tree *t, const struct module *m) {
  struct near_key *k =
      tfr_arena_alloc(t->a, (m->nvars ? m->nvars : 1) * sizeof *k);
  for (size_t j = 0; j < m->nvars; j++)
    k[j] = str_near_key(m->vars[j].name, strlen(m->vars[j].name));
  return k;
}

/* The argument check of Terraform's init walk: every argument must be a
** variable of the child (hcl's Unsupported argument, with its
** suggestion among the variables not set: hclsyntax/structure.go:60-90,
** nameSuggestion).  The arguments that name variables are placed first,
** so that "not set" is tm->args[j] == NULL, and each unknown argument is
** compared with the child's variables by their keys (20,000 misspelt
** arguments were compared with each other too: cubic). */
static void unsupported_args(struct tree *t, struct tmod *tm) {
  const struct module_call *c = tm->call;
  const struct module *m = tm->m;
  struct near_key *keys = NULL;
  for (size_t i = 0; i < c->nargs; i++) {
    const struct module_arg *arg = &c->args[i];
    long k = module_var_index(m, arg->name, strlen(arg->name));
    if (k >= 0 && !tm->args[k])
      tm->args[k] = arg;
  }
  for (size_t i = 0; i < c->nargs; i++) {
    const struct module_arg *arg = &c->args[i];
    struct near_key ak = str_near_key(arg->name, strlen(arg->name));
    if (module_var_index(m, ak.s, ak.n) >= 0)
      continue;
    if (!keys)
      keys = var_keys(t, m);
    const char *near = "";
    for (size_t j = 0; j < m->nvars && !*near; j++)
      if (!tm->args[j] && str_near_keys(&ak, &keys[j]))
        near = tfr_arena_printf(t->a, " Did you mean %s?",
                                str_go_quote(t->a, keys[j].s, keys[j].n));
    call_error_in(t, arg->file, arg->name_span, tm->addr,
                  "Unsupported argument",
                  tfr_arena_printf(t->a,
                                   "An argument named %s is not expected "
                                   "here.%s",
                                   str_go_quote(t->a, ak.s, ak.n), near));
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

/* Whether the directory st is being loaded by one of tm's ancestors (a
** cycle): compared as stat finds it, so that a symlink to "." or to a
** caller's directory is one too, not a tree that doubles at every level
** until it is 32 deep.  Terraform checks nothing of the kind: its loader
** follows every call (internal/configs/config_build.go:269-319,
** loadModule recursing through buildChildModules at :344), and `terraform
** init` on such a module does not end. */
static bool loading(const struct tmod *tm, const struct stat *st) {
  for (; tm; tm = tm->parent)
    if (tm->dev == st->st_dev && tm->ino == st->st_ino)
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

/* A source address with a control character (source_control_char), an
** error of ours at the source naming the call: a NUL would cut the path
** and load another directory, and no other control character belongs in
** a directory or an address (Go's net/url refuses them in a URL). */
static bool source_chars_ok(struct tree *t, struct src_file *src,
                            struct span at, const char *addr, const char *s,
                            size_t n) {
  int ch = source_control_char(s, n);
  if (ch < 0)
    return true;
  call_error_in(t, src, at, addr, "Invalid module source address",
                tfr_arena_printf(t->a,
                                 "The source address of %s, %s, holds the "
                                 "control character U+%04X: tfresolve "
                                 "reads no module from such an address "
                                 "(a NUL would end the path early, at "
                                 "another directory).",
                                 addr, str_go_quote(t->a, s, n), ch));
  tfr_diags_set_ours(t->diags);
  return false;
}

/* A call's source that does not parse: Terraform's error at the source,
** and the call is not followed (node_module_install.go:277-328; OpenTofu
** gives the same texts with its name where it decodes the call,
** module_call.go:215-252). */
static bool source_ok(struct tree *t, const struct module_call *c,
                      const char *addr) {
  struct source_error err;
  const char *product = t->engine->product;
  /* the normal form is not kept: worked out in the scratch arena (once
  ** per call path), again in the tree's when it is an error */
  struct arena_mark mark = arena_mark(t->scratch);
  bool fine = source_normal(t->scratch, c->source, t->engine->registry_host,
                            c->version != NULL, &err);
  arena_reset(t->scratch, mark);
  if (fine || source_normal(t->a, c->source, t->engine->registry_host,
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

/* The manifest's key of call path addr ("module.a.module.b": "a.b"). */
static const char *manifest_key(struct tree *t, const char *addr) {
  size_t len = strlen(addr);
  char *key = tfr_arena_alloc_raw(t->a, len + 1), *o = key;
  for (const char *p = addr + 7; *p;) {
    const char *dot = strstr(p, ".module.");
    size_t l = dot ? (size_t)(dot - p) : strlen(p);
    memcpy(o, p, l);
    o += l;
    if (!dot)
      break;
    *o++ = '.';
    p = dot + 8;
  }
  *o = 0;
  return key;
}

/* Where the child of call c is, as configload's moduleWalkerLoad finds it
** (loader_load.go:45-93): its record in the manifest (key: the call path,
** dotted), checked against the call; "Module not installed" without one
** (false).  Without a manifest at all a local source is read where it is
** (Terraform would say it is not installed: tfresolve checks it). */
static bool child_dir(struct tree *t, const struct tmod *tm,
                      const struct module_call *c, const char *addr,
                      const char **dir, const char **rel) {
  if (!t->has_man && source_is_local(c->source)) {
    *dir = path_join(t->a, tm->dir, c->source);
    *rel = path_join(t->a, tm->rel, c->source);
    return true;
  }
  const struct manifest_rec *rec = manifest_find(t, manifest_key(t, addr));
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
static const char *cat3(struct tree *t, const char *a, const char *b,
                        const char *c);

/* Whether the tree, at a new call path (addr, call c), would pass
** TREE_MAX_INSTANCES: each call path is one module instance or more, so
** that a tree of plain calls doubling at every level stops here, before
** it is loaded (then ours to say, once, and nothing more is loaded). */
static bool too_many_calls(struct tree *t, const struct module_call *c,
                           const char *addr) {
  if (t->nall <= TREE_MAX_INSTANCES) /* the root's and the calls so far */
    return false;
  call_error(t, c, c->decl, addr, "Too many module instances",
             tfr_arena_printf(t->a,
                              "With the module call %s the configuration "
                              "would have more than %d module calls, the "
                              "most tfresolve follows: each is a module "
                              "instance, or one per count index or for_each "
                              "key.",
                              addr, TREE_MAX_INSTANCES));
  tfr_diags_set_ours(t->diags);
  t->cut = true;
  return true;
}

/* The module in dir (st: what stat found there), read once per tree: a
** directory reached by several paths (symlinks: 2^N distinct paths to N
** directories) is one module, its files named as the first path names
** them, its cache's bytes charged once (t->held); what reading it said
** is said again for each call path, as the cache gives it. */
static const struct module *load_module(struct tree *t, const char *dir,
                                        const struct stat *st, bool opentofu) {
  char key[64];
  snprintf(key, sizeof key, "%jx:%jx", (uintmax_t)st->st_dev,
           (uintmax_t)st->st_ino);
  size_t i;
  if (strmap_get(&t->dir_keys, key, &i)) {
    diags_append(t->diags, t->dir_mods[i].diags);
    return t->dir_mods[i].m;
  }
  tfr_diags *said = tfr_diags_new(t->a);
  size_t fresh;
  const struct module *m =
      modcache_load_counted(t->cache, t->a, said, dir, opentofu, t->ov, &fresh);
  t->held += fresh;
  diags_append(t->diags, said);
  if (t->ndir_mods == t->capdir_mods) {
    t->capdir_mods = t->capdir_mods ? 2 * t->capdir_mods : 8;
    struct dir_mod *n = tfr_arena_alloc(t->a, t->capdir_mods * sizeof *n);
    if (t->ndir_mods)
      memcpy(n, t->dir_mods, t->ndir_mods * sizeof *n);
    t->dir_mods = n;
  }
  if (!t->ndir_mods)
    tfr_arena_on_free(t->a, (void (*)(void *))strmap_free, &t->dir_keys);
  t->dir_mods[t->ndir_mods] = (struct dir_mod){m, said};
  strmap_put(&t->dir_keys, tfr_arena_strdup(t->a, key), t->ndir_mods++);
  return m;
}

/* The children of tm, depth first, calls in name order. */
static void load_children(struct tree *t, struct tmod *tm) {
  const struct module *m = tm->m;
  for (size_t i = 0; i < m->ncalls && !t->cut; i++) {
    const struct module_call *c = &m->calls[i];
    const char *addr =
        cat3(t, tm->addr, *tm->addr ? ".module." : "module.", c->name);
    if (!c->source && c->source_expr) {
      struct module_call *mc =
          UNCONST(struct module_call *, c); /* the tree's own */
      mc->source = eval_source(t, tm, c, addr);
    }
    if (!c->source)
      continue; /* its block's error is reported */
    if (!c->source_expr && !source_chars_ok(t, c->source_src, c->source_span,
                                            addr, c->source, c->source_len))
      continue;
    if (!source_ok(t, c, addr))
      continue;
    const char *dir, *rel;
    if (!child_dir(t, tm, c, addr, &dir, &rel))
      continue;
    struct stat st;
    if (!is_dir(dir, &st)) {
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
    if (tm->depth + 1 > TREE_MAX_DEPTH || loading(tm, &st)) {
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
    if (too_many_calls(t, c, addr))
      return;
    size_t before = tfr_diags_count(t->diags);
    const struct module *cm = load_module(t, dir, &st, m->opentofu);
    if (cm->tree_diags)
      diags_append(t->diags, cm->tree_diags);
    diags_set_module_since(t->diags, before, addr);
    struct tmod *child =
        new_mod(t, UNCONST(struct module *, cm), addr, dir, rel);
    child->dev = st.st_dev;
    child->ino = st.st_ino;
    child->source = c->source;
    child->parent = tm;
    child->call = c;
    child->depth = tm->depth + 1;
    tm->children[i] = child;
    unsupported_args(t, child);
    if (tree_over_budget(t, c->src, c->decl, addr, "Loading %s", addr)) {
      t->cut = true;
      return;
    }
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

/* The keys (str_near_key) of a call's arguments that name no variable of the
** child, in order; *n of them. */
static struct near_key *unknown_arg_keys(struct tree *t, const struct tmod *tm,
                                         size_t *n) {
  const struct module_call *c = tm->call;
  struct near_key *k =
      tfr_arena_alloc(t->a, (c->nargs ? c->nargs : 1) * sizeof *k);
  *n = 0;
  for (size_t q = 0; q < c->nargs; q++) {
    size_t len = strlen(c->args[q].name);
    if (module_var_index(tm->m, c->args[q].name, len) < 0)
      k[(*n)++] = str_near_key(c->args[q].name, len);
  }
  return k;
}

/* The validate graph builder's check (transform_module_variable.go): a
** variable without a default must be given; hcl's error at the body. */
static void required_args(struct tree *t) {
  for (size_t i = 1; i < t->nall; i++) {
    struct tmod *tm = t->all[i];
    struct near_key *unknown = NULL;
    size_t nunknown = 0;
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
      if (!unknown)
        unknown = unknown_arg_keys(t, tm, &nunknown);
      struct near_key vk = str_near_key(v->name, strlen(v->name));
      const char *near = NULL;
      for (size_t q = 0; q < nunknown && !near; q++)
        if (str_near_keys(&vk, &unknown[q]))
          near = unknown[q].s;
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
  struct stat st;
  if (stat(root->dir, &st) == 0) {
    t->root->dev = st.st_dev;
    t->root->ino = st.st_ino;
  }
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

/* module.NAME in the module at addr ("" for the root's). */
static const char *in_module(struct tree *t, const char *addr,
                             const char *name) {
  return *addr ? cat3(t, addr, ".module.", name) : cat3(t, "module.", name, "");
}

static const char *node_prefix(struct tree *t, const struct tmod *tm) {
  return *tm->addr ? tfr_arena_printf(t->a, "%s.", tm->addr) : "";
}

/* The graph's nodes and their dependencies; false when they take the
** tree past the memory budget (a module of many variables called from
** many paths). */
static bool build_graph(struct tree *t) {
  for (size_t i = 0; i < t->nall; i++) {
    struct tmod *tm = t->all[i];
    if (tm->parent) { /* its own copy, with its address (validate.c's
                         errors name it), made once the tree is whole */
      struct module *own = tfr_arena_alloc(t->a, sizeof *own);
      *own = *tm->m;
      own->addr = tm->addr;
      tm->m = own;
    }
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
    if (tm->call && tree_over_budget(t, tm->call->src, tm->call->decl, tm->addr,
                                     "The graph of %s", tm->addr))
      return false;
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
  return true;
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

/* What evaluating in an instance takes: its scope and the context. */
struct inst_ctx {
  struct scope s;
  struct tscope ts;
  struct eval_scope es;
  struct eval_ctx c;
};

/* The context of an expression of src in instance in (rep: the
** repetition of a call's own arguments, or NULL). */
static void inst_ctx(struct tree *t, struct inst_ctx *ic, struct tinst *in,
                     struct src_file *src, const struct trep *rep) {
  init_scope(t, &ic->s, &ic->ts, in, rep, -1, NULL);
  ic->ts.vars = true;
  ic->es = (struct eval_scope){scope_lookup, &ic->s, scope_attr};
  ic->c = (struct eval_ctx){0};
  ic->c.a = t->a;
  ic->c.diags = t->diags;
  ic->c.src = src;
  ic->c.scope = &ic->es;
  ic->c.funcs = &funcs_table;
  ic->c.dir = t->root->dir;
  ic->c.plan = true;
  scope_funcs(&ic->c, in->tm->m);
}

/* Evaluate x (in src) in instance in, as lang's EvalExpr: the static
** reference checks first.  NULL after an error (reported, with the
** instance's address). */
static const tfr_value *eval_in(struct tree *t, struct tinst *in,
                                struct src_file *src, const struct ast *x,
                                const struct trep *rep, const char *var,
                                const char *module) {
  if (t->budget_said)
    return NULL; /* nothing more is evaluated: the budget's error is said */
  size_t before = tfr_diags_count(t->diags);
  const tfr_value *v = NULL;
  struct tref_list l = refs_of_x(t, x);
  bool ok = repetition_refs(t, src, &l, rep, var);
  /* which names are declared does not change: the validate walk, which
  ** evaluates every expression and stops at errors, checked them */
  if (t->validate)
    ok &= validate_refs(in->tm->m, t->a, t->diags, src, x, var);
  if (ok) {
    struct inst_ctx ic;
    inst_ctx(t, &ic, in, src, rep);
    v = eval_expr(&ic.c, x);
    for (size_t i = before; i < tfr_diags_count(t->diags); i++)
      if (var)
        tfr_diags_set_variable_at(t->diags, i, var);
  }
  if (t->validate) /* only errors count there */
    for (size_t i = tfr_diags_count(t->diags); i > before; i--)
      if (tfr_diags_get(t->diags, i - 1)->sev != TFR_DIAG_ERROR)
        diags_remove(t->diags, i - 1, i);
  diags_set_module_since(t->diags, before, module);
  if (diags_errors_since(t->diags, before))
    return NULL;
  /* the values the tree holds so far, this one's included */
  if (tree_over_budget(t, src, x->span, module,
                       "Evaluating this expression in %s",
                       *module ? module : "the root module"))
    return NULL;
  return v;
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
  ec.unknown_funcs = EVAL_FUNCS_INIT;
  scope_funcs(&ec, m);
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
  if (!source_chars_ok(t, src, x->span, addr, v->s, v->n))
    return NULL;
  return tfr_arena_strndup(t->a, v->s, v->n);
}

/* ---- the walk ----------------------------------------------------------- */

static const char *inst_addr(struct tree *t, const struct tinst *parent,
                             const char *name, const char *key,
                             const tfr_value *num) {
  const char *base = in_module(t, parent->addr, name);
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

/* A count or for_each (what) left unknown by the memory budget: once
** the budget's error was said (eval_budget_said), an evaluation that
** finds the arena past the budget again stops with an unknown result and
** no error of its own (src/eval/eval.c over_budget), so that even a for
** over literals looks like something only apply knows.  The budget's
** error is said here instead of a reason that is not the one. */
static void budget_repetition(struct tree *t, struct tinst *pi,
                              struct src_file *xsrc, const struct ast *x,
                              const char *what) {
  add_error(t, xsrc, x->span, eval_budget_summary, eval_budget_detail,
            pi->addr);
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
  struct src_file *xsrc = x == c->count ? c->count_src : c->for_each_src;
  if (tfr_arena_used(t->a) > arena_value_budget() &&
      eval_budget_said(t->diags)) {
    budget_repetition(t, pi, xsrc, x, x == c->count ? "count" : "for_each");
    return;
  }
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
    if (too_many(t, pi, c, 1)) /* one per call path: passes (tree_load) */
      return false;
    e->insts = tfr_arena_alloc(t->a, sizeof *e->insts);
    if (push_inst(t, e,
                  new_inst(t, tm, pi, inst_addr(t, pi, c->name, NULL, NULL),
                           (struct trep){0}),
                  NULL, c))
      return false;
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
    if (n < 0 || too_many(t, pi, c, (size_t)n))
      return false;
    e->mode = EXP_COUNT;
    e->insts = tfr_arena_alloc(t->a, (n ? (size_t)n : 1) * sizeof *e->insts);
    for (long i = 0; i < n; i++) {
      const tfr_value *k = num_val(t->a, i);
      if (push_inst(t, e,
                    new_inst(t, tm, pi, inst_addr(t, pi, c->name, NULL, k),
                             (struct trep){k, NULL, NULL}),
                    NULL, c))
        return false;
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
    if (too_many(t, pi, c, n))
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
      if (push_inst(t, e,
                    new_inst(t, tm, pi, inst_addr(t, pi, c->name, key, NULL),
                             (struct trep){NULL, str_val(t->a, key), val}),
                    key, c))
        return false;
    }
  } else {
    if (too_many(t, pi, c, 1))
      return false;
    e->insts = tfr_arena_alloc(t->a, sizeof *e->insts);
    if (push_inst(t, e,
                  new_inst(t, tm, pi, inst_addr(t, pi, c->name, NULL, NULL),
                           (struct trep){0}),
                  NULL, c))
      return false;
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

/* "Deprecated variable got a value" for variable k of tm, in instance
** addr (node_module_variable.go:337-344: a value that is not null,
** unknown included). */
static void deprecated_warning(struct tree *t, const struct tmod *tm, size_t k,
                               const char *addr) {
  const struct var_decl *v = &tm->m->vars[k];
  const struct module_arg *arg = tm->args[k];
  size_t before = tfr_diags_count(t->diags);
  struct tfr_range r = src_range(arg->file, arg->span);
  tfr_diags_add(t->diags, TFR_DIAG_WARNING, &r,
                "Deprecated variable got a value", v->deprecated);
  tfr_diags_set_variable(t->diags, v->name);
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
        t->engine->deprecated_warns) {
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

/* An error of a check rule at x in instance in, with the values
** Terraform lists under it (Expression and EvalContext). */
static void rule_error(struct tree *t, struct tinst *in, struct src_file *src,
                       const struct ast *x, enum tfr_severity sev,
                       const char *summary, const char *detail) {
  size_t before = tfr_diags_count(t->diags);
  struct tfr_range r = src_range(src, x->span);
  tfr_diags_add(t->diags, sev, &r, summary, detail);
  struct inst_ctx ic;
  inst_ctx(t, &ic, in, src, NULL);
  eval_diag_values(&ic.c, x, false, t->diags);
  diags_set_module_since(t->diags, before, in->addr);
}

/* A check rule's error message in instance in, as lang.EvalCheckErrorMessage
** (lang/checks.go:24-98): "" when it cannot be shown (an error or warning
** says why, or it is unknown). */
static const char *check_message(struct tree *t, struct tinst *in,
                                 const struct out_rule *r) {
  const tfr_value *m = eval_in(t, in, r->msg_src, r->msg, NULL, NULL, in->addr);
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
        eval_in(t, in, r->cond_src, r->cond, NULL, NULL, in->addr);
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
      add_error(t, o->src, o->decl, "Ephemeral output not allowed",
                "Ephemeral outputs are not allowed in context of a root "
                "module",
                in->addr);
      ok = false;
      continue;
    }
    if (!output_preconds(t, in, o)) {
      ok = false; /* failed preconditions prevent further evaluation */
      continue;
    }
    const tfr_value *v =
        o->expr ? eval_in(t, in, o->expr_src, o->expr, NULL, NULL, in->addr)
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
    if (!o->ephemeral && tfr_value_has_mark(v, TFR_V_EPHEMERAL)) {
      add_error(t, o->expr ? o->expr_src : o->src, at,
                "Ephemeral value not allowed",
                "This output value is not declared as returning an ephemeral "
                "value, so it cannot be set to a result derived from an "
                "ephemeral value.",
                in->addr);
      ok = false;
      continue;
    }
    if (o->deprecated && !tm->parent) {
      add_error(t, o->src, o->deprecated_at, "Root module output deprecated",
                "Root module outputs cannot be deprecated, as there is no "
                "higher-level module to inform of the deprecation.",
                in->addr);
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
  size_t n = steps_of(x, root, st, 4);
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
    uint32_t rest = ref_rest(x);
    if (rest)
      call_error_in(t, c->src, (struct span){rest, x->span.end}, addr,
                    "Invalid depends_on reference",
                    "References in depends_on must be to a whole object "
                    "(resource, etc), not to an attribute of an object.");
    if (!diags_errors_since(t->diags, before)) {
      size_t at = tfr_diags_count(t->diags);
      validate_refs(pm, t->a, t->diags, c->src, x, NULL);
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
  t->limit_said = false;
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
  if (!build_graph(t))
    return false;
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
      call_error_in(t, c->src, c->decl, m->addr, "Removed module still exists",
                    tfr_arena_printf(t->a,
                                     "This statement declares that %s was "
                                     "removed, but it is still declared in "
                                     "configuration.",
                                     in_module(t, m->addr, r->from)));
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
        const char *from = in_module(t, at, r->from);
        const char *to = in_module(t, at, r->to);
        if (!strcmp(r->from, r->to)) {
          call_error_in(t, r->src, r->decl, at, "Redundant move statement",
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
        call_error_in(t, r->src, r->decl, at, "Moved object still exists",
                      tfr_arena_printf(
                          t->a,
                          "This statement declares a move from %s, but that "
                          "module call is still declared at %s:%d,%d.\n\n"
                          "Change your configuration so that this call will "
                          "be declared as %s instead.",
                          from, d.filename, d.start.line, d.start.column, to));
      }
    }
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
  /* a tree cut at a limit is not followed: no child is listed (each
  ** would be "not resolved", up to TREE_MAX_INSTANCES of them) */
  for (size_t i = 1; !t->cut && i < t->nall; i++)
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
    for (size_t i = 1; !t->cut && i < t->nall; i++)
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
