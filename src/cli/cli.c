/*
** What the commands of the CLI share: diagnostics on stderr with colour
** only on a terminal (plain with -no-color), the check of the output,
** TF_CLI_ARGS, directory listings.
*/
#include "cli.h"
#include "cli_types.h"
#include "cli_util.h"

#include <errno.h>
#include <stdio.h>
#include <pthread.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

static bool want_color(const struct options *o) {
  const char *nc = getenv("NO_COLOR");
  return !o->no_color && !(nc && *nc) && isatty(STDERR_FILENO);
}

static bool want_unicode(void) {
  const char *vars[] = {"LC_ALL", "LC_CTYPE", "LANG"};
  for (int i = 0; i < 3; i++) {
    const char *v = getenv(vars[i]);
    if (v && *v)
      return strstr(v, "UTF-8") || strstr(v, "utf8") || strstr(v, "UTF8") ||
             strstr(v, "utf-8");
  }
  return true;
}

/*
** Terraform's width for diagnostics (terminal.OutputStream.Columns of
** stderr): the terminal's width as golang.org/x/term's GetSize reads it
** (TIOCGWINSZ; 0 too, which turns wrapping off), or 78 (defaultColumns)
** when stderr is not a terminal.
*/
static unsigned stderr_columns(void) {
#ifdef TIOCGWINSZ /* not POSIX.1-2008, but every Unix has it */
  struct winsize ws;
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) != 0)
    return 78;
  return ws.ws_col;
#else
  return 78;
#endif
}

char *cli_value_json(tfr_arena *a, const tfr_value *v, size_t *len) {
  char *buf = NULL;
  size_t n = 0;
  FILE *m = cli_memstream(&buf, &n);
  tfr_value_write_json(m, a, v);
  cli_memstream_close(m);
  if (len)
    *len = n;
  return buf;
}

/* d without the warnings about third-party modules' code, one warning of
** ours counting them instead (issue 37: not the user's to fix); d itself
** when there are none. */
static const tfr_diags *own_warnings(tfr_arena *a, const tfr_diags *d) {
  size_t n = tfr_diags_count(d), hidden = 0;
  for (size_t i = 0; i < n; i++) {
    const struct tfr_diag *g = tfr_diags_get(d, i);
    hidden += g->sev == TFR_DIAG_WARNING && g->third_party;
  }
  if (!hidden)
    return d;
  tfr_diags *out = tfr_diags_new(a);
  tfr_diags_share_sources(out, d);
  for (size_t i = 0; i < n; i++) {
    const struct tfr_diag *g = tfr_diags_get(d, i);
    if (!(g->sev == TFR_DIAG_WARNING && g->third_party))
      tfr_diags_add_full(out, g);
  }
  char detail[400];
  snprintf(detail, sizeof detail,
           "%zu %s about code inside third-party modules (installed under "
           ".terraform/modules, or outside the checked directory) %s not "
           "shown: that code is not yours to fix. -third-party-warnings "
           "shows each.",
           hidden, hidden == 1 ? "warning" : "warnings",
           hidden == 1 ? "is" : "are");
  tfr_diags_add(out, TFR_DIAG_WARNING, NULL,
                "Warnings in third-party modules not shown", detail);
  tfr_diags_set_ours(out);
  return out;
}

void cli_print_diags(const tfr_diags *all, const struct options *o) {
  tfr_arena *a = tfr_arena_new();
  const tfr_diags *d = o->third_party_warnings ? all : own_warnings(a, all);
  /* stderr is unbuffered: thousands of diagnostics would be thousands of
  ** small writes each.  They go through a buffered stream of their own on
  ** the same descriptor instead (not gathered whole in memory: a detail
  ** of 60 MB would be held twice), flushed before anything else is
  ** written to stderr. */
  fflush(stderr);
  int fd = dup(fileno(stderr));
  FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!out && fd >= 0)
    close(fd);
  if (!out)
    out = stderr;
  else
    setvbuf(out, NULL, _IOFBF, 1 << 16);
  if (o->format == FMT_SHORT) {
    tfr_diags_render_short(d, out);
  } else {
    struct tfr_render_opts ro = TFR_RENDER_OPTS_INIT;
    ro.color = want_color(o);
    ro.unicode = want_unicode();
    /* Terraform draws with DiagnosticPlain when its colour is disabled,
    ** which only -no-color does; NO_COLOR or a pipe keep the frame. */
    ro.plain = o->no_color;
    ro.width = ro.plain ? stderr_columns() : 0;
    tfr_diags_render_text(d, out, &ro);
  }
  if (out != stderr)
    fclose(out);
  tfr_arena_free(a);
}

struct stack_run {
  int (*fn)(int, char **);
  int argc;
  char **argv;
  int status;
};

