/*
** Filesystem functions, relative to the evaluation's base directory
** (Terraform's working directory: the module directory), as Terraform
** v1.x has them (internal/lang/funcs/filesystem.go, crypto.go, string.go):
**
**   abspath pathexpand file filebase64 fileexists fileset
**   filemd5 filesha1 filesha256 filesha512 filebase64sha256
**   filebase64sha512 templatefile templatestring
**
** Paths follow Go's path/filepath on Unix (Clean, Join, Rel), ~ expands
** as mitchellh/go-homedir does, and fileset globs as bmatcuk/doublestar
** v1 (the version Terraform vendors) does, directory order included.
** Error messages are Terraform's, with paths quoted as its
** redactIfSensitive quotes them (Go's %q, or "(sensitive value)").
**
** Templates render in a context of their own: only the given variables,
** Terraform's functions, and neither templatefile nor templatestring
** (nor, for templatestring, the functions that read files).  Errors from
** inside a template become one message, as Terraform returns HCL's
** diagnostics as a Go error ("file:1,3-7: Summary; Detail").
*/
#include "eval/funcs.h"
#include "base/heap.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <utf8proc.h>

#include "values/convert.h"
#include "base/arena_int.h"
#include "base/dirlist.h"
#include "syntax/parse.h"
#include "syntax/refwalk.h"
#include "base/strutil.h"

#define MARKS (TFR_V_SENSITIVE | TFR_V_EPHEMERAL)

/* Files larger than this are refused (Terraform has no limit, but a
** string value holds at most 4 GiB and its Base64 4/3 of the bytes). */
#define FILE_MAX ((size_t)1 << 30)

/* ---- small helpers ----------------------------------------------------- */

/* A byte string that may hold NUL bytes (Terraform's strings may). */
struct str {
  const char *p;
  size_t n;
};

static struct str str_of(const char *p) { return (struct str){p, strlen(p)}; }

static unsigned marks_of(const tfr_value *v) { return v->flags & MARKS; }

static const tfr_value *marked(struct fcall *f, const tfr_value *v,
                               unsigned marks) {
  return marks ? tfr_value_mark(f->a, v, marks) : v;
}

/* Terraform's redactIfSensitive for a path in an error message. */
static const char *redact_n(struct fcall *f, struct str s, unsigned marks) {
  if (marks & TFR_V_SENSITIVE)
    return "(sensitive value)";
  return str_go_quote(f->a, s.p, s.n);
}

static const char *redact(struct fcall *f, const char *s, unsigned marks) {
  return redact_n(f, str_of(s), marks);
}

/* An errno as Go's syscall.Errno prints it (lower-case strerror). */
static const char *errstr(tfr_arena *a, int err) {
  char *s = tfr_arena_strdup(a, strerror(err));
  if (s[0] >= 'A' && s[0] <= 'Z' && !(s[1] >= 'A' && s[1] <= 'Z'))
    s[0] = (char)(s[0] - 'A' + 'a');
  return s;
}

/* ---- paths as Go's path/filepath handles them on Unix ------------------- */

/* filepath.Clean, NUL-terminated as well. */
static struct str path_clean_n(tfr_arena *a, struct str in) {
  size_t n;
  const char *p = str_path_clean(a, in.p, in.n, &n);
  return (struct str){p, n};
}

static const char *path_clean(tfr_arena *a, const char *p) {
  return path_clean_n(a, str_of(p)).p;
}

/* filepath.Join of two elements. */
static struct str path_join_n(tfr_arena *a, struct str x, struct str y) {
  if (!x.n)
    return y.n ? path_clean_n(a, y) : (struct str){"", 0};
  char *j = tfr_arena_alloc_raw(a, x.n + y.n + 2);
  memcpy(j, x.p, x.n);
  j[x.n] = '/';
  memcpy(j + x.n + 1, y.p, y.n);
  j[x.n + 1 + y.n] = '\0';
  return path_clean_n(a, (struct str){j, x.n + 1 + y.n});
}

static char *path_join(tfr_arena *a, const char *x, const char *y) {
  return UNCONST(char *, path_join_n(a, str_of(x), str_of(y)).p);
}

static bool path_is_abs(const char *p) { return p[0] == '/'; }

/* filepath.Rel; NULL when targ cannot be made relative to base. */
static char *path_rel(tfr_arena *a, const char *basepath,
                      const char *targpath) {
  const char *base = path_clean(a, basepath);
  const char *targ = path_clean(a, targpath);
  if (!strcmp(base, targ))
    return tfr_arena_strdup(a, ".");
  if (!strcmp(base, "."))
    base = "";
  bool bs = base[0] == '/', ts = targ[0] == '/';
  if (bs != ts)
    return NULL;
  size_t bl = strlen(base), tl = strlen(targ);
  size_t b0 = 0, bi = 0, t0 = 0, ti = 0;
  for (;;) {
    while (bi < bl && base[bi] != '/')
      bi++;
    while (ti < tl && targ[ti] != '/')
      ti++;
    if (ti - t0 != bi - b0 || memcmp(targ + t0, base + b0, ti - t0))
      break;
    if (bi < bl)
      bi++;
    if (ti < tl)
      ti++;
    b0 = bi;
    t0 = ti;
  }
  if (bi - b0 == 2 && !memcmp(base + b0, "..", 2))
    return NULL;
  if (b0 != bl) {
    size_t seps = 0;
    for (size_t i = b0; i < bl; i++)
      seps += base[i] == '/';
    struct sbuf b = {0};
    sbuf_str(&b, "..");
    for (size_t i = 0; i < seps; i++)
      sbuf_str(&b, "/..");
    if (t0 != tl) {
      sbuf_str(&b, "/");
      sbuf_str(&b, targ + t0);
    }
    char *r = tfr_arena_strndup(a, b.p, b.n);
    free(b.p);
    return r;
  }
  return tfr_arena_strdup(a, targ + t0);
}

/* The evaluation's base directory, "." for the current one. */
static const char *base_dir(struct fcall *f) {
  return f->c->dir && *f->c->dir ? f->c->dir : ".";
}

/* homedir.Dir: $HOME, else the password database. */
static const char *home_dir(tfr_arena *a) {
  const char *h = getenv("HOME");
  if (h && *h)
    return tfr_arena_strdup(a, h);
  struct passwd pw, *res = NULL;
  char buf[4096];
  if (getpwuid_r(getuid(), &pw, buf, sizeof buf, &res) == 0 && res &&
      res->pw_dir && *res->pw_dir)
    return tfr_arena_strdup(a, res->pw_dir);
  return NULL;
}

