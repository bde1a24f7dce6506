/*
** Terragrunt's functions (pkg/config/config_helpers.go:74-111, 190-430),
** beside every Terraform function: those that only read files, paths
** and the environment, computed as terragrunt computes them; those that
** would run something or reach a cloud (run_cmd, sops_decrypt_file,
** get_aws_*) never run: their value is unknown, with a warning naming
** the call.  A function's error is hcl's "Error in function call" with
** terragrunt's error text, as terragrunt shows it.
*/
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "eval/funcs.h"
#include "syntax/parse.h"
#include "values/convert.h"
#include "terragrunt/tg_int.h"

struct tg_call {
  struct tg_file *f;
  struct eval_ctx *c;
  const struct ast *call;
  const char *name;
  const char **args; /* the arguments as strings */
  size_t nargs;
};

/* hcl's "Error in function call" with terragrunt's text
** (hclsyntax/expression.go: Call to function %q failed: %s.). */
static const tfr_value *fail(struct tg_call *t, const char *text) {
  eval_error(t->c, t->call, "Error in function call",
             tfr_arena_printf(t->c->a, "Call to function \"%s\" failed: %s.",
                              t->name, text));
  return eval_dynamic(t->c);
}

/* errors.go:118-132 */
static const tfr_value *wrong_params(struct tg_call *t, const char *expected) {
  return fail(t, tfr_arena_printf(t->c->a,
                                  "Expected %s params for function %s, but "
                                  "got %zu",
                                  expected, t->name, t->nargs));
}

static const tfr_value *str(struct tg_call *t, const char *s) {
  return tfr_string(t->c->a, s, strlen(s));
}

static const tfr_value *strs(struct tg_call *t, const char *const *v,
                             size_t n) {
  const tfr_value **e = tfr_arena_alloc(t->c->a, (n + 1) * sizeof *e);
  for (size_t i = 0; i < n; i++)
    e[i] = str(t, v[i]);
  return tfr_list(t->c->a, &tfr_t_string, n, e);
}

/* The file terragrunt finds at p, in a generated stack directory too
** (tg_stack.c). */
static bool exists(const struct tg_run *r, const char *p) {
  return tg_exists(r, p);
}

static bool is_dir(const struct tg_run *r, const char *p) {
  struct stat st;
  return stat(tg_real(r, p), &st) == 0 && S_ISDIR(st.st_mode);
}

/* Go's filepath.Rel for two clean absolute paths. */
static const char *rel(tfr_arena *a, const char *base, const char *targ) {
  size_t i = 0, last = 0;
  while (base[i] && base[i] == targ[i]) {
    if (base[i] == '/')
      last = i;
    i++;
  }
  if (!base[i] && (!targ[i] || targ[i] == '/'))
    last = i;
  else if (!targ[i] && base[i] == '/')
    last = i;
  if (!strcmp(base, "/"))
    last = 0;
  const char *up = "";
  for (const char *p = base + last; *p; p++)
    if (*p == '/')
      up = tfr_arena_printf(a, "%s%s..", up, *up ? "/" : "");
  const char *down = targ[last] == '/' ? targ + last + 1 : targ + last;
  if (!*up)
    return *down ? tfr_arena_strdup(a, down) : ".";
  return *down ? tfr_arena_printf(a, "%s/%s", up, down) : up;
}

static const char *config_dir(struct tg_call *t) {
  return tg_dirname(t->c->a, t->f->config_path);
}

/* GetDefaultConfigPath: terragrunt.hcl, or terragrunt.hcl.json. */
static const char *default_config(const struct tg_run *r, tfr_arena *a,
                                  const char *dir) {
  const char *j = tfr_arena_printf(a, "%s/terragrunt.hcl.json", dir);
  if (!exists(r, tfr_arena_printf(a, "%s/terragrunt.hcl", dir)) && exists(r, j))
    return j;
  return tfr_arena_printf(a, "%s/terragrunt.hcl", dir);
}

