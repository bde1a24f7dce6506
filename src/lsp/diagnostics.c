/*
** tfresolve lsp: diagnostics.  What a module's resolution says is placed
** where it can be fixed and published for every file it speaks of,
** merged with what other modules say of the same file (a child module's
** file opened on its own is spoken of by its caller's tree and its own
** directory's module), and sent only when it changed.  The library's
** texts as they are; a child module instance's diagnostic goes to its
** own range when that file is open and to the variables file line whose
** value causes it; what has no place of its own goes to the first line
** of the module's open documents.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

/* Diagnostics LSP's way: severity 1 error, 2 warning. */
static int severity(const struct tfr_diag *g) {
  return g->sev == TFR_DIAG_ERROR ? 1 : 2;
}

/* Terraform's words of g: the summary, the detail, and the note. */
static char *words_of(const struct tfr_diag *g) {
  char *msg = NULL;
  size_t len = 0;
  lsp_append(&msg, &len, "%s%s%s%s%s", g->summary,
             g->detail && *g->detail ? ": " : "", g->detail ? g->detail : "",
             g->note ? "\n\n" : "", g->note ? g->note : "");
  return msg;
}

static json_t *lsp_diag(struct text_lines *t, const struct tfr_diag *g,
                        int sev) {
  /* the summary, the detail, the note, and (ours, after Terraform's
  ** words) the child module instance it is about */
  const char *in = g->module && *g->module ? g->module : NULL;
  char *msg = words_of(g);
  size_t len = strlen(msg);
  if (in)
    lsp_append(&msg, &len, "\n(in %s)", in);
  json_t *d =
      json_pack("{s:o, s:i, s:s, s:s}", "range", lsp_range_in(t, &g->subject),
                "severity", sev, "source", "tfresolve", "message", msg);
  free(msg);
  if (g->code)
    json_object_set_new(d, "code", json_integer(g->code));
  return d;
}

/* The diagnostics of a child module's instances folded into one: the
** same words at the same place for instances of one call ("8 instances
** of module.keyed" rather than 8 lines alike). */
struct fold {
  char *key;              /* severity, range, call and words */
  json_t *d;              /* its diagnostic (the file's list holds it) */
  char *words;            /* words_of */
  struct cli_names insts; /* an instance and the value it received each:
                             "module.a[\"k\"]\tvar.x is \"v\"" */
};