/* homedir.Expand: a leading "~" or "~/" becomes the home directory.
** .p NULL and *err set when it cannot be expanded. */
static struct str home_expand(tfr_arena *a, struct str p, const char **err) {
  if (!p.n || p.p[0] != '~')
    return p;
  if (p.n > 1 && p.p[1] != '/' && p.p[1] != '\\') {
    *err = "cannot expand user-specific home dir";
    return (struct str){NULL, 0};
  }
  const char *home = home_dir(a);
  if (!home) {
    *err = "blank output when reading home directory";
    return (struct str){NULL, 0};
  }
  return path_join_n(a, str_of(home), (struct str){p.p + 1, p.n - 1});
}

/* Terraform's openFile path: ~ expanded, joined to the base directory
** unless absolute, cleaned.  .p NULL and *err set on a ~ error. */
static struct str file_path(struct fcall *f, struct str p, const char **err) {
  struct str e = home_expand(f->a, p, err);
  if (!e.p)
    return e;
  if (!path_is_abs(e.p))
    e = path_join_n(f->a, str_of(base_dir(f)), e);
  return path_clean_n(f->a, e);
}

/* ---- reading files ----------------------------------------------------- */

enum read_fail {
  READ_OK,
  READ_EXPAND, /* ~ could not be expanded: msg is the reason */
  READ_OPEN,   /* msg: "open PATH: reason"; missing when errno ENOENT */
  READ_READ,   /* msg: "read PATH: reason" */
};

struct file_data {
  const char *path; /* as opened */
  char *bytes;      /* NUL-terminated copy in the arena */
  size_t n;
  enum read_fail fail;
  bool missing;
  const char *msg;
};

/* Open and read a whole file as Go's os.Open + io.ReadAll would. */
static struct file_data read_file(struct fcall *f, const tfr_value *arg) {
  struct file_data d = {0};
  const char *err = NULL;
  struct str p = file_path(f, (struct str){arg->s, arg->n}, &err);
  if (!p.p) {
    d.fail = READ_EXPAND;
    d.msg = err;
    return d;
  }
  d.path = p.p;
  /* Go refuses a name with a NUL byte (the message stops at it here) */
  /* O_NONBLOCK: a FIFO without a writer must not block the open */
  int fd = memchr(p.p, 0, p.n) ? (errno = EINVAL, -1)
                               : open(p.p, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    d.fail = READ_OPEN;
    d.missing = errno == ENOENT;
    d.msg = tfr_arena_printf(f->a, "open %s: %s", d.path, errstr(f->a, errno));
    return d;
  }
  struct stat st;
  size_t cap = 64 * 1024;
  /* a FIFO, a device (/dev/zero), a socket: what plan would wait on or
  ** read without end, refused (as everywhere else in tfresolve) */
  if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    close(fd);
    d.fail = READ_READ;
    d.msg = tfr_arena_printf(f->a,
                             "read %s: not a regular file (a FIFO, a device "
                             "or a socket)",
                             d.path);
    return d;
  }
  if (S_ISREG(st.st_mode) && st.st_size > 0)
    cap = (size_t)st.st_size + 1;
  /* no more than the run's memory budget (-max-memory) may hold */
  size_t most =
      FILE_MAX < arena_value_budget() ? FILE_MAX : arena_value_budget();
  if (cap > most + 1)
    cap = most + 1;
  char *buf = tfr_arena_alloc_raw(f->a, cap + 1);
  size_t len = 0;
  int rerr = 0;
  for (;;) {
    if (len == cap) {
      if (cap > most) {
        rerr = EFBIG;
        break;
      }
      size_t ncap = cap * 2 > most + 1 ? most + 1 : cap * 2;
      char *bigger = tfr_arena_alloc_raw(f->a, ncap + 1);
      memcpy(bigger, buf, len);
      buf = bigger;
      cap = ncap;
    }
    ssize_t k = read(fd, buf + len, cap - len);
    if (k < 0) {
      if (errno == EINTR)
        continue;
      rerr = errno;
      break;
    }
    if (k == 0)
      break;
    len += (size_t)k;
  }
  close(fd);
  if (rerr) {
    d.fail = READ_READ;
    d.msg =
        rerr == EFBIG && most < FILE_MAX
            ? tfr_arena_printf(f->a,
                               "read %s: larger than this run's memory "
                               "budget (-max-memory)",
                               d.path)
            : tfr_arena_printf(f->a, "read %s: %s", d.path, errstr(f->a, rerr));
    return d;
  }
  buf[len] = '\0';
  d.bytes = buf;
  d.n = len;
  return d;
}

/* Report a failed read as Terraform's readFileBytes does (an error about
** argument 0, "path"); false then. */
static bool file_ok(struct fcall *f, const struct file_data *d,
                    const tfr_value *arg, unsigned marks) {
  switch (d->fail) {
  case READ_OK:
    return true;
  case READ_EXPAND:
    fcall_arg_error(f, 0, "failed to expand ~: %s", d->msg);
    return false;
  case READ_OPEN:
    if (d->missing)
      fcall_arg_error(f, 0,
                      "no file exists at %s; this function works only with "
                      "files that are distributed as part of the "
                      "configuration source code, so if this file will be "
                      "created by a resource in this configuration you must "
                      "instead obtain this result from an attribute of that "
                      "resource",
                      redact_n(f, (struct str){arg->s, arg->n}, marks));
    else
      fcall_arg_error(f, 0, "%s", d->msg);
    return false;
  case READ_READ:
    fcall_arg_error(f, 0, "failed to read file: %s", d->msg);
    return false;
  }
  return false;
}

/* A file read for its text is UTF-8: else the error (Terraform's
** lang/funcs/filesystem.go: file() and templatefile()). */
static bool file_utf8(struct fcall *f, const struct file_data *d,
                      const tfr_value *path, unsigned marks) {
  if (str_utf8_valid(d->bytes, d->n))
    return true;
  fcall_error(f,
              "contents of %s are not valid UTF-8; use the filebase64 "
              "function to obtain the Base64 encoded contents or the other "
              "file functions (e.g. filemd5, filesha256) to obtain file "
              "hashing results instead",
              redact_n(f, (struct str){path->s, path->n}, marks));
  return false;
}

