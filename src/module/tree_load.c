/*
** Loading: every call followed into its child module.
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
#include "module/modcache.h"
#include "module/source.h"
#include "tfresolve/tfresolve.h"

/* ---- loading ------------------------------------------------------------ */

static void add_mod(struct tree *t, struct tmod *tm) {
  ARENA_GROW(t->a, t->all, t->nall, t->capall, 8);
  t->all[t->nall++] = tm;
}

void tree_call_error_in(struct tree *t, struct src_file *src, struct span at,
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
  tree_call_error_in(t, c->src, at, addr, summary, detail);
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
    tree_call_error_in(t, arg->file, arg->name_span, tm->addr,
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
void tree_add_unchecked(struct tree *t, const char *addr,
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
void tree_unchecked_fails(struct tree *t) {
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
  tree_add_unchecked(
      t, addr, rel ? TFR_UNCHECKED_NO_DIRECTORY : TFR_UNCHECKED_NOT_INSTALLED,
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
bool tree_source_chars_ok(struct tree *t, struct src_file *src, struct span at,
                          const char *addr, const char *s, size_t n) {
  int ch = source_control_char(s, n);
  if (ch < 0)
    return true;
  tree_call_error_in(t, src, at, addr, "Invalid module source address",
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
  tree_call_error_in(t, c->source_src, c->source_span, addr,
                     !rel && c->version
                         ? "Invalid registry module source address"
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
    tree_call_error_in(
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
  if (c->version &&
      (!rec->version || !tree_version_ok(c->version, rec->version)))
    tree_call_error_in(
        t, c->source_src, c->source_span, addr,
        "Module version requirements have changed",
        tfr_arena_printf(t->a,
                         "The version requirements have changed "
                         "since this module was installed and the "
                         "installed version%s%s%s is no longer "
                         "acceptable. %s",
                         rec->version ? " (" : "",
                         rec->version ? rec->version : "",
                         rec->version ? ")" : "", run));
}

const char *tree_manifest_key(struct tree *t, const char *addr) {
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
    *dir = tree_path_join(t->a, tm->dir, c->source);
    *rel = tree_path_join(t->a, tm->rel, c->source);
    return true;
  }
  const struct manifest_rec *rec =
      tree_manifest_find(t, tree_manifest_key(t, addr));
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
  *dir = tree_path_join(t->a, t->root->dir, d);
  *rel = tree_path_join(t->a, ".", d);
  return true;
}

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

/* Whether a component of path (as the loader opens paths, cleaned) below
** its common part with base is a symbolic link. */
static bool link_below(tfr_arena *a, const char *base, const char *path) {
  size_t common = 0, i = 0;
  for (; base[i] && base[i] == path[i]; i++)
    if (base[i] == '/')
      common = i + 1;
  if (!base[i] && (path[i] == '/' || !path[i]))
    common = path[i] ? i + 1 : i;
  if (!strcmp(base, "."))
    common = 0;
  for (size_t j = common; path[j]; j++) {
    if (path[j + 1] != '/' && path[j + 1])
      continue;
    const char *prefix = tfr_arena_strndup(a, path, j + 1);
    struct stat st;
    if (lstat(prefix, &st) == 0 && S_ISLNK(st.st_mode))
      return true;
  }
  return false;
}

/* The module in dir (st: what stat found there; real: no symbolic link on
** its path), read once per tree for each path as Terraform names its files
** (distinct paths without links to one directory are few: they differ in
** how far they go up first); a directory reached through symbolic links
** (2^N distinct paths to N directories) is one module, its files named as
** the first path names them.  Its cache's bytes are charged once
** (t->held); what reading it said is said again for each call path, as the
** cache gives it. */
static const struct module *load_module(struct tree *t, const char *dir,
                                        const struct stat *st, bool real,
                                        bool opentofu) {
  /* the key in scratch memory, kept only for a new module: the tree's
  ** many call paths to modules already read cost nothing */
  struct arena_mark mark = arena_mark(t->scratch);
  const char *key =
      real ? tfr_arena_printf(t->scratch, "p:%s", dir)
           : tfr_arena_printf(t->scratch, "%jx:%jx", (uintmax_t)st->st_dev,
                              (uintmax_t)st->st_ino);
  size_t i;
  if (strmap_get(&t->dir_keys, key, &i)) {
    arena_reset(t->scratch, mark);
    diags_append(t->diags, t->dir_mods[i].diags);
    return t->dir_mods[i].m;
  }
  key = tfr_arena_strdup(t->a, key);
  arena_reset(t->scratch, mark);
  tfr_diags *said = tfr_diags_new(t->a);
  size_t fresh;
  const struct module *m =
      modcache_load_counted(t->cache, t->a, said, dir, opentofu, t->ov, &fresh);
  t->held += fresh;
  diags_append(t->diags, said);
  ARENA_GROW(t->a, t->dir_mods, t->ndir_mods, t->capdir_mods, 8);
  if (!t->ndir_mods)
    tfr_arena_on_free(t->a, (void (*)(void *))strmap_free, &t->dir_keys);
  t->dir_mods[t->ndir_mods] = (struct dir_mod){m, said};
  strmap_put(&t->dir_keys, key, t->ndir_mods++);
  return m;
}

/* The children of tm, depth first, calls in name order. */
static void load_children(struct tree *t, struct tmod *tm) {
  const struct module *m = tm->m;
  for (size_t i = 0; i < m->ncalls && !t->cut; i++) {
    const struct module_call *c = &m->calls[i];
    const char *addr =
        tree_cat3(t, tm->addr, *tm->addr ? ".module." : "module.", c->name);
    if (!c->source && c->source_expr) {
      struct module_call *mc =
          UNCONST(struct module_call *, c); /* the tree's own */
      mc->source = tree_eval_source(t, tm, c, addr);
    }
    if (!c->source)
      continue; /* its block's error is reported */
    if (!c->source_expr &&
        !tree_source_chars_ok(t, c->source_src, c->source_span, addr, c->source,
                              c->source_len))
      continue;
    if (!source_ok(t, c, addr))
      continue;
    const char *dir, *rel;
    if (!child_dir(t, tm, c, addr, &dir, &rel))
      continue;
    struct stat st;
    if (!tree_is_dir(dir, &st)) {
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
    bool local = !t->has_man && source_is_local(c->source);
    struct arena_mark mark = arena_mark(t->scratch);
    bool real = (local ? tm->real : true) &&
                !link_below(t->scratch, local ? tm->dir : t->root->dir, dir);
    arena_reset(t->scratch, mark);
    const struct module *cm = load_module(t, dir, &st, real, m->opentofu);
    if (cm->tree_diags)
      diags_append(t->diags, cm->tree_diags);
    diags_set_module_since(t->diags, before, addr);
    struct tmod *child =
        new_mod(t, UNCONST(struct module *, cm), addr, dir, rel);
    child->dev = st.st_dev;
    child->ino = st.st_ino;
    child->real = real;
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

bool tree_root_diags(const struct module *root, tfr_diags *diags) {
  bool errors = false;
  for (size_t j = 0; root->tree_diags && j < tfr_diags_count(root->tree_diags);
       j++) {
    const struct tfr_diag *g = tfr_diags_get(root->tree_diags, j);
    tfr_diags_add(diags, g->sev, g->subject.filename ? &g->subject : NULL,
                  g->summary, g->detail);
    if (g->ours)
      tfr_diags_set_ours(diags);
    errors |= g->sev == TFR_DIAG_ERROR;
  }
  return errors;
}

struct tree *tree_new(tfr_arena *a, tfr_diags *diags, struct module *root,
                      const struct tree_opts *o) {
  /* a root without module blocks is a tree of one module: the root is
  ** the first module instance of Terraform's one graph, whose walk
  ** evaluates its local values, rules and outputs (node_output.go:417-437,
  ** 522-530) */
  struct tree *t = tfr_arena_alloc(a, sizeof *t);
  t->a = a;
  t->diags = diags;
  t->env = o->env;
  t->ov = o->ov;
  /* without a cache shared with other resolutions, one of the tree's
  ** own: a module called from several places is read once */
  struct tfr_cache *cache = o->cache;
  if (!cache) {
    cache = tfr_cache_new();
    tfr_arena_on_free(a, (void (*)(void *))tfr_cache_free, cache);
  }
  t->cache = cache;
  t->scratch = tfr_arena_new();
  tfr_arena_on_free(a, (void (*)(void *))tfr_arena_free, t->scratch);
  t->const_values = o->const_values;
  t->strict = o->strict;
  t->warn_dropped = o->warn_dropped;
  t->unchecked_error = o->strict || o->unchecked_error;
  t->engine = engine_rules(root->opentofu);
  t->root = new_mod(t, root, "", root->dir, ".");
  t->root->real = true; /* what is below its directory counts */
  /* the user's own code, as the loader opens paths */
  t->own_dir = o->own_dir ? tree_path_join(a, o->own_dir, ".") : NULL;
  struct stat st;
  if (stat(root->dir, &st) == 0) {
    t->root->dev = st.st_dev;
    t->root->ino = st.st_ino;
  }
  t->root_only = o->root_only;
  return t;
}

bool tree_load_children(struct tree *t) {
  if (t->root_only)
    return true; /* the module blocks are not looked at */
  const struct module *root = t->root->m;
  tfr_diags *diags = t->diags;
  size_t before = tfr_diags_count(diags);
  tree_root_diags(root, diags);
  /* OpenTofu decodes a call's source with its module: a root call's
  ** invalid source is a root configuration error */
  for (size_t i = 0; t->engine->source_at_decode && i < root->ncalls; i++)
    if (root->calls[i].source)
      source_ok(t, &root->calls[i], "");
  /* a root module with configuration errors loads no child: plan stops
  ** there (internal/command/meta_config.go:109-117) */
  if (diags_errors_since(diags, before))
    return false;
  tree_load_manifest(t);
  load_children(t, t->root);
  notices_once(t);
  if (diags_errors_since(diags, before))
    return false;
  required_args(t);
  return !diags_errors_since(diags, before);
}