/* config_helpers.go:727-813 */
static const tfr_value *find_in_parent_folders(struct tg_call *t) {
  tfr_arena *a = t->c->a;
  if (t->nargs > 2)
    return fail(t, tfr_arena_printf(a,
                                    "Expected 0, 1, or 2 params for function "
                                    "find_in_parent_folders, but got %zu",
                                    t->nargs));
  const char *name = t->nargs ? t->args[0] : "";
  const char *prev = config_dir(t);
  for (int i = 0; i < 100; i++) { /* options MaxFoldersToCheck */
    const char *cur = tg_dirname(a, prev);
    if (!strcmp(cur, prev)) {
      if (t->nargs == 2)
        return str(t, t->args[1]);
      return fail(t, tfr_arena_printf(
                         a,
                         "ParentFileNotFoundError: Could not find a %s in any "
                         "of the parent folders of %s. Cause: Traversed all "
                         "the way to the root.",
                         *name ? name : "terragrunt.hcl",
                         tg_show_path(t->f->r, t->f->config_path)));
    }
    const char *cand =
        *name ? tg_join(a, cur, name) : default_config(t->f->r, a, cur);
    if (exists(t->f->r, cand))
      return str(t, cand);
    prev = cur;
  }
  return fail(t, "ParentFileNotFoundError: Exceeded maximum folders to check "
                 "(100)");
}

/* getSelectedIncludeBlock (config_helpers.go:1414-1451). */
static const struct tg_incl *selected(struct tg_call *t, bool *err) {
  struct tg_file *f = t->f;
  *err = false;
  if (f->from)
    return f->from;
  if (!f->nincl)
    return NULL;
  if (f->nincl == 1)
    return &f->incl[0];
  if (t->nargs != 1) {
    *err = true;
    wrong_params(t, "1");
    return NULL;
  }
  for (size_t i = 0; i < f->nincl; i++)
    if (!strcmp(f->incl[i].name, t->args[0]))
      return &f->incl[i];
  *err = true;
  fail(t, tfr_arena_printf(t->c->a,
                           "There is no include block in the current config "
                           "with the label '%s'",
                           t->args[0]));
  return NULL;
}

/* config_helpers.go:851-929: from the include's directory to the unit's,
** or the other way. */
static const tfr_value *relative_include(struct tg_call *t, bool to) {
  bool err;
  const struct tg_incl *in = selected(t, &err);
  if (err)
    return eval_dynamic(t->c);
  if (!in)
    return str(t, ".");
  const char *inc = tg_dirname(t->c->a, in->path), *cur = config_dir(t);
  return str(t, to ? rel(t->c->a, inc, cur) : rel(t->c->a, cur, inc));
}

/* config_helpers.go:492-505 */
static const tfr_value *parent_dir(struct tg_call *t) {
  const tfr_value *r = relative_include(t, false);
  if (r->flags & TFR_V_UNKNOWN)
    return r;
  return str(t, tg_join(t->c->a, config_dir(t),
                        tfr_arena_strndup(t->c->a, r->s, r->n)));
}

/* config_helpers.go:692-714, 508-536 */
static const tfr_value *get_env(struct tg_call *t) {
  if (t->nargs != 1 && t->nargs != 2)
    return fail(t, tfr_arena_printf(t->c->a,
                                    "InvalidGetEnvParamsError: Expected one "
                                    "or two parameters (%zu given) for "
                                    "function get_env. Example: "
                                    "getEnv(\"<NAME>\", \"[DEFAULT]\")",
                                    t->nargs));
  if (!*t->args[0])
    return fail(t, "InvalidEnvParamNameError: Invalid environment variable "
                   "name - (empty)");
  size_t n = strlen(t->args[0]);
  for (char *const *e = t->f->r->env; e && *e; e++)
    if (!strncmp(*e, t->args[0], n) && (*e)[n] == '=')
      return str(t, *e + n + 1);
  if (t->nargs == 2)
    return str(t, t->args[1]);
  return fail(t, tfr_arena_printf(t->c->a,
                                  "EnvVarNotFoundError: Required environment "
                                  "variable %s - not found",
                                  t->args[0]));
}

