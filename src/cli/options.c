/*
** One parser for every command's options, driven by the command's table
** (options.h), and the help generated from the same table [git
** parse-options]: the options several commands take are declared here,
** once; and Terraform's TF_CLI_ARGS, put into the command line.
*/
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_util.h"
#include "options.h"

/* ---- the shared options ------------------------------------------------ */

static bool set_var(struct cli_opts *o, const char *arg, const char *val) {
  struct tfr_cli_arg *x = &o->args[o->nargs++];
  memset(x, 0, sizeof *x);
  char buf[16];
  const char *ignored, *name = cli_opt_name(arg, buf, sizeof buf, &ignored);
  x->file = !strcmp(name, "var-file");
  x->via = cli_arg_via(arg);
  x->value = val;
  return true;
}

static bool set_chdir(struct cli_opts *o, const char *arg, const char *val) {
  (void)o, (void)arg;
  if (chdir(val) == 0)
    return true;
  fprintf(stderr, "tfresolve: cannot change directory to %s: %s\n", val,
          strerror(errno));
  return false;
}

/* -format=F: the one place a format is read (from the command's list). */
static bool set_format(struct cli_opts *o, const char *arg, const char *val) {
  (void)arg;
  const struct cli_choice *f = o->cmd->formats;
  for (; f && f->name; f++)
    if (!strcmp(f->name, val)) {
      o->format = f->value;
      o->format_given = true;
      return true;
    }
  struct cli_buf b = {0};
  for (f = o->cmd->formats; f && f->name; f++) {
    cli_buf_puts(&b, f == o->cmd->formats ? "" : f[1].name ? ", " : " or ");
    cli_buf_puts(&b, f->name);
  }
  cli_usage_error(o->cmd, "unknown format \"%s\" (%s)", val, b.p ? b.p : "");
  free(b.p);
  return false;
}

static bool set_json(struct cli_opts *o, const char *arg, const char *val) {
  (void)arg, (void)val;
  o->format = FMT_JSON;
  o->format_given = true;
  return true;
}

static const struct cli_choice engines[] = {
    {"terraform", 0, NULL}, {"opentofu", 1, NULL}, {NULL, 0, NULL}};

const struct cli_option cli_opts_help[] = {
    {.kind = CLI_HELP, .name = "help", .help = "Show this help"},
    {.kind = CLI_HELP, .name = "h", .flags = CLI_HIDDEN},
    CLI_OPT_END};

const struct cli_option cli_opts_sources[] = {
    {.kind = CLI_CALL,
     .name = "var",
     .arg = "'NAME=VALUE'",
     .call = set_var,
     .label = "-var 'NAME=VALUE'",
     .help = "Set a variable (repeatable; order matters)"},
    {.kind = CLI_CALL,
     .name = "var-file",
     .arg = "FILE",
     .call = set_var,
     .help = "Load variable values from FILE (repeatable)"},
    CLI_OPT_END};

const struct cli_option cli_opts_chdir[] = {
    {.kind = CLI_CALL,
     .name = "chdir",
     .arg = "DIR",
     .call = set_chdir,
     .help = "Work in DIR first (relative paths that follow too)"},
    CLI_OPT_END};

const struct cli_option cli_opts_no_env[] = {
    CLI_OPT_FLAG("no-env", no_env,
                 "Ignore TF_VAR_*, TF_CLI_ARGS and TF_CLI_ARGS_<command>", 0),
    CLI_OPT_END};

/* Terraform's console -scope (internal/command/arguments/console.go:65,
** console.go:127-146); the address is read by tfr_resolution_scope. */
const struct cli_option cli_opts_scope[] = {
    CLI_OPT_VALUE("scope", "ADDRESS", scope,
                  "Evaluate in this module instance of the tree, as "
                  "terraform console -scope does (module.NAME, "
                  "module.NAME[KEY], module.A.module.B): its var.*, local.* "
                  "and the outputs of its own module calls"),
    CLI_OPT_END};

