/*
** From a child module instance's variable back to the root: the root
** variable its argument reads, and where that value can be fixed (the
** CI reports and the language server point there); whether a directory
** can be a module directory; an unreadable var file among diagnostics.
*/
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_module.h"
#include "cli_util.h"

const struct tfr_variable *cli_child_var(const struct tfr_resolution *res,
                                         const struct tfr_diag *g,
                                         const struct tfr_instance **in) {
  for (size_t i = 0; g->variable && g->module && res && i < res->ninstances;
       i++) {
    const struct tfr_instance *x = tfr_resolution_instance(res, i);
    if (strcmp(x->address, g->module))
      continue;
    for (size_t k = 0; k < x->n; k++)
      if (!strcmp(tfr_instance_variable(x, k)->name, g->variable)) {
        *in = x;
        return tfr_instance_variable(x, k);
      }
  }
  return NULL;
}

static const struct tfr_range *fix_at(const struct tfr_resolution *res,
                                      const struct tfr_instance *in,
                                      const struct tfr_variable *v, int depth) {
  if (v->nreads != 1 || depth > 32)
    return NULL;
  if (!*in->parent) {
    const struct tfr_variable *rv = NULL;
    for (size_t i = 0; !rv && i < res->n; i++)
      if (!strcmp(tfr_resolution_variable(res, i)->name, v->reads[0]))
        rv = tfr_resolution_variable(res, i);
    return rv && rv->value_range.filename ? &rv->value_range : NULL;
  }
  for (size_t i = 0; i < res->ninstances; i++) {
    const struct tfr_instance *p = tfr_resolution_instance(res, i);
    if (strcmp(p->address, in->parent))
      continue;
    for (size_t k = 0; k < p->n; k++)
      if (!strcmp(tfr_instance_variable(p, k)->name, v->reads[0]))
        return fix_at(res, p, tfr_instance_variable(p, k), depth + 1);
  }
  return NULL;
}

const struct tfr_range *cli_fix_range(const struct tfr_resolution *res,
                                      const struct tfr_instance *in,
                                      const struct tfr_variable *v) {
  return res && in && v ? fix_at(res, in, v, 0) : NULL;
}

/* Whether dir can be a module directory: it exists, is a directory and
** can be listed; else a message and false (a usage error, as Terraform
** fails on such an argument before it looks at any file). */
bool cli_module_dir_ok(const char *cmd, const char *dir) {
  struct stat st;
  const char *why = NULL;
  if (stat(dir, &st) != 0)
    why = strerror(errno);
  else if (!S_ISDIR(st.st_mode))
    why = cli_has_suffix(dir, ".tfvars") || cli_has_suffix(dir, ".tfvars.json")
              ? "not a directory (a variables file is given with "
                "-var-file=FILE)"
              : "not a directory";
  else {
    DIR *d = opendir(dir);
    if (!d)
      why = strerror(errno);
    else
      closedir(d);
  }
  if (!why)
    return true;
  fprintf(stderr, "tfresolve %s: cannot use %s as the module directory: %s\n",
          cmd, dir, why);
  return false;
}

/* The index of variable name in instance in (sorted by name), or -1. */
static long var_index(const struct tfr_instance *in, const char *name) {
  size_t lo = 0, hi = in->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(tfr_instance_variable(in, mid)->name, name);
    if (!c)
      return (long)mid;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return -1;
}

size_t cli_reaches(tfr_arena *a, const struct tfr_resolution *res,
                   const char *root, struct cli_reach **out) {
  *out = NULL;
  if (!res || !res->ninstances)
    return 0;
  size_t ni = res->ninstances, nr = 0, cap = 0;
  /* per instance and variable: reaches root, and is secret (instances are
  ** in depth-first order: a caller before the instances it calls) */
  bool **reach = tfr_arena_alloc(a, ni * sizeof *reach);
  bool **secret = tfr_arena_alloc(a, ni * sizeof *secret);
  for (size_t i = 0; i < ni; i++) {
    const struct tfr_instance *in = tfr_resolution_instance(res, i);
    reach[i] = tfr_arena_alloc(a, (in->n ? in->n : 1) * sizeof **reach);
    secret[i] = tfr_arena_alloc(a, (in->n ? in->n : 1) * sizeof **secret);
    long parent = -1; /* its caller's index; -1: the root module */
    for (size_t j = 0; in->parent && *in->parent && j < i && parent < 0; j++)
      if (!strcmp(tfr_resolution_instance(res, j)->address, in->parent))
        parent = (long)j;
    bool orphan = in->parent && *in->parent && parent < 0;
    for (size_t k = 0; k < in->n; k++) {
      const struct tfr_variable *v = tfr_instance_variable(in, k);
      bool r = false;
      bool x = v->sensitive || orphan ||
               (v->value && tfr_value_has_mark(v->value, TFR_V_SENSITIVE)) ||
               (v->given && tfr_value_has_mark(v->given, TFR_V_SENSITIVE)) ||
               (v->preview && tfr_value_has_mark(v->preview, TFR_V_SENSITIVE));
      for (size_t j = 0; j < v->nreads; j++) {
        if (parent < 0) {
          const struct tfr_variable *rv =
              orphan ? NULL : tfr_resolution_find(res, v->reads[j]);
          r = r || (rv && !strcmp(rv->name, root));
          x = x ||
              (rv &&
               (rv->sensitive ||
                (rv->value && tfr_value_has_mark(rv->value, TFR_V_SENSITIVE))));
        } else {
          long pv = var_index(tfr_resolution_instance(res, (size_t)parent),
                              v->reads[j]);
          r = r || (pv >= 0 && reach[parent][pv]);
          x = x || (pv >= 0 && secret[parent][pv]);
        }
      }
      reach[i][k] = r;
      secret[i][k] = x;
      if (!r)
        continue;
      if (nr == cap) {
        cap = cap ? 2 * cap : 8;
        struct cli_reach *n = tfr_arena_alloc(a, cap * sizeof *n);
        if (nr)
          memcpy(n, *out, nr * sizeof *n);
        *out = n;
      }
      (*out)[nr++] = (struct cli_reach){in, v, x};
    }
  }
  return nr;
}

bool cli_unreadable_var_file(const tfr_diags *d) {
  for (size_t i = 0; i < tfr_diags_count(d); i++) {
    const struct tfr_diag *g = tfr_diags_get(d, i);
    if (g->code == TFR_CODE_VAR_FILE_UNREADABLE)
      return true;
  }
  return false;
}
