/*
** The command and option tables (src/cli/options.c) [git parse-options]:
** every command declares its options in a table, the options several
** commands take are declared once here and included; one parser reads
** every command line from them, and the help, `tfresolve cli-tables` and
** through it the checks of the man page and completions come from them.
*/
#ifndef TFR_CLI_OPTIONS_H
#define TFR_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli.h"

/* A list of strings from the command line (room for every argument). */
struct cli_strs {
  const char **v;
  size_t n;
};

/* Everything a command line can set, for every command: each option of
** the tables says where in here it is stored. */
struct cli_opts {
  const struct cli_command *cmd;
  struct options o; /* format, no_color, opentofu, show_sensitive... */
  int format;       /* -format / -json (set into o.format at the end) */
  bool format_given;
  int engine;    /* -engine: 0 terraform, 1 opentofu (o.opentofu) */
  int missing;   /* -missing-required: 0 error, 1 info */
  int unchecked; /* -unchecked: 0 warning, 1 error */
  bool no_env, strict, recursive, no_modules, all, changed, required, force;
  bool write, check; /* docs -write, -check */
  bool warn_dropped; /* set by the command (check, explain): attributes a
                        type drops are warnings (not an option) */
  bool accepted;     /* options accepted as Terraform's that change nothing */
  const char *type, *out, *test_dir;
  const char *scope;        /* console and eval: -scope=ADDRESS */
  const char *terragrunt;   /* -terragrunt FILE: the unit to read */
  const char *policy;       /* check: -policy=DIR */
  struct tfr_cli_arg *args; /* -var and -var-file, in order */
  size_t nargs;
  struct cli_strs each, side_a, side_b, filter, affected; /* repeatable */
  struct cli_strs operands;
  const char *bad_flag;  /* the first unknown one (CLI_TF_FLAGS) */
  const char *suggested; /* and the option it may have meant */
  const char **ignored;  /* terraform plan's options given (CLI_IGNORED) */
  size_t nignored;
  int argc; /* the arguments after the command name */
  char **argv;
};

enum cli_kind {
  CLI_END,
  CLI_INCLUDE, /* the options of .include, here */
  CLI_HELP,    /* print the command's help and stop */
  CLI_FLAG,    /* a bool set to true */
  CLI_VALUE,   /* a string (the last given wins) */
  CLI_LIST,    /* a repeatable value: a struct cli_strs */
  CLI_CHOICE,  /* one of .choices: an int (-format: a CLI_CALL, from the
                  command's formats) */
  CLI_CALL     /* .call does it (with a value when .arg is set) */
};

/* Option flags. */
enum {
  CLI_NOVAL = 1,   /* a flag that refuses "=VALUE" (else it is ignored) */
  CLI_IGNORED = 2, /* terraform plan's: accepted, changes nothing (said) */
  CLI_HIDDEN = 4   /* not in help, man page or completions */
};

/* A value of a CLI_CHOICE option: its name, what it stores, a few words
** said about it in the help. */
struct cli_choice {
  const char *name;
  int value;
  const char *about;
};

/* One option, declared once, as git's parse-options declares them. */
struct cli_option {
  enum cli_kind kind;
  const char *name; /* without the dash: "var-file" */
  const char *arg;  /* the value's name in the help ("FILE"); NULL: none */
  size_t off;       /* where in struct cli_opts it is stored */
  const char *help; /* one paragraph, wrapped when printed */
  unsigned flags;   /* CLI_NOVAL, CLI_IGNORED, CLI_HIDDEN */
  const struct cli_choice *choices; /* CLI_CHOICE: ends with name NULL */
  const struct cli_option *include; /* CLI_INCLUDE */
  /* CLI_CALL: opt given as arg (its argv word), with value val (NULL when
  ** it takes none); false after a message on stderr */
  bool (*call)(struct cli_opts *o, const char *arg, const char *val);
  const char *label; /* in the help instead of "-name=ARG" */
};

#define CLI_OFF(field) offsetof(struct cli_opts, field)
#define CLI_OPT_FLAG(n, field, h, fl)                                          \
  {                                                                            \
    .kind = CLI_FLAG, .name = (n), .off = CLI_OFF(field), .help = (h),         \
    .flags = (fl)                                                              \
  }
#define CLI_OPT_VALUE(n, a, field, h)                                          \
  {                                                                            \
    .kind = CLI_VALUE, .name = (n), .arg = (a), .off = CLI_OFF(field),         \
    .help = (h)                                                                \
  }
#define CLI_OPT_LIST(n, a, field, h)                                           \
  {                                                                            \
    .kind = CLI_LIST, .name = (n), .arg = (a), .off = CLI_OFF(field),          \
    .help = (h)                                                                \
  }
#define CLI_OPT_INCLUDE(table)                                                 \
  { .kind = CLI_INCLUDE, .include = (table) }
#define CLI_OPT_END                                                            \
  { .kind = CLI_END }

