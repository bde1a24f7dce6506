/*
** Golden-file test runner.
**
**   run_golden TFRESOLVE parse DIR...
**   run_golden TFRESOLVE eval FILE.test...
**   run_golden TFRESOLVE cases DIR...
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
**
** An eval test file is a list of records.  A line "%% NAME" starts a
** section; "%% expr" starts a new record and holds the expression (any
** number of lines), "%% type" an optional type constraint, "%% json" the
** expected output of `eval -json` and "%% console" the expected output of
** `eval` (Terraform console style, or the diagnostics), "%% yaml" that
** of `eval -format=yaml`, "%% args" more arguments (one per line, passed
** before the expression; the section may come before or after "%% expr").  Files named funcs_*.test run with -functions.
** Commands run in the directory of the test file.  Lines before the
** first section and lines starting with "#" right after "%%" are comments.
**
** A "cases" directory holds one directory per case: the module files,
** `args` (one command-line argument per line; the first is the command,
** default "show"; the JSON run adds -show-sensitive unless the case has a
** file named hide-sensitive), `env` (NAME=VALUE lines; the environment is otherwise
** empty but for PATH and LANG) and the expected `expected.json` (output
** of the command with -json), `expected.txt` (human output, -no-color)
** and `expected.rc` (exit status; default 0).  The command runs in the
** case directory.
** Prints PASS/FAIL per case and "N passed, M failed"; exits 1 on failure.
*/
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

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

/* ---- eval tests -------------------------------------------------------- */

/*
** Run argv (no shell) in dir (NULL: here) with envp (NULL: ours); its
** stdout, and stderr too unless stderr_too is false (then it is dropped),
** and its exit status.
*/
static char *spawn(char *const *argv, char *const *envp, const char *dir,
                   bool stderr_too, int *status, size_t *len) {
  int fd[2];
  if (pipe(fd) != 0)
    return NULL;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd[1], 1);
    if (stderr_too) {
      dup2(fd[1], 2);
    } else {
      int null = open("/dev/null", O_WRONLY);
      dup2(null, 2);
    }
    close(fd[0]);
    close(fd[1]);
    if (dir && chdir(dir) != 0)
      _exit(126);
    if (envp)
      execve(argv[0], argv, envp);
    else
      execv(argv[0], argv);
    _exit(127);
  }
  close(fd[1]);
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  ssize_t r;
  while ((r = read(fd[0], buf + n, cap - n - 1)) > 0) {
    n += (size_t)r;
    if (n + 1 >= cap)
      buf = realloc(buf, cap *= 2);
  }
  close(fd[0]);
  int st;
  waitpid(pid, &st, 0);
  *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  buf[n] = '\0';
  *len = n;
  return buf;
}

static char *run_argv(char *const *argv, const char *dir, size_t *len) {
  int st;
  return spawn(argv, NULL, dir, true, &st, len);
}

struct record {
  char *expr, *type, *json, *console, *yaml, *args;
  int line;
};

/* Sections end at the next "%%" line: drop the newlines (blank lines
** between records included) at their end. */
static void chomp(char *s) {
  size_t n = s ? strlen(s) : 0;
  while (n && s[n - 1] == '\n')
    s[--n] = '\0';
}

enum mode { M_JSON, M_CONSOLE, M_YAML };

static bool eval_compare(const char *tool, const char *file,
                         const struct record *r, enum mode m) {
  bool json = m == M_JSON;
  const char *want = m == M_JSON ? r->json : m == M_YAML ? r->yaml
                                                         : r->console;
  if (!want)
    return true;
  char typearg[4096];
  char *args[40];
  int k = 0;
  args[k++] = (char *)tool;
  args[k++] = "eval";
  if (json)
    args[k++] = "-json";
  if (m == M_YAML)
    args[k++] = "-format=yaml";
  args[k++] = "-no-color";
  /* funcs_*.test files test the function library */
  const char *base = strrchr(file, '/');
  if (!strncmp(base ? base + 1 : file, "funcs_", 6))
    args[k++] = "-functions";
  if (r->type) {
    snprintf(typearg, sizeof typearg, "-type=%s", r->type);
    args[k++] = typearg;
  }
  /* "%% args": more arguments, one per line */
  char *extra = r->args ? strdup(r->args) : NULL;
  for (char *p = extra, *nl; p && *p && k < 37; p = nl + 1) {
    nl = strchr(p, '\n');
    if (!nl)
      nl = p + strlen(p) - 1;
    else
      *nl = '\0';
    args[k++] = p;
  }
  args[k++] = r->expr;
  args[k] = NULL;
  /* commands run in the directory of the test file (for file functions) */
  char *dir = strdup(file);
  char *slash = strrchr(dir, '/');
  if (slash)
    *slash = '\0';
  size_t n;
  char *out = run_argv(args, slash ? dir : NULL, &n);
  free(dir);
  free(extra);
  if (out && n && out[n - 1] == '\n')
    out[--n] = '\0';
  bool ok = out && strcmp(out, want) == 0;
  if (!ok)
    printf("FAIL %s:%d (%s)\n--- expression\n%s\n--- expected\n%s\n"
           "--- actual\n%s\n---\n",
           file, r->line, json ? "json" : m == M_YAML ? "yaml" : "console",
           r->expr, want,
           out ? out : "");
  free(out);
  return ok;
}

