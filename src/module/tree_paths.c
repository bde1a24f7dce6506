/*
** Paths as Terraform cleans and joins them, the tree's budget.
*/
#include "module/tree_int.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "base/arena_int.h"
#include "base/diag_int.h"

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
const char *tree_path_join(tfr_arena *a, const char *base, const char *rel) {
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

bool tree_is_dir(const char *path, struct stat *st) {
  return stat(path, st) == 0 && S_ISDIR(st->st_mode);
}

const char *tree_env_get(const struct tree *t, const char *name) {
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
bool tree_over_budget(struct tree *t, struct src_file *src, struct span at,
                      const char *addr, const char *what, const char *arg) {
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
