/*
** libFuzzer target: evaluate one expression with every built-in function,
** as `tfresolve eval -functions` and `console` do.  The first byte picks
** the function set (bit 0: OpenTofu's); the rest is the expression.  File
** functions see a scratch directory holding a few small files.  The value
** is rendered in every format (console, HCL, JSON, YAML) and every
** diagnostic as text, JSON and short lines.  A value budget of 256 MB
** makes bombs (setproduct, range, base64gunzip...) end in diagnostics.
** Build and run: see tests/fuzz/README.md.
*/
#include <string.h>
#include <unistd.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const files[][2] = {
    {"a.txt", "hello\n"},
    {"t.tmpl", "%{ for k, v in m }${k}=${v}\n%{ endfor }${x}"},
    {"d.json", "{\"a\": [1, 2, {\"b\": null}]}"},
    {"d.yaml", "a: [1, 2]\nb: &x {c: d}\ne: *x\n"},
};
enum { NFILES = sizeof files / sizeof files[0] };

/* A scratch directory (in $TMPDIR) with files for file(), templatefile(),
** fileset()..., made once per process. */
static const char *fuzz_dir(void) {
  return fuzz_files_dir("fuzzexpr", files, NFILES);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  const char *dir = fuzz_dir();
  tfr_set_memory_budget((size_t)256 << 20);
  tfr_arena *a = tfr_arena_new();
  tfr_diags *diags = tfr_diags_new(a);
  tfr_file *f =
      tfr_parse_expr(a, diags, "<fuzz>", (const char *)data + 1, size - 1);
  if (!f && !tfr_diags_has_errors(diags))
    abort();
  const tfr_value *v = NULL;
  if (f) {
    struct tfr_eval_opts o = TFR_EVAL_OPTS_INIT;
    o.dir = dir;
    o.opentofu = (data[0] & 1) != 0;
    v = tfr_eval_functions_opts(a, diags, f, &o);
  }
  FILE *out = fuzz_sink();
  if (v) {
    fputs(tfr_value_console(a, v), out);
    const char *h = tfr_value_hcl(a, v);
    if (h)
      fputs(h, out);
    if (tfr_value_json_encodable(v))
      tfr_value_write_json(out, a, v);
    tfr_value_write_yaml(out, a, v);
  }
  struct tfr_render_opts ropts = TFR_RENDER_OPTS_INIT;
  ropts.unicode = true;
  tfr_diags_render_text(diags, out, &ropts);
  tfr_diags_render_json(diags, out);
  tfr_diags_render_short(diags, out);
  tfr_arena_free(a);
  return 0;
}
