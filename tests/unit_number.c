/*
** Unit tests: numbers (src/values/number.c) against the reference program.
**
** tests/number_cases.txt holds one case per line, written from tforacle:
**   EXPR <TAB> the JSON value <TAB> tostring(EXPR)
** where a column is "!inf" when the oracle could not encode an infinity
** as JSON, or "!error DETAIL" when the expression fails.  EXPR uses
** number literals, + - * / %, unary minus, parentheses, tonumber("..."),
** length("...") (a 64-bit cty.NumberIntVal) and pow(X,1) (X as a float64,
** cty.NumberFloatVal); a tiny evaluator below applies them with the
** num_* API.  The file's path is argv[1], or found next to this source.
*/
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "values/number.h"

/* ---- a tiny evaluator of the case expressions ------------------------- */

struct calc {
  tfr_arena *a;
  const char *p;
  const char *err; /* the first error, as the oracle words its detail */
  char buf[512];
};

static const struct tfr_num *calc_sum(struct calc *c);

static void skip_ws(struct calc *c) {
  while (*c->p == ' ')
    c->p++;
}

static const struct tfr_num *calc_fail(struct calc *c, const char *msg) {
  if (!c->err)
    c->err = msg;
  return NULL;
}

/* tonumber("S") or length("S"): the quoted text has no escapes. */
static const struct tfr_num *call(struct calc *c, bool length) {
  const char *s = strchr(c->p, '"') + 1, *e = strchr(s, '"');
  if (!e || e[1] != ')')
    return calc_fail(c, "bad call");
  c->p = e + 2;
  if (length)
    return num_from_int(c->a, (int64_t)(e - s));
  const struct tfr_num *r = num_parse(c->a, s, (size_t)(e - s));
  if (!r && !c->err) {
    snprintf(c->buf, sizeof c->buf,
             "Invalid value for \"v\" parameter: cannot convert \"%.*s\" to "
             "number; given string must be a decimal representation of a "
             "number.",
             (int)(e - s), s);
    c->err = c->buf;
  }
  return r;
}

/* pow(X,1): X rounded to a float64, as cty.NumberFloatVal(math.Pow(..)) */
static const struct tfr_num *pow1(struct calc *c) {
  c->p += 4;
  const struct tfr_num *x = calc_sum(c);
  skip_ws(c);
  if (strncmp(c->p, ",1)", 3) != 0)
    return calc_fail(c, "bad pow");
  c->p += 3;
  return x ? num_from_double(c->a, mpfr_get_d(num_mpfr(x), MPFR_RNDN)) : NULL;
}

/* An HCL number literal: digits [. digits] [e [+-] digits]. */
static const struct tfr_num *literal(struct calc *c) {
  const char *s = c->p;
  while (isdigit((unsigned char)*c->p))
    c->p++;
  if (*c->p == '.' && isdigit((unsigned char)c->p[1]))
    for (c->p++; isdigit((unsigned char)*c->p);)
      c->p++;
  if ((*c->p == 'e' || *c->p == 'E') && c->p > s) {
    const char *q = c->p + 1 + (c->p[1] == '+' || c->p[1] == '-');
    if (isdigit((unsigned char)*q)) {
      while (isdigit((unsigned char)*q))
        q++;
      c->p = q;
    }
  }
  if (c->p == s)
    return calc_fail(c, "bad literal");
  return num_parse(c->a, s, (size_t)(c->p - s));
}

static const struct tfr_num *primary(struct calc *c) {
  skip_ws(c);
  if (*c->p == '-') { /* HCL's unary minus binds tighter than * */
    c->p++;
    const struct tfr_num *x = primary(c);
    return x ? num_neg(c->a, x) : NULL;
  }
  if (*c->p == '(') {
    c->p++;
    const struct tfr_num *x = calc_sum(c);
    skip_ws(c);
    if (*c->p != ')')
      return calc_fail(c, "missing )");
    c->p++;
    return x;
  }
  if (strncmp(c->p, "tonumber(\"", 10) == 0)
    return call(c, false);
  if (strncmp(c->p, "length(\"", 8) == 0)
    return call(c, true);
  if (strncmp(c->p, "pow(", 4) == 0)
    return pow1(c);
  return literal(c);
}

static const struct tfr_num *binop(struct calc *c, int op,
                                   const struct tfr_num *x,
                                   const struct tfr_num *y) {
  if (!x || !y)
    return NULL;
  const struct tfr_num *r = op == '+'   ? num_add(c->a, x, y)
                            : op == '-' ? num_sub(c->a, x, y)
                            : op == '*' ? num_mul(c->a, x, y)
                            : op == '/' ? num_div(c->a, x, y)
                                        : num_mod(c->a, x, y);
  if (!r && !c->err) {
    const char *why = num_op_error(op, x, y);
    assert_non_null(why);
    /* The oracle cuts a Go panic's stack trace, and the "." after it. */
    snprintf(c->buf, sizeof c->buf, "Error during operation: %s%s", why,
             strncmp(why, "panic", 5) ? "." : "");
    c->err = c->buf;
  }
  return r;
}

