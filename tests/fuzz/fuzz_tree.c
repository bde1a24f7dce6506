/*
** libFuzzer target: a module tree, followed into every child instance, with
** a secret always in it.  The input is up to six sections separated by a
** line "#--", written to a scratch root module:
**
**   0  main.tf                            (the root module)
**   1  modules/a/main.tf                  (a child)
**   2  modules/b/main.tf                  (a child)
**   3  modules/g/main.tf                  (a grandchild: "../g" from a, b)
**   4  terraform.tfvars                   (the root's)
**   5  .terraform/modules/modules.json    (the manifest `terraform init`
**                                          writes; absent: none)
**
** Beside them the target writes fuzz_canary.tf files of its own: the root
** declares `variable "fuzz_canary"` sensitive and passes it to module
** calls fuzz_canary_a (as it is) and fuzz_canary_b (inside a map); each
** child declares it and passes it on to the grandchild.  Its value, given
** as a -var, is a random string of this process (the canary), so that no
** input can hold it: the root's own code may use var.fuzz_canary anywhere
** (for_each maps, locals, outputs, arguments of its calls).
**
** Each input is resolved through the library with the tree followed
** (tfr_resolve, tree), rendered as `show -json` and every diagnostic as
** text, JSON and short lines; then one of the CLI's commands runs
** in-process on the same directory (show in each format, check in each
** report format, explain -all in both; the input's first byte picks),
** its stdout and stderr captured.  The last byte's bits set
** -engine=opentofu (0), -strict (1), -show-sensitive (2),
** -unchecked=error (4), -missing-required=info (5) and a memory budget
** of 2 MB (7; else 256 MB).  Besides the sanitizers and
** the API's promises (fuzz_common.h), it aborts when the canary -- as it
** is, upper-cased, in base64 or in hex -- appears in any output made
** without -show-sensitive.  Not when the input holds "nonsensitive"
** (which discloses on purpose), nor when the root's fuzz_canary is not
** sensitive (the input declared it again).  Build and run: README.md.
*/
#define _GNU_SOURCE /* memmem, open_memstream */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_common.h"

#include "cli/options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The commands the target runs (main.c has the CLI's own table). */
const struct cli_command *const cli_commands[] = {&cli_cmd_show, &cli_cmd_check,
                                                  &cli_cmd_explain, NULL};
const struct cli_global cli_globals[] = {{NULL, NULL, NULL}};

enum { NSECT = 6, CANARY_LEN = 20 };

static const char *const sect_files[NSECT] = {
    "main.tf",           "modules/a/main.tf",
    "modules/b/main.tf", "modules/g/main.tf",
    "terraform.tfvars",  ".terraform/modules/modules.json"};

/* Every file and directory the target writes, removed at exit (files
** first, then the directories deepest first). */
static const char *const all_files[] = {"main.tf",
                                        "fuzz_canary.tf",
                                        "terraform.tfvars",
                                        "modules/a/main.tf",
                                        "modules/a/fuzz_canary.tf",
                                        "modules/b/main.tf",
                                        "modules/b/fuzz_canary.tf",
                                        "modules/g/main.tf",
                                        "modules/g/fuzz_canary.tf",
                                        ".terraform/modules/modules.json",
                                        NULL};
static const char *const all_dirs[] = {"modules/a",          "modules/b",
                                       "modules/g",          "modules",
                                       ".terraform/modules", ".terraform"};

/* The harness's own files: the canary's declarations and calls. */
static const char canary_root[] =
    "variable \"fuzz_canary\" {\n"
    "  type      = string\n"
    "  sensitive = %s\n"
    "}\n"
    "module \"fuzz_canary_a\" {\n"
    "  source      = \"./modules/a\"\n"
    "  fuzz_canary = var.fuzz_canary\n"
    "}\n"
    "module \"fuzz_canary_b\" {\n"
    "  source      = \"./modules/b\"\n"
    "  fuzz_canary = { secret = var.fuzz_canary }\n"
    "}\n";
