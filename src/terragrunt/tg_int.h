/*
** Terragrunt units, read offline (the terragrunt layer): what one
** configuration file says once evaluated (tg_read.c), terragrunt's
** functions (tg_funcs.c), the merge of include blocks (tg_merge.c) and
** what terragrunt hands to Terraform (tg_env.c).  The facts are ported
** from terragrunt's source (github.com/gruntwork-io/terragrunt, commit
** 286a33cb, 2026-08-21); each cites its file:line.
*/
#ifndef TFR_TG_INT_H
#define TFR_TG_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "eval/eval.h"
#include "syntax/ast.h"
#include "tfresolve/terragrunt.h"

/* The merge strategies of an include block (pkg/config/include.go:170). */
enum tg_merge { TG_NO_MERGE, TG_SHALLOW, TG_DEEP };

/* One input of a file: its value and where it is written. */
struct tg_input {
  const char *name;
  const tfr_value *v;
  struct tfr_range at;
  const char *chain; /* how it got there, in words */
};

/* An extra_arguments block (pkg/config/config.go:1085). */
struct tg_extra {
  const char *name;
  const char *file; /* the file it is written in, and its line */
  int line;
  const char **cmds, **args, **req, **opt, **env;
  size_t ncmds, nargs, nreq, nopt, nenv; /* env: NAME=VALUE */
};

/* A dependency block (pkg/config/dependency.go:70). */
struct tg_dep {
  const char *name;
  const char *config_path;
  const tfr_value *mocks; /* NULL: none */
  const char **allowed;   /* mock_outputs_allowed_terraform_commands */
  size_t nallowed;
  bool skip_outputs;
  struct tfr_range at;
  const tfr_value *outputs; /* dependency.NAME.outputs, or NULL: none */
  const char *key; /* an expanded block's instance: dependency.NAME[key]
                      (hclparse/expansion.go InstanceKey); NULL: not */
};

/* A generate block (pkg/config/config.go:820-835, 2097-2170). */
struct tg_gen {
  const char *name, *path, *contents, *if_exists, *comment_prefix;
  bool disable, disable_signature;
  struct tfr_range at;
};

/* What one file says, evaluated. */
struct tg_cfg {
  const char *path; /* as the user sees it */
  const tfr_value *locals;
  struct tg_input *inputs;
  size_t ninputs;
  bool has_inputs;
  const char *source; /* terraform.source, or NULL */
  struct tfr_range source_at;
  struct tg_extra *extra;
  size_t nextra;
  struct tg_dep *deps;
  size_t ndeps;
  struct tg_gen *gens;
  size_t ngens;
  const tfr_value *features;     /* feature.*, the included files' too */
  const tfr_value *remote_state; /* its attributes, or NULL */
  const tfr_value *others;       /* the other top-level attributes and simple
                                    blocks (terraform_binary, dependencies,
                                    exclude...), as read_terragrunt_config
                                    shows them */
  struct tg_file *file;          /* its evaluation, between the two stages */
};

/* An include block (pkg/config/config.go IncludeConfig). */
struct tg_incl {
  const char *name; /* "" for a bare include */
  const char *path; /* absolute */
  enum tg_merge merge;
  bool expose;
  struct tfr_range at;
  struct tg_cfg *cfg;
};

/* A directory terragrunt stack generate would make (virt, absolute) and
** the one it copies it from (real): the files of one are read from the
** other (stack.go:762-822, 1014-1060). */
struct tg_virt {
  const char *virt, *real;
  const tfr_value *values; /* its block's values, or NULL */
};

/* A unit or stack block of a stack file (stack.go:82-128), enabled. */
struct tg_comp {
  const char *name;
  bool stack;                /* a stack block */
  const char *source, *path; /* as written */
  const tfr_value *values;   /* as terragrunt writes them, or NULL: none */
  bool no_stack;             /* no_dot_terragrunt_stack */
  bool no_validation;        /* no_validation */
  bool enabled;
  struct tfr_range at, source_at, path_at; /* the block, its attributes */
};

/* One read of a unit. */
struct tg_run {
  tfr_arena *a;
  tfr_diags *d;
  char *const *env;
  const char *command;
  const char *unit;      /* the unit's terragrunt.hcl, absolute */
  const char *cwd;       /* for the names diagnostics show */
  const char *stack[64]; /* files being read, for cycles */
  size_t nstack;
  struct tfr_range why;    /* what reads the next file (an include block, a
                              read_terragrunt_config call) */
  const tfr_value *values; /* values.*: the unit's terragrunt.values.hcl
                              (stack.go:1962-2004), or NULL */
  struct tg_virt virt[16]; /* the generated directories of a unit read
                              from its stack file */
  size_t nvirt;
};

