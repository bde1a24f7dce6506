/*
** The module cache: each module directory of the trees loaded once, by
** whichever thread asks first, in an arena of its own; later trees share
** it (a module is read-only once loaded: module_load's shared mode keeps
** nothing lazy) and get a copy of its load diagnostics.
*/
#define _POSIX_C_SOURCE 200809L
#include "modcache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "arena_int.h"
#include "diag_int.h"
#include "tfresolve/tfresolve.h"
#include "validate.h"

struct entry {
  char *dir;
  bool opentofu;
  tfr_arena *a; /* the module's, and its diagnostics' */
  struct module *m;
  tfr_diags *diags;
};

struct tfr_cache {
  pthread_mutex_t mu;
  struct entry **v; /* entries never move once made */
  size_t n, cap;
};

struct tfr_cache *tfr_cache_new(void) {
  struct tfr_cache *c = calloc(1, sizeof *c);
  if (!c)
    tfr_oom();
  pthread_mutex_init(&c->mu, NULL);
  return c;
}

void tfr_cache_free(struct tfr_cache *c) {
  if (!c)
    return;
  for (size_t i = 0; i < c->n; i++) {
    tfr_arena_free(c->v[i]->a);
    free(c->v[i]->dir);
    free(c->v[i]);
  }
  free(c->v);
  pthread_mutex_destroy(&c->mu);
  free(c);
}

/* dir loaded, its diagnostics in diags: the loader's, validate_static's
** and those of its module and output blocks. */
static struct module *load(tfr_arena *a, tfr_diags *diags, const char *dir,
                           bool opentofu, bool shared) {
  struct module *m = module_load(a, diags, dir, opentofu, shared);
  validate_static(m, a, diags);
  if (m->tree_diags)
    diags_append(diags, m->tree_diags);
  return m;
}

/* The entry of dir, or NULL; with c->mu held. */
static const struct entry *find(const struct tfr_cache *c, const char *dir,
                                bool opentofu) {
  for (size_t i = 0; i < c->n; i++)
    if (c->v[i]->opentofu == opentofu && !strcmp(c->v[i]->dir, dir))
      return c->v[i];
  return NULL;
}

/* The entry of dir, loaded by this thread if no other has: outside the
** lock, so that threads load different modules at once; when two race
** for one, the first to insert wins and the other's is freed. */
static const struct entry *entry_of(struct tfr_cache *c, const char *dir,
                                    bool opentofu) {
  pthread_mutex_lock(&c->mu);
  const struct entry *e = find(c, dir, opentofu);
  pthread_mutex_unlock(&c->mu);
  if (e)
    return e;
  struct entry *n = malloc(sizeof *n);
  if (!n || !(n->dir = strdup(dir)))
    tfr_oom();
  n->opentofu = opentofu;
  n->a = tfr_arena_new();
  n->diags = tfr_diags_new(n->a);
  n->m = load(n->a, n->diags, dir, opentofu, true);
  pthread_mutex_lock(&c->mu);
  e = find(c, dir, opentofu);
  if (!e) {
    if (c->n == c->cap) {
      c->cap = c->cap ? 2 * c->cap : 16;
      c->v = realloc(c->v, c->cap * sizeof *c->v);
      if (!c->v)
        tfr_oom();
    }
    c->v[c->n++] = n;
    e = n;
    n = NULL;
  }
  pthread_mutex_unlock(&c->mu);
  if (n) {
    tfr_arena_free(n->a);
    free(n->dir);
    free(n);
  }
  return e;
}

struct module *modcache_load(struct tfr_cache *c, tfr_arena *a,
                             tfr_diags *diags, const char *dir, bool opentofu) {
  if (!c)
    return load(a, diags, dir, opentofu, false);
  const struct entry *e = entry_of(c, dir, opentofu);
  struct module *m = tfr_arena_alloc(a, sizeof *m);
  *m = *e->m; /* the caller's copy: its address is the tree's */
  diags_append(diags, e->diags);
  return m;
}
