/*
** The functions' engine tables (engine.h).  Terraform's texts are
** hashicorp/terraform's internal/lang/funcs (crypto.go) and go-cty-yaml
** 1.1.0; OpenTofu's are opentofu/opentofu's internal/lang/funcs and
** go-cty-yaml 1.2.0 (its go.mod).
*/
#include "eval/engine.h"

const struct eval_engine eval_terraform = {
    .password_error = "error occured generating password",
};

const struct eval_engine eval_opentofu = {
    .tofu_funcs = true,
    .yaml_v120 = true,
    .password_error = "error occurred generating password",
    .asn1_struct_syntax = true,
};