const struct cli_option cli_opts_engine[] = {
    {.kind = CLI_CHOICE,
     .name = "engine",
     .arg = "E",
     .off = CLI_OFF(engine),
     .choices = engines,
     .help = "Whose rules: terraform (default) or opentofu (.tofu files, "
             "OpenTofu's extra functions)"},
    CLI_OPT_END};

const struct cli_option cli_opts_json[] = {
    {.kind = CLI_CALL,
     .name = "json",
     .call = set_json,
     .help = "Machine-readable output (doc/json-format.md)"},
    CLI_OPT_END};

const struct cli_option cli_opts_format[] = {
    {.kind = CLI_CALL,
     .name = "format",
     .arg = "F",
     .call = set_format,
     .help = "Output format:"}, /* the command's formats follow */
    {.kind = CLI_CALL,
     .name = "json",
     .call = set_json,
     .help = "Same as -format=json"},
    CLI_OPT_END};

const struct cli_option cli_opts_sensitive[] = {
    CLI_OPT_FLAG("show-sensitive", o.show_sensitive,
                 "Print the values of sensitive variables", 0),
    CLI_OPT_END};

const struct cli_option cli_opts_no_color[] = {
    CLI_OPT_FLAG("no-color", o.no_color, "No colour in diagnostics", 0),
    CLI_OPT_END};

const struct cli_option cli_opts_no_modules[] = {
    CLI_OPT_FLAG("no-modules", no_modules,
                 "The root module alone: module blocks are not followed "
                 "into child modules",
                 CLI_NOVAL),
    CLI_OPT_END};

const struct cli_option cli_opts_dir_end[] = {
    CLI_OPT_INCLUDE(cli_opts_engine), CLI_OPT_INCLUDE(cli_opts_chdir),
    CLI_OPT_INCLUDE(cli_opts_no_color), CLI_OPT_INCLUDE(cli_opts_help),
    CLI_OPT_END};

/* ---- walking a table --------------------------------------------------- */

static const struct cli_option *find(const struct cli_option *t,
                                     const char *name) {
  for (; t && t->kind != CLI_END; t++) {
    const struct cli_option *r = t->kind == CLI_INCLUDE ? find(t->include, name)
                                 : !strcmp(t->name, name) ? t
                                                          : NULL;
    if (r)
      return r;
  }
  return NULL;
}

static void each(const struct cli_option *t,
                 void (*fn)(const struct cli_option *opt, void *ctx),
                 void *ctx) {
  for (; t && t->kind != CLI_END; t++)
    if (t->kind == CLI_INCLUDE)
      each(t->include, fn, ctx);
    else
      fn(t, ctx);
}

void cli_each_option(const struct cli_command *c,
                     void (*fn)(const struct cli_option *opt, void *ctx),
                     void *ctx) {
  each(c->options, fn, ctx);
}

struct names {
  const char **v;
  size_t n, cap;
};

static void add_name(const struct cli_option *opt, void *ctx) {
  struct names *l = ctx;
  if (opt->flags & CLI_HIDDEN)
    return;
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 32;
    l->v = cli_realloc(l->v, l->cap * sizeof *l->v);
  }
  l->v[l->n++] = opt->name;
}

const char *cli_suggest_option(const struct cli_command *c, const char *name) {
  static char out[64];
  struct names l = {0};
  cli_each_option(c, add_name, &l);
  const char *near = tfr_suggest_name(name, l.v, l.n);
  if (near)
    snprintf(out, sizeof out, "-%s", near);
  free(l.v);
  return near ? out : NULL;
}

/* ---- the help ---------------------------------------------------------- */

enum { HELP_COLUMN = 22, HELP_WIDTH = 78 };

/* text wrapped at HELP_WIDTH, its lines after the first indented to col
** (the first starts at column *at). */
static void wrap(FILE *f, const char *text, int at, int col) {
  while (*text) {
    size_t n = strcspn(text, " ");
    if (at > col && at + 1 + (int)n > HELP_WIDTH) {
      fprintf(f, "\n%*s", col, "");
      at = col;
    } else if (at > col) {
      fputc(' ', f);
      at++;
    }
    fwrite(text, 1, n, f);
    at += (int)n;
    text += n;
    text += strspn(text, " ");
  }
}

