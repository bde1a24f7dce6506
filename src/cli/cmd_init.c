/*
** tfresolve init: a template of values for the module's input variables
** (issue 6), as a tfvars file, a .tfvars.json file or `export TF_VAR_`
** lines.
**
** What goes in, for every declared variable:
**   - its description and its type constraint, as comments (in JSON, which
**     has no comments, as lines of a leading "//" member: HCL's JSON syntax
**     ignores a "//" key in a body, and so does Terraform in .tfvars.json);
**   - for a variable with a default, the default, commented out ("# name =
**     DEFAULT", "# export TF_VAR_name=..."): the template then does not
**     pin today's default (a new default of the module still applies),
**     and uncommenting the line is all it takes to change it.  JSON has no
**     comments: there the default is the value, ready to change (delete
**     what should follow the module's defaults);
**   - for a sensitive variable, no value at all: its line stays commented
**     out (left out in JSON), so a sensitive default is never printed and
**     still applies.
** Order: required variables first, then the others; within each group in
** declaration order (file by file in lexical order of the file names, as
** Terraform loads them, and top to bottom in each file), because module
** authors group related variables and `show` already lists them by name.
**
** Placeholders of required variables.  A required variable has no default,
** so any value we could write would be a guess that `check` accepts: ""
** is a valid string, null a valid value of a nullable variable, and a
** skeleton object passes its type.  So the assignment is written commented
** out ("# name = ..." in tfvars, "# export TF_VAR_name=..." in env) with a
** skeleton of its type ("", 0, false, [], {}, an object of its required
** attributes) to show the shape, and left out of the JSON template (its
** "//" lines say so).  The variable is then simply not set: `tfresolve
** check -var-file=TEMPLATE` and `terraform plan` fail with Terraform's own
** "No value for required variable" error naming it and its declaration,
** until the user uncomments the line and gives it a real value.  Nothing
** in the template ever looks like a value that was chosen on purpose.
**
** env: TF_VAR_ values are taken literally for primitive types and for
** variables without a type, and parsed as HCL otherwise, as Terraform
** does; so a default that a TF_VAR_ value cannot carry (null of a
** primitive type, a non-string default of an untyped variable) is left to
** apply, with a comment saying why, and a name a POSIX shell cannot
** export ("a-b": Terraform allows "-") gets an env(1) example instead.
**
** The template goes to stdout, or with -out=FILE to FILE, which is never
** replaced unless -force is given (O_EXCL: no check-then-write race).
** Only the declarations are read (tfr_resolve with declarations_only): no value
** source, so nothing from TF_VAR_ or tfvars files can leak into it.
*/
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "options.h"
#include "cli_types.h"
#include "cli_util.h"

/* Comment lines are kept within this width where the content allows. */
enum { WIDTH = 78 };

struct init_opts {
  struct options o;
  bool format_given, force;
  const char *dir, *out;
};

/* ---- command line ------------------------------------------------------ */

static bool init_flags(struct cli_opts *co, struct init_opts *m) {
  m->o = co->o;
  m->format_given = co->format_given;
  m->force = co->force;
  m->out = co->out;
  m->dir = co->operands.n ? co->operands.v[0] : ".";
  if (co->operands.n > 1) {
    cli_usage_error(co->cmd,
                    "unexpected argument \"%s\" (the module directory is "
                    "\"%s\")",
                    co->operands.v[1], m->dir);
    return false;
  }
  if (m->out && !*m->out) {
    cli_usage_error(co->cmd, "-out needs a file name");
    return false;
  }
  if (m->force && !m->out) {
    cli_usage_error(co->cmd, "-force only applies with -out=FILE");
    return false;
  }
  return true;
}

/* ---- skeleton values of required variables ----------------------------- */

struct init_ctx {
  tfr_arena *a;
  const tfr_value *zero; /* the number 0 */
  enum out_format format;
  const struct tfr_resolution *res; /* the declarations (type defaults) */
};

