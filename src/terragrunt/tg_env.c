/*
** What terragrunt hands to Terraform for a unit, and a resolution seen
** from the unit.  Inputs become TF_VAR_ variables (run.go:721-748): a
** non-null string as it is -- its ${ escaped only when the module parses
** that variable as HCL (run.go:736-738, tf/variables.go:98-101) --
** anything else JSON-encoded with every ${ inside escaped
** (util/jsons.go:26-144), never overriding a variable the environment
** has (run.go:517-521); null inputs go to .terragrunt-null-vars
** .auto.tfvars.json in the working directory (run.go:43, 975-1011);
** extra_arguments of the command put their -var and -var-file options
** (arguments, then required_var_files, then the optional ones that
** exist: run.go:677-712, config.go:1103-1125) before the user's
** (options.go:126-153), and their env_vars into the environment
** (run.go:304-310).
*/
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>
#include <stdio.h>

#include "base/json_out.h"
#include "base/strutil.h"
#include "module/module.h"
#include "module/opts.h"
#include "syntax/source.h"
#include "values/number.h"
#include "terragrunt/tg_int.h"

/* ---- TF_VAR_ values ------------------------------------------------------ */

/* EscapeInterpolationInString (util/jsons.go:13, 142-144): ${ becomes $${,
** an $${ already there stays. */
static void put_escaped(struct sbuf *b, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (i + 2 < n && !memcmp(s + i, "$${", 3)) {
      sbuf_put(b, "$${", 3);
      i += 2;
    } else if (i + 1 < n && !memcmp(s + i, "${", 2)) {
      sbuf_put(b, "$${", 3);
      i++;
    } else {
      sbuf_put(b, s + i, 1);
    }
  }
}

/* A JSON string as terragrunt's json.Marshal writes it (HTML-safe, U+2028
** and U+2029 escaped, \b and \f short); escape: its ${ as $${ first. */
static void put_string(struct sbuf *b, tfr_arena *a, const char *s, size_t n,
                       bool escape) {
  if (!escape || !memchr(s, '$', n)) {
    json_sbuf_string_go(b, s, n);
    return;
  }
  struct sbuf t = {0};
  t.arena = a;
  put_escaped(&t, s, n);
  json_sbuf_string_go(b, t.p, t.n);
}

static void put_json(struct sbuf *b, tfr_arena *a, const tfr_value *v,
                     bool escape) {
  if (v->flags & TFR_V_NULL) {
    sbuf_str(b, "null");
    return;
  }
  switch (v->type->kind) {
  case TFR_STRING:
    put_string(b, a, v->s, v->n, escape);
    return;
  case TFR_NUMBER:
    sbuf_str(b, num_format(a, v->num));
    return;
  case TFR_BOOL:
    sbuf_str(b, v->b ? "true" : "false");
    return;
  case TFR_OBJECT:
  case TFR_MAP:
    sbuf_str(b, "{");
    for (uint32_t i = 0; i < v->n; i++) {
      const char *k = v->type->kind == TFR_OBJECT ? v->type->names[i] : NULL;
      if (i)
        sbuf_str(b, ",");
      /* keys: JSON escapes only */
      put_string(b, a, k ? k : v->keys[i], k ? strlen(k) : v->keylens[i],
                 false);
      sbuf_str(b, ":");
      put_json(b, a, v->elems[i], escape);
    }
    sbuf_str(b, "}");
    return;
  default: /* list, set, tuple */
    sbuf_str(b, "[");
    for (uint32_t i = 0; i < v->n; i++) {
      if (i)
        sbuf_str(b, ",");
      put_json(b, a, v->elems[i], escape);
    }
    sbuf_str(b, "]");
  }
}

const char *tg_json(tfr_arena *a, const tfr_value *v, bool escape) {
  struct sbuf b = {0};
  b.arena = a;
  put_json(&b, a, v, escape);
  return b.p ? b.p : "";
}

const char *tg_env_value(tfr_arena *a, const tfr_value *v, bool hcl_mode) {
  struct sbuf b = {0};
  b.arena = a;
  v = tfr_value_unmark(a, v, TFR_V_SENSITIVE | TFR_V_EPHEMERAL, NULL);
  if (v->type->kind == TFR_STRING && !(v->flags & TFR_V_NULL)) {
    if (!hcl_mode)
      return tfr_arena_strndup(a, v->s, v->n);
    put_escaped(&b, v->s, v->n);
  } else {
    put_json(&b, a, v, true);
  }
  return b.p ? b.p : "";
}

