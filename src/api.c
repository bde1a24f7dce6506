/*
** Public entry points of libtfresolve that join the internal modules
** (parsing, evaluation with and without a module's scope, type
** expressions, conversion, rendering) for the CLI and other users.  The
** modules below do not include tfresolve.h: this is the top.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <crypt.h>
#include <mpfr.h>
#include <openssl/crypto.h>
#include <pthread.h>
#include <utf8proc.h>
#include <yaml.h>
#include <zlib.h>

#include "base/compat.h"
#include "values/convert.h"
#include "values/number.h"
#include "eval/eval.h"
#include "eval/engine.h"
#include "module/engine_tofu.h"
#include "eval/funcs.h"
#include "base/json_out.h"
#include "module/module.h"
#include "syntax/parse.h"
#include "syntax/refs_tf.h"
#include "module/policy.h"
#include "render/render.h"
#include "module/opts.h"
#include "base/strutil.h"
#include "tfresolve/tfresolve.h"
#include "eval/typeexpr.h"
#include "module/scope.h"
#include "module/tree.h"
#include "module/validate.h"

const tfr_type *tfr_parse_type(tfr_arena *a, tfr_diags *diags,
                               const tfr_file *expr,
                               const struct tfr_defaults **defaults) {
  return typeexpr_variable(a, diags, expr->f.src, expr->f.body, "Terraform",
                           defaults);
}

const tfr_value *tfr_convert(tfr_arena *a, const tfr_value *v,
                             const tfr_type *want,
                             const struct tfr_defaults *defaults,
                             const char **err) {
  if (defaults)
    v = conv_apply_defaults(a, v, defaults);
  return conv_convert(a, v, want, err);
}

const char *tfr_value_console(tfr_arena *a, const tfr_value *v) {
  return render_console(a, v);
}

const char *tfr_value_console_head(tfr_arena *a, const tfr_value *v,
                                   size_t keep, size_t *lines) {
  return render_console_head(a, v, keep, lines);
}

void tfr_value_write_console(FILE *out, tfr_arena *a, const tfr_value *v) {
  render_console_to(out, a, v);
}

void tfr_value_write_json(FILE *out, tfr_arena *a, const tfr_value *v) {
  render_json_value(out, a, v);
}

void tfr_type_write_json(FILE *out, const tfr_type *t) {
  render_json_type(out, t);
}

void tfr_json_write_cstr(FILE *out, const char *s) { json_write_cstr(out, s); }

bool tfr_value_write_yaml(FILE *out, tfr_arena *a, const tfr_value *v) {
  return render_yaml(out, a, v);
}

bool tfr_value_json_encodable(const tfr_value *v) {
  return render_json_encodable(v);
}

const char *tfr_value_hcl(tfr_arena *a, const tfr_value *v) {
  return render_hcl(a, v);
}

const char *tfr_value_hcl_line(tfr_arena *a, const tfr_value *v) {
  return render_hcl_line(a, v);
}

/* ---- parsing and evaluation ---------------------------------------------- */

const char *tfr_version(void) { return TFR_VERSION; }

int tfr_version_number(void) { return TFR_VERSION_NUMBER; }

static char lib_versions[512];

static void lib_versions_fill(void) {
  /* OpenSSL's "OpenSSL 3.0.16 11 Feb 2025": the number alone */
  const char *ossl = OpenSSL_version(OPENSSL_VERSION);
  if (!strncmp(ossl, "OpenSSL ", 8))
    ossl += 8;
  int ossl_len = (int)strcspn(ossl, " ");
  snprintf(lib_versions, sizeof lib_versions,
           "utf8proc %s, MPFR %s, GMP %s, libyaml %s, RE2 %s, OpenSSL %.*s, "
           "zlib %s, libxcrypt %s",
           utf8proc_version(), mpfr_get_version(), gmp_version,
           yaml_get_version_string(),
           *TFR_RE2_VERSION ? TFR_RE2_VERSION : "(version unknown)", ossl_len,
           ossl, zlibVersion(), XCRYPT_VERSION_STR);
}

static char semantics[256];

static void semantics_fill(void) {
  snprintf(semantics, sizeof semantics, "%s and, with -engine=opentofu, %s",
           engine_rules(false)->follows, engine_rules(true)->follows);
}

const char *tfr_semantics(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, semantics_fill);
  return semantics;
}

const char *tfr_suggest_name(const char *given, const char *const *names,
                             size_t n) {
  return given && names ? str_suggest(given, names, n) : NULL;
}

const char *tfr_library_versions(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, lib_versions_fill);
  return lib_versions;
}

tfr_file *tfr_parse_expr(tfr_arena *a, tfr_diags *diags, const char *name,
                         const char *text, size_t len) {
  return parse_bytes_expr(a, diags, name, text, len);
}

tfr_file *tfr_parse_bytes(tfr_arena *a, tfr_diags *diags, const char *name,
                          const char *text, size_t len,
                          enum tfr_syntax syntax) {
  return parse_bytes(a, diags, name, text, len, syntax);
}

tfr_file *tfr_parse_file(tfr_arena *a, tfr_diags *diags, const char *path,
                         enum tfr_syntax syntax) {
  return parse_bytes(a, diags, path, NULL, 0, syntax);
}

