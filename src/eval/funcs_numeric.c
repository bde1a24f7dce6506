/*
** Numeric functions: abs ceil floor log max min parseint pow signum.
**
** Terraform uses cty's stdlib for all of them (internal/lang/
** functions.go; cty/function/stdlib/number.go).  log and pow compute in
** float64 with Go's math.Log and math.Pow, so those are reproduced here
** operation by operation (go_log, go_exp, go_pow): the C library's
** log/exp/pow round differently in the last bit.
*/
#include <float.h>
#include <math.h>
#include <mpfr.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "eval/funcs.h"
#include "values/number.h"
#include "base/strutil.h"
#include "base/heap.h"

/* Every float64 step must round as Go's does: ISO C mode (-std=c11)
** keeps GCC from contracting a * b + c into a fused multiply-add. */

static const tfr_value *number_value(tfr_arena *a, const struct tfr_num *n) {
  tfr_value *v = tfr_arena_alloc(a, sizeof *v);
  v->type = &tfr_t_number;
  v->num = n;
  return v;
}

/* abs(num): the number without its sign, abs(-0) being 0.  Its num takes
** marks but not unknowns (cty/function/stdlib/number.go:15-21 in go-cty
** v1.18.1): a known number's marks stay on the result (Value.Absolute
** keeps them), while cty's Call answers an unknown one with an unknown
** result without them. */
static const tfr_value *fn_abs(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  unsigned marks = f->args[0]->flags & (TFR_V_SENSITIVE | TFR_V_EPHEMERAL);
  const struct tfr_num *n = f->args[0]->num;
  /* big.Float.Abs clears the sign of -0 too (Value.Absolute,
  ** value_ops.go:805 in go-cty v1.18.1) */
  bool neg = num_sign(n) < 0 || mpfr_signbit(num_mpfr(n));
  const tfr_value *r = number_value(f->a, neg ? num_neg(f->a, n) : n);
  return marks ? tfr_value_mark(f->a, r, marks) : r;
}

/* The greatest (sign 1) or smallest (-1) of the arguments, the first of
** equals; at least one (cty's MaxFunc and MinFunc). */
static const tfr_value *extreme(struct fcall *f, int sign) {
  if (!f->nargs) {
    fcall_error(f, "must pass at least one number");
    return NULL;
  }
  const tfr_value *best = f->args[0];
  for (size_t i = 1; i < f->nargs; i++)
    if (num_cmp(f->args[i]->num, best->num) * sign > 0)
      best = f->args[i];
  return best;
}

/* max(numbers...) */
static const tfr_value *fn_max(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  return extreme(f, 1);
}

/* min(numbers...) */
static const tfr_value *fn_min(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  return extreme(f, -1);
}

/*
** ceil(num) and floor(num), as cty does them with big.Float: the integer
** rounded to the argument's own precision (always exact), never -0 (Go's
** big.Int has no negative zero); infinities come back unchanged.
*/
static const tfr_value *round_int(struct fcall *f, bool up) {
  const struct tfr_num *n = f->args[0]->num;
  if (num_is_inf(n))
    return f->args[0];
  mpfr_t r;
  mpfr_init2(r, num_prec(n));
  if (up)
    mpfr_ceil(r, num_mpfr(n));
  else
    mpfr_floor(r, num_mpfr(n));
  if (mpfr_zero_p(r))
    mpfr_set_zero(r, 1);
  const struct tfr_num *res = num_from_mpfr_prec(f->a, r, num_prec(n));
  mpfr_clear(r);
  return number_value(f->a, res);
}

static const tfr_value *fn_ceil(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  return round_int(f, true);
}

static const tfr_value *fn_floor(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  return round_int(f, false);
}

/* ---- Go's float64 math on amd64 ----------------------------------------- */

static uint64_t dbits(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}

