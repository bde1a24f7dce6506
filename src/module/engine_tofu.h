/*
** Where OpenTofu's rules for a root module's variables differ from
** Terraform's (-engine=opentofu): one table per engine, read by the code
** that loads, resolves and validates, which asks the table what to do and
** never which engine it is.  engine_tofu.c says where each entry comes
** from in both sources.
*/
#ifndef TFR_ENGINE_TOFU_H
#define TFR_ENGINE_TOFU_H

#include <stdbool.h>

struct eval_engine;

struct engine_rules {
  const struct eval_engine *eval; /* its functions' (eval/engine.h) */
  bool providers_required;        /* a provider function needs its provider in
                                     required_providers */
  const char *product; /* "Terraform" or "OpenTofu", in texts that name it */
  const char *command; /* "terraform" or "tofu", in texts that name it */
  const char *follows; /* the release, and the development head whose
                          source this table and the code follow (what
                          tfresolve -version and README say) */
  /* configs/named_values.go */
  bool const_excludes_marks; /* a const variable may be neither sensitive
                                nor ephemeral */
  bool deprecated_nonblank;  /* a blank `deprecated` is an error */
  /* configs/module_merge.go */
  bool override_deprecated; /* an override file's `deprecated` (not empty)
                               replaces the base's */
  /* eval_variable.go and the root variable's graph node */
  bool deprecated_warns;          /* a root variable that got a value warns */
  const char *deprecated_summary; /* the warning for a deprecated variable
                                     that got a value, its detail (NULL:
                                     the `deprecated` text; else a format
                                     of the quoted name and that text) */
  const char *deprecated_detail;
  bool deprecated_null_warns; /* ... a null argument too */
  bool ephemeral_arg_first;   /* an ephemeral value given to a variable
                                 that is not is refused before it is
                                 converted (else after), with: */
  const char *ephemeral_arg_summary, *ephemeral_arg_detail; /* (a format of
                                     the variable's quoted name) */
  bool warns_dropped_default;  /* the engine warns about a default's
                                  (native) object constructors that set
                                  attributes the type drops */
  bool warns_dropped_arg;      /* ... and a module argument's, in the
                                  validate walk */
  bool errors_at_decl;         /* a file value that does not convert, and a
                                  failed rule, point at the declaration (not at
                                  the value) */
  bool ephemeral_detail;       /* "..., which is ephemeral: ..." */
  bool rules_stop_at_error;    /* a variable's rules after one with an error
                                  are not evaluated */
  bool failed_message_unknown; /* an error message that fails to evaluate is
                                  unknown (else: "Failed to evaluate ...") */
  bool unknown_message_fails;  /* an unknown message: the rule fails (else:
                                  it is in error) */
  const char *unknown_message; /* details of "Invalid error message" and */
  const char *sensitive_message, *ephemeral_message; /* "Error message
                                  refers to sensitive/ephemeral values" */
  const char *ephemeral_text; /* shown for a message with ephemeral values */
  bool const_init_walk;       /* const variables are converted and validated in
                                 an init walk before the other stages (Terraform
                                 >= 1.15: backend_local.go, graph_builder_init.go;
                                 OpenTofu has no such walk) */
  bool const_static_eval;     /* const variables are evaluated while the module
                                 loads, as OpenTofu's static evaluation does: an
                                 error stops there (configs/module.go) */
  /* configs/configload/loader_load.go, the module tree's loader */
  const char *init_command;  /* "terraform init", "tofu init": in its texts */
  const char *registry_host; /* of a registry source that names none */
  bool source_change_named;  /* "Module source has changed" names the
                                recorded and the given address */
  bool source_at_decode;     /* an invalid source is an error of the
                                calling module's configuration (a root's
                                stops the tree), not of the call's init */
  /* command/meta_vars.go */
  const char *repetition_detail; /* a module block with count and for_each */
  bool repetition_between;       /* ... said from the first name to the last
                                    (else at for_each) */
  const char *rules_node;        /* the graph node of a variable's rules, after
                                    "var.NAME " in a cycle */
  const char *module_var_node;   /* the graph node of a child's variable,
                                    after "module.NAME.var.NAME " */
  bool cycle_one_line;           /* "Cycle: a, b" (else one node per line) */
  bool reads_tofu_files; /* .tofu and .tofu.json files, each instead of the
                            .tf (.tf.json) of the same name; .tofutest.hcl
                            and .tofutest.json test files, each instead of
                            the .tftest one of the same name */
  /* the test command (moduletest, command/test.go) */
  bool test_variable_blocks; /* a test file's `variable` blocks, checked as a
                                graph with its runs (cycles are errors) */
  bool test_global_warning;  /* "Variable referenced without definition" */
  bool test_run_outputs_from_config; /* run.NAME.OUTPUT evaluated from the
                                        configuration (else: from the
                                        runs' states, not modelled) */
  bool module_lifecycle;             /* a module block's lifecycle block is the
                                        engine's own (OpenTofu's enabled), not a
                                        reserved name */
  bool sniff_json_var_files; /* -var-file=NAME neither .json nor .tfvars is
                                JSON when it starts with "{" */
};

/* Terraform's rules, or OpenTofu's: static, never NULL. */
const struct engine_rules *engine_rules(bool opentofu);

/* The mark a bad value's message is discreet about ("ephemeral",
** "sensitive"), or NULL. */
const char *engine_secret_mark(const struct engine_rules *e, bool sensitive,
                               bool ephemeral);

#endif
