/*
** Terraform's and OpenTofu's rules for a root module's variables, where
** they differ.  The sources compared: "T" Terraform 1.17.0-dev (commit
** 883c7221ee2e) and "O" OpenTofu 1.13.0-dev (f831fa1aa4b9); the files
** are T's internal/terraform/ and O's internal/tofu/, and configs/ below
** internal/ in both.
*/
#include "module/engine_tofu.h"

#include <stddef.h>

#include "eval/engine.h"
#include "module/source.h"

static const struct engine_rules terraform = {
    .eval = &eval_terraform,
    /* T lang/eval.go, eval_context_builtin.go: "Unknown provider
    ** function" (O calls any provider's function) */
    .providers_required = true,
    /* T configs/test_file.go:478-530, moduletest/graph (Terraform 1.13) */
    .test_variable_blocks = true,
    /* T moduletest/eval_context.go:457-469 */
    .test_global_warning = true,
    /* T moduletest/eval_context.go:186-225 */
    .test_run_outputs_from_config = true,
    .product = "Terraform",
    .command = "terraform",
    .follows = "Terraform 1.16 and its development head (1.17.0-dev, "
               "commit 883c7221ee2e)",
    /* T node_variable_validation.go (Name), dag.go:121-167 */
    .rules_node = "(validation)",
    /* T node_module_variable.go (nodeExpandModuleVariable.Name) */
    .module_var_node = "(expand)",
    /* T module_call.go:76-84 */
    .repetition_detail =
        "The \"count\" and \"for_each\" meta-arguments are "
        "mutually-exclusive, only one should be used to be explicit about "
        "the number of resources to be created.",
    /* named_values.go:147-164 (O has `const`, without these errors) */
    .const_excludes_marks = true,
    /* T node_root_variable.go:94-102 (O: eval_variable.go:546, no
    ** warning without a module call's argument) */
    .deprecated_warns = true,
    /* T node_module_variable.go:337-344: a value that is not null */
    .deprecated_summary = "Deprecated variable got a value",
    /* T eval_variable.go:196-226 */
    .ephemeral_arg_summary = "Ephemeral value not allowed",
    .ephemeral_arg_detail = "This input variable is not declared as "
                            "accepting a ephemeral values, so it cannot be "
                            "set to a result derived from an ephemeral "
                            "value.",
    /* T eval_variable.go:120-124 (the value's range) and
    ** node_root_variable.go:168-178 (a rule's failure at the value) */
    .errors_at_decl = false,
    /* T eval_variable.go:433-451: an unknown message is an error of its
    ** own, and one that failed to evaluate is unknown too when HCL gives
    ** it an unknown value (a template with no unknown part stays known) */
    .failed_message_unknown = true,
    /* backend_local.go:209-218, graph_builder_init.go:66-80 */
    .const_init_walk = true,
    .unknown_message = "Unsuitable value for error message: expression "
                       "refers to values that won't be known until the apply "
                       "phase.",
    /* T eval_variable.go:472 and 486-494 */
    .sensitive_message = "The error expression used to explain this "
                         "condition refers to sensitive values. Terraform "
                         "will not display the resulting message.\n\nYou can "
                         "correct this by removing references to sensitive "
                         "values, or by carefully using the nonsensitive() "
                         "function if the expression will not reveal the "
                         "sensitive data.",
    .ephemeral_message = "The error expression used to explain this "
                         "condition refers to ephemeral values. Terraform "
                         "will not display the resulting message.\n\nYou can "
                         "correct this by removing references to ephemeral "
                         "values, or by carefully using the ephemeralasnull() "
                         "function if the expression will not reveal the "
                         "ephemeral data.",
    .ephemeral_text = "The error message included a sensitive value, so it "
                      "will not be displayed.",
    /* T loader_load.go:48-108; terraform-registry-address module.go:37 */
    .init_command = "terraform init",
    .registry_host = SOURCE_TERRAFORM_REGISTRY,
};