/* ---- templates: where a call is evaluated ------------------------------ */

/*
** A template renders with a function table of its own: the same
** functions, but the type check of the template functions (and, in
** templatestring, of the filesystem functions) fails, as Terraform
** replaces them with stubs whose Type function returns an error.
*/
struct tmpl_mode {
  bool allow_fs;
};

static const tfr_value *tmpl_call(void *ud, struct eval_ctx *c,
                                  const struct ast *call, const char *name,
                                  size_t len, size_t nargs,
                                  const tfr_value *const *args) {
  (void)ud;
  return funcs_table.call(funcs_table.ud, c, call, name, len, nargs, args);
}

/* Calls whose arguments are not all values (convert), as outside. */
static const tfr_value *tmpl_special(void *ud, struct eval_ctx *c,
                                     const struct ast *call, const char *name,
                                     size_t len) {
  (void)ud;
  return funcs_table.special(funcs_table.ud, c, call, name, len);
}

static struct tmpl_mode mode_file = {true}, mode_string = {false};
static const struct eval_funcs tmpl_funcs_file = {tmpl_call, &mode_file,
                                                  tmpl_special};
static const struct eval_funcs tmpl_funcs_string = {tmpl_call, &mode_string,
                                                    tmpl_special};

/* The template mode a call is evaluated in, or NULL outside templates. */
static const struct tmpl_mode *in_template(const struct fcall *f) {
  const struct eval_funcs *fs = f->c->funcs;
  return fs && fs->call == tmpl_call ? fs->ud : NULL;
}

/* "Error in function call" naming the function as written (core::x). */
static void stub_error(struct fcall *f, const char *msg) {
  eval_error(f->c, f->call, "Error in function call",
             tfr_arena_printf(f->a, "Call to function \"%s\" failed: %s.",
                              fcall_name(f), msg));
  tfr_diags_set_code(f->c->diags, TFR_CODE_FUNCTION_FAILED);
  f->failed = true;
}

/* Type check of the filesystem functions: not inside templatestring.
** The result type is the function's fixed one. */
static const tfr_type *fs_guard(struct fcall *f) {
  const struct tmpl_mode *m = in_template(f);
  if (m && !m->allow_fs)
    stub_error(
        f, tfr_arena_printf(f->a,
                            "cannot use filesystem access functions like %s in "
                            "templatestring templates; consider passing the "
                            "function result as a template variable instead",
                            f->spec->name));
  return f->spec->ret;
}

/* Type check of the template functions: never inside a template. */
static bool template_guard(struct fcall *f) {
  if (!in_template(f))
    return true;
  stub_error(f, tfr_arena_printf(f->a,
                                 "cannot recursively call %s from inside "
                                 "another template function",
                                 f->spec->name));
  return false;
}

/* ---- templates: rendering ---------------------------------------------- */

/* hclsyntax.ValidIdentifier: (ID_Start | "_") (ID_Continue | "-")*. */
static bool valid_identifier(const char *s, size_t n) {
  if (!n)
    return false;
  for (size_t i = 0; i < n;) {
    unsigned char c = (unsigned char)s[i];
    bool ok;
    if (c < 0x80) {
      bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      ok = i == 0 ? alpha || c == '_'
                  : alpha || c == '_' || c == '-' || (c >= '0' && c <= '9');
      i++;
    } else {
      utf8proc_int32_t cp;
      utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
                                            (utf8proc_ssize_t)(n - i), &cp);
      if (k <= 0)
        return false;
      utf8proc_category_t g = utf8proc_category(cp);
      bool start = g == UTF8PROC_CATEGORY_LU || g == UTF8PROC_CATEGORY_LL ||
                   g == UTF8PROC_CATEGORY_LT || g == UTF8PROC_CATEGORY_LM ||
                   g == UTF8PROC_CATEGORY_LO || g == UTF8PROC_CATEGORY_NL;
      ok = start ||
           (i > 0 && (g == UTF8PROC_CATEGORY_MN || g == UTF8PROC_CATEGORY_MC ||
                      g == UTF8PROC_CATEGORY_ND || g == UTF8PROC_CATEGORY_PC));
      i += (size_t)k;
    }
    if (!ok)
      return false;
  }
  return true;
}

/* The variables of a template: a map or an object. */
struct tmpl_vars {
  const tfr_value *v;
};

static size_t vars_count(const tfr_value *v) {
  return v->type->kind == TFR_OBJECT ? v->type->n : v->n;
}

static const char *vars_name(const tfr_value *v, size_t i, size_t *len) {
  if (v->type->kind == TFR_OBJECT) {
    *len = strlen(v->type->names[i]);
    return v->type->names[i];
  }
  *len = v->keylens[i];
  return v->keys[i];
}

static const tfr_value *vars_get(const tfr_value *v, const char *name,
                                 size_t len) {
  for (size_t i = 0; i < vars_count(v); i++) {
    size_t n;
    const char *k = vars_name(v, i, &n);
    if (n == len && !memcmp(k, name, len))
      return v->elems[i];
  }
  return NULL;
}

static const tfr_value *vars_lookup(void *ud, struct eval_ctx *c,
                                    const struct ast *root, const char *name,
                                    size_t len) {
  (void)c;
  (void)root;
  return vars_get(((struct tmpl_vars *)ud)->v, name, len);
}

/* The first variable (hclsyntax.Variables order) that vars lacks. */
struct missing {
  struct refwalk w; /* first: the walk hands it back */
  const tfr_value *vars;
  const struct ast *found;
};

static bool on_ref(struct refwalk *w, const struct ast *x,
                   const struct ast *root) {
  (void)x;
  struct missing *m = (struct missing *)w;
  if (vars_get(m->vars, root->str, root->n))
    return false;
  m->found = root;
  return true;
}

static const struct ast *missing_var(const struct ast *x,
                                     const tfr_value *vars) {
  struct missing m = {{on_ref, NULL, false}, vars, NULL};
  refwalk(&m.w, x, NULL);
  return m.found;
}

/* The call node whose whole span is s, if any. */
static const struct ast *call_at(const struct ast *x, struct span s) {
  if (!x)
    return NULL;
  if (x->kind == AST_CALL && x->span.start == s.start && x->span.end == s.end)
    return x;
  uint32_t n = ast_child_count(x);
  for (uint32_t i = 0; i < n; i++) {
    const struct ast *c = call_at(ast_child(x, i), s);
    if (c)
      return c;
  }
  return NULL;
}

