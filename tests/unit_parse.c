/*
** Unit tests of the parsing API: results, diagnostics, template rules,
** and that two threads can parse at the same time (reentrant scanners,
** pure parsers, no globals).
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "tfresolve/tfresolve.h"

/* Parse text; return the AST dump (malloc'd) or NULL, and the first
** diagnostic summary in *first. */
static char *parse_dump(const char *name, const char *text, size_t len,
                        char *first, size_t firstlen) {
  tfr_arena *a = tfr_arena_new();
  tfr_diags *d = tfr_diags_new(a);
  tfr_file *f = tfr_parse_bytes(a, d, name, text, len, TFR_SYNTAX_AUTO);
  if (first) {
    first[0] = '\0';
    if (tfr_diags_count(d))
      snprintf(first, firstlen, "%s", tfr_diags_get(d, 0)->summary);
  }
  char *buf = NULL;
  size_t n = 0;
  if (f) {
    FILE *out = open_memstream(&buf, &n);
    tfr_file_dump_json(f, out);
    fclose(out);
  }
  tfr_arena_free(a);
  return buf;
}

static char *dump(const char *text) {
  return parse_dump("t.tf", text, strlen(text), NULL, 0);
}

static void valid_file_parses(void **state) {
  (void)state;
  char *j = dump("a = 1\nb { c = \"x\" }\n");
  assert_non_null(j);
  assert_non_null(strstr(j, "\"name\": \"a\""));
  assert_non_null(strstr(j, "\"type\": \"b\""));
  free(j);
}

static void syntax_error_gives_one_diagnostic(void **state) {
  (void)state;
  char first[128];
  const char *t = "a = [1 2]\nb = [3 4]\n";
  char *j = parse_dump("t.tf", t, strlen(t), first, sizeof first);
  assert_null(j);
  assert_string_equal(first, "Missing item separator");
}

static void escapes_are_decoded(void **state) {
  (void)state;
  char *j = dump("a = \"\\t\\u00e9\\U0001F600 $${x} %%{y}\"\n");
  assert_non_null(j);
  assert_non_null(
      strstr(j, "\"value\": \"\\t\xC3\xA9\xF0\x9F\x98\x80 ${x} %{y}\""));
  free(j);
}

static void flush_heredoc_strips_common_indent(void **state) {
  (void)state;
  char *j = dump("a = <<-EOT\n    one\n\n      two\n    EOT\n");
  assert_non_null(j);
  assert_non_null(strstr(j, "\"value\": \"one\\n\\n  two\\n\""));
  free(j);
}

static void plain_heredoc_keeps_indent(void **state) {
  (void)state;
  char *j = dump("a = <<EOT\n  x\n  EOT\n");
  assert_non_null(j);
  assert_non_null(strstr(j, "\"value\": \"  x\\n\""));
  free(j);
}

static void strip_markers_trim_neighbours(void **state) {
  (void)state;
  char *j = dump("a = \"x  ${~ y ~}  z\"\n");
  assert_non_null(j);
  assert_non_null(strstr(j, "\"value\": \"x\""));
  assert_non_null(strstr(j, "\"value\": \"z\""));
  free(j);
}

static void bom_and_crlf_are_accepted(void **state) {
  (void)state;
  char *j = dump("\xEF\xBB\xBF"
                 "a = 1\r\nb = 2\r\n");
  assert_non_null(j);
  assert_non_null(strstr(j, "\"name\": \"b\""));
  free(j);
}

static void json_by_file_name(void **state) {
  (void)state;
  const char *t = "{\"variable\": {\"x\": {\"default\": [1, 2]}}}";
  char *j = parse_dump("t.tf.json", t, strlen(t), NULL, 0);
  assert_non_null(j);
  assert_non_null(strstr(j, "\"kind\": \"object\""));
  free(j);
}

static void *parse_many(void *arg) {
  const char *text = arg;
  for (int i = 0; i < 200; i++) {
    char *j = dump(text);
    if (!j)
      return (void *)1;
    free(j);
  }
  return NULL;
}

static void parsers_are_reentrant(void **state) {
  (void)state;
  pthread_t t1, t2;
  const char *a = "x = [for v in var.l : upper(\"${v}-%{if v}y%{endif}\")]\n";
  const char *b = "y = <<-EOT\n  ${a.b[*].c}\n  EOT\nz { w = 1 }\n";
  pthread_create(&t1, NULL, parse_many, (void *)a);
  pthread_create(&t2, NULL, parse_many, (void *)b);
  void *r1, *r2;
  pthread_join(t1, &r1);
  pthread_join(t2, &r2);
  assert_null(r1);
  assert_null(r2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(valid_file_parses),
      cmocka_unit_test(syntax_error_gives_one_diagnostic),
      cmocka_unit_test(escapes_are_decoded),
      cmocka_unit_test(flush_heredoc_strips_common_indent),
      cmocka_unit_test(plain_heredoc_keeps_indent),
      cmocka_unit_test(strip_markers_trim_neighbours),
      cmocka_unit_test(bom_and_crlf_are_accepted),
      cmocka_unit_test(json_by_file_name),
      cmocka_unit_test(parsers_are_reentrant),
  };
  RUN_UNIT_TESTS(tests);
}
