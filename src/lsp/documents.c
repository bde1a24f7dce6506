/*
** tfresolve lsp: the open documents and their modules.  A document
** belongs to the module of its directory (a variables file below a
** module directory, envs/prod.tfvars, to that module with the file as
** -var-file); a module is resolved with every open document's text in
** place of its file (and, with the module tree, those of its child
** modules), through the public API.  Files changed on disk are seen
** through the client's file watcher where it has one, else by looking
** at the modules' files (their names, sizes, modification times) while
** input pauses.
*/
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "lsp.h"

extern char **environ;

static void free_deps(struct module *m);
static void free_callers(struct module *m);

/* How long dirty modules may wait (lsp_resolve_dirty's debounce). */
#define DEBOUNCE_MAX_MS 30

/* A file: URI's path (percent-decoded), malloc'd; NULL for another
** scheme. */
char *lsp_uri_path(const char *uri) {
  if (strncmp(uri, "file://", 7))
    return NULL;
  const char *p = uri + 7;
  char *out = cli_alloc(strlen(p) + 1), *o = out;
  for (; *p; p++) {
    unsigned hi, lo;
    if (*p == '%' && p[1] && p[2] && sscanf(p + 1, "%1x%1x", &hi, &lo) == 2) {
      *o++ = (char)(hi * 16 + lo);
      p += 2;
    } else {
      *o++ = *p;
    }
  }
  *o = '\0';
  return out;
}

/* path as a file: URI (unreserved bytes as they are), malloc'd. */
char *lsp_path_uri(const char *path) {
  size_t n = strlen(path);
  char *out = cli_alloc(7 + 3 * n + 1), *o = out;
  o += sprintf(o, "file://");
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
        (*p >= '0' && *p <= '9') || strchr("/-._~", *p))
      *o++ = (char)*p;
    else
      o += sprintf(o, "%%%02X", *p);
  }
  *o = '\0';
  return out;
}

char *lsp_dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash || slash == path)
    return cli_strdup("/");
  char *d = cli_strndup(path, (size_t)(slash - path));
  return d;
}

struct doc *lsp_find_doc(struct server *s, const char *uri) {
  for (size_t i = 0; i < s->ndocs; i++)
    if (!strcmp(s->docs[i].uri, uri))
      return &s->docs[i];
  return NULL;
}

struct doc *lsp_doc_by_path(struct server *s, const char *path) {
  for (size_t i = 0; i < s->ndocs; i++)
    if (!strcmp(s->docs[i].path, path))
      return &s->docs[i];
  /* the same file by another path (a symbolic link on the way: the
  ** library names a child's files by the path it loaded them from, the
  ** editor by their real path) */
  struct stat st, x;
  if (!s->ndocs || stat(path, &st) != 0)
    return NULL;
  for (size_t i = 0; i < s->ndocs; i++) /* each looked at now: an editor
                                        ** saves by renaming, inodes are
                                        ** used again */
    if (stat(s->docs[i].path, &x) == 0 && x.st_dev == st.st_dev &&
        x.st_ino == st.st_ino)
      return &s->docs[i];
  return NULL;
}

bool lsp_same(const char *x, const char *y) {
  return x == y || (x && y && !strcmp(x, y));
}

static struct module *module_of(struct server *s, const char *dir,
                                const char *var_file) {
  for (size_t i = 0; i < s->nmods; i++)
    if (!strcmp(s->mods[i].dir, dir) && lsp_same(s->mods[i].var_file, var_file))
      return &s->mods[i];
  if (s->nmods == s->capmods) {
    s->capmods = s->capmods ? 2 * s->capmods : 4;
    s->mods = cli_realloc(s->mods, s->capmods * sizeof *s->mods);
  }
  struct module *m = &s->mods[s->nmods++];
  memset(m, 0, sizeof *m);
  m->dir = cli_strdup(dir);
  m->var_file = var_file ? cli_strdup(var_file) : NULL;
  return m;
}

/* Whether dir holds configuration (.tf, .tf.json, .tofu...). */
static bool config_name(const char *path, const char *name, int is_dir,
                        void *ctx) {
  (void)ctx;
  return (cli_has_suffix(name, ".tf") || cli_has_suffix(name, ".tf.json") ||
          cli_has_suffix(name, ".tofu") ||
          cli_has_suffix(name, ".tofu.json")) &&
         cli_is_dir(path, is_dir) != 1;
}

static bool has_config(const char *dir) {
  struct cli_names l = {0};
  bool any = cli_list_dir(dir, config_name, NULL, &l) && l.n > 0;
  cli_names_free(&l);
  return any;
}