/*
** A diagnostic as HCL's Diagnostic.Error() writes it.  HCL reports a
** failed call at its name and opening parenthesis and a missing argument
** at the closing one, where the evaluator marks the whole call: the
** range is narrowed here to read as Terraform's message does.
*/
static const char *diag_text(tfr_arena *a, const struct tfr_diag *g,
                             struct ast_file *t) {
  struct tfr_range r = g->subject;
  bool failed = g->code == TFR_CODE_FUNCTION_FAILED;
  bool missing = g->code == TFR_CODE_MISSING_ARGUMENT;
  const struct ast *call = NULL;
  if (t && r.filename && (failed || missing))
    call = call_at(t->body,
                   (struct span){(uint32_t)r.start.byte, (uint32_t)r.end.byte});
  if (call && failed) {
    uint32_t p = call->kids[0]->span.end;
    while (p < call->span.end && t->src->text[p] != '(')
      p++;
    r = src_range(t->src, (struct span){call->span.start,
                                        p < call->span.end ? p + 1 : p});
  } else if (call) {
    r = src_range(t->src, (struct span){call->span.end - 1, call->span.end});
  }
  char where[1024] = "<nil>";
  if (r.filename)
    tfr_range_format(&r, where, sizeof where);
  return tfr_arena_printf(a, "%s: %s; %s", where, g->summary,
                          g->detail ? g->detail : "");
}

/* hcl.Diagnostics.Error(). */
static const char *diags_text(tfr_arena *a, const tfr_diags *d,
                              struct ast_file *t) {
  size_t n = tfr_diags_count(d);
  const char *first = diag_text(a, tfr_diags_get(d, 0), t);
  if (n == 1)
    return first;
  return tfr_arena_printf(a, "%s, and %zu other diagnostic(s)", first, n - 1);
}

/*
** Parse text as a template named name; NULL after errors, with HCL's
** diagnostics as one message in *err.
*/
static struct ast_file *tmpl_parse(struct fcall *f, const char *name,
                                   const char *text, size_t len,
                                   const char **err) {
  tfr_diags *d = tfr_diags_new(f->a);
  struct ast_file *t = parse_template(f->a, d, name, text, len);
  if (t && !tfr_diags_has_errors(d))
    return t;
  *err = tfr_diags_count(d) ? diags_text(f->a, d, t) : "invalid template";
  return NULL;
}

/* Terraform's makeRenderTemplateFunc: the template's value, or NULL after
** reporting an error. */
static const tfr_value *tmpl_render(struct fcall *f, struct ast_file *t,
                                    const tfr_value *vars,
                                    const struct eval_funcs *funcs) {
  int k = vars->type->kind;
  if (k != TFR_MAP && k != TFR_OBJECT) {
    fcall_arg_error(f, 1, "invalid vars value: must be a map");
    return NULL;
  }
  for (size_t i = 0; i < vars_count(vars); i++) {
    size_t n;
    const char *name = vars_name(vars, i, &n);
    if (!valid_identifier(name, n)) {
      fcall_arg_error(f, 1,
                      "invalid template variable name %s: must start with "
                      "a letter, followed by zero or more letters, digits, "
                      "and underscores",
                      str_go_quote(f->a, name, n));
      return NULL;
    }
  }
  const struct ast *m = missing_var(t->body, vars);
  if (m) {
    struct tfr_range r = src_range(t->src, m->span);
    char where[1024];
    tfr_range_format(&r, where, sizeof where);
    fcall_arg_error(f, 1, "vars map does not contain key %s, referenced at %s",
                    str_go_quote(f->a, m->str, m->n), where);
    return NULL;
  }
  struct tmpl_vars tv = {vars};
  struct eval_scope scope = {vars_lookup, &tv, NULL};
  tfr_diags *d = tfr_diags_new(f->a);
  /* the caller's settings (base directory, engine, plan or console), but
  ** nothing of its scope */
  struct eval_ctx c = *f->c;
  c.diags = d;
  c.src = t->src;
  c.scope = &scope;
  c.funcs = funcs;
  c.bindings = NULL;
  c.splat_item = NULL;
  c.in_for = false;
  const tfr_value *v = eval_expr(&c, t->body);
  if (tfr_diags_has_errors(d)) {
    fcall_error(f, "%s", diags_text(f->a, d, t));
    return NULL;
  }
  return v;
}

/* ---- the functions ----------------------------------------------------- */

/* filepath.Abs, from the base directory rather than the process's. */
static const tfr_value *fn_abspath(struct fcall *f, const tfr_type *r) {
  (void)r;
  struct str p = {f->args[0]->s, f->args[0]->n};
  if (path_is_abs(p.p)) {
    struct str c = path_clean_n(f->a, p);
    return tfr_string(f->a, c.p, c.n);
  }
  const char *base = f->c->dir && *f->c->dir ? f->c->dir : "";
  if (!path_is_abs(base)) {
    char *wd = getcwd(NULL, 0); /* malloc'd */
    if (!wd && errno == ENOMEM)
      tfr_oom();
    if (!wd) {
      fcall_error(f, "getwd: %s", errstr(f->a, errno));
      return NULL;
    }
    base = path_join(f->a, wd, base);
    free(wd);
  }
  struct str abs = path_join_n(f->a, str_of(base), p);
  return tfr_string(f->a, abs.p, abs.n);
}

static const tfr_value *fn_pathexpand(struct fcall *f, const tfr_type *r) {
  (void)r;
  const char *err = NULL;
  struct str p =
      home_expand(f->a, (struct str){f->args[0]->s, f->args[0]->n}, &err);
  if (!p.p) {
    fcall_error(f, "%s", err);
    return NULL;
  }
  return p.p == f->args[0]->s ? f->args[0] : tfr_string(f->a, p.p, p.n);
}

