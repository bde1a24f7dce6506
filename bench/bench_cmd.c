/*
** bench_cmd: time one command, whole process, and print the measurements
** as one JSON object.  The resolve benchmarks' driver (resolve_bench.py)
** runs it once per command it measures: tfresolve (many short runs) and
** the reference programs (a few long runs, with a time limit).
**
** Each run is fork/exec; wall time is taken around fork..wait4, CPU time
** and peak RSS come from wait4's rusage (which includes the child's own
** waited-for children).  The child runs in its own process group so that
** a run that exceeds the time limit is killed with everything it started.
**
** Usage: bench_cmd [options] -- CMD [ARG...]   (see usage[] below)
*/
#define _DEFAULT_SOURCE /* wait4, struct rusage */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
    "Usage: bench_cmd [options] -- CMD [ARG...]\n"
    "\n"
    "Run CMD WARMUP + RUNS times and print one JSON object: the timed\n"
    "runs' wall times (sorted), best and median wall time, best CPU time,\n"
    "the largest peak RSS (KB), the last exit status, and whether a run\n"
    "was killed for exceeding the time limit (then measuring stops).\n"
    "\n"
    "Options:\n"
    "  -n RUNS      timed runs (default 5, at most 1000)\n"
    "  -w RUNS      untimed warm-up runs (default 1)\n"
    "  -t SECONDS   kill a run (its process group) after SECONDS\n"
    "  -C DIR       run CMD in DIR\n"
    "  -i FILE      CMD's standard input (default /dev/null)\n"
    "  -o FILE      CMD's standard output, rewritten by every run\n"
    "               (default /dev/null)\n"
    "  -e FILE      CMD's standard error, likewise\n"
    "\n"
    "Exit status: 0 when CMD ran (whatever its status), 1 when it could\n"
    "not be executed (the JSON says why), 2 on a usage error.\n";

#define MAX_RUNS 1000

struct opts {
  int runs, warmup;
  double timeout; /* seconds; 0: none */
  const char *dir, *in, *out, *err;
  char **argv;
};

struct result {
  int runs_ok;
  double wall[MAX_RUNS];
  double best_cpu, user, sys; /* best_cpu's user and system parts */
  long peak_kb;
  int status; /* exit code, or 128 + signal */
  bool timed_out;
  int exec_errno;
};

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double tv_sec(struct timeval tv) {
  return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

/* Open path (or /dev/null) onto fd; false on failure. */
static bool redirect(const char *path, int flags, int fd) {
  int f = open(path ? path : "/dev/null", flags, 0644);
  if (f < 0)
    return false;
  if (f != fd) {
    dup2(f, fd);
    close(f);
  }
  return true;
}

/*
** In the child: own process group, directory, standard streams, exec.
** A failure is reported as an errno through err_fd (close-on-exec, so the
** parent reads EOF when exec succeeds).
*/
static void child(const struct opts *o, int err_fd) {
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  setpgid(0, 0);
  int wr = O_WRONLY | O_CREAT | O_TRUNC;
  if ((o->dir && chdir(o->dir) < 0) || !redirect(o->in, O_RDONLY, 0) ||
      !redirect(o->out, wr, 1) || !redirect(o->err, wr, 2)) {
    int e = errno;
    if (write(err_fd, &e, sizeof e) < 0)
      _exit(126);
    _exit(127);
  }
  execvp(o->argv[0], o->argv);
  int e = errno;
  if (write(err_fd, &e, sizeof e) < 0)
    _exit(126);
  _exit(127);
}

/*
** Wait for pid until the deadline (SIGCHLD is blocked, so it stays
** pending until we take it); past it, kill the process group.  Returns
** true when the run was killed.
*/
static bool wait_deadline(pid_t pid, double deadline) {
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  for (;;) {
    siginfo_t info = {0};
    /* WNOWAIT: leave the zombie for wait4, which gives the rusage. */
    int rc = waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT);
    if ((rc < 0 && errno != EINTR) || (rc == 0 && info.si_pid == pid))
      return false; /* done (or an error wait4 will report) */
    double left = deadline - now();
    if (left <= 0) {
      kill(-pid, SIGKILL);
      return true;
    }
    struct timespec ts = {(time_t)left, (long)((left - (time_t)left) * 1e9)};
    sigtimedwait(&chld, NULL, &ts);
  }
}

