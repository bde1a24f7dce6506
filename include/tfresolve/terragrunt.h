/*
** libtfresolve: terragrunt units as a value source.  A unit (a directory
** holding terragrunt.hcl) is read offline as terragrunt reads it before
** it runs Terraform -- include blocks and their merge strategies, locals,
** inputs, terraform { source, extra_arguments }, dependency blocks with
** their mock outputs -- and turned into what terragrunt hands Terraform:
** the module directory, the TF_VAR_ environment, the -var-file and -var
** arguments, and the auto-loaded file of the null inputs.  tfr_resolve
** then resolves the module with exactly those sources, and
** tfr_unit_apply points the result back at the lines of the unit.
** Nothing is executed (run_cmd, sops_decrypt_file, get_aws_*: unknown
** values) and no state is read.  Since 0.4.0.
*/
#ifndef TFRESOLVE_TERRAGRUNT_H
#define TFRESOLVE_TERRAGRUNT_H

#include <stdbool.h>
#include <stddef.h>

#include "tfresolve/export.h"
#include "tfresolve/diag.h"
#include "tfresolve/resolution.h"
#include "tfresolve/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Options of tfr_unit_read: start from TFR_UNIT_OPTS_INIT (the struct
 *  grows as resolution.h says).  Since 0.4.0. */
struct tfr_unit_opts {
  size_t size;         /* sizeof(struct tfr_unit_opts) */
  const char *path;    /* the unit's terragrunt.hcl, or its directory */
  char *const *env;    /* environ-style: get_env's variables, and the
                          TF_VAR_ ones terragrunt does not override */
  const char *command; /* the Terraform command terragrunt runs (mock
                          outputs, extra_arguments, get_terraform_command):
                          NULL is "plan" */
};

/** The defaults of tfr_unit_opts, with the program's struct size. */
#define TFR_UNIT_OPTS_INIT                                                     \
  { .size = sizeof(struct tfr_unit_opts) }

/** One input of a unit, after every include was merged.  Since 0.4.0. */
struct tfr_unit_input {
  const char *name;
  const tfr_value *value; /* as terragrunt evaluated it (unknown where
                             an unmocked dependency output or a function
                             that cannot run offline is) */
  const char *env_value;  /* the TF_VAR_ value terragrunt sets, or NULL
                             (a null input; an unknown one; a variable of
                             the real environment that terragrunt leaves
                             alone) */
  struct tfr_range range; /* `name = value` in the inputs of the unit or
                             of the included file that set it */
  const char *chain;      /* how the value got there, in words ("input
                             at root.hcl:12 (include \"root\", merged
                             shallow), reads local.env") */
  bool unknown;           /* not wholly known offline */
};

/** A unit read (tfr_unit_read).  Since 0.4.0; read its arrays by index,
 *  their element structs do not grow. */
struct tfr_unit {
  const char *config;      /* the terragrunt.hcl (.json) read */
  const char *module_dir;  /* the module Terraform runs, or NULL: not
                              checked (a remote source not downloaded) */
  const char *not_checked; /* with module_dir NULL: why, in a few words */
  char *const *env;        /* the environment Terraform runs with */
  const struct tfr_cli_arg *args; /* extra_arguments' -var and -var-file
                                     options, before the user's */
  size_t nargs;
  const struct tfr_overlay *overlays; /* files terragrunt puts in the
                                         working directory: the unit's
                                         own files over a module with a
                                         source of its own, generate
                                         blocks, the null inputs'
                                         auto-loaded file */
  size_t noverlays;
  const struct tfr_unit_input *inputs; /* by name */
  size_t ninputs;
  const char *const *unknown; /* the inputs not wholly known offline, for
                                 tfr_resolve_opts.unknown */
  size_t nunknown;
  const char *const *env_why;     /* for each env entry: where terragrunt set
                                     it when not from an input ("extra_arguments
                                     \"x\" env_vars at unit/terragrunt.hcl:3"),
                                     or NULL */
  const char *const *overlay_why; /* for each overlay: where it comes from
                                     ("copied by terragrunt from
                                     unit/x.auto.tfvars", "generate \"x\"
                                     at unit/terragrunt.hcl:3"), or NULL */
  const char *const *overlay_copy_of; /* for each overlay: the unit's file
                                         it is a copy of, or NULL */
};

/**
 * Read a unit as terragrunt does before it runs Terraform: nothing is
 * run (run_cmd, sops_decrypt_file, get_aws_*: unknown values), no state
 * is read (dependency outputs: their mocks where terragrunt uses them for
 * the command, else unknown), nothing is written.  Thread-safe: each call
 * with its own arena and list.
 * @returns the unit (owned by @p a), or NULL after an error in @p diags
 *          (terragrunt's text where it has one, located).  Warnings (an
 *          unmocked dependency output, a call that cannot run offline)
 *          go to @p diags too.  Since 0.4.0.
 */
TFR_API const struct tfr_unit *tfr_unit_read(tfr_arena *a, tfr_diags *diags,
                                             const struct tfr_unit_opts *o);

/**
 * A resolution of the unit's module (tfr_resolve with the unit's env,
 * args and overlays) seen from the unit: each value that came from an
 * input says so (tfr_variable.source_via, tfr_attempt.via: the input's
 * line), the diagnostics about such a value point at the input
 * (tfr_diag.element) with a note; an input the module does not declare
 * is a warning at its line (an error with @p strict), and -strict's
 * warning about the TF_VAR_ it sets is left out.
 * @p out receives @p in's diagnostics so changed, then the new ones.
 * @returns the resolution (owned by @p a).  Since 0.4.0.
 */
TFR_API const struct tfr_resolution *
tfr_unit_apply(tfr_arena *a, tfr_diags *out, const struct tfr_unit *unit,
               const struct tfr_resolution *res, const tfr_diags *in,
               bool strict);

/**
 * The units `terragrunt stack generate` would make from the
 * terragrunt.stack.hcl in @p dir, nested stack blocks expanded, without
 * generating them: each the directory it would generate (below the
 * stack's .terragrunt-stack, or beside the stack file with
 * no_dot_terragrunt_stack), relative to the current directory when below
 * it.  tfr_unit_read reads such a directory, generated or not, as the
 * unit its block makes (its source read at that place, values.* its
 * values).  @p env: get_env's variables.  Local sources only: a remote
 * one is an error here.
 * @returns the paths, NULL-terminated, *@p n of them (owned by @p a), or
 *          NULL after an error in @p diags.  Since 0.4.0.
 */
TFR_API const char *const *tfr_stack_units(tfr_arena *a, tfr_diags *diags,
                                           const char *dir, char *const *env,
                                           size_t *n);

/** The i-th input of a unit, or NULL.  Since 0.4.0. */
TFR_API const struct tfr_unit_input *
tfr_unit_input_at(const struct tfr_unit *unit, size_t i);

#ifdef __cplusplus
}
#endif

#endif
