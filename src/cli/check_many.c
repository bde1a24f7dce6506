/*
** check -var-file-each and -recursive: many resolutions in one run.
**
** -var-file-each: the module is loaded (parsed) once and resolved once per
** environment, each with its var file on top of the usual sources (after
** -var and -var-file), in parallel threads.  -recursive: every directory
** below DIR whose configuration declares variables is its own module,
** resolved with its own tfvars; with -var-file-each too, every module is
** checked against every var file.  Each job has its own arena and
** diagnostics; the loaded module is shared read-only.  The report lists
** every job in a fixed order, whatever order the threads finish in.
*/
#include <errno.h>
#include <limits.h>
#include <glob.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_module.h"
#include "cli_util.h"

struct job {
  const char *label; /* the environment (var file) or directory */
  const char *dir;
  const char *var_file;  /* NULL: none added */
  tfr_module *mod;       /* shared (-var-file-each), or NULL: load */
  const tfr_diags *load; /* the shared module's load diagnostics */
  tfr_arena *a;
  tfr_diags *d;
  const struct tfr_resolution *res;
};

struct pool {
  struct job *jobs;
  size_t n;
  atomic_size_t next;
  const struct many_opts *mo;
};

static void run_job(const struct many_opts *mo, struct job *j) {
  j->a = tfr_arena_new();
  j->d = tfr_diags_new(j->a);
  struct tfr_cli_arg *args =
      tfr_arena_alloc(j->a, (mo->nargs + 1) * sizeof *args);
  if (mo->nargs)
    memcpy(args, mo->args, mo->nargs * sizeof *args);
  size_t nargs = mo->nargs;
  if (j->var_file) {
    memset(&args[nargs], 0, sizeof args[nargs]);
    args[nargs].file = true;
    args[nargs++].value = j->var_file;
  }
  struct tfr_resolve_opts ro = TFR_RESOLVE_OPTS_INIT;
  ro.dir = j->dir;
  ro.env = mo->env;
  ro.args = args;
  ro.nargs = nargs;
  ro.opentofu = mo->opentofu;
  ro.strict = mo->strict;
  ro.tree = mo->tree;
  ro.cache = mo->cache;
  ro.missing_required_info = mo->missing_info;
  ro.unchecked_error = mo->unchecked_error;
  ro.warn_dropped = true; /* check: what Terraform drops silently is said */
  if (j->mod) {
    /* the shared module's load warnings belong to every environment */
    tfr_diags_share_sources(j->d, j->load);
    for (size_t i = 0; i < tfr_diags_count(j->load); i++) /* whole */
      tfr_diags_add_full(j->d, tfr_diags_get(j->load, i));
    j->res = tfr_resolve_module(j->a, j->d, j->mod, &ro);
  } else {
    j->res = tfr_resolve(j->a, j->d, &ro);
  }
}

static void *worker(void *arg) {
  struct pool *p = arg;
  for (;;) {
    size_t i = atomic_fetch_add(&p->next, 1);
    if (i >= p->n)
      return NULL;
    run_job(p->mo, &p->jobs[i]);
  }
}

static void run_all(const struct many_opts *mo, struct job *jobs, size_t n) {
  struct pool p = {jobs, n, 0, mo};
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  size_t nt = cpus > 1 ? (size_t)cpus : 1;
  if (nt > n)
    nt = n;
  if (nt > 64)
    nt = 64;
  pthread_t t[64];
  size_t started = 0;
  /* The stack main() runs with (cli_run_with_stack): deeply nested input
  ** recurses as deep in a worker as there. */
  pthread_attr_t attr;
  bool attr_ok = pthread_attr_init(&attr) == 0;
  if (attr_ok)
    pthread_attr_setstacksize(&attr, CLI_STACK_BYTES);
  for (size_t i = 1; i < nt; i++)
    if (pthread_create(&t[started], attr_ok ? &attr : NULL, worker, &p) == 0)
      started++;
  if (attr_ok)
    pthread_attr_destroy(&attr);
  worker(&p); /* this thread works too (and alone if none started) */
  for (size_t i = 0; i < started; i++)
    pthread_join(t[i], NULL);
}