/* The evaluation of one file: the context terragrunt's functions see
** (pkg/config/parsing_context.go). */
struct tg_file {
  struct tg_run *r;
  const char *path;        /* the file evaluated, absolute */
  const char *config_path; /* TerragruntConfigPath: the unit's, or the
                              file read_terragrunt_config reads */
  const char *original;    /* OriginalTerragruntConfigPath */
  struct tg_incl *incl;    /* this file's include blocks (CurrentList) */
  size_t nincl;
  const struct tg_incl *from; /* TrackInclude.Original: the block that
                                 included this file, or NULL */
  struct src_file *src;
  const tfr_value *local, *include, *dependency, *feature;
  const tfr_value *each, *count;   /* an expanded block's instance, or NULL */
  const tfr_value *units, *stacks; /* a stack file's unit.NAME.path and
                                      stack.NAME.path, or NULL */
  bool functions_only;             /* include blocks: no variables yet */
  const struct tg_dep *deps;       /* the dependency blocks in scope (the
                                      unit's and its includes'), for warnings */
  size_t ndeps;
  const struct ast *body;
  const char **local_names; /* its locals, and the line of each */
  int *local_lines;
  size_t nlocals;
};

/* tg_read.c: read and evaluate the file at path (absolute) as terragrunt
** does; NULL after an error in r->d.  from: the include block that
** includes it (then it may not include further). */
struct tg_cfg *tg_read_file(struct tg_run *r, const char *path,
                            const char *config_path,
                            const struct tg_incl *from);
/* values.* of the unit: its directory's terragrunt.values.hcl, each
** attribute evaluated with the functions (stack.go:1962-2004); NULL when
** there is none. */
const tfr_value *tg_read_values(struct tg_run *r, const char *dir);
/* A stack file (real: the file read; virt: where terragrunt reads it,
** with values.* values): its unit and stack blocks in *out, disabled ones
** too, their number; (size_t)-1 after an error (stack.go:1183-1290). */
size_t tg_read_stack(struct tg_run *r, const char *virt, const char *real,
                     const tfr_value *values, struct tg_comp **out);

/* tg_stack.c: the path of the file that holds what terragrunt would find
** at abs (abs itself unless it is in a generated directory). */
const char *tg_real(const struct tg_run *r, const char *abs);
/* Whether abs exists once mapped so. */
bool tg_exists(const struct tg_run *r, const char *abs);
/* A unit directory (absolute) that does not exist: the unit stack
** generate would make there from a terragrunt.stack.hcl above it, its
** generated directories in r->virt and its values in r->values; false
** (an error in r->d, or none: not a generated unit) when there is none. */
bool tg_stack_unit(struct tg_run *r, const char *dir);

/* tg_json.c: a terragrunt.hcl.json's top-level object as the body the
** native syntax gives. */
const struct ast *tg_json_body(struct tg_run *r, struct src_file *src,
                               const struct ast *obj);
/* The name diagnostics show for an absolute path (relative to the
** current directory when below it). */
const char *tg_show_path(struct tg_run *r, const char *abs);
/* An error of terragrunt's (its text), located; ours when terragrunt
** has no such check. */
void tg_error(struct tg_file *f, const struct ast *at, const char *summary,
              const char *detail);
/* dir/p cleaned (p itself when absolute). */
const char *tg_join(tfr_arena *a, const char *dir, const char *p);
const char *tg_dirname(tfr_arena *a, const char *p);

/* Whether terragrunt's experiment name is on (TG_EXPERIMENT, or
** TG_EXPERIMENT_MODE for all). */
bool tg_experiment(const struct tg_run *r, const char *name);
/* tg_read.c: terragrunt's refusal of block iteration without its
** experiment (expansion.go:43-83); false after it. */
bool tg_block_iteration_ok(struct tg_file *f);

/* tg_funcs.c: the function table of a terragrunt file (Terraform's
** functions and terragrunt's, config_helpers.go:190-430). */
const struct eval_funcs *tg_funcs(struct tg_file *f);
/* A value as read_terragrunt_config returns a config
** (config_as_cty.go TerragruntConfigAsCty: locals, inputs, ...). */
const tfr_value *tg_cfg_value(tfr_arena *a, const struct tg_cfg *c);

/* tg_merge.c: the unit's config with its includes merged
** (include.go:125-210), in c. */
bool tg_merge_includes(struct tg_run *r, struct tg_cfg *c,
                       const struct tg_incl *incl, size_t n);
/* terragrunt's deep merge of two values (mergo with WithAppendSlice and
** WithOverride, include.go:807-817); NULL and *err on a type clash. */
const tfr_value *tg_deep_merge(tfr_arena *a, const tfr_value *dst,
                               const tfr_value *src, const char **err);

/* tg_version.c: whether version meets every one of constraints (1, 0),
** as go-version checks them; -1 when the version (*bad NULL) or one of
** the constraints (*bad: that one, in a) is malformed. */
int tg_constraint_check(tfr_arena *a, const char *version,
                        const char *constraints, const char **bad);

/* tg_env.c: a TF_VAR_ value as terragrunt writes it (run.go:721-748,
** util/jsons.go:26-144); hcl_mode: the module parses this variable's
** value as HCL (tf/variables.go:98). */
const char *tg_env_value(tfr_arena *a, const tfr_value *v, bool hcl_mode);
/* v as Go's json.Marshal writes the map[string]any terragrunt decodes it
** to (keys sorted, <, > and & escaped, numbers as written); escape: every
** ${ in a string value as $${ too. */
const char *tg_json(tfr_arena *a, const tfr_value *v, bool escape);

#endif
