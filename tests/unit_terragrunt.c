/*
** Unit tests of the terragrunt layer's ports (src/terragrunt/): the
** TF_VAR_ values terragrunt writes, with the cases of gruntwork-io/
** terragrunt 286a33cb internal/util/jsons_test.go:13-52, 78-110 and
** internal/runner/run/run_test.go:257-365 (Go's encoding/json escapes
** added: <, >, & and U+2028); the deep merge of inputs (include.go:807-817,
** mergo v1.0.2); and constraint_check, with hashicorp/go-version v1.9.0
** constraint_test.go:43-84.  Values are written as HCL expressions and
** evaluated as constants, as terragrunt's inputs are.
*/
#include <stdbool.h>
#include <string.h>

#include "unit.h"

#include "terragrunt/tg_int.h"
#include "tfresolve/tfresolve.h"

static const tfr_value *hcl(tfr_arena *a, const char *text) {
  tfr_diags *d = tfr_diags_new(a);
  tfr_file *f = tfr_parse_expr(a, d, "<test>", text, strlen(text));
  assert_non_null(f);
  const tfr_value *v = tfr_eval_const(a, d, f);
  assert_false(tfr_diags_has_errors(d));
  return v;
}

struct want {
  const char *value; /* HCL */
  bool hcl_mode;     /* the module parses the variable as HCL */
  const char *env;   /* the TF_VAR_ value */
};

static void env_values(void **state) {
  (void)state;
  static const struct want w[] = {
      {"\"aws_region\"", false, "aws_region"},
      {"\"plain $${bar} string\"", false, "plain ${bar} string"},
      {"\"plain $${bar} string\"", true, "plain $${bar} string"},
      {"\"plain $$${bar} string\"", true, "plain $${bar} string"},
      {"\"$${a} and $${b}\"", true, "$${a} and $${b}"},
      {"\"$not_interpolation\"", true, "$not_interpolation"},
      {"\"\"", true, ""},
      {"42", false, "42"},
      {"true", false, "true"},
      {"[\"10.0.0.0/16\", \"10.0.0.10/16\"]", false,
       "[\"10.0.0.0/16\",\"10.0.0.10/16\"]"},
      {"{foo = \"test $${bar} test\"}", false,
       "{\"foo\":\"test $${bar} test\"}"},
      {"{foo = \"test $$${bar} test\"}", false,
       "{\"foo\":\"test $${bar} test\"}"},
      {"[\"$${foo}\", \"bar\"]", false, "[\"$${foo}\",\"bar\"]"},
      {"{a = {b = \"$${nested}\"}}", false, "{\"a\":{\"b\":\"$${nested}\"}}"},
      {"{list = null}", false, "{\"list\":null}"},
      {"{a = [1, 2, 3], b = \"c\", d = {e = \"f\"}}", false,
       "{\"a\":[1,2,3],\"b\":\"c\",\"d\":{\"e\":\"f\"}}"},
      {"{c = \"d\", a = \"b\"}", false, "{\"a\":\"b\",\"c\":\"d\"}"},
      /* encoding/json: HTML-safe escapes, U+2028, control characters */
      {"[\"<a&b>\"]", false, "[\"\\u003ca\\u0026b\\u003e\"]"},
      {"\"<a&b>\"", false, "<a&b>"},
      {"[\"x\\u2028y\", \"tab\\there\", \"q\\\"\\\\\"]", false,
       "[\"x\\u2028y\",\"tab\\there\",\"q\\\"\\\\\"]"},
      /* \b and \f short, as encoding/json since Go 1.22 writes them */
      {"[\"a\\u0008b\\u000cc\\u0001\"]", false, "[\"a\\bb\\fc\\u0001\"]"},
      /* keys: encoding/json's escapes too (U+2028 and HTML-safe), but no
      ** interpolation escape (escapeInterpolationPatternsInValue escapes
      ** values only, util/jsons.go:72-88) */
      {"{\"x\\u2028<y\" = 1, \"a$${b}\" = \"$${c}\"}", false,
       "{\"a${b}\":\"$${c}\",\"x\\u2028\\u003cy\":1}"},
      /* numbers as cty writes them, never through a double */
      {"[12345678901234567890123, 0.1, -2.5e3]", false,
       "[12345678901234567890123,0.1,-2500]"},
  };
  tfr_arena *a = tfr_arena_new();
  for (size_t i = 0; i < sizeof w / sizeof *w; i++) {
    const char *got = tg_env_value(a, hcl(a, w[i].value), w[i].hcl_mode);
    if (strcmp(got, w[i].env))
      fail_msg("%s: want %s, got %s", w[i].value, w[i].env, got);
  }
  tfr_arena_free(a);
}

struct merge {
  const char *dst, *src, *out; /* out NULL: an error */
};