/* shell.GitTopLevelDir: the nearest directory up holding .git. */
static const char *repo_root(struct tg_call *t) {
  const char *d = config_dir(t);
  for (;;) {
    if (exists(t->f->r, tfr_arena_printf(t->c->a, "%s/.git", d)))
      return d;
    const char *up = tg_dirname(t->c->a, d);
    if (!strcmp(up, d))
      return NULL;
    d = up;
  }
}

static const tfr_value *repo_fn(struct tg_call *t, int which) {
  const char *root = repo_root(t);
  if (!root)
    return fail(t, "fatal: not a git repository (or any of the parent "
                   "directories): .git");
  if (which == 0)
    return str(t, root);
  if (which == 1)
    return str(t, rel(t->c->a, root, config_dir(t)));
  return str(t, rel(t->c->a, config_dir(t), root));
}

/* config_helpers.go:1056-1160: the config file's locals, inputs...
** (includes merged); its default, or terragrunt's error, when missing. */
static const tfr_value *read_config(struct tg_call *t, const tfr_value *dflt) {
  tfr_arena *a = t->c->a;
  if (t->nargs < 1 || t->nargs > 2)
    return wrong_params(t, "1 or 2");
  const char *p = tg_join(a, config_dir(t), t->args[0]);
  if (is_dir(t->f->r, p))
    p = default_config(t->f->r, a, p);
  if (!exists(t->f->r, p)) {
    if (dflt)
      return dflt;
    return fail(t, tfr_arena_printf(
                       a,
                       "You attempted to run terragrunt in a folder that does "
                       "not contain a terragrunt.hcl file. Please add a "
                       "terragrunt.hcl file and try again.\n\nPath: \"%s\"",
                       tg_show_path(t->f->r, p)));
  }
  t->f->r->why = src_range(t->c->src, t->call->span);
  struct tg_cfg *c = tg_read_file(t->f->r, p, p, NULL);
  if (!c)
    return eval_dynamic(t->c);
  return tg_cfg_value(a, c);
}

/* read_tfvars_file (config_helpers.go:1528-1588, 1761-1811): a .json
** file as it is, else its attributes, constants, as JSON. */
static const tfr_value *read_tfvars(struct tg_call *t) {
  tfr_arena *a = t->c->a;
  if (t->nargs != 1)
    return wrong_params(t, "1");
  const char *p = tg_join(a, config_dir(t), t->args[0]);
  const char *shown = tg_show_path(t->f->r, p);
  if (!exists(t->f->r, p)) /* errors.go:108-116 */
    return fail(t, tfr_arena_printf(a,
                                    "TFVarFileNotFound: Could not find a %s. "
                                    "Cause: .",
                                    shown));
  struct src_file *src =
      parse_open(a, t->c->diags, NULL,
                 tg_show_path(t->f->r, tg_real(t->f->r, p)), NULL, 0);
  if (!src)
    return eval_dynamic(t->c);
  size_t n = strlen(p);
  if (n >= 4 && !strcmp(p + n - 4, "json"))
    return tfr_string(a, src->text, src->len);
  tfr_file *tf = parse_opened(a, t->c->diags, src, TFR_SYNTAX_HCL);
  if (!tf)
    return eval_dynamic(t->c);
  const struct ast *body = tf->f.body;
  const char **names = tfr_arena_alloc(a, (body->n + 1) * sizeof *names);
  const tfr_value **vals = tfr_arena_alloc(a, (body->n + 1) * sizeof *vals);
  size_t k = 0;
  for (uint32_t i = 0; i < body->n; i++) {
    const struct ast *it = body->items[i];
    if (it->kind != AST_ATTR)
      continue;
    names[k] = tfr_arena_strndup(a, it->str, it->n);
    vals[k++] = eval_const(a, t->c->diags, src, it->kids[0]);
  }
  const char *j = tg_json(a, tfr_object(a, k, names, vals), false);
  return tfr_string(a, j, strlen(j));
}