static const char canary_child[] = "variable \"fuzz_canary\" {\n"
                                   "  type    = any\n"
                                   "  default = null\n"
                                   "}\n"
                                   "module \"fuzz_canary_g\" {\n"
                                   "  source      = \"../g\"\n"
                                   "  fuzz_canary = var.fuzz_canary\n"
                                   "}\n";
static const char canary_grandchild[] = "variable \"fuzz_canary\" {\n"
                                        "  type    = any\n"
                                        "  default = null\n"
                                        "}\n";

/* FUZZ_TREE_SELFTEST set: the root's fuzz_canary is declared not
** sensitive, and the canary checked all the same, so that the target's
** own check is seen to fire (the suite's fuzz-tree-selftest). */
static bool selftest(void) { return getenv("FUZZ_TREE_SELFTEST") != NULL; }

static char canary[CANARY_LEN + 1];
/* The canary's forms searched for: as it is, upper-cased, base64, hex. */
static char forms[4][2 * CANARY_LEN + 1];

static void remove_tree(void) {
  char path[4200];
  for (size_t i = 0; all_files[i]; i++) {
    snprintf(path, sizeof path, "%s/%s", fuzz_dir_path, all_files[i]);
    unlink(path);
  }
  for (size_t i = 0; i < sizeof all_dirs / sizeof *all_dirs; i++) {
    snprintf(path, sizeof path, "%s/%s", fuzz_dir_path, all_dirs[i]);
    rmdir(path);
  }
}

