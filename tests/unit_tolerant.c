/*
** Unit tests of the tolerant reader (tfr_text_*, src/syntax/tolerant.c):
** on a text that parses it says what tfr_file_locate says at every byte;
** on a text being typed (a value not typed yet, a name without "=", a
** string or a brace not closed) it still finds the items and what is
** under the cursor, where the parser finds nothing.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "tfresolve/tfresolve.h"

/* At every byte of a text that parses, tfr_text_locate agrees with
** tfr_file_locate (variable, path, key and value ranges, in_key). */
static void agree(const char *name, const char *text) {
  tfr_arena *a = tfr_arena_new();
  size_t len = strlen(text);
  tfr_file *f =
      tfr_parse_bytes(a, tfr_diags_new(a), name, text, len, TFR_SYNTAX_AUTO);
  assert_non_null(f);
  tfr_text *x = tfr_text_new(a, name, text, len);
  for (size_t b = 0; b <= len; b++) {
    struct tfr_locus p, t;
    bool fp = tfr_file_locate(a, f, b, &p);
    bool ft = tfr_text_locate(x, 0, len, b, &t);
    if (fp != ft)
      fail_msg("%s byte %zu: parser %d, reader %d", name, b, fp, ft);
    if (!fp)
      continue;
    if (strcmp(p.variable, t.variable) || strcmp(p.path, t.path) ||
        p.in_key != t.in_key || p.name.start.byte != t.name.start.byte ||
        p.name.end.byte != t.name.end.byte ||
        p.value.start.byte != t.value.start.byte ||
        p.value.end.byte != t.value.end.byte ||
        p.name.start.line != t.name.start.line)
      fail_msg("%s byte %zu: parser %s%s [%zu,%zu) key %d, reader %s%s "
               "[%zu,%zu) key %d",
               name, b, p.variable, p.path, p.value.start.byte,
               p.value.end.byte, p.in_key, t.variable, t.path,
               t.value.start.byte, t.value.end.byte, t.in_key);
  }
  tfr_arena_free(a);
}

static void agrees_with_the_parser(void **state) {
  (void)state;
  agree("t.tfvars", "name = \"web\" # a comment\n"
                    "count = 3\n"
                    "net = {\n"
                    "  cidr = \"10.0.0.0/16\"\n"
                    "  subnets = [\"a\", \"b\"]\n"
                    "  \"quoted key\" = { deep = true }\n"
                    "}\n"
                    "list = [\n"
                    "  { a = 1 },\n"
                    "  { a = 2 },\n"
                    "]\n"
                    "doc = <<EOT\nsome { text\nEOT\n"
                    "tpl = \"${upper(\"x\")} }\"\n");
  agree("t.tfvars.json", "{\n"
                         "  \"name\": \"web\",\n"
                         "  \"net\": {\"cidr\": \"10.0.0.0/16\", \"n\": [1, "
                         "{\"k\": 2}]},\n"
                         "  \"flag\": true\n"
                         "}\n");
}

/* What is at byte of text, as "variable path key|value" ("" when none). */
static const char *at(tfr_arena *a, const char *name, const char *text,
                      const char *before) {
  tfr_text *x = tfr_text_new(a, name, text, strlen(text));
  const char *p = strstr(text, before);
  assert_non_null(p);
  struct tfr_locus l;
  if (!tfr_text_locate(x, 0, strlen(text), (size_t)(p - text) + strlen(before),
                       &l))
    return "";
  return tfr_arena_printf(a, "%s%s %s", l.variable, l.path,
                          l.in_key ? "key" : "value");
}

