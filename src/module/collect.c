/*
** Stage 2: collecting a module's raw values from every source in
** precedence order (TF_VAR_, terraform.tfvars, *.auto.tfvars, then -var
** and -var-file as given), each with where it came from; resolve.c
** parses and chooses them.
*/
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <strings.h>
#include <sys/stat.h>

#include "base/dirlist.h"
#include "module/engine_tofu.h"
#include "module/module.h"
#include "syntax/body.h"
#include "module/fastval.h"
#include "syntax/parse.h"
#include "base/strutil.h"
#include "module/varfile_secrets.h"
#include "base/heap.h"

/* ---- collecting raw values --------------------------------------------- */

struct collector {
  struct module *m;
  tfr_arena *a;
  tfr_diags *diags;
  size_t cap;
  bool fast;                    /* read tfvars values with fastval.c */
  const struct fv_plan **plans; /* per type_id, made when first needed */
  bool *planned;
  const char *via;           /* the tfr_cli_arg being read: its via */
  const struct overlays *ov; /* an editor's open files, or NULL */
};

/* Room for n more raw values. */
static void reserve_raws(struct collector *c, size_t n) {
  struct module *m = c->m;
  if (m->nraws + n <= c->cap)
    return;
  c->cap = c->cap ? c->cap * 2 : 32;
  if (c->cap < m->nraws + n)
    c->cap = m->nraws + n;
  /* malloc'd while collecting, freed with the arena (module_collect): a
  ** large array grows where it is (the system moves its pages), touching
  ** no memory twice */
  m->raws = heap_realloc(m->raws, c->cap * sizeof *m->raws);
}

static struct raw_value *add_raw(struct collector *c) {
  struct module *m = c->m;
  reserve_raws(c, 1);
  struct raw_value *r = &m->raws[m->nraws++];
  memset(r, 0, sizeof *r);
  r->via = c->via;
  return r;
}

static void file_error(struct collector *c, struct src_file *src, struct span s,
                       const char *summary, const char *detail,
                       const char *var) {
  struct tfr_range r = src_range(src, s);
  tfr_diags_add(c->diags, TFR_DIAG_ERROR, &r, summary, detail);
  if (var)
    tfr_diags_set_variable(c->diags, var);
}

/* A block in a tfvars file: an error (Terraform's, for a variable
** declaration). */
static void block_error(struct collector *c, struct src_file *src,
                        const struct body_item *it, const char *file) {
  if (!body_item_is(it, "variable")) {
    file_error(c, src, it->name_span,
               tfr_arena_printf(c->a, "Unexpected \"%.*s\" block", (int)it->len,
                                it->name),
               "Blocks are not allowed here.", NULL);
    return;
  }
  const struct ast *labels = it->labels;
  const char *name = labels->n ? tfr_arena_strndup(c->a, labels->items[0]->str,
                                                   labels->items[0]->n)
                               : "";
  file_error(
      c, src, it->name_span, "Variable declaration in .tfvars file",
      tfr_arena_printf(c->a,
                       "A .tfvars file is used to assign values to variables "
                       "that have already been declared in .tf files, not to "
                       "declare new variables. To declare variable \"%s\", "
                       "place this block in one of your .tf files, such as "
                       "variables.tf.\n\nTo set a value for this variable in "
                       "%s, use the definition syntax instead:\n    %s = "
                       "<value>",
                       name, file, name),
      name);
}

/* A JSON property set again: an error at its key, pointing at the first
** (its name through its value, as hcl's JSON attribute range goes). */
static void repeated_error(struct collector *c, struct src_file *src,
                           const struct body_item *it,
                           const struct body_item *prev) {
  struct tfr_range pr = src_range(src, prev->span);
  char where[512];
  tfr_range_format(&pr, where, sizeof where);
  file_error(c, src, it->name_span, "Duplicate attribute definition",
             tfr_arena_printf(c->a,
                              "The argument \"%.*s\" was already set at %s.",
                              (int)it->len, it->name, where),
             NULL);
}

/* The values a tfvars file sets: the attributes of its body (native) or
** the properties of its object (JSON).  A block (native) or a property
** set twice (JSON; the native parser reports those itself) is an error,
** and then the file sets nothing. */
static void file_values(struct collector *c, struct ast_file *f,
                        enum tfr_source_kind kind, const char *file) {
  if (f->json && f->body->kind != AST_OBJECT) { /* at its first character */
    file_error(c, f->src, ast_json_start(f->body), "Incorrect JSON value type",
               "A JSON object is required here, setting the arguments for "
               "this block.",
               NULL);
    return;
  }
  struct body_iter it = body_start(f->body, f->json, NULL);
  struct body_item x;
  bool bad = false;
  while (body_next(&it, &x))
    if (x.is_block) {
      block_error(c, f->src, &x, file);
      bad = true;
    }
  if (f->json) {
    size_t n;
    struct body_item *items;
    const size_t *first = body_first_defs(c->a, f->body, &items, &n);
    for (size_t i = 0; i < n; i++)
      if (first[i] != i) {
        repeated_error(c, f->src, &items[i], &items[first[i]]);
        bad = true;
      }
  }
  it = body_start(f->body, f->json, NULL);
  while (!bad && body_next(&it, &x)) {
    struct raw_value *r = add_raw(c);
    r->name = tfr_arena_strndup(c->a, x.name, x.len);
    r->kind = kind;
    r->file = file;
    r->expr = x.value;
    r->src = f->src;
    r->span = r->expr->span;
    r->line = src_pos(f->src, r->span.start).line;
  }
}