/* Loaded by the module of its directory: terraform.tfvars(.json) and
** *.auto.tfvars(.json). */
static bool auto_loaded(const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  return !strcmp(base, "terraform.tfvars") ||
         !strcmp(base, "terraform.tfvars.json") ||
         cli_has_suffix(base, ".auto.tfvars") ||
         cli_has_suffix(base, ".auto.tfvars.json");
}

/* The module a document belongs to (malloc'd dir), and (*var_file, not
** malloc'd: path itself) the variables file it is for that module when
** the module does not load it: a file of a module directory that is not
** auto-loaded, or a variables file below one (envs/prod.tfvars), up to
** three directories down. */
static char *module_dir_for(const char *path, const char **var_file) {
  char *dir = lsp_dir_of(path);
  *var_file = NULL;
  if (!cli_has_suffix(path, ".tfvars") && !cli_has_suffix(path, ".tfvars.json"))
    return dir;
  if (has_config(dir)) {
    if (!auto_loaded(path))
      *var_file = path;
    return dir;
  }
  char *up = cli_strdup(dir);
  for (int level = 0; level < 3 && strcmp(up, "/"); level++) {
    char *parent = lsp_dir_of(up);
    free(up);
    up = parent;
    if (has_config(up)) {
      free(dir);
      *var_file = path;
      return up;
    }
  }
  free(up);
  return dir;
}

struct module *lsp_module_for_doc(struct server *s, const struct doc *d) {
  return module_of(s, d->mod_dir, d->var_file ? d->path : NULL);
}

/* Whether document d is published by module m. */
bool lsp_publishes(const struct module *m, const struct doc *d) {
  if (m->var_file)
    return !strcmp(d->path, m->var_file);
  return !d->var_file && !strcmp(d->mod_dir, m->dir);
}

/* The text of a file: the open document's, else the disk's (malloc'd in
** *owned, or NULL). */
const char *lsp_file_text(struct server *s, const char *path, size_t *len,
                          char **owned) {
  *owned = NULL;
  struct doc *d = lsp_doc_by_path(s, path);
  if (d) {
    *len = d->len;
    return d->text;
  }
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  char *buf = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n + 65536 > cap) {
      cap = (n + 65536) * 2;
      char *nb = cli_realloc(buf, cap);
      buf = nb;
    }
    size_t k = fread(buf + n, 1, cap - n - 1, f);
    n += k;
    if (k == 0 || n > LSP_MAX_MESSAGE)
      break;
  }
  fclose(f);
  buf[n] = '\0';
  *owned = buf;
  *len = n;
  return buf;
}

bool lsp_is_tfvars(const char *path) {
  return cli_has_suffix(path, ".tfvars") ||
         cli_has_suffix(path, ".tfvars.json");
}

bool lsp_config_file(const char *path) {
  return cli_has_suffix(path, ".tf") || cli_has_suffix(path, ".tf.json") ||
         cli_has_suffix(path, ".tofu") || cli_has_suffix(path, ".tofu.json");
}

/* dir/rel with "." and ".." taken out (no symbolic link followed, as
** the library names a child module's directory), malloc'd. */
char *lsp_clean_join(const char *dir, const char *rel) {
  size_t n = strlen(dir) + strlen(rel) + 2;
  char *in = cli_alloc(n), *out = cli_alloc(n + 1);
  snprintf(in, n, "%s/%s", rel[0] == '/' ? "" : dir, rel);
  size_t o = 0;
  for (char *p = in; *p;) {
    while (*p == '/')
      p++;
    char *e = p + strcspn(p, "/");
    size_t l = (size_t)(e - p);
    if (l == 2 && !strncmp(p, "..", 2)) {
      while (o > 0 && out[--o] != '/')
        ;
    } else if (l && !(l == 1 && *p == '.')) {
      out[o++] = '/';
      memcpy(out + o, p, l);
      o += l;
    }
    p = e;
  }
  if (!o)
    out[o++] = '/';
  out[o] = '\0';
  free(in);
  return out;
}

/* ---- resolving, and files on disk ---- */

static unsigned long long fnv(unsigned long long h, const void *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    h = (h ^ ((const unsigned char *)p)[i]) * 1099511628211ULL;
  return h;
}

/* What a file looks like on disk: its name, size, modification time and
** inode (or that it is not there). */
static unsigned long long stamp_file(const char *path) {
  unsigned long long h = fnv(14695981039346656037ULL, path, strlen(path));
  struct stat st;
  if (stat(path, &st) != 0)
    return fnv(h, "-", 1);
  long long v[4] = {(long long)st.st_size, (long long)st.st_mtim.tv_sec,
                    (long long)st.st_mtim.tv_nsec, (long long)st.st_ino};
  return fnv(h, v, sizeof v);
}

