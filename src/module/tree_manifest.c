/*
** The manifest of installed modules and version constraints.
*/
#include "module/tree_int.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "syntax/parse.h"

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
void tree_load_manifest(struct tree *t) {
  const char *dd = tree_env_get(t, "TF_DATA_DIR");
  t->data_dir = dd && *dd ? dd : ".terraform";
  t->data_path = tree_path_join(t->a, t->root->dir, t->data_dir);
  const char *rel =
      tfr_arena_printf(t->a, "%s/modules/modules.json", t->data_dir);
  const char *path = tree_path_join(t->a, t->root->dir, rel);
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

const struct manifest_rec *tree_manifest_find(const struct tree *t,
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
bool tree_version_ok(const char *constraint, const char *version) {
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
