/*
** Listing a directory: the one directory lister of the library.
*/
#ifndef TFR_DIRLIST_H
#define TFR_DIRLIST_H

#include <stdbool.h>
#include <stddef.h>

#include "tfresolve/arena.h"

/* The files an editor has open (tfr_resolve_opts.overlays), passed down
** to every reader of a run: dir_list lists them as entries of their
** directory, and the file readers (source.c) read them in place of the
** disk's.  NULL: none. */
struct overlay {
  const char *path; /* as the library names the file (dir "/" name) */
  const char *text;
  size_t len;
};
struct overlays {
  const struct overlay *v;
  size_t n;
};

/* The overlay for path in ov (NULL: none), or NULL. */
const struct overlay *dir_overlay(const struct overlays *ov, const char *path);

/* Whether to list an entry: its directory, its name and the caller's ctx. */
typedef bool (*dir_keep_fn)(const char *dir, const char *name, void *ctx);

/*
** The entry names of dir ("." and ".." left out) and of the overlays ov
** in it (NULL: none) that keep accepts (NULL: all), sorted in byte order,
** in a; *n their count.  NULL, *n 0, when dir cannot be opened.
*/
const char **dir_list(tfr_arena *a, const char *dir, dir_keep_fn keep,
                      void *ctx, const struct overlays *ov, size_t *n);

/* What dir/name is, through stat (symbolic links followed). */
enum dir_entry_kind { DIR_ENTRY_UNKNOWN, DIR_ENTRY_DIR, DIR_ENTRY_OTHER };
enum dir_entry_kind dir_entry_kind(const char *dir, const char *name);

/* A keep function: entries that are not directories (stat follows
** symbolic links, as Terraform reads them; an entry stat cannot look at
** is kept, for its reader to report). */
bool dir_keep_files(const char *dir, const char *name, void *ctx);

#endif