/* Whether a change of a file of this name can change a resolution:
** configuration and variables files, not an editor's lock file. */
static bool watched_name(const char *name) {
  return strncmp(name, ".#", 2) && name[0] != '#' &&
         (lsp_config_file(name) || lsp_is_tfvars(name));
}

/* The configuration and variables files of dir on disk, in any order
** (a sum). */
static unsigned long long stamp_dir(const char *dir) {
  unsigned long long h = fnv(14695981039346656037ULL, dir, strlen(dir));
  DIR *d = opendir(dir);
  if (!d)
    return h;
  size_t n = strlen(dir);
  char *path = NULL;
  size_t cap = 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (!watched_name(e->d_name))
      continue;
    size_t k = n + strlen(e->d_name) + 2;
    if (k > cap) {
      cap = 2 * k;
      path = cli_realloc(path, cap);
    }
    snprintf(path, cap, "%s/%s", dir, e->d_name);
    h += stamp_file(path);
  }
  closedir(d);
  free(path);
  return h;
}

/* What the files a module's resolution reads look like on disk: its
** directory's, its child modules' (as it last resolved them), its var
** files'. */
static unsigned long long disk_stamp(struct server *s, struct module *m) {
  unsigned long long h = stamp_dir(m->dir);
  for (size_t k = 0; k < m->ndeps; k++) /* its children, there or not */
    if (strcmp(m->deps[k].path, m->dir))
      h += stamp_dir(m->deps[k].path);
  for (size_t i = 0; i < s->set.var_files.n; i++) {
    char *f = lsp_clean_join(m->dir, s->set.var_files.v[i]);
    h += stamp_file(f);
    free(f);
  }
  if (m->var_file)
    h += stamp_file(m->var_file);
  return h;
}

/* Each open document in the module its path belongs to now (a .tf
** created beside a lone tfvars, or the last one deleted): a document
** that moves leaves its old module and joins its new one, both to be
** resolved again. */
static void rehome_docs(struct server *s) {
  for (size_t i = 0; i < s->ndocs; i++) {
    struct doc *d = &s->docs[i];
    const char *vf;
    char *dir = module_dir_for(d->path, &vf);
    if (!strcmp(dir, d->mod_dir) && (vf != NULL) == d->var_file) {
      free(dir);
      continue;
    }
    /* its old module speaks of it no more: nothing of it is merged into
    ** what the new one publishes, nor cleared after it */
    struct module *was = lsp_module_for_doc(s, d);
    was->dirty = true;
    for (size_t k = 0; k < was->npub; k++)
      if (!strcmp(was->pub[k].uri, d->uri)) {
        free(was->pub[k].uri);
        json_decref(was->pub[k].list);
        was->pub[k--] = was->pub[--was->npub];
      }
    free(d->mod_dir);
    d->mod_dir = dir;
    d->var_file = vf != NULL;
    lsp_module_for_doc(s, d)->dirty = true;
    lsp_forget_sent(s,
                    d->uri); /* its new module's list is sent, even the same */
  }
}

/* Modules none of whose documents is open any more are dropped: a root
** whose files were all closed is not checked again (on a keystroke in a
** child it shares, or a change on disk), and what it published is
** cleared, or left to what other modules say of those files. */
static void drop_closed(struct server *s) {
  for (size_t i = 0; i < s->nmods;) {
    struct module *m = &s->mods[i];
    bool open = false;
    for (size_t k = 0; k < s->ndocs && !open; k++)
      open = lsp_publishes(m, &s->docs[k]);
    if (open) {
      i++;
      continue;
    }
    struct pub *pub = m->pub;
    size_t npub = m->npub;
    free(m->dir);
    free(m->var_file);
    free_deps(m);
    free_callers(m);
    if (m->a)
      tfr_arena_free(m->a);
    *m = s->mods[--s->nmods];
    for (size_t k = 0; k < npub; k++) {
      lsp_send_diags(s, pub[k].uri);
      free(pub[k].uri);
      json_decref(pub[k].list);
    }
    free(pub);
  }
}

/* (lsp.h) */
bool lsp_check_disk(struct server *s, bool idle) {
  drop_closed(s);
  if (s->watching && !idle)
    return false;
  bool any = false;
  for (size_t i = 0; i < s->nmods; i++) {
    struct module *m = &s->mods[i];
    if (m->dirty || !m->res ||
        (m->var_file && !lsp_doc_by_path(s, m->var_file)))
      continue;
    if (disk_stamp(s, m) != m->stamp)
      m->dirty = any = true;
  }
  if (any) {
    rehome_docs(s);
    lsp_forget_roots(s);
  }
  return any;
}

