/*
** Unit tests: types, values, equality, cty's set order, type-constraint
** expressions.
*/
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "values/number.h"
#include "syntax/parse.h"
#include "eval/typeexpr.h"
#include "tfresolve/tfresolve.h"

static const tfr_value *num(tfr_arena *a, const char *s) {
  tfr_value *v = tfr_arena_alloc(a, sizeof *v);
  v->type = &tfr_t_number;
  v->num = num_parse(a, s, strlen(s));
  return v;
}

static const tfr_value *str(tfr_arena *a, const char *s) {
  return tfr_string(a, s, strlen(s));
}

/* A string longer than a value holds is never truncated: it becomes the
** unknown "too large" value the evaluator reports (the bytes are not read:
** nothing of 4 GiB is allocated here). */
static void strings_past_4gib_are_not_truncated(void **state) {
  (void)state;
  tfr_arena *a = tfr_arena_new();
  static const char byte = 'x';
  const tfr_value *v = tfr_string_nocopy(a, &byte, TFR_MAX_STRING + 1);
  assert_true(v->flags & TFR_V_TOO_LARGE);
  assert_false(tfr_value_is_known(v));
  v = tfr_string(a, &byte, (size_t)1 << 33);
  assert_true(v->flags & TFR_V_TOO_LARGE);
  v = tfr_string_nocopy(a, &byte, 1);
  assert_false(v->flags & TFR_V_TOO_LARGE);
  assert_int_equal(v->n, 1);
  tfr_arena_free(a);
}

static void types_compare_structurally(void **state) {
  (void)state;
  tfr_arena *a = tfr_arena_new();
  const tfr_type *l1 = tfr_type_list(a, &tfr_t_string);
  const tfr_type *l2 = tfr_type_list(a, &tfr_t_string);
  assert_true(tfr_type_equal(l1, l2));
  assert_false(tfr_type_equal(l1, tfr_type_set(a, &tfr_t_string)));
  const char *names[] = {"b", "a"};
  const tfr_type *ts[] = {&tfr_t_number, &tfr_t_bool};
  const tfr_type *o = tfr_type_object(a, 2, names, ts, NULL);
  assert_string_equal(o->names[0], "a"); /* sorted */
  assert_int_equal(o->types[0]->kind, TFR_BOOL);
  assert_int_equal(tfr_type_attr(o, "b", 1), 1);
  assert_int_equal(tfr_type_attr(o, "c", 1), -1);
  assert_string_equal(tfr_type_friendly(a, tfr_type_map(a, l1)),
                      "map of list of string");
  assert_string_equal(tfr_type_expr(a, o), "object({a=bool,b=number})");
  assert_true(tfr_type_has_dynamic(tfr_type_list(a, &tfr_t_dynamic)));
  assert_false(tfr_type_has_dynamic(o));
  tfr_arena_free(a);
}

static void strings_are_nfc(void **state) {
  (void)state;
  tfr_arena *a = tfr_arena_new();
  const tfr_value *v = str(a, "e\xCC\x81"); /* e + combining acute */
  assert_int_equal(v->n, 2);
  assert_memory_equal(v->s, "\xC3\xA9", 2); /* é */
  assert_true(tfr_value_equal(v, str(a, "\xC3\xA9")));
  tfr_arena_free(a);
}

static void equality_ignores_marks_not_types(void **state) {
  (void)state;
  tfr_arena *a = tfr_arena_new();
  const tfr_value *x = num(a, "1.50"), *y = num(a, "1.5");
  assert_true(tfr_value_equal(x, y));
  assert_true(tfr_value_equal(tfr_value_mark(a, x, TFR_V_SENSITIVE), y));
  assert_false(tfr_value_equal(x, str(a, "1.5")));
  assert_true(
      tfr_value_equal(tfr_null(a, &tfr_t_string), tfr_null(a, &tfr_t_string)));
  assert_false(tfr_value_equal(tfr_unknown(a, &tfr_t_string),
                               tfr_unknown(a, &tfr_t_string)));
  tfr_arena_free(a);
}

