/*
** libFuzzer target: type constraints and conversion.  The input is a type
** expression, then optionally a line "#--" and a value expression.  The
** type is read as a variable's `type` (optional() and its defaults), shown
** in every form (friendly, type expression, JSON); the value is evaluated
** as a tfvars value and converted to the type with its defaults, as
** Terraform converts variable values, and the result rendered.
** Build and run: see tests/fuzz/README.md.
*/
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *text = (const char *)data;
  size_t tlen = size, vstart = size;
  for (size_t i = 0; i + 5 <= size; i++) {
    if (memcmp(text + i, "\n#--\n", 5) == 0) {
      tlen = i;
      vstart = i + 5;
      break;
    }
  }
  tfr_set_memory_budget((size_t)256 << 20);
  tfr_arena *a = tfr_arena_new();
  tfr_diags *diags = tfr_diags_new(a);
  FILE *out = fuzz_sink();
  tfr_file *tf = tfr_parse_expr(a, diags, "<type>", text, tlen);
  const struct tfr_defaults *defaults = NULL;
  const tfr_type *t = tf ? tfr_parse_type(a, diags, tf, &defaults) : NULL;
  if (tf && !t && !tfr_diags_has_errors(diags))
    abort(); /* a rejected type must be explained */
  if (t) {
    fputs(tfr_type_friendly(a, t), out);
    fputs(tfr_type_expr(a, t), out);
    tfr_type_write_json(out, t);
  }
  if (t && vstart < size) {
    tfr_file *vf =
        tfr_parse_expr(a, diags, "<value>", text + vstart, size - vstart);
    const tfr_value *v = vf ? tfr_eval_const(a, diags, vf) : NULL;
    if (v) {
      const char *err = NULL;
      const tfr_value *c = tfr_convert(a, v, t, defaults, &err);
      if (!c && !err)
        abort(); /* a failed conversion must say why */
      if (c) {
        fputs(tfr_value_console(a, c), out);
        if (tfr_value_json_encodable(c))
          tfr_value_write_json(out, a, c);
      } else {
        fputs(err, out);
      }
    }
  }
  struct tfr_render_opts ropts = TFR_RENDER_OPTS_INIT;
  ropts.unicode = true;
  tfr_diags_render_text(diags, out, &ropts);
  tfr_diags_render_json(diags, out);
  tfr_arena_free(a);
  return 0;
}