/* ---- callers: whether a module directory is a root ---- */

/* Where the module calls that may reach dir are looked for: up to
** CALLERS_UP directories above dir (a root calling modules/x, examples/y
** calling ../..), but not above its repository (the nearest directory
** holding .git) or the workspace's root; NULL when dir is in neither
** (no walk of a whole disk or home) (malloc'd). */
#define CALLERS_UP 3
static char *calls_top(struct server *s, const char *dir) {
  char *d = cli_strdup(dir), *top = NULL;
  size_t n = s->root_dir ? strlen(s->root_dir) : 0;
  const char *home = getenv("HOME");
  bool in_root = n && strcmp(s->root_dir, "/") &&
                 !(home && !strcmp(home, s->root_dir)) &&
                 !strncmp(dir, s->root_dir, n) && (!dir[n] || dir[n] == '/');
  for (int up = 0; !top && up < 64; up++) {
    char *git = cli_path_join(d, ".git");
    struct stat st;
    bool repo = stat(git, &st) == 0;
    free(git);
    if (repo || (in_root && !strcmp(d, s->root_dir)))
      top = d;
    else if (!strcmp(d, "/"))
      break;
    else {
      char *parent = lsp_dir_of(d);
      free(d);
      d = parent;
    }
  }
  if (!top) {
    free(d);
    return NULL;
  }
  /* at most CALLERS_UP above dir */
  char *near = cli_strdup(dir);
  for (int up = 0; up < CALLERS_UP && strlen(near) > strlen(top); up++) {
    char *parent = lsp_dir_of(near);
    free(near);
    near = parent;
  }
  free(top);
  return near;
}

void lsp_forget_roots(struct server *s) {
  for (size_t i = 0; i < s->nmods; i++)
    s->mods[i].called_known = s->mods[i].callers_known = false;
  cli_roots_free(s->roots);
  s->roots = NULL;
  free(s->roots_top);
  s->roots_top = NULL;
  tfr_arena_free(s->roots_a);
  s->roots_a = NULL;
}

/* Whether module directory dir is only called: some other directory of
** the workspace calls it (roots.c, as check -recursive finds its roots),
** and it has no var files of its own. */
static bool called_only(struct server *s, const char *dir) {
  char *top = calls_top(s, dir);
  if (!top)
    return false;
  if (s->roots && !strcmp(s->roots_top, top)) {
    free(top);
  } else {
    lsp_forget_roots(s);
    s->roots_a = tfr_arena_new();
    s->roots = cli_roots_find(top, s->set.opentofu, true, s->roots_a,
                              tfr_diags_new(s->roots_a));
    s->roots_top = top;
  }
  return cli_roots_called_only(s->roots, dir);
}

/* ---- what a module reads: its dependencies ---- */

static void add_dep(struct module *m, size_t *cap, char *path) {
  for (size_t k = 0; k < m->ndeps; k++)
    if (!strcmp(m->deps[k].path, path)) {
      free(path);
      return;
    }
  if (m->ndeps == *cap) {
    *cap = *cap ? 2 * *cap : 8;
    m->deps = cli_realloc(m->deps, *cap * sizeof *m->deps);
  }
  struct dep *d = &m->deps[m->ndeps++];
  struct stat st;
  d->path = path;
  d->exists = stat(path, &st) == 0;
  d->dev = d->exists ? st.st_dev : 0;
  d->ino = d->exists ? st.st_ino : 0;
}

static void free_deps(struct module *m) {
  for (size_t k = 0; k < m->ndeps; k++)
    free(m->deps[k].path);
  free(m->deps);
  m->deps = NULL;
  m->ndeps = 0;
}

/* The directory a local module call that found none names: its
** source, read from the module block at range u (the tolerant reader),
** joined to the calling file's directory; NULL when it is no local
** path. */
static char *missing_dir(struct server *s, const struct tfr_unchecked *u) {
  if (!u->range.filename)
    return NULL;
  size_t len;
  char *owned;
  const char *text = lsp_file_text(s, u->range.filename, &len, &owned);
  size_t o = u->range.start.byte;
  while (text && o < len && text[o] != '{')
    o++;
  char *out = NULL;
  tfr_arena *a = tfr_arena_new();
  tfr_text *x =
      text && o < len ? tfr_text_new(a, u->range.filename, text, len) : NULL;
  size_t n = 0;
  const struct tfr_text_item *it =
      x ? tfr_text_items(x, o + 1, tfr_text_closing(x, o, len), &n) : NULL;
  for (size_t i = 0; i < n && !out; i++) {
    size_t vs = it[i].value.start.byte, ve = it[i].value.end.byte;
    if (strcmp(it[i].name, "source") || ve - vs < 3 || text[vs] != '"' ||
        text[ve - 1] != '"' || text[vs + 1] != '.')
      continue;
    char *src = cli_strndup(text + vs + 1, ve - vs - 2);
    char *dir = lsp_dir_of(u->range.filename);
    out = lsp_clean_join(dir, src);
    free(src);
    free(dir);
  }
  tfr_arena_free(a);
  free(owned);
  return out;
}