/* deep_merge (cty_helpers.go:257-300): objects and maps merged as include
** deep merges inputs; it needs terragrunt's "deep-merge" experiment
** (TG_EXPERIMENT, or TG_EXPERIMENT_MODE for all). */
bool tg_experiment(const struct tg_run *r, const char *name) {
  size_t n = strlen(name);
  for (char *const *e = r->env; e && *e; e++) {
    if (!strncmp(*e, "TG_EXPERIMENT_MODE=", 19))
      return !strcmp(*e + 19, "true") || !strcmp(*e + 19, "1");
    if (strncmp(*e, "TG_EXPERIMENT=", 14))
      continue;
    for (const char *p = *e + 14; *p;) {
      const char *c = strchr(p, ',');
      size_t len = c ? (size_t)(c - p) : strlen(p);
      if (len == n && !memcmp(p, name, n))
        return true;
      p += len + (c != NULL);
    }
  }
  return false;
}

static const tfr_value *deep_merge(struct tg_call *t, const struct ast *x) {
  tfr_arena *a = t->c->a;
  const tfr_value *out = tfr_object(a, 0, NULL, NULL);
  for (uint32_t i = 0; i < x->n; i++) {
    const tfr_value *v = eval_expr(t->c, x->items[i]);
    if (v->flags & TFR_V_UNKNOWN)
      return tfr_unknown(a, &tfr_t_dynamic);
    if (v->flags & TFR_V_NULL)
      continue;
    if (v->type->kind != TFR_OBJECT && v->type->kind != TFR_MAP)
      return fail(t, tfr_arena_printf(a,
                                      "Expected param of type map or object "
                                      "but got %s",
                                      tfr_type_friendly(a, v->type)));
    const char *err = NULL;
    out = tg_deep_merge(a, out, v, &err);
    if (!out)
      return fail(t, err);
  }
  if (!tg_experiment(t->f->r, "deep-merge")) /* errors.go:481-490 */
    return fail(t, tfr_arena_printf(a,
                                    "deep_merge in %s requires the "
                                    "'deep-merge' experiment to be enabled",
                                    tg_show_path(t->f->r, t->f->config_path)));
  return out;
}

/* constraint_check (config_helpers.go:1813-1835). */
static const tfr_value *constraint_check(struct tg_call *t) {
  if (t->nargs != 2)
    return wrong_params(t, "2");
  const char *bad = NULL;
  int r = tg_constraint_check(t->c->a, t->args[0], t->args[1], &bad);
  if (r < 0 && !bad)
    return fail(t, tfr_arena_printf(t->c->a,
                                    "invalid version %s: malformed version: "
                                    "%s",
                                    t->args[0], t->args[0]));
  if (r < 0)
    return fail(t, tfr_arena_printf(t->c->a,
                                    "invalid constraint %s: malformed "
                                    "constraint: %s",
                                    t->args[1], bad));
  return tfr_bool(r == 1);
}

/* A call that cannot run offline: unknown, with a warning (ours). */
static const tfr_value *not_run(struct tg_call *t, const tfr_type *type,
                                const char *what) {
  struct tfr_range r = src_range(t->c->src, t->call->span);
  tfr_diags_add(t->c->diags, TFR_DIAG_WARNING, &r, "Function not run offline",
                tfr_arena_printf(t->c->a,
                                 "%s() %s; tfresolve never does that: its "
                                 "value is unknown, and what reads it is not "
                                 "checked.",
                                 t->name, what));
  tfr_diags_set_ours(t->c->diags);
  return tfr_unknown(t->c->a, type);
}

/* config_helpers.go:113-149 */
static const char *const need_vars[] = {"apply", "console", "destroy", "import",
                                        "plan",  "push",    "refresh"};
