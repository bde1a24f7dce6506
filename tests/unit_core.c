/*
** Unit tests: arena, source positions, ranges, diagnostics rendering, and
** the public structs that grow (options of resolve, eval, tftest and the
** renderer read as far as their size says, results reached through
** accessors).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"

#include "base/arena_int.h"
#include "syntax/source.h"
#include "base/strutil.h"
#include "tfresolve/tfresolve.h"
#include "tfresolve/tftest.h"

static void arena_alloc_is_zeroed_and_aligned(void **state) {
  (void)state;
  tfr_arena *a = tfr_arena_new();
  for (int i = 1; i < 2000; i += 7) {
    unsigned char *p = tfr_arena_alloc(a, (size_t)i);
    assert_int_equal((uintptr_t)p % 8, 0);
    for (int k = 0; k < i; k++)
      assert_int_equal(p[k], 0);
    memset(p, 0xAB, (size_t)i);
  }
  char *big = tfr_arena_alloc(a, 1 << 20); /* its own block */
  assert_non_null(big);
  assert_int_equal(big[(1 << 20) - 1], 0);
  tfr_arena_free(a);
}

struct membuf {
  char data[4096];
  size_t n;
};

static size_t to_membuf(void *ctx, const char *d, size_t n) {
  struct membuf *b = ctx;
  if (n > sizeof b->data - 1 - b->n)
    return 0;
  memcpy(b->data + b->n, d, n);
  b->n += n;
  b->data[b->n] = '\0';
  return n;
}

/* tfr_writer_open: any writer of the API can write through a callback. */
static void writers_take_a_callback(void **state) {
  (void)state;
  tfr_arena *a = tfr_arena_new();
  tfr_diags *d = tfr_diags_new(a);
  tfr_diags_add(d, TFR_DIAG_ERROR, NULL, "Something failed", "Because.");
  struct membuf b = {{0}, 0};
  FILE *f = tfr_writer_open(to_membuf, &b);
  assert_non_null(f);
  tfr_diags_render_json(d, f);
  assert_int_equal(fclose(f), 0);
  assert_non_null(strstr(b.data, "\"summary\": \"Something failed\""));
  tfr_arena_free(a);
}

/* Under AddressSanitizer a failed allocation must return NULL (as it
** does without it) so that the out-of-memory path can be tested. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) {
  return "allocator_may_return_null=1";
}

static void oom_exit(void) { _exit(42); }

/* Memory that cannot be had ends in tfr_set_oom_handler's handler (the
** one out-of-memory path), in a child process. */
static void out_of_memory_calls_the_handler(void **state) {
  (void)state;
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    tfr_set_oom_handler(oom_exit);
    tfr_arena *a = tfr_arena_new();
    volatile char *p = tfr_arena_alloc(a, (size_t)1 << 62);
    (void)p;
    _exit(0); /* not reached */
  }
  int st = 0;
  assert_int_equal(waitpid(pid, &st, 0), pid);
  assert_true(WIFEXITED(st));
  assert_int_equal(WEXITSTATUS(st), 42);
}

static void arena_strings(void **state) {
  (void)state;
  tfr_arena *a = tfr_arena_new();
  assert_string_equal(tfr_arena_strndup(a, "hello", 3), "hel");
  assert_string_equal(tfr_arena_strdup(a, ""), "");
  assert_string_equal(tfr_arena_printf(a, "%s-%d", "x", 42), "x-42");
  assert_true(tfr_arena_used(a) > 0);
  tfr_arena_free(a);
  tfr_arena_free(NULL);
}

static void positions_count_lines_and_characters(void **state) {
  (void)state;
  tfr_arena *a = tfr_arena_new();
  const char text[] = "ab\n\xC3\xA9t\xC3\xA9\n\n"
                      "e\xCC\x81x\n"; /* é as e + combining acute */
  struct src_file *f = src_new(a, "f.tf", text, sizeof text - 1);
  struct tfr_pos p = src_pos(f, 0);
  assert_int_equal(p.line, 1);
  assert_int_equal(p.column, 1);
  p = src_pos(f, 2);
  assert_int_equal(p.line, 1);
  assert_int_equal(p.column, 3);
  p = src_pos(f, 3 + 3); /* after "ét" */
  assert_int_equal(p.line, 2);
  assert_int_equal(p.column, 3);
  p = src_pos(f, 9); /* the empty third line */
  assert_int_equal(p.line, 3);
  assert_int_equal(p.column, 1);
  p = src_pos(f, 10 + 3); /* after e + U+0301: one grapheme cluster */
  assert_int_equal(p.line, 4);
  assert_int_equal(p.column, 2);
  assert_int_equal(p.byte, 13);
  p = src_pos(f, 9999); /* clamped to the end */
  assert_int_equal(p.byte, sizeof text - 1);
  tfr_arena_free(a);
}