/* fastval.c's plan for a value of the named variable. */
static const struct fv_plan *plan_for(void *ctx, const char *name, size_t len,
                                      long *tag) {
  struct collector *c = ctx;
  long k = module_var_index(c->m, name, len); /* (reads no declaration) */
  *tag = -1;
  if (k < 0)
    return NULL;
  *tag = k + 1;
  if (!c->plans) {
    c->plans = tfr_arena_alloc(c->a, c->m->ntypes * sizeof *c->plans);
    c->planned = tfr_arena_alloc(c->a, c->m->ntypes * sizeof *c->planned);
  }
  uint32_t t = c->m->var_type[k]; /* one plan per type */
  if (!c->planned[t]) {
    const struct var_decl *v = &c->m->vars[k];
    c->planned[t] = true;
    c->plans[t] = fv_plan_new(c->a, v->type, v->defaults);
  }
  return c->plans[t];
}

/* A native tfvars file read by fastval.c, no AST made; false when it
** needs the grammar. */
static bool fast_values(struct collector *c, struct src_file *src,
                        enum tfr_source_kind kind, const char *file,
                        bool json) {
  struct fv_attr *at;
  size_t n;
  if (!(json ? fv_read_json_body : fv_read_body)(c->a, src, plan_for, c, &at,
                                                 &n))
    return false;
  struct lazy_file *lf = tfr_arena_alloc(c->a, sizeof *lf);
  lf->first = c->m->nraws;
  lf->n = n;
  lf->json = json;
  reserve_raws(c, n);
  for (size_t i = 0; i < n; i++) {
    struct raw_value *r = add_raw(c);
    r->name = at[i].tag > 0
                  ? c->m->name_pool +
                        c->m->name_at[at[i].tag - 1] /* the same bytes */
                  : tfr_arena_strndup(c->a, src->text + at[i].name.start,
                                      at[i].name.end - at[i].name.start);
    r->kind = kind;
    r->file = file;
    r->src = src;
    r->span = at[i].expr;
    r->line = at[i].line;
    r->lazy = lf;
    r->fast = at[i].value;
    r->fast_dropped = at[i].dropped;
    r->var = at[i].tag;
  }
  free(at);
  return true;
}

struct tfr_range raw_range(const struct raw_value *raw) {
  return src_range(raw->src, raw->span);
}

/* Where a file value's name is: `name = value` (native) or `"name":
** value` (JSON), found back from the value; the value's range when the
** text before it is neither. */
struct tfr_range raw_name_range(const struct raw_value *raw) {
  const char *t = raw->src->text;
  size_t i = raw->span.start;
  while (i && strchr(" \t", t[i - 1]))
    i--;
  if (!i || (t[i - 1] != '=' && t[i - 1] != ':'))
    return raw_range(raw);
  i--;
  while (i && strchr(" \t", t[i - 1]))
    i--;
  size_t end = i;
  if (i && t[i - 1] == '"') { /* a quoted name: back to its opening quote */
    i--;
    while (i && !(t[i - 1] == '"' && (i < 2 || t[i - 2] != '\\')))
      i--;
    if (!i)
      return raw_range(raw);
    i--;
  } else {
    while (i && (isalnum((unsigned char)t[i - 1]) || t[i - 1] == '_' ||
                 t[i - 1] == '-' || (unsigned char)t[i - 1] >= 0x80))
      i--;
  }
  if (i == end)
    return raw_range(raw);
  return src_range(raw->src, (struct span){(uint32_t)i, (uint32_t)end});
}

const struct ast *module_raw_expr(struct module *m, tfr_arena *a,
                                  tfr_diags *diags,
                                  const struct raw_value *raw) {
  struct lazy_file *lf = raw->lazy;
  if (raw->expr || !lf || lf->parsed)
    return raw->expr;
  lf->parsed = true;
  tfr_file *f = parse_opened(a, diags, raw->src,
                             lf->json ? TFR_SYNTAX_JSON : TFR_SYNTAX_HCL);
  const struct ast *body = f ? f->f.body : NULL;
  if (!body || body->n != lf->n || (lf->json && body->kind != AST_OBJECT))
    return NULL; /* cannot be: fastval.c read it */
  for (size_t i = 0; i < lf->n; i++)
    m->raws[lf->first + i].expr =
        lf->json ? body->items[2 * i + 1] : body->items[i]->kids[0];
  return raw->expr;
}

