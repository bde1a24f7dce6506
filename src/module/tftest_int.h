/*
** The `test` command's interface within module tftest: a test file as
** decoded from its .tftest.hcl (struct tfile, trun, tvars...), the
** references it holds, and the steps and helpers that tftest.c (the
** runs and the suite) uses from tftest_file.c (the schema, the
** references, finding the files).  Everything lives in the run's arena.
*/
#ifndef TFR_TFTEST_INT_H
#define TFR_TFTEST_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "syntax/ast.h"
#include "tfresolve/arena.h"
#include "tfresolve/diag.h"
#include "tfresolve/tftest.h"
#include "tfresolve/value.h"

/* ---- references -------------------------------------------------------- */

/* One traversal: its root and first step (run.NAME, var.NAME,
** aws_s3_bucket.NAME). */
struct ref {
  const struct ast *root;
  const char *attr; /* the first step's name, or NULL */
  uint32_t alen;
  const char *attr2; /* the second step's name (data.TYPE.NAME), or NULL */
  uint32_t alen2;
  struct span span; /* root and first step */
};

struct refs {
  struct ref *v;
  size_t n, cap;
  bool calls; /* it calls a function */
};

/* The references of x, in the order hcl's Variables finds them; calls is
** set when x calls a function. */
struct refs tt_refs_of(tfr_arena *a, const struct ast *x);
/* Is r's root the name s (var, run, data...)? */
bool tt_ref_root(const struct ref *r, const char *s);
/* "aws_s3_bucket.b", "data.aws_ami.x", "output.id": for messages. */
const char *tt_ref_text(tfr_arena *a, const struct ref *r);

/* A diagnostic at span s of src. */
void tt_error_at(tfr_diags *d, struct src_file *src, struct span s,
                 enum tfr_severity sev, const char *summary,
                 const char *detail);

/* ---- the test file schema (configs/test_file.go) ----------------------- */

struct tvar {
  const char *name;
  const struct ast *attr; /* AST_ATTR: name = expr */
  /* a file-level one once evaluated: Terraform evaluates it once for the
  ** file, its errors the file's (node_variable.go:105-147) */
  bool done, constant, errors;
  const tfr_value *value;
  const char *why; /* why it is not known offline, or NULL */
};

struct tvars {
  struct tvar *v;
  size_t n;
  bool present;
  struct span def;
};

struct tassert {
  const struct ast *cond, *msg;
};

struct trun {
  const char *name;
  struct span def;
  bool apply;
  struct tvars vars;
  const struct ast *expect;     /* expect_failures */
  const struct ast *expect_msg; /* expect_error_message (this tool's) */
  struct tassert *asserts;
  size_t nasserts;
  bool has_module;
  const char *module_source;
  const char *state_key;
  int parallel; /* -1: as the file says */
  /* decided before any run */
  tfr_diags *static_diags; /* run.Validate's errors */
  struct ref *expect_refs;
  size_t nexpect;
  const tfr_value **msgs; /* expected message strings */
  struct span *msg_spans;
  size_t nmsgs;
};

/* A `variable` block of a test file (Terraform 1.13: configs/test_file.go
** decodes it with decodeVariableBlock), and its value once the file runs
** (tftest_vars.c). */
struct tdef {
  const char *name;
  struct span decl;                    /* variable "NAME": its DeclRange */
  const tfr_type *type;                /* its constraint (any if none) */
  const struct tfr_defaults *defaults; /* of optional attributes */
  const tfr_value *def;                /* its default (converted), or NULL */
  bool literal;                        /* -var and TF_VAR_ taken as strings */
  bool sensitive, nullable, ephemeral;
  /* when the file runs */
  const tfr_value *value; /* the final value, or NULL */
  bool failed;            /* its value has errors (the file's) */
};

struct tfile {
  const char *name, *path;
  struct src_file *src;
  bool json;
  struct tvars vars;
  struct tdef *defs; /* its variable blocks, in order */
  size_t ndefs;
  struct trun *runs;
  size_t nruns, cap;
  bool parallel;
  bool in_test_dir;
  const tfr_diags *parsed_in; /* knows its blocks (the "in run ...") */
};

/* Parse and decode the test file `name` (relative to the module in dir)
** into f.  Syntax and configuration errors go to diags; a JSON file
** gets only its run names. */
void tt_read_file(tfr_arena *a, tfr_diags *diags, const char *dir,
                  const char *test_dir, const char *name, bool opentofu,
                  struct tfile *f);

/* The variable block of f named name (n bytes), or NULL. */
struct tdef *tt_def(const struct tfile *f, const char *name, size_t n);

/* run.Validate: the expect_failures references and expect_error_message
** of r, checked into r->static_diags (see tftest_file.c). */
void tt_validate_run(tfr_arena *a, struct tfile *f, struct trun *r);

/* ---- the variables of a test file (tftest_vars.c) ----------------------- */

struct module;
struct raw_value;

/* NodeVariableDefinition.Execute for each variable block of f: its value
** from values' collected values (NULL: none), its default, converted;
** errors go to out (the file's), and mark the variable failed. */
void tt_eval_defs(tfr_arena *a, struct tfile *f, struct module *values,
                  tfr_diags *out);