/* Columns on long lines: ASCII is counted eight bytes at a time, up to a
** CR or a non-ASCII byte, which must still count as clusters do. */
static void positions_count_long_lines(void **state) {
  (void)state;
  tfr_arena *a = tfr_arena_new();
  const char text[] =
      "abcdefghij\xC3\xA9klmnopqrstuvwxyz\n" /* é within the 2nd word */
      "0123456789abcdef\rX\n"                /* a lone CR after 16 */
      "abcdefghe\xCC\x81zyxwvutsrq\n"        /* e + U+0301 across words */
      "abcdefgh\r\nx\n";                     /* CR LF after 8 */
  struct src_file *f = src_new(a, "f.tf", text, sizeof text - 1);
  struct src_cursor c = {0};
  static const struct {
    uint32_t byte;
    int line, column;
  } want[] = {{28, 1, 28}, {46, 2, 18}, {69, 3, 20}, {78, 4, 9}, {80, 5, 1}};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    struct tfr_pos q = src_pos_seq(f, want[i].byte, &c); /* the cursor */
    assert_int_equal(q.line, want[i].line);
    assert_int_equal(q.column, want[i].column);
  }
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    struct tfr_pos p = src_pos(f, want[i].byte); /* the line table */
    assert_int_equal(p.line, want[i].line);
    assert_int_equal(p.column, want[i].column);
  }
  tfr_arena_free(a);
}

static void arena_mark_and_reset(void **state) {
  (void)state;
  tfr_arena *a = tfr_arena_new();
  char *keep = tfr_arena_strdup(a, "kept");
  for (int round = 0; round < 3; round++) {
    struct arena_mark m = arena_mark(a);
    size_t used = tfr_arena_used(a);
    for (int i = 0; i < 5000; i++) /* several blocks */
      memset(tfr_arena_alloc(a, 100), 0x5A, 100);
    memset(tfr_arena_alloc(a, 1 << 20), 0x5A, 1 << 20); /* its own block */
    arena_reset(a, m);
    assert_int_equal(tfr_arena_used(a), used);
    assert_string_equal(keep, "kept");
    /* what comes after is zeroed as ever, and does not touch keep */
    unsigned char *p = tfr_arena_alloc(a, 300000);
    for (size_t k = 0; k < 300000; k++)
      assert_int_equal(p[k], 0);
  }
  tfr_arena *scratch = tfr_arena_new();
  for (int i = 0; i < 3000; i++)
    tfr_arena_strdup(scratch, "some text to fill a few blocks");
  arena_recycle(scratch, a);
  char *after = tfr_arena_strdup(a, "after");
  assert_string_equal(after, "after");
  assert_string_equal(keep, "kept");
  tfr_arena_free(a);
}

static void strmap_add_and_delete(void **state) {
  (void)state;
  enum { N = 3000 };
  static char names[N][8];
  struct strmap m = {0};
  strmap_reserve(&m, 10);
  for (size_t i = 0; i < N; i++) {
    snprintf(names[i], sizeof names[i], "v%zu", i);
    size_t old;
    assert_true(strmap_add(&m, names[i], i, &old));
    assert_false(strmap_add(&m, names[i], i + 1, &old));
    assert_int_equal(old, i);
  }
  for (size_t i = 0; i < N; i += 3) /* every third goes */
    strmap_del(&m, names[i]);
  strmap_del(&m, "absent");
  assert_int_equal(m.n, N - (N + 2) / 3);
  for (size_t i = 0; i < N; i++) {
    size_t v = 0;
    bool there = strmap_get(&m, names[i], &v);
    assert_int_equal(there, i % 3 != 0);
    if (there)
      assert_int_equal(v, i);
  }
  strmap_put(&m, names[0], 7);
  strmap_put(&m, names[1], 8);
  size_t v = 0;
  assert_true(strmap_get(&m, names[0], &v) && v == 7);
  assert_true(strmap_get(&m, names[1], &v) && v == 8);
  strmap_free(&m);
}

static void bytemap_by_bytes(void **state) {
  (void)state;
  enum { N = 2000 };
  static char text[N * 6 + 1]; /* the last key's NUL after it */
  struct bytemap m = {0};
  assert_null(bytemap_get(&m, "x", 1));
  for (size_t i = 0; i < N; i++) { /* keys that are not NUL-terminated */
    memcpy(text + 6 * i, "k", 1);
    snprintf(text + 6 * i + 1, 6, "%05zu", i);
    bytemap_put(&m, text + 6 * i, 6, text + 6 * i);
  }
  assert_int_equal(m.n, N);
  for (size_t i = 0; i < N; i++)
    assert_ptr_equal(bytemap_get(&m, text + 6 * i, 6), text + 6 * i);
  assert_null(bytemap_get(&m, "k00001", 5)); /* a prefix is another key */
  bytemap_put(&m, "k00001", 6, text);        /* replaced, not added */
  assert_int_equal(m.n, N);
  assert_ptr_equal(bytemap_get(&m, text + 6, 6), text);
  bytemap_free(&m);
}

