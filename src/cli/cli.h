/*
** The CLI's shared pieces (src/cli/main.c and the cmd_*.c commands): exit
** statuses, output formats, option spelling and diagnostics output.
*/
#ifndef TFR_CLI_H
#define TFR_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "tfresolve/tfresolve.h"

enum { EXIT_OK = 0, EXIT_INVALID = 1, EXIT_USAGE = 2 };

/* The stack every thread of the CLI has: the evaluator, the YAML and JSON
** readers recurse once per nesting level of their input, up to their
** limits (10,000 levels), whatever the caller's `ulimit -s`. */
#define CLI_STACK_BYTES ((size_t)256 << 20)

/* Memory ran out in the CLI itself: say so and exit with status 1. */
_Noreturn void cli_oom(void);

/* A growable list of malloc'd strings (cli_names_free frees them). */
struct cli_names {
  char **v;
  size_t n, cap;
};
void cli_names_add(struct cli_names *l, const char *s); /* a copy of s */
void cli_names_free(struct cli_names *l);

/* The CLI's growable string (malloc'd p, always NUL-terminated once
** something is put; free(p) when done).  With max_lines set, what comes
** after that many lines is not kept, only its newlines counted (more). */
struct cli_buf {
  char *p;
  size_t n, cap;
  size_t max_lines, lines, more;
};
void cli_buf_put(struct cli_buf *b, const char *s, size_t n);
bool cli_buf_full(const struct cli_buf *b); /* keeps no more lines */
void cli_buf_puts(struct cli_buf *b, const char *s);
void cli_buf_indent(struct cli_buf *b, int n); /* n spaces */

/* A type's keyword ("string", "list", "object"...); whether object type
** t's i-th attribute is optional(); the type on one line, spaced as
** `terraform fmt` writes it inside a folded type ("object({ name =
** string, port = optional(number) })"), with what abbreviate writes (when
** it returns true) in place of a type. */
const char *cli_type_word(const tfr_type *t);
bool cli_attr_optional(const tfr_type *t, size_t i);
void cli_type_flat(struct cli_buf *b, const tfr_type *t,
                   bool (*abbreviate)(struct cli_buf *b, const tfr_type *t));

/* The defaults of a type constraint's optional() attributes, as
** cli_type_text writes them: text(ctx, path) gives the default of the
** attribute at path (".a[0].b", as tfr_resolution_attr_default names it)
** as written in optional(T, DEFAULT), or NULL when it has none. */
struct cli_type_defaults {
  const char *(*text)(void *ctx, const char *path);
  void *ctx;
};
/* A type for people (src/cli/typefmt.c): its expression (tfr_type_expr;
** spaced as in a folded type when `spaced`, to sit beside one) when it is
** short; a longer one folded as `terraform fmt` lays out a type
** constraint, over lines indented by `indent` (cut after its first lines
** when there are many); an enormous tuple type only described.  With d,
** optional() attributes with their defaults.  In the arena. */
const char *cli_type_text(tfr_arena *a, const tfr_type *t, int indent,
                          bool spaced, const struct cli_type_defaults *d);
/* A root variable's type t for people (cli_type_text): its declared type,
** or the part of it at path base (".a[0]"); its optional attributes'
** defaults written in (none for a sensitive variable). */
const char *cli_var_type_text(tfr_arena *a, const struct tfr_resolution *res,
                              const struct tfr_variable *v, const tfr_type *t,
                              const char *base, int indent);
/* The text before the keep-th newline of the n bytes at s (all of them
** when they have fewer), and in *lines how many lines they have. */
const char *cli_text_head(tfr_arena *a, const char *s, size_t n, size_t keep,
                          size_t *lines);

/* Whether a POSIX shell can export name (Terraform also allows "-" and
** non-ASCII letters in variable names). */
bool cli_sh_name(const char *name);
/* s as one POSIX shell word: in single quotes, '\'' for a quote. */
void cli_sh_quote(FILE *f, const char *s);

/* Whether s ends with suf. */
bool cli_has_suffix(const char *s, const char *suf);