static const struct tfr_num *product(struct calc *c) {
  const struct tfr_num *x = primary(c);
  for (;;) {
    skip_ws(c);
    int op = *c->p;
    if (op != '*' && op != '/' && op != '%')
      return x;
    c->p++;
    x = binop(c, op, x, primary(c));
  }
}

static const struct tfr_num *calc_sum(struct calc *c) {
  const struct tfr_num *x = product(c);
  for (;;) {
    skip_ws(c);
    int op = *c->p;
    if (op != '+' && op != '-')
      return x;
    c->p++;
    x = binop(c, op, x, product(c));
  }
}

static const struct tfr_num *calc_eval(struct calc *c, const char *s) {
  c->p = s;
  c->err = NULL;
  const struct tfr_num *x = calc_sum(c);
  skip_ws(c);
  return x && *c->p ? calc_fail(c, "trailing input") : x;
}

/* ---- the table --------------------------------------------------------- */

static const char *cases_path;

/* One case; false (after printing why) when it does not match. */
static bool check_case(tfr_arena *a, int line, char *expr, const char *json,
                       const char *str) {
  struct calc c = {.a = a};
  const struct tfr_num *x = calc_eval(&c, expr);
  const char *got = x ? num_format(a, x) : NULL;
  bool ok;
  if (!x) {
    ok = strncmp(json, "!error ", 7) == 0 && strcmp(json + 7, c.err) == 0 &&
         strncmp(str, "!error ", 7) == 0 && strstr(str, c.err);
  } else {
    ok = strcmp(str, got) == 0 &&
         (strcmp(json, "!inf") == 0 ? num_is_inf(x) : strcmp(json, got) == 0);
  }
  if (!ok)
    print_error("%s:%d: %s\n  expected %s\n  got      %s\n", cases_path, line,
                expr, str, x ? got : c.err);
  return ok;
}

static void number_cases(void **state) {
  (void)state;
  FILE *f = fopen(cases_path, "r");
  if (!f)
    fail_msg("cannot open %s", cases_path);
  static char line[1 << 16];
  int n = 0, bad = 0, lineno = 0;
  tfr_arena *a = tfr_arena_new();
  while (fgets(line, sizeof line, f)) {
    lineno++;
    line[strcspn(line, "\n")] = '\0';
    char *json = strchr(line, '\t'), *str = json ? strchr(json + 1, '\t') : 0;
    if (!str) {
      print_error("%s:%d: malformed line\n", cases_path, lineno);
      bad++;
      continue;
    }
    *json++ = '\0';
    *str++ = '\0';
    n++;
    bad += !check_case(a, lineno, line, json, str);
  }
  fclose(f);
  tfr_arena_free(a);
  print_message("%d number cases, %d failed\n", n, bad);
  assert_true(n >= 80);
  assert_int_equal(bad, 0);
}

/* ---- the API beyond the table ------------------------------------------ */

static const struct tfr_num *P(tfr_arena *a, const char *s) {
  const struct tfr_num *x = num_parse(a, s, strlen(s));
  assert_non_null(x);
  return x;
}

static void precision_follows_cty(void **state) {
  (void)state;
  tfr_arena *a = tfr_arena_new();
  const struct tfr_num *three = num_from_int(a, 3), *seven = num_from_int(a, 7);
  assert_int_equal(num_prec(P(a, "0.1")), NUM_PREC);
  assert_int_equal(num_prec(three), 64);
  assert_int_equal(num_prec(num_from_double(a, 0.5)), 53);
  /* quotient of two int64s: 64 bits, so few digits */
  assert_string_equal(num_format(a, num_div(a, three, seven)),
                      "0.42857142857142857144");
  assert_int_equal(num_prec(num_div(a, three, P(a, "7"))), NUM_PREC);
  /* products keep the larger operand precision unless they need more */
  const struct tfr_num *big = num_from_int(a, INT64_MAX);
  assert_int_equal(num_prec(num_mul(a, three, seven)), 64);
  assert_int_equal(num_prec(num_mul(a, big, big)), 126);
  assert_string_equal(num_format(a, num_mul(a, big, big)),
                      "85070591730234615847396907784232501249");
  /* remainders keep x's precision; x % 0 is x itself */
  assert_int_equal(num_prec(num_mod(a, three, P(a, "2"))), 64);
  assert_ptr_equal(num_mod(a, three, P(a, "-0")), three);
  /* num_from_mpfr rounds to 512 bits; _prec(0) keeps the precision */
  mpfr_t m;
  mpfr_init2(m, 1000);
  mpfr_set_ui(m, 1, MPFR_RNDN);
  mpfr_div_ui(m, m, 3, MPFR_RNDN);
  assert_int_equal(num_prec(num_from_mpfr(a, m)), NUM_PREC);
  assert_int_equal(num_prec(num_from_mpfr_prec(a, m, 0)), 1000);
  assert_int_equal(
      num_cmp(num_from_mpfr(a, m), num_div(a, P(a, "1"), P(a, "3"))), 0);
  mpfr_clear(m);
  tfr_arena_free(a);
}

