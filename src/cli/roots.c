/*
** check -recursive: which directories are roots, what each root's tree
** uses, and which root a var file belongs to (issue 37, points 4 and 10).
**
** Every directory below DIR holding configuration files is read for its
** top-level blocks: `variable`, `module` (with a local source), `resource`
** and `data`.  A local call is followed as Terraform installs it: the
** source ("./" or "../", getmodules/moduleaddrs/source_parsing.go:29) is
** cleaned and joined to the calling module's directory, then symbolic
** links are resolved (initwd/module_install.go:411-415: filepath.Join,
** then filepath.EvalSymlinks); so a directory is known by its real path
** whatever path names it, and a call is followed even out of DIR and back.
**
** A root is a directory below DIR with variables, module calls, resources
** or data sources (or a file that does not parse: checking it says so)
** that no directory calls -- or that has var files Terraform loads by
** itself (terraform.tfvars, *.auto.tfvars): someone runs plan there, so
** it is checked with them, as well as through its callers.  A directory
** that is only ever called is checked through its callers, never alone
** with its required variables missing.  A directory called only from a
** cycle of calls that no root reaches is still checked, as a root: nothing
** is skipped in silence.  The files are parsed with the public API and
** read through their syntax tree's JSON (tfr_file_dump_json).
*/
#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_module.h"
#include "cli_util.h"

/* One module directory of the call graph. */
struct node {
  char *path; /* as the walk or the call named it */
  dev_t dev;  /* the directory itself, whatever path names it */
  ino_t ino;
  bool walked;     /* found below DIR */
  bool checkable;  /* variables, calls, resources, or a file that fails */
  bool has_vars;   /* declares variables */
  bool own_values; /* var files Terraform loads by itself */
  bool called;
  bool root;
  size_t *calls; /* the nodes it calls */
  size_t ncalls;
};

struct cli_roots {
  struct node *v;
  size_t n, cap;
  bool opentofu;
  bool *in_tree; /* by node: some root's tree uses it */
};

/* ---- paths ------------------------------------------------------------ */

/* Go's path.Clean of s, in place (source_parsing.go cleans a local
** source so): no "//", no "." element, ".." cancels the element before
** it (kept at the start of a relative path). */
static void path_clean(char *s) {
  bool abs = *s == '/';
  char *out = s + abs, *p = s + abs;
  char *floor = out; /* ".." before here is kept */
  while (*p) {
    char *e = p;
    while (*e && *e != '/')
      e++;
    size_t len = (size_t)(e - p);
    if (len == 0 || (len == 1 && *p == '.')) {
      /* nothing */
    } else if (len == 2 && p[0] == '.' && p[1] == '.') {
      if (out > floor) {
        while (out > floor && out[-1] != '/')
          out--;
        if (out > floor)
          out--;
      } else if (!abs) {
        if (out > s)
          *out++ = '/';
        memcpy(out, "..", 2);
        out += 2;
        floor = out;
      }
    } else {
      if (out > s + abs)
        *out++ = '/';
      memmove(out, p, len);
      out += len;
    }
    p = *e ? e + 1 : e;
  }
  if (out == s)
    *out++ = '.';
  *out = '\0';
}

/* dir/source with source cleaned (malloc'd): the system resolves the
** symbolic links of dir before its "..", as filepath.EvalSymlinks of the
** joined path does when dir is already free of them. */
static char *call_target(const char *dir, const char *source) {
  char *src = cli_strdup(source);
  for (char *c = src; *c; c++)
    if (*c == '\\') /* source_parsing.go: backslashes are slashes */
      *c = '/';
  path_clean(src);
  char *joined = cli_path_join(dir, src);
  free(src);
  return joined;
}

/* The directory path names, in *st; false when it is none. */
static bool dir_id(const char *path, struct stat *st) {
  return stat(path, st) == 0 && S_ISDIR(st->st_mode);
}

/* Whether Terraform's getmodules would take source as a local path. */
static bool local_source(const char *s) {
  return !strncmp(s, "./", 2) || !strncmp(s, "../", 3) ||
         !strncmp(s, ".\\", 2) || !strncmp(s, "..\\", 3);
}

/* ---- the blocks of a file ------------------------------------------- */

/* A call by name; an override file's source replaces the primary's. */
struct calls {
  struct cli_names name, source;
};

