/*
** What the commands that resolve a module share: its output formats
** (show -json, the CI reports, values), check of many modules, explain,
** and the ways from a child instance's variable back to a root value.
*/
#ifndef TFR_CLI_MODULE_H
#define TFR_CLI_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli.h"
#include "options.h"
#include "tfresolve/tfresolve.h"

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

/* show -json / check -json: the document of doc/json-format.md (module.c). */
void cli_show_json(tfr_arena *a, const struct tfr_resolution *res,
                   const tfr_diags *d, bool show_sensitive);

/* show / check -format=plan-json: the resolution shaped as Terraform's
** plan JSON, and what only tfresolve knows under "tfresolve"
** (planjson.c). */
void cli_plan_json(tfr_arena *a, const struct tfr_resolution *res,
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
  const char *const *changed; /* -changed files: only the roots using them */
  size_t nchanged;
  bool missing_info;       /* -missing-required=info */
  bool tree;               /* follow module blocks (not -no-modules) */
  bool unchecked_error;    /* -unchecked=error */
  struct tfr_cache *cache; /* child modules shared by the jobs (set by
                              cli_check_many) */
  const char *policy;      /* -policy=DIR: Terraform Policy files */
};
int cli_check_many(const struct many_opts *mo);

/* -recursive's roots (roots.c): the directories below dir with
** configuration, their local module calls, and which of them are roots
** (with tree: not only ever called; else: declaring variables).  A
** directory that cannot be read is an error in diags (texts in a). */
struct cli_roots;
struct cli_names;
struct cli_roots *cli_roots_find(const char *dir, bool opentofu, bool tree,
                                 tfr_arena *a, tfr_diags *diags);
void cli_roots_free(struct cli_roots *r);
/* The roots' paths, in the walk's order, added to out. */
void cli_roots_list(const struct cli_roots *r, struct cli_names *out);
/* The root (as listed) a var file belongs to: the nearest at or above its
** directory; NULL when none is. */
const char *cli_roots_owner(const struct cli_roots *r, const char *file);
/* Whether root uses file: its directory is one the root's tree loads,
** or, in no root's tree, the root is the nearest at or above it. */
bool cli_roots_uses(const struct cli_roots *r, const char *root,
                    const char *file);
/* Whether directory dir (any path naming it) is no root: a directory of
** the walk calls it, and it has no var files Terraform loads by itself
** (the language server checks it as a called module). */
bool cli_roots_called_only(const struct cli_roots *r, const char *dir);
/* Whether Terraform loads var file n (a file name) by itself. */
bool cli_auto_var_file(const char *n);

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

/* report.c: the verdict's words for the module calls whose instances
** were not checked: "2 modules not checked", and one line each,
** "module.vpc: not installed: run \"terraform init\"" after indent. */
const char *cli_unchecked_count(tfr_arena *a, const struct tfr_resolution *res);
void cli_print_unchecked(FILE *out, const struct tfr_resolution *res,
                         const char *indent);

/* values_out.c: show -format=yaml|tfvars|env (f). */
void cli_show_values(tfr_arena *a, const struct tfr_resolution *res,
                     enum out_format f, bool show_sensitive);

/* Whether d has Terraform's "Failed to read variables file" (a -var-file
** or -var-file-each file that is missing or unreadable:
** TFR_CODE_VAR_FILE_UNREADABLE). */
bool cli_unreadable_var_file(const tfr_diags *d);

/* ---- terragrunt units (units.c) ----------------------------------------- */

/* Whether dir holds a terragrunt unit (terragrunt.hcl). */
bool cli_unit_here(const char *dir);
/* dir holds terragrunt.stack.hcl (units.c). */
bool cli_stack_here(const char *dir);
/* The units dir's stack file generates (tfr_stack_units), into out; its
** errors in d. */
void cli_stack_units(const char *dir, tfr_arena *a, tfr_diags *d,
                     char *const *env, struct cli_names *out);

/* The resolution of the unit at path (its terragrunt.hcl or directory):
** its module resolved with base's options (dir, env and args: the user's)
** and the values terragrunt passes, seen from the unit; *d becomes the
** list with the unit's diagnostics.  NULL, with *rc, when the unit cannot
** be read (1) or its module is not checked (0; unchecked_error, strict:
** 1). */
const struct tfr_resolution *
cli_unit_resolve(tfr_arena *a, tfr_diags **d, const char *path,
                 const struct tfr_resolve_opts *base, int *rc);

/* The units below dir (dir too), in the walk's order, added to out:
** .git, .terraform and .terragrunt-cache are not entered, as terragrunt's
** discovery skips them. */
struct cli_names;
void cli_units_find(const char *dir, struct cli_names *out);

/* ---- show, check and explain (module.c) -------------------------------- */

/* Their options before each one's own, and after (-show-sensitive,
** -no-color, -help and terraform plan's that change nothing); their
** footer. */
extern const struct cli_option cli_opts_module[];
extern const struct cli_option cli_opts_module_end[];
extern const char cli_module_footer[];

/* A module resolved for a command: the arena, the resolution (as -changed
** and -required select it), its diagnostics, explain's names, and the
** exit status its validity gives. */
struct cli_module_result {
  tfr_arena *a;
  const struct tfr_resolution *res;
  tfr_diags *d;
  const char **names;
  size_t nnames;
  int rc;
};

/* A command's human output of r (every output for explain): its exit
** status. */
typedef int cli_module_out(const struct cli_opts *o,
                           const struct cli_module_result *r);

/* Run a module command: its operands (explain: NAME... [DIR]), check's
** many resolutions, the resolution, the machine formats (not for
** explain) or out; Terraform's flag error for an unknown option. */
int cli_module_run(struct cli_opts *o, cli_module_out *out, bool explain);

#endif