/* ---- the unit ------------------------------------------------------------ */

static bool exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

/* A source go-getter reads from disk (a path, not an address). */
static bool local_source(const char *s) {
  return s[0] == '/' || !strncmp(s, "./", 2) || !strncmp(s, "../", 3) ||
         !strcmp(s, ".") || !strcmp(s, "..");
}

/* source's part after "//" (getter.SourceDirSubdir), without a query. */
static const char *subdir_of(tfr_arena *a, const char *s, size_t *root) {
  const char *p = strstr(s, "://") ? strstr(s, "://") + 3 : s;
  const char *d = strstr(p, "//");
  *root = d ? (size_t)(d - s) : strlen(s);
  if (!d)
    return "";
  const char *sub = d + 2, *q = strchr(sub, '?');
  return q ? tfr_arena_strndup(a, sub, (size_t)(q - sub))
           : tfr_arena_strdup(a, sub);
}

/* The module directory of a remote source downloaded under the unit's
** .terragrunt-cache/HASH/HASH/ (terragrunt's download dir), or NULL. */
static const char *cached_module(tfr_arena *a, const char *unit_dir,
                                 const char *sub) {
  const char *cache = tfr_arena_printf(a, "%s/.terragrunt-cache", unit_dir);
  DIR *d1 = opendir(cache);
  const char *found = NULL;
  struct dirent *e1;
  while (d1 && !found && (e1 = readdir(d1))) {
    if (e1->d_name[0] == '.')
      continue;
    const char *p1 = tfr_arena_printf(a, "%s/%s", cache, e1->d_name);
    DIR *d2 = opendir(p1);
    struct dirent *e2;
    while (d2 && !found && (e2 = readdir(d2))) {
      const char *m =
          tfr_arena_printf(a, "%s/%s/%s", p1, e2->d_name, *sub ? sub : ".");
      if (e2->d_name[0] != '.' && exists(m))
        found = tg_join(a, m, ".");
    }
    if (d2)
      closedir(d2);
  }
  if (d1)
    closedir(d1);
  return found;
}

/* The module directory (absolute; NULL: not checked, why in u). */
static const char *set_module(struct tg_run *r, struct tfr_unit *u,
                              const struct tg_cfg *c, const char *unit_dir) {
  if (!c->source) {
    const char *real = tg_real(r, unit_dir);
    u->module_dir = tg_show_path(r, real);
    return real;
  }
  size_t root;
  const char *sub = subdir_of(r->a, c->source, &root);
  const char *base = tfr_arena_strndup(r->a, c->source, root);
  if (local_source(c->source)) {
    const char *d = tg_real(
        r, tg_join(r->a, tg_join(r->a, unit_dir, base), *sub ? sub : "."));
    if (exists(d)) {
      u->module_dir = tg_show_path(r, d);
      return d;
    }
    u->not_checked = tfr_arena_printf(
        r->a, "its source %s is a directory that does not exist",
        tg_show_path(r, d));
    return NULL;
  }
  const char *d = cached_module(r->a, unit_dir, sub);
  if (d) {
    u->module_dir = tg_show_path(r, d);
    return d;
  }
  u->not_checked = tfr_arena_printf(
      r->a,
      "its source %s is not downloaded: run \"terragrunt init\" (no "
      ".terragrunt-cache)",
      c->source);
  return NULL;
}

/* The module's variables its TF_VAR_ values are parsed as HCL for: a
** `type` other than string (tf/variables.go:98-101); read only when an
** input holds "${" (run.go:757-770). */
static bool hcl_mode(struct tg_run *r, struct module **m, bool *loaded,
                     const char *dir, const char *name) {
  if (!dir)
    return false;
  if (!*loaded) {
    *loaded = true;
    *m = module_load(r->a, tfr_diags_new(r->a), dir, false, false, NULL);
  }
  for (size_t i = 0; *m && i < (*m)->nvars; i++)
    if (!strcmp((*m)->vars[i].name, name))
      return (*m)->vars[i].typed && (*m)->vars[i].type->kind != TFR_STRING;
  return false;
}

static bool has_dollar_brace(const char *s, size_t n) {
  for (size_t i = 0; i + 1 < n; i++)
    if (s[i] == '$' && s[i + 1] == '{')
      return true;
  return false;
}

static bool has_interp(const tfr_value *v) {
  return v->type->kind == TFR_STRING && !(v->flags & TFR_V_NULL) && v->n > 1 &&
         has_dollar_brace(v->s, v->n);
}