/* file and filebase64: the path argument keeps its marks (AllowMarked). */
static const tfr_value *file_common(struct fcall *f, const tfr_type *r,
                                    bool base64) {
  const tfr_value *arg = f->args[0];
  unsigned marks = marks_of(arg);
  if (!tfr_value_is_known(arg))
    return marked(f, tfr_unknown(f->a, r), marks);
  struct file_data d = read_file(f, arg);
  if (!file_ok(f, &d, arg, marks))
    return NULL;
  if (base64) {
    size_t out = 4 * ((d.n + 2) / 3);
    unsigned char *b = tfr_arena_alloc_raw(f->a, out + 1);
    size_t w = 0;
    /* EVP_EncodeBlock takes an int length: encode in slices */
    for (size_t i = 0; i < d.n; i += 3 * (1 << 20)) {
      size_t k = d.n - i < 3 * (1 << 20) ? d.n - i : 3 * (1 << 20);
      w += (size_t)EVP_EncodeBlock(b + w, (const unsigned char *)d.bytes + i,
                                   (int)k);
    }
    b[w] = '\0';
    return marked(f, tfr_string_nocopy(f->a, (const char *)b, w), marks);
  }
  if (!file_utf8(f, &d, arg, marks))
    return NULL;
  return marked(f, tfr_string(f->a, d.bytes, d.n), marks);
}

static const tfr_value *fn_file(struct fcall *f, const tfr_type *r) {
  return file_common(f, r, false);
}

static const tfr_value *fn_filebase64(struct fcall *f, const tfr_type *r) {
  return file_common(f, r, true);
}

static const tfr_value *fn_fileexists(struct fcall *f, const tfr_type *r) {
  const tfr_value *arg = f->args[0];
  unsigned marks = marks_of(arg);
  if (!tfr_value_is_known(arg))
    return marked(f, tfr_unknown(f->a, r), marks);
  const char *err = NULL;
  struct str p = file_path(f, (struct str){arg->s, arg->n}, &err);
  if (!p.p) {
    fcall_error(f, "failed to expand ~: %s", err);
    return NULL;
  }
  struct stat st;
  /* Go refuses a name with a NUL byte: EINVAL */
  if (memchr(p.p, 0, p.n) ? (errno = EINVAL, -1) : stat(p.p, &st)) {
    if (errno == ENOENT)
      return marked(f, tfr_bool(false), marks);
    fcall_error(f, "failed to stat %s", redact_n(f, p, marks));
    return NULL;
  }
  if (S_ISREG(st.st_mode))
    return marked(f, tfr_bool(true), marks);
  /* Terraform reports these about argument 1, which fileexists does not
  ** have: HCL then reports a plain call error. */
  const char *what =
      S_ISDIR(st.st_mode) ? "is a directory, not a file"
      : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)
          ? "is a device node, not a regular file"
      : S_ISFIFO(st.st_mode) ? "is a named pipe, not a regular file"
      : S_ISSOCK(st.st_mode) ? "is a unix domain socket, not a regular file"
                             : "is not a regular file";
  fcall_error(f, "%s %s", redact_n(f, p, marks), what);
  return NULL;
}

/* ---- fileset: bmatcuk/doublestar v1 ------------------------------------ */

/* How deep a fileset walk goes (directories inside directories). */
#define GLOB_DEPTH 256

/* set(string), fileset's result type */
static const tfr_type set_of_string = {TFR_SET, 0,    &tfr_t_string,
                                       NULL,    NULL, NULL};

struct strs {
  const char **v;
  size_t n, cap;
};

static void strs_push(tfr_arena *a, struct strs *s, const char *x) {
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 16;
    const char **v = tfr_arena_alloc_raw(a, cap * sizeof *v);
    if (s->n)
      memcpy(v, s->v, s->n * sizeof *v);
    s->v = v;
    s->cap = cap;
  }
  s->v[s->n++] = x;
}

/* Go's utf8.DecodeRuneInString: (U+FFFD, 1) for a bad byte, (U+FFFD, 0)
** at the end. */
static int32_t decode_rune(const char *s, size_t n, size_t *adj) {
  int32_t r = 0xFFFD;
  *adj = n ? str_decode_rune(s, n, &r) : 0;
  return r;
}

/* indexRuneWithEscaping for an ASCII r: the first r not after a "\". */
static long index_unescaped(const char *s, size_t n, char r) {
  const char *p = memchr(s, r, n);
  if (!p)
    return -1;
  size_t end = (size_t)(p - s);
  if (end > 0 && s[end - 1] == '\\') {
    size_t start = end + 1;
    long e = index_unescaped(s + start, n - start, r);
    return e < 0 ? -1 : e + (long)start;
  }
  return (long)end;
}

/* splitPathOnSeparator for an ASCII separator (escapes respected). */
static struct strs split_escaped(tfr_arena *a, const char *s, size_t n,
                                 char sep) {
  struct strs out = {0};
  if (!memchr(s, sep, n)) {
    strs_push(a, &out, tfr_arena_strndup(a, s, n));
    return out;
  }
  for (size_t start = 0; start < n;) {
    long e = index_unescaped(s + start, n - start, sep);
    size_t end = e < 0 ? n : start + (size_t)e;
    strs_push(a, &out, tfr_arena_strndup(a, s + start, end - start));
    start = end + 1;
  }
  return out;
}

/* Code points of n bytes, as Go's []rune(string). */
static int32_t *runes_of(tfr_arena *a, const char *s, size_t n, size_t *len) {
  int32_t *r = tfr_arena_alloc_raw(a, (n ? n : 1) * sizeof *r);
  size_t k = 0;
  for (size_t i = 0; i < n;) {
    size_t adj;
    r[k++] = decode_rune(s + i, n - i, &adj);
    i += adj;
  }
  *len = k;
  return r;
}

/* One end of a range in a character class: the rune at cr[*ci] (of cl),
** a "\\" escaping the next; false where there is none or it is "-". */
static bool class_char(const int32_t *cr, size_t cl, size_t *ci, int32_t *r) {
  if (*ci >= cl || cr[*ci] == '-')
    return false;
  *r = cr[(*ci)++];
  if (*r == '\\') {
    if (*ci >= cl)
      return false;
    *r = cr[(*ci)++];
  }
  return true;
}

