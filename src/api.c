/*
** Public entry points of libtfresolve that join the internal modules
** (type expressions, conversion, rendering) for the CLI and other users.
*/
#include "convert.h"
#include "json_out.h"
#include "parse.h"
#include "render.h"
#include "tfresolve/tfresolve.h"
#include "typeexpr.h"

const tfr_type *tfr_parse_type(tfr_arena *a, tfr_diags *diags,
                               const tfr_file *expr,
                               const struct tfr_defaults **defaults) {
  return typeexpr_variable(a, diags, expr->f.src, expr->f.body, defaults);
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
