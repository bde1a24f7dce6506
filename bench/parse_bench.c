/*
** parse_bench: a whole-process measurement harness.  It runs a command
** several times (fork/exec), measures each run's wall time and the child's
** peak RSS (wait4's ru_maxrss), and reports throughput in MB/s of an input
** file and peak RSS relative to that file's size.  Optionally it runs a
** reference command the same way and prints the ratio; when the reference
** program cannot be executed the comparison is skipped, not failed.
**
** Usage: parse_bench [options] -- CMD [ARG...] [-- REFCMD [ARG...]]
** (see usage[] below).
*/
#define _DEFAULT_SOURCE /* wait4, struct rusage */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
    "Usage: parse_bench [options] -- CMD [ARG...] [-- REFCMD [ARG...]]\n"
    "\n"
    "Run CMD (then REFCMD) RUNS times each and report wall time, MB/s of\n"
    "FILE, CPU time and the child's peak RSS, absolute and relative to\n"
    "FILE's size; with REFCMD also the ratio of the two.\n"
    "\n"
    "Options:\n"
    "  -f FILE          input whose size is the amount of work (required)\n"
    "  -n RUNS          timed runs per command (default 5)\n"
    "  -w RUNS          untimed warm-up runs per command (default 1)\n"
    "  -label NAME      name of CMD in the report (default: its file name)\n"
    "  -ref-label NAME  name of REFCMD in the report\n"
    "  -ref-stages K,.. REFCMD prints JSON with \"K\": seconds members;\n"
    "                   also report the sum of those stages (best run)\n"
    "  -expect N        CMD must exit with status N (default 0)\n"
    "\n"
    "CMD's output goes to /dev/null.  Exit status: 0 when every run of CMD\n"
    "exited as expected, 1 otherwise, 2 on a usage error.  A REFCMD that\n"
    "cannot be executed is reported and skipped.\n";

/* One command to measure and what was measured. */
struct bench {
  const char *label;
  char **argv;
  const char *stages; /* comma-separated JSON keys, or NULL */
  int runs_ok;
  double wall[64];
  double best_wall, median_wall, best_cpu;
  double best_stage; /* sum of the stages in the run where it is least */
  long peak_kb;
  int last_status;
};

