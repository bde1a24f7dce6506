/*
** Golden-file test runner.
**
**   run_golden TFRESOLVE parse DIR...
**   run_golden TFRESOLVE eval FILE.test...
**   run_golden TFRESOLVE cases [-shard=K/N] DIR...
**
** Every configuration file NAME in each DIR (.tf, .tf.json, .tfvars,
** .tfvars.json, .tofu) is a case:
**   NAME.expected  output of `parse -format=short NAME` (diagnostics, one
**                  per line; empty when the file is valid).  The exit
**                  status must be 1 when it names an error, else 0.
**   NAME.ast       (optional) output of `parse -ast NAME`.
**   NAME.txt       (optional) output of `parse -no-color NAME`, the
**                  diagnostics as Terraform draws them with -no-color.
** Commands run in DIR with the file's bare name.  UPDATE=1 rewrites the
** expected files from the actual output instead of comparing.
**
** An eval test file is a list of records.  A line "%% NAME" starts a
** section; "%% expr" starts a new record and holds the expression (any
** number of lines), "%% type" an optional type constraint, "%% json" the
** expected output of `eval -json` and "%% console" the expected output of
** `eval` (Terraform console style, or the diagnostics), "%% yaml" that
** of `eval -format=yaml`, "%% args" more arguments (one per line, passed
** before the expression; the section may come before or after "%% expr"). Files
*named funcs_*.test run with -functions.
** Commands run in the directory of the test file.  Lines before the
** first section and lines starting with "#" right after "%%" are comments.
**
** A "cases" directory holds one directory per case: the module files,
** `args` (one command-line argument per line; the first is the command,
** default "show", after any global -chdir=DIR; the JSON run adds
*-show-sensitive unless the case has a
** file named hide-sensitive), `env` (NAME=VALUE lines; the environment is
*otherwise
** empty but for PATH and LANG) and the expected `expected.json` (output
** of the command with -json), `expected.txt` (human output, -no-color;
** without it when `env` sets NO_COLOR: the framed drawing)
** and `expected.rc` (exit status; default 0); an optional `stdin` is
** the command's standard input (a console's expressions).  The command
** runs in the case directory.
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
    printf("FAIL %s (%s)\n--- expected\n%s--- actual\n%s---\n", label, exp_path,
           exp ? exp : "(missing)\n", out);
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
  static const char *const exts[] = {".tf",          ".tf.json", ".tfvars",
                                     ".tfvars.json", ".tofu",    ".tofu.json"};
  size_t n = strlen(name);
  for (size_t i = 0; i < sizeof exts / sizeof *exts; i++) {
    size_t k = strlen(exts[i]);
    if (n > k && strcmp(name + n - k, exts[i]) == 0)
      return true;
  }
  return false;
}

static int cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *spawn(char *const *argv, char *const *envp, const char *dir,
                   bool stderr_too, int *status, size_t *len);
static const char *spawn_stdin; /* the next spawn's standard input, or NULL */
static char **child_env(char *const *extra);
static void free_env(char **envp);

/* Run `TOOL parse ARG NAME...` in dir with our child environment. */
static char *run_parse(const char *tool, const char *dir, const char *arg,
                       char **names, size_t n, int *st, size_t *len) {
  char **argv = calloc(n + 5, sizeof *argv);
  size_t k = 0;
  argv[k++] = (char *)tool;
  argv[k++] = "parse";
  argv[k++] = (char *)arg;
  for (size_t i = 0; i < n; i++)
    argv[k++] = names[i];
  argv[k] = NULL;
  char **envp = child_env(NULL);
  char *out = spawn(argv, envp, dir, true, st, len);
  free_env(envp);
  free(argv);
  return out;
}

/* Which of names[0..n) the short diagnostic line names: the longest name
** followed by ':' at its start; -1 if none. */
static long line_owner(const char *line, char **names, size_t n) {
  long best = -1;
  size_t blen = 0;
  for (size_t i = 0; i < n; i++) {
    size_t k = strlen(names[i]);
    if (k > blen && !strncmp(line, names[i], k) && line[k] == ':') {
      best = (long)i;
      blen = k;
    }
  }
  return best;
}