/* -format's paragraph: its help, then the command's formats. */
static const char *format_help(const struct cli_command *c,
                               const struct cli_option *opt,
                               struct cli_buf *b) {
  cli_buf_puts(b, opt->help);
  for (const struct cli_choice *f = c->formats; f && f->name; f++) {
    cli_buf_puts(b, f == c->formats ? " " : f[1].name ? ", " : " or ");
    cli_buf_puts(b, f->name);
    if (f == c->formats) {
      cli_buf_puts(b, " (default");
      cli_buf_puts(b, f->about ? ": " : "");
      cli_buf_puts(b, f->about ? f->about : "");
      cli_buf_puts(b, ")");
    } else if (f->about) {
      cli_buf_puts(b, " (");
      cli_buf_puts(b, f->about);
      cli_buf_puts(b, ")");
    }
  }
  return b->p;
}

struct help_ctx {
  const struct cli_command *c;
  FILE *f;
};

static void help_line(const struct cli_option *opt, void *ctx) {
  struct help_ctx *h = ctx;
  if (opt->flags & (CLI_HIDDEN | CLI_IGNORED))
    return;
  char label[64];
  if (opt->label)
    snprintf(label, sizeof label, "%s", opt->label);
  else
    snprintf(label, sizeof label, "-%s%s%s", opt->name, opt->arg ? "=" : "",
             opt->arg ? opt->arg : "");
  int at = fprintf(h->f, "  %s", label);
  if (at > HELP_COLUMN - 2) {
    fprintf(h->f, "\n%*s", HELP_COLUMN, "");
    at = HELP_COLUMN;
  } else {
    fprintf(h->f, "%*s", HELP_COLUMN - at, "");
    at = HELP_COLUMN;
  }
  struct cli_buf b = {0};
  const char *text =
      opt->call == set_format ? format_help(h->c, opt, &b) : opt->help;
  wrap(h->f, text ? text : "", at, HELP_COLUMN);
  fputc('\n', h->f);
  free(b.p);
}

void cli_help(const struct cli_command *c, FILE *f) {
  fputs(c->usage, f);
  if (c->options) {
    fputs("\nOptions:\n", f);
    struct help_ctx h = {c, f};
    cli_each_option(c, help_line, &h);
  }
  if (c->footer) {
    fputc('\n', f);
    fputs(c->footer, f);
  }
}

int cli_usage_error(const struct cli_command *c, const char *fmt, ...) {
  fprintf(stderr, "tfresolve %s: ", c->name);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputs("\n\n", stderr);
  cli_help(c, stderr);
  return EXIT_USAGE;
}

/* ---- the parser -------------------------------------------------------- */

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

static void *field(struct cli_opts *o, const struct cli_option *opt) {
  return (char *)o + opt->off;
}

/* An option that is not one of c's: Terraform's flag error for a
** command that stands for one of Terraform's (reported by the command),
** else a usage error, with the option it may have meant. */
static int unknown(const struct cli_command *c, struct cli_opts *o,
                   const char *arg, const char *name) {
  const char *near = cli_suggest_option(c, name);
  if (c->flags & CLI_TF_FLAGS) {
    if (!o->bad_flag) {
      o->bad_flag = arg;
      o->suggested = near ? cli_strdup(near) : NULL;
    }
    return EXIT_OK;
  }
  if (near)
    return cli_usage_error(c, "unknown option \"%s\". Did you mean \"%s\"?",
                           arg, near);
  return cli_usage_error(c, "unknown option \"%s\"", arg);
}