/*
** Run the command once: fills *wall, *ru and *status; returns 0, or the
** errno of a failed fork/exec.  *killed tells whether the time limit hit.
*/
static int run_once(const struct opts *o, double *wall, struct rusage *ru,
                    int *status, bool *killed) {
  int p[2];
  if (pipe(p) < 0)
    return errno;
  fcntl(p[1], F_SETFD, FD_CLOEXEC);
  double t0 = now();
  pid_t pid = fork();
  if (pid < 0)
    return errno;
  if (pid == 0)
    child(o, p[1]);
  setpgid(pid, pid); /* also here: no race with kill(-pid) */
  close(p[1]);
  int e = 0;
  ssize_t got = read(p[0], &e, sizeof e);
  close(p[0]);
  *killed = o->timeout > 0 && wait_deadline(pid, t0 + o->timeout);
  while (wait4(pid, status, 0, ru) < 0)
    if (errno != EINTR)
      return errno;
  *wall = now() - t0;
  return got == (ssize_t)sizeof e ? e : 0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Run the command as the options say and collect the measurements. */
static void measure(const struct opts *o, struct result *r) {
  for (int i = 0; i < o->warmup + o->runs; i++) {
    double wall = 0;
    struct rusage ru = {0};
    bool killed = false;
    int st = 0;
    int e = run_once(o, &wall, &ru, &st, &killed);
    if (e) {
      r->exec_errno = e;
      return;
    }
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    if (ru.ru_maxrss > r->peak_kb)
      r->peak_kb = ru.ru_maxrss;
    if (killed) {
      r->timed_out = true;
      return;
    }
    if (i < o->warmup)
      continue;
    double user = tv_sec(ru.ru_utime), sys = tv_sec(ru.ru_stime);
    if (!r->runs_ok || user + sys < r->best_cpu) {
      r->best_cpu = user + sys;
      r->user = user;
      r->sys = sys;
    }
    r->wall[r->runs_ok++] = wall;
  }
}

/* s as a JSON string (command words are printable in practice). */
static void put_json_str(const char *s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      printf("\\%c", c);
    else if (c < 0x20)
      printf("\\u%04x", c);
    else
      putchar(c);
  }
  putchar('"');
}

static void print_result(const struct opts *o, struct result *r) {
  qsort(r->wall, (size_t)r->runs_ok, sizeof *r->wall, cmp_double);
  printf("{\"argv\": [");
  for (int i = 0; o->argv[i]; i++) {
    printf(i ? ", " : "");
    put_json_str(o->argv[i]);
  }
  printf("], \"runs\": %d, \"warmup\": %d, \"wall_s\": [", r->runs_ok,
         o->warmup);
  for (int i = 0; i < r->runs_ok; i++)
    printf("%s%.6f", i ? ", " : "", r->wall[i]);
  printf("]");
  if (r->runs_ok)
    printf(", \"best_s\": %.6f, \"median_s\": %.6f, \"cpu_s\": %.6f, "
           "\"user_s\": %.6f, \"sys_s\": %.6f",
           r->wall[0], r->wall[r->runs_ok / 2], r->best_cpu, r->user, r->sys);
  printf(", \"peak_rss_kb\": %ld, \"status\": %d, \"timed_out\": %s",
         r->peak_kb, r->status, r->timed_out ? "true" : "false");
  if (r->exec_errno) {
    printf(", \"error\": ");
    put_json_str(strerror(r->exec_errno));
  }
  printf("}\n");
}

/* The command line into *o; false on misuse. */
static bool parse_args(int argc, char **argv, struct opts *o) {
  int i = 1;
  for (; i < argc && strcmp(argv[i], "--"); i += 2) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v)
      return false;
    if (!strcmp(argv[i], "-n"))
      o->runs = atoi(v);
    else if (!strcmp(argv[i], "-w"))
      o->warmup = atoi(v);
    else if (!strcmp(argv[i], "-t"))
      o->timeout = strtod(v, NULL);
    else if (!strcmp(argv[i], "-C"))
      o->dir = v;
    else if (!strcmp(argv[i], "-i"))
      o->in = v;
    else if (!strcmp(argv[i], "-o"))
      o->out = v;
    else if (!strcmp(argv[i], "-e"))
      o->err = v;
    else
      return false;
  }
  o->argv = argv + i + 1;
  return i + 1 < argc && o->runs >= 1 && o->runs <= MAX_RUNS &&
         o->warmup >= 0 && o->timeout >= 0;
}

int main(int argc, char **argv) {
  struct opts o = {.runs = 5, .warmup = 1};
  if (!parse_args(argc, argv, &o)) {
    fputs(usage, stderr);
    return 2;
  }
  /* Keep SIGCHLD pending for sigtimedwait (see wait_deadline). */
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_BLOCK, &chld, NULL);
  static struct result r;
  measure(&o, &r);
  print_result(&o, &r);
  return r.exec_errno ? 1 : 0;
}