/* Command flags. */
enum {
  CLI_TF_FLAGS = 1, /* an unknown option is Terraform's flag error: kept in
                       bad_flag for the command to report, not fatal */
  CLI_RAW = 2,      /* the command reads its arguments itself (argc/argv) */
  CLI_SECRET = 4    /* not listed (tfresolve cli-tables) */
};

/* One command: what `tfresolve -help` lists, what its own -help prints
** (usage, then the options, then footer), and how it runs. */
struct cli_command {
  const char *name;
  const char *summary; /* one line ("\n" continues it) */
  int (*run)(struct cli_opts *o);
  const struct cli_option *options;
  const struct cli_choice *formats; /* -format's: the first is the default */
  const char *usage;                /* "Usage: ...", a blank line, prose */
  const char *footer;               /* after the options (exit status...) */
  const char *tfcmd; /* its TF_CLI_ARGS_<tfcmd>, as Terraform's command */
  unsigned flags;    /* CLI_TF_FLAGS, CLI_RAW, CLI_SECRET */
};

/* The shared options, declared once (options.c), each table ending with
** CLI_OPT_END, for the commands to include. */
extern const struct cli_option cli_opts_help[];       /* -help */
extern const struct cli_option cli_opts_sources[];    /* -var, -var-file */
extern const struct cli_option cli_opts_chdir[];      /* -chdir */
extern const struct cli_option cli_opts_no_env[];     /* -no-env */
extern const struct cli_option cli_opts_engine[];     /* -engine */
extern const struct cli_option cli_opts_scope[];      /* -scope */
extern const struct cli_option cli_opts_format[];     /* -format, -json */
extern const struct cli_option cli_opts_json[];       /* -json alone */
extern const struct cli_option cli_opts_sensitive[];  /* -show-sensitive */
extern const struct cli_option cli_opts_no_color[];   /* -no-color */
extern const struct cli_option cli_opts_no_modules[]; /* -no-modules */
/* -engine, -chdir, -no-color, -help: the end of the tables of the
** commands that read one module directory (docs, inspect, init) */
extern const struct cli_option cli_opts_dir_end[];

/* Read the command line argv[0..argc) of command c into o: EXIT_OK,
** EXIT_USAGE after a message on stderr, or -1 when -help was given and
** the help is printed.  "-x", "--x", "-x=V", "--x=V" and "-x V" all
** spell an option; "--" ends the options and "-" is an operand. */
int cli_parse(const struct cli_command *c, int argc, char **argv,
              struct cli_opts *o);
void cli_opts_free(struct cli_opts *o);

/* The help of command c (generated from its tables). */
void cli_help(const struct cli_command *c, FILE *f);
/* The message of a usage error: "tfresolve CMD: MESSAGE", a blank line
** and the command's help, on stderr; EXIT_USAGE. */
int cli_usage_error(const struct cli_command *c, const char *fmt, ...);
/* The option of c's tables that name (an unknown option, without its
** dashes) may have meant (Terraform's rule: fewer than 3 edits), "-" and
** its name, or NULL. */
const char *cli_suggest_option(const struct cli_command *c, const char *name);
/* Every option of c's tables, includes expanded, in order: calls fn for
** each (the hidden ones too). */
void cli_each_option(const struct cli_command *c,
                     void (*fn)(const struct cli_option *opt, void *ctx),
                     void *ctx);

/* "-name=value", "--name value", "-name": the name without dashes (in
** buf), the text after "=" in *value (NULL when there is none); NULL
** when arg is not an option. */
const char *cli_opt_name(const char *arg, char *buf, size_t size,
                         const char **value);

/*
** Terraform's TF_CLI_ARGS_<tfcmd> and TF_CLI_ARGS (tfcmd: "plan" for show,
** check and explain, "console", "test"): their words put right after the
** command, argv[1], before the command line's own arguments, as Terraform
** puts them (the command's own variable first).  Not with -no-env.  False
** after a message when one cannot be split into words.
*/
bool cli_merge_env_args(int *argc, char ***argv, const char *tfcmd);

/* The environment variable argument arg (a pointer cli_merge_env_args
** put in argv) came from, or NULL for the command line's own. */
const char *cli_arg_via(const char *arg);

/* An option of tfresolve itself, before the command (main.c reads them):
** its name, its label and its help (lines after the first after "\n"). */
struct cli_global {
  const char *name, *label, *help;
};
extern const struct cli_global cli_globals[];

/* The commands (in their files) and their table (main.c). */
extern const struct cli_command cli_cmd_show, cli_cmd_check, cli_cmd_explain,
    cli_cmd_diff, cli_cmd_lsp, cli_cmd_eval, cli_cmd_console, cli_cmd_init,
    cli_cmd_test, cli_cmd_parse, cli_cmd_tables, cli_cmd_inspect, cli_cmd_docs;
extern const struct cli_command *const cli_commands[];

#endif
