/*
** tfresolve lsp: a Language Server Protocol server over stdio for
** *.tfvars, *.tfvars.json and the module's *.tf files.
**
** JSON-RPC messages with Content-Length framing, parsed and written with
** jansson.  One thread, one message at a time, so a result is never
** overwritten by an older one: a change marks its module dirty, and the
** module is resolved again (with every open document's text in place of
** the file on disk) once no more input is waiting, which debounces a
** burst of keystrokes.  Diagnostics of every file of the module are
** published, so that changing variables.tf re-checks an open tfvars.
** A module is resolved with its module tree (unless the setting modules
** is false): a child module instance's diagnostic goes where it can be
** fixed, the module argument when that file is open and the variables
** file line whose value it reads, and a hover on a variable lists the
** child modules' variables its value reaches.  A file that several
** modules speak of (a child module's file opened on its own) gets what
** each says, once.  Everything the server knows comes from the public
** API: a resolution per module, and tfr_file_locate for what is under
** the cursor.
*/
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_module.h"
#include "cli_types.h"
#include "cli_util.h"
#include "rule_text.h"
#include "options.h"

extern char **environ;

/* Messages larger than this are refused (a JSON-RPC error), unread. */
#define MAX_MESSAGE ((size_t)64 << 20)
/* How long input may pause before dirty modules are resolved: as long as
** resolving them took the last time, at most DEBOUNCE_MAX_MS (a module
** resolved in 3 ms waits 3 ms for the next keystroke, a slow one longer,
** so that a burst of changes is resolved once). */
#define DEBOUNCE_MAX_MS 30
/* A client that does not watch files for the server (no dynamic
** registration of workspace/didChangeWatchedFiles): how long input may
** pause before the modules' files on disk are looked at again (their
** names, sizes and modification times). */
#define DISK_POLL_MS 1000
/* The id of our client/registerCapability request. */
#define WATCH_REQUEST_ID "tfresolve/watch"

static const char usage_lsp[] =
    "Usage: tfresolve lsp\n"
    "\n"
    "A language server (LSP, JSON-RPC over standard input and output) for\n"
    "*.tfvars, *.tfvars.json and the module's *.tf files: diagnostics as\n"
    "you type (syntax, conversion, validation rules, undeclared variables,\n"
    "misspelt object attributes), hover (type, description, rules and where\n"
    "the value that wins comes from), completion of variable and attribute\n"
    "names and of the values a rule allows, go to definition, quick fixes\n"
    "(misspelt names, a required variable to add, an undeclared one to\n"
    "declare) and document symbols.  Files changed on disk are seen\n"
    "(watched through the client where it can, else looked at), and what\n"
    "cannot be checked is said (an unreadable var file, a broken .tf file,\n"
    "no declarations in the directory).\n"
    "\n"
    "Settings (initializationOptions, or workspace/didChangeConfiguration\n"
    "under \"tfresolve\"): engine (\"terraform\" or \"opentofu\"), varFiles\n"
    "(var files to layer, relative to the module), env (an object of\n"
    "TF_VAR_ names and values), strict (misspelt attributes as errors),\n"
    "modules (false: do not follow module blocks into child modules; by\n"
    "default a child module's failure is shown at its module argument and\n"
    "at the variables file line whose value causes it, and hover lists the\n"
    "child module variables a value reaches).\n";

/* ---- reading and writing messages --------------------------------------- */

struct input {
  char buf[65536];
  size_t start, end;
  bool eof;
  bool resync; /* after a bad header: skip to the next Content-Length */
};

static bool fill(struct input *in) {
  if (in->start == in->end)
    in->start = in->end = 0;
  if (in->end == sizeof in->buf) {
    if (!in->start)
      return false; /* a header line longer than the buffer */
    memmove(in->buf, in->buf + in->start, in->end - in->start);
    in->end -= in->start;
    in->start = 0;
  }
  ssize_t n;
  do
    n = read(STDIN_FILENO, in->buf + in->end, sizeof in->buf - in->end);
  while (n < 0 && errno == EINTR);
  if (n <= 0) {
    in->eof = true;
    return false;
  }
  in->end += (size_t)n;
  return true;
}

/* Whether more input is waiting (buffered, or within ms). */
static bool waiting(struct input *in, int ms) {
  if (in->start < in->end)
    return true;
  struct pollfd p = {STDIN_FILENO, POLLIN, 0};
  return poll(&p, 1, ms) > 0;
}

/* One header line (without CR LF) into line, and the offset in buf it
** starts at in *at; false at the end.  A line longer than the buffer is
** no header: *whole false, and it is left unread. */
static bool header_line(struct input *in, char *line, size_t size, size_t *at,
                        bool *whole) {
  *whole = true;
  for (;;) {
    char *nl = memchr(in->buf + in->start, '\n', in->end - in->start);
    *at = in->start;
    if (nl) {
      size_t n = (size_t)(nl - (in->buf + in->start));
      size_t k = n && nl[-1] == '\r' ? n - 1 : n;
      if (k >= size)
        k = size - 1;
      memcpy(line, in->buf + in->start, k);
      line[k] = '\0';
      in->start += n + 1;
      return true;
    }
    if (in->start == 0 && in->end == sizeof in->buf) {
      *line = '\0';
      *whole = false;
      return true;
    }
    if (!fill(in))
      return false;
  }
}

/* Whether line is a header ("Name: value"). */
static bool is_header(const char *line) {
  size_t n = strspn(line, "abcdefghijklmnopqrstuvwxyz"
                          "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-");
  return n && line[n] == ':';
}

/* Skips input up to the next "Content-Length:", wherever it is: after a
** bad header the body's length is unknown, and junk may have no line
** breaks.  False at the end of input. */
static bool resync(struct input *in) {
  static const char key[] = "Content-Length:";
  const size_t k = sizeof key - 1;
  for (;;) {
    for (size_t i = in->start; i + k <= in->end; i++)
      if (!strncasecmp(in->buf + i, key, k)) {
        in->start = i;
        in->resync = false;
        return true;
      }
    if (in->end - in->start >= k)
      in->start = in->end - (k - 1); /* keep a key cut in two */
    if (!fill(in))
      return false;
  }
}

/* The next message's body (malloc'd, *len bytes), NULL at the end of
** input.  A bad header (a Content-Length that is not a number or is too
** large, a line that is no header) gives *bad and an empty body, and the
** input is read again from the next Content-Length: a client's mistake
** costs that one message, not the ones after it. */
static char *read_message(struct input *in, size_t *len, bool *bad) {
  char line[1024];
  long long length = -1;
  *bad = false;
  if (in->resync && !resync(in))
    return NULL;
  for (;;) {
    size_t at;
    bool whole;
    if (!header_line(in, line, sizeof line, &at, &whole))
      return NULL;
    if (!*line && whole) {
      if (length >= 0)
        break;
      continue; /* stray blank lines between messages */
    }
    if (!whole || !is_header(line)) {
      *bad = true;
    } else if (!strncasecmp(line, "Content-Length:", 15)) {
      char *end;
      errno = 0;
      length = strtoll(line + 15, &end, 10);
      end += strspn(end, " \t");
      if (end == line + 15 || *end || errno || length < 0 ||
          (unsigned long long)length > MAX_MESSAGE)
        *bad = true;
    }
    if (*bad) {
      /* what follows may be in this very line: a body longer than its
      ** Content-Length said runs into the next message's header */
      in->start = at + 1;
      in->resync = true;
      *len = 0;
      return cli_strdup("");
    }
  }
  size_t n = (size_t)length;
  char *body = cli_alloc(n + 1);
  size_t got = 0;
  while (got < n) {
    if (in->start == in->end && !fill(in)) {
      free(body);
      return NULL;
    }
    size_t k = in->end - in->start;
    if (k > n - got)
      k = n - got;
    memcpy(body + got, in->buf + in->start, k);
    in->start += k;
    got += k;
  }
  body[n] = '\0';
  *len = n;
  return body;
}

static void send_json(json_t *msg) {
  json_object_set_new(msg, "jsonrpc", json_string("2.0"));
  char *text = json_dumps(msg, JSON_COMPACT);
  json_decref(msg);
  if (!text)
    cli_oom();
  printf("Content-Length: %zu\r\n\r\n%s", strlen(text), text);
  fflush(stdout);
  free(text);
}

static void reply(json_t *id, json_t *result) {
  json_t *m = json_object();
  json_object_set(m, "id", id ? id : json_null());
  json_object_set_new(m, "result", result ? result : json_null());
  send_json(m);
}

static void reply_error(json_t *id, int code, const char *message) {
  json_t *m = json_object();
  json_object_set(m, "id", id ? id : json_null());
  json_object_set_new(
      m, "error", json_pack("{s:i, s:s}", "code", code, "message", message));
  send_json(m);
}

static void notify(const char *method, json_t *params) {
  json_t *m = json_object();
  json_object_set_new(m, "method", json_string(method));
  json_object_set_new(m, "params", params);
  send_json(m);
}

/* ---- documents and modules ---------------------------------------------- */

struct doc {
  char *uri, *path; /* path: the file's absolute path */
  char *text;
  size_t len;
  int version;
  char *mod_dir; /* its module (module_dir_for, found when it is opened) */
  bool var_file; /* a variables file that module does not load itself */
};

struct module {
  char *dir;
  char *var_file; /* an open variables file that the module does not load
                     itself (envs/prod.tfvars), resolved as -var-file on
                     top of the module's own sources; NULL: the module */
  bool dirty;
  tfr_arena *a; /* the last resolution's */
  const struct tfr_resolution *res;
  tfr_diags *diags;
  struct pub *pub; /* what it last published, by URI */
  size_t npub;
  /* what the server itself says of the module's sources, at line 0 of
  ** its open documents (a varFiles entry that cannot be read), in a */
  struct note *notes;
  size_t nnotes;
  unsigned long long stamp; /* its files on disk (disk_stamp) when it was
                               last resolved */
};

/* A diagnostic of the server's own about a module, at the first line of
** its open documents. */
struct note {
  int sev; /* LSP's: 1 error, 2 warning, 3 information */
  const char *text;
};

/* The diagnostics a module published for one URI. */
struct pub {
  char *uri;
  json_t *list;
};

struct settings {
  bool opentofu, strict;
  bool modules; /* follow module blocks (tfr_resolve_opts.tree) */
  struct cli_names var_files;
  struct cli_names env; /* TF_VAR_name=value */
};

/* What was last published for a URI (its params, JSON text). */
struct sent {
  char *uri, *json;
};

struct server {
  struct doc *docs;
  size_t ndocs, capdocs;
  struct module *mods;
  size_t nmods, capmods;
  struct settings set;
  bool shutdown;
  int debounce_ms;              /* how long the last resolve_dirty took */
  bool plaintext, create_files; /* the client's (client_caps) */
  bool can_watch;               /* the client registers file watchers for us */
  bool watching; /* and said yes: no looking at the disk ourselves */
  struct sent *sent;
  size_t nsent;
  struct cli_names shown; /* window/showMessage texts, each sent once */
};

/* A file: URI's path (percent-decoded), malloc'd; NULL for another
** scheme. */
static char *uri_path(const char *uri) {
  if (strncmp(uri, "file://", 7))
    return NULL;
  const char *p = uri + 7;
  char *out = cli_alloc(strlen(p) + 1), *o = out;
  for (; *p; p++) {
    unsigned hi, lo;
    if (*p == '%' && p[1] && p[2] && sscanf(p + 1, "%1x%1x", &hi, &lo) == 2) {
      *o++ = (char)(hi * 16 + lo);
      p += 2;
    } else {
      *o++ = *p;
    }
  }
  *o = '\0';
  return out;
}

/* path as a file: URI (unreserved bytes as they are), malloc'd. */
static char *path_uri(const char *path) {
  size_t n = strlen(path);
  char *out = cli_alloc(7 + 3 * n + 1), *o = out;
  o += sprintf(o, "file://");
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
        (*p >= '0' && *p <= '9') || strchr("/-._~", *p))
      *o++ = (char)*p;
    else
      o += sprintf(o, "%%%02X", *p);
  }
  *o = '\0';
  return out;
}

static char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash || slash == path)
    return cli_strdup("/");
  char *d = cli_strndup(path, (size_t)(slash - path));
  return d;
}

static struct doc *find_doc(struct server *s, const char *uri) {
  for (size_t i = 0; i < s->ndocs; i++)
    if (!strcmp(s->docs[i].uri, uri))
      return &s->docs[i];
  return NULL;
}

static struct doc *doc_by_path(struct server *s, const char *path) {
  for (size_t i = 0; i < s->ndocs; i++)
    if (!strcmp(s->docs[i].path, path))
      return &s->docs[i];
  return NULL;
}

static bool same(const char *x, const char *y) {
  return x == y || (x && y && !strcmp(x, y));
}

static struct module *module_of(struct server *s, const char *dir,
                                const char *var_file) {
  for (size_t i = 0; i < s->nmods; i++)
    if (!strcmp(s->mods[i].dir, dir) && same(s->mods[i].var_file, var_file))
      return &s->mods[i];
  if (s->nmods == s->capmods) {
    s->capmods = s->capmods ? 2 * s->capmods : 4;
    s->mods = cli_realloc(s->mods, s->capmods * sizeof *s->mods);
  }
  struct module *m = &s->mods[s->nmods++];
  memset(m, 0, sizeof *m);
  m->dir = cli_strdup(dir);
  m->var_file = var_file ? cli_strdup(var_file) : NULL;
  return m;
}

/* Whether dir holds configuration (.tf, .tf.json, .tofu...). */
static bool config_name(const char *path, const char *name, int is_dir,
                        void *ctx) {
  (void)ctx;
  return (cli_has_suffix(name, ".tf") || cli_has_suffix(name, ".tf.json") ||
          cli_has_suffix(name, ".tofu") ||
          cli_has_suffix(name, ".tofu.json")) &&
         cli_is_dir(path, is_dir) != 1;
}

static bool has_config(const char *dir) {
  struct cli_names l = {0};
  bool any = cli_list_dir(dir, config_name, NULL, &l) && l.n > 0;
  cli_names_free(&l);
  return any;
}

/* Loaded by the module of its directory: terraform.tfvars(.json) and
** *.auto.tfvars(.json). */
static bool auto_loaded(const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  return !strcmp(base, "terraform.tfvars") ||
         !strcmp(base, "terraform.tfvars.json") ||
         cli_has_suffix(base, ".auto.tfvars") ||
         cli_has_suffix(base, ".auto.tfvars.json");
}