static const char *const need_locking[] = {
    "apply", "destroy", "import", "plan", "refresh", "taint", "untaint"};
static const char *const need_input[] = {"apply", "import", "init", "plan",
                                         "refresh"};
static const char *const need_parallelism[] = {"apply", "plan", "destroy"};
#define N(v) (sizeof v / sizeof *v)

static const tfr_value *paths_fn(struct tg_call *t) {
  const char *n = t->name;
  if (!strcmp(n, "find_in_parent_folders"))
    return find_in_parent_folders(t);
  if (!strcmp(n, "path_relative_to_include"))
    return relative_include(t, true);
  if (!strcmp(n, "path_relative_from_include"))
    return relative_include(t, false);
  if (!strcmp(n, "get_parent_terragrunt_dir"))
    return parent_dir(t);
  if (!strcmp(n, "get_terragrunt_dir") || !strcmp(n, "get_working_dir"))
    return str(t, config_dir(t));
  if (!strcmp(n, "get_original_terragrunt_dir"))
    return str(t, tg_dirname(t->c->a, t->f->original));
  if (!strcmp(n, "get_repo_root"))
    return repo_fn(t, 0);
  if (!strcmp(n, "get_path_from_repo_root"))
    return repo_fn(t, 1);
  if (!strcmp(n, "get_path_to_repo_root"))
    return repo_fn(t, 2);
  if (!strcmp(n, "mark_as_read"))
    return t->nargs == 1 ? str(t, t->args[0]) : wrong_params(t, "1");
  return NULL;
}

static const tfr_value *other_fn(struct tg_call *t) {
  const char *n = t->name;
  const char *cmd = t->f->r->command;
  if (!strcmp(n, "get_env"))
    return get_env(t);
  if (!strcmp(n, "get_platform"))
#ifdef __APPLE__
    return str(t, "darwin");
#else
    return str(t, "linux");
#endif
  if (!strcmp(n, "get_terraform_command"))
    return str(t, cmd);
  if (!strcmp(n, "get_terraform_cli_args"))
    return strs(t, &cmd, 1);
  if (!strcmp(n, "get_terraform_commands_that_need_vars"))
    return strs(t, need_vars, N(need_vars));
  if (!strcmp(n, "get_terraform_commands_that_need_locking"))
    return strs(t, need_locking, N(need_locking));
  if (!strcmp(n, "get_terraform_commands_that_need_input"))
    return strs(t, need_input, N(need_input));
  if (!strcmp(n, "get_terraform_commands_that_need_parallelism"))
    return strs(t, need_parallelism, N(need_parallelism));
  if (!strcmp(n, "get_terragrunt_source_cli_flag"))
    return str(t, "");
  if (!strcmp(n, "run_cmd"))
    return not_run(t, &tfr_t_string, "runs a command");
  if (!strcmp(n, "sops_decrypt_file"))
    return not_run(t, &tfr_t_string, "decrypts a file with sops' keys");
  if (!strncmp(n, "get_aws_", 8))
    return not_run(t, &tfr_t_string, "asks AWS");
  if (!strcmp(n, "get_default_retryable_errors") ||
      !strcmp(n, "mark_glob_as_read"))
    return tfr_unknown(t->c->a, tfr_type_list(t->c->a, &tfr_t_string));
  if (!strcmp(n, "read_tfvars_file"))
    return read_tfvars(t);
  if (!strcmp(n, "constraint_check"))
    return constraint_check(t);
  return paths_fn(t);
}