/* doublestar's matchComponent; -1 for a bad pattern. */
static int match_component(tfr_arena *a, const char *pat, size_t pl,
                           const char *name, size_t nl) {
  if (!pl && !nl)
    return 1;
  if (!pl)
    return 0;
  if (!nl && !(pl == 1 && pat[0] == '*'))
    return 0;
  size_t pi = 0, ni = 0;
  while (pi < pl && ni < nl) {
    size_t padj, nadj;
    int32_t pr = decode_rune(pat + pi, pl - pi, &padj);
    int32_t nr = decode_rune(name + ni, nl - ni, &nadj);
    if (pr == '\\') {
      pi += padj;
      pr = decode_rune(pat + pi, pl - pi, &padj);
      if (pr == 0xFFFD)
        return -1; /* a "\" ending the pattern, or before a bad byte */
      if (pr != nr)
        return 0;
      pi += padj;
      ni += nadj;
    } else if (pr == '*') {
      pi += padj;
      if (pi >= pl)
        return 1;
      for (; ni < nl; ni += nadj) /* steps by the first rune's size, as Go */
        if (match_component(a, pat + pi, pl - pi, name + ni, nl - ni) == 1)
          return 1;
      return 0;
    } else if (pr == '[') {
      pi += padj;
      long e = index_unescaped(pat + pi, pl - pi, ']');
      if (e < 0)
        return -1;
      size_t end = pi + (size_t)e, cl;
      int32_t *cr = runes_of(a, pat + pi, end - pi, &cl);
      if (!cl)
        return -1;
      size_t ci = cr[0] == '^' ? 1 : 0;
      bool hit = false;
      while (ci < cl) {
        int32_t lo, hi;
        if (!class_char(cr, cl, &ci, &lo))
          return -1;
        hi = lo;
        if (ci < cl && cr[ci] == '-') {
          ci++;
          if (!class_char(cr, cl, &ci, &hi))
            return -1;
        }
        if (lo <= nr && nr <= hi)
          hit = true;
      }
      if (hit == (cr[0] == '^'))
        return 0;
      pi = end + 1;
      ni += nadj;
    } else if (pr == '{') {
      pi += padj;
      long e = index_unescaped(pat + pi, pl - pi, '}');
      if (e < 0)
        return -1;
      size_t end = pi + (size_t)e;
      struct strs opts = split_escaped(a, pat + pi, end - pi, ',');
      const char *rest = pat + end + 1;
      size_t rl = pl - end - 1;
      for (size_t i = 0; i < opts.n; i++) {
        const char *o = tfr_arena_printf(a, "%s%.*s", opts.v[i], (int)rl, rest);
        int m = match_component(a, o, strlen(o), name + ni, nl - ni);
        if (m)
          return m;
      }
      return 0;
    } else if (pr == '?' || pr == nr) {
      pi += padj;
      ni += nadj;
    } else {
      return 0;
    }
  }
  if (pi >= pl && ni >= nl)
    return 1;
  if (ni >= nl && ((pl - pi == 1 && pat[pi] == '*') ||
                   (pl - pi == 2 && !memcmp(pat + pi, "**", 2))))
    return 1;
  return 0;
}

/* The walk of one fileset: its matches, and the directories it is in
** (device and inode, depth of them), so that a symbolic link to one of
** them (a cycle) is not followed again. */
struct globber {
  tfr_arena *a;
  struct strs matches;
  int depth;
  struct {
    dev_t dev;
    ino_t ino;
  } in[GLOB_DEPTH];
  bool too_large; /* past the memory budget (-max-memory) */
};

/* One directory entry as Go's Readdir gives it (lstat). */
struct dent {
  const char *name;
  bool is_dir, is_link;
};

static struct dent *read_dir(tfr_arena *a, const char *dir, size_t *n) {
  size_t k;
  const char **names = dir_list(a, dir, NULL, NULL, NULL, &k);
  *n = 0;
  if (!names)
    return NULL;
  struct dent *v = tfr_arena_alloc_raw(a, (k ? k : 1) * sizeof *v);
  for (size_t i = 0; i < k; i++) {
    struct stat st;
    if (lstat(path_join(a, dir, names[i]), &st) != 0)
      continue;
    v[(*n)++] =
        (struct dent){names[i], S_ISDIR(st.st_mode), S_ISLNK(st.st_mode)};
  }
  return v;
}

static bool has_meta(const char *s) { return strpbrk(s, "*?[{\\") != NULL; }

/* Whether the directory st is one the walk is in: doublestar follows
** symbolic links to directories, so a link to `..` leads back into them,
** which Terraform walks again until the path has too many links to
** resolve (40 on Linux; with two such links 2^40 paths).  Ours (not
** Terraform's): the walk does not enter it again. */
static bool inside(const struct globber *g, const struct stat *st) {
  for (int i = 0; i < g->depth - 1; i++)
    if (g->in[i].dev == st->st_dev && g->in[i].ino == st->st_ino)
      return true;
  return false;
}

/* doublestar v1's doGlob; the error it returns (-1) as Go's named result,
** including its habit of letting a later step overwrite an earlier one. */
static int do_glob(struct globber *g, const char *basedir,
                   const char *const *comps, size_t nc) {
  /* what a walk collects (its paths, in the arena) stays inside the
  ** memory budget, however many links lead to the same directories */
  if (tfr_arena_used(g->a) > arena_value_budget())
    g->too_large = true;
  if (g->too_large || ++g->depth > GLOB_DEPTH) {
    g->depth -= !g->too_large;
    return 0;
  }
  int e = 0;
  size_t pi = 0;
  while (pi < nc && !has_meta(comps[pi]))
    pi++;
  const char *dir = basedir;
  for (size_t i = 0; i < pi; i++)
    dir = path_join(g->a, dir, comps[i]);
  struct stat st;
  if (lstat(dir, &st) != 0)
    goto out;
  if (pi >= nc) {
    strs_push(g->a, &g->matches, dir);
    goto out;
  }
  if (S_ISLNK(st.st_mode) && stat(dir, &st) != 0)
    goto out;
  if (!S_ISDIR(st.st_mode) || inside(g, &st))
    goto out;
  g->in[g->depth - 1].dev = st.st_dev;
  g->in[g->depth - 1].ino = st.st_ino;
  size_t nf;
  struct dent *files = read_dir(g->a, dir, &nf);
  if (!files)
    goto out;
  bool last = pi + 1 >= nc;
  if (!strcmp(comps[pi], "**")) {
    for (size_t i = 0; i < nf; i++) {
      const char *full = path_join(g->a, dir, files[i].name);
      bool is_dir = files[i].is_dir;
      if (files[i].is_link) {
        struct stat ls;
        if (stat(full, &ls) != 0)
          continue;
        is_dir = S_ISDIR(ls.st_mode);
      }
      if (is_dir) {
        if (last)
          strs_push(g->a, &g->matches, full);
        e = do_glob(g, full, comps + pi, nc - pi);
      } else if (last) {
        strs_push(g->a, &g->matches, full);
      }
    }
    if (last)
      goto out;
    pi++;
    last = pi + 1 >= nc;
  }
  for (size_t i = 0; i < nf; i++) {
    const char *nm = files[i].name;
    int m = match_component(g->a, comps[pi], strlen(comps[pi]), nm, strlen(nm));
    e = m < 0 ? -1 : 0;
    if (m < 0)
      goto out;
    if (m) {
      const char *full = path_join(g->a, dir, nm);
      if (last)
        strs_push(g->a, &g->matches, full);
      else
        e = do_glob(g, full, comps + pi + 1, nc - pi - 1);
    }
  }
out:
  g->depth--;
  return e;
}

