/*
** What `inspect` and `docs` share (iface_out.h).
*/
#include "iface_out.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_module.h"
#include "cli_util.h"
#include "options.h"

const char *iface_dir_operand(struct cli_opts *co) {
  if (co->operands.n > 1) {
    cli_usage_error(co->cmd, "unexpected argument \"%s\"", co->operands.v[1]);
    return NULL;
  }
  const char *dir = co->operands.n ? co->operands.v[0] : ".";
  /* as show and check: DIR is not one */
  return cli_module_dir_ok(co->cmd->name, dir) ? dir : NULL;
}

static const struct tfr_resolution *resolve(struct iface_run *r,
                                            const char *file, tfr_diags *d) {
  struct tfr_resolve_opts ro = TFR_RESOLVE_OPTS_INIT;
  struct tfr_cli_arg arg = {0};
  arg.file = true;
  arg.value = file;
  ro.args = file ? &arg : NULL;
  ro.nargs = file ? 1 : 0;
  ro.missing_required_info = true; /* a reusable module: its caller sets
                                      what it requires */
  return tfr_resolve_module(r->a, d, r->mod, &ro);
}

bool iface_load(struct iface_run *r, const char *dir, bool opentofu,
                const char *const *files, size_t n) {
  r->a = tfr_arena_new();
  r->d = tfr_diags_new(r->a);
  r->dir = dir;
  r->mod = tfr_module_load(r->a, r->d, dir, opentofu);
  r->f = tfr_module_interface(r->a, r->mod);
  if (!r->f->has_config && !tfr_diags_has_errors(r->d)) {
    tfr_diags_add(
        r->d, TFR_DIAG_ERROR, NULL, "No configuration files",
        tfr_arena_printf(r->a,
                         "There are no Terraform configuration files (.tf "
                         "or .tf.json%s) in %s%s.",
                         opentofu ? ", .tofu or .tofu.json" : "",
                         strcmp(dir, ".") ? "" : "the current directory",
                         strcmp(dir, ".") ? dir : ""));
    tfr_diags_set_ours(r->d); /* Terraform's plan says it otherwise */
  }
  if (tfr_diags_has_errors(r->d))
    return false; /* no environment: the interface alone */
  tfr_diags *scratch = tfr_diags_new(r->a);
  r->base = resolve(r, NULL, scratch);
  r->envs = tfr_arena_alloc(r->a, (n + 1) * sizeof *r->envs);
  r->nenvs = n;
  for (size_t i = 0; i < n; i++) {
    r->envs[i].file = files[i];
    r->envs[i].d = tfr_diags_new(r->a);
    r->envs[i].res = resolve(r, files[i], r->envs[i].d);
  }
  return true;
}

bool iface_var_files(const char *const *patterns, size_t n, const char ***files,
                     size_t *nfiles) {
  struct cli_names out = {0};
  for (size_t i = 0; i < n; i++) {
    int rc = cli_glob_braces(patterns[i], &out);
    if (rc != 0) {
      fprintf(stderr, "tfresolve: -var-file-each %s: %s\n", patterns[i],
              rc == GLOB_NOMATCH ? "no file matches" : "cannot read it");
      cli_names_free(&out);
      return false;
    }
  }
  *files = (const char **)out.v; /* the caller frees them with free() */
  *nfiles = out.n;
  return true;
}

/* The first variable expression x refers to (var.NAME) that res
** declares without const, or NULL. */
static const char *not_const(tfr_arena *a, const struct tfr_resolution *res,
                             const tfr_file *x) {
  size_t n = 0;
  const char **refs = x ? tfr_expr_references(a, x, &n) : NULL;
  for (size_t i = 0; i < n; i++) {
    const char *name = refs[i] + 4;
    if (strncmp(refs[i], "var.", 4) || strpbrk(name, ".["))
      continue; /* not an address var.NAME (the steps after it come first) */
    const struct tfr_variable *v = tfr_resolution_find(res, name);
    if (v && !v->is_const)
      return v->name;
  }
  return NULL;
}