/* ---- what to check --------------------------------------------------------
 */

/* Whether a directory's .tf / .tf.json / .tofu files mention a variable
** block (a cheap test; loading tells the truth). */
static bool is_config_file(const char *path, const char *n, int is_dir,
                           void *ctx) {
  (void)path;
  (void)is_dir;
  (void)ctx;
  size_t len = strlen(n);
  return (len > 3 && !strcmp(n + len - 3, ".tf")) ||
         (len > 8 && !strcmp(n + len - 8, ".tf.json")) ||
         (len > 5 && !strcmp(n + len - 5, ".tofu")) ||
         (len > 10 && !strcmp(n + len - 10, ".tofu.json"));
}

static bool declares_variables(const char *dir) {
  struct cli_names files = {0};
  if (!cli_list_dir(dir, is_config_file, NULL, &files))
    return false;
  bool found = false;
  for (size_t i = 0; i < files.n && !found; i++) {
    char *path = cli_path_join(dir, files.v[i]);
    FILE *f = fopen(path, "rb");
    free(path);
    if (!f)
      continue;
    char buf[65536];
    size_t k;
    while (!found && (k = fread(buf, 1, sizeof buf - 1, f)) > 0) {
      buf[k] = '\0';
      found = strstr(buf, "variable") != NULL;
    }
    fclose(f);
  }
  cli_names_free(&files);
  return found;
}

/* A directory (symbolic links are not followed: no cycles); lstat asked
** only when readdir does not say (some file systems do not). */
static bool is_subdir(const char *path, const char *name, int is_dir,
                      void *ctx) {
  (void)name;
  (void)ctx;
  return cli_is_dir(path, is_dir) != 0; /* unknown: opening it tells */
}

/*
** Every directory below dir (itself included) that declares variables, in
** order (a directory, then its subdirectories by name), skipping hidden
** directories and Terraform's .terraform caches.  No depth limit: the walk
** keeps its own stack, and symbolic links are not followed, so there is no
** cycle to fear.  A directory that cannot be read is an error in diags
** (the run fails: what it holds was not checked), never skipped in
** silence.
*/
static void module_dirs(const char *dir, struct cli_names *out, tfr_arena *a,
                        tfr_diags *diags) {
  struct cli_names stack = {0};
  cli_names_add(&stack, dir);
  while (stack.n) {
    char *cur = stack.v[--stack.n];
    if (declares_variables(cur))
      cli_names_add(out, cur);
    struct cli_names subs = {0};
    if (!cli_list_dir(cur, is_subdir, NULL, &subs)) {
      if (errno != ENOENT)
        tfr_diags_add(diags, TFR_DIAG_ERROR, NULL, "Directory not searched",
                      tfr_arena_printf(a,
                                       "-recursive could not read %s: %s; "
                                       "modules below it are not checked.",
                                       cur, strerror(errno)));
      free(cur);
      continue;
    }
    for (size_t i = subs.n; i-- > 0;) { /* the first is popped first */
      char *p = cli_path_join(cur, subs.v[i]);
      cli_names_add(&stack, !strcmp(cur, ".") ? p + 2 : p);
      free(p);
    }
    cli_names_free(&subs);
    free(cur);
  }
  cli_names_free(&stack);
}

/* The end of the alternative starting at p in a brace expression: the ','
** or '}' that ends it (braces inside nest), or NULL when the braces do not
** close; a backslash escapes the next byte (glibc's next_brace_sub). */
static const char *brace_alt_end(const char *p) {
  size_t depth = 0;
  while (*p) {
    if (*p == '\\') {
      if (!*++p)
        break;
      p++;
    } else {
      if ((*p == '}' && depth-- == 0) || (*p == ',' && depth == 0))
        break;
      if (*p++ == '{')
        depth++;
    }
  }
  return *p ? p : NULL;
}