/* doublestar v1's Glob; false for a bad pattern. */
static bool glob(struct globber *g, const char *pattern) {
  struct strs c = split_escaped(g->a, pattern, strlen(pattern), '/');
  if (!c.n)
    return true;
  if (!*c.v[0])
    return do_glob(g, "/", c.v + 1, c.n - 1) >= 0;
  return do_glob(g, ".", c.v, c.n) >= 0;
}

static const tfr_value *fn_fileset(struct fcall *f, const tfr_type *r) {
  unsigned marks = marks_of(f->args[0]) | marks_of(f->args[1]);
  if (!tfr_value_is_known(f->args[0]) || !tfr_value_is_known(f->args[1]))
    return marked(f, tfr_unknown(f->a, r), marks);
  /* Go cannot stat a name with a NUL byte: nothing matches */
  if (memchr(f->args[0]->s, 0, f->args[0]->n) ||
      memchr(f->args[1]->s, 0, f->args[1]->n))
    return marked(f, tfr_set(f->a, &tfr_t_string, 0, NULL), marks);
  const char *path = f->args[0]->s;
  if (!path_is_abs(path))
    path = path_join(f->a, base_dir(f), path);
  const char *pattern = path_join(f->a, path, f->args[1]->s);
  struct globber *g = heap_calloc(1, sizeof *g);
  g->a = f->a;
  bool ok = glob(g, pattern), too_large = g->too_large;
  struct strs matches = g->matches;
  free(g);
  if (!ok) {
    fcall_error(f, "failed to glob pattern %s: syntax error in pattern",
                redact(f, pattern, marks));
    return NULL;
  }
  if (too_large) {
    fcall_error(f, "value too large: the result takes more than this run's "
                   "memory budget (-max-memory)");
    fcall_ours(f);
    return NULL;
  }
  const tfr_value **v =
      tfr_arena_alloc_raw(f->a, (matches.n ? matches.n : 1) * sizeof *v);
  size_t n = 0;
  for (size_t i = 0; i < matches.n; i++) {
    const char *m = matches.v[i];
    struct stat st;
    if (stat(m, &st) != 0) {
      /* a dangling link, or one through a non-directory: not a file */
      if (errno == ENOENT || errno == ENOTDIR)
        continue;
      fcall_error(f, "failed to stat %s: stat %s: %s", redact(f, m, marks), m,
                  errstr(f->a, errno));
      return NULL;
    }
    if (!S_ISREG(st.st_mode))
      continue;
    const char *rel = path_rel(f->a, path, m);
    if (!rel) {
      fcall_error(f,
                  "failed to trim path of match %s: Rel: can't make %s "
                  "relative to %s",
                  redact(f, m, marks), m, path);
      return NULL;
    }
    v[n++] = tfr_string(f->a, rel, strlen(rel));
  }
  return marked(f, tfr_set(f->a, &tfr_t_string, n, v), marks);
}

/* ---- file hashes (crypto.go's makeFileHashFunction) -------------------- */

static const tfr_value *file_hash(struct fcall *f, const char *algo,
                                  bool base64) {
  struct file_data d = read_file(f, f->args[0]);
  switch (d.fail) {
  case READ_OK:
    return funcs_hash(f->a, algo, base64, d.bytes, d.n);
  case READ_EXPAND:
    fcall_error(f, "failed to expand ~: %s", d.msg);
    return NULL;
  case READ_OPEN:
  case READ_READ:
    fcall_error(f, "%s", d.msg);
    return NULL;
  }
  return NULL;
}

#define FILE_HASH_FN(fn, algo, base64)                                         \
  static const tfr_value *fn(struct fcall *f, const tfr_type *r) {             \
    (void)r;                                                                   \
    return file_hash(f, algo, base64);                                         \
  }

FILE_HASH_FN(fn_filemd5, "md5", false)
FILE_HASH_FN(fn_filesha1, "sha1", false)
FILE_HASH_FN(fn_filesha256, "sha256", false)
FILE_HASH_FN(fn_filesha512, "sha512", false)
FILE_HASH_FN(fn_filebase64sha256, "sha256", true)
FILE_HASH_FN(fn_filebase64sha512, "sha512", true)

/* ---- templatefile ------------------------------------------------------ */

static const tfr_type *templatefile_type(struct fcall *f) {
  template_guard(f);
  return NULL;
}

static const tfr_value *fn_templatefile(struct fcall *f, const tfr_type *r) {
  (void)r;
  const tfr_value *path = f->args[0], *vars = f->args[1];
  unsigned marks = marks_of(path);
  if (!tfr_value_is_known(path) || !tfr_value_is_known(vars))
    return marked(f, tfr_unknown(f->a, &tfr_t_dynamic), marks);
  struct file_data d = read_file(f, path);
  if (!file_ok(f, &d, path, marks))
    return NULL;
  if (!file_utf8(f, &d, path, marks))
    return NULL;
  /* the text as a cty string: NFC-normalised */
  const tfr_value *text = tfr_string(f->a, d.bytes, d.n);
  const char *err = NULL;
  struct ast_file *t = tmpl_parse(f, path->s, text->s, text->n, &err);
  if (!t) {
    fcall_error(f, "%s", err);
    return NULL;
  }
  const tfr_value *v = tmpl_render(f, t, vars, &tmpl_funcs_file);
  return v ? marked(f, v, marks) : NULL;
}

/* ---- templatestring ---------------------------------------------------- */

