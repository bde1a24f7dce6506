/*
** Shared body of the libFuzzer targets: parse one input with the given
** syntax, then render every diagnostic and (when the parse succeeded) the
** syntax tree, so that the renderers' position and UTF-8 handling are
** fuzzed too.  Beyond the sanitizers it checks the invariants the API
** promises: a NULL file comes with an error, and every diagnostic range
** lies inside the input.  A broken invariant aborts (a libFuzzer crash).
*/
#ifndef TFR_FUZZ_COMMON_H
#define TFR_FUZZ_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "tfresolve/tfresolve.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The CLI runs on a 256 MiB stack (cli_run_with_stack); libFuzzer calls
** the target on its main thread, whose stack may grow as far as the soft
** limit: raise it (as far as the hard limit allows) so that inputs at the
** readers' nesting limits (10,000 levels) do not overflow an
** ASan-instrumented stack. */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  struct rlimit r;
  rlim_t want = (rlim_t)256 << 20;
  if (getrlimit(RLIMIT_STACK, &r) == 0 && r.rlim_cur != RLIM_INFINITY &&
      r.rlim_cur < want) {
    r.rlim_cur =
        r.rlim_max == RLIM_INFINITY || r.rlim_max > want ? want : r.rlim_max;
    setrlimit(RLIMIT_STACK, &r);
  }
  return 0;
}

/* The scratch directory of fuzz_scratch_dir and the files removed from it
** at exit. */
static char fuzz_dir_path[4096];
static const char *const *fuzz_dir_files;

static inline void fuzz_remove_dir(void) {
  char path[4200];
  for (size_t i = 0; fuzz_dir_files && fuzz_dir_files[i]; i++) {
    snprintf(path, sizeof path, "%s/%s", fuzz_dir_path, fuzz_dir_files[i]);
    unlink(path);
  }
  rmdir(fuzz_dir_path);
}

/* A directory of this process's own in $TMPDIR (prefix, then random
** letters), made on the first call; at exit it is removed with the files
** named in files (NULL-terminated), which the target may write there. */
static inline const char *fuzz_scratch_dir(const char *prefix,
                                           const char *const *files) {
  if (!fuzz_dir_path[0]) {
    const char *t = getenv("TMPDIR");
    snprintf(fuzz_dir_path, sizeof fuzz_dir_path, "%s/%sXXXXXX",
             t && *t ? t : "/tmp", prefix);
    if (!mkdtemp(fuzz_dir_path))
      abort();
    fuzz_dir_files = files;
    atexit(fuzz_remove_dir);
  }
  return fuzz_dir_path;
}

/* fuzz_scratch_dir with the n files of files ({name, text}) written in
** it on the first call, for file(), templatefile(), fileset()... */
static inline const char *
fuzz_files_dir(const char *prefix, const char *const (*files)[2], size_t n) {
  static const char *names[16]; /* NULL-terminated: removed at exit */
  if (n >= sizeof names / sizeof *names)
    abort();
  bool first = !fuzz_dir_path[0];
  for (size_t i = 0; i < n; i++)
    names[i] = files[i][0];
  const char *dir = fuzz_scratch_dir(prefix, names);
  for (size_t i = 0; i < n && first; i++) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, files[i][0]);
    FILE *f = fopen(path, "w");
    if (!f || fputs(files[i][1], f) < 0 || fclose(f) != 0)
      abort();
  }
  return dir;
}

/* Every renderer writes here; opened once, never closed (the process
** exits when libFuzzer is done). */
static inline FILE *fuzz_sink(void) {
  static FILE *sink;
  if (!sink)
    sink = fopen("/dev/null", "w");
  if (!sink)
    abort();
  return sink;
}

/* A diagnostic's subject must lie within the file it names (hcl's JSON
** parser ends "Invalid JSON string" one byte past a string cut off by the
** end of the file: slack 1 there). */
static inline void fuzz_check_range(const struct tfr_diag *dg, size_t len,
                                    size_t slack) {
  const struct tfr_range *r = &dg->subject;
  if (!r->filename)
    return;
  if (r->start.byte > r->end.byte || r->end.byte > len + slack)
    abort();
  if (r->start.line < 1 || r->start.column < 1 || r->end.line < 1 ||
      r->end.column < 1)
    abort();
  if (r->end.line < r->start.line)
    abort();
}

