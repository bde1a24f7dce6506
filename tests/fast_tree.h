/*
** The fast parser (src/syntax/parse_fast.c) against the grammar, on one source:
** shared by tests/parse_fast_diff.c and the fuzz target fuzz_hcl.
*/
#ifndef TFR_TESTS_FAST_TREE_H
#define TFR_TESTS_FAST_TREE_H

#include <stdio.h>
#include <stdlib.h>

#include "syntax/ast.h"
#include "syntax/parse.h"
#include "tfresolve/tfresolve.h"

/* A syntax tree as JSON, malloc'd (NULL for no tree). */
static inline char *fast_tree_dump(struct ast_file *f) {
  if (!f)
    return NULL;
  char *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&buf, &len);
  if (!out)
    abort();
  ast_dump_json(f, out);
  fclose(out);
  return buf;
}

/*
** Parse src with the fast parser and, when it takes it, with the grammar
** alone: false when the fast parser does not take it; else true, with
** both trees dumped in *fast and *grammar (malloc'd; *grammar NULL when
** the grammar rejects the text).
*/
static inline bool fast_tree_both(tfr_arena *a, struct src_file *src,
                                  char **fast, char **grammar) {
  struct parse_ctx fc = {0};
  fc.a = a;
  fc.diags = tfr_diags_new(a);
  fc.src = src;
  struct ast_file *f = parse_hcl_fast(&fc);
  if (!f)
    return false;
  struct parse_ctx gc = {0};
  gc.a = a;
  gc.diags = tfr_diags_new(a);
  gc.src = src;
  gc.no_fast = true;
  *fast = fast_tree_dump(f);
  *grammar = fast_tree_dump(parse_hcl(&gc));
  return true;
}

#endif