static void calls_set(struct calls *c, const char *name, const char *source,
                      bool override) {
  for (size_t i = 0; override && i < c->name.n; i++)
    if (!strcmp(c->name.v[i], name)) {
      free(c->source.v[i]);
      c->source.v[i] = cli_strdup(source);
      return;
    }
  cli_names_add(&c->name, name);
  cli_names_add(&c->source, source);
}

static const char *jstr(json_t *o, const char *key) {
  return json_string_value(json_object_get(o, key));
}

/* The literal string value of an AST expression, or NULL. */
static const char *ast_string(json_t *x) {
  const char *k = jstr(x, "kind");
  json_t *v = json_object_get(x, "value");
  const char *s = k && !strcmp(k, "string") ? json_string_value(v) : NULL;
  /* a NUL inside would cut the string, at another directory: such a
  ** source calls nothing here (the tree's check says it is invalid) */
  return s && strlen(s) == json_string_length(v) ? s : NULL;
}

/* What a block type means to the graph. */
static void note_block(struct node *nd, const char *type) {
  if (!strcmp(type, "variable"))
    nd->has_vars = nd->checkable = true;
  else if (!strcmp(type, "module") || !strcmp(type, "resource") ||
           !strcmp(type, "data"))
    nd->checkable = true;
}

/* HCL native syntax: body items of kind "block". */
static void scan_hcl(struct node *nd, json_t *body, struct calls *c,
                     bool override) {
  json_t *items = json_object_get(body, "items"), *it;
  size_t i;
  json_array_foreach(items, i, it) {
    const char *type = jstr(it, "type"), *kind = jstr(it, "kind");
    if (!type || !kind || strcmp(kind, "block"))
      continue;
    note_block(nd, type);
    json_t *labels = json_object_get(it, "labels");
    const char *label = json_string_value(json_array_get(labels, 0));
    if (strcmp(type, "module") || json_array_size(labels) != 1 || !label)
      continue;
    json_t *attrs = json_object_get(json_object_get(it, "body"), "items"), *at;
    size_t k;
    json_array_foreach(attrs, k, at) {
      const char *name = jstr(at, "name"), *src;
      if (name && !strcmp(name, "source") &&
          (src = ast_string(json_object_get(at, "value"))))
        calls_set(c, label, src, override);
    }
  }
}

/* JSON syntax: an object, or a tuple of objects (HCL's JSON body may
** repeat a block type or label as an array), each member to fn. */
typedef void (*member_fn)(const char *key, json_t *value, void *ctx);

static void json_members(json_t *x, member_fn fn, void *ctx) {
  const char *k = jstr(x, "kind");
  json_t *items = json_object_get(x, "items"), *it;
  size_t i;
  if (k && !strcmp(k, "tuple")) {
    json_array_foreach(items, i, it) json_members(it, fn, ctx);
    return;
  }
  if (!k || strcmp(k, "object"))
    return;
  json_array_foreach(items, i, it) {
    const char *key = ast_string(json_object_get(it, "key"));
    if (key)
      fn(key, json_object_get(it, "value"), ctx);
  }
}

struct json_call {
  struct calls *c;
  const char *name;
  bool override;
};

static void json_call_attr(const char *key, json_t *value, void *ctx) {
  struct json_call *jc = ctx;
  const char *src = ast_string(value);
  if (!strcmp(key, "source") && src)
    calls_set(jc->c, jc->name, src, jc->override);
}

static void json_call(const char *name, json_t *body, void *ctx) {
  struct json_call jc = *(struct json_call *)ctx;
  jc.name = name;
  json_members(body, json_call_attr, &jc);
}

struct json_top {
  struct node *nd;
  struct calls *c;
  bool override;
};

static void json_block(const char *type, json_t *value, void *ctx) {
  struct json_top *t = ctx;
  note_block(t->nd, type);
  if (!strcmp(type, "module")) {
    struct json_call jc = {t->c, NULL, t->override};
    json_members(value, json_call, &jc);
  }
}

/* The syntax tree of text, as JSON (NULL when it does not parse). */
static json_t *ast_of(const char *path, const char *text, size_t len) {
  tfr_arena *a = tfr_arena_new();
  tfr_diags *d = tfr_diags_new(a);
  tfr_file *f = tfr_parse_bytes(a, d, path, text, len, TFR_SYNTAX_AUTO);
  char *dump = NULL;
  size_t n = 0;
  json_t *ast = NULL;
  if (f) {
    FILE *mem = cli_memstream(&dump, &n);
    tfr_file_dump_json(f, mem);
    cli_memstream_close(mem);
    ast = json_loadb(dump, n, 0, NULL);
    free(dump);
  }
  tfr_arena_free(a);
  return ast;
}