/* Whether terragrunt's escaping walk reaches a value below depth 100
** (util/jsons.go:57-66: the value itself is depth 0). */
static bool too_deep(const tfr_value *v, int depth) {
  if (depth > 100)
    return true;
  unsigned k = v->type->kind;
  if ((v->flags & (TFR_V_NULL | TFR_V_UNKNOWN)) ||
      (k != TFR_OBJECT && k != TFR_MAP && k != TFR_LIST && k != TFR_TUPLE &&
       k != TFR_SET))
    return false;
  for (uint32_t i = 0; i < v->n; i++)
    if (too_deep(v->elems[i], depth + 1))
      return true;
  return false;
}

static bool env_has(char **env, size_t n, const char *name, size_t len) {
  for (size_t i = 0; i < n; i++)
    if (!strncmp(env[i], name, len) && env[i][len] == '=')
      return true;
  return false;
}

static bool for_command(const struct tg_extra *e, const char *cmd) {
  for (size_t i = 0; i < e->ncmds; i++)
    if (!strcmp(e->cmds[i], cmd))
      return true;
  return false;
}

/* The environment: the given one, the env_vars of the command's
** extra_arguments over it, then the inputs' TF_VAR_ where not set. */
static void build_env(struct tg_run *r, struct tfr_unit *u,
                      const struct tg_cfg *c, struct tfr_unit_input *in) {
  size_t n = 0, cap = c->ninputs + 1;
  for (char *const *e = r->env; e && *e; e++)
    cap++;
  for (size_t i = 0; i < c->nextra; i++)
    cap += c->extra[i].nenv;
  char **env = tfr_arena_alloc(r->a, (cap + 1) * sizeof *env);
  const char **why = tfr_arena_alloc(r->a, (cap + 1) * sizeof *why);
  for (char *const *e = r->env; e && *e; e++)
    env[n++] = *e;
  for (size_t i = 0; i < c->nextra; i++) {
    if (!for_command(&c->extra[i], r->command))
      continue;
    for (size_t k = 0; k < c->extra[i].nenv; k++) {
      const char *kv = c->extra[i].env[k];
      size_t len = (size_t)(strchr(kv, '=') - kv), j = 0;
      while (j < n && !(strncmp(env[j], kv, len) == 0 && env[j][len] == '='))
        j++;
      env[j] = tfr_arena_strdup(r->a, kv);
      why[j] = tfr_arena_printf(
          r->a, "extra_arguments \"%s\" env_vars at %s:%d", c->extra[i].name,
          c->extra[i].file, c->extra[i].line);
      n += j == n;
    }
  }
  struct module *m = NULL;
  bool loaded = false;
  for (size_t i = 0; i < u->ninputs; i++) {
    struct tfr_unit_input *p = &in[i];
    if (p->unknown || (p->value->flags & TFR_V_NULL))
      continue;
    const char *name = tfr_arena_printf(r->a, "TF_VAR_%s", p->name);
    if (env_has(env, n, name, strlen(name)))
      continue;                  /* run.go:517-521 */
    if (too_deep(p->value, 0)) { /* util/jsons.go:57-66 */
      tfr_diags_add(r->d, TFR_DIAG_ERROR, &p->range, "Input too deeply nested",
                    "escapeInterpolationPatternsInValue: input exceeds "
                    "maximum nesting depth of 100");
      tfr_diags_set_ours(r->d);
      continue;
    }
    bool hcl = has_interp(p->value) &&
               hcl_mode(r, &m, &loaded, u->module_dir, p->name);
    p->env_value = tg_env_value(r->a, p->value, hcl);
    env[n++] = tfr_arena_printf(r->a, "%s=%s", name, p->env_value);
  }
  u->env = env;
  u->env_why = why;
}

static void add_arg(struct tg_run *r, struct tfr_cli_arg *v, size_t *n,
                    bool file, const char *value, const struct tg_extra *e) {
  v[*n].file = file;
  v[*n].value = value;
  v[*n].via = tfr_arena_printf(r->a, "extra_arguments \"%s\" at %s:%d", e->name,
                               e->file, e->line);
  (*n)++;
}

/* A var file as Terraform, in terragrunt's directory, finds it. */
static const char *var_file(struct tg_run *r, const char *f) {
  return tg_show_path(r,
                      tg_real(r, tg_join(r->a, tg_dirname(r->a, r->unit), f)));
}