static void eval_file(const char *tool, const char *file) {
  size_t len;
  char *text = slurp(file, &len);
  if (!text) {
    printf("FAIL %s: cannot read\n", file);
    failed++;
    return;
  }
  struct record r = {0};
  char **section = NULL, *pending = NULL;
  int lineno = 0;
  char *next = text;
  /* Records are flushed when the next one starts, and at the end.  Lines
  ** are split by hand: blank lines matter in expected output. */
  for (;;) {
    char *line = next;
    if (line && *line == '\0' && line == text + len)
      line = NULL;
    if (line) {
      char *nl = strchr(line, '\n');
      if (nl) {
        *nl = '\0';
        next = nl + 1;
      } else {
        next = text + len;
      }
    }
    lineno++;
    bool head = line && strncmp(line, "%%", 2) == 0;
    if (!line || (head && strncmp(line, "%% expr", 7) == 0)) {
      if (r.expr) {
        chomp(r.expr);
        chomp(r.type);
        chomp(r.json);
        chomp(r.console);
        chomp(r.yaml);
        chomp(r.args);
        /* every section is compared (and reported), even after a failure */
        int ok = eval_compare(tool, file, &r, M_JSON);
        ok &= eval_compare(tool, file, &r, M_CONSOLE);
        ok &= eval_compare(tool, file, &r, M_YAML);
        if (ok)
          passed++;
        else
          failed++;
      }
      free(r.expr);
      free(r.type);
      free(r.json);
      free(r.console);
      free(r.yaml);
      free(r.args);
      memset(&r, 0, sizeof r);
      r.args = pending; /* "%% args" written before "%% expr" */
      pending = NULL;
      r.line = lineno;
      if (!line)
        break;
    }
    if (head) {
      const char *name = line + 2;
      while (*name == ' ')
        name++;
      section = !strcmp(name, "expr")      ? &r.expr
                : !strcmp(name, "type")    ? &r.type
                : !strcmp(name, "json")    ? &r.json
                : !strcmp(name, "console") ? &r.console
                : !strcmp(name, "yaml")    ? &r.yaml
                : !strcmp(name, "args")    ? &r.args
                                           : NULL;
      /* args after a record's expected output are the next record's */
      if (section == &r.args && (r.json || r.console || r.yaml))
        section = &pending;
      continue;
    }
    if (!section)
      continue;
    size_t have = *section ? strlen(*section) : 0, add = strlen(line);
    *section = realloc(*section, have + add + 2);
    memcpy(*section + have, line, add);
    (*section)[have + add] = '\n';
    (*section)[have + add + 1] = '\0';
  }
  free(pending);
  free(text);
}

/* ---- module cases ------------------------------------------------------ */

static char **read_lines(const char *path, size_t *n) {
  size_t len;
  char *text = slurp(path, &len);
  *n = 0;
  if (!text)
    return NULL;
  char **v = calloc(len + 2, sizeof *v);
  for (char *p = text; *p;) {
    char *nl = strchr(p, '\n');
    if (nl)
      *nl = '\0';
    if (*p)
      v[(*n)++] = strdup(p);
    if (!nl)
      break;
    p = nl + 1;
  }
  free(text);
  return v;
}

