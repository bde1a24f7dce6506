/*
** terragrunt.stack.hcl read without `terragrunt stack generate`: each
** unit block names a directory terragrunt would make (its path below the
** stack's .terragrunt-stack, or beside the stack file with
** no_dot_terragrunt_stack) by copying its source there and writing its
** values as terragrunt.values.hcl.  Here nothing is written: the
** generated directory is a name for its source (struct tg_virt), and the
** unit is read at its generated place -- get_terragrunt_dir(),
** find_in_parent_folders() and relative paths see that place, as they do
** once terragrunt has generated it -- with its values.  Stack blocks nest
** the same way.  Facts from terragrunt's pkg/config/stack.go (commit
** 286a33cb) and internal/hclparse/stack.go.
*/
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "terragrunt/tg_int.h"
#include "tfresolve/terragrunt.h"

const char *tg_real(const struct tg_run *r, const char *abs) {
  const struct tg_virt *m = NULL;
  size_t best = 0;
  for (size_t i = 0; i < r->nvirt; i++) {
    size_t n = strlen(r->virt[i].virt);
    if (n > best && !strncmp(abs, r->virt[i].virt, n) &&
        (abs[n] == 0 || abs[n] == '/'))
      m = &r->virt[i], best = n;
  }
  return m ? tfr_arena_printf(r->a, "%s%s", m->real, abs + best) : abs;
}

bool tg_exists(const struct tg_run *r, const char *abs) {
  struct stat st;
  return stat(tg_real(r, abs), &st) == 0;
}

static bool is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* An error of ours about a stack file's block. */
static void comp_error(struct tg_run *r, const struct tfr_range *at,
                       const char *summary, const char *detail) {
  tfr_diags_add(r->d, TFR_DIAG_ERROR, at, summary, detail);
  tfr_diags_set_ours(r->d);
}

/* Where a block generates to (GeneratedComponentPath, hclparse/stack.go:
** 115-121; resolveDestPath, stack.go:628-656): below the stack's
** .terragrunt-stack, or beside the stack file with
** no_dot_terragrunt_stack; NULL after an error. */
static const char *dest_of(struct tg_run *r, const char *stack_dir,
                           const struct tg_comp *c) {
  if (c->path[0] == '/') {
    comp_error(r, &c->path_at, "Invalid path",
               tfr_arena_printf(r->a, "path %s must be relative", c->path));
    return NULL;
  }
  const char *base =
      c->no_stack ? stack_dir
                  : tfr_arena_printf(r->a, "%s/.terragrunt-stack", stack_dir);
  const char *dest = tg_join(r->a, base, c->path);
  size_t n = strlen(base);
  if (strncmp(dest, base, n) || (dest[n] && dest[n] != '/')) {
    comp_error(r, &c->path_at, "Invalid path",
               tfr_arena_printf(r->a,
                                "%s destination path '%s' is outside of the "
                                "stack directory '%s'",
                                c->name, dest, base));
    return NULL;
  }
  return dest;
}

/* The directory a block's source copies from (copyFiles, stack.go:
** 1014-1060: a path that exists, relative to the stack file's directory);
** NULL after an error: a remote source is fetched only by terragrunt. */
static const char *source_of(struct tg_run *r, const char *stack_dir,
                             const struct tg_comp *c) {
  const char *s = c->source;
  if (!strncmp(s, "file://", 7))
    s += 7;
  const char *p = tg_real(r, tg_join(r->a, stack_dir, s));
  if (is_dir(p))
    return p;
  bool remote = strstr(c->source, "::") || strstr(c->source, "://");
  comp_error(
      r, &c->source_at, "Source not read",
      tfr_arena_printf(r->a,
                       "The source \"%s\" of %s \"%s\" is %s: terragrunt "
                       "fetches such a source when it generates the stack, "
                       "which is not done offline. Run \"terragrunt stack "
                       "generate\" and check the generated units.",
                       c->source, c->stack ? "stack" : "unit", c->name,
                       remote ? "remote"
                              : tfr_arena_printf(r->a,
                                                 "not a directory on this "
                                                 "machine (%s)",
                                                 tg_show_path(r, p))));
  return NULL;
}