static double dfrombits(uint64_t u) {
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

/* Correctly rounded float64 operations that libc only has in libm (which
** we do not link): MPFR at 53 bits gives the IEEE result in our ranges. */
static double d_sqrt(double x) {
  mpfr_t m;
  mpfr_init2(m, 53);
  mpfr_set_d(m, x, MPFR_RNDN);
  mpfr_sqrt(m, m, MPFR_RNDN);
  double r = mpfr_get_d(m, MPFR_RNDN);
  mpfr_clear(m);
  return r;
}

static double d_fma(double x, double y, double z) {
  mpfr_t mx, my, mz;
  mpfr_inits2(53, mx, my, mz, (mpfr_ptr)0);
  mpfr_set_d(mx, x, MPFR_RNDN);
  mpfr_set_d(my, y, MPFR_RNDN);
  mpfr_set_d(mz, z, MPFR_RNDN);
  mpfr_fma(mx, mx, my, mz, MPFR_RNDN);
  double r = mpfr_get_d(mx, MPFR_RNDN);
  mpfr_clears(mx, my, mz, (mpfr_ptr)0);
  return r;
}

/*
** math.Log as Go's log_amd64.s computes it: the FreeBSD algorithm, with
** the exponent taken straight from the bits (subnormals are not
** normalised there) and the reduction test written f1 <= sqrt(2)/2.
*/
static double go_log(double x) {
  uint64_t bx = dbits(x);
  if (!(bx & ~(1ull << 63)))
    return -INFINITY;
  if (bx >> 63)
    return NAN;
  if (bx >= 0x7FF0000000000000ull)
    return x;
  double f1 = dfrombits((bx & 0x000FFFFFFFFFFFFFull) | 0x3FE0000000000000ull);
  double k = (double)((int)((bx >> 52) & 0x7FF) - 0x3FE);
  if (f1 <= 7.07106781186547524401e-01) {
    k -= 1;
    f1 *= 2;
  }
  double fr = f1 - 1;
  double s = fr / (2 + fr);
  double s2 = s * s;
  double s4 = s2 * s2;
  double t1 =
      s2 *
      (6.666666666666735130e-01 +
       s4 * (2.857142874366239149e-01 +
             s4 * (1.818357216161805012e-01 + s4 * 1.479819860511658591e-01)));
  double t2 =
      s4 * (3.999999999940941908e-01 +
            s4 * (2.222219843214978396e-01 + s4 * 1.531383769920937332e-01));
  double hfsq = 0.5 * fr * fr;
  double r = hfsq - (s * (hfsq + (t1 + t2)) + k * 1.90821492927058770002e-10);
  return k * 6.93147180369123816490e-01 - (r - fr);
}

/* Go uses the fused multiply-add path of exp_amd64.s when the CPU has
** AVX and FMA (internal/cpu); the results differ in the last bit. */
static bool go_use_fma(void) {
#if defined(__x86_64__) && defined(__GNUC__)
  /* libgcc reads the CPU model at start-up: no lazy state, thread-safe */
  return __builtin_cpu_supports("avx") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

/* CVTSD2SL: round to nearest even; out of range gives INT32_MIN. */
static int32_t cvtsd2sl(double d) {
  if (!(d > -2147483648.5 && d < 2147483647.5))
    return INT32_MIN;
  double t = (double)(int64_t)d; /* truncated */
  double diff = d - t;
  int64_t i = (int64_t)t;
  if (diff > 0.5 || (diff == 0.5 && (i & 1)))
    i++;
  else if (diff < -0.5 || (diff == -0.5 && (i & 1)))
    i--;
  if (i < INT32_MIN || i > INT32_MAX)
    return INT32_MIN;
  return (int32_t)i;
}

/* The Taylor part of exp_amd64.s on the reduced argument x. */
static double go_exp_series(double x) {
  static const double c[] = {2.4801587301587301587e-5,
                             1.9841269841269841270e-4,
                             1.3888888888888888889e-3,
                             8.3333333333333333333e-3,
                             4.1666666666666666667e-2,
                             1.6666666666666666667e-1,
                             0.5,
                             1.0};
  double t = c[0];
  if (go_use_fma()) {
    for (int i = 1; i < 8; i++)
      t = d_fma(x, t, c[i]);
    x *= t;
    for (int i = 0; i < 3; i++)
      x *= x + 2.0;
    return d_fma(x + 2.0, x, 1.0);
  }
  for (int i = 1; i < 8; i++)
    t = t * x + c[i];
  x *= t;
  for (int i = 0; i < 4; i++)
    x *= x + 2.0;
  return x + 1.0;
}

/* math.Exp as Go's exp_amd64.s computes it (Shibata's method). */
static double go_exp(double x) {
  uint64_t bx = dbits(x);
  if ((bx & ~(1ull << 63)) >= 0x7FF0000000000000ull)
    return bx == 0xFFF0000000000000ull ? 0 : x;
  if (x > 7.09782712893384e+02)
    return INFINITY;
  int32_t e = cvtsd2sl(1.4426950408889634073599246810018920 * x);
  double k = e;
  const double ln2u = 0.69314718055966295651160180568695068359375;
  const double ln2l = 0.28235290563031577122588448175013436025525412068e-12;
  if (go_use_fma()) {
    x = d_fma(-k, ln2u, x);
    x = d_fma(-k, ln2l, x);
  } else {
    x -= k * ln2u;
    x -= k * ln2l;
  }
  double r = go_exp_series(x * 0.0625);
  int64_t b = (int64_t)e + 0x3FF;
  if (b <= 0) {
    if (b < -52)
      return 0;
    r *= dfrombits((uint64_t)(b + 0x3FE) << 52);
    b = 1;
  } else if (b >= 0x7FF) {
    return INFINITY;
  }
  return r * dfrombits((uint64_t)b << 52);
}

/* Go's isOddInt: a whole number whose int64 conversion is odd. */
static bool go_is_odd_int(double x) {
  double xi;
  double xf = modf(x, &xi);
  if (xf != 0 || !(fabs(xi) < 9223372036854775808.0))
    return false;
  return ((int64_t)xi & 1) != 0;
}

static double go_pow(double x, double y);

/* math.Pow's special cases (Go's pow.go); true when *r is the result. */
static bool go_pow_special(double x, double y, double *r) {
  if (y == 0 || x == 1)
    *r = 1;
  else if (y == 1)
    *r = x;
  else if (isnan(x) || isnan(y))
    *r = NAN;
  else if (x == 0 && y < 0)
    *r = go_is_odd_int(y) ? copysign(INFINITY, x) : INFINITY;
  else if (x == 0 && y > 0)
    *r = go_is_odd_int(y) ? x : 0;
  else if (isinf(y))
    *r = x == -1 ? 1 : (fabs(x) < 1) == (y > 0) ? 0 : INFINITY;
  else if (isinf(x) && x < 0)
    *r = go_pow(1 / x, -y); /* Pow(-0, -y) */
  else if (isinf(x))
    *r = y < 0 ? 0 : INFINITY;
  else if (y == 0.5)
    *r = d_sqrt(x);
  else if (y == -0.5)
    *r = 1 / d_sqrt(x);
  else
    return false;
  return true;
}

/* math.Pow as Go computes it (pure Go, also on amd64). */
static double go_pow(double x, double y) {
  double r;
  if (go_pow_special(x, y, &r))
    return r;
  double yi;
  double yf = modf(fabs(y), &yi);
  if (yf != 0 && x < 0)
    return NAN;
  if (yi >= 9223372036854775808.0) {
    if (x == -1)
      return 1;
    return (fabs(x) < 1) == (y > 0) ? 0 : INFINITY;
  }
  double a1 = 1.0;
  long ae = 0;
  if (yf != 0) {
    if (yf > 0.5) {
      yf--;
      yi++;
    }
    a1 = go_exp(yf * go_log(x));
  }
  int xe;
  double x1 = frexp(x, &xe);
  for (int64_t i = (int64_t)yi; i != 0; i >>= 1) {
    if (xe < -(1 << 12) || (1 << 12) < xe) {
      ae += xe;
      break;
    }
    if (i & 1) {
      a1 *= x1;
      ae += xe;
    }
    x1 *= x1;
    xe *= 2; /* xe may be negative: no shift */
    if (x1 < .5) {
      x1 += x1;
      xe--;
    }
  }
  if (y < 0) {
    a1 = 1 / a1;
    ae = -ae;
  }
  /* Go's ldexp takes an int; C's too, so keep ae in range (anything
  ** beyond +-100000 overflows or underflows the same). */
  if (ae > 100000)
    ae = 100000;
  else if (ae < -100000)
    ae = -100000;
  return ldexp(a1, (int)ae);
}

/*
** gocty.FromCtyValue into a float64: rounded to nearest, but a finite
** number too large for float64 is an error (Go's message, with %f).
*/
static bool to_double(struct fcall *f, const struct tfr_num *n, double *out) {
  if (num_is_inf(n)) {
    *out = num_sign(n) < 0 ? -INFINITY : INFINITY;
    return true;
  }
  *out = mpfr_get_d(num_mpfr(n), MPFR_RNDN);
  if (!isinf(*out))
    return true;
  fcall_error(f, "value must be between %f and %f inclusive", -DBL_MAX,
              DBL_MAX);
  return false;
}

/*
** A float64 result as a number.  log and pow are Terraform's own
** (internal/lang/funcs/number.go:41, 75), which check for NaN before
** cty.NumberFloatVal would panic on it: "result is not a number".
*/
static const tfr_value *float_result(struct fcall *f, double d) {
  if (isnan(d)) {
    fcall_error(f, "result is not a number");
    return NULL;
  }
  return number_value(f->a, num_from_double(f->a, d));
}

/* log(num, base): ln(num) / ln(base) in float64. */
static const tfr_value *fn_log(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  double num, base;
  if (!to_double(f, f->args[0]->num, &num) ||
      !to_double(f, f->args[1]->num, &base))
    return NULL;
  return float_result(f, go_log(num) / go_log(base));
}

/* pow(num, power): num ** power in float64. */
static const tfr_value *fn_pow(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  double num, power;
  if (!to_double(f, f->args[0]->num, &num) ||
      !to_double(f, f->args[1]->num, &power))
    return NULL;
  return float_result(f, go_pow(num, power));
}

#define INT_RANGE_MSG                                                          \
  "value must be a whole number, between -9223372036854775808 and "            \
  "9223372036854775807"

/* signum(num): -1, 0 or 1; the number must be a whole int64. */
static const tfr_value *fn_signum(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  int64_t i;
  if (!num_to_int64(f->args[0]->num, &i)) {
    fcall_error(f, INT_RANGE_MSG);
    return NULL;
  }
  return number_value(f->a, num_from_int(f->a, i < 0 ? -1 : i > 0));
}

/* ---- parseint ------------------------------------------------------------ */

/* parseint's "number" must be a string (it is of type any). */
static const tfr_type *parseint_type(struct fcall *f) {
  const tfr_type *t = f->args[0]->type;
  if (t->kind == TFR_DYNAMIC)
    return &tfr_t_dynamic; /* cty: not AllowDynamicType, unknown result */
  if (t->kind != TFR_STRING) {
    fcall_arg_error(f, 0, "first argument must be a string, not %s",
                    tfr_type_friendly(f->a, t));
    return NULL;
  }
  return &tfr_t_number;
}

/* The value of a digit in Go's big.Int.SetString, or 99 when invalid. */
static int go_digit(char ch, int base) {
  if (ch >= '0' && ch <= '9')
    return ch - '0';
  if (ch >= 'a' && ch <= 'z')
    return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'Z')
    return base <= 36 ? ch - 'A' + 10 : ch - 'A' + 36;
  return 99;
}

/* MPFR's character for a digit value (upper case before lower case). */
static char mpfr_digit(int d) {
  if (d < 10)
    return (char)('0' + d);
  return d < 36 ? (char)('A' + d - 10) : (char)('a' + d - 36);
}

/*
** big.Int.SetString(s, base) as a number: an optional sign and at least
** one digit, nothing else.  NULL when s is not such an integer.  The
** number has big.Float.SetInt's precision: max(64, bit length).
*/
static const struct tfr_num *parse_int(tfr_arena *a, const char *s, size_t n,
                                       int base) {
  bool neg = n && s[0] == '-';
  size_t i = n && (s[0] == '-' || s[0] == '+');
  if (i == n)
    return NULL;
  char *digits = heap_alloc(n - i + 1);
  size_t k = 0;
  for (; i < n; i++) {
    int d = go_digit(s[i], base);
    if (d >= base) {
      free(digits);
      return NULL;
    }
    digits[k++] = mpfr_digit(d);
  }
  digits[k] = '\0';
  mpfr_t r;
  mpfr_init2(r, (mpfr_prec_t)(k * 6 + 8));
  mpfr_set_str(r, digits, base, MPFR_RNDN);
  free(digits);
  mpfr_prec_t prec = 64;
  if (!mpfr_zero_p(r) && mpfr_get_exp(r) > 64)
    prec = mpfr_get_exp(r);
  if (neg && !mpfr_zero_p(r))
    mpfr_neg(r, r, MPFR_RNDN);
  const struct tfr_num *res = num_from_mpfr_prec(a, r, prec);
  mpfr_clear(r);
  return res;
}

/* parseint(number, base): the integer written in base 2..62. */
static const tfr_value *fn_parseint(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *str = f->args[0], *base = f->args[1];
  int64_t b;
  if (!num_to_int64(base->num, &b)) {
    fcall_arg_error(f, 1, INT_RANGE_MSG);
    return NULL;
  }
  if (b < 2 || b > 62) {
    fcall_arg_error(f, 1,
                    "base must be a whole number between 2 and 62 inclusive");
    return NULL;
  }
  const struct tfr_num *n = parse_int(f->a, str->s, str->n, (int)b);
  if (!n) {
    fcall_arg_error(f, 0, "cannot parse %s as a base %d integer",
                    str_go_quote(f->a, str->s, str->n), (int)b);
    return NULL;
  }
  return number_value(f->a, n);
}

/* ---- the table ----------------------------------------------------------- */

static const struct func_param num_variadic = {"numbers", &tfr_t_number,
                                               FP_ALLOW_DYNAMIC};

static const struct func_spec specs[] = {
    {"abs",
     1,
     {{"num", &tfr_t_number, FP_ALLOW_DYNAMIC | FP_ALLOW_MARKED}},
     NULL,
     &tfr_t_number,
     NULL,
     fn_abs},
    {"ceil", 1, {NUM("num")}, NULL, &tfr_t_number, NULL, fn_ceil},
    {"floor", 1, {NUM("num")}, NULL, &tfr_t_number, NULL, fn_floor},
    {"log", 2, {NUM("num"), NUM("base")}, NULL, &tfr_t_number, NULL, fn_log},
    {"max", 0, {{0}}, &num_variadic, &tfr_t_number, NULL, fn_max},
    {"min", 0, {{0}}, &num_variadic, &tfr_t_number, NULL, fn_min},
    {"parseint",
     2,
     {{"number", NULL, 0}, NUM("base")},
     NULL,
     &tfr_t_number,
     parseint_type,
     fn_parseint},
    {"pow", 2, {NUM("num"), NUM("power")}, NULL, &tfr_t_number, NULL, fn_pow},
    {"signum", 1, {NUM("num")}, NULL, &tfr_t_number, NULL, fn_signum},
};

const struct func_group funcs_numeric = {specs, sizeof specs / sizeof *specs};