/* A variables file that cannot be read, in Terraform's words: Go's error
** for the open, or for a read (a directory; a stream past what a text may
** hold, 4 GiB), after the name. */
static void unreadable(struct collector *c, const char *path, const char *shown,
                       int err) {
  const char *why, *what = src_read_problem(err);
  if (err == SRC_NOT_REGULAR) {
    why = tfr_arena_printf(c->a, "it is %s", what);
  } else if (what) {
    why = tfr_arena_printf(c->a, "read %s: %s", shown, what);
  } else {
    char *e = tfr_arena_strdup(c->a, strerror(err));
    if (e[0] && e[1] && !isupper((unsigned char)e[1]))
      e[0] = (char)tolower((unsigned char)e[0]); /* Go's errno texts */
    bool on_read = err == EISDIR || err == EFBIG || err == EIO;
    why = tfr_arena_printf(c->a, "%s %s: %s", on_read ? "read" : "open", shown,
                           e);
  }
  tfr_diags_add(
      c->diags, TFR_DIAG_ERROR, NULL, "Failed to read variables file",
      err == ENOENT
          ? tfr_arena_printf(c->a,
                             "Given variables file %s does not "
                             "exist.",
                             shown)
          : tfr_arena_printf(c->a, "Error while reading %s: %s.", shown, why));
  tfr_diags_set_code(c->diags, TFR_CODE_VAR_FILE_UNREADABLE);
  /* ours, after Terraform's words: a name that is there, as a broken link */
  char target[1024];
  ssize_t n;
  if (err == ENOENT && (n = readlink(path, target, sizeof target - 1)) >= 0) {
    target[n] = '\0';
    tfr_diags_set_note(
        c->diags,
        tfr_arena_printf(c->a,
                         "%s is a symbolic link to %s, which does not exist "
                         "(a broken link).",
                         shown, target));
  }
}

/* OpenTofu's guess for a variables file named neither .json nor .tfvars
** (-var-file=<(./vars.sh)): JSON if it starts with "{", after Go's
** spaces. */
static bool looks_like_json(const struct src_file *src) {
  const char *p = src->text;
  size_t n = src->len;
  str_go_trim_space(&p, &n);
  return n && *p == '{';
}

/* A variables file: .json suffix → JSON, anything else → native syntax
** (with OpenTofu's rules, see looks_like_json).
** With content, those bytes are the file named path (nothing is read). */
static void values_file(struct collector *c, const char *path,
                        const char *shown, enum tfr_source_kind kind,
                        const char *content, size_t content_len) {
  size_t before = tfr_diags_count(c->diags);
  bool json = str_ends_with(path, ".json");
  int err = 0;
  struct src_file *src =
      content ? parse_open(c->a, c->diags, NULL, path, content, content_len)
              : parse_open_quiet(c->a, c->diags, c->ov, path,
                                 kind == TFR_SRC_NAMED_FILE, &err);
  if (!src && err)
    unreadable(c, path, shown, err);
  if (!src || tfr_diags_count(c->diags) > before) {
    varfile_hide_secrets(c->m, c->diags, before, src, json);
    return;
  }
  if (!json && engine_rules(c->m->opentofu)->sniff_json_var_files &&
      !str_ends_with(path, ".tfvars"))
    json = looks_like_json(src);
  if (c->fast && fast_values(c, src, kind, shown, json))
    return;
  tfr_file *f = parse_opened(c->a, c->diags, src,
                             json ? TFR_SYNTAX_JSON : TFR_SYNTAX_HCL);
  if (f && tfr_diags_count(c->diags) == before)
    file_values(c, &f->f, kind, shown);
  /* a line that may hold a secret is not quoted */
  varfile_hide_secrets(c->m, c->diags, before, src, json);
}

/* A file of the module directory, named as the user will see it: bare
** when the module is the working directory, as Terraform names it. */
static const char *in_dir(struct collector *c, const char *name) {
  if (!strcmp(c->m->dir, "."))
    return name;
  return tfr_arena_printf(c->a, "%s/%s", c->m->dir, name);
}

/* Whether name is an editor's lock, backup or swap file: Emacs's .#NAME
** (a lock, often a dangling symbolic link) and #NAME#, NAME~, Vim's
** .NAME.swp and .NAME.swo (and NAME.swp). */
static bool editor_file(const char *name) {
  size_t n = strlen(name);
  return !strncmp(name, ".#", 2) ||
         (n > 1 && name[0] == '#' && name[n - 1] == '#') ||
         (n && name[n - 1] == '~') || str_ends_with(name, ".swp") ||
         (name[0] == '.' && str_ends_with(name, ".swo"));
}