/* What m's resolution read: its directory, its child modules' (by the
** paths the library loaded them from), and the directories of local
** calls that found none (so that one coming back is seen). */
static void deps_of(struct server *s, struct module *m) {
  free_deps(m);
  size_t cap = 0;
  add_dep(m, &cap, cli_strdup(m->dir));
  for (size_t k = 0; m->res && k < m->res->ninstances; k++) {
    const struct tfr_instance *in = tfr_resolution_instance(m->res, k);
    if (in->dir)
      add_dep(m, &cap, lsp_clean_join(m->dir, in->dir));
  }
  for (size_t k = 0; m->res && k < m->res->nunchecked; k++) {
    const struct tfr_unchecked *u = tfr_resolution_unchecked(m->res, k);
    char *dir =
        u->reason == TFR_UNCHECKED_NO_DIRECTORY ? missing_dir(s, u) : NULL;
    if (dir)
      add_dep(m, &cap, dir);
  }
}

/* Whether m read directory dir (st: its identity, NULL when it does not
** exist): the same directory by any path, or, gone, by its path. */
static bool reads_dir(const struct module *m, const char *dir,
                      const struct stat *st) {
  for (size_t k = 0; k < m->ndeps; k++) {
    const struct dep *d = &m->deps[k];
    if (st && d->exists ? d->dev == st->st_dev && d->ino == st->st_ino
                        : !strcmp(d->path, dir))
      return true;
  }
  return false;
}

/* The open documents of child directories m read by another path than
** theirs (a symbolic link): added to ov by that path too, so that the
** library reads the editor's text. */
static size_t alias_overlays(struct server *s, struct module *m,
                             struct tfr_overlay *ov, size_t nov) {
  for (size_t i = 0; i < s->ndocs; i++) {
    struct doc *d = &s->docs[i];
    char *dir = lsp_dir_of(d->path);
    struct stat st;
    bool there = stat(dir, &st) == 0;
    for (size_t k = 0; there && k < m->ndeps; k++) {
      const struct dep *x = &m->deps[k];
      if (!x->exists || x->dev != st.st_dev || x->ino != st.st_ino ||
          !strcmp(x->path, dir))
        continue;
      const char *base = strrchr(d->path, '/');
      ov[nov++] = (struct tfr_overlay){
          tfr_arena_printf(m->a, "%s%s", x->path, base ? base : d->path),
          d->text, d->len};
    }
    free(dir);
  }
  return nov;
}

/* Whether a var file can be read; else errno. */
static int unreadable(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return errno;
  int err = 0;
  if (fgetc(f) == EOF && ferror(f))
    err = errno ? errno : EIO;
  fclose(f);
  return err;
}

static void resolve_module(struct server *s, struct module *m);

static void free_callers(struct module *m) {
  for (size_t i = 0; i < m->ncallers; i++)
    lsp_free_caller(m->callers[i]);
  free(m->callers);
  m->callers = NULL;
  m->ncallers = 0;
}

/* Whether the tree of an open module other than self loads directory
** dir (by identity: a symbolic link is the same directory). */
static bool loaded_by_open(struct server *s, const struct module *self,
                           const char *dir) {
  struct stat st;
  if (stat(dir, &st))
    return false;
  for (size_t i = 0; i < s->nmods; i++) {
    const struct module *x = &s->mods[i];
    for (size_t k = 0; x != self && x->res && k < x->res->ninstances; k++) {
      const struct tfr_instance *in = tfr_resolution_instance(x->res, k);
      char *child = in->dir ? lsp_clean_join(x->dir, in->dir) : NULL;
      struct stat cs;
      bool same = child && stat(child, &cs) == 0 && cs.st_dev == st.st_dev &&
                  cs.st_ino == st.st_ino;
      free(child);
      if (same)
        return true;
    }
  }
  return false;
}

/* The callers of a module other modules call, when none of them is open:
** up to this many of the workspace's roots that call it. */
#define CALLERS_MAX 4

/* Callers that take less than this to check are checked again on every
** change of the child; others only after a save. */
#define CALLERS_CHEAP_MS 20