/* dir/name, malloc'd. */
char *cli_path_join(const char *dir, const char *name);

/* A value's JSON (cty's compact encoding), malloc'd; its length in *len
** when len is not NULL. */
char *cli_value_json(tfr_arena *a, const tfr_value *v, size_t *len);

/*
** The CLI's one directory lister: the entries of dir whose names do not
** start with '.' and that keep accepts (NULL: all; it gets the entry's
** path, its name, and whether readdir says it is a directory: 1 yes, 0
** no, -1 it does not say), sorted in byte order, added to out.  False,
** with errno set, when dir cannot be opened.
*/
bool cli_list_dir(const char *dir,
                  bool (*keep)(const char *path, const char *name, int is_dir,
                               void *ctx),
                  void *ctx, struct cli_names *out);

/* Whether path, an entry cli_list_dir gave keep with is_dir, is a
** directory: is_dir when readdir said, else lstat's answer (a symbolic
** link is not one, as readdir's DT_LNK); -1 when lstat fails too (a path
** too long, say: opening or reading it will tell). */
int cli_is_dir(const char *path, int is_dir);

/* Run main_fn(argc, argv) on a thread with a stack of CLI_STACK_BYTES
** (reserved, committed only as it is used; not bound by `ulimit -s`), or
** on this thread if none can be started.  Returns its exit status, or
** EXIT_USAGE (said on stderr) when its output could not all be written. */
int cli_run_with_stack(int (*main_fn)(int, char **), int argc, char **argv);

enum out_format {
  FMT_HUMAN,
  FMT_JSON,
  FMT_SHORT,
  FMT_YAML,
  FMT_TFVARS,
  FMT_ENV,
  FMT_SARIF,
  FMT_GITHUB,
  FMT_JUNIT
};

struct options {
  enum out_format format;
  bool functions;
  bool ast;
  bool no_color;
  bool opentofu;
  bool show_sensitive; /* eval, console: print sensitive values */
};

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

/* "-name=value", "--name value", "-name": the name without dashes (in
** buf), the text after "=" in *value (NULL when there is none); NULL
** when arg is not an option. */
const char *cli_opt_name(const char *arg, char *buf, size_t size,
                         const char **value);

/*
** The options every command spells the same way, in one table: -chdir
** DIR, -engine=E, -no-color, -no-env, -show-sensitive, -var NAME=VALUE,
** -var-file FILE (each with "=" or as the next argument where it takes a
** value) and -help.  A command points at what it takes; a NULL field is
** an option it does not have (then it is not one of the common ones).
*/
struct cli_common {
  const char *cmd;   /* "show", "eval"... for messages */
  const char *usage; /* printed by -help */
  bool *no_color, *opentofu, *no_env, *show_sensitive;
  struct tfr_cli_arg *args; /* -var / -var-file go here... */
  size_t *nargs;            /* ...and are counted here */
};

enum cli_opt { CLI_OPT_NOT, CLI_OPT_TAKEN, CLI_OPT_BAD };

/* Option argv[*i] (its name and "=" value as cli_opt_name gives them), if
** it is a common one: CLI_OPT_TAKEN (*i past any value it took),
** CLI_OPT_BAD after a usage message on stderr, or CLI_OPT_NOT. */
enum cli_opt cli_common_opt(const struct cli_common *c, const char *name,
                            const char *val, int argc, char **argv, int *i);

/* One command-line argument as cli_own reads it: an option's name and
** "=" value (name NULL for an operand). */
struct cli_arg {
  const char *name, *val;
  char buf[64];
};

/* The next argument from argv[*i] on that is the command's own (an
** operand, or an option that is not a common one): true with *i at it
** and it in *a; the common options on the way are handled.  False at the
** end, or (*bad set) after a bad common option and its usage message.
** A command reads its arguments as
**   for (int i = 0; cli_own(&cc, argc, argv, &i, &arg, &bad); i++) ... */
bool cli_own(const struct cli_common *c, int argc, char **argv, int *i,
             struct cli_arg *a, bool *bad);