/* A file's diagnostics, by its path, and its text once one is placed. */
struct file_diags {
  char *path;
  json_t *list;
  bool read;
  char *owned; /* the text, when read from disk */
  struct text_lines text;
  struct fold *folds;
  size_t nfolds;
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

static void free_folds(struct file_diags *f) {
  for (size_t i = 0; i < f->nfolds; i++) {
    free(f->folds[i].key);
    free(f->folds[i].words);
    cli_names_free(&f->folds[i].insts);
  }
  free(f->folds);
}

/* The instances of a fold listed at most this many. */
#define FOLD_LIST_MAX 20

/* A fold's message: Terraform's words, then (ours) the value the child
** variable received and the instance, or, for several instances, each
** instance with its value. */
static void fold_message(struct fold *x) {
  char *msg = cli_strdup(x->words);
  size_t len = strlen(msg);
  if (x->insts.n == 1) {
    const char *inst = x->insts.v[0], *tab = strchr(inst, '\t');
    if (tab)
      lsp_append(&msg, &len, "\n%s", tab + 1);
    lsp_append(&msg, &len, "\n(in %.*s)",
               (int)(tab ? (size_t)(tab - inst) : strlen(inst)), inst);
  } else {
    const char *first = x->insts.v[0];
    tfr_arena *a = tfr_arena_new();
    char *call = tfr_arena_strndup(a, first, strcspn(first, "\t"));
    lsp_append(&msg, &len, "\n(in %zu instances of %s)", x->insts.n,
               cli_call_path(a, call));
    tfr_arena_free(a);
    for (size_t i = 0; i < x->insts.n && i < FOLD_LIST_MAX; i++) {
      const char *inst = x->insts.v[i], *tab = strchr(inst, '\t');
      if (tab)
        lsp_append(&msg, &len, "\n  %.*s: %s", (int)(tab - inst), inst,
                   tab + 1);
      else
        lsp_append(&msg, &len, "\n  %s", inst);
    }
    if (x->insts.n > FOLD_LIST_MAX)
      lsp_append(&msg, &len, "\n  ... and %zu more",
                 x->insts.n - FOLD_LIST_MAX);
  }
  json_object_set_new(x->d, "message", json_string(msg));
  free(msg);
}

/* The instance of g and the value its variable received: "module.a[\"k\"]"
** and, after a tab, the library's statements of the values the failing
** expression read ("var.x is \"v\""; never a sensitive one: for a
** sensitive variable, that it has one), malloc'd. */
static char *instance_line(const struct module *m, const struct tfr_diag *g) {
  char *line = NULL;
  size_t len = 0;
  lsp_append(&line, &len, "%s", g->module);
  if (m && m->caller) /* a caller's of a module opened alone: which */
    lsp_append(&line, &len, " (from %s)", m->dir);
  const char *sep = "\t";
  for (size_t i = 0; i < g->nvalues; i++) {
    lsp_append(&line, &len, "%s%s %s", sep, g->values[i].traversal,
               g->values[i].statement);
    sep = "; ";
  }
  const struct tfr_instance *in = NULL;
  const struct tfr_variable *v = m ? cli_child_var(m->res, g, &in) : NULL;
  if (!g->nvalues && v && v->sensitive)
    lsp_append(&line, &len, "\tvar.%s has a sensitive value", v->name);
  return line;
}

/* A place related to a diagnostic (relatedInformation): range r, with
** message text; NULL when its file cannot be read. */
static json_t *related_at(struct server *s, const struct tfr_range *r,
                          const char *text) {
  if (!r || !r->filename)
    return NULL;
  size_t len;
  char *owned;
  const char *t = lsp_file_text(s, r->filename, &len, &owned);
  if (!t)
    return NULL;
  char *u = lsp_path_uri(r->filename);
  json_t *loc = json_pack("{s:{s:s, s:o}, s:s}", "location", "uri", u, "range",
                          lsp_range_of(t, len, r), "message", text);
  free(u);
  free(owned);
  return loc;
}

/* The validation rule of v a diagnostic is about: the failed one whose
** message its detail begins with, else the first failed one. */
static const struct tfr_rule *failed_rule(const struct tfr_variable *v,
                                          const struct tfr_diag *g) {
  const struct tfr_rule *first = NULL;
  for (size_t i = 0; i < v->nrules; i++) {
    const struct tfr_rule *r = tfr_variable_rule(v, i);
    if (r->result != TFR_RULE_FAILED)
      continue;
    if (r->detail && g->detail &&
        !strncmp(g->detail, r->detail, strlen(r->detail)))
      return r;
    if (!first)
      first = r;
  }
  return first;
}

/* The places a child instance's diagnostic g (placed at its own range or
** moved) is about: the module argument when it is placed elsewhere, and
** the validation rule that failed. */
static json_t *child_related(struct server *s, const struct module *m,
                             const struct tfr_diag *g,
                             const struct tfr_range *own) {
  json_t *list = json_array();
  tfr_arena *a = tfr_arena_new();
  const struct tfr_instance *in = NULL;
  const struct tfr_variable *v = cli_child_var(m->res, g, &in);
  const char *call = cli_call_path(a, g->module);
  if (own && own->filename &&
      !(lsp_same(own->filename, g->subject.filename) &&
        own->start.byte == g->subject.start.byte &&
        own->end.byte == g->subject.end.byte)) {
    const char *t =
        v ? tfr_arena_printf(a, "the argument %s of %s", v->name, call)
          : tfr_arena_printf(a, "%s", call);
    json_t *x = related_at(s, own, t);
    if (x)
      json_array_append_new(list, x);
  }
  const struct tfr_rule *r = v ? failed_rule(v, g) : NULL;
  if (r) {
    json_t *x =
        related_at(s, &r->range,
                   tfr_arena_printf(a, "the validation rule of var.%s in %s",
                                    v->name, call));
    if (x)
      json_array_append_new(list, x);
  }
  tfr_arena_free(a);
  if (!json_array_size(list)) {
    json_decref(list);
    return NULL;
  }
  return list;
}

/* A child instance's diagnostic g into f: folded with those of other
** instances of its call that say the same at the same place.  own: the
** range check reports it at (the module argument). */
static void place_child_diag(struct server *s, const struct module *m,
                             struct file_diags *f, const struct tfr_diag *g,
                             int sev, const struct tfr_range *own) {
  tfr_arena *a = tfr_arena_new();
  json_t *range = lsp_range_in(&f->text, &g->subject);
  char *rtext = json_dumps(range, JSON_COMPACT | JSON_SORT_KEYS);
  char *words = words_of(g);
  char *key = NULL;
  size_t klen = 0;
  lsp_append(&key, &klen, "%d\x1f%s\x1f%s\x1f%s", sev, rtext ? rtext : "",
             cli_call_path(a, g->module), words);
  free(rtext);
  tfr_arena_free(a);
  char *inst = instance_line(m, g);
  struct fold *x = NULL;
  for (size_t i = 0; i < f->nfolds && !x; i++)
    if (!strcmp(f->folds[i].key, key))
      x = &f->folds[i];
  if (x) {
    free(key);
    free(words);
    json_decref(range);
    for (size_t i = 0; i < x->insts.n; i++)
      if (!strcmp(x->insts.v[i], inst)) {
        free(inst);
        return;
      }
  } else {
    f->folds = cli_realloc(f->folds, (f->nfolds + 1) * sizeof *f->folds);
    x = &f->folds[f->nfolds++];
    memset(x, 0, sizeof *x);
    x->key = key;
    x->words = words;
    x->d = json_pack("{s:o, s:i, s:s}", "range", range, "severity", sev,
                     "source", "tfresolve");
    if (g->code)
      json_object_set_new(x->d, "code", json_integer(g->code));
    json_t *rel = child_related(s, m, g, own);
    if (rel)
      json_object_set_new(x->d, "relatedInformation", rel);
    json_array_append_new(f->list, x->d);
  }
  cli_names_add(&x->insts, inst);
  free(inst);
  fold_message(x);
}

/* Adds g to f's list with LSP severity sev (f's text is read once, for
** the first); nothing when f cannot be read.  A child instance's (m's
** tree; own: where check reports it) is folded (place_child_diag). */
static void place_as(struct server *s, const struct module *m,
                     struct file_diags *f, const struct tfr_diag *g, int sev,
                     const struct tfr_range *own) {
  if (!f->read) {
    f->read = true;
    f->text.text = lsp_file_text(s, f->path, &f->text.len, &f->owned);
  }
  if (!f->text.text)
    return;
  if (m && g->module && *g->module) {
    place_child_diag(s, m, f, g, sev, own);
    return;
  }
  json_array_append_new(f->list, lsp_diag(&f->text, g, sev));
}

static void place(struct server *s, const struct module *m,
                  struct file_diags *f, const struct tfr_diag *g,
                  const struct tfr_range *own) {
  place_as(s, m, f, g, severity(g), own);
}

/* A message the user is shown once (window/showMessage; type 1 error,
** 2 warning), for what no open document can carry. */
static void show_once(struct server *s, int type, const char *text) {
  for (size_t i = 0; i < s->shown.n; i++)
    if (!strcmp(s->shown.v[i], text))
      return;
  cli_names_add(&s->shown, text);
  lsp_notify("window/showMessage",
             json_pack("{s:i, s:s}", "type", type, "message", text));
}

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
    if (!lsp_publishes(m, d) || lsp_same(d->path, skip) ||
        (tfvars_only && !lsp_is_tfvars(d->path)))
      continue;
    const char *nl = memchr(d->text, '\n', d->len);
    struct tfr_diag top = *g;
    top.subject = (struct tfr_range){0};
    top.subject.filename = d->path;
    top.subject.end.byte = nl ? (size_t)(nl - d->text) : d->len;
    place_as(s, m, file_of(files, nfiles, d->path), &top, sev, &g->subject);
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
  return lsp_same(x->filename, y->filename) && x->start.byte == y->start.byte &&
         x->end.byte == y->end.byte;
}