/* Whether a line of native syntax at p opens a block of type kw: the
** keyword, then a label (quoted or not), not an attribute's "=". */
static bool opens_block(const char *p, const char *end, const char *kw) {
  size_t k = strlen(kw);
  if ((size_t)(end - p) <= k || strncmp(p, kw, k))
    return false;
  p += k;
  if (*p != ' ' && *p != '\t' && *p != '"')
    return false;
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  return p < end && (*p == '"' || *p == '_' || (*p >= 'a' && *p <= 'z') ||
                     (*p >= 'A' && *p <= 'Z'));
}

/* The block types a native-syntax file opens, by lines (cheap: only a
** file with a module block is parsed); whether it opens a module block. */
static bool scan_lines(struct node *nd, const char *text, size_t len) {
  static const char *const kws[] = {"variable", "resource", "data", "module"};
  bool module = false;
  for (const char *p = text, *end = text + len; p < end;) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol)
      eol = end;
    while (p < eol && (*p == ' ' || *p == '\t'))
      p++;
    for (size_t i = 0; i < 4; i++)
      if (opens_block(p, eol, kws[i])) {
        note_block(nd, kws[i]);
        module |= i == 3;
      }
    p = eol + 1;
  }
  return module;
}

/* One configuration file's blocks into nd and c; false when it cannot be
** read or does not parse. */
static bool scan_file(struct node *nd, const char *path, struct calls *c,
                      bool override) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return false;
  struct cli_buf b = {0};
  bool ok = cli_buf_read(&b, f);
  fclose(f);
  bool json = cli_has_suffix(path, ".json");
  if (ok && (json || scan_lines(nd, b.p ? b.p : "", b.n))) {
    json_t *ast = ast_of(path, b.p ? b.p : "", b.n);
    ok = ast != NULL;
    if (ast && !json) {
      scan_hcl(nd, ast, c, override);
    } else if (ast) {
      struct json_top t = {nd, c, override};
      json_members(ast, json_block, &t);
    }
    json_decref(ast);
  }
  free(b.p);
  return ok;
}

/* ---- the files of a directory ---------------------------------------- */

/* The configuration file suffix of n (".tf", ".tf.json", ".tofu",
** ".tofu.json"), or NULL. */
static const char *config_suffix(const char *n) {
  static const char *const sufs[] = {".tf.json", ".tofu.json", ".tf", ".tofu"};
  size_t len = strlen(n);
  for (size_t i = 0; i < 4; i++)
    if (len > strlen(sufs[i]) && cli_has_suffix(n, sufs[i]))
      return sufs[i];
  return NULL;
}

static bool is_config(const char *path, const char *n, int is_dir, void *ctx) {
  (void)ctx;
  return config_suffix(n) && cli_is_dir(path, is_dir) != 1;
}

/* An override file (configs/parser_config_dir.go: override.tf and
** *_override.tf). */
static bool is_override(const char *n) {
  size_t stem = strlen(n) - strlen(config_suffix(n));
  return (stem == 8 && !strncmp(n, "override", 8)) ||
         (stem >= 9 && !strncmp(n + stem - 9, "_override", 9));
}

/* A var file Terraform loads by itself. */
bool cli_auto_var_file(const char *n) {
  return !strcmp(n, "terraform.tfvars") ||
         !strcmp(n, "terraform.tfvars.json") ||
         (strlen(n) > 12 && cli_has_suffix(n, ".auto.tfvars")) ||
         (strlen(n) > 17 && cli_has_suffix(n, ".auto.tfvars.json"));
}

static bool is_auto_vars(const char *path, const char *n, int is_dir,
                         void *ctx) {
  (void)ctx;
  return cli_auto_var_file(n) && cli_is_dir(path, is_dir) != 1;
}

static size_t node_find(const struct cli_roots *r, const struct stat *st) {
  for (size_t i = 0; i < r->n; i++)
    if (r->v[i].dev == st->st_dev && r->v[i].ino == st->st_ino)
      return i;
  return SIZE_MAX;
}

/* The node of directory st, added with path when new. */
static size_t node_add(struct cli_roots *r, const char *path,
                       const struct stat *st, bool walked) {
  size_t i = node_find(r, st);
  if (i != SIZE_MAX) {
    r->v[i].walked |= walked;
    return i;
  }
  if (r->n == r->cap) {
    r->cap = r->cap ? 2 * r->cap : 32;
    r->v = cli_realloc(r->v, r->cap * sizeof *r->v);
  }
  r->v[r->n] = (struct node){.path = cli_strdup(path),
                             .dev = st->st_dev,
                             .ino = st->st_ino,
                             .walked = walked};
  return r->n++;
}