static void positions_in_file_order(void **state) {
  (void)state;
  tfr_arena *a = tfr_arena_new();
  const char text[] = "x = \"e\xCC\x81\" # one\n"
                      "  yy = 1\n\n\n"
                      "zzzzzzzzzzzzzzzzzzzzzzzz = [1,\n  2]\n";
  struct src_file *f = src_new_private(a, "f.tfvars", text, sizeof text - 1);
  struct src_file *g = src_new(a, "g.tfvars", text, sizeof text - 1);
  struct src_cursor c = {0};
  for (uint32_t b = 0; b <= sizeof text - 1; b++) {
    struct tfr_pos want = src_pos(g, b);
    struct tfr_pos got = src_pos_seq(f, b, &c);
    assert_int_equal(got.line, want.line);
    assert_int_equal(got.column, want.column);
    assert_int_equal(got.byte, want.byte);
  }
  struct src_cursor d = {0}; /* sparse, and going back */
  uint32_t at[] = {2, 5, 9, 10, 24, 30, 7, 40, 41};
  for (size_t i = 0; i < sizeof at / sizeof *at; i++) {
    struct tfr_pos want = src_pos(g, at[i]);
    struct tfr_pos got = src_pos_seq(f, at[i], &d);
    assert_int_equal(got.line, want.line);
    assert_int_equal(got.column, want.column);
  }
  tfr_arena_free(a);
}

static void range_format_matches_hcl(void **state) {
  (void)state;
  char buf[128];
  struct tfr_range r = {"main.tf", {2, 3, 10}, {2, 8, 15}};
  tfr_range_format(&r, buf, sizeof buf);
  assert_string_equal(buf, "main.tf:2,3-8");
  r.end.line = 4;
  tfr_range_format(&r, buf, sizeof buf);
  assert_string_equal(buf, "main.tf:2,3-4,8");
}

static char *render(tfr_diags *d, int mode) {
  char *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&buf, &len);
  struct tfr_render_opts o = TFR_RENDER_OPTS_INIT;
  o.unicode = true;
  if (mode == 0)
    tfr_diags_render_text(d, out, &o);
  else if (mode == 1)
    tfr_diags_render_json(d, out);
  else
    tfr_diags_render_short(d, out);
  fclose(out);
  return buf;
}

static void diagnostics_render_three_ways(void **state) {
  (void)state;
  tfr_arena *a = tfr_arena_new();
  tfr_diags *d = tfr_diags_new(a);
  assert_false(tfr_diags_has_errors(d));
  const char src[] = "a = 1\nb = 'x'\n";
  tfr_diags_add_source(d, "m.tf", src, sizeof src - 1);
  struct tfr_range r = {"m.tf", {2, 5, 10}, {2, 6, 11}};
  tfr_diags_add(d, TFR_DIAG_WARNING, NULL, "Just a warning", NULL);
  assert_false(tfr_diags_has_errors(d));
  tfr_diags_add(d, TFR_DIAG_ERROR, &r, "Invalid character",
                "Say \"why\".\nSecond line.");
  assert_true(tfr_diags_has_errors(d));
  assert_int_equal(tfr_diags_count(d), 2);

  /* Terraform's frame (format.Diagnostic): a blank line after the
  ** summary even with nothing below it, the source line with no marker
  ** line under it (colour underlines the subject), a blank line after it */
  char *text = render(d, 0);
  assert_string_equal(text, "╷\n"
                            "│ Warning: Just a warning\n"
                            "│\n"
                            "╵\n"
                            "╷\n"
                            "│ Error: Invalid character\n"
                            "│\n"
                            "│   on m.tf line 2:\n"
                            "│    2: b = 'x'\n"
                            "│\n"
                            "│ Say \"why\".\n"
                            "│ Second line.\n"
                            "╵\n");
  free(text);

  char *json = render(d, 1);
  assert_non_null(strstr(json, "\"summary\": \"Invalid character\""));
  assert_non_null(
      strstr(json, "\"detail\": \"Say \\\"why\\\".\\nSecond line.\""));
  assert_non_null(strstr(json, "\"start\": {\"line\": 2, \"column\": 5, "
                               "\"byte\": 10}"));
  free(json);

  char *brief = render(d, 2);
  assert_string_equal(brief, "warning: Just a warning\n"
                             "m.tf:2:5: error: Invalid character\n");
  free(brief);
  tfr_arena_free(a);
}