/* The module a document belongs to (malloc'd dir), and (*var_file, not
** malloc'd: path itself) the variables file it is for that module when
** the module does not load it: a file of a module directory that is not
** auto-loaded, or a variables file below one (envs/prod.tfvars), up to
** three directories down. */
static char *module_dir_for(const char *path, const char **var_file) {
  char *dir = dir_of(path);
  *var_file = NULL;
  if (!cli_has_suffix(path, ".tfvars") && !cli_has_suffix(path, ".tfvars.json"))
    return dir;
  if (has_config(dir)) {
    if (!auto_loaded(path))
      *var_file = path;
    return dir;
  }
  char *up = cli_strdup(dir);
  for (int level = 0; level < 3 && strcmp(up, "/"); level++) {
    char *parent = dir_of(up);
    free(up);
    up = parent;
    if (has_config(up)) {
      free(dir);
      *var_file = path;
      return up;
    }
  }
  free(up);
  return dir;
}

static struct module *module_for_doc(struct server *s, const struct doc *d) {
  return module_of(s, d->mod_dir, d->var_file ? d->path : NULL);
}

/* Whether document d is published by module m. */
static bool publishes(const struct module *m, const struct doc *d) {
  if (m->var_file)
    return !strcmp(d->path, m->var_file);
  return !d->var_file && !strcmp(d->mod_dir, m->dir);
}

/* The text of a file: the open document's, else the disk's (malloc'd in
** *owned, or NULL). */
static const char *file_text(struct server *s, const char *path, size_t *len,
                             char **owned) {
  *owned = NULL;
  struct doc *d = doc_by_path(s, path);
  if (d) {
    *len = d->len;
    return d->text;
  }
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  char *buf = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n + 65536 > cap) {
      cap = (n + 65536) * 2;
      char *nb = cli_realloc(buf, cap);
      buf = nb;
    }
    size_t k = fread(buf + n, 1, cap - n - 1, f);
    n += k;
    if (k == 0 || n > MAX_MESSAGE)
      break;
  }
  fclose(f);
  buf[n] = '\0';
  *owned = buf;
  *len = n;
  return buf;
}

/* ---- positions: bytes and LSP's (line, UTF-16 unit) --------------------- */

/* The bytes of the character at s (n bytes left, n > 0), its UTF-16
** units in *units.  A byte that starts no valid sequence counts alone,
** as an editor shows it: U+FFFD, one unit. */
static size_t char_at(const char *s, size_t n, int *units) {
  unsigned char c = (unsigned char)s[0];
  size_t k = c < 0xC2 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF5 ? 4 : 1;
  if (k > n)
    k = 1;
  for (size_t i = 1; i < k; i++)
    if (((unsigned char)s[i] & 0xC0) != 0x80)
      k = 1;
  *units = k == 4 ? 2 : 1; /* beyond the BMP: a surrogate pair */
  return k;
}

/* A text and where its lines start, for many positions in it: a file
** with thousands of diagnostics is not counted from its start for each.
** The last position is kept, and the next one on its line counts on
** from it. */
struct text_lines {
  const char *text;
  size_t len;
  size_t *starts; /* the byte each line starts at; NULL until needed */
  size_t n;
  size_t last_line, last_byte, last_col;
};

static json_t *position_in(struct text_lines *t, size_t byte) {
  if (byte > t->len)
    byte = t->len;
  if (!t->starts) {
    t->n = 1;
    for (size_t i = 0; i < t->len; i++)
      t->n += t->text[i] == '\n';
    t->starts = cli_alloc(t->n * sizeof *t->starts);
    t->starts[0] = 0;
    for (size_t i = 0, l = 1; i < t->len; i++)
      if (t->text[i] == '\n')
        t->starts[l++] = i + 1;
    t->last_line = t->last_byte = t->last_col = 0;
  }
  size_t lo = 0, hi = t->n; /* the last line that starts at or before byte */
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (t->starts[mid] <= byte)
      lo = mid;
    else
      hi = mid;
  }
  size_t i = t->starts[lo], col = 0;
  if (t->last_line == lo && t->last_byte >= i && t->last_byte <= byte)
    i = t->last_byte, col = t->last_col;
  while (i < byte) {
    int units;
    i += char_at(t->text + i, t->len - i, &units);
    col += (size_t)units;
  }
  t->last_line = lo, t->last_byte = i, t->last_col = col;
  return json_pack("{s:I, s:I}", "line", (json_int_t)lo, "character",
                   (json_int_t)col);
}

static json_t *range_in(struct text_lines *t, const struct tfr_range *r) {
  size_t a = r->start.byte, b = r->end.byte;
  if (b < a)
    b = a;
  json_t *start = position_in(t, a);
  return json_pack("{s:o, s:o}", "start", start, "end", position_in(t, b));
}

/* One range of a text. */
static json_t *range_of(const char *text, size_t len,
                        const struct tfr_range *r) {
  struct text_lines t = {text, len, NULL, 0, 0, 0, 0};
  json_t *range = range_in(&t, r);
  free(t.starts);
  return range;
}

static size_t byte_of(const char *text, size_t len, int line, int character) {
  size_t i = 0;
  for (int l = 0; l < line && i < len; i++)
    if (text[i] == '\n')
      l++;
  for (int col = 0; col < character && i < len && text[i] != '\n';) {
    int units;
    i += char_at(text + i, len - i, &units);
    col += units;
  }
  return i;
}

/* ---- resolving a module -------------------------------------------------- */

/* Diagnostics LSP's way: severity 1 error, 2 warning. */
static int severity(const struct tfr_diag *g) {
  return g->sev == TFR_DIAG_ERROR ? 1 : 2;
}

static json_t *lsp_diag(struct text_lines *t, const struct tfr_diag *g,
                        int sev) {
  /* the summary, the detail, the note, and (ours, after Terraform's
  ** words) the child module instance it is about */
  const char *in = g->module && *g->module ? g->module : NULL;
  size_t n = strlen(g->summary) + (g->detail ? strlen(g->detail) : 0) +
             (g->note ? strlen(g->note) : 0) + (in ? strlen(in) : 0) + 16;
  char *msg = cli_alloc(n);
  snprintf(msg, n, "%s%s%s%s%s%s%s%s", g->summary,
           g->detail && *g->detail ? ": " : "", g->detail ? g->detail : "",
           g->note ? "\n\n" : "", g->note ? g->note : "", in ? "\n(in " : "",
           in ? in : "", in ? ")" : "");
  json_t *d =
      json_pack("{s:o, s:i, s:s, s:s}", "range", range_in(t, &g->subject),
                "severity", sev, "source", "tfresolve", "message", msg);
  free(msg);
  if (g->code)
    json_object_set_new(d, "code", json_integer(g->code));
  return d;
}

static bool is_tfvars(const char *path) {
  return cli_has_suffix(path, ".tfvars") ||
         cli_has_suffix(path, ".tfvars.json");
}

/* A tfvars document parsed (NULL with syntax errors). */
static tfr_file *parse_doc(tfr_arena *a, const struct doc *d) {
  tfr_diags *dg = tfr_diags_new(a);
  return tfr_parse_bytes(a, dg, d->path, d->text, d->len,
                         cli_has_suffix(d->path, ".json") ? TFR_SYNTAX_JSON
                                                          : TFR_SYNTAX_HCL);
}

/* A file's diagnostics, by its path, and its text once one is placed. */
struct file_diags {
  char *path;
  json_t *list;
  bool read;
  char *owned; /* the text, when read from disk */
  struct text_lines text;
};

/* The file of path in files (added when it is not yet). */
static struct file_diags *file_of(struct file_diags **files, size_t *n,
                                  const char *path) {
  for (size_t k = 0; k < *n; k++)
    if (!strcmp((*files)[k].path, path))
      return &(*files)[k];
  *files = cli_realloc(*files, (*n + 1) * sizeof **files);
  struct file_diags *f = &(*files)[(*n)++];
  memset(f, 0, sizeof *f);
  f->path = cli_strdup(path);
  f->list = json_array();
  return f;
}

/* Adds g to f's list with LSP severity sev (f's text is read once, for
** the first); nothing when f cannot be read. */
static void place_as(struct server *s, struct file_diags *f,
                     const struct tfr_diag *g, int sev) {
  if (!f->read) {
    f->read = true;
    f->text.text = file_text(s, f->path, &f->text.len, &f->owned);
  }
  if (!f->text.text)
    return;
  json_t *d = lsp_diag(&f->text, g, sev);
  if (g->module && *g->module) { /* a child's: once in a file */
    size_t i;
    json_t *x;
    json_array_foreach(f->list, i, x) if (json_equal(x, d)) {
      json_decref(d);
      return;
    }
  }
  json_array_append_new(f->list, d);
}

static void place(struct server *s, struct file_diags *f,
                  const struct tfr_diag *g) {
  place_as(s, f, g, severity(g));
}

static bool config_file(const char *path) {
  return cli_has_suffix(path, ".tf") || cli_has_suffix(path, ".tf.json") ||
         cli_has_suffix(path, ".tofu") || cli_has_suffix(path, ".tofu.json");
}

static void show_once(struct server *s, int type, const char *text);

/* What has no place of its own (g's subject has no file), at the first
** line of every open document m publishes but the one of path skip (a
** tfvars document only, with tfvars_only), with LSP severity sev; where
** there is none, a message shown once. */
static void place_at_top(struct server *s, struct module *m,
                         struct file_diags **files, size_t *nfiles,
                         const struct tfr_diag *g, int sev, const char *skip,
                         bool tfvars_only) {
  bool any = false;
  for (size_t i = 0; i < s->ndocs; i++) {
    struct doc *d = &s->docs[i];
    if (!publishes(m, d) || same(d->path, skip) ||
        (tfvars_only && !is_tfvars(d->path)))
      continue;
    const char *nl = memchr(d->text, '\n', d->len);
    struct tfr_diag top = *g;
    top.subject = (struct tfr_range){0};
    top.subject.filename = d->path;
    top.subject.end.byte = nl ? (size_t)(nl - d->text) : d->len;
    place_as(s, file_of(files, nfiles, d->path), &top, sev);
    any = true;
  }
  if (any || tfvars_only)
    return;
  size_t n = strlen(g->summary) + (g->detail ? strlen(g->detail) : 0) +
             strlen(m->dir) + 32;
  char *msg = cli_alloc(n);
  snprintf(msg, n, "tfresolve (%s): %s%s%s", m->dir, g->summary,
           g->detail ? ": " : "", g->detail ? g->detail : "");
  show_once(s, sev == 1 ? 1 : 2, msg);
  free(msg);
}

static bool same_range(const struct tfr_range *x, const struct tfr_range *y) {
  return same(x->filename, y->filename) && x->start.byte == y->start.byte &&
         x->end.byte == y->end.byte;
}

/* A diagnostic of a child module instance (g->module not ""): at its own
** range (the module argument in the calling module's file, or a place in
** the child's files) when that file is open, and an error also at the
** variables file line whose value causes it (cli_fix_range). */
static void place_child(struct server *s, struct module *m,
                        struct file_diags **files, size_t *nfiles,
                        const struct tfr_diag *g) {
  const struct tfr_range *own = &g->subject;
  bool at_own = own->filename && doc_by_path(s, own->filename) &&
                (!m->var_file || !strcmp(own->filename, m->var_file));
  if (at_own)
    place(s, file_of(files, nfiles, own->filename), g);
  const struct tfr_instance *in = NULL;
  const struct tfr_variable *v =
      g->sev == TFR_DIAG_ERROR ? cli_child_var(m->res, g, &in) : NULL;
  const struct tfr_range *fix = v ? cli_fix_range(m->res, in, v) : NULL;
  if (!fix || !fix->filename || (at_own && same_range(fix, own)) ||
      (m->var_file && strcmp(fix->filename, m->var_file))) {
    /* an error of ours about the tree as a whole (too many module
    ** instances, the memory budget, a module calling itself) in a
    ** child's file that is not open: at the top of the open documents,
    ** as what has no place of its own, so that the editor says why the
    ** tree is not checked */
    if (!at_own && !v && g->ours && g->sev == TFR_DIAG_ERROR)
      place_at_top(s, m, files, nfiles, g, severity(g), NULL, false);
    return;
  }
  struct tfr_diag moved = *g;
  moved.subject = *fix;
  place(s, file_of(files, nfiles, fix->filename), &moved);
}

