/*
** tfresolve lsp: a Language Server Protocol server over stdio for
** *.tfvars, *.tfvars.json and the module's *.tf files (lsp.h lists its
** files).  This one: JSON-RPC messages with Content-Length framing,
** parsed and written with jansson; the method table (a method, its
** handler, and the capability it gives, from which initialize's answer
** is built); settings; the loop.
**
** One thread, one message at a time, so a result is never overwritten
** by an older one: a change marks its module dirty, and the module is
** resolved again (with every open document's text in place of the file
** on disk) once no more input is waiting, which debounces a burst of
** keystrokes.
*/
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "lsp.h"
#include "../cli/options.h"

/* How long input may pause before dirty modules are resolved: as long as
** resolving them took the last time, at most DEBOUNCE_MAX_MS. */
#define DEBOUNCE_MAX_MS 30
/* A client that does not watch files for the server: how long input may
** pause before the modules' files on disk are looked at again. */
#define DISK_POLL_MS 1000
/* A client that watches files for the server: the same, less often, for
** what its watcher misses. */
#define WATCHED_POLL_MS 3000
/* The id of our client/registerCapability request. */
#define WATCH_REQUEST_ID "tfresolve/watch"

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
    "child module variables a value reaches), trace (true: a\n"
    "tfresolve/resolved notification after each module is checked, with\n"
    "its directory and the milliseconds it took).\n"
    "\n"
    "Only the modules of open documents are checked: an edit re-checks the\n"
    "open modules that read the file, and a module whose documents were\n"
    "all closed is dropped.\n";

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
          (unsigned long long)length > LSP_MAX_MESSAGE)
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

void lsp_send_json(json_t *msg) {
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
  lsp_send_json(m);
}

static void reply_error(json_t *id, int code, const char *message) {
  json_t *m = json_object();
  json_object_set(m, "id", id ? id : json_null());
  json_object_set_new(
      m, "error", json_pack("{s:i, s:s}", "code", code, "message", message));
  lsp_send_json(m);
}

void lsp_notify(const char *method, json_t *params) {
  json_t *m = json_object();
  json_object_set_new(m, "method", json_string(method));
  json_object_set_new(m, "params", params);
  lsp_send_json(m);
}

/* ---- settings and what the client can do ------------------------------- */

void lsp_settings_from(struct server *s, json_t *o) {
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
  json_t *trace = json_object_get(o, "trace");
  if (json_is_boolean(trace))
    s->trace = json_is_true(trace);
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
  lsp_forget_roots(s); /* the engine reads other files */
}

/* What the client said it can do (initialize's capabilities): hover in
** plaintext only when it lists plaintext before markdown; files created
** by a workspace edit; file watchers it registers for us. */
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
  json_t *ws = json_object_get(caps, "workspace");
  json_t *we = json_object_get(ws, "workspaceEdit");
  s->create_files = false;
  json_array_foreach(
      json_object_get(we, "resourceOperations"), i,
      x) if (json_is_true(json_object_get(we, "documentChanges")) &&
             json_string_value(x) && !strcmp(json_string_value(x), "create"))
      s->create_files = true;
  s->can_watch = json_is_true(json_object_get(
      json_object_get(ws, "didChangeWatchedFiles"), "dynamicRegistration"));
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
  lsp_send_json(m);
}

/* ---- the method table --------------------------------------------------- */

static json_t *capabilities(void);

/* The workspace's root directory: rootUri, else rootPath. */
static char *root_of(json_t *p) {
  const char *u = json_string_value(json_object_get(p, "rootUri"));
  char *path = u ? lsp_uri_path(u) : NULL;
  const char *rp = json_string_value(json_object_get(p, "rootPath"));
  if (!path && rp && rp[0] == '/')
    path = cli_strdup(rp);
  size_t n = path ? strlen(path) : 0;
  while (n > 1 && path[n - 1] == '/')
    path[--n] = '\0';
  return path;
}

static json_t *initialize(struct server *s, struct doc *d, json_t *p) {
  (void)d;
  free(s->root_dir);
  s->root_dir = root_of(p);
  lsp_settings_from(s, json_object_get(p, "initializationOptions"));
  client_caps(s, json_object_get(p, "capabilities"));
  return capabilities();
}

static json_t *initialized(struct server *s, struct doc *d, json_t *p) {
  (void)d, (void)p;
  register_watchers(s);
  return NULL;
}

static json_t *shutdown_(struct server *s, struct doc *d, json_t *p) {
  (void)d, (void)p;
  s->shutdown = true;
  return NULL;
}

static json_t *exit_(struct server *s, struct doc *d, json_t *p) {
  (void)d, (void)p;
  s->status = s->shutdown ? 0 : 1;
  s->exited = true;
  return NULL;
}

static json_t *configuration(struct server *s, struct doc *d, json_t *p) {
  (void)d;
  lsp_settings_from(s, json_object_get(p, "settings"));
  return NULL;
}

/* How a method is called. */
enum {
  NOTE,    /* a notification: no answer */
  REQUEST, /* a request: its handler's result is the answer */
  ON_DOC,  /* a request about an open document (params.textDocument.uri):
              null when it is not open; answered from every edit made so
              far (the dirty modules resolved first) */
  DOC_NOTE /* a notification about a document (its handler gets it, or
              NULL when it is not open) */
};

/* A method, its handler, and what it adds to initialize's capabilities:
** the value (JSON text) at a path of the capabilities object ("a.b"). */
struct method {
  const char *name;
  int kind;
  json_t *(*fn)(struct server *s, struct doc *d, json_t *params);
  const char *cap, *cap_value;
};

