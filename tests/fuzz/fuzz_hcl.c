/*
** libFuzzer target: the input is one file in HCL native syntax.  Besides
** fuzz_one's checks, the fast parser (src/syntax/parse_fast.c) is held to the
** grammar: when it takes the input, the syntax tree it builds must be the
** grammar's, node for node (a difference aborts).
** Build and run: see tests/fuzz/README.md.
*/
#include <string.h>

#include "fuzz_common.h"

#include "../fast_tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The fast parser's tree against the grammar's, on a .tf file. */
static void same_tree(const uint8_t *data, size_t size) {
  tfr_arena *a = tfr_arena_new();
  tfr_diags *d = tfr_diags_new(a);
  struct src_file *src =
      parse_open(a, d, NULL, "fuzz.tf", (const char *)data, size);
  char *x = NULL, *y = NULL;
  if (src && fast_tree_both(a, src, &x, &y)) {
    if (!y)
      abort(); /* the fast parser took what the grammar rejects */
    if (strcmp(x, y))
      abort(); /* a different tree */
    free(x);
    free(y);
  }
  tfr_arena_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  same_tree(data, size);
  return fuzz_one(data, size, TFR_SYNTAX_HCL);
}