static void sets_dedup_and_order_like_cty(void **state) {
  (void)state;
  tfr_arena *a = tfr_arena_new();
  const tfr_value *strs[] = {str(a, "b"), str(a, "a"), str(a, "b"),
                             str(a, "B")};
  const tfr_value *s = tfr_set(a, &tfr_t_string, 4, strs);
  assert_int_equal(s->n, 3);
  assert_memory_equal(s->elems[0]->s, "B", 1); /* byte order */
  assert_memory_equal(s->elems[1]->s, "a", 1);
  const tfr_value *nums[] = {num(a, "10"), num(a, "9"), num(a, "9.0"),
                             num(a, "-1")};
  const tfr_value *n = tfr_set(a, &tfr_t_number, 4, nums);
  assert_int_equal(n->n, 3);
  assert_string_equal(num_format(a, n->elems[0]->num), "-1");
  assert_string_equal(num_format(a, n->elems[2]->num), "10");
  const tfr_value *bools[] = {tfr_bool(true), tfr_bool(false)};
  const tfr_value *b = tfr_set(a, &tfr_t_bool, 2, bools);
  assert_false(b->elems[0]->b);
  /* objects: by cty's hash bytes, so {a="y"} before {a="z"} */
  const char *an[] = {"a"};
  const tfr_value *z[] = {str(a, "z")}, *yv[] = {str(a, "y")};
  const tfr_value *objs[] = {tfr_object(a, 1, an, z), tfr_object(a, 1, an, yv),
                             tfr_object(a, 1, an, z)};
  const tfr_value *o = tfr_set(a, objs[0]->type, 3, objs);
  assert_int_equal(o->n, 2);
  assert_memory_equal(o->elems[0]->elems[0]->s, "y", 1);
  /* nulls sort last */
  const tfr_value *withnull[] = {tfr_null(a, &tfr_t_string), str(a, "x")};
  const tfr_value *wn = tfr_set(a, &tfr_t_string, 2, withnull);
  assert_true(wn->elems[1]->flags & TFR_V_NULL);
  tfr_arena_free(a);
}

static void maps_sort_keys(void **state) {
  (void)state;
  tfr_arena *a = tfr_arena_new();
  const char *keys[] = {"z", "a"};
  uint32_t lens[] = {1, 1};
  const tfr_value *vals[] = {num(a, "1"), num(a, "2")};
  const tfr_value *m = tfr_map(a, &tfr_t_number, 2, keys, lens, vals);
  assert_memory_equal(m->keys[0], "a", 1);
  assert_string_equal(num_format(a, m->elems[0]->num), "2");
  assert_true(
      tfr_value_has_mark(tfr_list(a, &tfr_t_string, 1,
                                  (const tfr_value *[]){tfr_value_mark(
                                      a, str(a, "s"), TFR_V_SENSITIVE)}),
                         TFR_V_SENSITIVE));
  tfr_arena_free(a);
}

/* Parse a type expression; its type as Terraform writes it, or the first
** diagnostic's summary and detail. */
static const char *type_of(tfr_arena *a, const char *text) {
  tfr_diags *d = tfr_diags_new(a);
  tfr_file *f = tfr_parse_expr(a, d, "t", text, strlen(text));
  const struct tfr_defaults *defs = NULL;
  const tfr_type *t = f ? tfr_parse_type(a, d, f, &defs) : NULL;
  if (!t) {
    const struct tfr_diag *g = tfr_diags_get(d, 0);
    return tfr_arena_printf(a, "%s: %s", g->summary, g->detail);
  }
  return tfr_type_expr(a, t);
}

static void type_constraints_parse(void **state) {
  (void)state;
  tfr_arena *a = tfr_arena_new();
  assert_string_equal(type_of(a, "string"), "string");
  assert_string_equal(type_of(a, "list"), "list(any)");
  assert_string_equal(type_of(a, "map(list(number))"), "map(list(number))");
  assert_string_equal(
      type_of(a, "object({b = optional(number, 1), a = set(bool)})"),
      "object({a=set(bool),b=optional(number)})");
  assert_string_equal(type_of(a, "tuple([string, any])"),
                      "tuple([string,any])");
  assert_string_equal(type_of(a, "list(string, number)"),
                      "Invalid type specification: The list type constructor "
                      "requires one argument specifying the element type.");
  assert_string_equal(type_of(a, "optional(string)"),
                      "Invalid type specification: Keyword \"optional\" is "
                      "valid only as a modifier for object type attributes.");
  assert_string_equal(type_of(a, "strin"),
                      "Invalid type specification: The keyword \"strin\" is "
                      "not a valid type specification.");
  assert_string_equal(type_of(a, "object"),
                      "Invalid type specification: The object type "
                      "constructor requires one argument specifying the "
                      "attribute types and values as a map.");
  assert_string_equal(type_of(a, "object({n = optional(number, \"x\")})"),
                      "Invalid default value for optional attribute: This "
                      "default value is not compatible with the attribute's "
                      "type constraint: a number is required.");
  assert_string_equal(type_of(a, "object({a = string, a = number})"),
                      "Invalid type specification: Object constructor map "
                      "keys must be unique.");
  tfr_arena_free(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(types_compare_structurally),
      cmocka_unit_test(strings_are_nfc),
      cmocka_unit_test(strings_past_4gib_are_not_truncated),
      cmocka_unit_test(equality_ignores_marks_not_types),
      cmocka_unit_test(sets_dedup_and_order_like_cty),
      cmocka_unit_test(maps_sort_keys),
      cmocka_unit_test(type_constraints_parse),
  };
  RUN_UNIT_TESTS(tests);
}