/* The simplest value of a type, to show its shape: "", 0, false, empty
** collections, an object of its required attributes. */
static const tfr_value *skeleton(struct init_ctx *c, const tfr_type *t) {
  static const tfr_value *const none[1] = {NULL};
  static const char *const no_keys[1] = {NULL};
  static const uint32_t no_lens[1] = {0};
  switch (t->kind) {
  case TFR_NUMBER:
    return c->zero;
  case TFR_BOOL:
    return tfr_bool(false);
  case TFR_LIST:
    return tfr_list(c->a, t->elem, 0, none);
  case TFR_SET:
    return tfr_set(c->a, t->elem, 0, none);
  case TFR_MAP:
    return tfr_map(c->a, t->elem, 0, no_keys, no_lens, none);
  case TFR_TUPLE: {
    const tfr_value **e = tfr_arena_alloc(c->a, (t->n + 1) * sizeof *e);
    for (size_t i = 0; i < t->n; i++)
      e[i] = skeleton(c, t->types[i]);
    return tfr_tuple(c->a, t->n, e);
  }
  case TFR_OBJECT: {
    const char **names = tfr_arena_alloc(c->a, (t->n + 1) * sizeof *names);
    const tfr_value **vals = tfr_arena_alloc(c->a, (t->n + 1) * sizeof *vals);
    size_t n = 0;
    for (size_t i = 0; i < t->n; i++)
      if (!cli_attr_optional(t, i)) {
        names[n] = t->names[i];
        vals[n++] = skeleton(c, t->types[i]);
      }
    return tfr_object(c->a, n, names, vals);
  }
  default: /* string, and any: a string is the most common guess */
    return tfr_string(c->a, "", 0);
  }
}

/* ---- output helpers ---------------------------------------------------- */

/* Each line of text (trailing blanks and blank last lines dropped) as a
** comment: "# line", "#" for an empty one.  first: text before line 1. */
static void comment_block(FILE *f, const char *first, const char *text) {
  size_t len = strlen(text);
  while (len && (text[len - 1] == '\n' || text[len - 1] == '\r' ||
                 text[len - 1] == ' ' || text[len - 1] == '\t'))
    len--;
  if (!len && !first)
    return;
  const char *p = text, *end = text + len;
  bool line1 = true;
  while (p <= end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *e = nl ? nl : end;
    const char *t = e;
    while (t > p && (t[-1] == ' ' || t[-1] == '\t' || t[-1] == '\r'))
      t--;
    fputs(line1 && first ? first : (t > p ? "# " : "#"), f);
    fwrite(p, 1, (size_t)(t - p), f);
    fputc('\n', f);
    line1 = false;
    if (!nl)
      break;
    p = nl + 1;
  }
}

/* Every line of text with a prefix ("# " to comment a value out). */
static void prefixed(FILE *f, const char *prefix, const char *text) {
  for (const char *p = text; *p;) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    fputs(prefix, f);
    fwrite(p, 1, n, f);
    fputc('\n', f);
    p += n + (nl != NULL);
  }
}

/* The JSON of a value, indented by two per level after `indent`; cty's
** compact encoding re-laid out (it has no insignificant white space). */
static void json_value(FILE *f, tfr_arena *a, const tfr_value *v, int indent) {
  size_t len;
  char *buf = cli_value_json(a, v, &len);
  int depth = indent;
  for (size_t i = 0; i < len; i++) {
    char ch = buf[i];
    if (ch == '"') {
      size_t j = i + 1;
      while (j < len && buf[j] != '"')
        j += buf[j] == '\\' ? 2 : 1;
      fwrite(buf + i, 1, j + 1 - i, f);
      i = j;
    } else if ((ch == '{' || ch == '[') && i + 1 < len &&
               (buf[i + 1] == '}' || buf[i + 1] == ']')) {
      fputc(ch, f);
      fputc(buf[++i], f);
    } else if (ch == '{' || ch == '[') {
      depth += 2;
      fprintf(f, "%c\n%*s", ch, depth, "");
    } else if (ch == '}' || ch == ']') {
      depth -= 2;
      fprintf(f, "\n%*s%c", depth, "", ch);
    } else if (ch == ',') {
      fprintf(f, ",\n%*s", depth, "");
    } else if (ch == ':') {
      fputs(": ", f);
    } else {
      fputc(ch, f);
    }
  }
  free(buf);
}

static bool is_primitive_kind(const tfr_value *v) {
  int k = v->type->kind;
  return k == TFR_STRING || k == TFR_NUMBER || k == TFR_BOOL;
}