/* Run the case's command in dir with its environment; out and status. */
static char *run_case(const char *tool, const char *dir, char **args,
                      size_t nargs, char **env, size_t nenv, bool json,
                      int *status, size_t *len) {
  char *argv[256], *envp[256];
  size_t k = 0, e = 0;
  argv[k++] = (char *)tool;
  argv[k++] = nargs ? args[0] : "show";
  argv[k++] = json ? "-json" : "-no-color";
  char marker[8192];
  snprintf(marker, sizeof marker, "%.4000s/hide-sensitive", dir);
  if (json && !exists(marker)) /* a hide-sensitive file keeps them hidden */
    argv[k++] = "-show-sensitive";
  for (size_t i = 1; i < nargs && k < 250; i++)
    argv[k++] = args[i];
  argv[k] = NULL;
  static char path[4096], lang[] = "LANG=C.UTF-8";
  snprintf(path, sizeof path, "PATH=%s", getenv("PATH") ? getenv("PATH") : "");
  envp[e++] = path;
  envp[e++] = lang;
  for (size_t i = 0; i < nenv && e < 250; i++)
    envp[e++] = env[i];
  envp[e] = NULL;
  return spawn(argv, envp, dir, !json, status, len);
}

static void module_case(const char *tool, const char *dir) {
  char path[8192];
  size_t nargs = 0, nenv = 0, n;
  snprintf(path, sizeof path, "%.4000s/args", dir);
  char **args = read_lines(path, &nargs);
  snprintf(path, sizeof path, "%.4000s/env", dir);
  char **env = read_lines(path, &nenv);
  snprintf(path, sizeof path, "%.4000s/expected.rc", dir);
  size_t rclen;
  char *rctext = slurp(path, &rclen);
  int want_rc = rctext ? atoi(rctext) : 0;
  free(rctext);
  bool ok = true;
  int st = 0;
  for (int json = 1; json >= 0; json--) {
    snprintf(path, sizeof path, "%.4000s/expected.%s", dir,
             json ? "json" : "txt");
    /* UPDATE=1 creates expected.json only for cases that have no
    ** expected.txt of their own (a -format=... case is text only) */
    char txt[8192];
    snprintf(txt, sizeof txt, "%.4000s/expected.txt", dir);
    if (!exists(path) && !(update && json && !exists(txt)))
      continue;
    char *out = run_case(tool, dir, args, nargs, env, nenv, json, &st, &n);
    ok &= check_output(dir, path, out ? out : "", out ? n : 0);
    free(out);
    if (st != want_rc) {
      if (update) {
        snprintf(path, sizeof path, "%.4000s/expected.rc", dir);
        char rc[16];
        int k = snprintf(rc, sizeof rc, "%d\n", st);
        write_file(path, rc, (size_t)k);
        want_rc = st;
      } else {
        printf("FAIL %s: exit status %d, expected %d\n", dir, st, want_rc);
        ok = false;
      }
    }
  }
  for (size_t i = 0; i < nargs; i++)
    free(args[i]);
  for (size_t i = 0; i < nenv; i++)
    free(env[i]);
  free(args);
  free(env);
  if (ok) {
    passed++;
    printf("PASS %s\n", dir);
  } else {
    failed++;
  }
}

static void cases_dir(const char *tool, const char *dir) {
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
    if (e->d_name[0] == '.')
      continue;
    names = realloc(names, (n + 1) * sizeof *names);
    names[n++] = strdup(e->d_name);
  }
  closedir(d);
  if (n)
    qsort(names, n, sizeof *names, cmp);
  for (size_t i = 0; i < n; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%.2000s/%.2000s", dir, names[i]);
    module_case(tool, path);
    free(names[i]);
  }
  free(names);
}

int main(int argc, char **argv) {
  if (argc < 4 || (strcmp(argv[2], "parse") && strcmp(argv[2], "eval") &&
                   strcmp(argv[2], "cases"))) {
    fprintf(stderr, "usage: run_golden TFRESOLVE parse DIR...\n"
                    "       run_golden TFRESOLVE eval FILE.test...\n"
                    "       run_golden TFRESOLVE cases DIR...\n");
    return 2;
  }
  const char *u = getenv("UPDATE");
  update = u && *u && strcmp(u, "0") != 0;
  for (int i = 3; i < argc; i++) {
    if (!strcmp(argv[2], "eval"))
      eval_file(argv[1], argv[i]);
    else if (!strcmp(argv[2], "cases"))
      cases_dir(argv[1], argv[i]);
    else
      parse_dir(argv[1], argv[i]);
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
