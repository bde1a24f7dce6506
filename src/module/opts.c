/*
** Reading the options a program passes (opts.h).
*/
#include "module/opts.h"

#include "base/arena_int.h"
#include "base/diag_int.h"
#include "base/strutil.h"

bool opts_bad(tfr_arena *a, tfr_diags *diags, const char *what, size_t size,
              size_t min, const char *init) {
  tfr_diags_add(diags, TFR_DIAG_ERROR, NULL, "Invalid options",
                tfr_arena_printf(a,
                                 "The options passed to libtfresolve give %zu "
                                 "as the size of a %s (at least %zu); set "
                                 "them with %s, which gives the sizes the "
                                 "program was compiled with.",
                                 size, what, min, init));
  tfr_diags_set_code(diags, TFR_CODE_BAD_OPTIONS);
  tfr_diags_set_ours(diags);
  return false;
}

bool opts_read(tfr_arena *a, tfr_diags *diags, void *out, size_t have,
               const void *in, size_t size, size_t min, const char *what,
               const char *init) {
  if (in && mem_read_sized(out, have, in, size, min))
    return true;
  return opts_bad(a, diags, what, in ? size : 0, min, init);
}

bool opts_read_args(tfr_arena *a, tfr_diags *diags,
                    const struct tfr_cli_arg **args, size_t n, size_t *stride,
                    const char *init) {
  /* the first sized layout: it never changes, later fields come after */
  static const size_t v1 = STRUCT_END(struct tfr_cli_arg, content_len);
  if (!n || *stride == sizeof **args)
    return true;
  if (*stride < v1)
    return opts_bad(a, diags, "struct tfr_cli_arg (arg_size)", *stride, v1,
                    init);
  struct tfr_cli_arg *copy = tfr_arena_alloc(a, n * sizeof *copy);
  const char *from = (const char *)*args;
  for (size_t i = 0; i < n; i++)
    mem_read_sized(&copy[i], sizeof *copy, from + i * *stride, *stride, v1);
  *args = copy;
  *stride = sizeof *copy;
  return true;
}