/* A diagnostic of a child module instance (g->module not ""): at its own
** range (the module argument in the calling module's file, or a place in
** the child's files) whether that file is open or not (read from disk, as
** a syntax error of a file not open is), so that every failure check
** reports is published where check reports it, and an error also at the
** variables file line whose value causes it (cli_fix_range).  A
** variables file's resolution (m->var_file) speaks of that file only:
** what has no line there goes to its first line.  An error of ours about
** the tree as a whole (too many module instances, the memory budget, a
** module calling itself) in a child's file that is not open: at the top
** of the open documents too, so that the editor says why the tree is not
** checked. */
static void place_child(struct server *s, struct module *m,
                        struct file_diags **files, size_t *nfiles,
                        const struct tfr_diag *g) {
  const struct tfr_range *own = &g->subject;
  bool at_own =
      own->filename && (!m->var_file || !strcmp(own->filename, m->var_file));
  if (at_own)
    place(s, m, file_of(files, nfiles, own->filename), g, own);
  const struct tfr_instance *in = NULL;
  const struct tfr_variable *v =
      g->sev == TFR_DIAG_ERROR ? cli_child_var(m->res, g, &in) : NULL;
  const struct tfr_range *fix = v ? cli_fix_range(m->res, in, v) : NULL;
  if (g->sev == TFR_DIAG_ERROR && g->element.filename)
    fix = &g->element; /* the element at fault, where it is written (the
                          attribute inside a map rather than the map) */
  if (!fix || !fix->filename || (at_own && same_range(fix, own)) ||
      (m->var_file && strcmp(fix->filename, m->var_file))) {
    /* (a variables file's warning of a module not installed: its
    ** verdict line says it) */
    if ((!at_own && (g->sev == TFR_DIAG_ERROR || !m->var_file)) ||
        (!v && g->ours && g->sev == TFR_DIAG_ERROR &&
         !lsp_doc_by_path(s, own->filename)))
      place_at_top(s, m, files, nfiles, g, severity(g), NULL, false);
    return;
  }
  struct tfr_diag moved = *g;
  moved.subject = *fix;
  place(s, m, file_of(files, nfiles, moved.subject.filename), &moved, own);
}