/* ---- the three formats ------------------------------------------------- */

/* The type as text for a comment line that starts at column col. */
/* The comments above a variable's value: description, type, notes. */
static void var_comments(struct init_ctx *c, FILE *f,
                         const struct tfr_variable *v, bool required) {
  if (v->description && *v->description)
    comment_block(f, NULL, v->description);
  const char *type =
      v->typed ? cli_var_type_text(c->a, c->res, v, v->declared, "", 0)
               : "any (no type constraint declared)";
  comment_block(f, "# type: ", type);
  if (!v->nullable)
    fputs("# null is not allowed (nullable = false)\n", f);
  if (v->sensitive && !required)
    fputs("# sensitive: its default is not shown, and applies while this "
          "stays\n# commented out\n",
          f);
  else if (v->sensitive)
    fputs("# sensitive\n", f);
  if (v->deprecated) {
    comment_block(f, "# deprecated: ", v->deprecated);
    if (!required)
      fputs("# (left commented out: setting it gives a warning)\n", f);
  }
  if (required)
    fputs("# REQUIRED: uncomment and set a value\n", f);
}

/* One variable of the tfvars template: always commented out, at its
** default (it applies while the line stays so), or at a skeleton of its
** type when it is required or sensitive. */
static void tfvars_var(struct init_ctx *c, FILE *f,
                       const struct tfr_variable *v) {
  bool required = !v->default_value;
  var_comments(c, f, v, required);
  const char *text = !required && !v->sensitive
                         ? tfr_value_hcl(c->a, v->default_value)
                         : tfr_value_hcl(c->a, skeleton(c, v->declared));
  prefixed(f, "# ", tfr_arena_printf(c->a, "%s = %s", v->name, text));
}

/* The TF_VAR_ text of a value, or NULL (and *why) when an environment
** variable cannot carry it. */
static const char *env_text(struct init_ctx *c, const struct tfr_variable *v,
                            const tfr_value *val, const char **why) {
  if (!v->literal_mode)
    return tfr_value_hcl(c->a, val);
  /* taken literally: a primitive type, or no type (then a string) */
  if (val->flags & TFR_V_NULL) {
    *why = tfr_arena_printf(c->a,
                            "left to its default, null, which "
                            "TF_VAR_%s cannot express",
                            v->name);
    return NULL;
  }
  if (!is_primitive_kind(val) || (!v->typed && val->type->kind != TFR_STRING)) {
    *why = tfr_arena_printf(c->a,
                            "left to its default: without a type, "
                            "TF_VAR_%s would be a string",
                            v->name);
    return NULL;
  }
  if (val->type->kind == TFR_STRING)
    return tfr_arena_strndup(c->a, val->s, val->n);
  return tfr_value_hcl(c->a, val);
}

/* One variable of the env template: its `export` line, always commented
** out as in tfvars (at its default, or a skeleton), or why it is left to
** its default. */
static void env_var(struct init_ctx *c, FILE *f, const struct tfr_variable *v) {
  bool required = !v->default_value;
  var_comments(c, f, v, required);
  fputs(v->literal_mode ? "# TF_VAR_ value: literal text\n"
                        : "# TF_VAR_ value: an HCL expression\n",
        f);
  const char *why = NULL;
  const char *text = required || v->sensitive
                         ? env_text(c, v, skeleton(c, v->declared), &why)
                         : env_text(c, v, v->default_value, &why);
  if (!text) { /* only defaults get here: a skeleton is always expressible */
    comment_block(f, NULL, why);
    return;
  }
  char *line = NULL;
  size_t len = 0;
  FILE *m = cli_memstream(&line, &len);
  if (cli_sh_name(v->name)) {
    fprintf(m, "export TF_VAR_%s=", v->name);
    cli_sh_quote(m, text);
  } else {
    /* left to its default; how to set it all the same */
    fprintf(f, "# a POSIX shell cannot export TF_VAR_%s; env(1) can:\n",
            v->name);
    fputs("env ", m);
    const char *w = tfr_arena_printf(c->a, "TF_VAR_%s=%s", v->name, text);
    cli_sh_quote(m, w);
    fputs(" terraform plan", m);
  }
  cli_memstream_close(m);
  prefixed(f, "# ", line);
  free(line);
}