/*
** POSIX glob of pattern with the brace expansion of GNU and BSD glob's
** GLOB_BRACE done first (POSIX has none), the matches added to out as
** glibc gives them: the first "{a,b,...}" not escaped by a backslash
** becomes each alternative in written order (nested braces, an empty
** alternative and a single one, "{a}" for "a", as glibc's), each
** expansion expanded again the same way, then globbed with its matches
** sorted; repeats are kept.  A '{' whose braces do not close makes the
** whole pattern literal (braces are ordinary characters to glob).
** Returns 0 when something matched, GLOB_NOMATCH when nothing did, or
** glob's error.
*/
static int glob_braces(const char *pattern, struct cli_names *out) {
  const char *open = pattern;
  while (*open && *open != '{') {
    if (*open == '\\' && open[1])
      open++;
    open++;
  }
  const char *next = *open ? brace_alt_end(open + 1) : NULL, *close = next;
  while (close && *close != '}')
    close = brace_alt_end(close + 1);
  if (!close) { /* no brace expression */
    glob_t g;
    int rc = glob(pattern, 0, NULL, &g);
    if (rc == 0) {
      for (size_t k = 0; k < g.gl_pathc; k++)
        cli_names_add(out, g.gl_pathv[k]);
      globfree(&g);
    }
    return rc;
  }
  size_t before = (size_t)(open - pattern), after = strlen(close + 1);
  char *one = malloc(strlen(pattern) + 1); /* an expansion is shorter */
  if (!one)
    return GLOB_NOSPACE;
  memcpy(one, pattern, before);
  int result = GLOB_NOMATCH;
  for (const char *p = open + 1;; p = next + 1, next = brace_alt_end(p)) {
    size_t len = (size_t)(next - p);
    memcpy(one + before, p, len);
    memcpy(one + before + len, close + 1, after + 1);
    int rc = glob_braces(one, out);
    if (rc != 0 && rc != GLOB_NOMATCH) {
      result = rc;
      break;
    }
    if (rc == 0)
      result = 0;
    if (*next == '}')
      break;
  }
  free(one);
  return result;
}

/* The var files of -var-file-each: each pattern's matches (glob_braces);
** a pattern that matches nothing is a usage error. */
static bool var_files(const struct many_opts *mo, struct cli_names *out) {
  for (size_t i = 0; i < mo->neach; i++) {
    int rc = glob_braces(mo->each[i], out);
    if (rc == GLOB_NOMATCH) {
      fprintf(stderr, "tfresolve: -var-file-each %s: no file matches\n",
              mo->each[i]);
      return false;
    }
    if (rc != 0) {
      fprintf(stderr, "tfresolve: -var-file-each %s: cannot read it\n",
              mo->each[i]);
      return false;
    }
  }
  return true;
}

/* A var file Terraform loads by itself from dir. */
static bool is_auto_vars(const char *path, const char *n, int is_dir,
                         void *ctx) {
  (void)ctx;
  size_t len = strlen(n);
  return (!strcmp(n, "terraform.tfvars") ||
          !strcmp(n, "terraform.tfvars.json") ||
          (len > 12 && !strcmp(n + len - 12, ".auto.tfvars")) ||
          (len > 17 && !strcmp(n + len - 17, ".auto.tfvars.json"))) &&
         cli_is_dir(path, is_dir) != 1;
}

static bool has_own_values(const char *dir) {
  struct cli_names files = {0};
  bool any = cli_list_dir(dir, is_auto_vars, NULL, &files) && files.n;
  cli_names_free(&files);
  return any;
}