/* Writes text to dir/name. */
static void a_full_diagnostic_in_one_call(void **state) {
  (void)state;
  tfr_arena *a = tfr_arena_new();
  tfr_diags *d = tfr_diags_new(a);
  char summary[] = "Invalid value", file[] = "x.tfvars", var[] = "region";
  struct tfr_diag_value v[] = {{"var.region", "is \"moon\""}};
  struct tfr_diag g = {.sev = TFR_DIAG_WARNING,
                       .summary = summary,
                       .detail = "Not a region.",
                       .subject = {file, {1, 3, 2}, {1, 9, 8}},
                       .variable = var,
                       .hide_source = true,
                       .code = TFR_CODE_RULE_FAILED,
                       .note = "a note",
                       .values = v,
                       .nvalues = 1,
                       .ours = true,
                       .module = "module.app"};
  tfr_diags_add_full(d, &g);
  summary[0] = file[0] = var[0] = '?'; /* the list holds copies */
  assert_int_equal(tfr_diags_count(d), 1);
  const struct tfr_diag *c = tfr_diags_get(d, 0);
  assert_int_equal(c->sev, TFR_DIAG_WARNING);
  assert_string_equal(c->summary, "Invalid value");
  assert_string_equal(c->detail, "Not a region.");
  assert_string_equal(c->subject.filename, "x.tfvars");
  assert_int_equal(c->subject.end.byte, 8);
  assert_string_equal(c->variable, "region");
  assert_true(c->hide_source && c->ours);
  assert_int_equal(c->code, TFR_CODE_RULE_FAILED);
  assert_string_equal(c->note, "a note");
  assert_int_equal(c->nvalues, 1);
  assert_string_equal(c->values[0].statement, "is \"moon\"");
  assert_string_equal(c->module, "module.app");
  tfr_arena_free(a);
}

static void write_text(const char *dir, const char *name, const char *text) {
  char path[64];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  assert_int_equal(fclose(f), 0);
}

/* A module of two variables in a new temporary directory (removed by
** remove_module); its path, malloc'd. */
static char *write_module(void) {
  char *dir = strdup("/tmp/tfr_unit_XXXXXX");
  assert_non_null(mkdtemp(dir));
  write_text(dir, "main.tf",
             "variable \"a\" {\n  type    = number\n  default = 1\n}\n"
             "variable \"b\" {\n  type = string\n"
             "  validation {\n    condition     = length(var.b) > 0\n"
             "    error_message = \"Empty.\"\n  }\n}\n");
  return dir;
}

static void remove_module(char *dir) {
  char path[64];
  snprintf(path, sizeof path, "%s/main.tf", dir);
  unlink(path);
  rmdir(dir);
  free(dir);
}

static bool has_code(const tfr_diags *d, enum tfr_diag_code code) {
  for (size_t i = 0; i < tfr_diags_count(d); i++)
    if (tfr_diags_get(d, i)->code == code)
      return true;
  return false;
}

/*
** An older program's options: a heap block of exactly the size of a
** layout that ends with today's last field (smaller than today's sizeof,
** which has padding), so that AddressSanitizer catches a read past it;
** its -var options at a larger stride, as a newer program's would be.
*/
static void options_are_read_as_far_as_their_size(void **state) {
  (void)state;
  char *dir = write_module();
  const size_t v1 = offsetof(struct tfr_resolve_opts, keep_given) + 1;
  assert_true(v1 < sizeof(struct tfr_resolve_opts));
  struct wide_arg {
    struct tfr_cli_arg arg;
    unsigned char later[24]; /* fields a newer header appends: zero */
  } args[2] = {{{.file = false, .value = "b=hello"}, {0}},
               {{.file = false, .value = "a=5"}, {0}}};
  struct tfr_resolve_opts o = TFR_RESOLVE_OPTS_INIT;
  o.size = v1;
  o.dir = dir;
  o.args = &args[0].arg;
  o.nargs = 2;
  o.arg_size = sizeof args[0];
  struct tfr_resolve_opts *old = malloc(v1);
  memcpy(old, &o, v1);

  tfr_arena *a = tfr_arena_new();
  tfr_diags *d = tfr_diags_new(a);
  const struct tfr_resolution *res = tfr_resolve(a, d, old);
  assert_int_equal(tfr_diags_count(d), 0);
  assert_true(res->valid);
  assert_int_equal(res->n, 2);
  const struct tfr_variable *va = tfr_resolution_variable(res, 0);
  const struct tfr_variable *vb = tfr_resolution_variable(res, 1);
  assert_string_equal(va->name, "a");
  assert_string_equal(tfr_number_text(a, va->value), "5");
  assert_string_equal(vb->name, "b");
  assert_string_equal(tfr_value_console(a, vb->value), "\"hello\"");

  /* tfr_resolve_module reads them the same way */
  tfr_module *m = tfr_module_load(a, d, dir, false);
  res = tfr_resolve_module(a, d, m, old);
  assert_true(res->valid);
  assert_string_equal(tfr_value_console(a, vb->value), "\"hello\"");
  free(old);
  tfr_arena_free(a);
  remove_module(dir);
}