static void build_args(struct tg_run *r, struct tfr_unit *u,
                       const struct tg_cfg *c) {
  size_t cap = 1;
  for (size_t i = 0; i < c->nextra; i++)
    cap += c->extra[i].nargs + c->extra[i].nreq + c->extra[i].nopt;
  struct tfr_cli_arg *v = tfr_arena_alloc(r->a, cap * sizeof *v);
  size_t n = 0;
  for (size_t i = 0; i < c->nextra; i++) {
    const struct tg_extra *e = &c->extra[i];
    if (!for_command(e, r->command))
      continue;
    for (size_t k = 0; k < e->nargs; k++) {
      const char *s = e->args[k];
      bool two = k + 1 < e->nargs;
      if (!strncmp(s, "-var=", 5))
        add_arg(r, v, &n, false, s + 5, e);
      else if (!strncmp(s, "-var-file=", 10))
        add_arg(r, v, &n, true, var_file(r, s + 10), e);
      else if (!strcmp(s, "-var") && two)
        add_arg(r, v, &n, false, e->args[++k], e);
      else if (!strcmp(s, "-var-file") && two)
        add_arg(r, v, &n, true, var_file(r, e->args[++k]), e);
    }
    for (size_t k = 0; k < e->nreq; k++)
      add_arg(r, v, &n, true, var_file(r, e->req[k]), e);
    for (size_t k = 0; k < e->nopt; k++)
      if (tg_exists(r, tg_join(r->a, tg_dirname(r->a, r->unit), e->opt[k])))
        add_arg(r, v, &n, true, var_file(r, e->opt[k]), e);
  }
  u->args = v;
  u->nargs = n;
}

/* A file terragrunt puts in the working directory, and why (in words);
** a later one of the same path replaces it, as a later write does. */
static void add_overlay(struct tg_run *r, struct tfr_unit *u, const char *path,
                        const char *text, size_t len, const char *why,
                        const char *copy_of) {
  size_t i = 0;
  while (i < u->noverlays && strcmp(u->overlays[i].path, path))
    i++;
  size_t n = u->noverlays + 1;
  struct tfr_overlay *o = tfr_arena_alloc(r->a, n * sizeof *o);
  const char **w = tfr_arena_alloc(r->a, n * sizeof *w);
  const char **c = tfr_arena_alloc(r->a, n * sizeof *c);
  if (u->noverlays) { /* (NULL arrays when empty) */
    memcpy(o, u->overlays, u->noverlays * sizeof *o);
    memcpy(w, u->overlay_why, u->noverlays * sizeof *w);
    memcpy(c, u->overlay_copy_of, u->noverlays * sizeof *c);
  }
  o[i].path = path;
  o[i].text = text;
  o[i].len = len;
  w[i] = why;
  c[i] = copy_of;
  u->overlays = o;
  u->overlay_why = w;
  u->overlay_copy_of = c;
  u->noverlays += i == u->noverlays;
}

/* A file of the unit's directory Terraform reads: configuration and
** variables files. */
static bool tf_file(const char *n) {
  static const char *const ext[] = {".tf",        ".tf.json", ".tofu",
                                    ".tofu.json", ".tfvars",  ".tfvars.json"};
  size_t len = strlen(n);
  for (size_t i = 0; i < sizeof ext / sizeof *ext; i++) {
    size_t k = strlen(ext[i]);
    if (len > k && !strcmp(n + len - k, ext[i]))
      return true;
  }
  return false;
}

/* A unit with a source of its own: terragrunt copies the unit's files,
** hidden ones aside, over the module in its working directory
** (download_source.go:105-147, util/file.go:1102-1115). */
static void copy_unit_files(struct tg_run *r, struct tfr_unit *u,
                            const char *unit_dir, const char *dir) {
  if (!strcmp(unit_dir, dir))
    return;
  DIR *d = opendir(unit_dir);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    if (e->d_name[0] == '.' || !tf_file(e->d_name))
      continue;
    const char *from = tfr_arena_printf(r->a, "%s/%s", unit_dir, e->d_name);
    int err = 0;
    struct src_file *s = src_read_private(r->a, NULL, from, &err);
    if (!s)
      continue;
    add_overlay(r, u, tg_show_path(r, tg_join(r->a, dir, e->d_name)), s->text,
                s->len,
                tfr_arena_printf(r->a, "copied by terragrunt from %s",
                                 tg_show_path(r, from)),
                tg_show_path(r, from));
  }
  if (d)
    closedir(d);
}

