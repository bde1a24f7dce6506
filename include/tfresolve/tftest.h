/*
** libtfresolve: the variable-only part of `terraform test`, offline.
**
** Reads a module's test files (every *.tftest.hcl in DIR and in DIR/tests,
** or another test directory) and decides each `run` block as `terraform
** test` would, as far as that can be known without providers: the run's
** variables (run block > file `variables` block > -var/-var-file, tfvars
** files and TF_VAR_) are resolved, converted and validated, and the
** outcome is held against `expect_failures` (and this tool's
** `expect_error_message`) and against the `assert` blocks that refer only
** to var.*, local.*, path.* and terraform.*.  A run whose outcome depends
** on what only a plan with providers can know (resources, outputs, data
** sources, another module, outputs of earlier runs) is skipped, with the
** reason.  The provider part of a run that can be decided is assumed to
** succeed.
*/
#ifndef TFRESOLVE_TFTEST_H
#define TFRESOLVE_TFTEST_H

#include "tfresolve/export.h"

#include <stdbool.h>
#include <stddef.h>

#include "tfresolve/tfresolve.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Outcomes, in Terraform's order (a file or suite takes the highest). */
enum tfr_test_status {
  TFR_TEST_PENDING,
  TFR_TEST_SKIP,
  TFR_TEST_PASS,
  TFR_TEST_FAIL,  /* an assertion or an expectation did not hold */
  TFR_TEST_ERROR, /* errors (Terraform prints "fail" too); later runs of the
                     file are skipped, as Terraform skips them */
};

/** "pending", "skip", "pass", "fail" or "error". */
TFR_API const char *tfr_test_status_name(enum tfr_test_status s);

/** One `run` block and what it came to. */
struct tfr_test_run {
  const char *name;
  enum tfr_test_status status;
  bool apply;              /* command = apply (the default), else plan */
  const char *skip_reason; /* SKIP: why (an offline limit, or an earlier
                              run's errors); NULL otherwise */
  bool offline;            /* skipped because it cannot be decided
                              offline (Terraform would run it) */
  tfr_diags *diags;        /* what Terraform prints under the run */
  struct tfr_range decl;   /* run "name" */
};

/** One test file. */
struct tfr_test_file {
  const char *name; /* relative to the module: "tests/a.tftest.hcl" */
  const char *path; /* as diagnostics name it */
  enum tfr_test_status status;
  const struct tfr_test_run *runs;
  size_t nruns;
  tfr_diags *diags; /* printed after the file's status */
};

struct tfr_test_opts {
  const char *dir;           /* the module directory (NULL: ".") */
  const char *test_dir;      /* relative to dir (NULL: "tests") */
  const char *const *filter; /* -filter: test file names (relative
                                to dir), or none for all */
  size_t nfilter;
  char *const *env;               /* TF_VAR_* source, or NULL */
  const struct tfr_cli_arg *args; /* -var / -var-file, in order */
  size_t nargs;
  bool opentofu; /* OpenTofu: .tofutest.hcl files too */
};

struct tfr_test_suite {
  enum tfr_test_status status;       /* PASS unless a run failed */
  bool fatal;                        /* the configuration or a test file has
                                        errors: nothing was run */
  tfr_diags *diags;                  /* printed before the files */
  const struct tfr_test_file *files; /* in the order Terraform runs them */
  size_t nfiles;
  size_t passed, failed, skipped; /* runs; failed counts errors too */
};

/**
 * Run the test files of a module.
 * @returns the suite (owned by @p a); never NULL.
 */
TFR_API const struct tfr_test_suite *
tfr_test_run_dir(tfr_arena *a, const struct tfr_test_opts *o);

#ifdef __cplusplus
}
#endif
#endif
