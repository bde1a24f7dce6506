/*
** Loading a module directory (Terraform's configs package): which files make
** up the module, and the top level of each file, each block handed to its
** decoder (module_vars.c: variable blocks and their override files;
** module_rules.c: validation rules; module_blocks.c: locals, the objects
** rules may name, required_providers, moved and removed blocks; calls.c:
** module, output and data blocks); then the declarations indexed
** (module_index.c).
*/
#include "module/module.h"
#include "base/heap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena_int.h"
#include "syntax/body.h"
#include "module/calls.h"
#include "base/diag_int.h"
#include "module/engine_tofu.h"
#include "syntax/parse.h"
#include "base/dirlist.h"
#include "base/strutil.h"
#include "module/module_int.h"

/* ---- files ------------------------------------------------------------- */

/* Names Terraform ignores: hidden files and editor leftovers. */
static bool ignored_name(const char *name) {
  size_t n = strlen(name);
  return name[0] == '.' || (n && name[n - 1] == '~') ||
         (n > 1 && name[0] == '#' && name[n - 1] == '#');
}

/* dir_list's keep: the files Terraform reads as configuration. */
static bool config_entry(const char *dir, const char *name, void *ctx) {
  return !ignored_name(name) && dir_keep_files(dir, name, ctx);
}