/*
** The cases of one directory.  The short diagnostics of all its files
** come from one `parse -format=short` run (each line names its file);
** the optional .ast and .txt outputs from one run per file, whose exit
** status must be 1 exactly when the file has an error.
*/
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
  if (!n) {
    printf("FAIL %s: no cases\n", dir);
    failed++;
    return;
  }
  qsort(names, n, sizeof *names, cmp);

  int st;
  size_t len;
  char *out = run_parse(tool, dir, "-format=short", names, n, &st, &len);
  char **got = calloc(n, sizeof *got);
  size_t *glen = calloc(n, sizeof *glen);
  bool any_error = false, stray = false;
  for (char *p = out ? out : "", *nl; *p; p = nl + 1) {
    nl = strchr(p, '\n');
    if (!nl)
      nl = p + strlen(p) - 1;
    size_t k = (size_t)(nl - p) + 1;
    long i = line_owner(p, names, n);
    if (i < 0) {
      printf("FAIL %s: a line of `parse -format=short` names no case: "
             "%.*s\n",
             dir, (int)k, p);
      stray = true;
      continue;
    }
    got[i] = realloc(got[i], glen[i] + k + 1);
    memcpy(got[i] + glen[i], p, k);
    glen[i] += k;
    got[i][glen[i]] = '\0';
    any_error |= strstr(got[i], ": error: ") != NULL;
  }
  free(out);
  if (stray || st != (any_error ? 1 : 0)) {
    printf("FAIL %s: parse of every case: exit status %d, expected %d\n", dir,
           st, any_error ? 1 : 0);
    failed++;
  }

  char path[4096], label[2048];
  for (size_t i = 0; i < n; i++) {
    snprintf(label, sizeof label, "%s/%s", dir, names[i]);
    snprintf(path, sizeof path, "%s/%s.expected", dir, names[i]);
    bool ok = check_output(label, path, got[i] ? got[i] : "", glen[i]);
    bool has_error = got[i] && strstr(got[i], ": error: ") != NULL;
    static const struct {
      const char *ext, *args;
    } extra[] = {{"ast", "-ast"}, {"txt", "-no-color"}};
    for (size_t x = 0; x < 2; x++) {
      snprintf(path, sizeof path, "%s/%s.%s", dir, names[i], extra[x].ext);
      if (!exists(path))
        continue;
      char *o = run_parse(tool, dir, extra[x].args, names + i, 1, &st, &len);
      ok &= check_output(label, path, o ? o : "", o ? len : 0);
      free(o);
      if (st != (has_error ? 1 : 0)) {
        printf("FAIL %s: parse %s: exit status %d, expected %d\n", label,
               extra[x].args, st, has_error ? 1 : 0);
        ok = false;
      }
    }
    if (ok) {
      passed++;
      printf("PASS %s\n", label);
    } else {
      failed++;
    }
    free(got[i]);
    free(names[i]);
  }
  free(got);
  free(glen);
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
    if (spawn_stdin) {
      int in = open(spawn_stdin, O_RDONLY);
      if (in < 0)
        _exit(126);
      dup2(in, 0);
      close(in);
    }
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

/*
** The environment of the commands: PATH, LANG=C.UTF-8 (diagnostics are
** framed with Unicode lines) and the sanitizers' options; nothing else
** of ours (a TF_VAR_ of the developer's would reach -functions), then
** extra[] (NULL-terminated, may be NULL).
*/
static char **child_env(char *const *extra) {
  static const char *const keep[] = {"PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS",
                                     "LSAN_OPTIONS"};
  size_t nextra = 0;
  while (extra && extra[nextra])
    nextra++;
  char **envp = calloc(nextra + 8, sizeof *envp);
  size_t e = 0;
  for (size_t i = 0; i < sizeof keep / sizeof *keep; i++) {
    const char *v = getenv(keep[i]);
    if (!v)
      continue;
    size_t n = strlen(keep[i]) + strlen(v) + 2;
    envp[e] = malloc(n);
    snprintf(envp[e++], n, "%s=%s", keep[i], v);
  }
  envp[e++] = strdup("LANG=C.UTF-8");
  for (size_t i = 0; i < nextra; i++)
    envp[e++] = strdup(extra[i]);
  envp[e] = NULL;
  return envp;
}