/* var.b is required and unset: plan stops, var.a gets a preview; the
** reasons say why; suggestions find the declared names. */
static void previews_and_reasons(void **state) {
  (void)state;
  char *dir = write_module();
  tfr_arena *a = tfr_arena_new();
  tfr_diags *d = tfr_diags_new(a);
  struct tfr_resolve_opts o = TFR_RESOLVE_OPTS_INIT;
  o.dir = dir;
  const struct tfr_resolution *res = tfr_resolve(a, d, &o);
  assert_false(res->valid);
  const struct tfr_variable *va = tfr_resolution_variable(res, 0);
  const struct tfr_variable *vb = tfr_resolution_variable(res, 1);
  assert_null(va->value);
  assert_true(va->error);
  assert_string_equal(va->reason, "plan stops before this: var.b has no value");
  assert_non_null(va->preview);
  assert_string_equal(tfr_value_console(a, va->preview), "1");
  assert_null(va->preview_error);
  assert_string_equal(vb->reason, "No value for required variable");
  assert_null(vb->preview);
  assert_true(has_code(d, TFR_CODE_NO_VALUE));
  assert_string_equal(tfr_resolution_suggest(res, "bb"), "b");
  assert_null(tfr_resolution_suggest(res, "something_else"));
  assert_null(tfr_resolution_suggest(NULL, "a"));

  /* set to "" it fails its rule: still plan's error, not a preview */
  struct tfr_cli_arg arg = {.value = "b=", .via = "TF_CLI_ARGS_plan"};
  o.args = &arg;
  o.nargs = 1;
  d = tfr_diags_new(a);
  res = tfr_resolve(a, d, &o);
  vb = tfr_resolution_variable(res, 1);
  assert_string_equal(vb->reason, "Invalid value for variable");
  assert_null(vb->preview);
  assert_string_equal(vb->source_via, "TF_CLI_ARGS_plan");
  assert_string_equal(tfr_variable_attempt(vb, 0)->via, "TF_CLI_ARGS_plan");
  va = tfr_resolution_variable(res, 0);
  assert_non_null(va->value);
  assert_null(va->reason);
  tfr_arena_free(a);
  remove_module(dir);
}

/* Options not set by the _INIT macro are an error, never a crash. */
static void options_without_a_size_are_an_error(void **state) {
  (void)state;
  char *dir = write_module();
  tfr_arena *a = tfr_arena_new();

  struct tfr_resolve_opts zero = {0};
  zero.dir = dir;
  tfr_diags *d = tfr_diags_new(a);
  const struct tfr_resolution *res = tfr_resolve(a, d, &zero);
  assert_non_null(res);
  assert_false(res->valid);
  assert_int_equal(res->n, 0);
  assert_true(tfr_diags_has_errors(d));
  assert_true(has_code(d, TFR_CODE_BAD_OPTIONS));

  d = tfr_diags_new(a);
  res = tfr_resolve(a, d, NULL);
  assert_true(has_code(d, TFR_CODE_BAD_OPTIONS));

  struct tfr_cli_arg arg = {.file = false, .value = "b=x"};
  struct tfr_resolve_opts o = TFR_RESOLVE_OPTS_INIT;
  o.dir = dir;
  o.args = &arg;
  o.nargs = 1;
  o.arg_size = 0;
  d = tfr_diags_new(a);
  res = tfr_resolve(a, d, &o);
  assert_int_equal(res->n, 0);
  assert_true(has_code(d, TFR_CODE_BAD_OPTIONS));

  tfr_module *m = tfr_module_load(a, tfr_diags_new(a), dir, false);
  d = tfr_diags_new(a);
  res = tfr_resolve_module(a, d, m, &zero);
  assert_int_equal(res->n, 0);
  assert_true(has_code(d, TFR_CODE_BAD_OPTIONS));

  tfr_file *e = tfr_parse_expr(a, d, "<e>", "upper(\"x\")", 10);
  struct tfr_eval_opts ez = {0};
  d = tfr_diags_new(a);
  const tfr_value *v = tfr_eval_functions_opts(a, d, e, &ez);
  assert_true(has_code(d, TFR_CODE_BAD_OPTIONS));
  assert_true(v->flags & TFR_V_UNKNOWN);
  struct tfr_eval_opts eo = TFR_EVAL_OPTS_INIT;
  d = tfr_diags_new(a);
  v = tfr_eval_functions_opts(a, d, e, &eo);
  assert_int_equal(tfr_diags_count(d), 0);
  assert_string_equal(tfr_value_console(a, v), "\"X\"");
  tfr_arena_free(a);
  remove_module(dir);
}

/* The elements of a resolution through accessors, NULL past the end. */
static void results_are_reached_through_accessors(void **state) {
  (void)state;
  char *dir = write_module();
  tfr_arena *a = tfr_arena_new();
  tfr_diags *d = tfr_diags_new(a);
  struct tfr_resolve_opts o = TFR_RESOLVE_OPTS_INIT;
  o.dir = dir;
  char *env[] = {"TF_VAR_b=", NULL};
  o.env = env;
  const struct tfr_resolution *res = tfr_resolve(a, d, &o);
  assert_int_equal(res->n, 2);
  assert_ptr_equal(tfr_resolution_variable(res, 1), &res->vars[1]);
  assert_null(tfr_resolution_variable(res, 2));
  assert_null(tfr_resolution_variable(NULL, 0));
  const struct tfr_variable *b = tfr_resolution_variable(res, 1);
  assert_int_equal(b->nattempts, 1);
  assert_int_equal(tfr_variable_attempt(b, 0)->source, TFR_SRC_ENV);
  assert_null(tfr_variable_attempt(b, 1));
  assert_int_equal(b->nrules, 1);
  assert_int_equal(tfr_variable_rule(b, 0)->result, TFR_RULE_FAILED);
  assert_null(tfr_variable_rule(b, 1));
  assert_null(tfr_variable_rule(tfr_resolution_variable(res, 0), 0));
  assert_null(tfr_variable_attempt(NULL, 0));
  assert_int_equal(tfr_version_number(), TFR_VERSION_NUMBER);
  tfr_arena_free(a);
  remove_module(dir);
}