/* Adds a generated directory; false (an error) past the limit. */
static bool add_virt(struct tg_run *r, const struct tg_comp *c,
                     const char *dest, const char *real) {
  if (r->nvirt == sizeof r->virt / sizeof *r->virt) {
    comp_error(r, &c->at, "Stacks nested too deeply",
               "More than 16 stack levels: this reader stops here.");
    return false;
  }
  r->virt[r->nvirt++] = (struct tg_virt){dest, real, c->values};
  return true;
}

/* The values.* of a generated directory: its block's values, else the
** terragrunt.values.hcl copied with its source (stack.go:1888-1910 writes
** only known, non-null ones). */
static const tfr_value *values_of(struct tg_run *r, const char *dir) {
  for (size_t i = r->nvirt; i-- > 0;)
    if (!strcmp(r->virt[i].virt, dir) && r->virt[i].values)
      return r->virt[i].values;
  return tg_read_values(r, tg_real(r, dir));
}

/* The stack file of dir (absolute, maybe generated), or NULL. */
static const char *stack_file(struct tg_run *r, const char *dir) {
  const char *p =
      tfr_arena_printf(r->a, "%s/terragrunt.stack.hcl", tg_real(r, dir));
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode) ? p : NULL;
}

/* strings.TrimSpace(s) == "" */
static bool blank(const char *s) {
  while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\v' ||
         *s == '\f')
    s++;
  return !*s;
}

/* One kind's blocks (validateUnits, validateStacks:
** stack_validation.go:140-225): a source and a path, names and paths
** once each; true when valid. */
static bool valid_kind(struct tg_run *r, const struct tg_comp *c, size_t n,
                       bool stack) {
  const char *what = stack ? "stack" : "unit";
  size_t before = tfr_diags_count(r->d);
  for (size_t i = 0; i < n; i++) {
    if (c[i].stack != stack)
      continue;
    if (blank(c[i].source))
      comp_error(
          r, &c[i].source_at, "Invalid stack file",
          tfr_arena_printf(r->a, "%s '%s' has empty source", what, c[i].name));
    if (blank(c[i].path))
      comp_error(
          r, &c[i].path_at, "Invalid stack file",
          tfr_arena_printf(r->a, "%s '%s' has empty path", what, c[i].name));
    bool name = false, path = false;
    for (size_t j = 0; j < i; j++) {
      if (c[j].stack != stack)
        continue;
      name = name || !strcmp(c[j].name, c[i].name);
      path = path || (!blank(c[i].path) && !strcmp(c[j].path, c[i].path));
    }
    if (name)
      comp_error(r, &c[i].at, "Invalid stack file",
                 tfr_arena_printf(r->a, "duplicate %s name found: '%s'", what,
                                  c[i].name));
    if (path)
      comp_error(r, &c[i].path_at, "Invalid stack file",
                 tfr_arena_printf(r->a, "duplicate %s path found: '%s'", what,
                                  c[i].path));
  }
  return tfr_diags_count(r->d) == before;
}

/* ValidateStackConfig (stack_validation.go:26-100): each kind, then a
** stack generating where a unit does. */
static bool valid_stack(struct tg_run *r, const char *dir,
                        const struct tg_comp *c, size_t n) {
  bool ok = valid_kind(r, c, n, false);
  ok = valid_kind(r, c, n, true) && ok;
  for (size_t i = 0; i < n; i++) {
    if (!c[i].stack || blank(c[i].path))
      continue;
    const char *gen = dest_of(r, dir, &c[i]);
    for (size_t j = 0; gen && j < n; j++) {
      const char *u =
          c[j].stack || blank(c[j].path) ? NULL : dest_of(r, dir, &c[j]);
      if (u && !strcmp(u, gen)) {
        comp_error(r, &c[i].path_at, "Invalid stack file",
                   tfr_arena_printf(r->a,
                                    "duplicate path found across unit and "
                                    "stack: '%s'",
                                    tg_show_path(r, gen)));
        return false;
      }
    }
  }
  return ok;
}