static int cmp_cstr(const void *x, const void *y) {
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static const struct tfr_variable *variable(const struct module *m,
                                           const char *name);

/* The diagnostics of uri: what every module last said of it, each once
** (a child module's file is spoken of by the module tree of its caller
** and by its own directory's module). */
static void send_diags(struct server *s, const char *uri) {
  json_t *all = NULL;
  for (size_t i = 0; i < s->nmods; i++)
    for (size_t k = 0; k < s->mods[i].npub; k++) {
      json_t *list = s->mods[i].pub[k].list;
      if (strcmp(s->mods[i].pub[k].uri, uri))
        continue;
      if (!all) {
        all = json_copy(list);
        continue;
      }
      size_t j;
      json_t *g;
      json_array_foreach(list, j, g) {
        bool dup = false;
        for (size_t x = 0; x < json_array_size(all) && !dup; x++)
          dup = json_equal(json_array_get(all, x), g);
        if (!dup)
          json_array_append(all, g);
      }
    }
  json_t *p = json_pack("{s:s, s:o}", "uri", uri, "diagnostics",
                        all ? all : json_array());
  struct doc *d = find_doc(s, uri);
  if (d)
    json_object_set_new(p, "version", json_integer(d->version));
  /* only what changed: the same list for the same version again says
  ** nothing (an edit of one file re-resolves its module's others) */
  char *text = json_dumps(p, JSON_COMPACT | JSON_SORT_KEYS);
  if (!text)
    cli_oom();
  struct sent *last = NULL;
  for (size_t i = 0; i < s->nsent && !last; i++)
    if (!strcmp(s->sent[i].uri, uri))
      last = &s->sent[i];
  if (last && !strcmp(last->json, text)) {
    free(text);
    json_decref(p);
    return;
  }
  if (!last) {
    s->sent = cli_realloc(s->sent, (s->nsent + 1) * sizeof *s->sent);
    last = &s->sent[s->nsent++];
    last->uri = cli_strdup(uri);
  } else {
    free(last->json);
  }
  last->json = text;
  notify("textDocument/publishDiagnostics", p);
}

/* Forgets what was published for uri: the next publish is sent (a
** document opened again). */
static void forget_sent(struct server *s, const char *uri) {
  for (size_t i = 0; i < s->nsent; i++)
    if (!strcmp(s->sent[i].uri, uri)) {
      free(s->sent[i].uri);
      free(s->sent[i].json);
      s->sent[i] = s->sent[--s->nsent];
      return;
    }
}

/* A message the user is shown once (window/showMessage; type 1 error,
** 2 warning), for what no open document can carry. */
static void show_once(struct server *s, int type, const char *text) {
  for (size_t i = 0; i < s->shown.n; i++)
    if (!strcmp(s->shown.v[i], text))
      return;
  cli_names_add(&s->shown, text);
  notify("window/showMessage",
         json_pack("{s:i, s:s}", "type", type, "message", text));
}

/* The configuration error that stops Terraform before it reads any value
** (a file of the module that does not parse), or NULL: the first error in
** a configuration file of the root module when loading it failed. */
static const struct tfr_diag *stopped_at(const struct module *m) {
  if (!m->res->config_failed)
    return NULL;
  size_t nd = tfr_diags_count(m->diags);
  for (size_t i = 0; i < nd; i++) {
    const struct tfr_diag *g = tfr_diags_get(m->diags, i);
    if (g->sev == TFR_DIAG_ERROR && g->code == TFR_CODE_NONE &&
        g->subject.filename && (!g->module || !*g->module) &&
        config_file(g->subject.filename))
      return g;
  }
  return NULL;
}

/* What the module's resolution cannot say at a place of its own: its
** diagnostics without a file, the server's notes, a directory without
** declarations, and a configuration error that stops the checks (with
** the syntax of the open tfvars documents, which can still be
** checked). */
static void place_rest(struct server *s, struct module *m,
                       struct file_diags **files, size_t *nfiles) {
  size_t nd = tfr_diags_count(m->diags);
  for (size_t i = 0; i < nd; i++) {
    const struct tfr_diag *g = tfr_diags_get(m->diags, i);
    if (g->subject.filename || (g->module && *g->module) ||
        g->code == TFR_CODE_UNDECLARED_VALUE ||
        (!m->res->has_config && !strcmp(g->summary, "No configuration files")))
      continue;
    place_at_top(s, m, files, nfiles, g, severity(g), NULL, false);
  }
  for (size_t i = 0; i < m->nnotes; i++) {
    struct tfr_diag g = {0};
    g.sev = m->notes[i].sev == 1 ? TFR_DIAG_ERROR : TFR_DIAG_WARNING;
    g.summary = m->notes[i].text;
    place_at_top(s, m, files, nfiles, &g, m->notes[i].sev, NULL, false);
  }
  if (!m->res->has_config) {
    struct tfr_diag g = {0};
    g.sev = TFR_DIAG_WARNING;
    g.summary = "No variable declarations in this directory";
    g.detail = tfr_arena_printf(
        m->a,
        "there are no .tf files in %s (nor up to three directories above), "
        "so this file is checked against no module. Open the tfvars file "
        "inside its module's folder (or a folder below it), or open the "
        "module and name this file in the varFiles setting.",
        m->dir);
    place_at_top(s, m, files, nfiles, &g, 3, NULL, true);
    return;
  }
  const struct tfr_diag *stop = stopped_at(m);
  if (!stop)
    return;
  if (m->var_file) /* the module's own resolution says it too */
    place(s, file_of(files, nfiles, stop->subject.filename), stop);
  tfr_arena *a = tfr_arena_new();
  const char *file = stop->subject.filename;
  size_t n = strlen(m->dir);
  if (!strncmp(file, m->dir, n) && file[n] == '/')
    file += n + 1;
  /* a syntax error, or another error of the configuration */
  size_t len;
  char *owned;
  const char *text = file_text(s, stop->subject.filename, &len, &owned);
  bool syntax =
      text &&
      !tfr_parse_bytes(a, tfr_diags_new(a), stop->subject.filename, text, len,
                       cli_has_suffix(file, ".json") ? TFR_SYNTAX_JSON
                                                     : TFR_SYNTAX_HCL);
  free(owned);
  struct tfr_diag g = {0};
  g.sev = TFR_DIAG_WARNING;
  g.summary = "Checking is limited";
  g.detail = tfr_arena_printf(
      a,
      "%s:%d has %s (%s): Terraform reads no variable values until it is "
      "fixed. The values here are checked as a preview of what plan will "
      "say once it is fixed; variables declared in that file are not.",
      file, stop->subject.start.line, syntax ? "a syntax error" : "an error",
      stop->summary);
  place_at_top(s, m, files, nfiles, &g, 2, stop->subject.filename, false);
  tfr_arena_free(a);
}

static int cmp_ptr(const void *x, const void *y) {
  uintptr_t a = (uintptr_t) * (const void *const *)x;
  uintptr_t b = (uintptr_t) * (const void *const *)y;
  return (a > b) - (a < b);
}

static void publish(struct server *s, struct module *m) {
  struct file_diags *files = NULL;
  size_t nfiles = 0;
  /* every open document of the module gets a list, empty or not */
  for (size_t i = 0; i < s->ndocs; i++)
    if (publishes(m, &s->docs[i]))
      file_of(&files, &nfiles, s->docs[i].path);
  /* what resolving found, what reading the values would say once plan
  ** gets there, then what the previews would still meet */
  size_t nd = tfr_diags_count(m->diags);
  const tfr_diags *pd = m->res->preview_diags;
  size_t np = pd ? tfr_diags_count(pd) : 0;
  /* a preview's error that reading the values gave is said once */
  const struct tfr_diag **said = cli_alloc((np ? np : 1) * sizeof *said);
  for (size_t i = 0; i < np; i++)
    said[i] = tfr_diags_get(pd, i);
  qsort(said, np, sizeof *said, cmp_ptr);
  for (size_t i = 0; i < nd + np + m->res->n; i++) {
    const struct tfr_diag *g =
        i < nd ? tfr_diags_get(m->diags, i)
        : i < nd + np
            ? tfr_diags_get(pd, i - nd)
            : tfr_resolution_variable(m->res, i - nd - np)->preview_error;
    if (i >= nd + np && g && bsearch(&g, said, np, sizeof *said, cmp_ptr))
      continue;
    if (g && g->module && *g->module)
      place_child(s, m, &files, &nfiles, g);
    /* a variables file's own resolution speaks of that file only */
    else if (g && g->subject.filename &&
             (!m->var_file || !strcmp(g->subject.filename, m->var_file)))
      place(s, file_of(&files, &nfiles, g->subject.filename), g);
  }
  free(said);
  place_rest(s, m, &files, &nfiles);
  /* values for undeclared variables: Terraform names the first two
  ** without a range and folds the rest into one; here each goes where an
  ** open document sets it (unless a diagnostic there already says so:
  ** -strict's errors have their range) */
  bool any_undeclared = false;
  for (size_t i = 0; i < nd + np && !any_undeclared; i++)
    any_undeclared =
        (i < nd ? tfr_diags_get(m->diags, i) : tfr_diags_get(pd, i - nd))
            ->code == TFR_CODE_UNDECLARED_VALUE;
  for (size_t k = 0; any_undeclared && k < nfiles; k++) {
    struct doc *d = doc_by_path(s, files[k].path);
    if (!d || !is_tfvars(d->path))
      continue;
    tfr_arena *a = tfr_arena_new();
    tfr_file *f = parse_doc(a, d);
    size_t nnames = 0;
    const struct tfr_range *at;
    const char **names =
        f ? tfr_file_attribute_names(a, f, &nnames, &at) : NULL;
    /* the undeclared names said at their place already (-strict), sorted */
    size_t nplaced = 0;
    const char **placed = tfr_arena_alloc(a, (nd ? nd : 1) * sizeof *placed);
    for (size_t i = 0; i < nd; i++) {
      const struct tfr_diag *g = tfr_diags_get(m->diags, i);
      if (g->code == TFR_CODE_UNDECLARED_VALUE && g->subject.filename &&
          g->variable && !strcmp(g->subject.filename, d->path))
        placed[nplaced++] = g->variable;
    }
    if (nplaced > 1)
      qsort(placed, nplaced, sizeof *placed, cmp_cstr);
    for (size_t j = 0; j < nnames; j++) {
      if (variable(m, names[j]) ||
          (nplaced &&
           bsearch(&names[j], placed, nplaced, sizeof *placed, cmp_cstr)))
        continue;
      const char *near = tfr_resolution_suggest(m->res, names[j]);
      struct tfr_diag g = {0};
      g.sev = TFR_DIAG_WARNING;
      g.summary = "Value for undeclared variable";
      g.detail = tfr_arena_printf(
          a,
          "The root module does not declare a variable named \"%s\" but a "
          "value was found in file \"%s\". If you meant to use this value, "
          "add a \"variable\" block to the configuration.%s%s%s",
          names[j], d->path, near ? " Did you mean \"" : "", near ? near : "",
          near ? "\"?" : "");
      g.subject = at[j];
      g.variable = names[j];
      g.code = TFR_CODE_UNDECLARED_VALUE;
      place(s, &files[k], &g);
    }
    tfr_arena_free(a);
  }
  struct pub *old = m->pub;
  size_t nold = m->npub;
  m->pub = cli_alloc((nfiles ? nfiles : 1) * sizeof *m->pub);
  m->npub = nfiles;
  for (size_t k = 0; k < nfiles; k++) {
    /* an open document by the URI the client gave */
    struct doc *d = doc_by_path(s, files[k].path);
    m->pub[k].uri = d ? cli_strdup(d->uri) : path_uri(files[k].path);
    m->pub[k].list = files[k].list;
    free(files[k].path);
    free(files[k].owned);
    free(files[k].text.starts);
  }
  free(files);
  for (size_t k = 0; k < m->npub; k++)
    send_diags(s, m->pub[k].uri);
  /* files with diagnostics before and none now: cleared (or what another
  ** module says of them) */
  for (size_t i = 0; i < nold; i++) {
    bool still = false;
    for (size_t k = 0; k < m->npub && !still; k++)
      still = !strcmp(m->pub[k].uri, old[i].uri);
    if (!still)
      send_diags(s, old[i].uri);
    free(old[i].uri);
    json_decref(old[i].list);
  }
  free(old);
}

static char *clean_join(const char *dir, const char *rel);

/* ---- files on disk ------------------------------------------------------ */

static unsigned long long fnv(unsigned long long h, const void *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    h = (h ^ ((const unsigned char *)p)[i]) * 1099511628211ULL;
  return h;
}

/* What a file looks like on disk: its name, size, modification time and
** inode (or that it is not there). */
static unsigned long long stamp_file(const char *path) {
  unsigned long long h = fnv(14695981039346656037ULL, path, strlen(path));
  struct stat st;
  if (stat(path, &st) != 0)
    return fnv(h, "-", 1);
  long long v[4] = {(long long)st.st_size, (long long)st.st_mtim.tv_sec,
                    (long long)st.st_mtim.tv_nsec, (long long)st.st_ino};
  return fnv(h, v, sizeof v);
}

/* Whether a change of a file of this name can change a resolution:
** configuration and variables files, not an editor's lock file. */
static bool watched_name(const char *name) {
  return strncmp(name, ".#", 2) && name[0] != '#' &&
         (config_file(name) || is_tfvars(name));
}

/* The configuration and variables files of dir on disk, in any order
** (a sum). */
static unsigned long long stamp_dir(const char *dir) {
  unsigned long long h = fnv(14695981039346656037ULL, dir, strlen(dir));
  DIR *d = opendir(dir);
  if (!d)
    return h;
  size_t n = strlen(dir);
  char *path = NULL;
  size_t cap = 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (!watched_name(e->d_name))
      continue;
    size_t k = n + strlen(e->d_name) + 2;
    if (k > cap) {
      cap = 2 * k;
      path = cli_realloc(path, cap);
    }
    snprintf(path, cap, "%s/%s", dir, e->d_name);
    h += stamp_file(path);
  }
  closedir(d);
  free(path);
  return h;
}

/* What the files a module's resolution reads look like on disk: its
** directory's, its child modules' (as it last resolved them), its var
** files'. */
static unsigned long long disk_stamp(struct server *s, struct module *m) {
  unsigned long long h = stamp_dir(m->dir);
  struct cli_names dirs = {0};
  for (size_t k = 0; m->res && k < m->res->ninstances; k++) {
    const struct tfr_instance *in = tfr_resolution_instance(m->res, k);
    if (!in->dir)
      continue;
    char *child = clean_join(m->dir, in->dir);
    bool seen = !strcmp(child, m->dir);
    for (size_t i = 0; i < dirs.n && !seen; i++)
      seen = !strcmp(dirs.v[i], child);
    if (!seen) {
      cli_names_add(&dirs, child);
      h += stamp_dir(child);
    }
    free(child);
  }
  cli_names_free(&dirs);
  for (size_t i = 0; i < s->set.var_files.n; i++) {
    char *f = clean_join(m->dir, s->set.var_files.v[i]);
    h += stamp_file(f);
    free(f);
  }
  if (m->var_file)
    h += stamp_file(m->var_file);
  return h;
}

/* Each open document in the module its path belongs to now (a .tf
** created beside a lone tfvars, or the last one deleted): a document
** that moves leaves its old module and joins its new one, both to be
** resolved again. */
static void rehome_docs(struct server *s) {
  for (size_t i = 0; i < s->ndocs; i++) {
    struct doc *d = &s->docs[i];
    const char *vf;
    char *dir = module_dir_for(d->path, &vf);
    if (!strcmp(dir, d->mod_dir) && (vf != NULL) == d->var_file) {
      free(dir);
      continue;
    }
    /* its old module speaks of it no more: nothing of it is merged into
    ** what the new one publishes, nor cleared after it */
    struct module *was = module_for_doc(s, d);
    was->dirty = true;
    for (size_t k = 0; k < was->npub; k++)
      if (!strcmp(was->pub[k].uri, d->uri)) {
        free(was->pub[k].uri);
        json_decref(was->pub[k].list);
        was->pub[k--] = was->pub[--was->npub];
      }
    free(d->mod_dir);
    d->mod_dir = dir;
    d->var_file = vf != NULL;
    module_for_doc(s, d)->dirty = true;
    forget_sent(s, d->uri); /* its new module's list is sent, even the same */
  }
}

/* With a client that watches nothing for us: the modules whose files
** changed on disk since they were resolved, dirty; whether any. */
static bool check_disk(struct server *s) {
  if (s->watching)
    return false;
  bool any = false;
  for (size_t i = 0; i < s->nmods; i++) {
    struct module *m = &s->mods[i];
    if (m->dirty || !m->res || (m->var_file && !doc_by_path(s, m->var_file)))
      continue;
    if (disk_stamp(s, m) != m->stamp)
      m->dirty = any = true;
  }
  if (any)
    rehome_docs(s);
  return any;
}

/* Whether a var file can be read; else errno. */
static int unreadable(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return errno;
  int err = 0;
  if (fgetc(f) == EOF && ferror(f))
    err = errno ? errno : EIO;
  fclose(f);
  return err;
}

