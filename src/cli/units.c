/*
** Terragrunt units from the command line (tfresolve/terragrunt.h): a
** directory holding terragrunt.hcl is a unit; its module is resolved with
** the values terragrunt would pass and seen from the unit; check
** -recursive finds every unit below a live repository's root.
*/
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_module.h"
#include "cli_util.h"
#include "tfresolve/terragrunt.h"

extern char **environ;

static bool stack_unit_here(const char *dir);

/* Whether dir holds a regular file named name. */
static bool file_here(const char *dir, const char *name) {
  struct stat st;
  size_t n = strlen(dir) + strlen(name) + 2;
  char *p = cli_alloc(n);
  snprintf(p, n, "%s/%s", dir, name);
  bool is = stat(p, &st) == 0 && S_ISREG(st.st_mode);
  free(p);
  return is;
}

/* terragrunt.hcl, or terragrunt.hcl.json (GetDefaultConfigPath). */
bool cli_unit_here(const char *dir) {
  return file_here(dir, "terragrunt.hcl") ||
         file_here(dir, "terragrunt.hcl.json") || stack_unit_here(dir);
}

bool cli_stack_here(const char *dir) {
  return file_here(dir, "terragrunt.stack.hcl");
}

/* A directory that does not exist below one holding terragrunt.stack.hcl:
** maybe a unit the stack generates (tfr_unit_read tells). */
static bool stack_unit_here(const char *dir) {
  struct stat st;
  if (stat(dir, &st) == 0)
    return false;
  size_t n = strlen(dir);
  char *p = cli_alloc(n + 1);
  memcpy(p, dir, n + 1);
  bool is = false;
  for (char *s = strrchr(p, '/'); s && !is; s = strrchr(p, '/')) {
    *s = 0;
    is = stat(*p ? p : "/", &st) == 0 && cli_stack_here(*p ? p : "/");
  }
  if (!is && dir[0] != '/')
    is = cli_stack_here(".");
  free(p);
  return is;
}

void cli_stack_units(const char *dir, tfr_arena *a, tfr_diags *d,
                     char *const *env, struct cli_names *out) {
  size_t n = 0;
  const char *const *v = tfr_stack_units(a, d, dir, env, &n);
  for (size_t i = 0; v && i < n; i++)
    cli_names_add(out, v[i]);
}

/* A module not checked: a warning (an error with -unchecked=error or
** -strict) naming the reason. */
static void not_checked(tfr_arena *a, tfr_diags *d, const struct tfr_unit *u,
                        const struct tfr_resolve_opts *base, int *rc) {
  bool err = base->unchecked_error || base->strict;
  tfr_diags_add(d, err ? TFR_DIAG_ERROR : TFR_DIAG_WARNING, NULL,
                "Unit not checked",
                tfr_arena_printf(a, "The module of %s is not checked: %s.",
                                 u->config, u->not_checked));
  tfr_diags_set_ours(d);
  *rc = err ? EXIT_INVALID : EXIT_OK;
}

const struct tfr_resolution *
cli_unit_resolve(tfr_arena *a, tfr_diags **d, const char *path,
                 const struct tfr_resolve_opts *base, int *rc) {
  struct tfr_unit_opts uo = TFR_UNIT_OPTS_INIT;
  uo.path = path;
  uo.env = base->env;
  const struct tfr_unit *u = tfr_unit_read(a, *d, &uo);
  if (!u) {
    *rc = EXIT_INVALID;
    return NULL;
  }
  if (!u->module_dir) {
    not_checked(a, *d, u, base, rc);
    return NULL;
  }
  struct tfr_cli_arg *args =
      tfr_arena_alloc(a, (u->nargs + base->nargs + 1) * sizeof *args);
  memcpy(args, u->args, u->nargs * sizeof *args);
  if (base->nargs)
    memcpy(args + u->nargs, base->args, base->nargs * sizeof *args);
  struct tfr_resolve_opts ro = *base;
  ro.dir = u->module_dir;
  ro.env = u->env;
  ro.args = args;
  ro.nargs = u->nargs + base->nargs;
  ro.unknown = u->unknown;
  ro.nunknown = u->nunknown;
  ro.overlays = u->overlays;
  ro.noverlays = u->noverlays;
  const struct tfr_resolution *res = tfr_resolve(a, *d, &ro);
  tfr_diags *out = tfr_diags_new(a);
  res = tfr_unit_apply(a, out, u, res, *d, base->strict);
  *d = out;
  return res;
}

static int by_name(const struct dirent **x, const struct dirent **y) {
  return strcmp((*x)->d_name, (*y)->d_name);
}

/* Whether terragrunt's discovery skips a directory (terragrunt's
** internal/util/file.go:1903-1910: .git, .terraform, .terragrunt-cache;
** other hidden ones, .terragrunt-stack's generated units among them, are
** read). */
static bool skipped(const char *name) {
  return !strcmp(name, ".") || !strcmp(name, "..") || !strcmp(name, ".git") ||
         !strcmp(name, ".terraform") || !strcmp(name, ".terragrunt-cache");
}

/* The units a stack file generates that are not generated yet (those
** that are, the walk finds); a stack not read is itself a unit to check,
** whose check tells why. */
static void stack_units(const char *dir, struct cli_names *out) {
  tfr_arena *a = tfr_arena_new();
  tfr_diags *d = tfr_diags_new(a);
  struct cli_names v = {0};
  cli_stack_units(dir, a, d, environ, &v);
  if (tfr_diags_has_errors(d))
    cli_names_add(out, dir);
  for (size_t i = 0; i < v.n; i++) {
    struct stat st;
    if (stat(v.v[i], &st) != 0)
      cli_names_add(out, v.v[i]);
  }
  cli_names_free(&v);
  tfr_arena_free(a);
}

/* Depth first, names in byte order; symbolic links are not followed. */
static void walk(const char *dir, int depth, struct cli_names *out) {
  struct stat st0;
  if (stat(dir, &st0) == 0 && cli_unit_here(dir))
    cli_names_add(out, dir);
  else if (cli_stack_here(dir))
    stack_units(dir, out);
  struct dirent **v = NULL;
  int n = depth < 64 ? scandir(dir, &v, NULL, by_name) : -1;
  for (int i = 0; i < n; i++) {
    const char *name = v[i]->d_name;
    if (!skipped(name)) {
      size_t len = strlen(dir) + strlen(name) + 2;
      char *p = cli_alloc(len);
      snprintf(p, len, "%s/%s", strcmp(dir, ".") ? dir : "", name);
      const char *q = strcmp(dir, ".") ? p : p + 1;
      struct stat st;
      if (lstat(q, &st) == 0 && S_ISDIR(st.st_mode))
        walk(q, depth + 1, out);
      free(p);
    }
    free(v[i]);
  }
  free(v);
}

void cli_units_find(const char *dir, struct cli_names *out) {
  walk(dir, 0, out);
}