/* The enabled blocks of dir's stack file, once it is valid; (size_t)-1
** after an error. */
static size_t comps_of(struct tg_run *r, const char *dir, struct tg_comp **c) {
  size_t n =
      tg_read_stack(r, tfr_arena_printf(r->a, "%s/terragrunt.stack.hcl", dir),
                    stack_file(r, dir), values_of(r, dir), c);
  if (n == (size_t)-1 || !valid_stack(r, dir, *c, n))
    return (size_t)-1;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) /* generateUnits skips the disabled */
    if ((*c)[i].enabled)
      (*c)[k++] = (*c)[i];
  return k;
}

/* One step: the block of the nearest stack file above dir whose
** generated directory holds dir, added to r->virt.  1: added; 0: none;
** -1: an error. */
static int step(struct tg_run *r, const char *dir, const char **seen) {
  for (const char *a = tg_dirname(r->a, dir);; a = tg_dirname(r->a, a)) {
    if (stack_file(r, a)) {
      if (!*seen)
        *seen = tfr_arena_printf(r->a, "%s/terragrunt.stack.hcl", a);
      struct tg_comp *c;
      size_t n = comps_of(r, a, &c);
      if (n == (size_t)-1)
        return -1;
      for (size_t i = 0; i < n; i++) {
        const char *dest = dest_of(r, a, &c[i]);
        if (!dest)
          return -1;
        size_t k = strlen(dest), v = 0;
        if (strncmp(dir, dest, k) || (dir[k] && dir[k] != '/'))
          continue;
        while (v < r->nvirt && strcmp(r->virt[v].virt, dest))
          v++;
        if (v < r->nvirt) /* read already: a nearer stack lacks dir */
          return 0;
        const char *src = source_of(r, a, &c[i]);
        return src && add_virt(r, &c[i], dest, src) ? 1 : -1;
      }
    }
    if (!strcmp(a, "/"))
      return 0;
  }
}

bool tg_stack_unit(struct tg_run *r, const char *dir) {
  while (!is_dir(tg_real(r, dir))) {
    const char *seen = NULL;
    int s = step(r, dir, &seen);
    if (s == 0 && seen) { /* below a stack, but none of its blocks' */
      tfr_diags_add(r->d, TFR_DIAG_ERROR, NULL, "No such unit",
                    tfr_arena_printf(r->a,
                                     "%s does not exist, and no unit or "
                                     "stack block of %s generates it.",
                                     tg_show_path(r, dir),
                                     tg_show_path(r, tg_real(r, seen))));
      tfr_diags_set_ours(r->d);
    }
    if (s <= 0)
      return false;
  }
  if (!r->nvirt)
    return false;
  r->values = values_of(r, dir);
  return true;
}

static void add_unit(struct tg_run *r, const char *path, const char ***out,
                     size_t *n, size_t *cap) {
  if (*n + 1 >= *cap) {
    *cap = *cap * 2 + 8;
    const char **v = tfr_arena_alloc(r->a, *cap * sizeof *v);
    if (*n)
      memcpy(v, *out, *n * sizeof *v);
    *out = v;
  }
  (*out)[(*n)++] = tg_show_path(r, path);
}

