/*
** tfresolve command line: a thin layer over libtfresolve.  main() starts
** a run (the memory budget, SIGBUS, the global -chdir, Terraform's
** TF_CLI_ARGS) and hands it to the command the table names; each command
** is in its cmd_NAME.c.  Only the commands turn diagnostics into exit
** statuses, and cli_run_with_stack checks that the output was written.
*/
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <editline/readline.h>
#include <jansson.h>

#include "cli.h"
#include "options.h"
#include "commit.h"

/* Every command, in the order `tfresolve -help` lists them. */
const struct cli_command *const cli_commands[] = {
    &cli_cmd_show,    &cli_cmd_check,
    &cli_cmd_explain, &cli_cmd_diff,
    &cli_cmd_lsp,     &cli_cmd_eval,
    &cli_cmd_console, &cli_cmd_init,
    &cli_cmd_inspect, &cli_cmd_docs,
    &cli_cmd_test,    &cli_cmd_parse,
    &cli_cmd_tables,  NULL};

/* The options before the command (-max-memory anywhere before "--"). */
const struct cli_global cli_globals[] = {
    {"chdir", "-chdir=DIR",
     "Switch to DIR before the command, as Terraform's\n"
     "global -chdir does (tfresolve -chdir=env/prod show)"},
    {"help", "-help, --help", "Show this help, or a command's help"},
    {"version", "-version, --version", "Show the version"},
    {"max-memory", "-max-memory=SIZE",
     "Memory values may take (512M, 4G; any command;\n"
     "default half the physical memory, at most 16G)"},
    {NULL, NULL, NULL}};

/* `tfresolve -help`: the commands and the global options, from the
** tables. */
static void main_help(FILE *f) {
  fputs("Usage: tfresolve [global options] <command> [options] [args]\n"
        "\n"
        "Evaluate Terraform/OpenTofu input variables offline.\n"
        "\n"
        "Commands:\n",
        f);
  for (const struct cli_command *const *c = cli_commands; *c; c++) {
    if ((*c)->flags & CLI_SECRET)
      continue;
    fprintf(f, "  %-10s ", (*c)->name);
    for (const char *p = (*c)->summary; *p; p++)
      if (*p == '\n')
        fprintf(f, "\n%13s", "");
      else
        fputc(*p, f);
    fputc('\n', f);
  }
  fputs("\nGlobal options:\n", f);
  for (const struct cli_global *g = cli_globals; g->name; g++) {
    fprintf(f, "  %-20s ", g->label);
    for (const char *p = g->help; *p; p++)
      if (*p == '\n')
        fprintf(f, "\n%23s", "");
      else
        fputc(*p, f);
    fputc('\n', f);
  }
}

/* Large tfvars files are mapped (see the library's src/syntax/source.c): a file
** cut short by another program while it is read would end the process
** with SIGBUS.  Say what happened instead. */
static void on_sigbus(int sig) {
  static const char msg[] =
      "tfresolve: a file became shorter while it was being read (another "
      "program changed it); run tfresolve again\n";
  (void)sig;
  ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
  (void)w;
  _exit(EXIT_INVALID);
}

/*
** -max-memory=SIZE, accepted by every command (before "--"): the memory
** budget of values (tfr_set_memory_budget), in bytes or with a K, M, G or
** T suffix (powers of 1024; "B" or "iB" may follow).  Removed from argv;
** the new argc, or -1 after a usage error.
*/
static int take_max_memory(int argc, char **argv) {
  int out = 1;
  bool rest = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--"))
      rest = true;
    const char *v = NULL;
    if (!rest &&
        (!strncmp(a, "-max-memory=", 12) || !strncmp(a, "--max-memory=", 13)))
      v = strchr(a, '=') + 1;
    if (!v) {
      argv[out++] = argv[i];
      continue;
    }
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    int shift = 0;
    switch (*end) {
    case 'K':
    case 'k':
      shift = 10;
      end++;
      break;
    case 'M':
    case 'm':
      shift = 20;
      end++;
      break;
    case 'G':
    case 'g':
      shift = 30;
      end++;
      break;
    case 'T':
    case 't':
      shift = 40;
      end++;
      break;
    default:
      break;
    }
    if (shift && !strcmp(end, "iB"))
      end += 2;
    else if (*end == 'B')
      end++;
    if (!isdigit((unsigned char)*v) || *end || errno || n == 0 ||
        n > (SIZE_MAX >> shift)) {
      fprintf(stderr,
              "tfresolve: -max-memory: invalid size \"%s\" (a "
              "number of bytes, or with K, M, G or T: 512M, 4G)\n",
              v);
      return -1;
    }
    tfr_set_memory_budget((size_t)(n << shift));
  }
  argv[out] = NULL;
  return out;
}