static bool choose(const struct cli_command *c, struct cli_opts *o,
                   const struct cli_option *opt, const char *val) {
  for (const struct cli_choice *k = opt->choices; k->name; k++)
    if (!strcmp(k->name, val)) {
      *(int *)field(o, opt) = k->value;
      return true;
    }
  struct cli_buf b = {0};
  for (const struct cli_choice *k = opt->choices; k->name; k++) {
    cli_buf_puts(&b, k == opt->choices ? "" : k[1].name ? ", " : " or ");
    cli_buf_puts(&b, k->name);
  }
  cli_usage_error(c, "unknown %s \"%s\" (%s)", opt->name, val, b.p);
  free(b.p);
  return false;
}

/* Option opt, given as argv[*i] (with "=" value val): EXIT_OK (*i past a
** value it took), EXIT_USAGE after a message, or -1 after the help. */
static int take(const struct cli_command *c, struct cli_opts *o,
                const struct cli_option *opt, const char *val, int argc,
                char **argv, int *i) {
  const char *arg = argv[*i];
  bool wants = opt->arg || opt->kind == CLI_VALUE || opt->kind == CLI_LIST ||
               opt->kind == CLI_CHOICE;
  if (opt->kind == CLI_HELP) {
    cli_help(c, stdout);
    return -1;
  }
  if (!wants && val && (opt->flags & CLI_NOVAL))
    return unknown(c, o, arg, arg);
  if (wants && !val) {
    if (*i + 1 >= argc)
      return cli_usage_error(c, "%s needs a value", arg);
    val = argv[++*i];
  }
  if (opt->flags & CLI_IGNORED) {
    for (size_t k = 0; k < o->nignored; k++)
      if (!strcmp(o->ignored[k], opt->name))
        return EXIT_OK;
    o->ignored[o->nignored++] = opt->name;
    return EXIT_OK;
  }
  switch (opt->kind) {
  case CLI_FLAG:
    *(bool *)field(o, opt) = true;
    return EXIT_OK;
  case CLI_VALUE:
    *(const char **)field(o, opt) = val;
    return EXIT_OK;
  case CLI_LIST: {
    struct cli_strs *l = field(o, opt);
    l->v[l->n++] = val;
    return EXIT_OK;
  }
  case CLI_CHOICE:
    return choose(c, o, opt, val) ? EXIT_OK : EXIT_USAGE;
  case CLI_CALL:
    return opt->call(o, arg, wants ? val : NULL) ? EXIT_OK : EXIT_USAGE;
  default:
    return EXIT_OK;
  }
}

static void *room(int argc, size_t size) {
  void *p = cli_calloc((size_t)argc + 1, size);
  return p;
}

int cli_parse(const struct cli_command *c, int argc, char **argv,
              struct cli_opts *o) {
  o->cmd = c;
  o->argc = argc;
  o->argv = argv;
  o->format = c->formats ? c->formats[0].value : FMT_HUMAN;
  o->args = room(argc, sizeof *o->args);
  o->each.v = room(argc, sizeof *o->each.v);
  o->side_a.v = room(argc, sizeof *o->side_a.v);
  o->side_b.v = room(argc, sizeof *o->side_b.v);
  o->filter.v = room(argc, sizeof *o->filter.v);
  o->affected.v = room(argc, sizeof *o->affected.v);
  o->operands.v = room(argc, sizeof *o->operands.v);
  o->ignored = room(argc, sizeof *o->ignored);
  bool options_end = false;
  int rc = EXIT_OK;
  for (int i = 0; rc == EXIT_OK && i < argc; i++) {
    char buf[64];
    const char *val = NULL;
    const char *name =
        options_end ? NULL : cli_opt_name(argv[i], buf, sizeof buf, &val);
    if (!name) {
      o->operands.v[o->operands.n++] = argv[i];
    } else if (!strcmp(argv[i], "--")) {
      options_end = true;
    } else {
      const struct cli_option *opt = find(c->options, name);
      rc = opt ? take(c, o, opt, val, argc, argv, &i)
               : unknown(c, o, argv[i], name);
    }
  }
  o->o.format = (enum out_format)o->format;
  o->o.opentofu = o->engine == 1;
  return rc;
}