/* The "//" notes of one variable in the JSON template. */
static void json_note(struct init_ctx *c, FILE *f, const struct tfr_variable *v,
                      bool *first) {
  struct cli_buf b = {0};
  cli_buf_puts(&b, v->name);
  cli_buf_puts(&b, ": ");
  if (v->typed)
    cli_type_flat(&b, v->declared);
  else
    cli_buf_puts(&b, "any (no type constraint declared)");
  if (!v->nullable)
    cli_buf_puts(&b, "; null is not allowed");
  if (!v->default_value)
    cli_buf_puts(&b, "; REQUIRED, not set here: add it");
  if (v->sensitive)
    cli_buf_puts(&b, v->default_value
                         ? "; sensitive: left out, its default applies"
                         : "; sensitive");
  else if (v->deprecated && v->default_value)
    cli_buf_puts(&b, "; deprecated: left out, its default applies");
  else if (v->default_value && !tfr_value_json_encodable(v->default_value))
    cli_buf_puts(&b, "; left out: JSON cannot express its default");
  fputs(*first ? "\n    " : ",\n    ", f);
  *first = false;
  tfr_json_write_cstr(f, b.p);
  free(b.p);
  if (!v->description)
    return;
  /* one string per line of the description, indented under the name */
  const char *d = v->description;
  size_t len = strlen(d);
  while (len && (d[len - 1] == '\n' || d[len - 1] == ' '))
    len--;
  for (const char *p = d, *end = d + len; p < end;) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p), k = n;
    while (k && (p[k - 1] == ' ' || p[k - 1] == '\t' || p[k - 1] == '\r'))
      k--;
    fputs(",\n    ", f);
    tfr_json_write_cstr(f,
                        k ? tfr_arena_printf(c->a, "  %.*s", (int)k, p) : "");
    p += n + 1;
  }
}

/* The header's opening line(s), by format, and what both say next. */
static const char *const header_tfvars =
    "# Values for the input variables of this module, written by `tfresolve "
    "init`.\n";

static const char *const header_env =
    "# TF_VAR_ environment variables for the input variables of this "
    "module,\n"
    "# written by `tfresolve init`.  Load them with `. ./FILE` in a POSIX "
    "shell.\n";

static const char *const header_common =
    "#\n"
    "# Required variables come first: they have no default, so their lines "
    "are\n"
    "# commented out, and `tfresolve check` (like `terraform plan`) fails "
    "with\n"
    "# \"No value for required variable\" until you uncomment each one and "
    "give\n"
    "# it a value.  The others are commented out at their defaults, which "
    "apply\n"
    "# until you uncomment a line and set another value.  The defaults of\n"
    "# sensitive ones are not shown.\n";

/* "# ---- title -----...", WIDTH columns wide, after a blank line. */
static void section(FILE *f, const char *title) {
  int n = fprintf(f, "\n# ---- %s ", title) - 1;
  for (; n < WIDTH; n++)
    fputc('-', f);
  fputc('\n', f);
}

static void write_hcl_like(struct init_ctx *c, FILE *f,
                           const struct tfr_variable *const *vars, size_t n,
                           size_t nrequired) {
  fputs(c->format == FMT_ENV ? header_env : header_tfvars, f);
  fputs(header_common, f);
  if (!n)
    fputs("#\n# The module declares no input variables.\n", f);
  for (size_t i = 0; i < n; i++) {
    if (i == 0 && nrequired)
      section(f, "required");
    if (i == nrequired)
      section(f, "optional: commented out at their defaults");
    fputc('\n', f);
    if (c->format == FMT_ENV)
      env_var(c, f, vars[i]);
    else
      tfvars_var(c, f, vars[i]);
  }
}