static int cmp_name(const void *x, const void *y) {
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* Is there an x.tofu (x.tofu.json) for this x.tf (x.tf.json)?  sorted
** names (dir_list's) are searched by binary search (a look through them
** all for each file was quadratic in their number). */
static bool has_tofu_twin(const char *const *names, size_t n, const char *tf,
                          bool sorted) {
  bool json = str_ends_with(tf, ".tf.json");
  size_t base = strlen(tf) - (json ? 8 : 3);
  const char *ext = json ? ".tofu.json" : ".tofu";
  char *twin = heap_alloc(base + strlen(ext) + 1);
  memcpy(twin, tf, base);
  strcpy(twin + base, ext);
  bool found = false;
  if (sorted)
    found = n && bsearch(&twin, names, n, sizeof *names, cmp_name);
  for (size_t i = 0; !sorted && !found && i < n; i++)
    found = !strcmp(names[i], twin);
  free(twin);
  return found;
}

/* Whether the engine reads configuration file name of a directory whose
** files are names[0..n): .tf and .tf.json; OpenTofu's .tofu and
** .tofu.json too, each instead of the .tf (.tf.json) of the same name
** (OpenTofu's configs/parser_config_dir.go). */
bool module_file_read(const struct engine_rules *e, const char *const *names,
                      size_t n, const char *name, bool sorted) {
  if (str_ends_with(name, ".tofu") || str_ends_with(name, ".tofu.json"))
    return e->reads_tofu_files;
  if (!str_ends_with(name, ".tf") && !str_ends_with(name, ".tf.json"))
    return false;
  return !e->reads_tofu_files || !has_tofu_twin(names, n, name, sorted);
}

static bool is_override(const char *name) {
  const char *ext = str_ends_with(name, ".tf.json")     ? ".tf.json"
                    : str_ends_with(name, ".tofu.json") ? ".tofu.json"
                    : str_ends_with(name, ".tofu")      ? ".tofu"
                                                        : ".tf";
  size_t base = strlen(name) - strlen(ext);
  return (base == 8 && strncmp(name, "override", 8) == 0) ||
         (base >= 9 && strncmp(name + base - 9, "_override", 9) == 0);
}

/* ---- decoding helpers -------------------------------------------------- */

void loader_error_at(struct loader *l, struct src_file *src, struct span s,
                     const char *summary, const char *detail, const char *var) {
  struct tfr_range r = src_range(src, s);
  tfr_diags_add(l->diags, TFR_DIAG_ERROR, &r, summary, detail);
  if (var)
    tfr_diags_set_variable(l->diags, var);
}

/* ---- top level --------------------------------------------------------- */

static const char *const top_blocks[] = {
    "terraform", "provider", "variable", "locals",    "output",
    "module",    "resource", "data",     "ephemeral", "action",
    "moved",     "removed",  "import",   "check",     NULL};

static bool top_block_ok(const char *s, size_t n) {
  for (size_t i = 0; top_blocks[i]; i++)
    if (strlen(top_blocks[i]) == n && !memcmp(top_blocks[i], s, n))
      return true;
  return false;
}

/* One top-level item of a module file, in either syntax; true when what
** it leaves (a local value, a validation rule) refers to its tree. */
static bool top_item(struct loader *l, struct src_file *src,
                     const struct body_item *it, bool json, bool ovr) {
  if (!it->is_block && !json) {
    loader_error_at(
        l, src, it->name_span, "Unsupported argument",
        tfr_arena_printf(l->a,
                         "An argument named \"%.*s\" is not expected "
                         "here.",
                         (int)it->len, it->name),
        NULL);
    return false;
  }
  if (!it->is_block || !top_block_ok(it->name, it->len)) {
    bool rp = !json && body_item_is(it, "required_providers");
    loader_error_at(
        l, src, it->name_span, "Unsupported block type",
        rp ? "A \"required_providers\" block must be nested inside a "
             "\"terraform\" block."
           : tfr_arena_printf(l->a,
                              "Blocks of type \"%.*s\" are not "
                              "expected here.",
                              (int)it->len, it->name),
        NULL);
    return false;
  }
  if (body_item_is(it, "locals")) {
    if (json)
      loader_json_locals(l, src, it->body, ovr);
    else
      loader_locals_items(l, src, it->body, false, ovr);
    return true;
  }
  if (body_item_is(it, "terraform")) {
    loader_terraform_block(l, it, json);
    return false;
  }
  if ((body_item_is(it, "moved") || body_item_is(it, "removed")) && !json &&
      !ovr) {
    loader_refactor_block(l, src, it);
    return false;
  }
  if (!ovr)
    loader_block_objects(l, it, json);
  if (body_item_is(it, "data")) {
    if (!ovr)
      calls_data_block(l->calls, src, it, json);
    return true;
  }
  if (body_item_is(it, "module") || body_item_is(it, "output")) {
    if (body_item_is(it, "module"))
      calls_module_block(l->calls, src, it, json, ovr);
    else
      calls_output_block(l->calls, src, it, json, ovr);
    return true;
  }
  if (!body_item_is(it, "variable"))
    return false;
  if (json)
    return loader_json_variables(l, src, it->body, ovr);
  struct partial p = {0};
  p.override = ovr;
  if (!loader_native_variable(l, src, it->node, &p))
    return false;
  loader_add_variable(l, &p);
  for (size_t i = 0; i < p.nvalidations; i++)
    if (!p.validations[i].alias)
      return true; /* its trees are the block's */
  return false;
}

/* parse_config_stream's item: a primary file's block. */
static bool stream_item(void *ctx, const struct ast *block) {
  struct loader *l = ctx;
  struct body_item it = body_item_of(block);
  return top_item(l, l->streaming, &it, false, false);
}

/* Hand each item of a file to its decoder. */
static void each_variable(struct loader *l, struct ast_file *f, bool ovr) {
  struct body_iter iter =
      body_start(f->body, f->json, f->json ? top_blocks : NULL);
  struct body_item it;
  while (body_next(&iter, &it))
    top_item(l, f->src, &it, f->json, ovr);
}

bool module_whole_files;

/* What a primary file added while it was read block by block, to take
** back when it turns out to need the grammar. */
struct undo {
  size_t nvars, nlocals, nobjects, ndiags;
  struct calls_mark calls;
  struct arena_mark trees;
};

static struct undo undo_point(struct loader *l) {
  struct module *m = l->m;
  return (struct undo){m->nvars,
                       m->nlocals,
                       m->nobjects,
                       tfr_diags_count(l->diags),
                       calls_mark(l->calls),
                       arena_mark(l->trees)};
}

static void undo(struct loader *l, const struct undo *u) {
  struct module *m = l->m;
  for (size_t i = u->nvars; i < m->nvars; i++)
    strmap_del(&l->names, m->vars[i].name);
  for (size_t i = u->nlocals; i < m->nlocals; i++)
    strmap_del(&l->lnames, m->locals[i].name);
  m->nvars = u->nvars;
  m->nlocals = u->nlocals;
  m->nobjects = u->nobjects;
  calls_undo(l->calls, u->calls);
  diags_remove(l->diags, u->ndiags, tfr_diags_count(l->diags));
  arena_reset(l->trees, u->trees);
  bytemap_free(&l->templates); /* their trees may be gone */
  l->templates = (struct bytemap){0};
  bytemap_free(&l->file_templates);
  l->file_templates = (struct bytemap){0};
  l->seq_src = NULL;
}

/* A primary configuration file: read block by block when it is plain
** (most are), else parsed whole; its variables declared. */
static void primary_file(struct loader *l, struct src_file *src) {
  bytemap_free(&l->file_templates); /* the parser numbers texts per file */
  l->file_templates = (struct bytemap){0};
  /* room for its declarations at once: lines that start "variable" */
  size_t n = 0;
  for (const char *t = src->text, *end = t + src->len; t < end;) {
    n += end - t >= 8 && !memcmp(t, "variable", 8);
    t = memchr(t, '\n', (size_t)(end - t));
    if (!t)
      break;
    t++;
  }
  loader_reserve_vars(l, l->m->nvars + n);
  strmap_reserve(&l->names, l->m->nvars + n);
  struct undo u = undo_point(l);
  l->streaming = src;
  if (!module_whole_files &&
      parse_config_stream(src, l->trees, l->diags, stream_item, l))
    return;
  undo(l, &u);
  bool complete;
  struct ast_file *f = parse_config(src, l->trees, l->diags, &complete);
  if (f)
    each_variable(l, f, false);
}

struct module *module_load(tfr_arena *a, tfr_diags *diags, const char *dir,
                           bool opentofu, bool shared,
                           const struct overlays *ov) {
  struct module *m = tfr_arena_alloc(a, sizeof *m);
  m->dir = dir;
  m->addr = "";
  m->opentofu = opentofu;
  struct loader l = {0};
  l.a = a;
  l.diags = diags;
  l.m = m;
  /* the syntax trees, in an arena of their own: once declared, variables
  ** keep none of them unless they have validation rules or the module
  ** has locals */
  tfr_arena *trees = tfr_arena_new();
  l.trees = trees;
  m->tree_diags = tfr_diags_new(a);
  const struct engine_rules *e = engine_rules(opentofu);
  l.calls = calls_loader_new(a, trees, m->tree_diags, e);
  size_t n;
  const char **names = dir_list(a, dir, config_entry, NULL, ov, &n);
  struct src_file **srcs = tfr_arena_alloc(a, (n ? n : 1) * sizeof *srcs);
  bool saw_tofu = false;
  /* Primary files first, then override files, each in lexical order, each
  ** file read and its blocks decoded before the next, as Terraform does. */
  for (int pass = 0; pass < 2; pass++) {
    for (size_t i = 0; i < n; i++) {
      const char *nm = names[i];
      saw_tofu |= str_ends_with(nm, ".tofu") || str_ends_with(nm, ".tofu.json");
      if (!module_file_read(e, names, n, nm, true) ||
          is_override(nm) != (pass == 1))
        continue;
      m->has_config = true;
      const char *path =
          !strcmp(dir, ".") ? nm : tfr_arena_printf(a, "%s/%s", dir, nm);
      srcs[i] = parse_open(a, diags, ov, path, NULL, 0);
      if (!srcs[i])
        continue;
      if (!m->files)
        m->files = tfr_arena_alloc(a, n * sizeof *m->files);
      m->files[m->nfiles++] = srcs[i];
      if (pass == 0) {
        primary_file(&l, srcs[i]);
        continue;
      }
      bool complete;
      struct ast_file *f = parse_config(srcs[i], trees, diags, &complete);
      if (f)
        each_variable(&l, f, true);
    }
  }
  if (saw_tofu && !e->reads_tofu_files) {
    tfr_diags_add(diags, TFR_DIAG_WARNING, NULL, "OpenTofu files ignored",
                  "This directory has .tofu files, which Terraform ignores. "
                  "To resolve the variables as OpenTofu does, use "
                  "-engine=opentofu.");
    tfr_diags_set_ours(diags);
  }
  strmap_free(&l.names);
  strmap_free(&l.lnames);
  bytemap_free(&l.types);
  bytemap_free(&l.rule_keys);
  bytemap_free(&l.templates);
  bytemap_free(&l.file_templates);
  free(l.keybuf.p);
  calls_finish(l.calls, &m->calls, &m->ncalls, &m->outputs, &m->noutputs);
  calls_finish_data(l.calls, &m->data, &m->ndata);
  if (m->nobjects > 1)
    qsort(m->objects, m->nobjects, sizeof *m->objects, cmp_name);
  if (m->nvars > 1)
    loader_sort_vars(m);
  loader_index_vars(a, m);
  if (m->nlocals)
    loader_index_locals(a, m);
  loader_type_ids(a, m);
  for (size_t i = 0; i < n && shared; i++)
    if (srcs[i])
      src_lines(srcs[i]);
  bool kept = m->nlocals > 0 || m->ncalls > 0 || m->noutputs > 0;
  for (size_t i = 0; i < m->nvars && !kept; i++)
    kept = m->vars[i].nvalidations > 0;
  if (kept)
    tfr_arena_on_free(a, (void (*)(void *))tfr_arena_free, trees);
  else
    arena_recycle(trees, a);
  return m;
}

void module_no_config_error(tfr_diags *d, const char *product) {
  char detail[512]; /* copied by tfr_diags_add */
  snprintf(detail, sizeof detail,
           "Plan requires configuration to be present. Planning without a "
           "configuration would mark everything for destruction, which is "
           "normally not what is desired. If you would like to destroy "
           "everything, run plan with the -destroy option. Otherwise, create "
           "a %s configuration file (.tf file) and try again.",
           product);
  tfr_diags_add(d, TFR_DIAG_ERROR, NULL, "No configuration files", detail);
  /* ours: plan's advice is about destroying; what tfresolve needs */
  tfr_diags_set_note(d, "tfresolve reads the module in the current directory "
                        "(or the DIR given, or -chdir=DIR): run it where the "
                        "module's .tf files are.");
}