static void make_forms(void) {
  static const char b64[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  static const char hex[] = "0123456789abcdef";
  const unsigned char *c = (const unsigned char *)canary;
  memcpy(forms[0], canary, CANARY_LEN);
  for (size_t i = 0; i < CANARY_LEN; i++) {
    forms[1][i] = (char)(c[i] >= 'a' && c[i] <= 'z' ? c[i] - 32 : c[i]);
    forms[3][2 * i] = hex[c[i] >> 4];
    forms[3][2 * i + 1] = hex[c[i] & 15];
  }
  /* base64 of the whole canary (its length is not a multiple of three:
  ** only the full groups, which any encoding of it starts with) */
  size_t o = 0;
  for (size_t i = 0; i + 3 <= CANARY_LEN; i += 3) {
    unsigned v = (unsigned)c[i] << 16 | (unsigned)c[i + 1] << 8 | c[i + 2];
    for (int k = 3; k >= 0; k--)
      forms[2][o++] = b64[(v >> (6 * k)) & 63];
  }
}

/* The scratch root module with the harness's files, made once: the
** canary is drawn then too. */
static const char *tree_dir(void) {
  static const char *dir;
  if (dir)
    return dir;
  dir = fuzz_scratch_dir("fuzztree", NULL);
  atexit(remove_tree);
  char path[4200];
  for (size_t i = 0; i < sizeof all_dirs / sizeof *all_dirs; i++) {
    snprintf(path, sizeof path, "%s/%s", dir,
             all_dirs[sizeof all_dirs / sizeof *all_dirs - 1 - i]);
    if (mkdir(path, 0700) != 0 && errno != EEXIST)
      abort();
  }
  char root[sizeof canary_root + 8];
  snprintf(root, sizeof root, canary_root, selftest() ? "false" : "true");
  fuzz_put_file(dir, "fuzz_canary.tf", root, strlen(root), true);
  fuzz_put_file(dir, "modules/a/fuzz_canary.tf", canary_child,
                strlen(canary_child), true);
  fuzz_put_file(dir, "modules/b/fuzz_canary.tf", canary_child,
                strlen(canary_child), true);
  fuzz_put_file(dir, "modules/g/fuzz_canary.tf", canary_grandchild,
                strlen(canary_grandchild), true);
  unsigned char rnd[CANARY_LEN];
  int fd = open("/dev/urandom", O_RDONLY);
  if (fd < 0 || read(fd, rnd, sizeof rnd) != (ssize_t)sizeof rnd)
    abort();
  close(fd);
  static const char alnum[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  memcpy(canary, "fzcanary", 8);
  for (size_t i = 8; i < CANARY_LEN; i++)
    canary[i] = alnum[rnd[i] % 36];
  make_forms();
  return dir;
}

/* Whether the n bytes at p hold one of the canary's forms.  Not memmem,
** and without coverage instrumentation: libFuzzer learns the operands of
** the comparisons it sees (memmem's needle, trace-cmp), and would write
** the canary into its inputs. */
#if defined(__clang__)
__attribute__((no_sanitize("coverage")))
#endif
static int
has_canary(const void *p, size_t n) {
  const char *s = p;
  for (size_t f = 0; f < sizeof forms / sizeof *forms; f++) {
    size_t m = strlen(forms[f]);
    for (size_t i = 0; m && i + m <= n; i++) {
      size_t k = 0;
      while (k < m && s[i + k] == forms[f][k])
        k++;
      if (k == m)
        return (int)f;
    }
  }
  return -1;
}

/* Abort when an output shows the canary in any of its forms (with
** FUZZ_TREE_ECHO set, every output goes to stderr first: to see what an
** input does). */
static void no_canary(const char *out, size_t n, bool check) {
  if (getenv("FUZZ_TREE_ECHO"))
    fwrite(out, 1, n, stderr);
  int form = check ? has_canary(out, n) : -1;
  if (form < 0)
    return;
  fprintf(stderr, "fuzz_tree: the sensitive canary (form %d) leaked:\n", form);
  fwrite(out, 1, n < 65536 ? n : 65536, stderr);
  abort();
}

/* What a run's flags are (the input's last byte). */
struct flags {
  bool opentofu, strict, show_sensitive, small_budget, unchecked_error,
      missing_info;
};

/* The library: resolve with the tree followed, render, check. */
static bool run_library(const char *dir, const char *var_arg, struct flags f,
                        bool check) {
  tfr_arena *a = tfr_arena_new();
  tfr_diags *diags = tfr_diags_new(a);
  static char *env[] = {NULL};
  struct tfr_cli_arg args[1] = {{.value = var_arg}};
  struct tfr_resolve_opts o = TFR_RESOLVE_OPTS_INIT;
  o.dir = dir;
  o.env = env;
  o.args = args;
  o.nargs = 1;
  o.tree = true;
  o.opentofu = f.opentofu;
  o.strict = f.strict;
  o.unchecked_error = f.unchecked_error;
  o.missing_required_info = f.missing_info;
  const struct tfr_resolution *res = tfr_resolve(a, diags, &o);
  if (!res && !tfr_diags_has_errors(diags))
    abort(); /* no resolution must be explained by an error */
  /* the input may declare fuzz_canary again, not sensitive: then its
  ** value is its to show */
  const struct tfr_variable *v =
      res ? tfr_resolution_find(res, "fuzz_canary") : NULL;
  check &= !v || v->sensitive || selftest();
  char *buf = NULL;
  size_t n = 0;
  FILE *out = open_memstream(&buf, &n);
  if (!out)
    abort();
  struct tfr_render_opts ropts = TFR_RENDER_OPTS_INIT;
  ropts.color = true;
  ropts.unicode = true;
  if (res)
    tfr_resolution_write_json(out, a, res, diags, false);
  tfr_diags_render_text(diags, out, &ropts);
  tfr_diags_render_json(diags, out);
  tfr_diags_render_short(diags, out);
  for (size_t i = 0; res && i < res->ninstances; i++) {
    const struct tfr_instance *in = tfr_resolution_instance(res, i);
    if (!in || !in->address)
      abort();
    for (size_t k = 0; k < in->n; k++) {
      const struct tfr_variable *iv = tfr_instance_variable(in, k);
      if (!iv || !iv->name)
        abort();
      tfr_diags_render_short(
          tfr_diags_of_instance(a, diags, iv->name, in->address), out);
    }
  }
  fclose(out);
  no_canary(buf, n, check);
  free(buf);
  if (res)
    tfr_resolution_write_json(fuzz_sink(), a, res, diags, true);
  tfr_arena_free(a);
  return check;
}

/* The CLI's command lines, one picked by the input's first byte. */
static const char *const commands[][3] = {{"show", NULL, NULL},
                                          {"show", "-json", NULL},
                                          {"show", "-format=yaml", NULL},
                                          {"show", "-format=tfvars", NULL},
                                          {"check", NULL, NULL},
                                          {"check", "-json", NULL},
                                          {"check", "-format=sarif", NULL},
                                          {"check", "-format=github", NULL},
                                          {"check", "-format=junit", NULL},
                                          {"explain", "-all", NULL},
                                          {"explain", "-all", "-json"}};

/* One CLI command in-process, its stdout and stderr captured (the FILE
** pointers, so that the sanitizers and libFuzzer still write to the real
** stderr). */
static void run_cli(const char *dir, const char *var_arg, struct flags f,
                    unsigned pick, bool check) {
  const char *const *cmd =
      commands[pick % (sizeof commands / sizeof *commands)];
  char *argv[16];
  int argc = 0;
  for (size_t i = 1; i < 3 && cmd[i]; i++)
    argv[argc++] = (char *)cmd[i];
  argv[argc++] = "-no-env";
  argv[argc++] = "-no-color";
  argv[argc++] = "-var";
  argv[argc++] = (char *)var_arg;
  if (f.opentofu)
    argv[argc++] = "-engine=opentofu";
  if (f.strict)
    argv[argc++] = "-strict";
  if (f.show_sensitive && strcmp(cmd[0], "explain"))
    argv[argc++] = "-show-sensitive";
  if (f.unchecked_error && strcmp(cmd[0], "explain"))
    argv[argc++] = "-unchecked=error";
  if (f.missing_info && strcmp(cmd[0], "explain"))
    argv[argc++] = "-missing-required=info";
  argv[argc++] = (char *)dir;
  argv[argc] = NULL;
  const struct cli_command *c = NULL;
  for (const struct cli_command *const *p = cli_commands; *p; p++)
    if (!strcmp((*p)->name, cmd[0]))
      c = *p;
  if (!c)
    abort();
  char *buf = NULL;
  size_t n = 0;
  FILE *cap = open_memstream(&buf, &n);
  if (!cap)
    abort();
  FILE *saved_out = stdout, *saved_err = stderr;
  stdout = cap;
  stderr = cap;
  struct cli_opts o = {0};
  int rc = cli_parse(c, argc, argv, &o);
  if (rc == 0)
    c->run(&o);
  cli_opts_free(&o);
  stdout = saved_out;
  stderr = saved_err;
  fclose(cap);
  if (rc != 0) { /* every command line above is a valid one */
    fwrite(buf, 1, n, stderr);
    abort();
  }
  no_canary(buf, n, check && !f.show_sensitive);
  free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *sec[NSECT];
  size_t len[NSECT];
  size_t nsec = fuzz_split(data, size, sec, len, NSECT);
  const char *dir = tree_dir();
  for (size_t i = 0; i < NSECT; i++)
    fuzz_put_file(dir, sect_files[i], i < nsec ? sec[i] : NULL,
                  i < nsec ? len[i] : 0, i < nsec);
  uint8_t last = size ? data[size - 1] : 0;
  struct flags f = {last & 1,   last & 2,  last & 4,
                    last & 128, last & 16, last & 32};
  tfr_set_memory_budget(f.small_budget ? (size_t)2 << 20 : (size_t)256 << 20);
  char var_arg[64];
  snprintf(var_arg, sizeof var_arg, "fuzz_canary=%s", canary);
  /* an input that holds the canary (learnt all the same) shows its own
  ** text */
  bool check =
      !memmem(data, size, "nonsensitive", 12) && has_canary(data, size) < 0;
  check = run_library(dir, var_arg, f, check);
  run_cli(dir, var_arg, f, size ? data[0] : 0, check);
  return 0;
}