/*
** -recursive with the module tree: a directory that a checked tree loads
** as a child module is checked there, with the values its callers give,
** not also alone as if it were a root (which would only say that its
** required variables have no value) -- unless it has var files of its
** own, which make it a root too.  The jobs kept, in order; *n updated.
*/
static void drop_children(struct job *jobs, size_t *n) {
  /* the child modules' directories, by device and inode (the same
  ** directory whatever path names it, as realpath would say) */
  struct dir_id {
    dev_t dev;
    ino_t ino;
  } *child = NULL;
  size_t nchild = 0, cap = 0;
  for (size_t i = 0; i < *n; i++) {
    const struct tfr_resolution *res = jobs[i].res;
    for (size_t k = 0; res->tree && k < res->ninstances; k++) {
      const struct tfr_instance *in = tfr_resolution_instance(res, k);
      char *p = cli_path_join(jobs[i].dir, in->dir);
      struct stat st;
      if (stat(p, &st) == 0) {
        if (nchild == cap) {
          cap = cap ? 2 * cap : 16;
          child = realloc(child, cap * sizeof *child);
          if (!child)
            cli_oom();
        }
        child[nchild++] = (struct dir_id){st.st_dev, st.st_ino};
      }
      free(p);
    }
  }
  size_t kept = 0;
  for (size_t i = 0; i < *n; i++) {
    struct stat st;
    bool drop = false;
    if (nchild && stat(jobs[i].dir, &st) == 0 && !has_own_values(jobs[i].dir))
      for (size_t k = 0; k < nchild && !drop; k++)
        drop = child[k].dev == st.st_dev && child[k].ino == st.st_ino;
    if (drop)
      tfr_arena_free(jobs[i].a);
    else
      jobs[kept++] = jobs[i];
  }
  *n = kept;
  free(child);
}

/* ---- the report ------------------------------------------------------------
 */

static void counts(const tfr_diags *d, size_t *errors, size_t *warnings) {
  *errors = *warnings = 0;
  for (size_t i = 0; i < tfr_diags_count(d); i++) {
    if (tfr_diags_get(d, i)->sev == TFR_DIAG_ERROR)
      ++*errors;
    else
      ++*warnings;
  }
}

static void report_human(const struct many_opts *mo, struct job *jobs, size_t n,
                         const char *what) {
  size_t width = strlen(what);
  for (size_t i = 0; i < n; i++)
    if (strlen(jobs[i].label) > width)
      width = strlen(jobs[i].label);
  size_t valid = 0, unchecked = 0;
  for (size_t i = 0; i < n; i++) {
    size_t e, w;
    counts(jobs[i].d, &e, &w);
    valid += jobs[i].res->valid;
    unchecked += jobs[i].res->nunchecked;
    printf("== %s: %s", jobs[i].label,
           jobs[i].res->valid ? "valid" : "INVALID");
    if (e || w)
      printf(" (%zu error%s, %zu warning%s)", e, e == 1 ? "" : "s", w,
             w == 1 ? "" : "s");
    if (jobs[i].res->nunchecked) /* what the verdict did not cover */
      printf("; %s:", cli_unchecked_count(jobs[i].a, jobs[i].res));
    putchar('\n');
    cli_print_unchecked(stdout, jobs[i].res, "   ");
    fflush(stdout);
    cli_print_diags(jobs[i].d, mo->o);
    fflush(stderr);
  }
  printf("\n%-*s  %-7s  %6s  %8s\n", (int)width, what, "result", "errors",
         "warnings");
  for (size_t i = 0; i < n; i++) {
    size_t e, w;
    counts(jobs[i].d, &e, &w);
    printf("%-*s  %-7s  %6zu  %8zu\n", (int)width, jobs[i].label,
           jobs[i].res->valid ? "valid" : "INVALID", e, w);
  }
  printf("\n%zu of %zu %s%s valid", valid, n,
         !strcmp(what, "environment") ? "environment" : "module",
         n == 1 ? "" : "s");
  if (unchecked)
    printf("; %zu module%s not checked (listed above)", unchecked,
           unchecked == 1 ? "" : "s");
  printf(".\n");
}

static void report_json(const struct many_opts *mo, struct job *jobs, size_t n,
                        const tfr_diags *load, bool valid) {
  printf("{\"format_version\": \"1.2\",\n \"valid\": %s,\n",
         valid ? "true" : "false");
  fputs(" \"diagnostics\": ", stdout);
  tfr_diags_render_json(load, stdout);
  fputs(",\n \"checks\": [\n", stdout);
  for (size_t i = 0; i < n; i++) {
    fputs(i ? ",\n{\"name\": " : "{\"name\": ", stdout);
    tfr_json_write_cstr(stdout, jobs[i].label);
    fputs(", \"dir\": ", stdout);
    tfr_json_write_cstr(stdout, jobs[i].dir);
    fputs(", \"var_file\": ", stdout);
    tfr_json_write_cstr(stdout, jobs[i].var_file);
    fputs(", \"result\":\n", stdout);
    cli_show_json(jobs[i].a, jobs[i].res, jobs[i].d, mo->show_sensitive);
    fputc('}', stdout);
  }
  fputs("\n]}\n", stdout);
}