/* write_module's module with a test file of two runs: "ok" asserts that
** var.a is 5 (only a -var can make it so), "empty" expects the rule of
** var.b to fail.  Removed by remove_tests. */
static char *write_tests(void) {
  char *dir = write_module();
  write_text(
      dir, "m.tftest.hcl",
      "run \"ok\" {\n  command = plan\n  variables {\n    b = \"x\"\n  }\n"
      "  assert {\n    condition     = var.a == 5\n"
      "    error_message = \"Not 5.\"\n  }\n}\n"
      "run \"empty\" {\n  command = plan\n  variables {\n    b = \"\"\n  }\n"
      "  expect_failures = [var.b]\n}\n");
  return dir;
}

static void remove_tests(char *dir) {
  char path[64];
  snprintf(path, sizeof path, "%s/m.tftest.hcl", dir);
  unlink(path);
  remove_module(dir);
}

/* tftest's options as far as their size, as tfr_resolve's (above); the
** files and runs of the suite through accessors, NULL past the end. */
static void test_options_are_read_as_far_as_their_size(void **state) {
  (void)state;
  char *dir = write_tests();
  const size_t v1 = offsetof(struct tfr_test_opts, opentofu) + 1;
  assert_true(v1 < sizeof(struct tfr_test_opts));
  struct wide_arg {
    struct tfr_cli_arg arg;
    unsigned char later[24]; /* fields a newer header appends: zero */
  } args[1] = {{{.file = false, .value = "a=5"}, {0}}};
  struct tfr_test_opts o = TFR_TEST_OPTS_INIT;
  o.size = v1;
  o.dir = dir;
  o.args = &args[0].arg;
  o.nargs = 1;
  o.arg_size = sizeof args[0];
  struct tfr_test_opts *old = malloc(v1);
  memcpy(old, &o, v1);

  tfr_arena *a = tfr_arena_new();
  const struct tfr_test_suite *s = tfr_test_run_dir(a, old);
  assert_int_equal(tfr_diags_count(s->diags), 0);
  assert_false(s->fatal);
  assert_int_equal(s->status, TFR_TEST_PASS);
  assert_int_equal(s->passed, 2);
  assert_int_equal(s->nfiles, 1);
  const struct tfr_test_file *f = tfr_test_suite_file(s, 0);
  assert_ptr_equal(f, &s->files[0]);
  assert_string_equal(f->name, "m.tftest.hcl");
  assert_null(tfr_test_suite_file(s, 1));
  assert_null(tfr_test_suite_file(NULL, 0));
  assert_int_equal(f->nruns, 2);
  assert_string_equal(tfr_test_file_run(f, 0)->name, "ok");
  assert_ptr_equal(tfr_test_file_run(f, 1), &f->runs[1]);
  assert_int_equal(tfr_test_file_run(f, 1)->status, TFR_TEST_PASS);
  assert_null(tfr_test_file_run(f, 2));
  assert_null(tfr_test_file_run(NULL, 0));
  free(old);
  tfr_arena_free(a);
  remove_tests(dir);
}

/* tftest's options not set by TFR_TEST_OPTS_INIT: a fatal suite with an
** error, never a crash. */
static void test_options_without_a_size_are_an_error(void **state) {
  (void)state;
  char *dir = write_tests();
  tfr_arena *a = tfr_arena_new();
  struct tfr_test_opts zero = {0};
  zero.dir = dir;
  const struct tfr_test_suite *s = tfr_test_run_dir(a, &zero);
  assert_true(s->fatal);
  assert_int_equal(s->status, TFR_TEST_ERROR);
  assert_true(has_code(s->diags, TFR_CODE_BAD_OPTIONS));
  assert_int_equal(s->nfiles, 0);
  assert_null(tfr_test_suite_file(s, 0));

  s = tfr_test_run_dir(a, NULL);
  assert_true(s->fatal);
  assert_true(has_code(s->diags, TFR_CODE_BAD_OPTIONS));

  struct tfr_cli_arg arg = {.file = false, .value = "a=5"};
  struct tfr_test_opts o = TFR_TEST_OPTS_INIT;
  o.dir = dir;
  o.args = &arg;
  o.nargs = 1;
  o.arg_size = 0;
  s = tfr_test_run_dir(a, &o);
  assert_true(s->fatal);
  assert_true(has_code(s->diags, TFR_CODE_BAD_OPTIONS));

  o.arg_size = sizeof arg;
  s = tfr_test_run_dir(a, &o);
  assert_false(s->fatal);
  assert_int_equal(s->passed, 2);
  tfr_arena_free(a);
  remove_tests(dir);
}