static bool is_tg_function(const char *n) {
  static const char *const names[] = {
      "find_in_parent_folders",
      "path_relative_to_include",
      "path_relative_from_include",
      "get_parent_terragrunt_dir",
      "get_terragrunt_dir",
      "get_working_dir",
      "get_original_terragrunt_dir",
      "get_repo_root",
      "get_path_from_repo_root",
      "get_path_to_repo_root",
      "mark_as_read",
      "get_env",
      "get_platform",
      "get_terraform_command",
      "get_terraform_cli_args",
      "get_terraform_commands_that_need_vars",
      "get_terraform_commands_that_need_locking",
      "get_terraform_commands_that_need_input",
      "get_terraform_commands_that_need_parallelism",
      "get_terragrunt_source_cli_flag",
      "run_cmd",
      "sops_decrypt_file",
      "get_aws_account_alias",
      "get_aws_account_id",
      "get_aws_caller_identity_arn",
      "get_aws_caller_identity_user_id",
      "get_default_retryable_errors",
      "mark_glob_as_read",
      "read_tfvars_file",
      "constraint_check",
      "read_terragrunt_config",
      "deep_merge"};
  for (size_t i = 0; i < N(names); i++)
    if (!strcmp(names[i], n))
      return true;
  return false;
}

/* The arguments as strings (ctySliceToStringSlice: each must be a known
** string); false after an error.  read_terragrunt_config's second is any
** value (*extra). */
static bool string_args(struct tg_call *t, const struct ast *call,
                        const tfr_value **extra) {
  tfr_arena *a = t->c->a;
  t->nargs = call->n;
  t->args = tfr_arena_alloc(a, (call->n + 1) * sizeof *t->args);
  for (uint32_t i = 0; i < call->n; i++) {
    const tfr_value *v = eval_expr(t->c, call->items[i]);
    if (i == 1 && !strcmp(t->name, "read_terragrunt_config")) {
      *extra = v;
      continue;
    }
    if (v->flags & TFR_V_UNKNOWN)
      return false;
    const char *err = NULL;
    const tfr_value *s = conv_convert(a, v, &tfr_t_string, &err);
    if (!s || (s->flags & TFR_V_NULL)) {
      eval_error(t->c, call->items[i], "Invalid function argument",
                 tfr_arena_printf(a, "Invalid value for \"params\" parameter: "
                                     "string required."));
      return false;
    }
    t->args[i] = tfr_arena_strndup(a, s->s, s->n);
  }
  return true;
}

static const tfr_value *call(void *ud, struct eval_ctx *c, const struct ast *x,
                             const char *name, size_t len, size_t nargs,
                             const tfr_value *const *args) {
  struct tg_file *f = ud;
  char *n = tfr_arena_strndup(c->a, name, len);
  if (!is_tg_function(n))
    return funcs_table.call(funcs_table.ud, c, x, name, len, nargs, args);
  struct tg_call t = {f, c, x, n, NULL, 0};
  if (!strcmp(n, "deep_merge"))
    return deep_merge(&t, x);
  const tfr_value *extra = NULL;
  if (!string_args(&t, x, &extra))
    return eval_dynamic(c);
  if (!strcmp(n, "read_terragrunt_config"))
    return read_config(&t, extra);
  return other_fn(&t);
}

static const tfr_value *special(void *ud, struct eval_ctx *c,
                                const struct ast *x, const char *name,
                                size_t len) {
  (void)ud;
  return funcs_table.special(funcs_table.ud, c, x, name, len);
}

const struct eval_funcs *tg_funcs(struct tg_file *f) {
  struct eval_funcs *e = tfr_arena_alloc(f->r->a, sizeof *e);
  e->call = call;
  e->ud = f;
  e->special = special;
  return e;
}