/* Parse, check, render: the one job of each fuzz target. */
static inline int fuzz_one(const uint8_t *data, size_t size,
                           enum tfr_syntax syn) {
  struct tfr_render_opts opts = TFR_RENDER_OPTS_INIT;
  opts.color = true;
  opts.unicode = true;
  const char *name =
      syn == TFR_SYNTAX_JSON ? "fuzz.tfvars.json" : "fuzz.tfvars";
  tfr_arena *a = tfr_arena_new();
  tfr_diags *diags = tfr_diags_new(a);
  tfr_file *f = tfr_parse_bytes(a, diags, name, (const char *)data, size, syn);
  if (!f && !tfr_diags_has_errors(diags))
    abort(); /* NULL must be explained by an error */
  for (size_t i = 0; i < tfr_diags_count(diags); i++)
    fuzz_check_range(tfr_diags_get(diags, i), size, syn == TFR_SYNTAX_JSON);
  FILE *out = fuzz_sink();
  tfr_diags_render_text(diags, out, &opts);
  struct tfr_render_opts plain = opts; /* -no-color: no frame, wrapped */
  plain.plain = true;
  plain.width = 20;
  tfr_diags_render_text(diags, out, &plain);
  tfr_diags_render_json(diags, out);
  tfr_diags_render_short(diags, out);
  /* the tolerant reader (an editor's, on any text, parsed or not): its
  ** items and what it locates lie within the text */
  tfr_text *x = tfr_text_new(a, name, (const char *)data, size);
  size_t nt = 0;
  const struct tfr_text_item *it = tfr_text_top(x, &nt);
  for (size_t i = 0; i < nt; i++)
    if (!it[i].name || it[i].key.end.byte > size ||
        it[i].value.start.byte > it[i].value.end.byte ||
        it[i].value.end.byte > size || it[i].close > size)
      abort();
  for (size_t k = 0; k < 8; k++) {
    struct tfr_locus l;
    size_t at = size ? (k * 7919 + data[k % size]) % (size + 1) : 0;
    size_t open = tfr_text_enclosing(x, at);
    if ((open != SIZE_MAX && open >= at) ||
        tfr_text_closing(x, open == SIZE_MAX ? 0 : open, size) > size)
      abort();
    if (tfr_text_locate(x, 0, size, at, &l) &&
        (!l.variable || !l.path || l.name.end.byte > size ||
         l.value.end.byte > size || l.name.start.byte > at))
      abort();
  }
  if (f) {
    tfr_file_dump_json(f, out);
    /* what an editor asks of the file: every name, and what is at a few
    ** bytes (each range within the file) */
    size_t n = 0;
    const struct tfr_range *at;
    const char **names = tfr_file_attribute_names(a, f, &n, &at);
    for (size_t i = 0; i < n; i++)
      if (!names[i] || at[i].start.byte > at[i].end.byte ||
          at[i].end.byte > size)
        abort(); /* a name out of the file */
    for (size_t k = 0; k < 8; k++) {
      struct tfr_locus l;
      size_t at = size ? (k * 7919 + data[k % size]) % (size + 1) : 0;
      if (tfr_file_locate(a, f, at, &l) &&
          (!l.variable || !l.path || l.name.end.byte > size ||
           l.value.end.byte > size || l.name.start.byte > at ||
           l.value.end.byte < at))
        abort(); /* out of the file, or a definition that does not hold
                 ** it (its key through its value) */
    }
  }
  tfr_arena_free(a);
  return 0;
}

/* Write (or, when not present, remove) file name of dir: n bytes at p. */
static inline void fuzz_put_file(const char *dir, const char *name,
                                 const void *p, size_t n, bool present) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  if (!present) {
    if (unlink(path) != 0 && errno != ENOENT)
      abort();
    return;
  }
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0)
    abort();
  for (const char *c = p; n > 0;) {
    ssize_t w = write(fd, c, n);
    if (w <= 0)
      abort();
    c += w;
    n -= (size_t)w;
  }
  close(fd);
}

/* Split the input at lines "#--" into at most max sections; returns their
** number. */
static inline size_t fuzz_split(const uint8_t *d, size_t n, const uint8_t **sec,
                                size_t *len, size_t max) {
  static const char mark[] = "\n#--\n";
  size_t k = 0, start = 0;
  for (size_t i = 0; k + 1 < max && i + 5 <= n; i++) {
    if (memcmp(d + i, mark, 5) == 0) {
      sec[k] = d + start;
      len[k++] = i - start;
      start = i + 5;
      i += 4;
    }
  }
  sec[k] = d + start;
  len[k++] = n - start;
  return k;
}

#endif
