/*
** libFuzzer target: the input is one file in HCL native syntax.  Besides
** fuzz_one's checks, the fast parser (src/parse_fast.c) is held to the
** grammar: when it takes the input, the syntax tree it builds must be the
** grammar's, node for node (a difference aborts).
** Build and run: see tests/fuzz/README.md.
*/
#include <string.h>

#include "fuzz_common.h"

#include "ast.h"
#include "parse.h"
#include "source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *dump(struct ast_file *f, size_t *len) {
  char *buf = NULL;
  FILE *out = open_memstream(&buf, len);
  if (!out)
    abort();
  ast_dump_json(f, out);
  fclose(out);
  return buf;
}

/* The fast parser's tree against the grammar's, on a .tf file. */
static void same_tree(const uint8_t *data, size_t size) {
  tfr_arena *a = tfr_arena_new();
  tfr_diags *d = tfr_diags_new(a);
  struct src_file *src = parse_open(a, d, "fuzz.tf", (const char *)data, size);
  if (src) {
    struct parse_ctx fc = {0};
    fc.a = a;
    fc.diags = d;
    fc.src = src;
    struct ast_file *fast = parse_hcl_fast(&fc);
    if (fast) {
      struct parse_ctx gc = {0};
      gc.a = a;
      gc.diags = tfr_diags_new(a);
      gc.src = src;
      gc.no_fast = true;
      struct ast_file *slow = parse_hcl(&gc);
      if (!slow)
        abort(); /* the fast parser took what the grammar rejects */
      size_t n1 = 0, n2 = 0;
      char *x = dump(fast, &n1), *y = dump(slow, &n2);
      if (n1 != n2 || memcmp(x, y, n1))
        abort(); /* a different tree */
      free(x);
      free(y);
    }
  }
  tfr_arena_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  same_tree(data, size);
  return fuzz_one(data, size, TFR_SYNTAX_HCL);
}