static void free_env(char **envp) {
  for (size_t i = 0; envp[i]; i++)
    free(envp[i]);
  free(envp);
}

/*
** Records run many to a process: the records of a file that share a mode
** (json, console, yaml), a type and extra arguments are the operands of
** one `eval`, each followed by MARK_EXPR.  That expression fails in every
** mode, whatever the type, with a message that names MARK: in json mode
** its line, otherwise its plain diagnostic (a blank line, "Error: ", ...,
** the detail naming MARK), is the boundary after a record.  What comes
** before the first boundary (the module's diagnostics under -functions)
** is what a run of that record alone would print first, so it is put
** before each record's output.
*/
#define MARK "golden_record_end"
#define MARK_EXPR "{}." MARK
#define CHUNK 1000 /* records per process at most */

struct record {
  char *expr, *type, *json, *console, *yaml, *args;
  int line;
  bool failed;
};

/* Sections end at the next "%%" line: drop the newlines (blank lines
** between records included) at their end. */
static void chomp(char *s) {
  size_t n = s ? strlen(s) : 0;
  while (n && s[n - 1] == '\n')
    s[--n] = '\0';
}

enum mode { M_JSON, M_CONSOLE, M_YAML };
static const char *const mode_name[] = {"json", "console", "yaml"};

static const char *want_of(const struct record *r, enum mode m) {
  return m == M_JSON ? r->json : m == M_YAML ? r->yaml : r->console;
}

