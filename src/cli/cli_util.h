/*
** The CLI's small tools: string lists and buffers, paths, directory
** listings, shell words (src/cli/cli.c, typefmt.c).
*/
#ifndef TFR_CLI_UTIL_H
#define TFR_CLI_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "tfresolve/tfresolve.h"

/* A growable list of malloc'd strings (cli_names_free frees them). */
struct cli_names {
  char **v;
  size_t n, cap;
};
void cli_names_add(struct cli_names *l, const char *s); /* a copy of s */
void cli_names_free(struct cli_names *l);
/* POSIX glob of pattern, brace expressions ("{a,b}") expanded first as
** GNU glob's GLOB_BRACE does; the matches added to out.  0, GLOB_NOMATCH
** or glob's error (check_many.c). */
int cli_glob_braces(const char *pattern, struct cli_names *out);

/* The CLI's growable string (malloc'd p, always NUL-terminated once
** something is put; free(p) when done).  With max_lines set, what comes
** after that many lines is not kept, only its newlines counted (more). */
struct cli_buf {
  char *p;
  size_t n, cap;
  size_t max_lines, lines, more;
};
void cli_buf_put(struct cli_buf *b, const char *s, size_t n);
bool cli_buf_full(const struct cli_buf *b); /* keeps no more lines */
void cli_buf_puts(struct cli_buf *b, const char *s);
void cli_buf_indent(struct cli_buf *b, int n); /* n spaces */
/* The rest of f put into b; false when reading it failed (ferror). */
bool cli_buf_read(struct cli_buf *b, FILE *f);

/* The text before the keep-th newline of the n bytes at s (all of them
** when they have fewer), and in *lines how many lines they have. */
const char *cli_text_head(tfr_arena *a, const char *s, size_t n, size_t keep,
                          size_t *lines);

/* Whether a POSIX shell can export name (Terraform also allows "-" and
** non-ASCII letters in variable names). */
bool cli_sh_name(const char *name);
/* s as one POSIX shell word: in single quotes, '\'' for a quote. */
void cli_sh_quote(FILE *f, const char *s);

/* Whether s ends with suf. */
bool cli_has_suffix(const char *s, const char *suf);

/* An address without its instance keys: module.a["x"].module.b[0].var.n
** -> module.a.module.b.var.n (the call path). */
const char *cli_call_path(tfr_arena *a, const char *addr);

/* dir/name, malloc'd. */
char *cli_path_join(const char *dir, const char *name);

/* A value's JSON (cty's compact encoding), malloc'd; its length in *len
** when len is not NULL. */
char *cli_value_json(tfr_arena *a, const tfr_value *v, size_t *len);

/*
** The CLI's one directory lister: the entries of dir whose names do not
** start with '.' and that keep accepts (NULL: all; it gets the entry's
** path, its name, and whether readdir says it is a directory: 1 yes, 0
** no, -1 it does not say), sorted in byte order, added to out.  False,
** with errno set, when dir cannot be opened.
*/
bool cli_list_dir(const char *dir,
                  bool (*keep)(const char *path, const char *name, int is_dir,
                               void *ctx),
                  void *ctx, struct cli_names *out);

/* Whether path, an entry cli_list_dir gave keep with is_dir, is a
** directory: is_dir when readdir said, else lstat's answer (a symbolic
** link is not one, as readdir's DT_LNK); -1 when lstat fails too (a path
** too long, say: opening or reading it will tell). */
int cli_is_dir(const char *path, int is_dir);

#endif