struct opts {
  const char *file;
  int runs, warmup, expect;
  struct bench cmd, ref;
};

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double tv_sec(struct timeval tv) {
  return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

/*
** In the child: send stdout to out_fd (or /dev/null) and stderr to
** /dev/null, then exec.  An exec failure is reported through err_fd
** (close-on-exec, so the parent reads EOF on success).
*/
static void child(char **argv, int out_fd, int err_fd) {
  int null = open("/dev/null", O_RDWR);
  if (null >= 0) {
    dup2(null, STDIN_FILENO);
    dup2(out_fd >= 0 ? out_fd : null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
  }
  execvp(argv[0], argv);
  int e = errno;
  if (write(err_fd, &e, sizeof e) < 0)
    _exit(126);
  _exit(127);
}

/*
** Run argv once.  Returns 0 and fills *wall, *ru and *status; or the
** errno of a failed fork/exec.
*/
static int run_once(char **argv, int out_fd, double *wall, struct rusage *ru,
                    int *status) {
  int p[2];
  if (pipe(p) < 0)
    return errno;
  fcntl(p[1], F_SETFD, FD_CLOEXEC);
  double t0 = now();
  pid_t pid = fork();
  if (pid < 0)
    return errno;
  if (pid == 0)
    child(argv, out_fd, p[1]);
  close(p[1]);
  int e = 0;
  ssize_t got = read(p[0], &e, sizeof e);
  close(p[0]);
  while (wait4(pid, status, 0, ru) < 0)
    if (errno != EINTR)
      return errno;
  *wall = now() - t0;
  return got == (ssize_t)sizeof e ? e : 0;
}

/* The sum of the numbers following "KEY": for each key in the list. */
static double stage_sum(const char *json, const char *keys) {
  double sum = 0;
  const char *k = keys;
  while (*k) {
    size_t n = strcspn(k, ",");
    char pat[128];
    snprintf(pat, sizeof pat, "\"%.*s\":", (int)n, k);
    const char *at = strstr(json, pat);
    if (!at)
      return -1;
    sum += strtod(at + strlen(pat), NULL);
    k += n + (k[n] == ',');
  }
  return sum;
}

/* Read the whole of fd (from its start) into a NUL-terminated buffer. */
static char *slurp_fd(int fd) {
  struct stat st;
  if (fstat(fd, &st) < 0)
    return NULL;
  char *buf = malloc((size_t)st.st_size + 1);
  if (!buf)
    return NULL;
  ssize_t n = pread(fd, buf, (size_t)st.st_size, 0);
  buf[n > 0 ? n : 0] = '\0';
  return buf;
}

/* The stage time reported by one run of a -ref-stages command. */
static double read_stages(struct bench *b, int fd) {
  char *out = slurp_fd(fd);
  double s = out ? stage_sum(out, b->stages) : -1;
  free(out);
  /* Empty the file for the next run; the child shared our offset. */
  if (ftruncate(fd, 0) < 0 || lseek(fd, 0, SEEK_SET) < 0)
    return -1;
  return s;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Record one timed run in b's statistics. */
static void record(struct bench *b, double wall, const struct rusage *ru,
                   double stage) {
  double cpu = tv_sec(ru->ru_utime) + tv_sec(ru->ru_stime);
  if (!b->runs_ok || wall < b->best_wall)
    b->best_wall = wall;
  if (!b->runs_ok || cpu < b->best_cpu)
    b->best_cpu = cpu;
  if (stage >= 0 && (b->best_stage < 0 || stage < b->best_stage))
    b->best_stage = stage;
  if (ru->ru_maxrss > b->peak_kb)
    b->peak_kb = ru->ru_maxrss;
  b->wall[b->runs_ok++] = wall;
}

/*
** Run b warmup + runs times.  Returns 0, or the errno of an exec
** failure (then nothing was measured).  A status other than *expect (when
** expect is non-NULL) is reported and counts as a failure (-1).
*/
static int measure(struct bench *b, int warmup, int runs, const int *expect) {
  char tmpl[] = "/tmp/parse_bench.XXXXXX";
  int out_fd = b->stages ? mkstemp(tmpl) : -1;
  if (out_fd >= 0)
    unlink(tmpl);
  b->best_stage = -1;
  int rc = 0;
  for (int i = 0; i < warmup + runs && !rc; i++) {
    double wall = 0;
    struct rusage ru = {0};
    int e = run_once(b->argv, out_fd, &wall, &ru, &b->last_status);
    if (e) {
      rc = e;
      break;
    }
    double stage = out_fd >= 0 ? read_stages(b, out_fd) : -1;
    int code = WIFEXITED(b->last_status) ? WEXITSTATUS(b->last_status)
                                         : 128 + WTERMSIG(b->last_status);
    if (expect && code != *expect) {
      fprintf(stderr, "parse_bench: %s exited with status %d, expected %d\n",
              b->label, code, *expect);
      rc = -1;
    }
    if (i >= warmup)
      record(b, wall, &ru, stage);
  }
  if (out_fd >= 0)
    close(out_fd);
  if (b->runs_ok) {
    qsort(b->wall, (size_t)b->runs_ok, sizeof *b->wall, cmp_double);
    b->median_wall = b->wall[b->runs_ok / 2];
  }
  return rc;
}

/* One report line per measured command. */
static void report(const struct bench *b, double mb) {
  double peak_mb = (double)b->peak_kb * 1024 / 1e6;
  printf("%-16s %4d %9.3f %9.3f %9.1f %8.3f %10.1f %8.2fx\n", b->label,
         b->runs_ok, b->best_wall, b->median_wall, mb / b->median_wall,
         b->best_cpu, peak_mb, peak_mb / mb);
  if (b->stages && b->best_stage > 0)
    printf("  %s stages %s: %.3f s (best run), %.1f MB/s\n", b->label,
           b->stages, b->best_stage, mb / b->best_stage);
  else if (b->stages)
    printf("  %s stages %s: not found in its output\n", b->label, b->stages);
}

/* The command line's options and commands into *o; false on misuse. */
static bool parse_args(int argc, char **argv, struct opts *o) {
  int i = 1;
  /* Options come in pairs: name, value. */
  for (; i < argc && strcmp(argv[i], "--"); i += 2) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v)
      return false;
    if (!strcmp(argv[i], "-f"))
      o->file = v;
    else if (!strcmp(argv[i], "-n"))
      o->runs = atoi(v);
    else if (!strcmp(argv[i], "-w"))
      o->warmup = atoi(v);
    else if (!strcmp(argv[i], "-label"))
      o->cmd.label = v;
    else if (!strcmp(argv[i], "-ref-label"))
      o->ref.label = v;
    else if (!strcmp(argv[i], "-ref-stages"))
      o->ref.stages = v;
    else if (!strcmp(argv[i], "-expect"))
      o->expect = atoi(v);
    else
      return false;
  }
  if (i + 1 >= argc || !o->file || o->runs < 1 || o->runs > 64 || o->warmup < 0)
    return false;
  o->cmd.argv = argv + i + 1;
  for (int j = i + 1; j < argc; j++)
    if (!strcmp(argv[j], "--")) {
      argv[j] = NULL; /* ends CMD's argv */
      o->ref.argv = j + 1 < argc ? argv + j + 1 : NULL;
      break;
    }
  return true;
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* Measure the reference command and print how CMD compares with it. */
static void compare(struct opts *o, double mb) {
  if (!o->ref.label)
    o->ref.label = base_name(o->ref.argv[0]);
  int e = measure(&o->ref, o->warmup, o->runs, NULL);
  if (e > 0) {
    printf("%-16s skipped: cannot run %s: %s\n", o->ref.label, o->ref.argv[0],
           strerror(e));
    return;
  }
  int st = o->ref.last_status;
  if (!WIFEXITED(st) || WEXITSTATUS(st))
    printf("  (%s exited with status %d; its numbers may not compare)\n",
           o->ref.label, WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
  report(&o->ref, mb);
  printf("ratio, %s vs %s: %.2fx the throughput (whole process, median), "
         "%.2fx the peak RSS\n",
         o->cmd.label, o->ref.label, o->ref.median_wall / o->cmd.median_wall,
         (double)o->cmd.peak_kb / (double)o->ref.peak_kb);
  if (o->ref.best_stage > 0)
    printf("ratio, %s (whole process, best) vs %s's %s: %.2fx the "
           "throughput\n",
           o->cmd.label, o->ref.label, o->ref.stages,
           o->ref.best_stage / o->cmd.best_wall);
}

int main(int argc, char **argv) {
  struct opts o = {.runs = 5, .warmup = 1};
  if (!parse_args(argc, argv, &o)) {
    fputs(usage, stderr);
    return 2;
  }
  struct stat st;
  if (stat(o.file, &st) < 0) {
    fprintf(stderr, "parse_bench: %s: %s\n", o.file, strerror(errno));
    return 2;
  }
  if (st.st_size == 0) {
    fprintf(stderr, "parse_bench: %s: empty file\n", o.file);
    return 2;
  }
  double mb = (double)st.st_size / 1e6;
  if (!o.cmd.label)
    o.cmd.label = base_name(o.cmd.argv[0]);
  printf("input: %s, %.1f MB; %d run(s) after %d warm-up\n", o.file, mb, o.runs,
         o.warmup);
  printf("%-16s %4s %9s %9s %9s %8s %10s %9s\n", "command", "runs", "best s",
         "median s", "MB/s", "cpu s", "peakRSS MB", "RSS/file");
  int e = measure(&o.cmd, o.warmup, o.runs, &o.expect);
  if (e > 0)
    fprintf(stderr, "parse_bench: cannot run %s: %s\n", o.cmd.argv[0],
            strerror(e));
  if (e)
    return 1;
  report(&o.cmd, mb);
  if (o.ref.argv && o.ref.argv[0])
    compare(&o, mb);
  return 0;
}