/* dependency.NAME of a config as TerragruntConfigAsCty writes it
** (config_as_cty.go): where it is, its mock outputs. */
static const tfr_value *deps_value(tfr_arena *a, const struct tg_cfg *c) {
  const char **names = tfr_arena_alloc(a, (c->ndeps + 1) * sizeof *names);
  const tfr_value **vals = tfr_arena_alloc(a, (c->ndeps + 1) * sizeof *vals);
  for (size_t i = 0; i < c->ndeps; i++) {
    const struct tg_dep *d = &c->deps[i];
    const tfr_value **cmds =
        tfr_arena_alloc(a, (d->nallowed + 1) * sizeof *cmds);
    for (size_t k = 0; k < d->nallowed; k++)
      cmds[k] = tfr_string(a, d->allowed[k], strlen(d->allowed[k]));
    const char *dn[6] = {"config_path",
                         "mock_outputs",
                         "mock_outputs_allowed_terraform_commands",
                         "name",
                         "outputs",
                         "skip_outputs"};
    const tfr_value *dv[6] = {
        d->config_path ? tfr_string(a, d->config_path, strlen(d->config_path))
                       : tfr_null(a, &tfr_t_string),
        d->mocks ? d->mocks : tfr_null(a, &tfr_t_dynamic),
        tfr_list(a, &tfr_t_string, d->nallowed, cmds),
        tfr_string(a, d->name, strlen(d->name)),
        d->outputs ? d->outputs : tfr_null(a, &tfr_t_dynamic),
        tfr_bool(d->skip_outputs)};
    names[i] = d->name;
    vals[i] = tfr_object(a, 6, dn, dv);
  }
  return tfr_object(a, c->ndeps, names, vals);
}

/* generate.NAME: path, if_exists, contents. */
static const tfr_value *gens_value(tfr_arena *a, const struct tg_cfg *c) {
  const char **names = tfr_arena_alloc(a, (c->ngens + 1) * sizeof *names);
  const tfr_value **vals = tfr_arena_alloc(a, (c->ngens + 1) * sizeof *vals);
  for (size_t i = 0; i < c->ngens; i++) {
    const struct tg_gen *g = &c->gens[i];
    const char *gn[3] = {"contents", "if_exists", "path"};
    const tfr_value *gv[3] = {tfr_string(a, g->contents, strlen(g->contents)),
                              tfr_string(a, g->if_exists, strlen(g->if_exists)),
                              tfr_string(a, g->path, strlen(g->path))};
    names[i] = g->name;
    vals[i] = tfr_object(a, 3, gn, gv);
  }
  return tfr_object(a, c->ngens, names, vals);
}

const tfr_value *tg_cfg_value(tfr_arena *a, const struct tg_cfg *c) {
  size_t no = c->others ? c->others->n : 0;
  const char **names = tfr_arena_alloc(a, (no + 6) * sizeof *names);
  const tfr_value **vals = tfr_arena_alloc(a, (no + 6) * sizeof *vals);
  size_t n = 0;
  for (size_t i = 0; i < no; i++) { /* the attributes of the file first */
    names[n] = c->others->type->names[i];
    vals[n++] = c->others->elems[i];
  }
  const char **in = tfr_arena_alloc(a, (c->ninputs + 1) * sizeof *in);
  const tfr_value **iv = tfr_arena_alloc(a, (c->ninputs + 1) * sizeof *iv);
  for (size_t i = 0; i < c->ninputs; i++) {
    in[i] = c->inputs[i].name;
    iv[i] = c->inputs[i].v;
  }
  const char *sn[1] = {"source"};
  const tfr_value *sv[1] = {c->source
                                ? tfr_string(a, c->source, strlen(c->source))
                                : tfr_null(a, &tfr_t_string)};
  const char *fixed[6] = {"dependency", "generate",     "inputs",
                          "locals",     "remote_state", "terraform"};
  const tfr_value *fv[6] = {
      deps_value(a, c),
      gens_value(a, c),
      tfr_object(a, c->ninputs, in, iv),
      c->locals ? c->locals : tfr_object(a, 0, NULL, NULL),
      c->remote_state ? c->remote_state : tfr_null(a, &tfr_t_dynamic),
      tfr_object(a, 1, sn, sv)};
  for (size_t i = 0; i < 6; i++) {
    size_t k = 0;
    while (k < n && strcmp(names[k], fixed[i]))
      k++;
    names[k] = fixed[i];
    vals[k] = fv[i];
    n += k == n;
  }
  return tfr_object(a, n, names, vals);
}