static void resolve_module(struct server *s, struct module *m) {
  if (m->a)
    tfr_arena_free(m->a);
  m->a = tfr_arena_new();
  m->diags = tfr_diags_new(m->a);
  /* the open documents of the module, in place of their files, and with
  ** the module tree those of its child modules (any open document: the
  ** library reads only those of the directories it loads) */
  struct tfr_overlay *ov = tfr_arena_alloc(m->a, (s->ndocs + 1) * sizeof *ov);
  size_t nov = 0;
  for (size_t i = 0; i < s->ndocs; i++) {
    char *d = dir_of(s->docs[i].path);
    if (s->set.modules || !strcmp(d, m->dir) ||
        same(s->docs[i].path, m->var_file))
      ov[nov++] = (struct tfr_overlay){s->docs[i].path, s->docs[i].text,
                                       s->docs[i].len};
    free(d);
  }
  size_t nargs = 0;
  struct tfr_cli_arg *args =
      tfr_arena_alloc(m->a, (s->set.var_files.n + 2) * sizeof *args);
  m->notes = tfr_arena_alloc(m->a, (s->set.var_files.n + 1) * sizeof *m->notes);
  m->nnotes = 0;
  for (size_t i = 0; i < s->set.var_files.n; i++) {
    const char *f = s->set.var_files.v[i];
    const char *path =
        f[0] == '/' ? f : tfr_arena_printf(m->a, "%s/%s", m->dir, f);
    /* one that cannot be read is said, and the module checked without
    ** it (Terraform would stop at it) */
    int err = doc_by_path(s, path) ? 0 : unreadable(path);
    if (err) {
      m->notes[m->nnotes++] = (struct note){
          2, tfr_arena_printf(m->a,
                              "Failed to read variables file: %s (the "
                              "varFiles setting) cannot be read: %s (%s). "
                              "The module is checked without it.",
                              f, strerror(err), path)};
      continue;
    }
    args[nargs++] = (struct tfr_cli_arg){.file = true, .value = path};
  }
  if (m->var_file) /* last: the file being edited wins */
    args[nargs++] = (struct tfr_cli_arg){.file = true, .value = m->var_file};
  /* the environment: the server's TF_VAR_ unless the settings give one */
  char **env = environ;
  if (s->set.env.n) {
    env = tfr_arena_alloc(m->a, (s->set.env.n + 1) * sizeof *env);
    for (size_t i = 0; i < s->set.env.n; i++)
      env[i] = s->set.env.v[i];
  }
  struct tfr_resolve_opts o = TFR_RESOLVE_OPTS_INIT;
  o.dir = m->dir;
  o.env = env;
  o.args = args;
  o.nargs = nargs;
  o.opentofu = s->set.opentofu;
  o.strict = s->set.strict;
  o.warn_dropped = true; /* misspelt attributes: warnings at least */
  o.keep_given = true;
  o.tree = s->set.modules;
  o.overlays = ov;
  o.noverlays = nov;
  o.skip_editor_files = true; /* an editor's lock file is no auto file */
  m->res = tfr_resolve(m->a, m->diags, &o);
  m->dirty = false;
  if (!s->watching)
    m->stamp = disk_stamp(s, m);
  publish(s, m);
}

