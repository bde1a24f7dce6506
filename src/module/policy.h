/*
** HashiCorp Terraform Policy's module policies (*.policy.hcl), evaluated
** offline on the module instances of a resolution (policy.c).
*/
#ifndef TFR_POLICY_H
#define TFR_POLICY_H

#include <stdbool.h>

#include "tfresolve/arena.h"
#include "tfresolve/diag.h"
#include "tfresolve/resolution.h"

/*
** Every module_policy block of every policy file in dir against every
** child module instance of res whose source it names: failures of
** mandatory policies are errors, of advisory ones warnings, each located
** at the module call and, where the value came from a var file, there
** too (tfr_diag.element); all of them ours.  env: the TFPOLICY_INPUT_*
** values of the input blocks (NULL: none).  res, or a copy of it with
** valid false when a policy added an error.
*/
const struct tfr_resolution *policy_check(tfr_arena *a, tfr_diags *diags,
                                          const struct tfr_resolution *res,
                                          const char *dir, char *const *env);

#endif