static const struct method methods[] = {
    {"initialize", REQUEST, initialize, NULL, NULL},
    {"initialized", NOTE, initialized, NULL, NULL},
    {"shutdown", REQUEST, shutdown_, NULL, NULL},
    {"exit", NOTE, exit_, NULL, NULL},
    {"textDocument/didOpen", NOTE, lsp_did_open, "textDocumentSync.openClose",
     "true"},
    {"textDocument/didChange", DOC_NOTE, lsp_did_change,
     "textDocumentSync.change", "2" /* incremental */},
    {"textDocument/didClose", DOC_NOTE, lsp_did_close,
     "textDocumentSync.openClose", "true"},
    {"textDocument/didSave", NOTE, lsp_did_save, "textDocumentSync.save",
     "{\"includeText\": false}"},
    {"workspace/didChangeWatchedFiles", NOTE, lsp_watched_files, NULL, NULL},
    {"workspace/didChangeConfiguration", NOTE, configuration, NULL, NULL},
    {"textDocument/hover", ON_DOC, lsp_hover, "hoverProvider", "true"},
    {"textDocument/completion", ON_DOC, lsp_completion, "completionProvider",
     "{\"triggerCharacters\": [\"\\\"\", \"{\", \" \"]}"},
    {"textDocument/definition", ON_DOC, lsp_definition, "definitionProvider",
     "true"},
    {"textDocument/documentSymbol", ON_DOC, lsp_symbols,
     "documentSymbolProvider", "true"},
    {"textDocument/codeAction", ON_DOC, lsp_code_actions, "codeActionProvider",
     "{\"codeActionKinds\": [\"quickfix\"]}"},
};

/* initialize's answer: each method's capability, and who we are. */
static json_t *capabilities(void) {
  json_t *caps = json_object();
  for (size_t i = 0; i < sizeof methods / sizeof *methods; i++) {
    const struct method *m = &methods[i];
    if (!m->cap)
      continue;
    json_t *at = caps;
    const char *p = m->cap, *dot;
    while ((dot = strchr(p, '.')) != NULL) {
      char key[64];
      snprintf(key, sizeof key, "%.*s", (int)(dot - p), p);
      json_t *next = json_object_get(at, key);
      if (!next)
        json_object_set_new(at, key, next = json_object());
      at = next;
      p = dot + 1;
    }
    json_object_set_new(at, p, json_loads(m->cap_value, JSON_DECODE_ANY, NULL));
  }
  return json_pack("{s:o, s:{s:s, s:s}}", "capabilities", caps, "serverInfo",
                   "name", "tfresolve", "version", tfr_version());
}

static const struct method *method_named(const char *name) {
  for (size_t i = 0; i < sizeof methods / sizeof *methods; i++)
    if (!strcmp(methods[i].name, name))
      return &methods[i];
  return NULL;
}

/* A response to our own request: to the registration of watchers. */
static void response(struct server *s, json_t *msg, json_t *id) {
  if (json_is_string(id) && !strcmp(json_string_value(id), WATCH_REQUEST_ID))
    s->watching = !json_object_get(msg, "error");
}

/* A request or notification. */
static void handle(struct server *s, json_t *msg) {
  json_t *id = json_object_get(msg, "id");
  const char *name = json_string_value(json_object_get(msg, "method"));
  json_t *params = json_object_get(msg, "params");
  if (!name) {
    if (id)
      response(s, msg, id);
    else
      reply_error(NULL, -32600, "Invalid Request: no method");
    return;
  }
  /* a request about a document answers from every edit made so far: the
  ** edits waiting for input to pause are resolved (and published) first */
  if (id && !strncmp(name, "textDocument/", 13))
    lsp_resolve_dirty(s); /* and files changed on disk, when nothing watches */
  const struct method *m = method_named(name);
  if (m && m->fn == exit_) {
    exit_(s, NULL, params);
    return;
  }
  if (s->shutdown && id) {
    reply_error(id, -32600, "Invalid Request: the server is shut down");
    return;
  }
  bool note = m && (m->kind == NOTE || m->kind == DOC_NOTE);
  if (!m || (!note && !id)) {
    if (id) /* an unknown notification is ignored */
      reply_error(id, -32601, "Method not found");
    return;
  }
  struct doc *d = NULL;
  if (m->kind == ON_DOC || m->kind == DOC_NOTE) {
    const char *uri = json_string_value(
        json_object_get(json_object_get(params, "textDocument"), "uri"));
    d = uri ? lsp_find_doc(s, uri) : NULL;
    if (!d) {
      if (!note)
        reply(id, NULL);
      return;
    }
  }
  json_t *result = m->fn(s, d, params);
  if (!note)
    reply(id, result);
  else
    json_decref(result);
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
  s.status = 1; /* input ended without exit */
  struct input *in = cli_calloc(1, sizeof *in);
  while (!s.exited) {
    if (!waiting(in, s.debounce_ms)) {
      lsp_resolve_dirty(&s);
      /* while input pauses, files changed on disk (looked at less often
      ** when the client watches them for us) */
      while (s.ndocs &&
             !waiting(in, s.watching ? WATCHED_POLL_MS : DISK_POLL_MS))
        if (lsp_check_disk(&s, true))
          lsp_resolve_dirty(&s);
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
    handle(&s, msg);
    json_decref(msg);
  }
  lsp_free_docs(&s);
  cli_names_free(&s.set.var_files);
  cli_names_free(&s.set.env);
  lsp_free_sent(&s);
  cli_names_free(&s.shown);
  free(in);
  return s.status;
}