/* The diagnostics of uri: what every module last said of it, each once
** (a child module's file is spoken of by the module tree of its caller
** and by its own directory's module). */
void lsp_send_diags(struct server *s, const char *uri) {
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
  struct doc *d = lsp_find_doc(s, uri);
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
  lsp_notify("textDocument/publishDiagnostics", p);
}

/* Forgets what was published for uri: the next publish is sent (a
** document opened again). */
void lsp_forget_sent(struct server *s, const char *uri) {
  for (size_t i = 0; i < s->nsent; i++)
    if (!strcmp(s->sent[i].uri, uri)) {
      free(s->sent[i].uri);
      free(s->sent[i].json);
      s->sent[i] = s->sent[--s->nsent];
      return;
    }
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
        lsp_config_file(g->subject.filename))
      return g;
  }
  return NULL;
}

/* The module calls whose instances the tree does not check (not
** installed, a directory not found, instances deferred) said at the top
** of the module's open documents as check's verdict line says them
** ("2 modules not checked:" and a line each): a warning (an error with
** strict, as check's exit status), for what the document's checks do
** not cover. */
static void place_unchecked(struct server *s, struct module *m,
                            struct file_diags **files, size_t *nfiles) {
  if (!m->res->nunchecked)
    return;
  char *text = NULL;
  size_t len = 0;
  lsp_append(&text, &len, "%s:", cli_unchecked_count(m->a, m->res));
  for (size_t i = 0; i < m->res->nunchecked; i++) {
    const struct tfr_unchecked *u = tfr_resolution_unchecked(m->res, i);
    lsp_append(&text, &len, "\n  %s: %s", u->address, u->why);
  }
  struct tfr_diag g = {0};
  g.sev = s->set.strict ? TFR_DIAG_ERROR : TFR_DIAG_WARNING;
  g.summary = tfr_arena_strdup(m->a, text);
  g.ours = true;
  free(text);
  place_at_top(s, m, files, nfiles, &g, severity(&g), NULL, false);
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
  place_unchecked(s, m, files, nfiles);
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
    place(s, m, file_of(files, nfiles, stop->subject.filename), stop, NULL);
  tfr_arena *a = tfr_arena_new();
  const char *file = stop->subject.filename;
  size_t n = strlen(m->dir);
  if (!strncmp(file, m->dir, n) && file[n] == '/')
    file += n + 1;
  /* a syntax error, or another error of the configuration */
  size_t len;
  char *owned;
  const char *text = lsp_file_text(s, stop->subject.filename, &len, &owned);
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

/* A module other modules call, opened alone with none of its callers
** open: the failures its callers' instances meet (m->callers, the
** workspace's roots that call it), at the declaration of the child
** variable whose value fails, naming the instance and the caller, with
** the module argument and the rule as related places. */
static void place_from_callers(struct server *s, struct module *m,
                               struct file_diags **files, size_t *nfiles) {
  for (size_t c = 0; c < m->ncallers; c++) {
    const struct module *x = m->callers[c];
    size_t nd = x->diags ? tfr_diags_count(x->diags) : 0;
    for (size_t i = 0; i < nd; i++) {
      const struct tfr_diag *g = tfr_diags_get(x->diags, i);
      if (!g->module || !*g->module || g->sev != TFR_DIAG_ERROR)
        continue;
      const struct tfr_instance *in = NULL;
      const struct tfr_variable *v = cli_child_var(x->res, g, &in);
      char *dir = v && v->decl.filename ? lsp_dir_of(v->decl.filename) : NULL;
      bool mine = dir && lsp_same(dir, m->dir);
      free(dir);
      if (!mine)
        continue;
      struct tfr_diag moved = *g;
      moved.subject = v->decl;
      place(s, x, file_of(files, nfiles, v->decl.filename), &moved,
            &g->subject);
    }
  }
}

void lsp_publish(struct server *s, struct module *m) {
  struct file_diags *files = NULL;
  size_t nfiles = 0;
  /* every open document of the module gets a list, empty or not */
  for (size_t i = 0; i < s->ndocs; i++)
    if (lsp_publishes(m, &s->docs[i]))
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
    if (g && m->called && g->code == TFR_CODE_NO_VALUE &&
        g->sev == TFR_DIAG_WARNING)
      continue; /* a called module's: its callers set it */
    if (g && g->module && *g->module)
      place_child(s, m, &files, &nfiles, g);
    /* a variables file's own resolution speaks of that file only */
    else if (g && g->subject.filename &&
             (!m->var_file || !strcmp(g->subject.filename, m->var_file)))
      place(s, m, file_of(&files, &nfiles, g->subject.filename), g, NULL);
  }
  free(said);
  place_from_callers(s, m, &files, &nfiles);
  place_rest(s, m, &files, &nfiles);
  struct pub *old = m->pub;
  size_t nold = m->npub;
  m->pub = cli_alloc((nfiles ? nfiles : 1) * sizeof *m->pub);
  m->npub = nfiles;
  for (size_t k = 0; k < nfiles; k++) {
    /* an open document by the URI the client gave */
    struct doc *d = lsp_doc_by_path(s, files[k].path);
    m->pub[k].uri = d ? cli_strdup(d->uri) : lsp_path_uri(files[k].path);
    m->pub[k].list = files[k].list;
    free(files[k].path);
    free(files[k].owned);
    free(files[k].text.starts);
    free_folds(&files[k]);
  }
  free(files);
  for (size_t k = 0; k < m->npub; k++)
    lsp_send_diags(s, m->pub[k].uri);
  /* files with diagnostics before and none now: cleared (or what another
  ** module says of them) */
  for (size_t i = 0; i < nold; i++) {
    bool still = false;
    for (size_t k = 0; k < m->npub && !still; k++)
      still = !strcmp(m->pub[k].uri, old[i].uri);
    if (!still)
      lsp_send_diags(s, old[i].uri);
    free(old[i].uri);
    json_decref(old[i].list);
  }
  free(old);
}

void lsp_free_sent(struct server *s) {
  for (size_t i = 0; i < s->nsent; i++) {
    free(s->sent[i].uri);
    free(s->sent[i].json);
  }
  free(s->sent);
}
