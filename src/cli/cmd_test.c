/*
** tfresolve test: the variable-only part of `terraform test` files
** (libtfresolve's tftest.c decides; this prints it as terraform test
** does, or as JSON lines).
*/
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "options.h"
#include "cli_util.h"
#include "tfresolve/tftest.h"

extern char **environ;

struct test_opts {
  struct options o;
  struct tfr_test_opts t;
  bool no_env;
  bool color;
};

/* A colour escape, or nothing. */
static const char *col(const struct test_opts *to, const char *code) {
  return to->color ? code : "";
}

#define GREEN "\x1b[32m"
#define RED "\x1b[31m"
#define GRAY "\x1b[37m"
#define RESET "\x1b[0m"

static const char *status_word(const struct test_opts *to,
                               enum tfr_test_status s, const char **color) {
  switch (s) {
  case TFR_TEST_PASS:
    *color = col(to, GREEN);
    return "pass";
  case TFR_TEST_FAIL:
  case TFR_TEST_ERROR: /* Terraform shows both as "fail" */
    *color = col(to, RED);
    return "fail";
  case TFR_TEST_SKIP:
    *color = col(to, GRAY);
    return "skip";
  default:
    *color = col(to, GRAY);
    return "pending";
  }
}

/* Diagnostics on stderr, in order with what stdout has shown; a blank
** line after warnings, as terraform test prints. */
static void diags_out(const tfr_diags *d, const struct test_opts *to) {
  if (!tfr_diags_count(d))
    return;
  fflush(stdout);
  cli_print_diags(d, &to->o);
  fflush(stderr);
  for (size_t i = 0; i < tfr_diags_count(d); i++)
    if (tfr_diags_get(d, i)->sev == TFR_DIAG_WARNING) {
      putchar('\n');
      break;
    }
}

static void human(const struct tfr_test_suite *s, const struct test_opts *to) {
  diags_out(s->diags, to);
  if (s->fatal)
    return;
  for (size_t i = 0; i < s->nfiles; i++) {
    const struct tfr_test_file *f = tfr_test_suite_file(s, i);
    const char *c;
    printf("%s... %sin progress%s\n", f->name, col(to, GRAY), col(to, RESET));
    for (size_t j = 0; j < f->nruns; j++) {
      const struct tfr_test_run *r = tfr_test_file_run(f, j);
      if (r->status == TFR_TEST_PENDING)
        continue; /* not run: another run of the file has errors */
      const char *w = status_word(to, r->status, &c);
      printf("  run \"%s\"... %s%s%s\n", r->name, c, w, col(to, RESET));
      if (r->skip_reason)
        printf("    %s%s: %s%s\n", col(to, GRAY),
               r->offline ? "not decidable offline" : "skipped", r->skip_reason,
               col(to, RESET));
      diags_out(r->diags, to);
    }
    printf("%s... %stearing down%s\n", f->name, col(to, GRAY), col(to, RESET));
    const char *w = status_word(to, f->status, &c);
    printf("%s... %s%s%s\n", f->name, c, w, col(to, RESET));
    diags_out(f->diags, to);
  }
  putchar('\n');
  if (s->status == TFR_TEST_PASS)
    printf("%sSuccess!%s", col(to, GREEN), col(to, RESET));
  else
    printf("%sFailure!%s", col(to, RED), col(to, RESET));
  printf(" %zu passed, %zu failed", s->passed, s->failed);
  if (s->skipped)
    printf(", %zu skipped.\n", s->skipped);
  else
    printf(".\n");
}

/* ---- -json ------------------------------------------------------------- */

static void json_str(const char *s) { tfr_json_write_cstr(stdout, s); }

/* The diagnostics as one line of JSON (doc/json-format.md's fields). */
static void json_diags(const tfr_diags *d) {
  putchar('[');
  for (size_t i = 0; i < tfr_diags_count(d); i++) {
    const struct tfr_diag *g = tfr_diags_get(d, i);
    printf("%s{\"severity\":\"%s\",\"summary\":", i ? "," : "",
           g->sev == TFR_DIAG_ERROR ? "error" : "warning");
    json_str(g->summary);
    fputs(",\"detail\":", stdout);
    json_str(g->detail ? g->detail : "");
    if (g->variable) {
      fputs(",\"variable\":", stdout);
      json_str(g->variable);
    }
    if (g->subject.filename) {
      fputs(",\"range\":", stdout);
      tfr_range_write_json(stdout, &g->subject);
    }
    if (g->note) { /* ours, after Terraform's words */
      fputs(",\"note\":", stdout);
      json_str(g->note);
    }
    if (g->ours) /* a diagnostic Terraform does not give */
      fputs(",\"origin\":\"tfresolve\"", stdout);
    putchar('}');
  }
  putchar(']');
}