static void *stack_run(void *arg) {
  struct stack_run *r = arg;
  r->status = r->fn(r->argc, r->argv);
  return NULL;
}

/* A run whose output did not all reach stdout (a full disk, a closed
** descriptor) fails, saying so: it never ends 0 with its output lost. */
static int output_written(int status) {
  errno = 0;
  bool flushed = fflush(stdout) == 0;
  int err = errno;
  if (flushed && !ferror(stdout))
    return status;
  fprintf(stderr, "tfresolve: error writing the output%s%s\n",
          !flushed && err ? ": " : "", !flushed && err ? strerror(err) : "");
  return EXIT_USAGE;
}

/* r run to its end on a thread of a stack of bytes; false if none could
** be started. */
static bool run_on_thread(struct stack_run *r, size_t bytes) {
  pthread_attr_t attr;
  pthread_t t;
  if (pthread_attr_init(&attr) != 0)
    return false;
  bool started = pthread_attr_setstacksize(&attr, bytes) == 0 &&
                 pthread_create(&t, &attr, stack_run, r) == 0;
  pthread_attr_destroy(&attr);
  if (started)
    pthread_join(t, NULL);
  return started;
}

int cli_run_with_stack(int (*main_fn)(int, char **), int argc, char **argv) {
  struct stack_run r = {main_fn, argc, argv, 0};
  /* Under `ulimit -v` the largest stack may not be had: a smaller one,
  ** whose whole address space is taken when the thread starts, is still
  ** better than the caller's, which grows into whatever address space
  ** is left and ends in SIGSEGV when there is none. */
  for (size_t bytes = CLI_STACK_BYTES; bytes >= CLI_MIN_STACK_BYTES; bytes /= 2)
    if (run_on_thread(&r, bytes))
      return output_written(r.status);
  /* none: for want of memory, which then ends the run (cli_alloc), or of
  ** threads (a sandbox), when the caller's stack will have to do */
  free(cli_alloc(CLI_MIN_STACK_BYTES));
  return output_written(main_fn(argc, argv));
}

_Noreturn void cli_oom(void) {
  /* write(2), not stdio: no lock or buffer of a stream half written */
  static const char msg[] = "tfresolve: out of memory\n";
  ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
  (void)w;
  _exit(EXIT_USAGE);
}

/* p, or cli_oom() when it is NULL. */
static void *checked(void *p) {
  if (!p)
    cli_oom();
  return p;
}

void *cli_alloc(size_t n) { return checked(malloc(n ? n : 1)); }

void *cli_calloc(size_t n, size_t size) {
  return checked(calloc(n ? n : 1, size ? size : 1));
}

void *cli_realloc(void *p, size_t n) { return checked(realloc(p, n ? n : 1)); }

char *cli_strndup(const char *s, size_t n) {
  size_t len = strnlen(s, n);
  char *p = cli_alloc(len + 1);
  memcpy(p, s, len);
  p[len] = '\0';
  return p;
}

char *cli_strdup(const char *s) { return cli_strndup(s, strlen(s)); }

ssize_t cli_getline(char **line, size_t *cap, FILE *f) {
  errno = 0;
  ssize_t n = getline(line, cap, f);
  if (n < 0 && errno == ENOMEM)
    cli_oom();
  return n;
}

FILE *cli_memstream(char **buf, size_t *len) {
  return checked(open_memstream(buf, len));
}

void cli_memstream_close(FILE *f) {
  bool failed = ferror(f); /* a write's realloc: all it can fail on */
  if (fclose(f) != 0 || failed)
    cli_oom();
}

void cli_names_add(struct cli_names *l, const char *s) {
  if (l->n == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 16;
    l->v = cli_realloc(l->v, l->cap * sizeof *l->v);
  }
  l->v[l->n] = cli_strdup(s);
  l->n++;
}

void cli_names_free(struct cli_names *l) {
  for (size_t i = 0; i < l->n; i++)
    free(l->v[i]);
  free(l->v);
  *l = (struct cli_names){0};
}

char *cli_path_join(const char *dir, const char *name) {
  size_t len = strlen(dir) + strlen(name) + 2;
  char *p = cli_alloc(len);
  snprintf(p, len, "%s/%s", dir, name);
  return p;
}

static int cmp_name(const void *x, const void *y) {
  return strcmp(*(char *const *)x, *(char *const *)y);
}