static void write_json(struct init_ctx *c, FILE *f,
                       const struct tfr_variable *const *vars, size_t n) {
  static const char *const about[] = {
      "Values for the input variables of this module, written by "
      "`tfresolve init`.",
      "JSON has no comments: these notes are under the key \"//\", which "
      "Terraform ignores.",
      "Required variables have no default and are not set here: add each "
      "one as \"name\": value,",
      "or `tfresolve check` (like `terraform plan`) fails with \"No value "
      "for required variable\".",
      "The others are set to their defaults: JSON cannot comment them out, "
      "so delete those",
      "that should follow the module's defaults.  Sensitive ones are left "
      "out: their defaults apply.",
      "",
  };
  fputs("{\n  \"//\": [", f);
  bool first = true;
  for (size_t i = 0; i < sizeof about / sizeof *about; i++) {
    fputs(first ? "\n    " : ",\n    ", f);
    first = false;
    tfr_json_write_cstr(f, about[i]);
  }
  if (!n) {
    fputs(",\n    ", f);
    tfr_json_write_cstr(f, "The module declares no input variables.");
  }
  for (size_t i = 0; i < n; i++)
    json_note(c, f, vars[i], &first);
  fputs("\n  ]", f);
  for (size_t i = 0; i < n; i++) {
    const struct tfr_variable *v = vars[i];
    if (!v->default_value || v->sensitive || v->deprecated ||
        !tfr_value_json_encodable(v->default_value))
      continue;
    fputs(",\n  ", f);
    tfr_json_write_cstr(f, v->name);
    fputs(": ", f);
    json_value(f, c->a, v->default_value, 2);
  }
  fputs("\n}\n", f);
}

/* ---- the command ------------------------------------------------------- */

/* Required first, then declaration order: file name, then position. */
static int by_template_order(const void *x, const void *y) {
  const struct tfr_variable *a = *(const struct tfr_variable *const *)x;
  const struct tfr_variable *b = *(const struct tfr_variable *const *)y;
  if (!a->default_value != !b->default_value)
    return a->default_value ? 1 : -1;
  const char *fa = a->decl.filename ? a->decl.filename : "";
  const char *fb = b->decl.filename ? b->decl.filename : "";
  int k = strcmp(fa, fb);
  if (k)
    return k;
  if (a->decl.start.byte != b->decl.start.byte)
    return a->decl.start.byte < b->decl.start.byte ? -1 : 1;
  return strcmp(a->name, b->name);
}

/* All of text to fd; false with errno set. */
static bool write_all(int fd, const char *text, size_t len) {
  size_t done = 0;
  while (done < len) {
    ssize_t k = write(fd, text + done, len - done);
    if (k < 0 && errno == EINTR)
      continue;
    if (k < 0)
      return false;
    done += (size_t)k;
  }
  return true;
}

static int cannot_write(const char *path, int err) {
  fprintf(stderr, "tfresolve init: cannot write %s: %s\n", path, strerror(err));
  return EXIT_USAGE;
}

/* text into a file that exists and is not a regular one (/dev/stdout, a
** FIFO, a terminal): in place, as nothing can be renamed over it. */
static int write_in_place(const char *path, const char *text, size_t len) {
  int fd = open(path, O_WRONLY | O_TRUNC);
  if (fd < 0)
    return cannot_write(path, errno);
  bool ok = write_all(fd, text, len);
  int err = errno;
  if (close(fd) != 0 && ok)
    ok = false, err = errno;
  return ok ? EXIT_OK : cannot_write(path, err);
}

/* The directory of path ("." when it names none), malloc'd. */
static char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    return cli_strdup(".");
  if (slash == path)
    return cli_strdup("/");
  return cli_strndup(path, (size_t)(slash - path));
}

/* text into path whole or not at all: a temporary file in the same
** directory, written, flushed to the disk and renamed over path, so that
** a full disk or a crash leaves the old file (or none), never a
** truncated template.  The new file has mode (the old file's, or what
** the umask allows). */
static int write_atomic(const char *path, const char *text, size_t len,
                        mode_t mode) {
  char *dir = dir_of(path);
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  char *tmp = cli_alloc(strlen(dir) + strlen(base) + 32);
  sprintf(tmp, "%s/.%s.tfresolve-XXXXXX", dir, base);
  int fd = mkstemp(tmp);
  int rc = EXIT_OK;
  if (fd < 0) {
    rc = cannot_write(path, errno);
    free(tmp);
    free(dir);
    return rc;
  }
  bool ok = fchmod(fd, mode) == 0 && write_all(fd, text, len) && fsync(fd) == 0;
  int err = errno;
  if (close(fd) != 0 && ok)
    ok = false, err = errno;
  if (ok && rename(tmp, path) != 0)
    ok = false, err = errno;
  if (!ok) {
    unlink(tmp);
    rc = cannot_write(path, err);
  } else { /* the rename itself on the disk too (best effort) */
    int dfd = open(dir, O_RDONLY);
    if (dfd >= 0) {
      fsync(dfd);
      close(dfd);
    }
  }
  free(tmp);
  free(dir);
  return rc;
}