static int version(void) {
  printf("tfresolve %s (commit %s)\n"
         "Follows the input-variable semantics of %s\n"
         "(value sources and precedence, type constraints and conversion, "
         "validation rules, built-in functions).\n"
         "Built with %s, libedit %s, jansson %s.\n",
         tfr_version(), TFR_COMMIT, tfr_semantics(), tfr_library_versions(),
         TFR_LIBEDIT_VERSION, jansson_version_str());
  return EXIT_OK;
}

/* Terraform's global -chdir=DIR, before the command: everything after
** (relative -var-file paths too) happens in DIR.  False after a
** message. */
static bool global_chdir(int *argc, char ***argv) {
  while (*argc >= 2 && !strncmp((*argv)[1], "-chdir=", 7)) {
    const char *dir = (*argv)[1] + 7;
    if (!*dir || chdir(dir) != 0) {
      fprintf(stderr, "tfresolve: error handling -chdir option: chdir %s: %s\n",
              dir, *dir ? strerror(errno) : "no directory given");
      return false;
    }
    (*argv)[1] = (*argv)[0];
    --*argc;
    ++*argv;
  }
  return true;
}

/* The command named name, or NULL after a message (with the command it
** may have meant). */
static const struct cli_command *command(const char *name) {
  const char *names[sizeof cli_commands / sizeof *cli_commands];
  size_t n = 0;
  for (const struct cli_command *const *c = cli_commands; *c; c++) {
    if (!strcmp((*c)->name, name))
      return *c;
    if (!((*c)->flags & CLI_SECRET))
      names[n++] = (*c)->name;
  }
  const char *near = tfr_suggest_name(name, names, n);
  fprintf(stderr, "tfresolve: unknown command \"%s\"", name);
  if (near)
    fprintf(stderr, ". Did you mean \"%s\"?", near);
  fputs("\n\n", stderr);
  main_help(stderr);
  return NULL;
}

static int real_main(int argc, char **argv) {
  argc = take_max_memory(argc, argv);
  if (argc < 0)
    return EXIT_USAGE;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigbus;
  sigaction(SIGBUS, &sa, NULL);
  if (!global_chdir(&argc, &argv))
    return EXIT_USAGE;
  if (argc < 2) {
    main_help(stderr);
    return EXIT_USAGE;
  }
  char buf[64];
  const char *val = NULL;
  const char *name = cli_opt_name(argv[1], buf, sizeof buf, &val);
  if (name && (!strcmp(name, "version") || !strcmp(name, "v")))
    return version();
  if (name && (!strcmp(name, "help") || !strcmp(name, "h"))) {
    main_help(stdout);
    return EXIT_OK;
  }
  const struct cli_command *c = command(argv[1]);
  if (!c)
    return EXIT_USAGE;
  /* Terraform's extra arguments from the environment, for the commands
  ** that stand for one of Terraform's */
  if (c->tfcmd && !cli_merge_env_args(&argc, &argv, c->tfcmd))
    return EXIT_USAGE;
  struct cli_opts o = {0};
  int rc;
  if (c->flags & CLI_RAW) {
    o.cmd = c, o.argc = argc - 2, o.argv = argv + 2;
    rc = c->run(&o);
  } else {
    rc = cli_parse(c, argc - 2, argv + 2, &o);
    rc = rc == EXIT_OK ? c->run(&o) : rc < 0 ? EXIT_OK : rc;
  }
  cli_opts_free(&o);
  return rc;
}

int main(int argc, char **argv) {
  /* the library's out-of-memory path ends the run like the CLI's own */
  tfr_set_oom_handler(cli_oom);
  json_set_alloc_funcs(cli_alloc, free); /* jansson's failures too */
  return cli_run_with_stack(real_main, argc, argv);
}
