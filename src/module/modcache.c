/*
** The module cache: each module directory of the trees loaded once, by
** whichever thread asks first, in an arena of its own; later trees share
** it (a module is read-only once loaded: module_load's shared mode keeps
** nothing lazy) and get a copy of its load diagnostics.
*/
#include "module/modcache.h"
#include "base/heap.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena_int.h"
#include "base/diag_int.h"
#include "base/strutil.h"
#include "tfresolve/tfresolve.h"
#include "module/validate.h"

struct entry {
  char *dir;
  bool opentofu;
  bool ready;   /* loaded (else a thread is loading it) */
  tfr_arena *a; /* the module's, and its diagnostics' */
  struct module *m;
  tfr_diags *diags;
};

struct tfr_cache {
  pthread_mutex_t mu;
  pthread_cond_t loaded; /* an entry became ready */
  struct entry **v;      /* entries never move once made */
  size_t n, cap;
};

struct tfr_cache *tfr_cache_new(void) {
  struct tfr_cache *c = heap_calloc(1, sizeof *c);
  pthread_mutex_init(&c->mu, NULL);
  pthread_cond_init(&c->loaded, NULL);
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
  pthread_cond_destroy(&c->loaded);
  pthread_mutex_destroy(&c->mu);
  free(c);
}

/* dir loaded, its diagnostics in diags: the loader's and
** validate_static's (those of its module and output blocks stay in
** m->tree_diags: the tree reports them). */
static struct module *load(tfr_arena *a, tfr_diags *diags, const char *dir,
                           bool opentofu, bool shared,
                           const struct overlays *ov) {
  struct module *m = module_load(a, diags, dir, opentofu, shared, ov);
  validate_static(m, a, diags);
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

/* The entry of dir, loaded by the first thread that asks (outside the
** lock, so that threads load different modules at once); a thread that
** asks for one being loaded waits for it rather than read it again. */
static const struct entry *entry_of(struct tfr_cache *c, const char *dir,
                                    bool opentofu, const struct overlays *ov,
                                    size_t *fresh) {
  pthread_mutex_lock(&c->mu);
  struct entry *e = UNCONST(struct entry *, find(c, dir, opentofu));
  if (e) {
    while (!e->ready)
      pthread_cond_wait(&c->loaded, &c->mu);
    pthread_mutex_unlock(&c->mu);
    return e;
  }
  e = heap_calloc(1, sizeof *e);
  e->dir = heap_strdup(dir);
  e->opentofu = opentofu;
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 16;
    c->v = heap_realloc(c->v, c->cap * sizeof *c->v);
  }
  c->v[c->n++] = e;
  pthread_mutex_unlock(&c->mu);
  e->a = tfr_arena_new();
  e->diags = tfr_diags_new(e->a);
  e->m = load(e->a, e->diags, dir, opentofu, true, ov);
  *fresh = tfr_arena_used(e->a) + arena_mapped(e->a); /* its files too */
  pthread_mutex_lock(&c->mu);
  e->ready = true;
  pthread_cond_broadcast(&c->loaded);
  pthread_mutex_unlock(&c->mu);
  return e;
}

struct module *modcache_load(struct tfr_cache *c, tfr_arena *a,
                             tfr_diags *diags, const char *dir, bool opentofu,
                             const struct overlays *ov) {
  size_t fresh;
  const struct module *shared =
      modcache_load_counted(c, a, diags, dir, opentofu, ov, &fresh);
  struct module *m = tfr_arena_alloc(a, sizeof *m);
  *m = *shared; /* the caller's copy: its address is the tree's */
  return m;
}

const struct module *modcache_load_counted(struct tfr_cache *c, tfr_arena *a,
                                           tfr_diags *diags, const char *dir,
                                           bool opentofu,
                                           const struct overlays *ov,
                                           size_t *fresh) {
  *fresh = 0;
  if (!c)
    return load(a, diags, dir, opentofu, false, ov);
  const struct entry *e = entry_of(c, dir, opentofu, ov, fresh);
  diags_append(diags, e->diags);
  return e->m;
}