/* Diagnostics on stderr: framed as Terraform prints them (colour only on
** a terminal and without NO_COLOR), or one line each (FMT_SHORT). */
void cli_print_diags(const tfr_diags *d, const struct options *o);

/* One checked environment for the CI reports: the var file it adds on
** top of the module's own value sources (NULL: none), and the result. */
struct report_env {
  const char *name;
  const struct tfr_resolution *res;
  const tfr_diags *diags;
};

/* `check -format=sarif|github|junit` (report.c): the report of envs (one
** or more environments of one module) to out. */
void report_write(FILE *out, enum out_format f, const struct report_env *envs,
                  size_t n);

/* show -json / check -json: the document of doc/json-format.md (main.c). */
void cli_show_json(tfr_arena *a, const struct tfr_resolution *res,
                   const tfr_diags *d, bool show_sensitive);

/* check with -var-file-each and/or -recursive (check_many.c): many
** resolutions at once, in parallel threads, with a summary. */
struct many_opts {
  const struct options *o;
  const char *dir;
  char *const *env;
  const struct tfr_cli_arg *args; /* -var / -var-file, in order */
  size_t nargs;
  bool opentofu, strict, show_sensitive;
  const char *const *each; /* -var-file-each patterns */
  size_t neach;
  bool recursive;
  bool missing_info;       /* -missing-required=info */
  bool tree;               /* follow module blocks (not -no-modules) */
  struct tfr_cache *cache; /* child modules shared by the jobs (set by
                              cli_check_many) */
};
int cli_check_many(const struct many_opts *mo);

/* Commands in files of their own. */
int cmd_init(int argc, char **argv);
int cmd_test(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_lsp(int argc, char **argv);

/* The variable of a diagnostic about a child module instance's variable
** (g->module not ""), and in *in its instance; NULL when it names none. */
const struct tfr_variable *cli_child_var(const struct tfr_resolution *res,
                                         const struct tfr_diag *g,
                                         const struct tfr_instance **in);

/* Where the value of child instance in's variable v can be fixed: the
** file range of the value of the one root variable its argument reads,
** through every caller (NULL when it reads none, or several, or one not
** set from a file). */
const struct tfr_range *cli_fix_range(const struct tfr_resolution *res,
                                      const struct tfr_instance *in,
                                      const struct tfr_variable *v);

/* A child instance's variable whose argument reads a root variable
** (cli_reaches). */
struct cli_reach {
  const struct tfr_instance *in;
  const struct tfr_variable *v;
  bool secret; /* it, or something up its chain, is sensitive */
};

/* The child instances' variables whose arguments read root variable root
** (directly, through local values, for_each or count, or through their
** callers' variables), in the tree's order, in *out (allocated in a);
** their number. */
size_t cli_reaches(tfr_arena *a, const struct tfr_resolution *res,
                   const char *root, struct cli_reach **out);

/* Whether dir can be a module directory: it exists, is a directory and
** can be listed; else a message (cmd's) and false. */
bool cli_module_dir_ok(const char *cmd, const char *dir);

/* explain.c: `explain NAME` on a resolution (its exit status); where a
** value came from in a few words ("terraform.tfvars:2", "-var
** (TF_CLI_ARGS_plan)"); what a preview would fail with, in a line. */
int cli_explain(tfr_arena *a, const struct tfr_resolution *res,
                const tfr_diags *d, const char *const *names, size_t n,
                bool all, bool show_sensitive, const struct options *o);
const char *cli_source_text(tfr_arena *a, enum tfr_source_kind k,
                            const char *file, int line, const char *name,
                            const char *via);
const char *cli_preview_failure(tfr_arena *a, const struct tfr_diag *e);

/* values_out.c: show -format=yaml|tfvars|env (f). */
void cli_show_values(tfr_arena *a, const struct tfr_resolution *res,
                     enum out_format f, bool show_sensitive);

/* Whether d has Terraform's "Failed to read variables file" (a -var-file
** or -var-file-each file that is missing or unreadable:
** TFR_CODE_VAR_FILE_UNREADABLE). */
bool cli_unreadable_var_file(const tfr_diags *d);

#endif
