/*
** show -format=yaml|tfvars|env: the resolved values as a file to read
** them back from.
*/
#include "cli.h"
#include "cli_module.h"
#include "cli_types.h"
#include "cli_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
** The TF_VAR_ text of v's value, in the arena, or NULL and *why (the
** end of a comment line) when an environment variable cannot carry it.
** Terraform takes the text literally when the type is primitive or
** missing (without a type the value is then a string), and parses it as
** an HCL expression for any other type, `any` and types containing it
** included: there a string is a quoted HCL string, as in a tfvars file.
*/
static const char *env_text(tfr_arena *a, const struct tfr_variable *v,
                            const char **why) {
  const tfr_value *val = v->value;
  if (!v->literal_mode) {
    if (!tfr_value_json_encodable(val)) {
      *why = "holds an infinite number, which HCL cannot express";
      return NULL;
    }
    return tfr_value_hcl(a, val);
  }
  if (val->flags & TFR_V_NULL) {
    *why =
        tfr_arena_printf(a, "null, which TF_VAR_%s cannot express %s", v->name,
                         v->typed ? "for a primitive type" : "without a type");
    return NULL;
  }
  int k = val->type->kind;
  if (!v->typed && k != TFR_STRING) {
    *why = tfr_arena_printf(a,
                            "left out: without a type, TF_VAR_%s would be "
                            "a string",
                            v->name);
    return NULL;
  }
  if (k != TFR_STRING) /* a number or bool: its text converts back */
    return tfr_value_hcl(a, val);
  if (memchr(val->s, '\0', val->n)) {
    *why = tfr_arena_printf(a,
                            "holds a NUL character, which TF_VAR_%s "
                            "cannot carry",
                            v->name);
    return NULL;
  }
  return tfr_arena_strndup(a, val->s, val->n);
}

/* Every line of text as a comment: "# " after each newline too. */
static void comment_lines(const char *text) {
  fputs("# ", stdout);
  for (const char *p = text; *p; p++) {
    putchar(*p);
    if (*p == '\n')
      fputs("# ", stdout);
  }
  putchar('\n');
}

/* One variable as an `export TF_VAR_...` line, or comments saying why it
** is left out. */
static void env_line(tfr_arena *a, const struct tfr_variable *v) {
  const char *why = NULL;
  const char *text = env_text(a, v, &why);
  if (!text) {
    printf("# %s: %s\n", v->name, why);
    return;
  }
  if (cli_sh_name(v->name)) {
    printf("export TF_VAR_%s=", v->name);
    cli_sh_quote(stdout, text);
    putchar('\n');
    return;
  }
  /* as `tfresolve init` does: left out, with what sets it all the same */
  printf("# %s: a POSIX shell cannot export TF_VAR_%s; env(1) can:\n", v->name,
         v->name);
  char *line = NULL;
  size_t len = 0;
  FILE *m = cli_memstream(&line, &len);
  fputs("env ", m);
  cli_sh_quote(m, tfr_arena_printf(a, "TF_VAR_%s=%s", v->name, text));
  fputs(" terraform plan", m);
  cli_memstream_close(m);
  comment_lines(line);
  free(line);
}

/* show -format=yaml|tfvars|env: the resolved values, ready to use again.
** Sensitive values are left out unless -show-sensitive, and so are
** unresolved variables, each with a comment that says so (in YAML too,
** before the mapping); then, in tfvars and env, a value the format cannot
** express is a comment that says why, where its line would be. */
void cli_show_values(tfr_arena *a, const struct tfr_resolution *res,
                     enum out_format f, bool show_sensitive) {
  size_t n = 0;
  const struct tfr_variable **vars =
      tfr_arena_alloc(a, (res->n ? res->n : 1) * sizeof *vars);
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
    vars[n++] = v;
  }
  if (f == FMT_YAML) {
    const char **names = tfr_arena_alloc(a, (n ? n : 1) * sizeof *names);
    const tfr_value **vals = tfr_arena_alloc(a, (n ? n : 1) * sizeof *vals);
    for (size_t i = 0; i < n; i++) {
      names[i] = vars[i]->name;
      vals[i] = vars[i]->value;
    }
    tfr_value_write_yaml(stdout, a, tfr_object(a, n, names, vals));
    return;
  }
  for (size_t i = 0; i < n; i++) {
    if (f == FMT_ENV)
      env_line(a, vars[i]);
    else if (!tfr_value_json_encodable(vars[i]->value))
      printf("# %s: holds an infinite number, which HCL cannot express\n",
             vars[i]->name);
    else
      printf("%s = %s\n", vars[i]->name, tfr_value_hcl(a, vars[i]->value));
  }
}