static void json(const struct tfr_test_suite *s) {
  for (size_t i = 0; i < s->nfiles; i++) {
    const struct tfr_test_file *f = tfr_test_suite_file(s, i);
    for (size_t j = 0; j < f->nruns; j++) {
      const struct tfr_test_run *r = tfr_test_file_run(f, j);
      if (r->status == TFR_TEST_PENDING)
        continue;
      fputs("{\"type\":\"test_run\",\"path\":", stdout);
      json_str(f->name);
      fputs(",\"run\":", stdout);
      json_str(r->name);
      printf(",\"command\":\"%s\",\"status\":\"%s\"",
             r->apply ? "apply" : "plan", tfr_test_status_name(r->status));
      if (r->skip_reason) {
        fputs(",\"skip_reason\":", stdout);
        json_str(r->skip_reason);
        printf(",\"offline\":%s", r->offline ? "true" : "false");
      }
      fputs(",\"diagnostics\":", stdout);
      json_diags(r->diags);
      fputs("}\n", stdout);
    }
  }
  printf("{\"type\":\"test_summary\",\"status\":\"%s\",\"passed\":%zu,"
         "\"failed\":%zu,\"skipped\":%zu,\"files\":[",
         s->fatal ? "error" : tfr_test_status_name(s->status), s->passed,
         s->failed, s->skipped);
  for (size_t i = 0; i < s->nfiles; i++) {
    const struct tfr_test_file *f = tfr_test_suite_file(s, i);
    printf("%s{\"path\":", i ? "," : "");
    json_str(f->name);
    printf(",\"status\":\"%s\"", tfr_test_status_name(f->status));
    if (tfr_diags_count(f->diags)) { /* the file's own: its variables */
      fputs(",\"diagnostics\":", stdout);
      json_diags(f->diags);
    }
    putchar('}');
  }
  fputs("],\"diagnostics\":", stdout);
  json_diags(s->diags);
  fputs("}\n", stdout);
}

static int run(struct cli_opts *co) {
  struct test_opts to = {0};
  to.t = (struct tfr_test_opts)TFR_TEST_OPTS_INIT;
  to.o = co->o;
  to.no_env = co->no_env;
  to.t.opentofu = co->o.opentofu;
  to.t.args = co->args;
  to.t.nargs = co->nargs;
  to.t.filter = co->filter.v;
  to.t.nfilter = co->filter.n;
  if (co->test_dir)
    to.t.test_dir = co->test_dir;
  if (co->operands.n) /* the last one given */
    to.t.dir = co->operands.v[co->operands.n - 1];
  to.t.env = to.no_env ? NULL : environ;
  const char *nc = getenv("NO_COLOR");
  to.color = !to.o.no_color && !(nc && *nc) && isatty(STDOUT_FILENO);
  tfr_arena *a = tfr_arena_new();
  const struct tfr_test_suite *s = tfr_test_run_dir(a, &to.t);
  if (to.o.format == FMT_JSON)
    json(s);
  else
    human(s, &to);
  fflush(stdout);
  int rc = s->fatal || s->status >= TFR_TEST_FAIL ? EXIT_INVALID : EXIT_OK;
  tfr_arena_free(a);
  return rc;
}

static const struct cli_option options[] = {
    CLI_OPT_VALUE("test-directory", "DIR", test_dir,
                  "Test files there too (default: tests)"),
    CLI_OPT_LIST("filter", "FILE", filter, "Only this test file (repeatable)"),
    CLI_OPT_INCLUDE(cli_opts_sources),
    CLI_OPT_INCLUDE(cli_opts_chdir),
    CLI_OPT_INCLUDE(cli_opts_no_env),
    CLI_OPT_INCLUDE(cli_opts_engine),
    CLI_OPT_INCLUDE(cli_opts_json),
    CLI_OPT_INCLUDE(cli_opts_no_color),
    CLI_OPT_INCLUDE(cli_opts_sensitive),
    CLI_OPT_FLAG("verbose", accepted, "Accepted as terraform test accepts it",
                 0),
    CLI_OPT_FLAG("compact-warnings", accepted,
                 "Accepted as terraform test accepts it", 0),
    CLI_OPT_INCLUDE(cli_opts_help),
    CLI_OPT_END};

const struct cli_command cli_cmd_test = {
    .name = "test",
    .summary = "Run the variable-only part of tests/*.tftest.hcl offline",
    .run = run,
    .options = options,
    .usage =

        "Usage: tfresolve test [options] [DIR]\n"
        "\n"
        "Run the test files of the module in DIR (default: the current\n"
        "directory) as `terraform test` does, offline: DIR/*.tftest.hcl and\n"
        "DIR/tests/*.tftest.hcl.  Each run block's variables (run block, then\n"
        "the file's variables block, then -var, -var-file, tfvars files and\n"
        "TF_VAR_) are resolved and validated, and held against "
        "expect_failures\n"
        "and the assert blocks that refer only to var.*, local.*, path.* and\n"
        "terraform.*.  Runs whose outcome needs providers (assertions on\n"
        "resources or outputs, expected failures of resources, outputs or\n"
        "checks, module blocks, outputs of earlier runs) are skipped, with "
        "the\n"
        "reason.\n"
        "\n"
        "Beyond Terraform, a run block may hold\n"
        "  expect_error_message = \"text\"  (or a list of strings)\n"
        "each of which must appear in the error message of a failed "
        "validation\n"
        "rule of a variable in expect_failures.\n",
    .footer =
        "-json prints one JSON object per line: each run, then a summary.\n"
        "-show-sensitive prints nothing more: a failed assertion whose\n"
        "message refers to a sensitive value says so.\n"
        "\n"
        "Exit status: 0 every run passed or was skipped, 1 a run failed or "
        "the\n"
        "configuration has errors, 2 usage error.\n",
    .tfcmd = "test"};