/* dir_list's keep: *.auto.tfvars and *.auto.tfvars.json (*ctx true: not
** an editor's file). */
static bool auto_name(const char *dir, const char *name, void *ctx) {
  (void)dir;
  if (*(const bool *)ctx && editor_file(name))
    return false;
  return str_ends_with(name, ".auto.tfvars") ||
         str_ends_with(name, ".auto.tfvars.json");
}

/* *.auto.tfvars and *.auto.tfvars.json, in byte order of their names. */
static void auto_files(struct collector *c, bool skip_editor_files) {
  size_t n = 0;
  const char **names =
      dir_list(c->a, c->m->dir, auto_name, &skip_editor_files, c->ov, &n);
  for (size_t i = 0; i < n; i++) {
    const char *path = in_dir(c, names[i]);
    values_file(c, path, path, TFR_SRC_AUTO_FILE, NULL, 0);
  }
}

static void cli_var(struct collector *c, const char *arg) {
  const char *eq = strchr(arg, '=');
  if (!eq) {
    tfr_diags_add(c->diags, TFR_DIAG_ERROR, NULL, "Invalid -var option",
                  tfr_arena_printf(c->a,
                                   "The given -var option \"%s\" is not "
                                   "correctly specified. Must be a variable "
                                   "name and value separated by an equals "
                                   "sign, like -var=\"key=value\".",
                                   arg));
    return;
  }
  size_t n = (size_t)(eq - arg);
  if (n && arg[n - 1] == ' ') {
    size_t k = n;
    while (k && arg[k - 1] == ' ')
      k--;
    tfr_diags_add(
        c->diags, TFR_DIAG_ERROR, NULL, "Invalid -var option",
        tfr_arena_printf(c->a,
                         "Variable name \"%.*s\" is invalid due to "
                         "trailing space. Did you mean -var=\"%.*s=%s\"?",
                         (int)n, arg, (int)k, arg, eq + 1));
    return;
  }
  struct raw_value *r = add_raw(c);
  r->name = tfr_arena_strndup(c->a, arg, n);
  r->kind = TFR_SRC_CLI;
  r->text = tfr_arena_strdup(c->a, eq + 1);
  r->len = strlen(eq + 1);
}

void module_collect(struct module *m, tfr_arena *a, tfr_diags *diags,
                    const struct collect_opts *o) {
  char *const *env = o->env;
  const struct overlays *ov = o->ov;
  struct collector c = {m, a, diags, 0, o->fast, NULL, NULL, NULL, ov};
  for (size_t i = 0; env && env[i]; i++) {
    if (strncmp(env[i], "TF_VAR_", 7) != 0)
      continue;
    const char *eq = strchr(env[i], '=');
    if (!eq)
      continue;
    struct raw_value *r = add_raw(&c);
    r->name = tfr_arena_strndup(a, env[i] + 7, (size_t)(eq - env[i] - 7));
    r->kind = TFR_SRC_ENV;
    r->text = tfr_arena_strdup(a, eq + 1);
    r->len = strlen(eq + 1);
  }
  for (size_t i = 0; i < o->nunknown; i++) {
    struct raw_value *r = add_raw(&c);
    r->name = o->unknown[i];
    r->kind = TFR_SRC_ENV;
    r->text = "(known after apply)";
    r->len = strlen(r->text);
    r->unknown = true;
  }
  static const char *const defaults[] = {"terraform.tfvars",
                                         "terraform.tfvars.json"};
  for (int i = 0; i < 2; i++) {
    const char *path = in_dir(&c, defaults[i]);
    struct stat st;
    if (stat(path, &st) == 0 || dir_overlay(ov, path))
      values_file(&c, path, path, TFR_SRC_AUTO_FILE, NULL, 0);
    else if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
      tfr_diags_add(diags, TFR_DIAG_WARNING, NULL,
                    "Variables file is a broken symbolic link",
                    tfr_arena_printf(a,
                                     "%s is a symbolic link whose target does "
                                     "not exist, so its values are not used "
                                     "(%s skips it silently).",
                                     path, engine_rules(m->opentofu)->product));
      tfr_diags_set_ours(diags);
    }
  }
  auto_files(&c, o->skip_editor_files);
  const struct tfr_cli_arg *args = o->args;
  for (size_t i = 0; i < o->nargs; i++) {
    c.via = args[i].via;
    if (args[i].file)
      values_file(&c, args[i].value, args[i].value, TFR_SRC_NAMED_FILE,
                  args[i].content, args[i].content_len);
    else
      cli_var(&c, args[i].value);
  }
  tfr_arena_on_free(a, free, m->raws); /* malloc'd: freed with the arena */
}
