/*
** What the commands of the CLI share: option spelling, diagnostics on
** stderr with colour only on a terminal.
*/
#include "cli.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *cli_opt_name(const char *arg, char *buf, size_t size,
                         const char **value) {
  if (arg[0] != '-' || arg[1] == '\0')
    return NULL;
  arg += arg[1] == '-' ? 2 : 1;
  const char *eq = strchr(arg, '=');
  size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
  if (n >= size)
    n = size - 1;
  memcpy(buf, arg, n);
  buf[n] = '\0';
  *value = eq ? eq + 1 : NULL;
  return buf;
}

static bool want_color(const struct options *o) {
  const char *nc = getenv("NO_COLOR");
  return !o->no_color && !(nc && *nc) && isatty(STDERR_FILENO);
}

static bool want_unicode(void) {
  const char *vars[] = {"LC_ALL", "LC_CTYPE", "LANG"};
  for (int i = 0; i < 3; i++) {
    const char *v = getenv(vars[i]);
    if (v && *v)
      return strstr(v, "UTF-8") || strstr(v, "utf8") || strstr(v, "UTF8") ||
             strstr(v, "utf-8");
  }
  return true;
}

void cli_print_diags(const tfr_diags *d, const struct options *o) {
  /* stderr is unbuffered: thousands of diagnostics would be thousands of
  ** small writes each.  They are gathered here and written at once. */
  char *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&buf, &len);
  if (!out)
    out = stderr;
  if (o->format == FMT_SHORT) {
    tfr_diags_render_short(d, out);
  } else {
    struct tfr_render_opts ro = {want_color(o), want_unicode()};
    tfr_diags_render_text(d, out, &ro);
  }
  if (out != stderr) {
    fclose(out);
    fwrite(buf, 1, len, stderr);
    free(buf);
  }
}

struct stack_run {
  int (*fn)(int, char **);
  int argc;
  char **argv;
  int status;
};

static void *stack_run(void *arg) {
  struct stack_run *r = arg;
  r->status = r->fn(r->argc, r->argv);
  return NULL;
}

int cli_run_with_stack(int (*main_fn)(int, char **), int argc, char **argv) {
  struct stack_run r = {main_fn, argc, argv, 0};
  pthread_attr_t attr;
  pthread_t t;
  if (pthread_attr_init(&attr) != 0)
    return main_fn(argc, argv);
  bool started = pthread_attr_setstacksize(&attr, CLI_STACK_BYTES) == 0 &&
                 pthread_create(&t, &attr, stack_run, &r) == 0;
  pthread_attr_destroy(&attr);
  if (!started)
    return main_fn(argc, argv);
  pthread_join(t, NULL);
  return r.status;
}

_Noreturn void cli_oom(void) {
  fputs("tfresolve: out of memory\n", stderr);
  exit(EXIT_INVALID);
}