/* The output values of a run that reached its plan: each NULL when only
** a plan with providers knows it (it refers to resources...). */
struct touts {
  bool have; /* the run produced outputs (passed or failed) */
  size_t n;
  const char **names;
  const tfr_value **vals;
};
struct touts tt_run_outputs(tfr_arena *a, const struct module *m,
                            const tfr_value *const *values, const char *dir,
                            bool opentofu);
/* Them as the object run.NAME (the offline ones unknown). */
const tfr_value *tt_outputs_object(tfr_arena *a, const struct touts *o);

/* The graph's cycles (dag.go:203-253): "Cycle:" errors (and "Self
** reference:") in out for f's runs and variables; whether any.
** module_vars: the names the module under test declares. */
bool tt_cycles(tfr_arena *a, const struct tfile *f, const struct module *m,
               tfr_diags *out);

/* Why run `run` of f does not run: a variable it uses failed, or reads
** a run that did not complete (node_test_run.go:102-107); NULL when it
** runs.  *offline: only tfresolve could not tell (a run skipped offline).
** done: the runs' outcomes so far. */
struct tfr_test_run;
const char *tt_blocked(tfr_arena *a, const struct tfile *f,
                       const struct module *m, size_t run,
                       const struct tfr_test_run *done, bool *offline);

/* ---- finding the test files -------------------------------------------- */

struct names {
  const char **v;
  size_t n, cap;
};
void tt_names_add(tfr_arena *a, struct names *l, const char *s);
/* dir/name, or name when dir is NULL or "." */
const char *tt_join(tfr_arena *a, const char *dir, const char *name);
/* filepath.IsLocal: relative, no "..", not empty. */
bool tt_local_path(const char *p);
/* "tests/./x" -> "tests/x": path.Clean, lightly. */
const char *tt_clean_rel(tfr_arena *a, const char *p);

/* The test files of the module and of its test directory, by name
** relative to the module, sorted, then narrowed to o->filter when
** given.  Warnings go to diags. */
struct names tt_find_tests(tfr_arena *a, tfr_diags *diags, const char *dir,
                           const char *test_dir, const struct tfr_test_opts *o);

/* What a run and its judging share (tftest.c, tftest_judge.c). */
/* The global values of one group of test files (Terraform's
** GlobalVariables, plus the test directory's own tfvars files for the
** files in it). */
struct globals {
  const struct tfr_cli_arg *args;
  size_t nargs;
  const tfr_value **given; /* per declared variable: the parsed value */
  bool *set;               /* per declared variable: some source sets it */
  tfr_diags *seen;         /* what collecting them reported (once) */
  struct module *values;   /* every value collected, for the variable
                              blocks of the test files (raws) */
  tfr_diags *values_seen;  /* ... and their sources */
};

struct tctx {
  tfr_arena *a;
  const struct tfr_test_opts *o;
  const char *dir;
  tfr_module *mod;
  const struct module *m; /* the declarations */
  tfr_diags *load;        /* the module files' sources */
  struct tfr_test_suite *suite;
  tfr_diags *sdiags;
  struct globals main, testdir;
  struct touts *outs; /* the current file's: each run's outputs */
  tfr_diags *fdiags;  /* ... and its own diagnostics */
};

/* Values given in the test file, for one run. */
struct tval {
  const char *name;
  const struct ast *attr; /* where it is written */
  bool from_run;          /* the run's block (else the file's) */
  long decl;              /* index of the declaration, or -1 */
  bool constant;          /* no references, no calls: copied as is */
  bool evaluated;
  const tfr_value *value; /* when evaluated */
  bool failed;
  const struct tdef *def; /* a variable block's (attr NULL) */
};

struct runctx {
  struct tctx *t;
  struct tfile *f;
  struct trun *r;
  struct tfr_test_run *out;
  struct globals *g;
  tfr_diags *pre;   /* GetVariables' diagnostics */
  const char *skip; /* why it cannot be decided offline */
  struct tval *vals;
  size_t nvals;
};

struct tscope {
  const tfr_value *var;
  const tfr_value *run; /* run.NAME: earlier runs' outputs, or NULL */
  const struct eval_scope *inner;
};

enum tfr_test_status tt_merge(enum tfr_test_status a, enum tfr_test_status b);
long tt_decl_index(const struct module *m, const char *name, size_t n);
void tt_copy_all(tfr_diags *out, const tfr_diags *in);
void tt_offline(struct runctx *rc, const char *why);
struct tval *tt_winning(struct runctx *rc, const char *name, size_t n);
const struct tfr_variable *tt_res_var(const struct tfr_resolution *res,
                                      const char *name, size_t n);
const char *tt_deferred(tfr_arena *a, const struct tfr_variable *v);
bool tt_is_rule_failure(const struct tfr_diag *g,
                        const struct tfr_resolution *res);
long tt_expected_var(const struct trun *r, const char *name);
enum tfr_test_status tt_check_messages(struct runctx *rc,
                                       const struct tfr_resolution *res,
                                       const bool *found);
enum tfr_test_status tt_assertions(struct runctx *rc,
                                   const struct tfr_resolution *res);

/* x evaluated in a run's scope: var.* is var, run.* run (NULL: none),
** the rest inner's; *failed when it had errors. */
const tfr_value *tt_eval_in_scope(struct tctx *t, tfr_diags *d,
                                  struct src_file *src, const struct ast *x,
                                  const tfr_value *var, const tfr_value *run,
                                  const struct eval_scope *inner, bool plan,
                                  bool *failed);

#endif