/* Whether a file's first line ends with terragrunt's signature
** (codegen/generate.go:30, 370-385). */
static bool generated(const char *path) {
  FILE *fp = fopen(path, "r");
  char line[512] = "";
  if (!fp)
    return false;
  if (!fgets(line, sizeof line, fp))
    line[0] = 0;
  fclose(fp);
  size_t n = strlen(line);
  while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' ||
               line[n - 1] == ' ' || line[n - 1] == '\t'))
    line[--n] = 0;
  static const char sig[] = "Generated by Terragrunt. Sig: nIlQXj57tbuaRZEa";
  return n >= sizeof sig - 1 && !strcmp(line + n - (sizeof sig - 1), sig);
}

/* generate blocks, in memory (codegen/generate.go:121-200, 250-300): the
** file in the working directory, with the signature line first; one
** that exists already is kept (skip), replaced (overwrite; and
** overwrite_terragrunt when terragrunt wrote it) or an error. */
static bool generate(struct tg_run *r, struct tfr_unit *u,
                     const struct tg_cfg *c, const char *dir) {
  for (size_t i = 0; i < c->ngens; i++) {
    const struct tg_gen *g = &c->gens[i];
    if (g->disable)
      continue;
    const char *target = tg_join(r->a, dir, g->path);
    if (exists(target)) {
      const char *ie = g->if_exists;
      if (!strcmp(ie, "skip"))
        continue;
      if (!strcmp(ie, "error") ||
          (!strcmp(ie, "overwrite_terragrunt") && !generated(target))) {
        tfr_diags_add(r->d, TFR_DIAG_ERROR, &g->at, "Cannot generate file",
                      tfr_arena_printf(r->a,
                                       "Can not generate terraform file: %s "
                                       "already exists",
                                       tg_show_path(r, target)));
        tfr_diags_set_ours(r->d);
        return false;
      }
    }
    const char *text = g->disable_signature
                           ? g->contents
                           : tfr_arena_printf(r->a,
                                              "%sGenerated by Terragrunt. Sig: "
                                              "nIlQXj57tbuaRZEa\n%s",
                                              g->comment_prefix, g->contents);
    add_overlay(r, u, tg_show_path(r, target), text, strlen(text),
                tfr_arena_printf(r->a, "generate \"%s\" at %s:%d", g->name,
                                 g->at.filename, g->at.start.line),
                NULL);
  }
  return true;
}

/* The null inputs' file as json.MarshalIndent writes it (run.go:975-1011). */
static void null_file(struct tg_run *r, struct tfr_unit *u,
                      const struct tfr_unit_input *in) {
  struct sbuf b = {0};
  b.arena = r->a;
  size_t k = 0;
  for (size_t i = 0; i < u->ninputs; i++) {
    if (in[i].unknown || !(in[i].value->flags & TFR_V_NULL))
      continue;
    sbuf_str(&b, k++ ? ",\n  " : "{\n  ");
    json_sbuf_string_go(&b, in[i].name, strlen(in[i].name));
    sbuf_str(&b, ": null");
  }
  if (!k || !u->module_dir)
    return;
  sbuf_str(&b, "\n}");
  static const char name[] = ".terragrunt-null-vars.auto.tfvars.json";
  add_overlay(r, u,
              strcmp(u->module_dir, ".")
                  ? tfr_arena_printf(r->a, "%s/%s", u->module_dir, name)
                  : name,
              b.p, b.n, NULL, NULL);
}

static int by_name(const void *x, const void *y) {
  return strcmp(((const struct tfr_unit_input *)x)->name,
                ((const struct tfr_unit_input *)y)->name);
}

static const char *unit_path(tfr_arena *a, const char *cwd, const char *p) {
  const char *abs = tg_join(a, cwd, p);
  struct stat st;
  if (stat(abs, &st) == 0 && S_ISDIR(st.st_mode)) {
    const char *hcl = tfr_arena_printf(a, "%s/terragrunt.hcl", abs);
    const char *json = tfr_arena_printf(a, "%s.json", hcl);
    abs = stat(hcl, &st) != 0 && stat(json, &st) == 0 ? json : hcl;
  }
  return abs;
}