/* Integer literals (read directly) and the same values written with a
** fraction (read by the general parser) are the same numbers. */
static void integer_literals(void **state) {
  (void)state;
  tfr_arena *a = tfr_arena_new();
  static const char *const ints[] = {"0",
                                     "7",
                                     "007",
                                     "871731",
                                     "1234567890123456789",
                                     "9999999999999999999",
                                     "18446744073709551616"};
  for (size_t i = 0; i < sizeof ints / sizeof *ints; i++) {
    const struct tfr_num *x = P(a, ints[i]);
    const struct tfr_num *y = P(a, tfr_arena_printf(a, "%s.0", ints[i]));
    assert_int_equal(num_cmp(x, y), 0);
    assert_int_equal(num_prec(x), num_prec(y));
    assert_string_equal(num_format(a, x), num_format(a, y));
  }
  assert_string_equal(num_format(a, P(a, "9999999999999999999")),
                      "9999999999999999999");
  tfr_arena_free(a);
}

static void compare_and_convert(void **state) {
  (void)state;
  tfr_arena *a = tfr_arena_new();
  const struct tfr_num *inf = num_div(a, P(a, "1"), P(a, "0"));
  const struct tfr_num *ninf = num_neg(a, inf);
  assert_int_equal(num_cmp(P(a, "-0"), P(a, "0")), 0);
  assert_int_equal(num_cmp(P(a, "1e400"), inf), -1);
  assert_int_equal(num_cmp(ninf, P(a, "-1e400")), -1);
  assert_int_equal(num_cmp(inf, inf), 0);
  assert_int_equal(num_cmp(P(a, "2"), num_from_int(a, 2)), 0);
  assert_true(num_is_inf(inf) && !num_is_int(inf));
  assert_true(num_is_int(P(a, "1e30")) && !num_is_int(P(a, "0.5")));
  int64_t i = 0;
  assert_true(num_to_int64(P(a, "-9223372036854775808"), &i));
  assert_true(i == INT64_MIN);
  assert_false(num_to_int64(P(a, "9223372036854775808"), &i));
  assert_false(num_to_int64(P(a, "1.5"), &i));
  assert_true(num_to_int64(P(a, "-0"), &i) && i == 0);
  assert_int_equal(num_sign(P(a, "-0")), 0);
  assert_true(num_is_zero(P(a, "-0")));
  /* cty Equals compares texts: the float64 0.1 equals the parsed 0.1 */
  const struct tfr_num *f01 = num_from_double(a, 0.1);
  assert_true(num_equal(f01, P(a, "0.1")));
  assert_int_equal(num_cmp(f01, P(a, "0.1")), 1);
  assert_true(num_equal(P(a, "-0"), P(a, "0")));
  assert_true(num_equal(inf, num_add(a, inf, P(a, "1"))));
  assert_false(num_equal(inf, ninf));
  assert_false(num_equal(P(a, "0.1"), P(a, "0.10000000000000000001")));
  assert_false(num_equal(num_div(a, num_from_int(a, 1), num_from_int(a, 3)),
                         num_from_double(a, 1.0 / 3)));
  tfr_arena_free(a);
}

static void errors_are_named(void **state) {
  (void)state;
  tfr_arena *a = tfr_arena_new();
  const struct tfr_num *inf = num_div(a, P(a, "1"), P(a, "0"));
  const struct tfr_num *zero = P(a, "0"), *two = P(a, "2");
  assert_null(num_add(a, inf, num_neg(a, inf)));
  assert_string_equal(num_op_error('+', inf, num_neg(a, inf)),
                      "can't compute sum of opposing infinities");
  assert_null(num_sub(a, inf, inf));
  assert_null(num_mul(a, zero, inf));
  assert_null(num_div(a, inf, inf));
  assert_null(num_mod(a, two, inf));
  assert_null(num_mod(a, inf, two));
  assert_null(num_op_error('/', two, zero)); /* 2 / 0 is +Inf */
  assert_null(num_op_error('%', inf, zero)); /* Inf % 0 is Inf */
  assert_non_null(num_add(a, inf, inf));
  tfr_arena_free(a);
}

int main(int argc, char **argv) {
  static char path[4096];
  if (argc > 1) {
    cases_path = argv[1];
  } else { /* next to this source file */
    const char *slash = strrchr(__FILE__, '/');
    int dir = slash ? (int)(slash - __FILE__ + 1) : 0;
    snprintf(path, sizeof path, "%.*snumber_cases.txt", dir, __FILE__);
    cases_path = path;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(number_cases),
      cmocka_unit_test(precision_follows_cty),
      cmocka_unit_test(integer_literals),
      cmocka_unit_test(compare_and_convert),
      cmocka_unit_test(errors_are_named),
  };
  RUN_UNIT_TESTS(tests);
}