/* Write the template to -out: a new file, or with -force over any file,
** each time whole or not at all (write_atomic).  A symbolic link is not
** followed when its target would be replaced (a regular file, or none):
** -out names the file that is written.  A FILE that is a device or a
** FIFO (directly or through a link: -out=/dev/stdout) is written in
** place. */
static int write_out(const struct init_opts *m, const char *text, size_t len) {
  struct stat st, target;
  mode_t mask = umask(0);
  umask(mask);
  if (lstat(m->out, &st) != 0) {
    if (errno != ENOENT)
      return cannot_write(m->out, errno);
    return write_atomic(m->out, text, len, 0666 & ~mask);
  }
  if (!m->force) {
    fprintf(stderr,
            "tfresolve init: %s already exists; not replacing it (use "
            "-force to overwrite it)\n",
            m->out);
    return EXIT_USAGE;
  }
  bool link = S_ISLNK(st.st_mode);
  bool through = link && stat(m->out, &target) == 0;
  if (link &&
      (!through || S_ISREG(target.st_mode) || S_ISDIR(target.st_mode))) {
    char to[4096];
    ssize_t n = readlink(m->out, to, sizeof to - 1);
    to[n > 0 ? n : 0] = '\0';
    fprintf(stderr,
            "tfresolve init: %s is a symbolic link (to %s); not replacing "
            "it, nor the file it points to: give that file as -out, or "
            "remove the link\n",
            m->out, n > 0 ? to : "?");
    return EXIT_USAGE;
  }
  if (link || !S_ISREG(st.st_mode))
    return S_ISDIR(st.st_mode) ? cannot_write(m->out, EISDIR)
                               : write_in_place(m->out, text, len);
  return write_atomic(m->out, text, len, st.st_mode & 07777);
}

static int run(struct cli_opts *co) {
  struct init_opts m = {0};
  if (!init_flags(co, &m))
    return EXIT_USAGE;
  if (m.out && !m.format_given && cli_has_suffix(m.out, ".json"))
    m.o.format = FMT_JSON;
  struct stat st;
  const char *bad = stat(m.dir, &st) != 0  ? strerror(errno)
                    : !S_ISDIR(st.st_mode) ? "not a directory"
                                           : NULL;
  if (bad) {
    fprintf(stderr,
            "tfresolve init: cannot read the module directory %s: "
            "%s\n",
            m.dir, bad);
    return EXIT_USAGE;
  }

  tfr_arena *a = tfr_arena_new();
  tfr_diags *d = tfr_diags_new(a);
  /* the declarations only: no value source is read */
  struct tfr_resolve_opts ro = TFR_RESOLVE_OPTS_INIT;
  ro.dir = m.dir;
  ro.opentofu = m.o.opentofu;
  ro.declarations_only = true;
  const struct tfr_resolution *res = tfr_resolve(a, d, &ro);
  if (!tfr_diags_has_errors(d) && !res->has_config)
    tfr_diags_add(
        d, TFR_DIAG_ERROR, NULL, "No configuration files",
        tfr_arena_printf(a,
                         "There are no Terraform configuration files (.tf "
                         "or .tf.json%s) in %s, so there are no input "
                         "variables to write a template for.",
                         m.o.opentofu ? ", .tofu or .tofu.json" : "", m.dir));
  if (tfr_diags_has_errors(d)) {
    cli_print_diags(d, &m.o);
    tfr_arena_free(a);
    return EXIT_INVALID;
  }

  struct init_ctx c = {a, NULL, m.o.format, res};
  tfr_diags *scratch = tfr_diags_new(a);
  tfr_file *zero = tfr_parse_expr(a, scratch, "<init>", "0", 1);
  c.zero = zero ? tfr_eval_const(a, scratch, zero) : NULL;
  if (!c.zero)
    abort(); /* our bug: "0" always parses */

  const struct tfr_variable **vars =
      tfr_arena_alloc(a, (res->n + 1) * sizeof *vars);
  size_t nrequired = 0;
  for (size_t i = 0; i < res->n; i++) {
    vars[i] = tfr_resolution_variable(res, i);
    nrequired += !vars[i]->default_value;
  }
  if (res->n)
    qsort(vars, res->n, sizeof *vars, by_template_order);

  char *text = NULL;
  size_t len = 0;
  FILE *f = cli_memstream(&text, &len);
  if (m.o.format == FMT_JSON)
    write_json(&c, f, vars, res->n);
  else
    write_hcl_like(&c, f, vars, res->n, nrequired);
  cli_memstream_close(f);

  /* warnings from loading (e.g. .tofu files Terraform ignores) */
  cli_print_diags(d, &m.o);
  int rc = EXIT_OK;
  if (!m.out) {
    fwrite(text, 1, len, stdout);
  } else {
    if (m.o.format == FMT_JSON && !cli_has_suffix(m.out, ".json"))
      fprintf(stderr,
              "tfresolve init: note: Terraform reads %s as HCL, "
              "because its name does not end in .json\n",
              m.out);
    else if (m.o.format == FMT_TFVARS && cli_has_suffix(m.out, ".json"))
      fprintf(stderr,
              "tfresolve init: note: Terraform reads %s as JSON, "
              "because its name ends in .json\n",
              m.out);
    rc = write_out(&m, text, len);
    if (rc == EXIT_OK)
      printf("Wrote %s: %zu variable%s, %s.\n", m.out, res->n,
             res->n == 1 ? "" : "s",
             nrequired ? tfr_arena_printf(a, "%zu required (%s)", nrequired,
                                          m.o.format == FMT_JSON
                                              ? "to add"
                                              : "commented out: fill them in")
                       : "none required");
  }
  free(text);
  tfr_arena_free(a);
  return rc;
}