/* The text of one diagnostic rendered with the given options. */
static char *render_with(const struct tfr_render_opts *o) {
  tfr_arena *a = tfr_arena_new();
  tfr_diags *d = tfr_diags_new(a);
  tfr_diags_add(d, TFR_DIAG_ERROR, NULL, "Oops", NULL);
  char *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&buf, &len);
  tfr_diags_render_text(d, out, o);
  fclose(out);
  tfr_arena_free(a);
  return buf;
}

/*
** Render options: an older program's layout (a heap block of exactly its
** size) is read; a size it cannot read (0: the _INIT macro not used) and
** NULL render with the defaults, no colour and the ASCII frame.
*/
static void render_options_are_read_as_far_as_their_size(void **state) {
  (void)state;
  const size_t v1 = offsetof(struct tfr_render_opts, unicode) + 1;
  assert_true(v1 < sizeof(struct tfr_render_opts));
  struct tfr_render_opts o = TFR_RENDER_OPTS_INIT;
  o.size = v1;
  o.color = true;
  o.unicode = true;
  struct tfr_render_opts *old = malloc(v1);
  memcpy(old, &o, v1);
  char *text = render_with(old);
  assert_non_null(strstr(text, "\x1b[31m╷"));
  free(text);
  free(old);

  const char plain[] = ",\n| Error: Oops\n";
  o.size = 0;
  text = render_with(&o);
  assert_int_equal(strncmp(text, plain, sizeof plain - 1), 0);
  assert_null(strchr(text, '\x1b'));
  free(text);
  text = render_with(NULL);
  assert_int_equal(strncmp(text, plain, sizeof plain - 1), 0);
  free(text);
}

/* str_near_keys says what str_distance(a, b) < 3 says, for every pair:
** random names over a few bytes (two of them in one class, 'a' and '!'),
** 0 to 14 bytes long, and past the 62 bytes str_distance measures. */
static void near_keys_agree_with_the_edit_distance(void **state) {
  (void)state;
  static const char alphabet[] = "ab!_0\xc3";
  char x[80], y[80];
  unsigned seed = 38;
  for (int i = 0; i < 200000; i++) {
    size_t nx = (seed = seed * 1103515245u + 12345u) >> 16 & 15,
           ny = nx + (((seed = seed * 1103515245u + 12345u) >> 16) % 7) - 3;
    if (ny > 70)
      ny = 0;
    if (i % 1000 == 0)
      nx = 61 + i / 1000 % 4, ny = nx + i / 4000 % 3;
    for (size_t k = 0; k < nx || k < ny; k++) {
      seed = seed * 1103515245u + 12345u;
      x[k] = alphabet[(seed >> 16) % 6];
      y[k] = (seed >> 24) % 3 ? x[k] : alphabet[(seed >> 20) % 6];
    }
    struct near_key kx = str_near_key(x, nx), ky = str_near_key(y, ny);
    assert_int_equal(str_near_keys(&kx, &ky), str_distance(x, nx, y, ny) < 3);
    assert_int_equal(str_near_keys(&ky, &kx), str_distance(y, ny, x, nx) < 3);
  }
}

/* The module tree is charged to the memory budget through the library as
** through the CLI (tests/tree_limits.py): 400 instances of a 50 KB
** argument under an 8 MiB budget give the same "Value too large", said
** once, at the argument (issue 38, point 3). */
static void tree_values_are_charged_to_the_budget(void **state) {
  (void)state;
  char *dir = strdup("/tmp/tfr_unit_XXXXXX");
  assert_non_null(mkdtemp(dir));
  size_t big = 50000;
  char *root = malloc(big + 256);
  assert_non_null(root);
  int n = snprintf(root, 64, "variable \"big\" {\n  default = \"");
  memset(root + n, 'a', big);
  snprintf(root + n + big, 192,
           "\"\n}\nmodule \"c\" {\n  source = \"./c\"\n  count  = 400\n"
           "  x      = \"${var.big}${count.index}\"\n}\n");
  write_text(dir, "main.tf", root);
  free(root);
  char sub[64];
  snprintf(sub, sizeof sub, "%s/c", dir);
  assert_int_equal(mkdir(sub, 0700), 0);
  write_text(sub, "main.tf", "variable \"x\" {\n  type = string\n}\n");

  for (int round = 0; round < 2; round++) {
    tfr_set_memory_budget(round ? 0 : (size_t)8 << 20);
    tfr_arena *a = tfr_arena_new();
    tfr_diags *d = tfr_diags_new(a);
    struct tfr_resolve_opts o = TFR_RESOLVE_OPTS_INIT;
    o.dir = dir;
    o.tree = true;
    const struct tfr_resolution *res = tfr_resolve(a, d, &o);
    size_t said = 0;
    for (size_t i = 0; i < tfr_diags_count(d); i++) {
      const struct tfr_diag *g = tfr_diags_get(d, i);
      if (strcmp(g->summary, "Value too large"))
        continue;
      said++;
      assert_true(g->ours);
      assert_int_equal(g->subject.start.line, 7);
      assert_non_null(strstr(g->detail, "Evaluating this expression in "
                                        "module.c["));
      assert_non_null(strstr(g->detail, "takes the module tree past this "
                                        "run's memory budget (-max-memory)."));
    }
    /* within the budget: none, and every instance */
    assert_int_equal(said, round ? 0 : 1);
    assert_true(res->valid == (round == 1));
    if (round)
      assert_int_equal(res->ninstances, 400);
    tfr_arena_free(a);
  }
  tfr_set_memory_budget(0);
  char path[96];
  snprintf(path, sizeof path, "%s/main.tf", sub);
  unlink(path);
  rmdir(sub);
  remove_module(dir);
}