/* What Terraform's isValidTemplateStringExpr accepts: a reference, or an
** index, attribute access or splat of one. */
static bool direct_reference(const struct ast *x) {
  switch (x->kind) {
  case AST_VARIABLE:
    return true;
  case AST_GETATTR:
    return direct_reference(x->kids[0]);
  case AST_INDEX:
  case AST_SPLAT:
    return direct_reference(x->a);
  default:
    return false;
  }
}

/* A template of literal parts only (HCL melds them into one literal). */
static bool literal_template(const struct ast *x) {
  if (x->kind != AST_TEMPLATE)
    return false;
  for (uint32_t i = 0; i < x->n; i++)
    if (x->items[i]->kind != AST_STRING)
      return false;
  return true;
}

/* The static check of the template argument's expression; false after
** reporting why it is not acceptable. */
static bool template_expr_ok(struct fcall *f) {
  const struct ast *call = f->call;
  /* an argument that comes from an expansion is a literal value to HCL */
  const struct ast *x =
      (call->flags & AST_F_EXPAND) && call->n == 1 ? NULL : call->items[0];
  const char *why = NULL;
  if (x && x->kind == AST_TEMPLATE && x->n == 1 &&
      x->items[0]->kind != AST_STRING && x->items[0]->kind != AST_TIF &&
      x->items[0]->kind != AST_TFOR)
    why = "templatestring is only for rendering templates retrieved "
          "dynamically from elsewhere; to treat the inner expression as "
          "template syntax, write the reference expression directly without "
          "any template interpolation syntax";
  else if (x && (x->kind == AST_STRING || literal_template(x)))
    why = "templatestring is only for rendering templates retrieved "
          "dynamically from elsewhere, and so does not support providing a "
          "literal template; consider using a template string expression "
          "instead";
  else if (x && x->kind == AST_TEMPLATE)
    why = "templatestring is only for rendering templates retrieved "
          "dynamically from elsewhere; to render an inline template, "
          "consider using a plain template string expression";
  else if (!x || !direct_reference(x))
    why = "must be a direct reference to a single string from elsewhere, "
          "containing valid Terraform template syntax";
  if (!why)
    return true;
  fcall_arg_error(f, 0, "invalid template expression: %s", why);
  return false;
}

static const tfr_type *templatestring_type(struct fcall *f) {
  if (!template_guard(f))
    return NULL;
  /* a vars argument of type any leaves the result type unknown (cty) */
  return f->args[1]->type->kind == TFR_DYNAMIC ? &tfr_t_dynamic : &tfr_t_string;
}

static const tfr_value *fn_templatestring(struct fcall *f, const tfr_type *r) {
  const tfr_value *tmpl = f->args[0], *vars = f->args[1];
  if (!tfr_value_is_known(vars))
    return tfr_unknown(f->a, r);
  if (!template_expr_ok(f))
    return NULL;
  if (!tfr_value_is_known(tmpl))
    return tfr_unknown(f->a, &tfr_t_string);
  if (tmpl->type->kind != TFR_STRING || tfr_value_is_null(tmpl)) {
    fcall_arg_error(f, 0, "invalid template value: a string is required");
    return NULL;
  }
  unsigned marks = marks_of(tmpl);
  const char *err = NULL;
  struct ast_file *t =
      tmpl_parse(f, "<templatestring argument>", tmpl->s, tmpl->n, &err);
  if (!t) {
    fcall_arg_error(f, 0, "invalid template: %s", err);
    return NULL;
  }
  const tfr_value *v = tmpl_render(f, t, vars, &tmpl_funcs_string);
  if (!v)
    return NULL;
  const char *cerr = NULL;
  const tfr_value *s = conv_convert(f->a, v, &tfr_t_string, &cerr);
  if (!s) {
    fcall_error(f, "invalid template result: %s",
                cerr ? cerr : "string required");
    return NULL;
  }
  return marked(f, s, marks);
}

/* ---- the table --------------------------------------------------------- */

/* A path argument that keeps its marks (Terraform's AllowMarked): the
** function redacts it in messages and marks its result itself. */
#define PATH_MARKED                                                            \
  { "path", &tfr_t_string, FP_ALLOW_MARKED | FP_ALLOW_UNKNOWN }
#define PATH_PLAIN                                                             \
  { "path", &tfr_t_string, 0 }
#define FILE_HASH(name, impl)                                                  \
  { name, 1, {PATH_PLAIN}, NULL, &tfr_t_string, fs_guard, impl }

static const struct func_spec specs[] = {
    {"abspath", 1, {PATH_PLAIN}, NULL, &tfr_t_string, NULL, fn_abspath},
    {"file", 1, {PATH_MARKED}, NULL, &tfr_t_string, fs_guard, fn_file},
    {"filebase64",
     1,
     {PATH_MARKED},
     NULL,
     &tfr_t_string,
     fs_guard,
     fn_filebase64},
    FILE_HASH("filebase64sha256", fn_filebase64sha256),
    FILE_HASH("filebase64sha512", fn_filebase64sha512),
    {"fileexists",
     1,
     {PATH_MARKED},
     NULL,
     &tfr_t_bool,
     fs_guard,
     fn_fileexists},
    FILE_HASH("filemd5", fn_filemd5),
    {"fileset",
     2,
     {PATH_MARKED,
      {"pattern", &tfr_t_string, FP_ALLOW_MARKED | FP_ALLOW_UNKNOWN}},
     NULL,
     &set_of_string,
     fs_guard,
     fn_fileset},
    FILE_HASH("filesha1", fn_filesha1),
    FILE_HASH("filesha256", fn_filesha256),
    FILE_HASH("filesha512", fn_filesha512),
    {"pathexpand", 1, {PATH_PLAIN}, NULL, &tfr_t_string, NULL, fn_pathexpand},
    {"templatefile",
     2,
     {PATH_MARKED, {"vars", NULL, FP_ALLOW_UNKNOWN}},
     NULL,
     NULL,
     templatefile_type,
     fn_templatefile},
    {"templatestring",
     2,
     {{"template", NULL,
       FP_ALLOW_NULL | FP_ALLOW_UNKNOWN | FP_ALLOW_DYNAMIC | FP_ALLOW_MARKED},
      {"vars", NULL, FP_ALLOW_UNKNOWN}},
     NULL,
     NULL,
     templatestring_type,
     fn_templatestring},
};

const struct func_group funcs_file = {specs, sizeof specs / sizeof *specs};