static const struct engine_rules opentofu = {
    .eval = &eval_opentofu,
    .product = "OpenTofu",
    .command = "tofu",
    /* O module_call.go:115-134 (lifecycle { enabled }); T reserves the
    ** name, module_call.go:146-154 */
    .module_lifecycle = true,
    /* O configs/parser_config_dir.go */
    .reads_tofu_files = true,
    /* O module_call.go:165-173, validation.go:15-53 */
    .repetition_detail =
        "The \"count\" and \"for_each\" meta-arguments are "
        "mutually-exclusive. Only one should be used to be explicit about "
        "the number of module instances to be created.",
    .repetition_between = true,
    /* O node_variable_reference.go:84-90, dag.go:122-151 */
    .rules_node = "(expand, reference)",
    /* O node_module_variable.go:71-73 */
    .module_var_node = "(expand, input)",
    .cycle_one_line = true,
    .follows = "OpenTofu 1.12 and its development head (1.13.0-dev, "
               "commit f831fa1aa4b9)",
    /* named_values.go:140-151 */
    .deprecated_nonblank = true,
    /* O configs/module.go:270-285 (WithStaticCall: every const variable
    ** referenced at once), static_scope.go:250-399 (each variable's value),
    ** command/meta_config.go:93-128 (the root's values) */
    .const_static_eval = true,
    /* O module_merge.go:54-56 (T's Variable.merge has no `deprecated`) */
    .override_deprecated = true,
    /* O eval_variable.go:139-161: the declaration, and "which is
    ** ephemeral" before "which is sensitive"; 512-526: a rule's failure
    ** at the declaration when there is no module call's argument (a root
    ** variable's, transform_variable.go:49-53) */
    .errors_at_decl = true,
    .ephemeral_detail = true,
    /* O eval_variable.go:535-561: a module argument's value, null too */
    .deprecated_summary = "Variable marked as deprecated by the module "
                          "author",
    .deprecated_detail = "Variable %s is marked as deprecated with the "
                         "following message:\n%s",
    .deprecated_null_warns = true,
    /* O eval_variable.go:55-73 */
    .ephemeral_arg_first = true,
    .ephemeral_arg_summary = "Variable does not allow ephemeral value",
    .ephemeral_arg_detail = "The value used for the variable %s is "
                            "ephemeral, but it is not configured to allow "
                            "one.",
    /* O configs/named_values.go:262-280: a default's object constructors */
    .warns_dropped_default = true,
    /* O node_module_variable.go:158-175 (walkValidate), 258-300 */
    .warns_dropped_arg = true,
    /* O eval_variable.go:274-287: diags gathers every rule's, and a rule
    ** is skipped once it has errors */
    .rules_stop_at_error = true,
    /* O eval_variable.go:427-443: only a message evaluated without errors
    ** can be unknown; the rule fails, and nothing else is said */
    .unknown_message_fails = true,
    .unknown_message = "Value used in error message is not known and can "
                       "not be used in error_message until after apply.",
    /* O eval_variable.go:463 and 478-487 */
    .sensitive_message = "The error expression used to explain this "
                         "condition refers to sensitive values. OpenTofu "
                         "will not display the resulting message.\n\nYou can "
                         "correct this by removing references to sensitive "
                         "values, or by carefully using the nonsensitive() "
                         "function if the expression will not reveal the "
                         "sensitive data.",
    .ephemeral_message = "The error expression used to explain this "
                         "condition refers to ephemeral values. OpenTofu "
                         "will not display the resulting message.\n\nYou can "
                         "correct this by removing references to ephemeral "
                         "values or by utilizing the builtin ephemeralasnull() "
                         "function.",
    .ephemeral_text = "The error message included an ephemeral value, so it "
                      "will not be displayed.",
    /* O loader_load.go:74-145 (95: the detail names both addresses);
    ** opentofu/registry-address module.go:37 */
    .init_command = "tofu init",
    .registry_host = SOURCE_OPENTOFU_REGISTRY,
    .source_change_named = true,
    /* O configs/module_call.go:215-252 (T node_module_install.go:277-328) */
    .source_at_decode = true,
    /* O command/meta_vars.go:192-199 (T command/arguments/vars.go:268) */
    .sniff_json_var_files = true,
};

const struct engine_rules *engine_rules(bool tofu) {
  return tofu ? &opentofu : &terraform;
}

const char *engine_secret_mark(const struct engine_rules *e, bool sensitive,
                               bool ephemeral) {
  if (ephemeral && e->ephemeral_detail)
    return "ephemeral";
  return sensitive ? "sensitive" : NULL;
}