/* As Terraform's init evaluates a module source
** (node_module_install.go's evalSource; tree_eval_source in the library):
** only const variables are known then, so a source that reads another is
** not known. */
const char *iface_call_source(const struct iface_run *r,
                              const struct tfr_resolution *res,
                              const char *expr, const char **why) {
  *why = NULL;
  tfr_diags *d = tfr_diags_new(r->a);
  tfr_file *x = tfr_parse_expr(r->a, d, "<module source>", expr, strlen(expr));
  if (res && not_const(r->a, res, x)) {
    *why = "not const";
    return NULL;
  }
  struct tfr_eval_opts o = TFR_EVAL_OPTS_INIT;
  o.dir = r->dir;
  o.module = res;
  const tfr_value *v = x ? tfr_eval_functions_opts(r->a, d, x, &o) : NULL;
  if (!v || tfr_diags_has_errors(d)) {
    *why = tfr_diags_count(d) ? tfr_diags_get(d, 0)->summary : "invalid";
    return NULL;
  }
  if (tfr_value_marks(v) & TFR_V_SENSITIVE) {
    *why = "sensitive";
    return NULL;
  }
  if (!tfr_value_is_wholly_known(v) || tfr_value_is_null(v) ||
      v->type->kind != TFR_STRING) {
    *why = tfr_value_is_null(v) ? "null" : "unknown";
    return NULL;
  }
  return tfr_arena_strndup(r->a, v->s, v->n);
}

const char *iface_type_text(tfr_arena *a, const struct tfr_iface_variable *v,
                            bool show_sensitive) {
  if (!v->type || !v->sensitive || show_sensitive || !v->ndefaults)
    return v->type;
  return tfr_type_expr(a, v->constraint);
}

static const char *bound_words(tfr_arena *a, const char *what, const char *min,
                               bool min_excl, const char *max, bool max_excl) {
  if (!min && !max)
    return NULL;
  const char *lo =
      min ? tfr_arena_printf(a, "%s %s", min_excl ? "more than" : "at least",
                             min)
          : NULL;
  const char *hi =
      max ? tfr_arena_printf(a, "%s %s", max_excl ? "less than" : "at most",
                             max)
          : NULL;
  return tfr_arena_printf(a, "%s%s%s%s", what, lo ? lo : "",
                          lo && hi ? " and " : "", hi ? hi : "");
}

/* "list" of the strings v[0..n) as the console writes them, after "; "
** when out holds words already. */
static void words_of(tfr_arena *a, struct cli_buf *out, const char *list,
                     const char *const *v, size_t n) {
  cli_buf_puts(out, list);
  for (size_t i = 0; i < n; i++) {
    cli_buf_puts(out, i ? ", " : "");
    cli_buf_puts(out, tfr_value_console(a, tfr_string(a, v[i], strlen(v[i]))));
  }
}

const char *iface_rule_words(tfr_arena *a, const struct tfr_iface_rule *r) {
  struct cli_buf out = {0};
  if (r->allowed)
    words_of(a, &out, "one of ", r->allowed, r->nallowed);
  else if (r->nforbidden)
    words_of(a, &out, "none of ", r->forbidden, r->nforbidden);
  const struct tfr_iface_bound *b = &r->bounds, *l = &r->length_bounds;
  const char *parts[] = {
      bound_words(a, "", b->min, b->min_excl, b->max, b->max_excl),
      bound_words(a, "length ", l->min, l->min_excl, l->max, l->max_excl)};
  for (size_t k = 0; k < 2; k++) {
    if (!parts[k])
      continue;
    cli_buf_puts(&out, out.p && *out.p ? "; " : "");
    cli_buf_puts(&out, parts[k]);
  }
  const char *res = out.p && *out.p ? tfr_arena_strdup(a, out.p) : NULL;
  free(out.p);
  return res;
}
