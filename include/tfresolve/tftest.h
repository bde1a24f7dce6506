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
**
** These structs grow as resolution.h says: tfr_test_opts starts from
** TFR_TEST_OPTS_INIT (its size, and arg_size the stride of its -var
** array), and the files and runs of a suite are reached through
** tfr_test_suite_file() and tfr_test_file_run(), never by indexing
** `files` or `runs`.
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

/** One `run` block and what it came to (tfr_test_file_run). */
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

/** One test file (tfr_test_suite_file). */
struct tfr_test_file {
  const char *name; /* relative to the module: "tests/a.tftest.hcl" */
  const char *path; /* as diagnostics name it */
  enum tfr_test_status status;
  const struct tfr_test_run *runs; /* in file order: use
                                      tfr_test_file_run() */
  size_t nruns;
  tfr_diags *diags; /* printed after the file's status */
};

/** Options of tfr_test_run_dir: start from TFR_TEST_OPTS_INIT. */
struct tfr_test_opts {
  size_t size;               /* sizeof(struct tfr_test_opts) */
  const char *dir;           /* the module directory (NULL: ".") */
  const char *test_dir;      /* relative to dir (NULL: "tests") */
  const char *const *filter; /* -filter: test file names (relative
                                to dir), or none for all */
  size_t nfilter;
  char *const *env;               /* TF_VAR_* source, or NULL */
  const struct tfr_cli_arg *args; /* -var / -var-file, in order */
  size_t nargs;
  size_t arg_size; /* sizeof(struct tfr_cli_arg): the stride of args */
  bool opentofu;   /* OpenTofu: .tofutest.hcl files too */
};

/** The defaults of tfr_test_opts, with the program's struct sizes:
 *  `struct tfr_test_opts o = TFR_TEST_OPTS_INIT;` */
#define TFR_TEST_OPTS_INIT                                                     \
  {                                                                            \
    .size = sizeof(struct tfr_test_opts),                                      \
    .arg_size = sizeof(struct tfr_cli_arg)                                     \
  }

/** What the test files of a module came to (tfr_test_run_dir). */
struct tfr_test_suite {
  enum tfr_test_status status;       /* PASS unless a run failed */
  bool fatal;                        /* the configuration or a test file has
                                        errors: nothing was run */
  tfr_diags *diags;                  /* printed before the files */
  const struct tfr_test_file *files; /* in the order Terraform runs them:
                                        use tfr_test_suite_file() */
  size_t nfiles;
  size_t passed, failed, skipped; /* runs; failed counts errors too */
};

/**
 * Run the test files of a module.
 * @param[in] o  Options from TFR_TEST_OPTS_INIT.  Options (or an arg_size)
 *               of a size this library cannot read, or NULL, are an error
 *               diagnostic in the suite's diags with TFR_CODE_BAD_OPTIONS,
 *               and a fatal suite (status ERROR) with no files.
 * @returns the suite (owned by @p a); never NULL.
 */
TFR_API const struct tfr_test_suite *
tfr_test_run_dir(tfr_arena *a, const struct tfr_test_opts *o);

/**
 * The i-th test file of a suite (in the order Terraform runs them), or
 * NULL when @p i is not below s->nfiles (or @p s is NULL).  Always reach
 * the files this way: the library's struct may be larger than the
 * program's.
 */
TFR_API const struct tfr_test_file *
tfr_test_suite_file(const struct tfr_test_suite *s, size_t i);

/** The i-th run block of a test file, or NULL when @p i is not below
 *  f->nruns (or @p f is NULL). */
TFR_API const struct tfr_test_run *
tfr_test_file_run(const struct tfr_test_file *f, size_t i);

#ifdef __cplusplus
}
#endif
#endif