/* A called module's callers that its diagnostics tell through (the
** workspace's roots that call it, none of their modules open): found and
** resolved when it is first checked and again after a save or a change
** of the module calls; between, again on a change of the child only
** when they are cheap to check (CALLERS_CHEAP_MS), so that a keystroke in
** the child does not re-check large callers. */
static void refresh_callers(struct server *s, struct module *m) {
  if (m->callers_known && !m->callers_cheap)
    return;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  m->callers_known = true;
  free_callers(m);
  if (!m->called || m->var_file || loaded_by_open(s, m, m->dir))
    return;
  struct cli_names roots = {0};
  lsp_closed_callers(s, m->dir, &roots, CALLERS_MAX);
  m->callers = cli_alloc((roots.n ? roots.n : 1) * sizeof *m->callers);
  for (size_t i = 0; i < roots.n; i++)
    m->callers[m->ncallers++] = lsp_resolve_caller(s, roots.v[i]);
  cli_names_free(&roots);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  m->callers_cheap =
      (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000 <
      CALLERS_CHEAP_MS;
}

static void resolve_module(struct server *s, struct module *m) {
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  if (m->a)
    tfr_arena_free(m->a);
  m->a = tfr_arena_new();
  m->diags = tfr_diags_new(m->a);
  /* the open documents of the module, in place of their files, and with
  ** the module tree those of its child modules (any open document: the
  ** library reads only those of the directories it loads) */
  struct tfr_overlay *ov =
      tfr_arena_alloc(m->a, (s->ndocs * (m->ndeps + 1) + 1) * sizeof *ov);
  size_t nov = 0;
  for (size_t i = 0; i < s->ndocs; i++) {
    char *d = lsp_dir_of(s->docs[i].path);
    if (s->set.modules || !strcmp(d, m->dir) ||
        lsp_same(s->docs[i].path, m->var_file))
      ov[nov++] = (struct tfr_overlay){s->docs[i].path, s->docs[i].text,
                                       s->docs[i].len};
    free(d);
  }
  if (s->set.modules)
    nov = alias_overlays(s, m, ov, nov);
  size_t nargs = 0;
  struct tfr_cli_arg *args =
      tfr_arena_alloc(m->a, (s->set.var_files.n + 2) * sizeof *args);
  m->notes = tfr_arena_alloc(m->a, (s->set.var_files.n + 1) * sizeof *m->notes);
  m->nnotes = 0;
  for (size_t i = 0; i < s->set.var_files.n; i++) {
    const char *f = s->set.var_files.v[i];
    const char *path =
        f[0] == '/' ? f : tfr_arena_printf(m->a, "%s/%s", m->dir, f);
    /* one that cannot be read is said, and the module checked without
    ** it (Terraform would stop at it) */
    int err = lsp_doc_by_path(s, path) ? 0 : unreadable(path);
    if (err) {
      m->notes[m->nnotes++] = (struct note){
          2, tfr_arena_printf(m->a,
                              "Failed to read variables file: %s (the "
                              "varFiles setting) cannot be read: %s (%s). "
                              "The module is checked without it.",
                              f, strerror(err), path)};
      continue;
    }
    args[nargs++] = (struct tfr_cli_arg){.file = true, .value = path};
  }
  if (m->var_file) /* last: the file being edited wins */
    args[nargs++] = (struct tfr_cli_arg){.file = true, .value = m->var_file};
  /* the environment: the server's TF_VAR_ unless the settings give one */
  char **env = environ;
  if (s->set.env.n) {
    env = tfr_arena_alloc(m->a, (s->set.env.n + 1) * sizeof *env);
    for (size_t i = 0; i < s->set.env.n; i++)
      env[i] = s->set.env.v[i];
  }
  struct tfr_resolve_opts o = TFR_RESOLVE_OPTS_INIT;
  o.dir = m->dir;
  o.env = env;
  o.args = args;
  o.nargs = nargs;
  o.opentofu = s->set.opentofu;
  o.strict = s->set.strict;
  o.warn_dropped = true; /* misspelt attributes: warnings at least */
  o.keep_given = true;
  o.tree = s->set.modules;
  o.overlays = ov;
  o.noverlays = nov;
  o.skip_editor_files = true; /* an editor's lock file is no auto file */
  o.undeclared_each = true;   /* each undeclared name at its line */
  /* a module other modules call: its required variables are theirs to
  ** set (a warning the diagnostics leave out) */
  if (!m->called_known) /* once: the walk is not redone on a keystroke */
    m->called = !m->var_file && s->set.modules && called_only(s, m->dir);
  m->called_known = true;
  o.missing_required_info = m->called;
  m->res = tfr_resolve(m->a, m->diags, &o);
  deps_of(s, m);
  m->dirty = false;
  m->stamp = disk_stamp(s, m);
  if (m->caller) /* for what it says of a child: never published */
    return;
  refresh_callers(s, m);
  lsp_publish(s, m);
  if (!s->trace)
    return;
  /* the trace setting: each module resolved, and the time it took */
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
              (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
  lsp_notify("tfresolve/resolved", json_pack("{s:s, s:s?, s:f}", "dir", m->dir,
                                             "varFile", m->var_file, "ms", ms));
}

/* The roots of the workspace (the module calls below the top of dir's
** repository or the workspace) whose tree loads directory dir, and which
** no open document's module is: at most max, in out. */
void lsp_closed_callers(struct server *s, const char *dir,
                        struct cli_names *out, size_t max) {
  if (!s->set.modules || !called_only(s, dir))
    return;
  struct cli_names roots = {0};
  cli_roots_list(s->roots, &roots);
  char *probe = cli_path_join(dir, "variables.tf"); /* a file of dir */
  for (size_t i = 0; i < roots.n && out->n < max; i++) {
    bool open = false;
    for (size_t k = 0; k < s->nmods && !open; k++)
      open = !s->mods[k].var_file && lsp_same(s->mods[k].dir, roots.v[i]);
    if (!open && strcmp(roots.v[i], dir) &&
        cli_roots_uses(s->roots, roots.v[i], probe))
      cli_names_add(out, roots.v[i]);
  }
  free(probe);
  cli_names_free(&roots);
}

/* Module dir resolved as a caller of a child module opened alone (a root
** with no open document): like the open ones, with the open documents in
** place of their files, never published; lsp_free_caller frees it. */
struct module *lsp_resolve_caller(struct server *s, const char *dir) {
  struct module *m = cli_alloc(sizeof *m);
  memset(m, 0, sizeof *m);
  m->dir = cli_strdup(dir);
  m->caller = true;
  m->called_known = true;
  resolve_module(s, m);
  return m;
}

void lsp_free_caller(struct module *m) {
  free(m->dir);
  free_deps(m);
  if (m->a)
    tfr_arena_free(m->a);
  free(m);
}

void lsp_resolve_dirty(struct server *s) {
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  lsp_check_disk(s, false);
  drop_closed(s);
  bool any = false;
  for (size_t i = 0; i < s->nmods; i++) {
    struct module *m = &s->mods[i];
    if (m->dirty) {
      resolve_module(s, m);
      any = true;
    }
  }
  if (!any)
    return;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  long ms =
      (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
  s->debounce_ms = ms < 1                 ? 1
                   : ms > DEBOUNCE_MAX_MS ? DEBOUNCE_MAX_MS
                                          : (int)ms;
}

/* The module of a document, resolved if it is not yet. */
struct module *lsp_fresh_module(struct server *s, const struct doc *d) {
  struct module *m = lsp_module_for_doc(s, d);
  if (m->dirty || !m->res)
    resolve_module(s, m);
  return m;
}

const struct tfr_variable *lsp_variable(const struct module *m,
                                        const char *name) {
  return tfr_resolution_find(m->res, name);
}

/* A change to path: the module of its document, and every module whose
** resolution reads it (its own directory, its variables file, a child
** module's directory of its tree), resolve again. */
static void mark_dirty(struct server *s, const char *path) {
  struct doc *d = lsp_doc_by_path(s, path);
  if (d)
    lsp_module_for_doc(s, d)->dirty = true;
  char *dir = lsp_dir_of(path);
  struct stat st;
  bool there = stat(dir, &st) == 0;
  for (size_t i = 0; i < s->nmods; i++) {
    struct module *m = &s->mods[i];
    if (!strcmp(m->dir, dir) || lsp_same(m->var_file, path) ||
        reads_dir(m, dir, there ? &st : NULL))
      m->dirty = true;
    for (size_t k = 0; !m->dirty && k < s->set.var_files.n; k++) {
      char *f = lsp_clean_join(m->dir, s->set.var_files.v[k]);
      m->dirty = !strcmp(f, path);
      free(f);
    }
  }
  free(dir);
}

json_t *lsp_did_open(struct server *s, struct doc *d, json_t *p) {
  json_t *td = json_object_get(p, "textDocument");
  const char *uri = json_string_value(json_object_get(td, "uri"));
  const char *text = json_string_value(json_object_get(td, "text"));
  char *path = uri ? lsp_uri_path(uri) : NULL;
  if (!path || !text) {
    free(path);
    return NULL;
  }
  d = lsp_find_doc(s, uri);
  if (!d) {
    if (s->ndocs == s->capdocs) {
      s->capdocs = s->capdocs ? 2 * s->capdocs : 8;
      s->docs = cli_realloc(s->docs, s->capdocs * sizeof *s->docs);
    }
    d = &s->docs[s->ndocs++];
    d->uri = cli_strdup(uri);
    d->path = path;
    const char *vf;
    d->mod_dir = module_dir_for(path, &vf);
    d->var_file = vf != NULL;
  } else {
    free(d->text);
    free(path);
  }
  d->len = json_string_length(json_object_get(td, "text"));
  d->text = cli_alloc(d->len + 1);
  memcpy(d->text, text, d->len + 1);
  d->version = (int)json_integer_value(json_object_get(td, "version"));
  lsp_forget_sent(s, d->uri); /* its diagnostics are sent, even the same */
  mark_dirty(s, d->path);
  return NULL;
}

/* Full sync, and incremental ranges applied in order. */
json_t *lsp_did_change(struct server *s, struct doc *d, json_t *p) {
  json_t *td = json_object_get(p, "textDocument");
  size_t i;
  json_t *ch;
  json_array_foreach(json_object_get(p, "contentChanges"), i, ch) {
    json_t *t = json_object_get(ch, "text");
    if (!json_is_string(t))
      continue;
    json_t *r = json_object_get(ch, "range");
    size_t a = 0, b = d->len;
    if (json_is_object(r)) {
      json_t *st = json_object_get(r, "start"), *en = json_object_get(r, "end");
      a = lsp_byte_of(
          d->text, d->len, (int)json_integer_value(json_object_get(st, "line")),
          (int)json_integer_value(json_object_get(st, "character")));
      b = lsp_byte_of(
          d->text, d->len, (int)json_integer_value(json_object_get(en, "line")),
          (int)json_integer_value(json_object_get(en, "character")));
      if (b < a)
        b = a;
    }
    size_t tn = json_string_length(t), n = d->len - (b - a) + tn;
    char *nt = cli_alloc(n + 1);
    memcpy(nt, d->text, a);
    memcpy(nt + a, json_string_value(t), tn);
    memcpy(nt + a + tn, d->text + b, d->len - b);
    nt[n] = '\0';
    free(d->text);
    d->text = nt;
    d->len = n;
  }
  d->version = (int)json_integer_value(json_object_get(td, "version"));
  mark_dirty(s, d->path);
  return NULL;
}

json_t *lsp_did_close(struct server *s, struct doc *d, json_t *p) {
  (void)p;
  mark_dirty(s, d->path); /* the file on disk counts again */
  free(d->uri);
  free(d->path);
  free(d->text);
  free(d->mod_dir);
  *d = s->docs[--s->ndocs];
  return NULL;
}

/* A file the client saved, or changed on disk (its watcher): the modules
** that read it resolve again. */
static void file_changed(struct server *s, const char *uri) {
  char *path = uri ? lsp_uri_path(uri) : NULL;
  for (size_t i = 0; i < s->nmods; i++) /* callers re-checked */
    s->mods[i].callers_known = false;
  if (path && lsp_config_file(path))
    lsp_forget_roots(s); /* a module call may have come or gone */
  if (path)
    mark_dirty(s, path);
  free(path);
  rehome_docs(s);
}

json_t *lsp_did_save(struct server *s, struct doc *d, json_t *p) {
  (void)d;
  /* the text was had already, but what is on disk now may differ */
  file_changed(s, json_string_value(json_object_get(
                      json_object_get(p, "textDocument"), "uri")));
  return NULL;
}

json_t *lsp_watched_files(struct server *s, struct doc *d, json_t *p) {
  (void)d;
  size_t i;
  json_t *c;
  json_array_foreach(json_object_get(p, "changes"), i, c)
      file_changed(s, json_string_value(json_object_get(c, "uri")));
  return NULL;
}

void lsp_free_docs(struct server *s) {
  for (size_t i = 0; i < s->ndocs; i++) {
    free(s->docs[i].uri);
    free(s->docs[i].path);
    free(s->docs[i].mod_dir);
    free(s->docs[i].text);
  }
  free(s->docs);
  for (size_t i = 0; i < s->nmods; i++) {
    free(s->mods[i].dir);
    free(s->mods[i].var_file);
    free_deps(&s->mods[i]);
    free_callers(&s->mods[i]);
    if (s->mods[i].a)
      tfr_arena_free(s->mods[i].a);
    for (size_t k = 0; k < s->mods[i].npub; k++) {
      free(s->mods[i].pub[k].uri);
      json_decref(s->mods[i].pub[k].list);
    }
    free(s->mods[i].pub);
  }
  free(s->mods);
  s->mods = NULL;
  s->nmods = 0;
  lsp_forget_roots(s);
  free(s->root_dir);
}