/* Node i's files: its blocks and its calls (new nodes for new targets). */
static void node_load(struct cli_roots *r, size_t i) {
  struct cli_names files = {0}, autos = {0};
  struct calls c = {0};
  cli_list_dir(r->v[i].path, is_config, NULL, &files);
  r->v[i].own_values =
      cli_list_dir(r->v[i].path, is_auto_vars, NULL, &autos) && autos.n;
  for (int pass = 0; pass < 2; pass++) /* primary files, then overrides */
    for (size_t k = 0; k < files.n; k++) {
      const char *n = files.v[k];
      if (is_override(n) != pass ||
          !tfr_config_file_read((const char *const *)files.v, files.n, n,
                                r->opentofu))
        continue;
      char *p = cli_path_join(r->v[i].path, n);
      if (!scan_file(&r->v[i], p, &c, pass))
        r->v[i].checkable = true; /* checking it tells what fails */
      free(p);
    }
  for (size_t k = 0; k < c.source.n; k++) {
    r->v[i].checkable = true;
    if (!local_source(c.source.v[k]))
      continue;
    char *p = call_target(r->v[i].path, c.source.v[k]);
    struct stat st;
    size_t t = dir_id(p, &st) ? node_add(r, p, &st, false) : SIZE_MAX;
    free(p);
    if (t == SIZE_MAX) /* missing: the caller's check says so */
      continue;
    r->v[t].called = true;
    r->v[i].calls = cli_realloc(r->v[i].calls,
                                (r->v[i].ncalls + 1) * sizeof *r->v[i].calls);
    r->v[i].calls[r->v[i].ncalls++] = t;
  }
  cli_names_free(&c.name);
  cli_names_free(&c.source);
  cli_names_free(&files);
  cli_names_free(&autos);
}

/* ---- the walk --------------------------------------------------------- */

static bool is_subdir(const char *path, const char *name, int is_dir,
                      void *ctx) {
  (void)name;
  (void)ctx;
  return cli_is_dir(path, is_dir) != 0; /* unknown: opening it tells */
}

static bool has_config(const char *dir) {
  struct cli_names files = {0};
  bool any = cli_list_dir(dir, is_config, NULL, &files) && files.n;
  cli_names_free(&files);
  return any;
}

/*
** Every directory below dir (itself included) with configuration files, in
** order (a directory, then its subdirectories by name), skipping hidden
** directories and Terraform's .terraform caches, as nodes.  No depth
** limit: the walk keeps its own stack, and symbolic links are not
** followed, so there is no cycle to fear.  A directory that cannot be
** read is an error in diags (the run fails: what it holds was not
** checked), never skipped in silence.
*/
static void walk(struct cli_roots *r, const char *dir, tfr_arena *a,
                 tfr_diags *diags) {
  struct cli_names stack = {0};
  cli_names_add(&stack, dir);
  while (stack.n) {
    char *cur = stack.v[--stack.n];
    struct stat st;
    if (has_config(cur) && dir_id(cur, &st))
      node_add(r, cur, &st, true);
    struct cli_names subs = {0};
    if (!cli_list_dir(cur, is_subdir, NULL, &subs)) {
      if (errno != ENOENT)
        tfr_diags_add(diags, TFR_DIAG_ERROR, NULL, "Directory not searched",
                      tfr_arena_printf(a,
                                       "-recursive could not read %s: %s; "
                                       "modules below it are not checked.",
                                       cur, strerror(errno)));
      free(cur);
      continue;
    }
    for (size_t i = subs.n; i-- > 0;) { /* the first is popped first */
      char *p = cli_path_join(cur, subs.v[i]);
      cli_names_add(&stack, !strcmp(cur, ".") ? p + 2 : p);
      free(p);
    }
    cli_names_free(&subs);
    free(cur);
  }
  cli_names_free(&stack);
}

/* ---- roots ------------------------------------------------------------ */