/* A unit that does not exist yet: the one a terragrunt.stack.hcl above it
** generates there (tg_stack.c); else its values.* from its
** terragrunt.values.hcl.  False after an error. */
static bool stack_unit(struct tg_run *r) {
  struct stat st;
  if (stat(r->unit, &st) == 0) {
    r->values = tg_read_values(r, tg_dirname(r->a, r->unit));
    return true;
  }
  const char *dir = r->unit, *base = strrchr(dir, '/') + 1;
  if (!strcmp(base, "terragrunt.hcl") || !strcmp(base, "terragrunt.hcl.json"))
    dir = tg_dirname(r->a, dir);
  if (stat(tfr_arena_printf(r->a, "%s/terragrunt.stack.hcl", dir), &st) == 0) {
    size_t n = 0;
    if (tfr_stack_units(r->a, r->d, dir, r->env, &n)) {
      tfr_diags_add(r->d, TFR_DIAG_ERROR, NULL, "Not a unit",
                    tfr_arena_printf(r->a,
                                     "%s holds terragrunt.stack.hcl and no "
                                     "terragrunt.hcl: a stack, whose %zu "
                                     "units are the directories it "
                                     "generates; \"tfresolve check %s\" "
                                     "checks each of them.",
                                     tg_show_path(r, dir), n,
                                     tg_show_path(r, dir)));
      tfr_diags_set_ours(r->d);
    }
    return false;
  }
  size_t before = tfr_diags_count(r->d);
  if (!tg_stack_unit(r, dir)) {
    for (size_t i = before; i < tfr_diags_count(r->d); i++)
      if (tfr_diags_get(r->d, i)->sev == TFR_DIAG_ERROR)
        return false;
    return true; /* not a generated unit: read as it is */
  }
  if (dir != r->unit)
    return true;
  const char *hcl = tfr_arena_printf(r->a, "%s/terragrunt.hcl", dir);
  r->unit =
      !tg_exists(r, hcl) && tg_exists(r, tfr_arena_printf(r->a, "%s.json", hcl))
          ? tfr_arena_printf(r->a, "%s.json", hcl)
          : hcl;
  return true;
}

const struct tfr_unit *tfr_unit_read(tfr_arena *a, tfr_diags *diags,
                                     const struct tfr_unit_opts *o) {
  struct tfr_unit_opts opts = {0};
  if (!opts_read(a, diags, &opts, sizeof opts, o, o ? o->size : 0,
                 STRUCT_END(struct tfr_unit_opts, command), "tfr_unit_opts",
                 "TFR_UNIT_OPTS_INIT"))
    return NULL;
  char buf[4096];
  struct tg_run *r = tfr_arena_alloc(a, sizeof *r);
  r->a = a;
  r->d = diags;
  r->env = opts.env;
  r->command = opts.command ? opts.command : "plan";
  r->cwd = tfr_arena_strdup(a, getcwd(buf, sizeof buf) ? buf : "/");
  r->unit = unit_path(a, r->cwd, opts.path ? opts.path : ".");
  if (!stack_unit(r))
    return NULL;
  struct tg_cfg *c = tg_read_file(r, r->unit, r->unit, NULL);
  if (!c)
    return NULL;
  struct tfr_unit *u = tfr_arena_alloc(a, sizeof *u);
  u->config = tg_show_path(r, r->unit);
  const char *dir = set_module(r, u, c, tg_dirname(a, r->unit));
  if (dir)
    copy_unit_files(r, u, tg_real(r, tg_dirname(a, r->unit)), dir);
  if (dir && !generate(r, u, c, dir))
    return NULL;
  struct tfr_unit_input *in = tfr_arena_alloc(a, (c->ninputs + 1) * sizeof *in);
  for (size_t i = 0; i < c->ninputs; i++) {
    in[i].name = c->inputs[i].name;
    in[i].value = c->inputs[i].v;
    in[i].range = c->inputs[i].at;
    in[i].chain = c->inputs[i].chain;
    in[i].unknown = !tfr_value_is_wholly_known(c->inputs[i].v);
  }
  qsort(in, c->ninputs, sizeof *in, by_name);
  u->inputs = in;
  u->ninputs = c->ninputs;
  const char **unk = tfr_arena_alloc(a, (c->ninputs + 1) * sizeof *unk);
  for (size_t i = 0; i < c->ninputs; i++)
    if (in[i].unknown)
      unk[u->nunknown++] = in[i].name;
  u->unknown = unk;
  build_env(r, u, c, in);
  build_args(r, u, c);
  null_file(r, u, in);
  return u;
}

const struct tfr_unit_input *tfr_unit_input_at(const struct tfr_unit *unit,
                                               size_t i) {
  return unit && i < unit->ninputs ? &unit->inputs[i] : NULL;
}