static void resolve_dirty(struct server *s) {
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  check_disk(s);
  bool any = false;
  for (size_t i = 0; i < s->nmods; i++) {
    struct module *m = &s->mods[i];
    if (m->var_file && !doc_by_path(s, m->var_file))
      continue; /* its document was closed */
    if (m->dirty) {
      resolve_module(s, m);
      any = true;
    }
  }
  if (!any)
    return;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  long ms =
      (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
  s->debounce_ms = ms < 1                 ? 1
                   : ms > DEBOUNCE_MAX_MS ? DEBOUNCE_MAX_MS
                                          : (int)ms;
}

/* The module of a document, resolved if it is not yet. */
static struct module *fresh_module(struct server *s, const struct doc *d) {
  struct module *m = module_for_doc(s, d);
  if (m->dirty || !m->res)
    resolve_module(s, m);
  return m;
}

/* ---- what is under the cursor ------------------------------------------- */

/* ---- a little HCL scanning: strings, comments, brackets, keys ---------- */

/* One item of an object or a body: its key (quotes included), and its
** value from the first byte after "=" or ":" and the spaces to its end
** (trailing spaces out). */
struct kv {
  size_t ks, ke, vs, ve;
};

/* The end of a value starting at i, in [.., end): a newline or a comma
** outside brackets, or end. */
static size_t value_end(const char *t, size_t end, size_t i) {
  size_t last = i;
  while (i < end) {
    size_t k = text_skip_comment(t, end, i);
    if (k != i && t[i] != '<') {
      i = k; /* a comment ends the value (its newline next) */
      continue;
    }
    if (k != i) { /* a heredoc */
      i = last = k;
      continue;
    }
    char ch = t[i];
    if (ch == '\n' || ch == ',' || ch == '}' || ch == ']')
      break;
    if (ch == '"') {
      i = last = text_skip_string(t, end, i);
      continue;
    }
    if (ch == '{' || ch == '[' || ch == '(') {
      size_t c = text_close_of(t, end, i);
      i = last = c < end ? c + 1 : end;
      continue;
    }
    if (ch != ' ' && ch != '\t' && ch != '\r')
      last = i + 1;
    i++;
  }
  return last;
}

/* The items of the object or body in [start, end) (the bytes between its
** braces), in order (malloc'd, *n of them). */
static struct kv *items_of(const char *t, size_t start, size_t end, size_t *n) {
  struct kv *out = NULL;
  size_t cap = 0;
  *n = 0;
  bool expect = true;
  for (size_t i = start; i < end;) {
    size_t k = text_skip_comment(t, end, i);
    if (k != i && t[i] != '<') {
      i = k;
      continue;
    }
    char ch = t[i];
    if (ch == ' ' || ch == '\t' || ch == '\r') {
      i++;
      continue;
    }
    if (ch == '\n' || ch == ',') {
      expect = true;
      i++;
      continue;
    }
    if (expect && (ch == '"' || text_name_char(ch))) {
      size_t ke = ch == '"' ? text_skip_string(t, end, i) : i;
      if (ch != '"')
        while (ke < end && text_name_char(t[ke]))
          ke++;
      size_t j = ke;
      while (j < end && (t[j] == ' ' || t[j] == '\t'))
        j++;
      if (j < end &&
          ((t[j] == '=' && (j + 1 >= end || t[j + 1] != '=')) || t[j] == ':')) {
        size_t vs = j + 1;
        while (vs < end && (t[vs] == ' ' || t[vs] == '\t'))
          vs++;
        size_t ve = value_end(t, end, vs);
        if (*n == cap) {
          cap = cap ? 2 * cap : 16;
          out = cli_realloc(out, cap * sizeof *out);
        }
        out[(*n)++] = (struct kv){i, ke, vs, ve};
        i = ve > vs ? ve : vs;
        expect = false;
        continue;
      }
      i = ke > i ? ke : i + 1;
      expect = false;
      continue;
    }
    if (ch == '"')
      i = text_skip_string(t, end, i);
    else if (ch == '{' || ch == '[' || ch == '(')
      i = text_close_of(t, end, i) + 1;
    else
      i++;
    expect = false;
  }
  return out;
}

/* A key's name (its quotes out), in the arena. */
static const char *key_name(tfr_arena *a, const char *t, const struct kv *k) {
  size_t s = k->ks, e = k->ke;
  if (t[s] == '"' && e > s + 1 && t[e - 1] == '"')
    s++, e--;
  return tfr_arena_strndup(a, t + s, e - s);
}

/* The innermost "{" open at byte (scanning from start), or SIZE_MAX when
** the innermost open bracket there is no brace. */
static size_t open_brace(const char *t, size_t start, size_t byte) {
  size_t stack[256], depth = 0, lost = 0;
  for (size_t i = start, at; (at = text_next_bracket(t, byte, &i)) < byte;) {
    if (t[at] == '{' || t[at] == '[' || t[at] == '(') {
      if (depth < 256)
        stack[depth++] = at;
      else
        lost++;
    } else if (lost) {
      lost--;
    } else if (depth) {
      depth--;
    }
  }
  return depth && !lost && t[stack[depth - 1]] == '{' ? stack[depth - 1]
                                                      : SIZE_MAX;
}

struct cursor {
  tfr_arena *a;
  struct tfr_locus at;
  bool found;
  size_t byte;
  size_t quote;    /* the opening quote of the string the cursor is in, or
                      SIZE_MAX */
  bool in_default; /* in a .tf variable's `default` (at.variable: its
                      variable) */
};

/* Where the string the cursor is in opens (quotes counted on its line),
** or SIZE_MAX. */
static size_t open_quote(const char *t, size_t byte) {
  size_t i = byte, q = SIZE_MAX;
  while (i > 0 && t[i - 1] != '\n')
    i--;
  for (; i < byte; i++) {
    if (q != SIZE_MAX && t[i] == '\\')
      i++;
    else if (t[i] == '"')
      q = q == SIZE_MAX ? i : SIZE_MAX;
    else if (q == SIZE_MAX && t[i] == '#')
      break;
  }
  return q;
}

/* The top-level definition of a tfvars text holding byte: [*lo, *hi),
** from the line it starts on (a name at the line's start) to the next
** such line. */
static void statement_of(const char *t, size_t len, size_t byte, size_t *lo,
                         size_t *hi) {
  size_t i = byte;
  while (i > 0 && t[i - 1] != '\n')
    i--;
  for (;;) { /* back to a line that starts with a name */
    if (i < len && (t[i] == '"' || text_name_char(t[i])))
      break;
    if (i == 0)
      break;
    i--;
    while (i > 0 && t[i - 1] != '\n')
      i--;
  }
  *lo = i;
  size_t e = byte;
  while (e < len && t[e] != '\n')
    e++;
  while (e < len) {
    e++;
    if (e < len && (t[e] == '"' || text_name_char(t[e])))
      break;
    while (e < len && t[e] != '\n')
      e++;
  }
  *hi = e;
}

/* The variable (of module m) whose block in .tf document d holds byte, and
** that block's braces; NULL when none. */
static const struct tfr_variable *block_at(const struct module *m,
                                           const struct doc *d, size_t byte,
                                           size_t *open, size_t *close) {
  for (size_t i = 0; m->res && i < m->res->n; i++) {
    const struct tfr_variable *v = tfr_resolution_variable(m->res, i);
    if (!v->decl.filename || strcmp(v->decl.filename, d->path) ||
        v->decl.end.byte > d->len)
      continue;
    size_t o = v->decl.end.byte;
    while (o < d->len && d->text[o] != '{' && d->text[o] != '\n')
      o++;
    if (o >= d->len || d->text[o] != '{')
      continue;
    size_t c = text_close_of(d->text, d->len, o);
    if (byte >= v->decl.start.byte && byte <= c) {
      *open = o;
      *close = c;
      return v;
    }
  }
  return NULL;
}

static struct module *fresh_module(struct server *s, const struct doc *d);

/* A copy of d's text with only [lo, hi) kept (the rest blanked, its
** newlines kept), the name before the cursor blanked when blank, and
** insert put at the cursor; parsed as a variables file. */
static tfr_file *parse_variant(struct cursor *c, const struct doc *d, size_t lo,
                               size_t hi, size_t name, const char *insert) {
  size_t k = strlen(insert);
  char *t = tfr_arena_alloc(c->a, d->len + k + 1);
  memcpy(t, d->text, c->byte);
  memcpy(t + c->byte, insert, k);
  memcpy(t + c->byte + k, d->text + c->byte, d->len - c->byte + 1);
  for (size_t i = 0; i < d->len + k; i++) {
    size_t src = i < c->byte ? i : i >= c->byte + k ? i - k : c->byte;
    bool inserted = i >= c->byte && i < c->byte + k;
    if (!inserted &&
        (src < lo || src >= hi || (src >= name && src < c->byte)) &&
        t[i] != '\n')
      t[i] = ' ';
  }
  tfr_diags *dg = tfr_diags_new(c->a);
  return tfr_parse_bytes(c->a, dg, d->path, t, d->len + k,
                         cli_has_suffix(d->path, ".json") ? TFR_SYNTAX_JSON
                                                          : TFR_SYNTAX_HCL);
}

static struct cursor locate(struct server *s, const struct doc *d,
                            json_t *pos) {
  struct cursor c = {tfr_arena_new(), {0}, false, 0, SIZE_MAX, false};
  int line = (int)json_integer_value(json_object_get(pos, "line"));
  int ch = (int)json_integer_value(json_object_get(pos, "character"));
  c.byte = byte_of(d->text, d->len, line, ch);
  c.quote = open_quote(d->text, c.byte);
  size_t lo = 0, hi = d->len;
  const struct tfr_variable *dv = NULL;
  if (!is_tfvars(d->path)) {
    /* a configuration file: the cursor in a variable's `default` value,
    ** read as a variables file setting `default` */
    struct module *m = s ? fresh_module(s, d) : NULL;
    size_t open, close;
    dv = m ? block_at(m, d, c.byte, &open, &close) : NULL;
    if (!dv)
      return c;
    size_t n;
    struct kv *it = items_of(d->text, open + 1, close, &n);
    for (size_t i = 0; i < n; i++)
      if (it[i].ke - it[i].ks == 7 &&
          !memcmp(d->text + it[i].ks, "default", 7) && c.byte >= it[i].vs &&
          c.byte <= it[i].ve + 1) {
        lo = it[i].ks;
        hi = it[i].ve;
        break;
      }
    free(it);
    if (hi == d->len)
      return c;
    hi = hi < c.byte ? c.byte : hi;
    while (hi < d->len && d->text[hi] != '\n')
      hi++;
  }
  tfr_file *f = dv ? NULL : parse_doc(c.a, d);
  /* what is being typed is often a syntax error: a name half typed (`  fl`
  ** in an object), a value not typed yet (`env = `), a string not closed
  ** (`env = "`), a name set twice.  The text with the name blanked out,
  ** then with `null` or a closing quote where the cursor is, then the
  ** same with only the definition the cursor is in, says where the
  ** cursor is (the bytes before it keep their offsets). */
  size_t b = c.byte;
  while (b > 0 && text_name_char(d->text[b - 1]))
    b--;
  const char *inserts[] = {"", "", "null", "\""};
  for (int scope = 0; !f && scope < 2; scope++) {
    if (scope && !dv)
      statement_of(d->text, d->len, c.byte, &lo, &hi);
    for (int fix = 0; !f && fix < 4; fix++) {
      if (fix == 3 && c.quote == SIZE_MAX)
        continue;
      f = parse_variant(&c, d, lo, hi, fix == 0 || fix == 3 ? c.byte : b,
                        inserts[fix]);
    }
  }
  c.found = f && tfr_file_locate(c.a, f, c.byte, &c.at);
  if (c.found && dv) {
    c.in_default = true;
    c.at.variable = dv->name;
  }
  return c;
}

static const struct tfr_variable *variable(const struct module *m,
                                           const char *name) {
  return tfr_resolution_find(m->res, name);
}

/* The type at path (".a[2].b") below t; *optional when the last
** attribute is optional(); NULL when the path leaves the type. */
static const tfr_type *type_at(const tfr_type *t, const char *path,
                               bool *optional) {
  *optional = false;
  while (t && *path) {
    if (t->kind == TFR_DYNAMIC)
      return t;
    if (*path == '[') {
      const char *e = strchr(path, ']');
      if (!e)
        return NULL;
      if (t->kind == TFR_TUPLE) {
        unsigned long i = strtoul(path + 1, NULL, 10);
        t = i < t->n ? t->types[i] : NULL;
      } else {
        t = t->kind == TFR_LIST || t->kind == TFR_SET ? t->elem : NULL;
      }
      path = e + 1;
      *optional = false;
      continue;
    }
    size_t n = strcspn(path + 1, ".[");
    if (t->kind == TFR_MAP) {
      t = t->elem;
      *optional = false;
    } else if (t->kind == TFR_OBJECT) {
      long j = tfr_type_attr(t, path + 1, n);
      if (j < 0)
        return NULL;
      *optional = t->optional && t->optional[j];
      t = t->types[j];
    } else {
      return NULL;
    }
    path += 1 + n;
  }
  return t;
}

/* ---- requests ----------------------------------------------------------- */

static void append(char **buf, size_t *len, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  *buf = cli_realloc(*buf, *len + (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(*buf + *len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  *len += (size_t)n;
}

/* At most this many child module variables in a hover. */
#define HOVER_CHILDREN 50

/* s cut to at most max bytes, at a character's start (arena copy). */
static const char *cut_utf8(tfr_arena *a, const char *s, size_t max,
                            bool *cut) {
  size_t n = strlen(s);
  *cut = n > max;
  if (!*cut)
    return s;
  while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
    max--;
  return tfr_arena_strndup(a, s, max);
}

/* A value in a hover longer than HOVER_LINES lines shows its first
** HOVER_KEEP; one longer than HOVER_CHARS bytes its first HOVER_CUT; each
** says how much more there is. */
enum { HOVER_LINES = 30, HOVER_KEEP = 24, HOVER_CHARS = 1000, HOVER_CUT = 800 };

/* A text on lines of its own, indented by indent: in a fence (markdown),
** and what was cut from it (more, or NULL) after it. */
static void put_block(char **out, size_t *n, bool md, const char *indent,
                      const char *text, const char *more) {
  append(out, n, md ? "%s```hcl\n%s" : "%s%s", indent, indent);
  for (const char *p = text; *p; p++)
    if (*p == '\n')
      append(out, n, "\n%s", indent);
    else
      append(out, n, "%c", *p);
  append(out, n, md ? "\n%s```\n" : "\n", indent);
  if (more)
    append(out, n, "%s%s\n", indent, more);
}

/* A value (console style) as a hover shows it, cut when long. */
static void put_value(char **out, size_t *n, bool md, tfr_arena *a,
                      const char *indent, const tfr_value *val,
                      const char *written) {
  size_t lines = 1;
  const char *text = written;
  if (val)
    text = tfr_value_console_head(a, val, HOVER_LINES + 1, &lines);
  else
    for (const char *p = text; *p; p++)
      lines += *p == '\n';
  size_t more_lines = 0, more_chars = 0;
  if (lines > HOVER_LINES) {
    size_t ignored;
    text = cli_text_head(a, text, strlen(text), HOVER_KEEP, &ignored);
    more_lines = lines - HOVER_KEEP;
  }
  bool cut;
  const char *head =
      strlen(text) > HOVER_CHARS ? cut_utf8(a, text, HOVER_CUT, &cut) : text;
  for (const char *p = text + strlen(head); *p; p++)
    more_chars += ((unsigned char)*p & 0xC0) != 0x80;
  const char *more =
      more_chars && more_lines
          ? tfr_arena_printf(a, "… (%zu more characters, then %zu more lines)",
                             more_chars, more_lines)
      : more_chars ? tfr_arena_printf(a, "… (%zu more characters)", more_chars)
      : more_lines ? tfr_arena_printf(a, "… (%zu more lines)", more_lines)
                   : NULL;
  put_block(out, n, md, indent, head, more);
}

/* The child module instances' variables whose arguments read root
** variable root (directly, through local values, for_each or count, or
** through their callers' variables), each with its value and the outcome
** of its rules: a hover's last part.  A variable that reads a sensitive
** one anywhere up its chain, is sensitive, or holds a sensitive value,
** shows neither its value nor its rules' messages. */
static void hover_children(char **md, size_t *n, tfr_arena *a, bool mark,
                           const struct tfr_resolution *res, const char *root) {
  struct cli_reach *r;
  size_t nr = cli_reaches(a, res, root, &r);
  const char *q = mark ? "`" : "";
  for (size_t i = 0; i < nr && i < HOVER_CHILDREN; i++) {
    const struct tfr_variable *v = r[i].v;
    bool x = r[i].secret;
    if (!i)
      append(md, n, "\nModule variables it reaches:\n");
    append(md, n, "- %s%s.var.%s%s", q, r[i].in->address, v->name, q);
    if (!v->value) {
      append(md, n, ": not resolved%s%s%s\n", v->reason ? " (" : "",
             v->reason ? v->reason : "", v->reason ? ")" : "");
    } else if (x) {
      append(md, n, " = (sensitive value)\n");
    } else {
      bool cut;
      const char *text = cut_utf8(a, tfr_value_console(a, v->value), 400, &cut);
      if (!cut && !strchr(text, '\n') && !strchr(text, '`'))
        append(md, n, " = %s%s%s\n", q, text, q);
      else {
        append(md, n, " =\n");
        put_block(md, n, mark, "  ", text, cut ? "..." : NULL);
      }
    }
    for (size_t j = 0; j < v->nrules; j++) {
      const struct tfr_rule *rule = tfr_variable_rule(v, j);
      append(md, n, "  - rule %zu %s%s", j + 1,
             tfr_rule_result_name(rule->result),
             rule->detail && !x ? ": " : "");
      for (const char *p = rule->detail && !x ? rule->detail : ""; *p; p++)
        append(md, n, "%c", *p == '\n' ? ' ' : *p); /* on its line */
      append(md, n, "\n");
    }
  }
  if (nr > HOVER_CHILDREN)
    append(md, n, "- and %zu more\n", nr - HOVER_CHILDREN);
}

/* The part of value v at path (".a[2].b", as tfr_locus.path), or NULL. */
static const tfr_value *value_at(const tfr_value *v, const char *path) {
  while (v && *path) {
    if (tfr_value_is_null(v) || !tfr_value_is_known(v))
      return NULL;
    const tfr_type *t = v->type;
    if (*path == '[') {
      unsigned long i = strtoul(path + 1, NULL, 10);
      const char *e = strchr(path, ']');
      if (!e ||
          (t->kind != TFR_LIST && t->kind != TFR_TUPLE && t->kind != TFR_SET) ||
          i >= v->n)
        return NULL;
      v = v->elems[i];
      path = e + 1;
      continue;
    }
    size_t n = strcspn(path + 1, ".[");
    const tfr_value *next = NULL;
    if (t->kind == TFR_OBJECT) {
      long j = tfr_type_attr(t, path + 1, n);
      next = j >= 0 ? v->elems[j] : NULL;
    } else if (t->kind == TFR_MAP) {
      for (uint32_t k = 0; k < v->n && !next; k++)
        if (v->keylens[k] == n && !memcmp(v->keys[k], path + 1, n))
          next = v->elems[k];
    }
    v = next;
    path += 1 + n;
  }
  return v;
}

/* Whether the error a variable's preview meets is rule r failing. */
static bool rule_failed_in_preview(tfr_arena *a, const struct tfr_variable *v,
                                   const struct tfr_rule *r) {
  const struct tfr_diag *e = v->preview_error;
  if (v->value || !e || e->code != TFR_CODE_RULE_FAILED)
    return false;
  if (v->nrules == 1)
    return true;
  return r->range.filename && e->detail &&
         strstr(e->detail,
                tfr_arena_printf(a, "%s:%d,%d", r->range.filename,
                                 r->range.start.line, r->range.start.column));
}

static json_t *hover(struct server *s, struct doc *d, json_t *pos) {
  struct cursor c = locate(s, d, pos);
  json_t *result = json_null();
  if (c.in_default)
    c.found = false; /* (a default's value is told on its header) */
  if (!c.found && !is_tfvars(d->path)) {
    /* a configuration file: on a `variable "x"` header, that variable */
    struct module *m = fresh_module(s, d);
    for (size_t i = 0; m->res && i < m->res->n && !c.found; i++) {
      const struct tfr_variable *v = tfr_resolution_variable(m->res, i);
      if (v->decl.filename && !strcmp(v->decl.filename, d->path) &&
          c.byte >= v->decl.start.byte && c.byte <= v->decl.end.byte) {
        c.found = true;
        c.at.variable = v->name;
        c.at.path = "";
        c.at.name = v->decl;
      }
    }
  }
  struct module *m = c.found ? fresh_module(s, d) : NULL;
  const struct tfr_variable *v = m ? variable(m, c.at.variable) : NULL;
  if (!v) {
    tfr_arena_free(c.a);
    return result;
  }
  tfr_arena *a = c.a;
  bool mark = !s->plaintext;
  const char *B = mark ? "**" : "", *Q = mark ? "`" : "";
  char *md = NULL;
  size_t n = 0;
  bool opt = false;
  const tfr_type *t = type_at(v->declared, c.at.path, &opt);
  const char *ty = t ? cli_var_type_text(a, m->res, v, t, c.at.path, 0)
                     : "(not in the type)";
  const char *flags = tfr_arena_printf(a, "%s%s%s", opt ? " (optional)" : "",
                                       v->sensitive ? ", sensitive" : "",
                                       v->ephemeral ? ", ephemeral" : "");
  if (strchr(ty, '\n')) { /* folded: a block of its own */
    append(&md, &n, "%svar.%s%s%s%s:\n", B, v->name, c.at.path, B, flags);
    put_block(&md, &n, mark, "", ty, NULL);
  } else {
    append(&md, &n, "%svar.%s%s%s: %s%s%s%s\n", B, v->name, c.at.path, B, Q, ty,
           Q, flags);
  }
  const tfr_value *dflt =
      *c.at.path ? tfr_resolution_attr_default(m->res, v->name, c.at.path)
                 : NULL;
  if (dflt && !v->sensitive)
    append(&md, &n, "\nDefault when left out: %s%s%s\n", Q,
           tfr_value_console(a, dflt), Q);
  if (*c.at.path && !t) {
    /* the object the attribute is in: its attributes */
    char *parent = tfr_arena_strdup(a, c.at.path);
    char *cut = strrchr(parent, '.');
    if (cut) {
      *cut = '\0';
      bool o2;
      const tfr_type *pt = type_at(v->declared, parent, &o2);
      if (pt && pt->kind == TFR_OBJECT) {
        append(&md, &n,
               "\nThe type does not declare this attribute: "
               "Terraform drops it. Its attributes:");
        for (uint32_t i = 0; i < pt->n; i++)
          append(&md, &n, " %s%s%s", Q, pt->names[i], Q);
        append(&md, &n, "\n");
      }
    }
  }
  if (!*c.at.path && v->description)
    append(&md, &n, "\n%s\n", v->description);
  if (!*c.at.path && v->deprecated)
    append(&md, &n, "\nDeprecated: %s\n", v->deprecated);
  /* provenance: what wins, and what it overrides */
  const char *src = cli_source_text(a, v->source, v->source_file,
                                    v->source_line, v->name, v->source_via);
  const tfr_value *val = v->value ? v->value : v->preview;
  if (*c.at.path) {
    /* an attribute: its own value, from its own line */
    const char *here =
        tfr_arena_printf(a, "%s:%d", d->path, c.at.name.start.line);
    const tfr_value *x = value_at(val, c.at.path);
    bool wins = v->source_file && !strcmp(v->source_file, d->path);
    if (v->sensitive || (x && tfr_value_has_mark(x, TFR_V_SENSITIVE))) {
      append(&md, &n, "\nValue from %s (sensitive: not shown)\n", here);
    } else if (wins && x) {
      append(&md, &n, "\nValue (from %s):\n", here);
      put_value(&md, &n, mark, a, "", x, NULL);
    } else if (is_tfvars(d->path) && c.at.value.end.byte <= d->len) {
      /* as written here (another source wins, or it is not resolved) */
      const char *w = d->text + c.at.value.start.byte;
      size_t wl = c.at.value.end.byte - c.at.value.start.byte;
      const char *eq = memchr(w, '=', wl);
      if (!eq || *c.at.path == '[')
        eq = NULL;
      const char *text =
          eq ? tfr_arena_strndup(a, eq + 1, wl - (size_t)(eq + 1 - w))
             : tfr_arena_strndup(a, w, wl);
      while (*text == ' ' || *text == '\t')
        text++;
      append(&md, &n, "\nValue here (%s)%s%s:\n", here,
             wins ? "" : ", the variable's value from ", wins ? "" : src);
      put_value(&md, &n, mark, a, "", NULL, text);
    }
  } else if (val && !v->sensitive) {
    append(&md, &n, "\nValue (from %s):\n", src);
    put_value(&md, &n, mark, a, "", val, NULL);
  } else if (v->given && !v->sensitive &&
             !tfr_value_has_mark(v->given, TFR_V_SENSITIVE)) {
    /* not resolved: what was given, before conversion */
    append(&md, &n, "\nValue given (from %s):\n", src);
    put_value(&md, &n, mark, a, "", v->given, NULL);
  } else {
    append(&md, &n, "\nValue from %s%s\n", src,
           v->sensitive ? " (sensitive: not shown)" : "");
  }
  if (!*c.at.path && v->default_value && v->source != TFR_SRC_DEFAULT &&
      !v->sensitive) {
    const char *dv = tfr_value_console(a, v->default_value);
    append(&md, &n, "\nOverrides the default%s%s%s%s\n",
           strlen(dv) <= 80 ? ": " : "", strlen(dv) <= 80 ? Q : "",
           strlen(dv) <= 80 ? dv : "", strlen(dv) <= 80 ? Q : "");
  }
  if (!v->value && v->reason)
    append(&md, &n, "\nNot resolved: %s\n", v->reason);
  if (v->nattempts > 1) {
    append(&md, &n, "\nSources, lowest precedence first:\n");
    for (size_t i = 0; i < v->nattempts; i++) {
      const struct tfr_attempt *at = tfr_variable_attempt(v, i);
      append(
          &md, &n, "- %s%s\n",
          cli_source_text(a, at->source, at->file, at->line, v->name, at->via),
          at->won ? " (wins)" : " (overridden)");
    }
  }
  /* the rules as the diagnostics tell them: when plan stops before this
  ** variable, the preview's (what the diagnostics publish) */
  for (size_t i = 0; i < v->nrules; i++) {
    const struct tfr_rule *r = tfr_variable_rule(v, i);
    const char *result = tfr_rule_result_name(r->result);
    const char *detail = r->detail;
    if (r->result == TFR_RULE_SKIPPED && rule_failed_in_preview(a, v, r)) {
      result = "failed (plan stops before it at another error; this is "
               "what it would say)";
      detail = cli_preview_failure(a, v->preview_error);
      if (!strncmp(detail, "its validation rule: ", 21))
        detail += 21;
    } else if (r->result == TFR_RULE_SKIPPED && !v->value && v->preview) {
      result = "passes on the value it would have (plan stops before it at "
               "another error)";
      detail = NULL;
    }
    append(&md, &n, "%sValidation rule %zu: %s%s%s\n", i ? "" : "\n", i + 1,
           result, detail && !v->sensitive ? ": " : "",
           detail && !v->sensitive ? detail : "");
  }
  if (!*c.at.path)
    hover_children(&md, &n, c.a, mark, m->res, v->name);
  result = json_pack("{s:{s:s, s:s}, s:o}", "contents", "kind",
                     mark ? "markdown" : "plaintext", "value", md, "range",
                     range_of(d->text, d->len, &c.at.name));
  free(md);
  tfr_arena_free(c.a);
  return result;
}

/* Whether t[i..i+k) is the whole word w followed by "=" (an attribute of
** an object type expression). */
static bool attr_here(const char *t, size_t end, size_t i, const char *w,
                      size_t k) {
  if (i + k > end || memcmp(t + i, w, k) ||
      (i > 0 && text_name_char(t[i - 1])) ||
      (i + k < end && text_name_char(t[i + k])))
    return false;
  i += k;
  while (i < end && (t[i] == ' ' || t[i] == '\t'))
    i++;
  return i < end && t[i] == '=';
}

static json_t *definition(struct server *s, struct doc *d, json_t *pos) {
  struct cursor c = locate(s, d, pos);
  struct module *m = c.found ? fresh_module(s, d) : NULL;
  const struct tfr_variable *v = m ? variable(m, c.at.variable) : NULL;
  json_t *result = json_null();
  if (v && v->decl.filename && !c.in_default) {
    struct tfr_range at = v->decl;
    size_t len;
    char *owned;
    const char *text = file_text(s, at.filename, &len, &owned);
    /* an attribute: its name inside the type expression, found step by
    ** step along the path; a map's key is in no type (null) */
    const tfr_type *t = v->declared;
    size_t from = v->type_range.start.byte, end = v->type_range.end.byte;
    bool in_type = text && v->type_range.filename &&
                   !strcmp(v->type_range.filename, at.filename) && end <= len;
    for (const char *p = c.at.path; *p && t;) {
      if (*p == '[') {
        const char *e = strchr(p, ']');
        unsigned long i = strtoul(p + 1, NULL, 10);
        t = t->kind == TFR_TUPLE ? i < t->n ? t->types[i] : NULL
            : t->kind == TFR_LIST || t->kind == TFR_SET ? t->elem
                                                        : NULL;
        p = e ? e + 1 : p + strlen(p);
        continue;
      }
      size_t k = strcspn(p + 1, ".[");
      if (t->kind == TFR_MAP) {
        t = t->elem;
        if (!p[1 + k]) { /* the cursor's key: a map key */
          free(owned);
          tfr_arena_free(c.a);
          return json_null();
        }
      } else if (t->kind == TFR_OBJECT) {
        long j = tfr_type_attr(t, p + 1, k);
        t = j >= 0 ? t->types[j] : NULL;
        char *w = tfr_arena_strndup(c.a, p + 1, k);
        size_t i = from;
        while (in_type && i < end && !attr_here(text, end, i, w, k))
          i++;
        if (in_type && i < end) {
          from = i;
          at.start.byte = i;
          at.end.byte = i + k;
        }
      } else {
        t = NULL;
      }
      p += 1 + k;
    }
    if (text) {
      char *uri = path_uri(at.filename);
      result = json_pack("{s:s, s:o}", "uri", uri, "range",
                         range_of(text, len, &at));
      free(uri);
    }
    free(owned);
  }
  tfr_arena_free(c.a);
  return result;
}

static json_t *item(const char *label, int kind, const char *detail,
                    const char *doc) {
  json_t *it = json_pack("{s:s, s:i}", "label", label, "kind", kind);
  if (detail)
    json_object_set_new(it, "detail", json_string(detail));
  if (doc)
    json_object_set_new(it, "documentation", json_string(doc));
  return it;
}

/* Whether the text of the line before byte holds only a name being
** typed (a new top-level attribute). */
static bool at_top_name(const struct doc *d, size_t byte) {
  size_t i = byte;
  while (i > 0 && d->text[i - 1] != '\n')
    i--;
  for (; i < byte; i++) {
    char ch = d->text[i];
    if (!(ch == ' ' || ch == '\t' || ch == '_' || ch == '-' ||
          (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
          (ch >= '0' && ch <= '9')))
      return false;
  }
  return true;
}

/* The values variable v's rules allow, read from their conditions as
** written: a condition that is `contains([...], var.NAME)`, alone or
** joined to others by &&, allows the strings of its list (a value must be
** in every such list) but those of a `!contains([...], var.NAME)` joined
** the same way; one under `||` says nothing of the kind.
** NULL when no rule reads that way. */
static json_t *allowed_values(struct server *s, tfr_arena *a,
                              const struct tfr_variable *v) {
  json_t *allowed = NULL, *forbidden = json_array();
  for (size_t i = 0; i < v->nrules; i++) {
    const struct tfr_rule *r = tfr_variable_rule(v, i);
    if (!r->range.filename)
      continue;
    size_t len;
    char *owned;
    const char *text = file_text(s, r->range.filename, &len, &owned);
    size_t open = r->range.end.byte;
    while (text && open < len && text[open] != '{')
      open++;
    if (!text || open >= len) {
      free(owned);
      continue;
    }
    size_t close = text_close_of(text, len, open), n;
    struct kv *it = items_of(text, open + 1, close, &n);
    for (size_t k = 0; k < n; k++) {
      if (it[k].ke - it[k].ks != 9 || memcmp(text + it[k].ks, "condition", 9))
        continue;
      json_t *list =
          rule_allowed(a, text, it[k].vs, it[k].ve, v->name, forbidden, NULL);
      if (list)
        allowed = rule_meet(allowed, list);
    }
    free(it);
    free(owned);
  }
  rule_remove(allowed, forbidden);
  json_decref(forbidden);
  return allowed;
}

/* The names set in the object the cursor is in (other than the one being
** typed at the cursor), sorted; NULL when the cursor is in no object. */
static const char **names_set(const struct cursor *c, const struct doc *d,
                              size_t *n) {
  *n = 0;
  size_t ob = open_brace(d->text, 0, c->byte);
  if (ob == SIZE_MAX || (!c->at.in_key && ob < c->at.value.start.byte))
    return NULL;
  size_t close = text_close_of(d->text, d->len, ob), k;
  struct kv *it = items_of(d->text, ob + 1, close, &k);
  const char **names = tfr_arena_alloc(c->a, (k ? k : 1) * sizeof *names);
  for (size_t i = 0; i < k; i++)
    if (!(c->byte >= it[i].ks && c->byte <= it[i].ke) &&
        !(c->byte < it[i].ks &&
          strspn(d->text + c->byte, " \t") >= it[i].ks - c->byte))
      names[(*n)++] = key_name(c->a, d->text, &it[i]);
  free(it);
  if (*n > 1)
    qsort(names, *n, sizeof *names, cmp_cstr);
  return names;
}

static json_t *completion(struct server *s, struct doc *d, json_t *pos) {
  struct cursor c = locate(s, d, pos);
  json_t *items = json_array();
  if (!is_tfvars(d->path) && !c.in_default) {
    tfr_arena_free(c.a);
    return items;
  }
  struct module *m = fresh_module(s, d);
  const struct tfr_variable *v = c.found ? variable(m, c.at.variable) : NULL;
  /* the object whose attributes may go here: where the cursor is, or
  ** (on a nested key) the object holding that key */
  char *obj = v ? tfr_arena_strdup(c.a, c.at.path) : NULL;
  if (obj && c.at.in_key) {
    char *cut = strrchr(obj, '.');
    if (cut && !strchr(cut, '['))
      *cut = '\0';
    else
      obj = NULL;
  }
  if (v && obj && (!c.at.in_key || *c.at.path || c.in_default)) {
    bool opt;
    const tfr_type *t = type_at(v->declared, obj, &opt);
    if (t && t->kind == TFR_OBJECT && c.quote == SIZE_MAX) {
      size_t nset;
      const char **set = names_set(&c, d, &nset);
      for (uint32_t i = 0; i < t->n; i++) {
        if (nset && bsearch(&t->names[i], set, nset, sizeof *set, cmp_cstr))
          continue; /* set already */
        bool o = t->optional && t->optional[i];
        const tfr_value *dv =
            o && !v->sensitive
                ? tfr_resolution_attr_default(
                      m->res, v->name,
                      tfr_arena_printf(c.a, "%s.%s", obj, t->names[i]))
                : NULL;
        json_array_append_new(
            items, item(t->names[i], 10 /* Property */,
                        tfr_arena_printf(
                            c.a, "%s%s%s%s", tfr_type_expr(c.a, t->types[i]),
                            o ? " (optional" : "",
                            dv ? tfr_arena_printf(c.a, ", default %s",
                                                  tfr_value_console(c.a, dv))
                               : "",
                            o ? ")" : ""),
                        NULL));
      }
    }
    if (!c.at.in_key) { /* a value: the literals the type allows */
      json_t *values = json_array();
      t = type_at(v->declared, c.at.path, &opt);
      if (t && c.quote == SIZE_MAX &&
          (t->kind == TFR_BOOL || t->kind == TFR_DYNAMIC)) {
        json_array_append_new(values, item("true", 12, "bool", NULL));
        json_array_append_new(values, item("false", 12, "bool", NULL));
      }
      if (t && v->nullable && c.quote == SIZE_MAX)
        json_array_append_new(values, item("null", 12, NULL, NULL));
      json_t *allowed =
          !*c.at.path && !v->sensitive ? allowed_values(s, c.a, v) : NULL;
      size_t i;
      json_t *x;
      json_array_foreach(allowed, i, x) json_array_append_new(
          values, item(json_string_value(x), 12 /* Value */,
                       "allowed by a validation rule", NULL));
      json_decref(allowed);
      /* in a string being typed: each replaces it, quotes and all */
      if (c.quote != SIZE_MAX) {
        size_t end =
            c.byte < d->len && d->text[c.byte] == '"' ? c.byte + 1 : c.byte;
        struct tfr_range r = {0};
        r.start.byte = c.quote;
        r.end.byte = end;
        json_array_foreach(values, i, x) {
          const char *label = json_string_value(json_object_get(x, "label"));
          json_object_set_new(x, "filterText", json_string(label));
          json_object_set_new(x, "textEdit",
                              json_pack("{s:o, s:s}", "range",
                                        range_of(d->text, d->len, &r),
                                        "newText", label));
        }
      }
      json_array_extend(items, values);
      json_decref(values);
    }
  } else if (!c.in_default && c.quote == SIZE_MAX &&
             (!c.found || c.at.in_key || at_top_name(d, c.byte))) {
    /* a new top-level name: the variables this file does not set yet */
    tfr_file *f = parse_doc(c.a, d);
    size_t nset = 0;
    const char **names =
        f ? tfr_file_attribute_names(c.a, f, &nset, NULL) : NULL;
    if (nset > 1) /* sorted, to be looked up */
      qsort(names, nset, sizeof *names, cmp_cstr);
    for (size_t i = 0; m->res && i < m->res->n; i++) {
      const struct tfr_variable *x = tfr_resolution_variable(m->res, i);
      /* set by the file, other than the name being typed */
      bool set = nset &&
                 bsearch(&x->name, names, nset, sizeof *names, cmp_cstr) &&
                 !(c.found && c.at.in_key && !strcmp(x->name, c.at.variable));
      if (!set)
        json_array_append_new(items, item(x->name, 6 /* Variable */,
                                          tfr_type_expr(c.a, x->declared),
                                          x->description));
    }
  }
  tfr_arena_free(c.a);
  return json_pack("{s:b, s:o}", "isIncomplete", 0, "items", items);
}

/* "Did you mean \"x\"" (either wording) in a message: x, malloc'd. */
static char *suggestion(const char *msg) {
  const char *p = strstr(msg, "Did you mean ");
  if (!p)
    return NULL;
  p = strchr(p, '"');
  const char *e = p ? strchr(p + 1, '"') : NULL;
  if (!e)
    return NULL;
  char *s = cli_strndup(p + 1, (size_t)(e - p - 1));
  return s;
}

/* The first quoted name in msg after after (in the arena), or NULL. */
static const char *quoted_after(tfr_arena *a, const char *msg,
                                const char *after) {
  const char *p = strstr(msg, after);
  p = p ? strchr(p + strlen(after), '"') : NULL;
  const char *e = p ? strchr(p + 1, '"') : NULL;
  return e ? tfr_arena_strndup(a, p + 1, (size_t)(e - p - 1)) : NULL;
}

/* What a variable of type t is set to before its value is known: "" for
** a string, 0, false, [], {}, an object with its required attributes. */
static void placeholder(char **out, size_t *n, const tfr_type *t, int indent) {
  switch (t->kind) {
  case TFR_STRING:
    append(out, n, "\"\"");
    return;
  case TFR_NUMBER:
    append(out, n, "0");
    return;
  case TFR_BOOL:
    append(out, n, "false");
    return;
  case TFR_LIST:
  case TFR_SET:
  case TFR_TUPLE:
    append(out, n, "[]");
    return;
  case TFR_OBJECT: {
    bool any = false;
    for (uint32_t i = 0; i < t->n; i++) {
      if (t->optional && t->optional[i])
        continue;
      append(out, n, "%s%*s%s = ", any ? "\n" : "{\n", indent + 2, "",
             t->names[i]);
      placeholder(out, n, t->types[i], indent + 2);
      any = true;
    }
    append(out, n, any ? "\n%*s}" : "{}", indent, "");
    return;
  }
  case TFR_MAP:
    append(out, n, "{}");
    return;
  default:
    append(out, n, "null");
  }
}

/* A type a user would write for a value (what type() says, simplified:
** a list of one type, a map of strings). */
static const char *infer_type(tfr_arena *a, const tfr_value *v) {
  const tfr_type *t = v->type;
  switch (t->kind) {
  case TFR_STRING:
  case TFR_NUMBER:
  case TFR_BOOL:
    return cli_type_word(t);
  case TFR_LIST:
  case TFR_SET:
  case TFR_TUPLE:
  case TFR_MAP:
  case TFR_OBJECT: {
    bool obj = t->kind == TFR_MAP || t->kind == TFR_OBJECT;
    const char *same = NULL;
    bool one = true;
    for (uint32_t i = 0;
         tfr_value_is_known(v) && !tfr_value_is_null(v) && i < v->n; i++) {
      const char *e = infer_type(a, v->elems[i]);
      if (!same)
        same = e;
      else if (strcmp(same, e))
        one = false;
    }
    if (t->kind == TFR_OBJECT && v->n && (!one || strchr(same, '('))) {
      char *out = NULL;
      size_t n = 0;
      append(&out, &n, "object({");
      for (uint32_t i = 0; i < v->n; i++)
        append(&out, &n, "%s%s = %s", i ? ", " : " ", t->names[i],
               infer_type(a, v->elems[i]));
      append(&out, &n, " })");
      const char *r = tfr_arena_strdup(a, out);
      free(out);
      return r;
    }
    return tfr_arena_printf(a, "%s(%s)", obj ? "map" : "list",
                            same && one ? same : "any");
  }
  default:
    return "any";
  }
}

/* An edit inserting text at the end of a text. */
static json_t *edit_at_end(const char *text, size_t len, const char *insert) {
  struct tfr_range r = {0};
  r.start.byte = r.end.byte = len;
  return json_pack("{s:o, s:s}", "range", range_of(text, len, &r), "newText",
                   insert);
}

/* An open variables file of d's module to add a value to: d itself, else
** terraform.tfvars, else the first open one. */
static struct doc *tfvars_for(struct server *s, struct doc *d) {
  if (is_tfvars(d->path))
    return d;
  struct doc *best = NULL;
  for (size_t i = 0; i < s->ndocs; i++) {
    struct doc *x = &s->docs[i];
    if (!is_tfvars(x->path) || !x->mod_dir || !d->mod_dir ||
        strcmp(x->mod_dir, d->mod_dir) || x->var_file)
      continue;
    if (!best || cli_has_suffix(x->path, "/terraform.tfvars"))
      best = x;
  }
  return best;
}

/* A quick fix adding a value for the required variable name. */
static json_t *add_required(struct server *s, struct doc *d, tfr_arena *a,
                            const char *name, json_t *g) {
  struct module *m = fresh_module(s, d);
  const struct tfr_variable *v = variable(m, name);
  struct doc *t = v ? tfvars_for(s, d) : NULL;
  if (!t || cli_has_suffix(t->path, ".json"))
    return NULL;
  char *text = NULL;
  size_t n = 0;
  append(&text, &n,
         "%s%s = ", t->len && t->text[t->len - 1] != '\n' ? "\n" : "", name);
  placeholder(&text, &n, v->declared, 0);
  append(&text, &n, "\n");
  json_t *changes = json_object();
  json_object_set_new(changes, t->uri,
                      json_pack("[o]", edit_at_end(t->text, t->len, text)));
  const char *base = strrchr(t->path, '/');
  json_t *act = json_pack(
      "{s:s, s:s, s:[O], s:{s:o}}", "title",
      tfr_arena_printf(a, "Add %s to %s", name, base ? base + 1 : t->path),
      "kind", "quickfix", "diagnostics", g, "edit", "changes", changes);
  free(text);
  return act;
}

/* A quick fix declaring variable name, set by tfvars document d at the
** diagnostic g, in the module's variables.tf (created when missing and
** the client can create files; else in the file declaring the module's
** first variable). */
static json_t *declare(struct server *s, struct doc *d, tfr_arena *a,
                       const char *name, json_t *g) {
  json_t *st = json_object_get(json_object_get(g, "range"), "start");
  size_t b = byte_of(d->text, d->len,
                     (int)json_integer_value(json_object_get(st, "line")),
                     (int)json_integer_value(json_object_get(st, "character")));
  tfr_file *f = parse_doc(a, d);
  struct tfr_locus at;
  if (!f || !d->mod_dir || !tfr_file_locate(a, f, b, &at) ||
      strcmp(at.variable, name))
    return NULL;
  /* its value, as written: after the name's "=" or ":" */
  size_t vs = at.name.end.byte, ve = at.value.end.byte;
  while (vs < ve && d->text[vs] != '=' && d->text[vs] != ':')
    vs++;
  tfr_diags *dg = tfr_diags_new(a);
  tfr_file *e =
      vs < ve ? tfr_parse_expr(a, dg, "<value>", d->text + vs + 1, ve - vs - 1)
              : NULL;
  const tfr_value *val = e ? tfr_eval_const(a, dg, e) : NULL;
  const char *type = val ? infer_type(a, val) : "any";
  const char *decl =
      tfr_arena_printf(a, "variable \"%s\" {\n  type = %s\n}\n", name, type);
  const char *path = tfr_arena_printf(a, "%s/variables.tf", d->mod_dir);
  size_t len;
  char *owned;
  const char *text = file_text(s, path, &len, &owned);
  if (!text && !s->create_files) { /* the first variable's file */
    struct module *m = fresh_module(s, d);
    for (size_t i = 0; m->res && i < m->res->n && !text; i++) {
      const struct tfr_variable *x = tfr_resolution_variable(m->res, i);
      if (x->decl.filename && cli_has_suffix(x->decl.filename, ".tf")) {
        path = tfr_arena_strdup(a, x->decl.filename);
        text = file_text(s, path, &len, &owned);
      }
    }
    if (!text)
      return NULL;
  }
  char *uri = path_uri(path);
  json_t *edit;
  if (text) {
    const char *sep = !len ? "" : text[len - 1] == '\n' ? "\n" : "\n\n";
    json_t *changes = json_object();
    json_object_set_new(
        changes, uri,
        json_pack("[o]", edit_at_end(text, len,
                                     tfr_arena_printf(a, "%s%s", sep, decl))));
    edit = json_pack("{s:o}", "changes", changes);
  } else {
    struct tfr_range r0 = {0};
    json_t *te = json_pack("{s:{s:s, s:n}, s:[{s:o, s:s}]}", "textDocument",
                           "uri", uri, "version", "edits", "range",
                           range_of("", 0, &r0), "newText", decl);
    edit = json_pack("{s:[{s:s, s:s}, o]}", "documentChanges", "kind", "create",
                     "uri", uri, te);
  }
  free(owned);
  free(uri);
  const char *base = strrchr(path, '/');
  return json_pack("{s:s, s:s, s:[O], s:o}", "title",
                   tfr_arena_printf(a, "Declare variable %s in %s", name,
                                    base ? base + 1 : path),
                   "kind", "quickfix", "diagnostics", g, "edit", edit);
}

static json_t *code_actions(struct server *s, struct doc *d, json_t *params) {
  json_t *out = json_array();
  json_t *diags =
      json_object_get(json_object_get(params, "context"), "diagnostics");
  tfr_arena *a = tfr_arena_new();
  size_t i;
  json_t *g;
  json_array_foreach(diags, i, g) {
    const char *msg = json_string_value(json_object_get(g, "message"));
    json_t *declared = NULL;
    if (msg && !strncmp(msg, "No value for required variable", 30)) {
      const char *name = quoted_after(a, msg, "variable ");
      json_t *act = name ? add_required(s, d, a, name, g) : NULL;
      if (act)
        json_array_append_new(out, act);
      continue;
    }
    if (msg && !strncmp(msg, "Value for undeclared variable", 29) &&
        is_tfvars(d->path)) {
      const char *name = quoted_after(a, msg, "variable named ");
      declared = name ? declare(s, d, a, name, g) : NULL;
    }
    char *name = msg ? suggestion(msg) : NULL;
    if (!name) {
      if (declared)
        json_array_append_new(out, declared);
      continue;
    }
    json_t *range = json_object_get(g, "range");
    json_t *st = json_object_get(range, "start");
    size_t b = byte_of(
        d->text, d->len, (int)json_integer_value(json_object_get(st, "line")),
        (int)json_integer_value(json_object_get(st, "character")));
    bool quoted = b < d->len && d->text[b] == '"';
    char *text = cli_alloc(strlen(name) + 3);
    sprintf(text, quoted ? "\"%s\"" : "%s", name);
    json_t *edit = json_pack("{s:O, s:s}", "range", range, "newText", text);
    json_t *changes = json_object();
    json_object_set_new(changes, d->uri, json_pack("[o]", edit));
    char title[512];
    snprintf(title, sizeof title, "Change to \"%s\"", name);
    json_array_append_new(out, json_pack("{s:s, s:s, s:[O], s:b, s:{s:o}}",
                                         "title", title, "kind", "quickfix",
                                         "diagnostics", g, "isPreferred", 1,
                                         "edit", "changes", changes));
    free(text);
    free(name);
    if (declared) /* after "did you mean" */
      json_array_append_new(out, declared);
  }
  tfr_arena_free(a);
  return out;
}

/* The symbols of the items of [start, end) of a tfvars text: each key
** (kind Variable at the top, Property below) with its value's keys as
** children when its value is an object. */
static json_t *key_symbols(tfr_arena *a, struct text_lines *tl,
                           const struct module *m, size_t start, size_t end,
                           int depth) {
  json_t *out = json_array();
  size_t n;
  struct kv *it = items_of(tl->text, start, end, &n);
  for (size_t i = 0; i < n; i++) {
    const char *name = key_name(a, tl->text, &it[i]);
    struct tfr_range kr = {0}, all = {0};
    kr.start.byte = all.start.byte = it[i].ks;
    kr.end.byte = it[i].ke;
    all.end.byte = it[i].ve > it[i].ke ? it[i].ve : it[i].ke;
    json_t *sym = json_pack("{s:s, s:i, s:o, s:o}", "name", name, "kind",
                            depth ? 7 : 13, "range", range_in(tl, &all),
                            "selectionRange", range_in(tl, &kr));
    const struct tfr_variable *v = !depth && m ? variable(m, name) : NULL;
    if (v)
      json_object_set_new(sym, "detail",
                          json_string(tfr_type_expr(a, v->declared)));
    if (it[i].vs < it[i].ve && tl->text[it[i].vs] == '{' && depth < 32) {
      size_t close = text_close_of(tl->text, it[i].ve, it[i].vs);
      json_t *kids = key_symbols(a, tl, m, it[i].vs + 1, close, depth + 1);
      if (json_array_size(kids))
        json_object_set_new(sym, "children", kids);
      else
        json_decref(kids);
    }
    json_array_append_new(out, sym);
  }
  free(it);
  return out;
}

/* textDocument/documentSymbol: a tfvars file's keys, nested keys as
** children; a configuration file's variable blocks, their types as
** detail.  Names and types only: no value. */
static json_t *symbols(struct server *s, struct doc *d) {
  tfr_arena *a = tfr_arena_new();
  struct text_lines tl = {d->text, d->len, NULL, 0, 0, 0, 0};
  struct module *m = fresh_module(s, d);
  json_t *out;
  if (is_tfvars(d->path)) {
    size_t start = 0, end = d->len;
    if (cli_has_suffix(d->path, ".json")) {
      while (start < d->len && d->text[start] != '{')
        start++;
      end = text_close_of(d->text, d->len, start);
      start++;
    }
    out = key_symbols(a, &tl, m, start < end ? start : end, end, 0);
  } else {
    out = json_array();
    for (size_t i = 0; m->res && i < m->res->n; i++) {
      const struct tfr_variable *v = tfr_resolution_variable(m->res, i);
      if (!v->decl.filename || strcmp(v->decl.filename, d->path) ||
          v->decl.end.byte > d->len)
        continue;
      struct tfr_range all = v->decl;
      size_t o = v->decl.end.byte;
      while (o < d->len && d->text[o] != '{' && d->text[o] != '\n')
        o++;
      if (o < d->len && d->text[o] == '{')
        all.end.byte = text_close_of(d->text, d->len, o) + 1;
      if (all.end.byte > d->len)
        all.end.byte = d->len;
      json_array_append_new(
          out,
          json_pack("{s:s, s:i, s:s, s:o, s:o}", "name", v->name, "kind", 13,
                    "detail", v->typed ? tfr_type_expr(a, v->declared) : "any",
                    "range", range_in(&tl, &all), "selectionRange",
                    range_in(&tl, &v->decl)));
    }
  }
  free(tl.starts);
  tfr_arena_free(a);
  return out;
}

/* What the client said it can do (initialize's capabilities): hover in
** plaintext only when it lists plaintext before markdown; files created
** by a workspace edit. */
static void client_caps(struct server *s, json_t *caps) {
  json_t *fmt = json_object_get(
      json_object_get(json_object_get(caps, "textDocument"), "hover"),
      "contentFormat");
  s->plaintext = false;
  size_t i;
  json_t *x;
  json_array_foreach(fmt, i, x) {
    const char *f = json_string_value(x);
    if (f && (!strcmp(f, "plaintext") || !strcmp(f, "markdown"))) {
      s->plaintext = !strcmp(f, "plaintext");
      break;
    }
  }
  json_t *we =
      json_object_get(json_object_get(caps, "workspace"), "workspaceEdit");
  s->create_files = false;
  json_array_foreach(
      json_object_get(we, "resourceOperations"), i,
      x) if (json_is_true(json_object_get(we, "documentChanges")) &&
             json_string_value(x) && !strcmp(json_string_value(x), "create"))
      s->create_files = true;
}

/* ---- notifications ------------------------------------------------------ */

/* dir/rel with "." and ".." taken out (no symbolic link followed, as
** the library names a child module's directory), malloc'd. */
static char *clean_join(const char *dir, const char *rel) {
  size_t n = strlen(dir) + strlen(rel) + 2;
  char *in = cli_alloc(n), *out = cli_alloc(n + 1);
  snprintf(in, n, "%s/%s", rel[0] == '/' ? "" : dir, rel);
  size_t o = 0;
  for (char *p = in; *p;) {
    while (*p == '/')
      p++;
    char *e = p + strcspn(p, "/");
    size_t l = (size_t)(e - p);
    if (l == 2 && !strncmp(p, "..", 2)) {
      while (o > 0 && out[--o] != '/')
        ;
    } else if (l && !(l == 1 && *p == '.')) {
      out[o++] = '/';
      memcpy(out + o, p, l);
      o += l;
    }
    p = e;
  }
  if (!o)
    out[o++] = '/';
  out[o] = '\0';
  free(in);
  return out;
}

/* A change to path: the module of its document, and every module whose
** resolution reads it (its own directory, its variables file, a child
** module's directory of its tree), resolve again. */
static void mark_dirty(struct server *s, const char *path) {
  struct doc *d = doc_by_path(s, path);
  if (d)
    module_for_doc(s, d)->dirty = true;
  char *dir = dir_of(path);
  for (size_t i = 0; i < s->nmods; i++) {
    struct module *m = &s->mods[i];
    if (!strcmp(m->dir, dir) || same(m->var_file, path))
      m->dirty = true;
    for (size_t k = 0; !m->dirty && k < s->set.var_files.n; k++) {
      char *f = clean_join(m->dir, s->set.var_files.v[k]);
      m->dirty = !strcmp(f, path);
      free(f);
    }
    for (size_t k = 0; !m->dirty && m->res && k < m->res->ninstances; k++) {
      const struct tfr_instance *in = tfr_resolution_instance(m->res, k);
      char *child = in->dir ? clean_join(m->dir, in->dir) : NULL;
      m->dirty = child && !strcmp(child, dir);
      free(child);
    }
  }
  free(dir);
}

static void settings_from(struct server *s, json_t *o) {
  if (!json_is_object(o))
    return;
  json_t *x = json_object_get(o, "tfresolve");
  if (json_is_object(x))
    o = x;
  const char *engine = json_string_value(json_object_get(o, "engine"));
  if (engine)
    s->set.opentofu = !strcmp(engine, "opentofu");
  json_t *strict = json_object_get(o, "strict");
  if (json_is_boolean(strict))
    s->set.strict = json_is_true(strict);
  json_t *modules = json_object_get(o, "modules");
  if (json_is_boolean(modules))
    s->set.modules = json_is_true(modules);
  json_t *files = json_object_get(o, "varFiles");
  if (json_is_array(files)) {
    cli_names_free(&s->set.var_files);
    size_t i;
    json_t *f;
    json_array_foreach(files, i, f) if (json_is_string(f))
        cli_names_add(&s->set.var_files, json_string_value(f));
  }
  json_t *env = json_object_get(o, "env");
  if (json_is_object(env)) {
    cli_names_free(&s->set.env);
    const char *k;
    json_t *v;
    json_object_foreach(env, k, v) {
      if (!json_is_string(v))
        continue;
      char *e = cli_alloc(strlen(k) + strlen(json_string_value(v)) + 2);
      sprintf(e, "%s=%s", k, json_string_value(v));
      cli_names_add(&s->set.env, e);
      free(e);
    }
  }
  for (size_t i = 0; i < s->nmods; i++)
    s->mods[i].dirty = true;
}

static void did_open(struct server *s, json_t *p) {
  json_t *td = json_object_get(p, "textDocument");
  const char *uri = json_string_value(json_object_get(td, "uri"));
  const char *text = json_string_value(json_object_get(td, "text"));
  char *path = uri ? uri_path(uri) : NULL;
  if (!path || !text) {
    free(path);
    return;
  }
  struct doc *d = find_doc(s, uri);
  if (!d) {
    if (s->ndocs == s->capdocs) {
      s->capdocs = s->capdocs ? 2 * s->capdocs : 8;
      s->docs = cli_realloc(s->docs, s->capdocs * sizeof *s->docs);
    }
    d = &s->docs[s->ndocs++];
    d->uri = cli_strdup(uri);
    d->path = path;
    const char *vf;
    d->mod_dir = module_dir_for(path, &vf);
    d->var_file = vf != NULL;
  } else {
    free(d->text);
    free(path);
  }
  d->len = json_string_length(json_object_get(td, "text"));
  d->text = cli_alloc(d->len + 1);
  memcpy(d->text, text, d->len + 1);
  d->version = (int)json_integer_value(json_object_get(td, "version"));
  forget_sent(s, d->uri); /* its diagnostics are sent, even the same */
  mark_dirty(s, d->path);
}

/* Full sync, and incremental ranges applied in order. */
static void did_change(struct server *s, json_t *p) {
  json_t *td = json_object_get(p, "textDocument");
  struct doc *d = find_doc(s, json_string_value(json_object_get(td, "uri")));
  if (!d)
    return;
  size_t i;
  json_t *ch;
  json_array_foreach(json_object_get(p, "contentChanges"), i, ch) {
    json_t *t = json_object_get(ch, "text");
    if (!json_is_string(t))
      continue;
    json_t *r = json_object_get(ch, "range");
    size_t a = 0, b = d->len;
    if (json_is_object(r)) {
      json_t *st = json_object_get(r, "start"), *en = json_object_get(r, "end");
      a = byte_of(d->text, d->len,
                  (int)json_integer_value(json_object_get(st, "line")),
                  (int)json_integer_value(json_object_get(st, "character")));
      b = byte_of(d->text, d->len,
                  (int)json_integer_value(json_object_get(en, "line")),
                  (int)json_integer_value(json_object_get(en, "character")));
      if (b < a)
        b = a;
    }
    size_t tn = json_string_length(t), n = d->len - (b - a) + tn;
    char *nt = cli_alloc(n + 1);
    memcpy(nt, d->text, a);
    memcpy(nt + a, json_string_value(t), tn);
    memcpy(nt + a + tn, d->text + b, d->len - b);
    nt[n] = '\0';
    free(d->text);
    d->text = nt;
    d->len = n;
  }
  d->version = (int)json_integer_value(json_object_get(td, "version"));
  mark_dirty(s, d->path);
}

static void did_close(struct server *s, json_t *p) {
  const char *uri = json_string_value(
      json_object_get(json_object_get(p, "textDocument"), "uri"));
  struct doc *d = uri ? find_doc(s, uri) : NULL;
  if (!d)
    return;
  mark_dirty(s, d->path); /* the file on disk counts again */
  free(d->uri);
  free(d->path);
  free(d->text);
  free(d->mod_dir);
  *d = s->docs[--s->ndocs];
}

/* A file the client saved, or changed on disk (its watcher): the modules
** that read it resolve again. */
static void file_changed(struct server *s, const char *uri) {
  char *path = uri ? uri_path(uri) : NULL;
  if (path)
    mark_dirty(s, path);
  free(path);
  rehome_docs(s);
}

/* Asks a client that can watch files for the server to do so. */
static void register_watchers(struct server *s) {
  if (!s->can_watch)
    return;
  static const char *const globs[] = {"**/*.tf",     "**/*.tf.json",
                                      "**/*.tofu",   "**/*.tofu.json",
                                      "**/*.tfvars", "**/*.tfvars.json"};
  json_t *watchers = json_array();
  for (size_t i = 0; i < sizeof globs / sizeof *globs; i++)
    json_array_append_new(watchers,
                          json_pack("{s:s}", "globPattern", globs[i]));
  json_t *m = json_pack(
      "{s:s, s:s, s:{s:[{s:s, s:s, s:{s:o}}]}}", "id", WATCH_REQUEST_ID,
      "method", "client/registerCapability", "params", "registrations", "id",
      "tfresolve/watched-files", "method", "workspace/didChangeWatchedFiles",
      "registerOptions", "watchers", watchers);
  send_json(m);
}

/* ---- the loop ----------------------------------------------------------- */

static json_t *capabilities(void) {
  return json_pack(
      "{s:{s:{s:b, s:i, s:{s:b}}, s:b, s:{s:[s,s,s]}, s:b, s:b, s:{s:[s]}},"
      " s:{s:s, s:s}}",
      "capabilities", "textDocumentSync", "openClose", 1, "change",
      2 /* incremental */, "save", "includeText", 0, "hoverProvider", 1,
      "completionProvider", "triggerCharacters", "\"", "{", " ",
      "definitionProvider", 1, "documentSymbolProvider", 1,
      "codeActionProvider", "codeActionKinds", "quickfix", "serverInfo", "name",
      "tfresolve", "version", tfr_version());
}

/* Whether method is a request about a document's contents (answered
** with null for a document that is not open); any other is not found. */
static bool doc_request(const char *method) {
  static const char *const names[] = {"hover", "definition", "completion",
                                      "codeAction", "documentSymbol"};
  if (strncmp(method, "textDocument/", 13))
    return false;
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp(method + 13, names[i]))
      return true;
  return false;
}

/* A request or notification; false after exit. */
static bool handle(struct server *s, json_t *msg, int *status) {
  json_t *id = json_object_get(msg, "id");
  const char *method = json_string_value(json_object_get(msg, "method"));
  json_t *params = json_object_get(msg, "params");
  if (!method) {
    if (id) { /* a response to us: to the registration of watchers */
      if (json_is_string(id) &&
          !strcmp(json_string_value(id), WATCH_REQUEST_ID))
        s->watching = !json_object_get(msg, "error");
      return true;
    }
    reply_error(NULL, -32600, "Invalid Request: no method");
    return true;
  }
  /* a request about a document answers from every edit made so far: the
  ** edits waiting for input to pause are resolved (and published) first */
  if (id && !strncmp(method, "textDocument/", 13))
    resolve_dirty(s); /* and files changed on disk, when nothing watches */
  if (!strcmp(method, "exit")) {
    *status = s->shutdown ? 0 : 1;
    return false;
  }
  if (s->shutdown && id) {
    reply_error(id, -32600, "Invalid Request: the server is shut down");
    return true;
  }
  if (!strcmp(method, "initialize")) {
    settings_from(s, json_object_get(params, "initializationOptions"));
    client_caps(s, json_object_get(params, "capabilities"));
    s->can_watch = json_is_true(json_object_get(
        json_object_get(json_object_get(json_object_get(params, "capabilities"),
                                        "workspace"),
                        "didChangeWatchedFiles"),
        "dynamicRegistration"));
    reply(id, capabilities());
  } else if (!strcmp(method, "initialized")) {
    register_watchers(s);
  } else if (!strcmp(method, "shutdown")) {
    s->shutdown = true;
    reply(id, NULL);
  } else if (!strcmp(method, "textDocument/didOpen")) {
    did_open(s, params);
  } else if (!strcmp(method, "textDocument/didChange")) {
    did_change(s, params);
  } else if (!strcmp(method, "textDocument/didClose")) {
    did_close(s, params);
  } else if (!strcmp(method, "textDocument/didSave")) {
    /* the text was had already, but what is on disk now may differ */
    file_changed(s, json_string_value(json_object_get(
                        json_object_get(params, "textDocument"), "uri")));
  } else if (!strcmp(method, "workspace/didChangeWatchedFiles")) {
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(params, "changes"), i, c)
        file_changed(s, json_string_value(json_object_get(c, "uri")));
  } else if (!strcmp(method, "workspace/didChangeConfiguration")) {
    settings_from(s, json_object_get(params, "settings"));
  } else if (id && doc_request(method)) {
    const char *uri = json_string_value(
        json_object_get(json_object_get(params, "textDocument"), "uri"));
    struct doc *d = uri ? find_doc(s, uri) : NULL;
    json_t *pos = json_object_get(params, "position");
    if (!d) {
      reply(id, NULL);
    } else if (!strcmp(method, "textDocument/hover")) {
      reply(id, hover(s, d, pos));
    } else if (!strcmp(method, "textDocument/definition")) {
      reply(id, definition(s, d, pos));
    } else if (!strcmp(method, "textDocument/completion")) {
      reply(id, completion(s, d, pos));
    } else if (!strcmp(method, "textDocument/documentSymbol")) {
      reply(id, symbols(s, d));
    } else {
      reply(id, code_actions(s, d, params));
    }
  } else if (id) {
    reply_error(id, -32601, "Method not found");
  }
  return true;
}

int cmd_lsp(int argc, char **argv) {
  for (int i = 0; i < argc; i++) {
    char buf[32];
    const char *val, *name = cli_opt_name(argv[i], buf, sizeof buf, &val);
    if (name && (!strcmp(name, "help") || !strcmp(name, "h"))) {
      fputs(usage_lsp, stdout);
      return EXIT_OK;
    }
    if (name && !strcmp(name, "stdio"))
      continue; /* what editors pass: stdio is the only transport */
    fprintf(stderr, "tfresolve lsp: unknown argument \"%s\"\n\n%s", argv[i],
            usage_lsp);
    return EXIT_USAGE;
  }
  struct server s = {0};
  s.debounce_ms = 1;
  s.set.modules = true;
  struct input *in = cli_calloc(1, sizeof *in);
  int status = 1; /* input ended without exit */
  for (;;) {
    if (!waiting(in, s.debounce_ms)) {
      resolve_dirty(&s);
      /* while input pauses, files changed on disk (when nothing watches
      ** them for us) */
      while (!s.watching && s.ndocs && !waiting(in, DISK_POLL_MS))
        if (check_disk(&s))
          resolve_dirty(&s);
    }
    size_t len = 0;
    bool bad;
    char *body = read_message(in, &len, &bad);
    if (!body)
      break;
    json_error_t err;
    /* any JSON value, so that one that is no object is an invalid
    ** request; a document's text may hold U+0000 (its length is kept) */
    json_t *msg =
        bad ? NULL
            : json_loadb(body, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
    free(body);
    if (!json_is_object(msg)) {
      reply_error(NULL, msg || bad ? -32600 : -32700,
                  bad   ? "Invalid Request: bad header (Content-Length)"
                  : msg ? "Invalid Request: not an object"
                        : "Parse error");
      json_decref(msg);
      continue;
    }
    bool go = handle(&s, msg, &status);
    json_decref(msg);
    if (!go)
      break;
  }
  for (size_t i = 0; i < s.ndocs; i++) {
    free(s.docs[i].uri);
    free(s.docs[i].path);
    free(s.docs[i].mod_dir);
    free(s.docs[i].text);
  }
  free(s.docs);
  for (size_t i = 0; i < s.nmods; i++) {
    free(s.mods[i].dir);
    free(s.mods[i].var_file);
    if (s.mods[i].a)
      tfr_arena_free(s.mods[i].a);
    for (size_t k = 0; k < s.mods[i].npub; k++) {
      free(s.mods[i].pub[k].uri);
      json_decref(s.mods[i].pub[k].list);
    }
    free(s.mods[i].pub);
  }
  free(s.mods);
  cli_names_free(&s.set.var_files);
  cli_names_free(&s.set.env);
  for (size_t i = 0; i < s.nsent; i++) {
    free(s.sent[i].uri);
    free(s.sent[i].json);
  }
  free(s.sent);
  cli_names_free(&s.shown);
  free(in);
  return status;
}