/* Mark in seen every node reachable from node i (itself included). */
static void reach(const struct cli_roots *r, size_t i, bool *seen) {
  size_t *stack = cli_alloc((r->n + 1) * sizeof *stack), n = 0;
  if (!seen[i])
    stack[n++] = i, seen[i] = true;
  while (n) {
    const struct node *nd = &r->v[stack[--n]];
    for (size_t k = 0; k < nd->ncalls; k++)
      if (!seen[nd->calls[k]]) {
        seen[nd->calls[k]] = true;
        stack[n++] = nd->calls[k];
      }
  }
  free(stack);
}

static void pick_roots(struct cli_roots *r, bool tree) {
  for (size_t i = 0; i < r->n; i++) {
    struct node *nd = &r->v[i];
    nd->root =
        nd->walked && (tree ? nd->checkable && (!nd->called || nd->own_values)
                            : nd->has_vars);
  }
  if (!tree)
    return;
  bool *seen = r->in_tree = cli_calloc(r->n + 1, 1);
  for (size_t i = 0; i < r->n; i++)
    if (r->v[i].root)
      reach(r, i, seen);
  /* called only from a cycle no root reaches: checked all the same */
  for (size_t i = 0; i < r->n; i++)
    if (r->v[i].walked && r->v[i].checkable && !seen[i]) {
      r->v[i].root = true;
      reach(r, i, seen);
    }
}

struct cli_roots *cli_roots_find(const char *dir, bool opentofu, bool tree,
                                 tfr_arena *a, tfr_diags *diags) {
  struct cli_roots *r = cli_calloc(1, sizeof *r);
  r->opentofu = opentofu;
  walk(r, dir, a, diags);
  for (size_t i = 0; i < r->n; i++) /* r->n grows with new call targets */
    node_load(r, i);
  pick_roots(r, tree);
  return r;
}

void cli_roots_free(struct cli_roots *r) {
  if (!r)
    return;
  for (size_t i = 0; i < r->n; i++) {
    free(r->v[i].path);
    free(r->v[i].calls);
  }
  free(r->v);
  free(r->in_tree);
  free(r);
}

void cli_roots_list(const struct cli_roots *r, struct cli_names *out) {
  for (size_t i = 0; i < r->n; i++)
    if (r->v[i].root)
      cli_names_add(out, r->v[i].path);
}

/* The root node that is the directory of file (file itself when it is a
** directory) or holds it nearest, or SIZE_MAX; in *at the node of that
** directory (SIZE_MAX: none). */
static size_t nearest_root(const struct cli_roots *r, const char *file,
                           size_t *at) {
  struct stat st;
  char *d = cli_strdup(file);
  if (!dir_id(d, &st)) {
    char *slash = strrchr(d, '/');
    if (slash)
      slash[slash == d] = '\0';
    else
      strcpy(d, ".");
  }
  *at = SIZE_MAX;
  size_t found = SIZE_MAX;
  /* up through "..": the physical parents, to "/" (its own parent) */
  for (size_t up = 0; found == SIZE_MAX && dir_id(d, &st); up++) {
    size_t i = node_find(r, &st);
    if (up == 0)
      *at = i;
    if (i != SIZE_MAX && r->v[i].root)
      found = i;
    struct stat parent;
    char *p = cli_path_join(d, "..");
    free(d);
    d = p;
    if (!dir_id(d, &parent) ||
        (parent.st_dev == st.st_dev && parent.st_ino == st.st_ino))
      break;
  }
  free(d);
  return found;
}

const char *cli_roots_owner(const struct cli_roots *r, const char *file) {
  size_t at, i = nearest_root(r, file, &at);
  return i == SIZE_MAX ? NULL : r->v[i].path;
}

bool cli_roots_uses(const struct cli_roots *r, const char *root,
                    const char *file) {
  size_t at, near = nearest_root(r, file, &at), ri = SIZE_MAX;
  for (size_t i = 0; i < r->n && ri == SIZE_MAX; i++)
    if (r->v[i].root && !strcmp(r->v[i].path, root))
      ri = i;
  if (ri == SIZE_MAX)
    return false;
  if (at == SIZE_MAX || !r->in_tree || !r->in_tree[at])
    /* in no root's tree (a var file in envs/): the nearest root above */
    return near == ri;
  /* a module directory: the roots whose tree uses it */
  bool *seen = cli_calloc(r->n + 1, 1);
  reach(r, ri, seen);
  bool uses = seen[at];
  free(seen);
  return uses;
}

bool cli_roots_called_only(const struct cli_roots *r, const char *dir) {
  struct stat st;
  if (!dir_id(dir, &st))
    return false;
  size_t i = node_find(r, &st);
  return i != SIZE_MAX && r->v[i].called && !r->v[i].root;
}
