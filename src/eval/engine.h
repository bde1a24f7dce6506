/*
** Where OpenTofu's functions differ from Terraform's (-engine=opentofu):
** one table per engine that the functions ask, never which engine it
** is.  The module layer's engine table (src/module/engine_tofu.h) points
** at its engine's one.
*/
#ifndef TFR_EVAL_ENGINE_H
#define TFR_EVAL_ENGINE_H

#include <stdbool.h>

struct eval_engine {
  bool tofu_funcs; /* OpenTofu's own functions (urldecode, assume*, ...) */
  bool yaml_v120;  /* yamldecode as go-cty-yaml 1.2.0 (<< merges a
                      sequence of mappings; Terraform keeps 1.1.0) */
  const char *password_error; /* bcrypt's error lead: Terraform's text
                                 misspells "occurred" */
  bool asn1_struct_syntax;    /* a private key's structure error is "invalid
                                 ASN1 data" too */
};

/* Terraform's (the default) and OpenTofu's. */
extern const struct eval_engine eval_terraform, eval_opentofu;

/* The engine of a context: its own, or Terraform's. */
#define EVAL_ENGINE(c) ((c)->engine ? (c)->engine : &eval_terraform)

#endif