void tfr_file_dump_json(const tfr_file *f, FILE *out) {
  ast_dump_json(UNCONST(struct ast_file *, &f->f), out);
}

const char **tfr_expr_references(tfr_arena *a, const tfr_file *expr,
                                 size_t *n) {
  *n = 0;
  return expr ? refs_terraform(a, expr->f.body, n) : NULL;
}

const struct tfr_value *tfr_eval_const(tfr_arena *a, tfr_diags *diags,
                                       const tfr_file *expr) {
  return eval_const(a, diags, expr->f.src, expr->f.body);
}

/*
** The caller's eval options as this library's struct (resolution.h says
** how it grows): NULL gives the defaults.  False after an error
** diagnostic when the size is not one of a tfr_eval_opts.
*/
static bool read_eval_opts(tfr_arena *a, tfr_diags *diags,
                           const struct tfr_eval_opts *o,
                           struct tfr_eval_opts *out) {
  static const size_t v1 = STRUCT_END(struct tfr_eval_opts, module);
  if (!o) {
    *out = (struct tfr_eval_opts)TFR_EVAL_OPTS_INIT;
    return true;
  }
  return opts_read(a, diags, out, sizeof *out, o, o->size, v1,
                   "struct tfr_eval_opts", "TFR_EVAL_OPTS_INIT");
}

const struct tfr_value *
tfr_eval_functions_opts(tfr_arena *a, tfr_diags *diags, const tfr_file *expr,
                        const struct tfr_eval_opts *eo) {
  struct eval_ctx c = {0};
  c.a = a;
  c.diags = diags;
  c.src = expr->f.src;
  struct tfr_eval_opts o;
  if (!read_eval_opts(a, diags, eo, &o))
    return eval_dynamic(&c);
  c.funcs = &funcs_table;
  c.dir = o.dir;
  c.engine = engine_rules(o.opentofu)->eval;
  c.console = true;
  c.top = expr->f.body;
  while (c.top->kind == AST_PAREN)
    c.top = c.top->a;
  const tfr_value *v;
  if (tree_console_eval(&c, o.module, o.scope, expr->f.body, &v))
    return v; /* in a module: src/module/tree_scope.c */
  c.scope = scope_console(a);
  struct module none = {0};
  if (!validate_console_refs(&none, a, diags, c.src, expr->f.body))
    return eval_dynamic(&c);
  return eval_expr(&c, expr->f.body);
}

const struct tfr_value *tfr_eval_functions(tfr_arena *a, tfr_diags *diags,
                                           const tfr_file *expr) {
  return tfr_eval_functions_opts(a, diags, expr, NULL);
}

/* ---- reaching the elements of a resolution ------------------------------ */

/* With the library's sizeof, which a program's may be smaller than. */
const struct tfr_variable *
tfr_resolution_variable(const struct tfr_resolution *res, size_t i) {
  return res && i < res->n ? &res->vars[i] : NULL;
}

const struct tfr_attempt *tfr_variable_attempt(const struct tfr_variable *v,
                                               size_t i) {
  return v && i < v->nattempts ? &v->attempts[i] : NULL;
}

const struct tfr_rule *tfr_variable_rule(const struct tfr_variable *v,
                                         size_t i) {
  return v && i < v->nrules ? &v->rules[i] : NULL;
}

const struct tfr_instance *
tfr_resolution_instance(const struct tfr_resolution *res, size_t i) {
  return res && i < res->ninstances ? &res->instances[i] : NULL;
}

const struct tfr_unchecked *
tfr_resolution_unchecked(const struct tfr_resolution *res, size_t i) {
  return res && i < res->nunchecked ? &res->unchecked[i] : NULL;
}

const struct tfr_variable *
tfr_instance_variable(const struct tfr_instance *inst, size_t i) {
  return inst && i < inst->n ? &inst->vars[i] : NULL;
}

/* ---- numbers ----------------------------------------------------------- */

static bool known_number(const tfr_value *v) {
  return v && v->type->kind == TFR_NUMBER &&
         !(v->flags & (TFR_V_NULL | TFR_V_UNKNOWN)) && v->num;
}

const char *tfr_number_text(tfr_arena *a, const tfr_value *v) {
  return known_number(v) ? num_format(a, v->num) : NULL;
}

double tfr_number_double(const tfr_value *v) {
  return known_number(v) ? mpfr_get_d(num_mpfr(v->num), MPFR_RNDN) : NAN;
}

/* ---- writers with a callback -------------------------------------------- */

FILE *tfr_writer_open(tfr_write_fn fn, void *ctx) {
  return compat_writer(fn, ctx);
}

const struct tfr_resolution *tfr_policy_check(tfr_arena *a, tfr_diags *diags,
                                              const struct tfr_resolution *res,
                                              const struct tfr_policy_opts *o) {
  static const size_t v1 = STRUCT_END(struct tfr_policy_opts, env);
  struct tfr_policy_opts opts;
  if (!o || !opts_read(a, diags, &opts, sizeof opts, o, o->size, v1,
                       "struct tfr_policy_opts", "TFR_POLICY_OPTS_INIT"))
    return res;
  return policy_check(a, diags, res, opts.dir ? opts.dir : ".", opts.env);
}