static bool same(const char *a, const char *b) {
  return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The line of buf that holds position p: [*start, *end), end past '\n'. */
static void line_at(const char *buf, size_t n, size_t p, size_t *start,
                    size_t *end) {
  size_t s = p, e = p;
  while (s > 0 && buf[s - 1] != '\n')
    s--;
  while (e < n && buf[e] != '\n')
    e++;
  *start = s;
  *end = e < n ? e + 1 : n;
}

/* The next boundary at or after from: [*bs, *be); false if none. */
static bool next_boundary(const char *buf, size_t n, size_t from, enum mode m,
                          size_t *bs, size_t *be) {
  const char *hit = from < n ? strstr(buf + from, MARK) : NULL;
  if (!hit)
    return false;
  line_at(buf, n, (size_t)(hit - buf), bs, be);
  if (m == M_JSON)
    return true;
  /* the plain diagnostic around it (-no-color: Terraform's
  ** DiagnosticPlain): back to its "Error: " line and the blank line before
  ** that, on to the line of its detail, which names MARK again */
  while (*bs > from && strncmp(buf + *bs, "Error: ", 7) != 0) {
    size_t s, e;
    line_at(buf, n, *bs - 1, &s, &e);
    *bs = s;
  }
  if (*bs > from && (*bs - 1 == from || buf[*bs - 2] == '\n'))
    (*bs)--; /* that blank line */
  const char *again = strstr(buf + *be, MARK);
  const char *next = strstr(buf + *be, "\nError: ");
  if (again && (!next || next > again)) {
    size_t s;
    line_at(buf, n, (size_t)(again - buf), &s, be);
  }
  return true;
}

/* Compare one record's output with what it wants; report a failure. */
static void eval_verdict(const char *file, struct record *r, enum mode m,
                         const char *pre, size_t npre, const char *out,
                         size_t n) {
  if (m == M_YAML && n >= 4 && !strncmp(out, "---\n", 4)) {
    out += 4; /* the document separator of a value after the first */
    n -= 4;
  }
  size_t len = npre + n;
  char *got = malloc(len + 1);
  memcpy(got, pre, npre);
  memcpy(got + npre, out, n);
  got[len] = '\0';
  while (len && got[len - 1] == '\n') /* as chomp does to the record */
    got[--len] = '\0';
  const char *want = want_of(r, m);
  if (strcmp(got, want) != 0) {
    printf("FAIL %s:%d (%s)\n--- expression\n%s\n--- expected\n%s\n"
           "--- actual\n%s\n---\n",
           file, r->line, mode_name[m], r->expr, want, got);
    r->failed = true;
  }
  free(got);
}

/* Run records g[0..k) (same mode, type and arguments) in one process. */
static void eval_group(const char *tool, const char *file, struct record **g,
                       size_t k, enum mode m) {
  const struct record *r0 = g[0];
  size_t cap = 2 * k + 48;
  char **args = calloc(cap, sizeof *args);
  char typearg[4096];
  size_t a = 0;
  args[a++] = (char *)tool;
  args[a++] = "eval";
  if (m != M_CONSOLE)
    args[a++] = m == M_JSON ? "-json" : "-format=yaml";
  args[a++] = "-no-color";
  /* funcs_*.test files test the function library */
  const char *base = strrchr(file, '/');
  if (!strncmp(base ? base + 1 : file, "funcs_", 6))
    args[a++] = "-functions";
  if (r0->type) {
    snprintf(typearg, sizeof typearg, "-type=%s", r0->type);
    args[a++] = typearg;
  }
  /* "%% args": more arguments, one per line */
  char *extra = r0->args ? strdup(r0->args) : NULL;
  for (char *p = extra, *nl; p && *p && a < 40; p = nl + 1) {
    nl = strchr(p, '\n');
    if (nl)
      *nl = '\0';
    args[a++] = p;
    if (!nl)
      break;
  }
  args[a++] = "--";
  args[a++] = MARK_EXPR;
  for (size_t i = 0; i < k; i++) {
    args[a++] = g[i]->expr;
    args[a++] = MARK_EXPR;
  }
  args[a] = NULL;
  /* commands run in the directory of the test file (for file functions) */
  char *dir = strdup(file);
  char *slash = strrchr(dir, '/');
  if (slash)
    *slash = '\0';
  /* a home of no one's, for pathexpand("~") */
  char *home[] = {"HOME=/home/tfresolve-golden", NULL};
  char **envp = child_env(home);
  int st;
  size_t n;
  char *out = spawn(args, envp, slash ? dir : NULL, true, &st, &n);
  free_env(envp);
  free(dir);
  free(extra);
  free(args);
  if (!out)
    out = strdup("");

  size_t bs, be, pos;
  const char *pre = out;
  size_t npre = 0;
  if (next_boundary(out, n, 0, m, &bs, &be)) {
    npre = bs;
    pos = be;
  } else {
    pos = n; /* not even the first boundary: the whole output is news */
  }
  size_t i = 0;
  for (; i < k && next_boundary(out, n, pos, m, &bs, &be); i++) {
    eval_verdict(file, g[i], m, pre, npre, out + pos, bs - pos);
    pos = be;
  }
  if (i < k || pos < n || st != 1) {
    /* the process ended early (a crash, a sanitizer's report) or wrote
    ** more than its records: the rest of the output goes to the first
    ** record without a verdict (or to the last one) */
    struct record *r = g[i < k ? i : k - 1];
    printf("FAIL %s:%d (%s): %zu of %zu records of this run came back, "
           "exit status %d (1 expected)\n--- output after the last record\n"
           "%s\n---\n",
           file, r->line, mode_name[m], i, k, st, out + (pos < n ? pos : n));
    for (size_t j = i; j < k; j++)
      g[j]->failed = true;
    r->failed = true;
  }
  free(out);
}

static void free_record(struct record *r) {
  free(r->expr);
  free(r->type);
  free(r->json);
  free(r->console);
  free(r->yaml);
  free(r->args);
}

/* The records of a test file. */
static struct record *read_records(char *text, size_t len, size_t *count) {
  struct record *v = NULL, r = {0};
  size_t nv = 0;
  char **section = NULL, *pending = NULL;
  int lineno = 0;
  char *next = text;
  /* Records are kept when the next one starts, and at the end.  Lines
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
        v = realloc(v, (nv + 1) * sizeof *v);
        v[nv++] = r;
      } else {
        free_record(&r);
      }
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
  *count = nv;
  return v;
}

static void eval_file(const char *tool, const char *file) {
  size_t len;
  char *text = slurp(file, &len);
  if (!text) {
    printf("FAIL %s: cannot read\n", file);
    failed++;
    return;
  }
  size_t nrec;
  struct record *recs = read_records(text, len, &nrec);
  free(text);
  /* every section is compared (and reported), even after a failure */
  struct record **g = calloc(nrec + 1, sizeof *g);
  bool *done = calloc(nrec + 1, sizeof *done);
  for (int m = M_JSON; m <= M_YAML; m++) {
    memset(done, 0, nrec * sizeof *done);
    for (size_t i = 0; i < nrec; i++) {
      if (done[i] || !want_of(&recs[i], (enum mode)m))
        continue;
      size_t k = 0;
      for (size_t j = i; j < nrec && k < CHUNK; j++) {
        if (done[j] || !want_of(&recs[j], (enum mode)m) ||
            !same(recs[j].type, recs[i].type) ||
            !same(recs[j].args, recs[i].args))
          continue;
        done[j] = true;
        g[k++] = &recs[j];
      }
      eval_group(tool, file, g, k, (enum mode)m);
    }
  }
  for (size_t i = 0; i < nrec; i++) {
    if (recs[i].failed)
      failed++;
    else
      passed++;
    free_record(&recs[i]);
  }
  free(recs);
  free(g);
  free(done);
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
  char *argv[256];
  size_t k = 0;
  argv[k++] = (char *)tool;
  /* global options (-chdir=DIR) come before the command */
  size_t cmd = 0;
  while (cmd < nargs && !strncmp(args[cmd], "-chdir=", 7) && k < 250)
    argv[k++] = args[cmd++];
  argv[k++] = cmd < nargs ? args[cmd] : "show";
  /* an env that sets NO_COLOR turns colour off without -no-color: the
  ** case pins the framed drawing */
  bool no_color_env = false;
  for (size_t i = 0; i < nenv; i++)
    no_color_env |= !strncmp(env[i], "NO_COLOR=", 9);
  if (json || !no_color_env)
    argv[k++] = json ? "-json" : "-no-color";
  char marker[8192];
  snprintf(marker, sizeof marker, "%.4000s/hide-sensitive", dir);
  if (json && !exists(marker)) /* a hide-sensitive file keeps them hidden */
    argv[k++] = "-show-sensitive";
  for (size_t i = cmd + 1; i < nargs && k < 250; i++)
    argv[k++] = args[i];
  argv[k] = NULL;
  char *extra[256];
  size_t e = 0;
  for (size_t i = 0; i < nenv && e < 250; i++)
    extra[e++] = env[i];
  extra[e] = NULL;
  char **envp = child_env(extra);
  char in[8192];
  snprintf(in, sizeof in, "%.4000s/stdin", dir);
  spawn_stdin = exists(in) ? in : NULL; /* what a console case reads */
  char *out = spawn(argv, envp, dir, !json, status, len);
  spawn_stdin = NULL;
  free_env(envp);
  return out;
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

/* -shard=K/N: only every Nth case directory, from the Kth (from 1). */
static unsigned shard_k = 1, shard_n = 1;

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
    if (i % shard_n == shard_k - 1)
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
                    "       run_golden TFRESOLVE cases [-shard=K/N] DIR...\n");
    return 2;
  }
  const char *u = getenv("UPDATE");
  update = u && *u && strcmp(u, "0") != 0;
  int first = 3;
  if (!strcmp(argv[2], "cases") &&
      sscanf(argv[first], "-shard=%u/%u", &shard_k, &shard_n) == 2) {
    if (shard_n == 0 || shard_k == 0 || shard_k > shard_n) {
      fprintf(stderr, "run_golden: bad %s\n", argv[first]);
      return 2;
    }
    first++;
  }
  for (int i = first; i < argc; i++) {
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
