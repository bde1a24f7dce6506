/*
** check -var-file-each and -recursive: many resolutions in one run.
**
** -var-file-each: the module is loaded (parsed) once and resolved once per
** environment, each with its var file on top of the usual sources (after
** -var and -var-file), in parallel threads.  -recursive: every root module
** below DIR (roots.c says which), resolved with its own tfvars through
** every module it calls; a var file (-var-file, -var-file-each) applies to
** the root it belongs to, or to all when it is in none, and -affected-by
** keeps the roots using the files named.  Each job has its own arena and
** diagnostics; the loaded module is shared read-only.  The report lists
** every job in a fixed order, whatever order the threads finish in.
*/
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
  const char *var_file;           /* NULL: none added */
  const struct tfr_cli_arg *args; /* -var / -var-file that apply to it */
  size_t nargs;
  tfr_module *mod;       /* shared (-var-file-each), or NULL: load */
  const tfr_diags *load; /* the shared module's load diagnostics */
  tfr_arena *a;
  tfr_diags *d;
  const struct tfr_resolution *res;
  bool unit; /* dir is a terragrunt unit */
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
      tfr_arena_alloc(j->a, (j->nargs + 1) * sizeof *args);
  if (j->nargs)
    memcpy(args, j->args, j->nargs * sizeof *args);
  size_t nargs = j->nargs;
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
  /* -recursive: the whole tree below DIR is the user's own code */
  ro.own_dir = mo->recursive ? mo->dir : NULL;
  if (j->unit) {
    int rc = EXIT_OK;
    j->res = cli_unit_resolve(j->a, &j->d, j->dir, &ro, &rc);
    if (!j->res) { /* not read, or its module not checked: no variables */
      struct tfr_resolution *r = tfr_arena_alloc(j->a, sizeof *r);
      r->valid = rc == EXIT_OK;
      j->res = r;
    }
  } else if (j->mod) {
    /* the shared module's load warnings belong to every environment */
    tfr_diags_share_sources(j->d, j->load);
    for (size_t i = 0; i < tfr_diags_count(j->load); i++) /* whole */
      tfr_diags_add_full(j->d, tfr_diags_get(j->load, i));
    j->res = tfr_resolve_module(j->a, j->d, j->mod, &ro);
  } else {
    j->res = tfr_resolve(j->a, j->d, &ro);
  }
  if (mo->policy) { /* check -policy: each environment's instances */
    struct tfr_policy_opts po = TFR_POLICY_OPTS_INIT;
    po.dir = mo->policy;
    po.env = mo->env;
    j->res = tfr_policy_check(j->a, j->d, j->res, &po);
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
int cli_glob_braces(const char *pattern, struct cli_names *out) {
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
    if (rc == GLOB_NOSPACE) /* glob's own allocation failed */
      cli_oom();
    if (rc == 0) {
      for (size_t k = 0; k < g.gl_pathc; k++)
        cli_names_add(out, g.gl_pathv[k]);
      globfree(&g);
    }
    return rc;
  }
  size_t before = (size_t)(open - pattern), after = strlen(close + 1);
  char *one = cli_alloc(strlen(pattern) + 1); /* an expansion is shorter */
  memcpy(one, pattern, before);
  int result = GLOB_NOMATCH;
  for (const char *p = open + 1;; p = next + 1, next = brace_alt_end(p)) {
    size_t len = (size_t)(next - p);
    memcpy(one + before, p, len);
    memcpy(one + before + len, close + 1, after + 1);
    int rc = cli_glob_braces(one, out);
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

/* The var files of -var-file-each: each pattern's matches (cli_glob_braces);
** a pattern that matches nothing is a usage error. */
static bool var_files(const struct many_opts *mo, struct cli_names *out) {
  for (size_t i = 0; i < mo->neach; i++) {
    int rc = cli_glob_braces(mo->each[i], out);
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
         !strcmp(what, "environment") ? "environment"
         : !strcmp(what, "unit")      ? "unit"
                                      : "module",
         n == 1 ? "" : "s");
  if (unchecked)
    printf("; %zu module%s not checked (listed above)", unchecked,
           unchecked == 1 ? "" : "s");
  printf(".\n");
}

static void report_json(const struct many_opts *mo, struct job *jobs, size_t n,
                        const tfr_diags *load, bool valid) {
  printf("{\"format_version\": \"1.4\",\n \"valid\": %s,\n",
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

/* ---- the jobs --------------------------------------------------------------
 */

/* Whether paths a and b name one file. */
static bool same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

/* Whether var file f applies to directory dir: with -recursive, a var
** file belongs to the root at or nearest above it, and applies to every
** root when none holds it (a file shared by all of them). */
static bool applies(const struct cli_roots *roots, const char *f,
                    const char *dir) {
  const char *owner = roots ? cli_roots_owner(roots, f) : NULL;
  return !owner || !strcmp(owner, dir);
}

/* The -var and -var-file arguments that apply to dir, in order. */
static const struct tfr_cli_arg *args_for(const struct many_opts *mo,
                                          const struct cli_roots *roots,
                                          const char *dir, tfr_arena *a,
                                          size_t *n) {
  struct tfr_cli_arg *v = tfr_arena_alloc(a, (mo->nargs + 1) * sizeof *v);
  *n = 0;
  for (size_t i = 0; i < mo->nargs; i++)
    if (!mo->args[i].file || applies(roots, mo->args[i].value, dir))
      v[(*n)++] = mo->args[i];
  return v;
}

/* Whether a root uses one of the -affected-by files (all do without). */
static bool affected(const struct many_opts *mo, const struct cli_roots *roots,
                     const char *dir) {
  bool any = !mo->nchanged;
  for (size_t i = 0; i < mo->nchanged && !any; i++)
    any = cli_roots_uses(roots, dir, mo->changed[i]);
  return any;
}

/* The directories to check: DIR, or with -recursive its roots (those the
** -affected-by files concern). */
static struct cli_roots *check_dirs(const struct many_opts *mo, tfr_arena *a,
                                    tfr_diags *load, struct cli_names *dirs,
                                    bool *units) {
  *units = false;
  if (!mo->recursive && cli_stack_here(mo->dir) && !cli_unit_here(mo->dir)) {
    /* a terragrunt.stack.hcl: the units it generates; a stack not read
    ** is itself the one to check, whose check tells why */
    tfr_diags *d = tfr_diags_new(a);
    cli_stack_units(mo->dir, a, d, mo->env, dirs);
    if (tfr_diags_has_errors(d)) {
      cli_names_free(dirs);
      cli_names_add(dirs, mo->dir);
    }
    *units = true;
    (void)load;
    return NULL;
  }
  if (!mo->recursive) {
    cli_names_add(dirs, mo->dir);
    return NULL;
  }
  /* a live repository: its terragrunt units, each with its module */
  cli_units_find(mo->dir, dirs);
  if (dirs->n && !mo->nchanged) {
    *units = true;
    return NULL;
  }
  cli_names_free(dirs);
  struct cli_roots *roots =
      cli_roots_find(mo->dir, mo->opentofu, mo->tree, a, load);
  struct cli_names all = {0};
  cli_roots_list(roots, &all);
  for (size_t i = 0; i < all.n; i++)
    if (affected(mo, roots, all.v[i]))
      cli_names_add(dirs, all.v[i]);
  cli_names_free(&all);
  return roots;
}

/* One job: dir with var file f (NULL: none). */
static void add_job(const struct many_opts *mo, const struct cli_roots *roots,
                    const struct cli_names *dirs, const char *dir,
                    const char *f, tfr_module *shared, const tfr_diags *load,
                    tfr_arena *a, struct job *j) {
  j->dir = dir;
  j->var_file = f;
  j->args = args_for(mo, roots, dir, a, &j->nargs);
  j->mod = shared;
  j->load = load;
  j->label = !f             ? dir
             : dirs->n == 1 ? f
                            : tfr_arena_printf(a, "%s with %s", dir, f);
}

/* The jobs: each directory with each var file of -var-file-each that
** applies to it, or once with none when none does; *n of them. */
static struct job *make_jobs(const struct many_opts *mo,
                             const struct cli_roots *roots,
                             const struct cli_names *dirs,
                             const struct cli_names *files, tfr_module *shared,
                             const tfr_diags *load, tfr_arena *a, size_t *n) {
  struct job *jobs = cli_calloc(dirs->n * (files->n + 1) + 1, sizeof *jobs);
  *n = 0;
  for (size_t i = 0; i < dirs->n; i++) {
    size_t before = *n;
    for (size_t k = 0; k < files->n; k++)
      if (applies(roots, files->v[k], dirs->v[i]))
        add_job(mo, roots, dirs, dirs->v[i], files->v[k], shared, load, a,
                &jobs[(*n)++]);
    if (*n == before) /* no environment of its own */
      add_job(mo, roots, dirs, dirs->v[i], NULL, shared, load, a,
              &jobs[(*n)++]);
  }
  return jobs;
}

/* With -affected-by: a changed var file that Terraform does not load by
** itself and no -var-file names is one environment of the root it
** belongs to (as -var-file-each would give it). */
static void changed_var_files(const struct many_opts *mo,
                              struct cli_names *files) {
  for (size_t i = 0; i < mo->nchanged; i++) {
    const char *f = mo->changed[i], *base = strrchr(f, '/');
    bool take =
        (cli_has_suffix(f, ".tfvars") || cli_has_suffix(f, ".tfvars.json")) &&
        !cli_auto_var_file(base ? base + 1 : f);
    for (size_t k = 0; take && k < mo->nargs; k++)
      take = !mo->args[k].file || !same_file(mo->args[k].value, f);
    for (size_t k = 0; take && k < files->n; k++)
      take = !same_file(files->v[k], f);
    if (take)
      cli_names_add(files, f);
  }
}

/* Nothing to check: said on stderr; the status. */
static int nothing(const struct many_opts *mo, const tfr_diags *load) {
  cli_print_diags(load, mo->o);
  if (mo->nchanged) { /* the hook: no root uses what changed */
    if (!tfr_diags_has_errors(load)) {
      fprintf(stderr, "tfresolve: no root module below %s uses %s\n", mo->dir,
              mo->nchanged == 1 ? mo->changed[0] : "these files");
      return EXIT_OK;
    }
  } else {
    fprintf(stderr, "tfresolve: no module below %s declares variables%s\n",
            mo->dir, mo->tree ? ", calls modules or has resources" : "");
  }
  /* nothing to check: the usage status (README: Exit status), unless a
  ** directory could not be read (an error above) */
  return tfr_diags_has_errors(load) ? EXIT_INVALID : EXIT_USAGE;
}

static void report(const struct many_opts *mo, struct job *jobs, size_t n,
                   const tfr_diags *load, bool valid, const char *what) {
  if (mo->o->format != FMT_JSON) /* JSON has them in its document */
    cli_print_diags(load, mo->o);
  if (mo->o->format == FMT_JSON) {
    report_json(mo, jobs, n, load, valid);
  } else if (mo->o->format == FMT_SARIF || mo->o->format == FMT_GITHUB ||
             mo->o->format == FMT_JUNIT) {
    struct report_env *envs = cli_calloc(n + 1, sizeof *envs);
    for (size_t i = 0; i < n; i++)
      envs[i] = (struct report_env){jobs[i].label, jobs[i].res, jobs[i].d};
    report_write(stdout, mo->o->format, envs, n);
    free(envs);
  } else {
    report_human(mo, jobs, n, what);
  }
}

static int check_many(const struct many_opts *mo) {
  struct cli_names dirs = {0}, files = {0};
  tfr_arena *a = tfr_arena_new();
  tfr_diags *load = tfr_diags_new(a);
  bool units;
  struct cli_roots *roots = check_dirs(mo, a, load, &dirs, &units);
  int rc = EXIT_USAGE;
  tfr_module *shared = NULL;
  struct job *jobs = NULL;
  size_t n = 0;
  if (!var_files(mo, &files))
    goto done;
  changed_var_files(mo, &files);
  if (files.n && dirs.n == 1) {
    /* one module, many environments: parse it once */
    shared = tfr_module_load(a, load, dirs.v[0], mo->opentofu);
    if (tfr_diags_has_errors(load)) {
      cli_print_diags(load, mo->o);
      rc = EXIT_INVALID;
      goto done;
    }
  }
  jobs = make_jobs(mo, roots, &dirs, &files, shared, load, a, &n);
  for (size_t i = 0; i < n; i++)
    jobs[i].unit = units;
  if (!n) {
    rc = nothing(mo, load);
    goto done;
  }
  run_all(mo, jobs, n);
  bool valid = !tfr_diags_has_errors(load); /* a directory not searched */
  for (size_t i = 0; i < n; i++)
    valid &= jobs[i].res->valid;
  report(mo, jobs, n, load, valid,
         files.n ? "environment"
         : units ? "unit"
                 : "module");
  rc = valid ? EXIT_OK : EXIT_INVALID;
done:
  for (size_t i = 0; i < n; i++)
    tfr_arena_free(jobs[i].a);
  free(jobs);
  cli_roots_free(roots);
  cli_names_free(&dirs);
  cli_names_free(&files);
  tfr_arena_free(a);
  return rc;
}

int cli_check_many(const struct many_opts *mo) {
  if (mo->nchanged && !mo->recursive) {
    fprintf(stderr, "tfresolve: -affected-by needs -recursive\n");
    return EXIT_USAGE;
  }
  /* the jobs' trees share their child modules: each parsed once */
  struct many_opts own = *mo;
  own.cache = mo->tree ? tfr_cache_new() : NULL;
  int rc = check_many(&own);
  tfr_cache_free(own.cache);
  return rc;
}