void cli_opts_free(struct cli_opts *o) {
  free(o->args);
  free(o->each.v);
  free(o->side_a.v);
  free(o->side_b.v);
  free(o->filter.v);
  free(o->affected.v);
  free(o->operands.v);
  free(o->ignored);
  free((char *)o->suggested);
}

/* ---- TF_CLI_ARGS ------------------------------------------------------- */

/* The arguments that came from an environment variable, and its name. */
static struct {
  struct cli_names args;
  const char **via; /* per args.v[i] */
  size_t cap;
  char **argv; /* the merged command line */
} env_args;

const char *cli_arg_via(const char *arg) {
  for (size_t i = 0; i < env_args.args.n; i++)
    if (env_args.args.v[i] == arg)
      return env_args.via[i];
  return NULL;
}

/*
** s split into words as Terraform splits TF_CLI_ARGS (a shell's words
** without expansion): blanks separate words; '...' keeps everything
** literally, "..." and \ outside single quotes escape the next character;
** an unquoted ; & | < or > ends the list (the rest is ignored, as
** Terraform ignores it).  False when a quote or an escape is left open.
*/
static bool shell_words(const char *s, const char *via) {
  size_t cap = strlen(s) + 1, n = 0, first = env_args.args.n;
  char *buf = cli_alloc(cap);
  bool got = false, sq = false, dq = false, esc = false;
  for (const char *p = s; *p; p++) {
    char ch = *p;
    if (esc) {
      buf[n++] = ch, got = true, esc = false;
      continue;
    }
    if (ch == '\\' && !sq) {
      esc = true;
      continue;
    }
    if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n') {
      if (sq || dq) {
        buf[n++] = ch;
      } else if (got) {
        buf[n] = '\0';
        cli_names_add(&env_args.args, buf);
        n = 0, got = false;
      }
      continue;
    }
    if (ch == '"' && !sq) {
      got |= dq, dq = !dq;
      continue;
    }
    if (ch == '\'' && !dq) {
      got |= sq, sq = !sq;
      continue;
    }
    if (strchr(";&|<>", ch) && !sq && !dq)
      break;
    buf[n++] = ch, got = true;
  }
  if (got && !esc && !sq && !dq) {
    buf[n] = '\0';
    cli_names_add(&env_args.args, buf);
  }
  free(buf);
  if (env_args.cap < env_args.args.n) {
    env_args.cap = env_args.args.n;
    env_args.via =
        cli_realloc(env_args.via, env_args.cap * sizeof *env_args.via);
  }
  for (size_t i = first; i < env_args.args.n; i++)
    env_args.via[i] = via;
  return !esc && !sq && !dq;
}

bool cli_merge_env_args(int *argc, char ***argv, const char *tfcmd) {
  for (int i = 2; i < *argc; i++) {
    char buf[16];
    const char *val, *name = cli_opt_name((*argv)[i], buf, sizeof buf, &val);
    if (name && !strcmp(name, "no-env"))
      return true; /* a hermetic run: no TF_ environment at all */
  }
  static char specific[64];
  snprintf(specific, sizeof specific, "TF_CLI_ARGS_%s", tfcmd);
  /* each is put right after the command, the general one first: the
  ** command's own ends up before it */
  const char *names[2] = {specific, "TF_CLI_ARGS"};
  for (int k = 0; k < 2; k++) {
    const char *v = getenv(names[k]);
    if (v && *v && !shell_words(v, names[k])) {
      fprintf(stderr,
              "tfresolve: Error parsing extra CLI args from %s: invalid "
              "command line string\n",
              names[k]);
      return false;
    }
  }
  size_t extra = env_args.args.n;
  if (!extra)
    return true;
  char **nv = cli_alloc(((size_t)*argc + extra + 1) * sizeof *nv);
  nv[0] = (*argv)[0];
  nv[1] = (*argv)[1];
  for (size_t i = 0; i < extra; i++)
    nv[2 + i] = env_args.args.v[i];
  for (int i = 2; i <= *argc; i++)
    nv[(size_t)i + extra] = (*argv)[i];
  env_args.argv = nv;
  *argc += (int)extra;
  *argv = nv;
  return true;
}
