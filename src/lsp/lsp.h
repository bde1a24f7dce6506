/*
** tfresolve lsp: what the server's files share.  The server is a client
** of the public API (include/tfresolve/) and of the CLI's helpers
** (src/cli/), like the CLI's commands; one file per part:
**
**   server.c       messages in and out, the method table (which also
**                  says the capabilities), settings, the loop
**   documents.c    open documents, their modules, resolving, files on
**                  disk and watching them
**   text.c         positions (LSP's lines and UTF-16 units, bytes) and
**                  text building
**   diagnostics.c  what a module's resolution says, placed and published
**   cursor.c       what is under the cursor (the library's tolerant
**                  reader: no parse of a half-typed text)
**   hover.c, completion.c, definition.c, actions.c (quick fixes),
**   symbols.c      one request each
*/
#ifndef TFR_LSP_H
#define TFR_LSP_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "../cli/cli.h"
#include "../cli/cli_module.h"
#include "../cli/cli_types.h"
#include "../cli/cli_util.h"

/* Messages larger than this are refused (a JSON-RPC error), unread; a
** file larger is not read. */
#define LSP_MAX_MESSAGE ((size_t)64 << 20)

struct doc {
  char *uri, *path; /* path: the file's absolute path */
  char *text;
  size_t len;
  int version;
  char *mod_dir; /* its module (module_dir_for, found when it is opened) */
  bool var_file; /* a variables file that module does not load itself */
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

/* A directory a module's resolution reads: its own, a child module's (by
** the path the library loaded it from), or a local child's that did not
** exist; known by its identity (device and inode) when it exists, so that
** a symbolic link's target, or the same directory by another path, is
** the same dependency. */
struct dep {
  char *path; /* as the resolution named it (cleaned, absolute) */
  bool exists;
  dev_t dev;
  ino_t ino;
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
  struct note *notes; /* the server's own, in a */
  size_t nnotes;
  unsigned long long stamp; /* its files on disk (disk_stamp) when it was
                               last resolved */
  struct dep *deps;         /* what its last resolution read (deps_of) */
  size_t ndeps;
  bool called_known; /* called is found (until files change on disk) */
  bool called;       /* a directory other modules of the workspace call (and no
                        root): its required variables are its callers' to set,
                        not reported missing */
  bool caller;       /* resolved for what it says of a child module opened
                       alone (lsp_resolve_caller): not published */
  struct module **callers; /* a called module with none of its callers
                              open: the workspace's roots that call it,
                              resolved when it is first checked and again
                              after a save (on a keystroke only when they
                              are cheap: documents.c) */
  size_t ncallers;
  bool callers_known;
  bool callers_cheap; /* checked within CALLERS_CHEAP_MS: again on every
                         change of the module */
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
  bool shutdown, exited;
  int status;                   /* the exit status, once exited */
  int debounce_ms;              /* how long the last resolve_dirty took */
  bool plaintext, create_files; /* the client's (client_caps) */
  bool can_watch;               /* the client registers file watchers for us */
  bool watching;  /* and said yes: no looking at the disk ourselves */
  bool trace;     /* the trace setting: a tfresolve/resolved notification
                     after each module resolved (tests count them) */
  char *root_dir; /* the workspace's (initialize's rootUri), or NULL */
  struct cli_roots *roots; /* the module calls below roots_top (roots.c),
                              found when first needed, forgotten when
                              files change on disk */
  char *roots_top;
  tfr_arena *roots_a;
  struct sent *sent;
  size_t nsent;
  struct cli_names shown; /* window/showMessage texts, each sent once */
};

/* ---- server.c ---- */
void lsp_send_json(json_t *msg);
void lsp_notify(const char *method, json_t *params);
void lsp_settings_from(struct server *s, json_t *o);

/* ---- text.c: positions and text ---- */
/* A text and where its lines start, for many positions in it. */
struct text_lines {
  const char *text;
  size_t len;
  size_t *starts; /* the byte each line starts at; NULL until needed */
  size_t n;
  size_t last_line, last_byte, last_col;
};
json_t *lsp_range_in(struct text_lines *t, const struct tfr_range *r);
json_t *lsp_range_of(const char *text, size_t len, const struct tfr_range *r);
size_t lsp_byte_of(const char *text, size_t len, int line, int character);
/* The byte of an LSP position object ({line, character}). */
size_t lsp_byte_at(const char *text, size_t len, json_t *pos);
/* The line break the text uses: "\r\n" when its first line ends so. */
const char *lsp_newline(const char *text, size_t len);
/* printf at the end of a malloc'd buffer. */
void lsp_append(char **buf, size_t *len, const char *fmt, ...);
int lsp_cmp_cstr(const void *x, const void *y);

/* ---- documents.c ---- */
char *lsp_uri_path(const char *uri);
char *lsp_path_uri(const char *path);
char *lsp_dir_of(const char *path);
char *lsp_clean_join(const char *dir, const char *rel);
struct doc *lsp_find_doc(struct server *s, const char *uri);
struct doc *lsp_doc_by_path(struct server *s, const char *path);
bool lsp_same(const char *x, const char *y);
bool lsp_is_tfvars(const char *path);
bool lsp_config_file(const char *path);
struct module *lsp_module_for_doc(struct server *s, const struct doc *d);
/* Whether document d is published by module m. */
bool lsp_publishes(const struct module *m, const struct doc *d);
/* The text of a file: the open document's, else the disk's (malloc'd in
** *owned, or NULL). */
const char *lsp_file_text(struct server *s, const char *path, size_t *len,
                          char **owned);
/* The module of a document, resolved if it is not yet. */
struct module *lsp_fresh_module(struct server *s, const struct doc *d);
const struct tfr_variable *lsp_variable(const struct module *m,
                                        const char *name);
void lsp_resolve_dirty(struct server *s);
/* The modules whose files changed on disk since they were resolved,
** dirty; whether any.  Before a request only when nothing watches the
** files for us; while input pauses (idle) always: a client's watcher
** may miss what another program does (Emacs in batch delivers no file
** events), and a child directory removed and restored must be seen. */
bool lsp_check_disk(struct server *s, bool idle);
void lsp_free_docs(struct server *s);
json_t *lsp_did_open(struct server *s, struct doc *d, json_t *p);
json_t *lsp_did_change(struct server *s, struct doc *d, json_t *p);
json_t *lsp_did_close(struct server *s, struct doc *d, json_t *p);
json_t *lsp_did_save(struct server *s, struct doc *d, json_t *p);
json_t *lsp_watched_files(struct server *s, struct doc *d, json_t *p);
/* The roots of the workspace that call directory dir and have no open
** document (at most max, added to out), and one resolved for what it
** passes its children (freed by lsp_free_caller). */
void lsp_closed_callers(struct server *s, const char *dir,
                        struct cli_names *out, size_t max);
struct module *lsp_resolve_caller(struct server *s, const char *dir);
void lsp_free_caller(struct module *m);
/* Forgets the module calls found (files changed on disk). */
void lsp_forget_roots(struct server *s);

/* ---- diagnostics.c ---- */
void lsp_publish(struct server *s, struct module *m);
/* Forgets what was published for uri: the next publish is sent. */
void lsp_forget_sent(struct server *s, const char *uri);
/* Publishes again what every module says of uri (one dropped). */
void lsp_send_diags(struct server *s, const char *uri);
void lsp_free_sent(struct server *s);

/* ---- cursor.c ---- */
struct cursor {
  tfr_arena *a;
  tfr_text *text; /* the document, for the tolerant reader */
  struct tfr_locus at;
  bool found;
  size_t byte;
  size_t quote;    /* the opening quote of the string the cursor is in, or
                      SIZE_MAX */
  bool in_default; /* in a .tf variable's `default` (at.variable: its
                      variable) */
};
struct cursor lsp_locate(struct server *s, const struct doc *d, json_t *pos);
/* The type at path (".a[2].b") below t; *optional when the last
** attribute is optional(); NULL when the path leaves the type. */
const tfr_type *lsp_type_at(const tfr_type *t, const char *path,
                            bool *optional);

/* ---- the requests: a handler each (server.c's method table) ---- */
json_t *lsp_hover(struct server *s, struct doc *d, json_t *params);
json_t *lsp_definition(struct server *s, struct doc *d, json_t *params);
json_t *lsp_completion(struct server *s, struct doc *d, json_t *params);
json_t *lsp_code_actions(struct server *s, struct doc *d, json_t *params);
json_t *lsp_symbols(struct server *s, struct doc *d, json_t *params);

#endif