bool cli_list_dir(const char *dir,
                  bool (*keep)(const char *path, const char *name, int is_dir,
                               void *ctx),
                  void *ctx, struct cli_names *out) {
  DIR *d = opendir(dir);
  if (!d)
    return false;
  size_t from = out->n;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    bool ok = true;
    if (keep) {
      char *path = cli_path_join(dir, e->d_name);
      /* d_type is not POSIX.1-2008, but most systems have it */
#if defined(DT_DIR)
      int is_dir = e->d_type == DT_UNKNOWN ? -1 : e->d_type == DT_DIR;
#elif defined(_DIRENT_HAVE_D_TYPE)
      /* glibc and musl have d_type but name its values only for their
      ** extensions: BSD's DT_UNKNOWN 0 and DT_DIR 4, as everywhere */
      int is_dir = e->d_type == 0 ? -1 : e->d_type == 4;
#else
      int is_dir = -1;
#endif
      ok = keep(path, e->d_name, is_dir, ctx);
      free(path);
    }
    if (ok)
      cli_names_add(out, e->d_name);
  }
  closedir(d);
  if (out->n - from > 1)
    qsort(out->v + from, out->n - from, sizeof *out->v, cmp_name);
  return true;
}

int cli_is_dir(const char *path, int is_dir) {
  struct stat st;
  if (is_dir >= 0)
    return is_dir;
  return lstat(path, &st) != 0 ? -1 : S_ISDIR(st.st_mode) != 0;
}

static void cli_buf_put_kept(struct cli_buf *b, const char *s, size_t n);

bool cli_buf_full(const struct cli_buf *b) {
  return b->max_lines && b->lines >= b->max_lines;
}

void cli_buf_put(struct cli_buf *b, const char *s, size_t n) {
  if (b->max_lines) {
    if (b->lines >= b->max_lines) { /* full: only counted */
      size_t more = 0;
      for (size_t i = 0; i < n; i++)
        more += s[i] == '\n';
      b->more += more;
      return;
    }
    for (const char *p = s, *e = s + n; (p = memchr(p, '\n', (size_t)(e - p)));
         p++)
      if (++b->lines == b->max_lines) { /* keep up to this newline */
        size_t keep = (size_t)(p - s);
        cli_buf_put_kept(b, s, keep);
        for (p++; (p = memchr(p, '\n', (size_t)(e - p))); p++)
          b->more++;
        b->more++; /* the newline that ended the kept lines */
        return;
      }
  }
  cli_buf_put_kept(b, s, n);
}

static void cli_buf_put_kept(struct cli_buf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    b->cap = (b->n + n + 1) * 2;
    b->p = cli_realloc(b->p, b->cap);
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = '\0';
}

void cli_buf_puts(struct cli_buf *b, const char *s) {
  cli_buf_put(b, s, strlen(s));
}

void cli_buf_indent(struct cli_buf *b, int n) {
  static const char spaces[] = "                                ";
  for (; n > 0; n -= (int)sizeof spaces - 1)
    cli_buf_put(b, spaces,
                n < (int)sizeof spaces - 1 ? (size_t)n : sizeof spaces - 1);
}

bool cli_buf_read(struct cli_buf *b, FILE *f) {
  char chunk[65536];
  size_t k;
  while ((k = fread(chunk, 1, sizeof chunk, f)) > 0)
    cli_buf_put(b, chunk, k);
  return !ferror(f);
}

static const char *const type_words[] = {
    [TFR_DYNAMIC] = "any",   [TFR_BOOL] = "bool",     [TFR_NUMBER] = "number",
    [TFR_STRING] = "string", [TFR_LIST] = "list",     [TFR_SET] = "set",
    [TFR_MAP] = "map",       [TFR_OBJECT] = "object", [TFR_TUPLE] = "tuple",
};

const char *cli_type_word(const tfr_type *t) {
  return type_words[t->kind <= TFR_TUPLE ? t->kind : TFR_DYNAMIC];
}

bool cli_attr_optional(const tfr_type *t, size_t i) {
  return t->optional && t->optional[i];
}

bool cli_sh_name(const char *s) {
  for (const char *p = s; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' ||
          (p > s && *p >= '0' && *p <= '9')))
      return false;
  return *s != '\0';
}

void cli_sh_quote(FILE *f, const char *s) {
  fputc('\'', f);
  for (const char *p = s; *p; p++)
    if (*p == '\'')
      fputs("'\\''", f);
    else
      fputc(*p, f);
  fputc('\'', f);
}

const char *cli_call_path(tfr_arena *a, const char *addr) {
  char *out = tfr_arena_alloc(a, strlen(addr) + 1), *o = out;
  for (const char *p = addr; *p;) {
    if (*p != '[') {
      *o++ = *p++;
      continue;
    }
    bool quoted = false; /* a key's "]" inside quotes is the key's */
    for (p++; *p && (quoted || *p != ']'); p++) {
      if (*p == '\\' && quoted && p[1])
        p++;
      else if (*p == '"')
        quoted = !quoted;
    }
    p += *p == ']';
  }
  *o = 0;
  return out;
}

bool cli_has_suffix(const char *s, const char *suf) {
  size_t n = strlen(s), k = strlen(suf);
  return n >= k && !strcmp(s + n - k, suf);
}

/* ---- module trees ------------------------------------------------------ */