static bool keep_all(const struct tfr_variable *v, void *ctx) {
  (void)v;
  (void)ctx;
  return true;
}

/* A console scope (tfr_resolution_scope) of a count instance: what it
** evaluates is its own, in the caller's arena -- a second evaluation
** after the first's arena is freed, and one through a copy that
** tfr_resolution_select made, see the same -- and an address of the
** wrong key type names no instance, as Terraform's has none. */
static void scopes_evaluate_in_an_instance(void **state) {
  (void)state;
  char *dir = strdup("/tmp/tfr_unit_XXXXXX");
  assert_non_null(mkdtemp(dir));
  write_text(dir, "main.tf",
             "module \"c\" {\n  source = \"./c\"\n  count  = 2\n"
             "  x      = \"n${count.index}\"\n}\n");
  char sub[64];
  snprintf(sub, sizeof sub, "%s/c", dir);
  assert_int_equal(mkdir(sub, 0700), 0);
  write_text(sub, "main.tf",
             "variable \"x\" {\n  type = string\n}\n"
             "locals {\n  y = upper(var.x)\n}\n");
  tfr_arena *a = tfr_arena_new();
  struct tfr_resolve_opts o = TFR_RESOLVE_OPTS_INIT;
  o.dir = dir;
  o.tree = true;
  const struct tfr_resolution *res = tfr_resolve(a, tfr_diags_new(a), &o);
  tfr_diags *d = tfr_diags_new(a);
  const tfr_scope *sc = tfr_resolution_scope(a, d, res, "module.c[1]");
  assert_non_null(sc);
  for (int round = 0; round < 3; round++) {
    tfr_arena *e = tfr_arena_new();
    tfr_diags *ed = tfr_diags_new(e);
    struct tfr_eval_opts eo = TFR_EVAL_OPTS_INIT;
    eo.scope = round < 2
                   ? sc
                   : tfr_resolution_scope(
                         e, ed, tfr_resolution_select(e, res, keep_all, NULL),
                         "module.c[1]");
    tfr_file *x = tfr_parse_expr(e, ed, "<e>", "local.y", 7);
    const tfr_value *v = tfr_eval_functions_opts(e, ed, x, &eo);
    assert_int_equal(tfr_diags_count(ed), 0);
    assert_string_equal(tfr_value_console(e, v), "\"N1\"");
    tfr_arena_free(e);
  }
  assert_null(tfr_resolution_scope(a, d, res, "module.c[\"1\"]"));
  assert_string_equal(tfr_diags_get(d, 0)->summary,
                      "Failed to retrieve evaluation scope after graph walk");
  assert_null(tfr_resolution_scope(a, d, res, "c[1]"));
  assert_string_equal(tfr_diags_get(d, 1)->summary,
                      "Invalid module instance address");
  tfr_arena_free(a);
  char path[96];
  snprintf(path, sizeof path, "%s/main.tf", sub);
  unlink(path);
  rmdir(sub);
  remove_module(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(tree_values_are_charged_to_the_budget),
      cmocka_unit_test(scopes_evaluate_in_an_instance),
      cmocka_unit_test(arena_alloc_is_zeroed_and_aligned),
      cmocka_unit_test(arena_strings),
      cmocka_unit_test(out_of_memory_calls_the_handler),
      cmocka_unit_test(writers_take_a_callback),
      cmocka_unit_test(positions_count_lines_and_characters),
      cmocka_unit_test(positions_count_long_lines),
      cmocka_unit_test(arena_mark_and_reset),
      cmocka_unit_test(strmap_add_and_delete),
      cmocka_unit_test(near_keys_agree_with_the_edit_distance),
      cmocka_unit_test(bytemap_by_bytes),
      cmocka_unit_test(positions_in_file_order),
      cmocka_unit_test(range_format_matches_hcl),
      cmocka_unit_test(diagnostics_render_three_ways),
      cmocka_unit_test(a_full_diagnostic_in_one_call),
      cmocka_unit_test(options_are_read_as_far_as_their_size),
      cmocka_unit_test(options_without_a_size_are_an_error),
      cmocka_unit_test(previews_and_reasons),
      cmocka_unit_test(results_are_reached_through_accessors),
      cmocka_unit_test(test_options_are_read_as_far_as_their_size),
      cmocka_unit_test(test_options_without_a_size_are_an_error),
      cmocka_unit_test(render_options_are_read_as_far_as_their_size),
  };
  RUN_UNIT_TESTS(tests);
}