static void reads_what_is_being_typed(void **state) {
  (void)state;
  tfr_arena *a = tfr_arena_new();
  /* a value not typed yet: the parser fails; the reader is on env */
  const char *t1 = "region = \"eu\"\nenv = \nsize = 3\n";
  assert_null(tfr_parse_bytes(a, tfr_diags_new(a), "t.tfvars", t1, strlen(t1),
                              TFR_SYNTAX_AUTO));
  assert_string_equal(at(a, "t.tfvars", t1, "env = "), "env value");
  assert_string_equal(at(a, "t.tfvars", t1, "siz"), "size key");
  /* a name half typed in an object: the object's value */
  const char *t2 = "net = {\n  cidr = \"x\"\n  fl\n}\nother = 1\n";
  assert_string_equal(at(a, "t.tfvars", t2, "  fl"), "net value");
  assert_string_equal(at(a, "t.tfvars", t2, "oth"), "other key");
  /* a string not closed, a brace not closed */
  const char *t3 = "env = \"pro\nnet = {\n  cidr = \"10.\n";
  assert_string_equal(at(a, "t.tfvars", t3, "\"pro"), "env value");
  assert_string_equal(at(a, "t.tfvars", t3, "\"10."), "net.cidr value");
  /* JSON being typed */
  const char *t4 = "{\n  \"net\": {\"cidr\": \n  \"tier\": \"x\"\n";
  assert_string_equal(at(a, "t.tfvars.json", t4, "\"cidr\": "),
                      "net.cidr value");
  /* the items after an unfinished line are all there */
  tfr_text *x = tfr_text_new(a, "t.tfvars", t1, strlen(t1));
  size_t n;
  const struct tfr_text_item *it = tfr_text_top(x, &n);
  assert_int_equal(n, 3);
  assert_string_equal(it[1].name, "env");
  assert_int_equal(it[1].value.start.byte, it[1].value.end.byte);
  assert_string_equal(it[2].name, "size");
  tfr_arena_free(a);
}

static void brackets_quotes_and_parts(void **state) {
  (void)state;
  tfr_arena *a = tfr_arena_new();
  const char *t = "a = { b = [1, \"}\" ], c = {\n  d = \"x y\"\n  e = (1)\n";
  tfr_text *x = tfr_text_new(a, "t.tfvars", t, strlen(t));
  size_t in_d = (size_t)(strstr(t, "x y") - t) + 1;
  assert_int_equal(tfr_text_enclosing(x, in_d), strstr(t, "c = {") - t + 4);
  assert_int_equal(tfr_text_quote(x, in_d), strstr(t, "\"x y") - t);
  assert_int_equal(tfr_text_quote(x, 2), SIZE_MAX);
  size_t open = (size_t)(strchr(t, '[') - t);
  assert_int_equal(tfr_text_closing(x, open, strlen(t)),
                   strchr(t, ']') - t); /* the "}" in a string counts not */
  assert_int_equal(
      tfr_text_closing(x, (size_t)(strstr(t, "c = {") - t) + 4, strlen(t)),
      strlen(t)); /* not closed */
  const char *c = "contains([\"a\", \"b,c\"], var.x) && (var.x != \"a\")";
  tfr_text *y = tfr_text_new(a, "rule.tf", c, strlen(c));
  size_t n;
  const struct tfr_range *part = tfr_text_split(y, 0, strlen(c), "&&", &n);
  assert_int_equal(n, 2);
  assert_int_equal(part[0].end.byte, strchr(c, ')') - c + 1);
  size_t s = part[1].start.byte, e = part[1].end.byte;
  tfr_text_trim(y, &s, &e);
  assert_int_equal(e - s, strlen("var.x != \"a\""));
  tfr_arena_free(a);
}

/* Strings nested in templates in strings, 300000 deep: no stack runs
** out (the nesting is bounded). */
static void deep_nesting_is_bounded(void **state) {
  (void)state;
  size_t n = 5 + 3 * 300000;
  char *t = malloc(n + 1);
  memcpy(t, "x = \"", 5);
  for (size_t i = 5; i < n; i += 3)
    memcpy(t + i, "${\"", 3);
  t[n] = '\0';
  tfr_arena *a = tfr_arena_new();
  tfr_text *x = tfr_text_new(a, "t.tfvars", t, n);
  struct tfr_locus l;
  assert_true(tfr_text_locate(x, 0, n, n / 2, &l));
  assert_string_equal(l.variable, "x");
  tfr_arena_free(a);
  free(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(agrees_with_the_parser),
      cmocka_unit_test(reads_what_is_being_typed),
      cmocka_unit_test(brackets_quotes_and_parts),
      cmocka_unit_test(deep_nesting_is_bounded),
  };
  RUN_UNIT_TESTS(tests);
}
