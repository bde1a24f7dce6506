/*
** Golden-file test runner.
**
**   run_golden TFRESOLVE parse DIR...
**
** Every configuration file NAME in each DIR (.tf, .tf.json, .tfvars,
** .tfvars.json, .tofu) is a case:
**   NAME.expected  output of `parse -format=short NAME` (diagnostics, one
**                  per line; empty when the file is valid).  The exit
**                  status must be 1 when it names an error, else 0.
**   NAME.ast       (optional) output of `parse -ast NAME`.
**   NAME.txt       (optional) output of `parse -no-color NAME`, the
**                  Terraform-style framed diagnostics.
** Commands run in DIR with the file's bare name.  UPDATE=1 rewrites the
** expected files from the actual output instead of comparing.
** Prints PASS/FAIL per case and "N passed, M failed"; exits 1 on failure.
*/
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static int passed, failed;
static bool update;

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  size_t k;
  while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
    n += k;
    if (n == cap)
      buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  if (buf)
    buf[n < cap ? n : cap - 1] = '\0';
  *len = n;
  return buf;
}

/* Run a shell command; its stdout+stderr and exit status. */
static char *run(const char *cmd, int *status, size_t *len) {
  FILE *p = popen(cmd, "r");
  if (!p) {
    *status = -1;
    return NULL;
  }
  size_t cap = 4096, n = 0, k;
  char *buf = malloc(cap);
  while ((k = fread(buf + n, 1, cap - n - 1, p)) > 0) {
    n += k;
    if (n + 1 >= cap)
      buf = realloc(buf, cap *= 2);
  }
  buf[n] = '\0';
  int st = pclose(p);
  *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  *len = n;
  return buf;
}

static bool write_file(const char *path, const char *s, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return false;
  fwrite(s, 1, n, f);
  return fclose(f) == 0;
}

/* Compare one command's output with an expected file (or rewrite it). */
static bool check_output(const char *label, const char *exp_path,
                         const char *out, size_t n) {
  if (update)
    return write_file(exp_path, out, n);
  size_t elen;
  char *exp = slurp(exp_path, &elen);
  bool ok = exp && elen == n && memcmp(exp, out, n) == 0;
  if (!ok) {
    printf("FAIL %s (%s)\n--- expected\n%s--- actual\n%s---\n", label,
           exp_path, exp ? exp : "(missing)\n", out);
  }
  free(exp);
  return ok;
}

static bool exists(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f)
    fclose(f);
  return f != NULL;
}

static bool is_case(const char *name) {
  static const char *const exts[] = {".tf", ".tf.json", ".tfvars",
                                     ".tfvars.json", ".tofu", ".tofu.json"};
  size_t n = strlen(name);
  for (size_t i = 0; i < sizeof exts / sizeof *exts; i++) {
    size_t k = strlen(exts[i]);
    if (n > k && strcmp(name + n - k, exts[i]) == 0)
      return true;
  }
  return false;
}

static void parse_case(const char *tool, const char *dir, const char *name) {
  char cmd[4096], path[4096], label[2048];
  int st;
  size_t n;
  bool ok = true;
  snprintf(label, sizeof label, "%s/%s", dir, name);

  snprintf(cmd, sizeof cmd,
           "cd '%s' && '%s' parse -format=short '%s' 2>&1", dir, tool, name);
  char *out = run(cmd, &st, &n);
  snprintf(path, sizeof path, "%s/%s.expected", dir, name);
  ok &= check_output(label, path, out ? out : "", out ? n : 0);
  bool has_error = out && strstr(out, ": error: ") != NULL;
  if (st != (has_error ? 1 : 0)) {
    printf("FAIL %s: exit status %d, expected %d\n", label, st,
           has_error ? 1 : 0);
    ok = false;
  }
  free(out);

  static const struct {
    const char *ext, *args;
  } extra[] = {{"ast", "-ast"}, {"txt", "-no-color"}};
  for (size_t i = 0; i < 2; i++) {
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, extra[i].ext);
    if (!exists(path))
      continue;
    snprintf(cmd, sizeof cmd, "cd '%s' && LANG=C.UTF-8 '%s' parse %s '%s' 2>&1",
             dir, tool, extra[i].args, name);
    out = run(cmd, &st, &n);
    ok &= check_output(label, path, out ? out : "", out ? n : 0);
    free(out);
  }
  if (ok) {
    passed++;
    printf("PASS %s\n", label);
  } else {
    failed++;
  }
}

static int cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void parse_dir(const char *tool, const char *dir) {
  DIR *d = opendir(dir);
  if (!d) {
    printf("FAIL %s: cannot open directory\n", dir);
    failed++;
    return;
  }
  char **names = NULL;
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (!is_case(e->d_name))
      continue;
    names = realloc(names, (n + 1) * sizeof *names);
    names[n++] = strdup(e->d_name);
  }
  closedir(d);
  if (n)
    qsort(names, n, sizeof *names, cmp);
  for (size_t i = 0; i < n; i++) {
    parse_case(tool, dir, names[i]);
    free(names[i]);
  }
  free(names);
}

int main(int argc, char **argv) {
  if (argc < 4 || strcmp(argv[2], "parse") != 0) {
    fprintf(stderr, "usage: run_golden TFRESOLVE parse DIR...\n");
    return 2;
  }
  const char *u = getenv("UPDATE");
  update = u && *u && strcmp(u, "0") != 0;
  for (int i = 3; i < argc; i++)
    parse_dir(argv[1], argv[i]);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