static const struct cli_choice formats[] = {
    {"tfvars", FMT_TFVARS, "HCL, for a .tfvars file"},
    {"json", FMT_JSON,
     "for a .tfvars.json file; the notes are strings under a leading \"//\" "
     "key, which Terraform ignores"},
    {"env", FMT_ENV,
     "export TF_VAR_name='...' lines for a POSIX shell; complex values as "
     "HCL text, as Terraform parses them"},
    {NULL, 0, NULL}};

static const struct cli_option options[] = {
    CLI_OPT_INCLUDE(cli_opts_format),
    CLI_OPT_VALUE("out", "FILE", out,
                  "Write to FILE instead of standard output (a name ending in "
                  ".json selects -format=json unless -format is given): a new "
                  "file written whole, then renamed into place"),
    CLI_OPT_FLAG("force", force,
                 "Replace FILE if it exists (without it, init refuses; a "
                 "symbolic link is never followed)",
                 CLI_NOVAL),
    CLI_OPT_INCLUDE(cli_opts_dir_end), CLI_OPT_END};

const struct cli_command cli_cmd_init = {
    .name = "init",
    .summary = "Write a tfvars template for the module's variables",
    .run = run,
    .options = options,
    .formats = formats,
    .usage =
        "Usage: tfresolve init [options] [DIR]\n"
        "\n"
        "Write a template of values for the input variables of the module in "
        "DIR\n"
        "(default: the current directory): every variable, with its "
        "description\n"
        "and type as comments.  Required variables (no default) come first, "
        "then\n"
        "the others, each group in declaration order.  Variables with a "
        "default\n"
        "are written commented out at their default, which applies until you\n"
        "uncomment the line (JSON has no comments: the JSON template sets "
        "them\n"
        "to their defaults); sensitive variables are never given a value "
        "(their\n"
        "defaults are not printed, and still apply).\n"
        "\n"
        "Required variables are written commented out, with a skeleton of "
        "their\n"
        "type (\"\", 0, false, [], {}, ...), and left out of the JSON "
        "template:\n"
        "until you uncomment and fill each one, `tfresolve check` (and\n"
        "`terraform plan`) fail with \"No value for required variable\".  A "
        "value\n"
        "such as \"\" or null would not do that: it can be valid.\n",
    .footer = "Exit status: 0 written, 1 the module does not load, 2 usage "
              "error or\n"
              "FILE exists or cannot be written.\n"};
