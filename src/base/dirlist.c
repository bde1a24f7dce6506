/*
** Listing a directory (see dirlist.h).
*/
#include "base/dirlist.h"
#include "base/heap.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/arena_int.h"

const struct overlay *dir_overlay(const struct overlays *ov, const char *path) {
  for (size_t i = ov ? ov->n : 0; i-- > 0;)
    if (ov->v[i].path && !strcmp(ov->v[i].path, path))
      return &ov->v[i];
  return NULL;
}

/* The name of an overlay's file if it is in dir, else NULL. */
static const char *overlay_in(const struct overlay *o, const char *dir) {
  const char *slash = strrchr(o->path, '/');
  if (!slash)
    return !strcmp(dir, ".") ? o->path : NULL;
  size_t n = (size_t)(slash - o->path);
  return strlen(dir) == n && !strncmp(o->path, dir, n) && slash[1] ? slash + 1
                                                                   : NULL;
}

static int by_name(const void *x, const void *y) {
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The names found so far (malloc'd array of arena strings). */
struct names {
  const char **v;
  size_t n, cap;
};

static void push(tfr_arena *a, struct names *l, const char *name) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 16;
    const char **w = heap_realloc(l->v, l->cap * sizeof *w);
    l->v = w;
  }
  l->v[l->n++] = tfr_arena_strdup(a, name);
}

const char **dir_list(tfr_arena *a, const char *dir, dir_keep_fn keep,
                      void *ctx, const struct overlays *ov, size_t *n) {
  *n = 0;
  DIR *d = opendir(dir);
  if (!d)
    return NULL;
  struct names l = {0};
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
      continue;
    if (!keep || keep(dir, e->d_name, ctx))
      push(a, &l, e->d_name);
  }
  closedir(d);
  for (size_t i = 0; ov && i < ov->n; i++) { /* open, maybe not saved yet */
    const char *name = ov->v[i].path ? overlay_in(&ov->v[i], dir) : NULL;
    bool listed = false;
    for (size_t k = 0; name && k < l.n && !listed; k++)
      listed = !strcmp(l.v[k], name);
    if (name && !listed && (!keep || keep(dir, name, ctx)))
      push(a, &l, name);
  }
  if (l.n > 1)
    qsort(l.v, l.n, sizeof *l.v, by_name);
  const char **out = tfr_arena_alloc(a, (l.n ? l.n : 1) * sizeof *out);
  if (l.n)
    memcpy(out, l.v, l.n * sizeof *out);
  free(l.v);
  *n = l.n;
  return out;
}

enum dir_entry_kind dir_entry_kind(const char *dir, const char *name) {
  size_t nd = strlen(dir), nn = strlen(name);
  char *path = heap_alloc(nd + nn + 2);
  memcpy(path, dir, nd);
  path[nd] = '/';
  memcpy(path + nd + 1, name, nn + 1);
  struct stat st;
  enum dir_entry_kind k = stat(path, &st) != 0  ? DIR_ENTRY_UNKNOWN
                          : S_ISDIR(st.st_mode) ? DIR_ENTRY_DIR
                                                : DIR_ENTRY_OTHER;
  free(path);
  return k;
}

bool dir_keep_files(const char *dir, const char *name, void *ctx) {
  (void)ctx;
  /* what cannot be looked at stays: reading it says why */
  return dir_entry_kind(dir, name) != DIR_ENTRY_DIR;
}
