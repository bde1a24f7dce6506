/*
** The fast parser (src/syntax/parse_fast.c) against the grammar: each file
*given
** is parsed by both (the grammar with the fast path turned off), and when
** the fast parser takes the file, the two syntax trees, dumped as JSON with
** every node's kind, span, flags and text, must be the same.  Prints one
** line per difference, how many files the fast parser took, and "N passed,
** M failed" (one check per file it took).
**
**   parse_fast_diff FILE_OR_DIR...   (directories: every *.tf below)
*/
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fast_tree.h"
#include "syntax/ast.h"
#include "syntax/parse.h"
#include "syntax/parse_fast.h"
#include "tfresolve/tfresolve.h"

static size_t took, total, failed;

static void check(const char *path) {
  {
    tfr_arena *a = tfr_arena_new();
    tfr_diags *d = tfr_diags_new(a);
    struct src_file *src = parse_open(a, d, NULL, path, NULL, 0);
    if (!src) {
      tfr_arena_free(a);
      return;
    }
    total++;
    char *x = NULL, *y = NULL;
    if (fast_tree_both(a, src, &x, &y)) {
      took++;
      if (!y || strcmp(x, y)) {
        failed++;
        size_t k = 0;
        while (y && x[k] && x[k] == y[k])
          k++;
        printf(
            "FAIL %s: the fast parser's tree differs from the grammar's "
            "at byte %zu of the dump\n  fast:    %.200s\n  grammar: %.200s\n",
            path, k, x + (k > 60 ? k - 60 : 0),
            y ? y + (k > 60 ? k - 60 : 0) : "(the grammar failed)");
      }
      free(x);
      free(y);
    }
    tfr_arena_free(a);
  }
}

static int visit(const char *path, const struct stat *st, int type,
                 struct FTW *f) {
  (void)st;
  (void)f;
  size_t n = strlen(path);
  if (type == FTW_F && n > 3 && !strcmp(path + n - 3, ".tf"))
    check(path);
  return 0;
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
      nftw(argv[i], visit, 16, FTW_PHYS);
    else
      check(argv[i]);
  }
  printf("the fast parser took %zu of %zu files\n", took, total);
  printf("%zu passed, %zu failed\n", took - failed, failed);
  return failed ? 1 : 0;
}
