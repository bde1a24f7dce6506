/*
** show -format=yaml|tfvars|env: the resolved values as a file to read
** them back from.
*/
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* show -format=yaml|tfvars|env: the resolved values, ready to use again.
** Sensitive values are left out unless -show-sensitive, and so are
** unresolved variables, each with a comment that says so (in YAML too,
** before the mapping). */
void cli_show_values(tfr_arena *a, const struct tfr_resolution *res,
                     enum out_format f, bool show_sensitive) {
  size_t n = 0;
  const char **names =
      tfr_arena_alloc(a, (res->n ? res->n : 1) * sizeof *names);
  const tfr_value **vals =
      tfr_arena_alloc(a, (res->n ? res->n : 1) * sizeof *vals);
  for (size_t i = 0; i < res->n; i++) {
    const struct tfr_variable *v = tfr_resolution_variable(res, i);
    if (!v->value) {
      printf("# %s: not resolved (%s)\n", v->name,
             v->reason ? v->reason : "see the errors");
      continue;
    }
    if (v->sensitive && !show_sensitive) {
      printf("# %s: sensitive (use -show-sensitive)\n", v->name);
      continue;
    }
    names[n] = v->name;
    vals[n++] = v->value;
  }
  if (f == FMT_YAML) {
    tfr_value_write_yaml(stdout, a, tfr_object(a, n, names, vals));
    return;
  }
  for (size_t i = 0; i < n; i++) {
    const char *hcl = tfr_value_hcl(a, vals[i]);
    if (f == FMT_TFVARS) {
      printf("%s = %s\n", names[i], hcl);
      continue;
    }
    /* TF_VAR_ values: primitives as they are, others as HCL */
    int k = vals[i]->type->kind;
    if ((vals[i]->flags & TFR_V_NULL) &&
        (k == TFR_STRING || k == TFR_NUMBER || k == TFR_BOOL)) {
      printf("# %s: null, which TF_VAR_%s cannot express for a primitive "
             "type\n",
             names[i], names[i]);
      continue;
    }
    const char *raw = hcl;
    if (!(vals[i]->flags & TFR_V_NULL) &&
        (k == TFR_STRING || k == TFR_NUMBER || k == TFR_BOOL))
      raw = k == TFR_STRING ? tfr_arena_strndup(a, vals[i]->s, vals[i]->n)
                            : tfr_value_hcl(a, vals[i]);
    printf("export TF_VAR_%s='", names[i]);
    for (const char *p = raw; *p; p++)
      fputs(*p == '\'' ? "'\\''" : (char[2]){*p, 0}, stdout);
    puts("'");
  }
}
