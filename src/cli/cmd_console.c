/*
** tfresolve console [DIR]: Terraform's console, offline: expressions read
** from standard input with the module's values in scope; a line editor on
** a terminal, Terraform's piped mode otherwise.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <editline/readline.h>

#include "cli.h"
#include "options.h"
#include "cli_eval.h"

/* How many brackets the text leaves open (outside strings), so that an
** expression can span lines as in Terraform's console. */
static int open_brackets(const char *s) {
  int depth = 0;
  bool in_str = false;
  for (; *s; s++) {
    if (in_str) {
      if (*s == '\\' && s[1])
        s++;
      else if (*s == '"')
        in_str = false;
    } else if (*s == '"') {
      in_str = true;
    } else if (*s == '#' || (*s == '/' && s[1] == '/')) {
      break;
    } else if (*s == '(' || *s == '[' || *s == '{') {
      depth++;
    } else if (*s == ')' || *s == ']' || *s == '}') {
      depth--;
    }
  }
  return depth;
}

/* What the console's "help" prints. */
static const char console_help[] =
    "The console evaluates expressions: try var.NAME, local.NAME or a "
    "function call such as upper(\"x\").  \"exit\" leaves.\n";

/* Standard input that is not a terminal, as Terraform's console reads it
** (console.go's modePiped): each line one expression (surrounding white
** space trimmed); the first error is shown and ends the run with status
** 1; "exit" ends it with status 0 and nothing printed; at the end of the
** input only the last line's result is printed (an empty line's is an
** empty line). */
static int console_piped(struct eval_env *env, const struct options *o) {
  char *line = NULL, *last = NULL;
  size_t cap = 0;
  ssize_t n;
  int status = EXIT_OK;
  bool done = false;
  while (!done && (n = cli_getline(&line, &cap, stdin)) > 0) {
    char *t = line, *end = line + n;
    while (end > t && strchr(" \t\n\v\f\r", end[-1]))
      *--end = '\0';
    while (*t && strchr(" \t\n\v\f\r", *t))
      t++;
    char *result = NULL;
    if (!strcmp(t, "exit")) {
      done = true;
      free(last);
      last = NULL;
      continue;
    }
    if (!*t || !strcmp(t, "help")) {
      result = cli_strdup(*t ? console_help : "\n");
    } else {
      size_t size = 0;
      env->out = cli_memstream(&result, &size);
      env->yaml_docs = 0; /* one value shown: no stream of documents */
      bool ok = cli_eval_one(t, env, o);
      cli_memstream_close(env->out);
      env->out = NULL;
      if (!ok) { /* what eval_one wrote (-format=json's error) */
        if (result)
          fputs(result, stdout);
        free(result);
        status = EXIT_INVALID;
        done = true;
        free(last);
        last = NULL;
        continue;
      }
    }
    free(last);
    last = result;
  }
  fputs(last ? last : done ? "" : "\n", stdout);
  free(last);
  free(line);
  return status;
}

static int run(struct cli_opts *co) {
  struct options o = co->o;
  struct eval_env env = {0};
  o.functions = true;
  env.name = "<console-input>"; /* as Terraform's console names it */
  if (co->operands.n > 1)
    return cli_usage_error(co->cmd, "unexpected argument \"%s\"",
                           co->operands.v[1]);
  const char *dir = co->operands.n ? co->operands.v[0] : NULL;
  if (dir && chdir(dir) != 0) {
    fprintf(stderr, "tfresolve: cannot change directory to %s\n", dir);
    return EXIT_USAGE;
  }
  tfr_arena *a = tfr_arena_new();
  int status;
  if (!cli_eval_setup(a, &env, co, &o, &status)) {
    tfr_arena_free(a);
    return status;
  }
  bool tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
  if (!isatty(STDIN_FILENO)) {
    int status = console_piped(&env, &o);
    tfr_arena_free(a);
    return status;
  }
  bool last = true;
  char *line = NULL, *expr = NULL;
  size_t cap = 0, len = 0;
  ssize_t n;
  for (;;) {
    if (tty) { /* line editing and history (libedit) */
      free(line);
      line = readline(len ? ". " : "> ");
      cap = 0;
      if (!line)
        break;
      n = (ssize_t)strlen(line);
    } else if ((n = cli_getline(&line, &cap, stdin)) <= 0) {
      break;
    }
    if (n && line[n - 1] == '\n')
      line[--n] = '\0';
    expr = cli_realloc(expr, len + (size_t)n + 2);
    memcpy(expr + len, line, (size_t)n + 1);
    len += (size_t)n;
    if (open_brackets(expr) > 0) {
      expr[len++] = '\n';
      expr[len] = '\0';
      continue;
    }
    const char *t = expr;
    while (*t == ' ' || *t == '\t')
      t++;
    if (tty && *t)
      add_history(expr);
    if (!strcmp(t, "exit")) {
      len = 0;
      break;
    }
    if (!strcmp(t, "help"))
      fputs(console_help, stdout);
    else if (*t)
      last = cli_eval_one(expr, &env, &o);
    len = 0;
  }
  if (len && strspn(expr, " \t\n") < len)
    last = cli_eval_one(expr, &env, &o); /* cut short by the end of input */
  if (tty)
    fputc('\n', stdout);
  free(line);
  free(expr);
  tfr_arena_free(a);
  return last ? EXIT_OK : EXIT_INVALID;
}

static const struct cli_choice formats[] = {
    {"console", FMT_HUMAN, NULL},
    {"json", FMT_JSON,
     "one line {\"type\": T, \"value\": V} or {\"error\": ...} "
     "each"},
    {"yaml", FMT_YAML, NULL},
    {NULL, 0, NULL}};

static const struct cli_option options[] = {
    CLI_OPT_INCLUDE(cli_opts_scope),     CLI_OPT_INCLUDE(cli_opts_sources),
    CLI_OPT_INCLUDE(cli_opts_no_env),    CLI_OPT_INCLUDE(cli_opts_chdir),
    CLI_OPT_INCLUDE(cli_opts_engine),    CLI_OPT_INCLUDE(cli_opts_format),
    CLI_OPT_INCLUDE(cli_opts_sensitive), CLI_OPT_INCLUDE(cli_opts_no_color),
    CLI_OPT_INCLUDE(cli_opts_help),      CLI_OPT_END};

const struct cli_command cli_cmd_console = {
    .name = "console",
    .summary = "Terraform's console, offline: expressions with the module's "
               "values",
    .run = run,
    .options = options,
    .formats = formats,
    .usage =
        "Usage: tfresolve console [options] [DIR]\n"
        "\n"
        "Terraform's console, offline: read expressions from standard input "
        "and\n"
        "print each value, with Terraform's functions and the module's var.*\n"
        "(resolved from every value source), local.*, module.NAME, path.* and\n"
        "terraform.workspace in scope (with -scope=ADDRESS, those of that\n"
        "module instance, as `terraform console -scope` has them).  On a\n"
        "terminal an expression may span\n"
        "lines while a bracket is open; from a pipe, as Terraform's console\n"
        "reads one, each line is an expression, only the last result is\n"
        "printed and the first error ends the run.  \"exit\" or end of input\n"
        "ends it.\n",
    .footer =
        "Exit status: 0, or 1 if an expression failed (from a pipe: the "
        "first\n"
        "error), or the last one failed (on a terminal); 2 usage error.\n",
    .tfcmd = "console"};
