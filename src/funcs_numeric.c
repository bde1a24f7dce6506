/*
** Numeric functions: abs ceil floor log max min parseint pow signum.
*/
#include <mpfr.h>

#include "funcs.h"
#include "number.h"

static const tfr_value *number_value(tfr_arena *a, const struct tfr_num *n) {
  tfr_value *v = tfr_arena_alloc(a, sizeof *v);
  v->type = &tfr_t_number;
  v->num = n;
  return v;
}

/* abs(num): the number without its sign. */
static const tfr_value *fn_abs(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const struct tfr_num *n = f->args[0]->num;
  return number_value(f->a, num_sign(n) < 0 ? num_neg(f->a, n) : n);
}

/* max(numbers...): the greatest; at least one argument. */
static const tfr_value *fn_max(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  if (!f->nargs) {
    fcall_error(f, "must pass at least one number");
    return NULL;
  }
  const tfr_value *best = f->args[0];
  for (size_t i = 1; i < f->nargs; i++)
    if (num_cmp(f->args[i]->num, best->num) > 0)
      best = f->args[i];
  return best;
}

static const struct func_param num_variadic = {"numbers", &tfr_t_number,
                                               FP_ALLOW_DYNAMIC};

static const struct func_spec specs[] = {
    {"abs", 1, {{"num", &tfr_t_number, FP_ALLOW_DYNAMIC}}, NULL,
     &tfr_t_number, NULL, fn_abs},
    {"max", 0, {{0}}, &num_variadic, &tfr_t_number, NULL, fn_max},
};

const struct func_group funcs_numeric = {specs, sizeof specs / sizeof *specs};