static void deep_merge(void **state) {
  (void)state;
  static const struct merge m[] = {
      {"{a = {x = 1}}", "{a = {y = 2}}", "{a = {x = 1, y = 2}}"},
      {"{l = [1]}", "{l = [2, 3]}", "{l = [1, 2, 3]}"},
      {"{a = 1}", "{a = 2}", "{a = 2}"},
      {"{a = \"x\"}", "{a = null}", "{a = null}"},
      {"{a = null}", "{a = {b = 1}}", "{a = {b = 1}}"},
      {"{a = \"s\"}", "{a = {b = 1}}", "{a = {b = 1}}"},
      {"{a = {b = 1}}", "{a = \"s\"}", "{a = \"s\"}"},
      {"{a = {b = [1]}}", "{a = {b = [2], c = 3}}",
       "{a = {b = [1, 2], c = 3}}"},
      {"{a = \"s\"}", "{a = [1]}", NULL},
  };
  tfr_arena *a = tfr_arena_new();
  for (size_t i = 0; i < sizeof m / sizeof *m; i++) {
    const char *err = NULL;
    const tfr_value *got =
        tg_deep_merge(a, hcl(a, m[i].dst), hcl(a, m[i].src), &err);
    if (!m[i].out) {
      if (got || !err ||
          strcmp(err, "cannot append two slices with different type "
                      "([]interface {}, string)"))
        fail_msg("%s + %s: want the append error, got %s", m[i].dst, m[i].src,
                 err ? err : "none");
      continue;
    }
    const char *want = tg_env_value(a, hcl(a, m[i].out), false);
    const char *have = got ? tg_env_value(a, got, false) : "(error)";
    if (strcmp(want, have))
      fail_msg("%s + %s: want %s, got %s", m[i].dst, m[i].src, want, have);
  }
  tfr_arena_free(a);
}

struct check {
  const char *constraint, *version;
  int ok;
};

static void constraint_check(void **state) {
  (void)state;
  static const struct check c[] = {
      {">= 1.0, < 1.2", "1.1.5", 1},
      {"< 1.0, < 1.2", "1.1.5", 0},
      {"= 1.0", "1.1.5", 0},
      {"= 1.0", "1.0.0", 1},
      {"1.0", "1.0.0", 1},
      {"~> 1.0", "2.0", 0},
      {"~> 1.0", "1.1", 1},
      {"~> 1.0", "1.2.3", 1},
      {"~> 1.0.0", "1.2.3", 0},
      {"~> 1.0.0", "1.0.7", 1},
      {"~> 1.0.0", "1.1.0", 0},
      {"~> 1.0.7", "1.0.4", 0},
      {"~> 1.0.7", "1.0.7", 1},
      {"~> 1.0.7", "1.0.8", 1},
      {"~> 1.0.7", "1.0.7.5", 1},
      {"~> 1.0.7", "1.0.6.99", 0},
      {"~> 1.0.7", "1.0.8.0", 1},
      {"~> 1.0.9.5", "1.0.9.5", 1},
      {"~> 1.0.9.5", "1.0.9.4", 0},
      {"~> 1.0.9.5", "1.0.9.6", 1},
      {"~> 1.0.9.5", "1.0.9.5.0", 1},
      {"~> 1.0.9.5", "1.0.9.5.1", 1},
      {"~> 2.0", "2.1.0-beta", 0},
      {"~> 2.1.0-a", "2.2.0", 0},
      {"~> 2.1.0-a", "2.1.0", 0},
      {"~> 2.1.0-a", "2.1.0-beta", 1},
      {"~> 2.1.0-a", "2.2.0-alpha", 0},
      {"> 2.0", "2.1.0-beta", 0},
      {">= 2.1.0-a", "2.1.0-beta", 1},
      {">= 2.1.0-a", "2.1.1-beta", 0},
      {">= 2.0.0", "2.1.0-beta", 0},
      {">= 2.1.0-a", "2.1.1", 1},
      {">= 2.1.0-a", "2.1.1-beta", 0},
      {">= 2.1.0-a", "2.1.0", 1},
      {"<= 2.1.0-a", "2.0.0", 1},
      {">= 1.0", "not a version", -1},
      {"=> 1.0", "1.0.0", -1},
  };
  tfr_arena *a = tfr_arena_new();
  for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
    const char *bad = NULL;
    int got = tg_constraint_check(a, c[i].version, c[i].constraint, &bad);
    if (got != c[i].ok)
      fail_msg("%s against %s: want %d, got %d", c[i].version, c[i].constraint,
               c[i].ok, got);
  }
  tfr_arena_free(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(env_values),
      cmocka_unit_test(deep_merge),
      cmocka_unit_test(constraint_check),
  };
  RUN_UNIT_TESTS(tests);
}
