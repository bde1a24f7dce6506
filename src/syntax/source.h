/*
** Source files: the text of one file plus a lazily built line table, so
** that AST nodes store only byte offsets (8 bytes) and full line/column
** ranges are computed when a diagnostic or a dump needs them.
*/
#ifndef TFR_SOURCE_H
#define TFR_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tfresolve/arena.h"
#include "tfresolve/diag.h"

struct src_file {
  const char *name; /* as given by the user; used in diagnostics */
  const char *text; /* followed by two NUL bytes; may contain NULs */
  size_t len;
  uint32_t *lines; /* byte offset of each line start; built on demand */
  size_t nlines;
  tfr_arena *arena;
  size_t mapped;       /* > 0: text is a private mapping of the file, this
                          long, whose pages src_release may give back */
  struct tfr_pos base; /* line > 0: text is embedded in the file name
                          (a .tf.json string's expression), starting at
                          this position there: positions are the file's */
  bool json_columns;   /* columns counted as hcl's JSON scanner counts */
};

/* A span of bytes in one file, end exclusive. */
struct span {
  uint32_t start, end;
};

struct src_file *src_new(tfr_arena *a, const char *name, const char *text,
                         size_t len);

/* The same for a source one thread uses alone (until src_lines): its
** line table is built when a position is first asked for, not at once.
** src_read_private reads a whole file into the arena (NULL and *err set
** on failure). */
struct src_file *src_new_private(tfr_arena *a, const char *name,
                                 const char *text, size_t len);
/* src_read_private's *err for a path that is not a regular file. */
#define SRC_NOT_REGULAR (-1)
/* *err of a read that stopped at the memory budget (-max-memory). */
#define SRC_OVER_BUDGET (-2)
/* What one of those two codes means, as words that follow "it is" ("not
** a regular file ..."); NULL for an errno value. */
const char *src_read_problem(int err);

struct overlays; /* base/dirlist.h */

/* src_read_private and src_read_named read the text of an overlay of ov
** (an editor's open file; NULL: none) in place of the disk's. */
struct src_file *src_read_private(tfr_arena *a, const struct overlays *ov,
                                  const char *path, int *err);

/* The same for a file the user named: a pipe or a device is read too (and
** waited for), as `-var-file=<(command)` wants. */
struct src_file *src_read_named(tfr_arena *a, const struct overlays *ov,
                                const char *path, int *err);

/* Build the line table now: a private source about to be shared by
** threads (src_pos builds it on demand otherwise). */
void src_lines(struct src_file *f);

struct tfr_pos src_pos(struct src_file *f, uint32_t byte);
struct tfr_range src_range(struct src_file *f, struct span s);

/* Positions asked for in increasing order (start it zeroed): lines are
** counted from the last one, and no line table is built. */
struct src_cursor {
  uint32_t byte, line_start;
  int line, column; /* of byte; 0: not known yet */
};
struct tfr_pos src_pos_seq(struct src_file *f, uint32_t byte,
                           struct src_cursor *c);
/* The line alone (no columns counted). */
int src_line_seq(struct src_file *f, uint32_t byte, struct src_cursor *c);

/* A large file read with src_read_private is mapped, not copied: the
** pages of its first `upto` bytes, once read, can go back to the page
** cache (they come back when touched again: diagnostics, explain), so
** that memory holds the values read from a file, not the file. */
void src_release(struct src_file *f, size_t upto);

#endif