static int check_many(const struct many_opts *mo) {
  struct cli_names dirs = {0}, files = {0};
  tfr_arena *a = tfr_arena_new();
  tfr_diags *load = tfr_diags_new(a);
  if (mo->recursive)
    module_dirs(mo->dir, &dirs, a, load);
  else
    cli_names_add(&dirs, mo->dir);
  if (!var_files(mo, &files)) {
    cli_names_free(&dirs);
    cli_names_free(&files);
    tfr_arena_free(a);
    return EXIT_USAGE;
  }
  if (!dirs.n) {
    cli_print_diags(load, mo->o);
    fprintf(stderr, "tfresolve: no module below %s declares variables\n",
            mo->dir);
    /* nothing to check: the usage status (README: Exit status), unless
    ** a directory could not be read (an error above) */
    int status = tfr_diags_has_errors(load) ? EXIT_INVALID : EXIT_USAGE;
    cli_names_free(&files);
    tfr_arena_free(a);
    return status;
  }
  size_t per = files.n ? files.n : 1, n = dirs.n * per;
  struct job *jobs = calloc(n, sizeof *jobs);
  tfr_module *shared = NULL;
  if (files.n && dirs.n == 1) {
    /* one module, many environments: parse it once */
    shared = tfr_module_load(a, load, dirs.v[0], mo->opentofu);
    if (tfr_diags_has_errors(load)) {
      cli_print_diags(load, mo->o);
      cli_names_free(&dirs);
      cli_names_free(&files);
      free(jobs);
      tfr_arena_free(a);
      return EXIT_INVALID;
    }
  }
  for (size_t i = 0; i < dirs.n; i++)
    for (size_t k = 0; k < per; k++) {
      struct job *j = &jobs[i * per + k];
      j->dir = dirs.v[i];
      j->var_file = files.n ? files.v[k] : NULL;
      j->mod = shared;
      j->load = load;
      j->label = !files.n ? j->dir
                 : dirs.n == 1
                     ? j->var_file
                     : tfr_arena_printf(a, "%s with %s", j->dir, j->var_file);
    }
  run_all(mo, jobs, n);
  if (mo->recursive && mo->tree)
    drop_children(jobs, &n);
  bool valid = !tfr_diags_has_errors(load); /* a directory not searched */
  for (size_t i = 0; i < n; i++)
    valid &= jobs[i].res->valid;
  if (mo->o->format != FMT_JSON) /* JSON has them in its document */
    cli_print_diags(load, mo->o);
  const char *what = files.n ? "environment" : "module";
  if (mo->o->format == FMT_JSON) {
    report_json(mo, jobs, n, load, valid);
  } else if (mo->o->format == FMT_SARIF || mo->o->format == FMT_GITHUB ||
             mo->o->format == FMT_JUNIT) {
    struct report_env *envs = calloc(n, sizeof *envs);
    for (size_t i = 0; i < n; i++)
      envs[i] = (struct report_env){jobs[i].label, jobs[i].res, jobs[i].d};
    report_write(stdout, mo->o->format, envs, n);
    free(envs);
  } else {
    report_human(mo, jobs, n, what);
  }
  for (size_t i = 0; i < n; i++)
    tfr_arena_free(jobs[i].a);
  free(jobs);
  cli_names_free(&dirs);
  cli_names_free(&files);
  tfr_arena_free(a);
  return valid ? EXIT_OK : EXIT_INVALID;
}

int cli_check_many(const struct many_opts *mo) {
  /* the jobs' trees share their child modules: each parsed once */
  struct many_opts own = *mo;
  own.cache = mo->tree ? tfr_cache_new() : NULL;
  int rc = check_many(&own);
  tfr_cache_free(own.cache);
  return rc;
}