/* The units below a generated directory without a terragrunt.hcl of its
** own (no_validation, no_dot_terragrunt_stack): those terragrunt's
** discovery finds there, hidden directories skipped. */
static int by_name(const void *x, const void *y) {
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static void deeper_units(struct tg_run *r, const char *dest, int depth,
                         const char ***out, size_t *n, size_t *cap) {
  DIR *d = depth < 16 ? opendir(tg_real(r, dest)) : NULL;
  const char **names = NULL;
  size_t k = 0, room = 0;
  struct dirent *e;
  while (d && (e = readdir(d))) {
    if (e->d_name[0] == '.')
      continue;
    if (k == room) {
      room = room * 2 + 8;
      const char **v = tfr_arena_alloc(r->a, room * sizeof *v);
      if (k)
        memcpy(v, names, k * sizeof *v);
      names = v;
    }
    names[k++] = tfr_arena_strdup(r->a, e->d_name);
  }
  if (d)
    closedir(d);
  if (k) /* in byte order, as the walk of check -recursive */
    qsort(names, k, sizeof *names, by_name);
  for (size_t i = 0; i < k; i++) {
    const char *sub = tfr_arena_printf(r->a, "%s/%s", dest, names[i]);
    if (!is_dir(tg_real(r, sub)))
      continue;
    if (tg_exists(r, tfr_arena_printf(r->a, "%s/terragrunt.hcl", sub)) ||
        tg_exists(r, tfr_arena_printf(r->a, "%s/terragrunt.hcl.json", sub)))
      add_unit(r, sub, out, n, cap);
    deeper_units(r, sub, depth + 1, out, n, cap);
  }
}

/* validateGeneratedComponent (stack.go:658-713): the generated directory
** holds terragrunt.hcl (a stack's: terragrunt.stack.hcl), unless
** no_dot_terragrunt_stack or no_validation; false after its error. */
static bool generated_ok(struct tg_run *r, const char *dir,
                         const struct tg_comp *c, const char *dest) {
  const char *file = c->stack ? "terragrunt.stack.hcl" : "terragrunt.hcl";
  if (c->no_stack || c->no_validation ||
      tg_exists(r, tfr_arena_printf(r->a, "%s/%s", dest, file)))
    return true;
  const char *kind = c->stack ? "stack" : "unit";
  comp_error(
      r, &c->at, "Invalid stack file",
      tfr_arena_printf(
          r->a,
          "validation failed for %s %s at path %s: "
          "expected %s to generate with %s file at root "
          "of generated directory",
          kind, c->name,
          tg_show_path(r, tfr_arena_printf(r->a, "%s/.terragrunt-stack", dir)),
          kind, file));
  return false;
}

/* The units of the stack at dir, nested stacks' too, into *out. */
static bool list_units(struct tg_run *r, const char *dir, const char ***out,
                       size_t *n, size_t *cap) {
  struct tg_comp *c;
  size_t nc = comps_of(r, dir, &c);
  if (nc == (size_t)-1)
    return false;
  for (size_t i = 0; i < nc; i++) {
    const char *dest = dest_of(r, dir, &c[i]);
    if (!dest)
      return false;
    /* generated already: what is there (its own terragrunt.values.hcl);
    ** else its source, to be read at dest */
    if (!is_dir(tg_real(r, dest))) {
      const char *src = source_of(r, dir, &c[i]);
      if (!src || !add_virt(r, &c[i], dest, src))
        return false;
    }
    if (!generated_ok(r, dir, &c[i], dest))
      return false;
    if (c[i].stack) {
      if (stack_file(r, dest) && !list_units(r, dest, out, n, cap))
        return false;
    } else if (tg_exists(r,
                         tfr_arena_printf(r->a, "%s/terragrunt.hcl", dest)) ||
               tg_exists(
                   r, tfr_arena_printf(r->a, "%s/terragrunt.hcl.json", dest))) {
      add_unit(r, dest, out, n, cap);
    } else {
      deeper_units(r, dest, 0, out, n, cap);
    }
  }
  return true;
}

const char *const *tfr_stack_units(tfr_arena *a, tfr_diags *diags,
                                   const char *dir, char *const *env,
                                   size_t *n) {
  char buf[4096];
  struct tg_run *r = tfr_arena_alloc(a, sizeof *r);
  r->a = a;
  r->d = diags;
  r->env = env;
  r->command = "plan";
  r->cwd = tfr_arena_strdup(a, getcwd(buf, sizeof buf) ? buf : "/");
  r->unit =
      tg_join(a, tg_join(a, r->cwd, dir ? dir : "."), "terragrunt.stack.hcl");
  const char **out = NULL;
  size_t cap = 0;
  *n = 0;
  if (!list_units(r, tg_dirname(a, r->unit), &out, n, &cap))
    return NULL;
  if (!out)
    out = tfr_arena_alloc(a, sizeof *out);
  out[*n] = NULL;
  return out;
}
