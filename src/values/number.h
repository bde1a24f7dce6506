/*
** Terraform's numbers: go-cty's *big.Float, reproduced with MPFR.
**
** A number carries its own binary precision, as a big.Float does, because
** cty's results depend on it: a literal or a parsed string has 512 bits,
** an int64 from a function (length(), index keys) has 64, a float64 from
** pow()/log() has 53, and sums, quotients and remainders take the larger
** precision of their operands.  So length("abc") / length("abcdefg")
** prints 0.42857142857142857144 (64 bits) while 3 / 7 and length("abc") / 7
** (a 512-bit literal) print 155 digits.
**
** Numbers are immutable and live in the run arena: the MPFR significand
** sits right behind the struct (MPFR's custom interface), so nothing is
** ever mpfr_clear()ed.  Every function that builds a number also sets the
** MPFR exponent range of the calling thread to big.Float's (int32).
*/
#ifndef TFR_NUMBER_H
#define TFR_NUMBER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mpfr.h>

#include "tfresolve/arena.h"

struct tfr_num;

/* cty.ParseNumberVal's precision: big.ParseFloat(s, 10, 512, ToNearestEven) */
#define NUM_PREC 512

/*
** Parse the n bytes at s as cty.ParseNumberVal does (HCL number literals,
** JSON numbers, string-to-number conversion).  Accepted, as a whole:
**   [+-] digits [. digits] [(e|E|p|P) [+-] digits]
** where either digit run may be empty but not both ("5.", ".5"), a 'p'
** exponent is binary ("1p4" is 16), and "Inf", "inf", "+Inf", "-inf"...
** give infinities.  No spaces, underscores, hex, "NaN" or "infinity".
** Returns NULL when cty would say "a number is required" (also when the
** exponent does not fit an int64 or the binary exponent an int32); huge
** or tiny but valid values become +-Inf or +-0 as in Go.  The value is
** big.Float's, including its double rounding for exponents beyond +-248.
** The result has NUM_PREC bits and lives in a.
*/
const struct tfr_num *num_parse(tfr_arena *a, const char *s, size_t n);

/* cty.NumberIntVal: exact, 64-bit precision. */
const struct tfr_num *num_from_int(tfr_arena *a, int64_t i);
/* cty.NumberFloatVal (results of pow, log, ...): exact, 53-bit precision. */
const struct tfr_num *num_from_double(tfr_arena *a, double d);
/* A copy of x rounded (to nearest even) to NUM_PREC bits.  x not NaN. */
const struct tfr_num *num_from_mpfr(tfr_arena *a, mpfr_srcptr x);
/*
** A copy of x with the given precision (rounded to nearest even); prec 0
** keeps x's own precision.  For values Go builds with another precision,
** e.g. new(big.Float).SetInt(i) has max(64, bit length of i) bits.
*/
const struct tfr_num *num_from_mpfr_prec(tfr_arena *a, mpfr_srcptr x,
                                         mpfr_prec_t prec);

/* The value, read-only: never modify it or change its precision. */
mpfr_srcptr num_mpfr(const struct tfr_num *x);
/* big.Float.Prec() */
mpfr_prec_t num_prec(const struct tfr_num *x);

/*
** cty's text of a number, Go's big.Float.Text('f', -1): the digits Go's
** shortest-decimal search picks for x's precision, never an exponent,
** "-0" for negative zero, "+Inf" / "-Inf".  This is both the JSON form
** and tostring().  The string lives in a.
*/
const char *num_format(tfr_arena *a, const struct tfr_num *x);

/* Numeric order (big.Float.Cmp): -1, 0 or 1; -0 == 0, infinities order. */
int num_cmp(const struct tfr_num *x, const struct tfr_num *y);
/*
** cty's Equals / RawEquals for numbers (rawNumberEqual): equal when both
** print the same num_format() text, -0 counting as 0.  Differs from
** num_cmp() == 0 in practice only when the precisions differ (0.1 parsed
** equals the float64 0.1 from a function, though their values differ).
*/
bool num_equal(const struct tfr_num *x, const struct tfr_num *y);

bool num_is_int(const struct tfr_num *x); /* finite and whole */
/* True and *out set when x is a whole number within int64. */
bool num_to_int64(const struct tfr_num *x, int64_t *out);
bool num_is_inf(const struct tfr_num *x);
bool num_is_zero(const struct tfr_num *x); /* +0 or -0 */
int num_sign(const struct tfr_num *x);     /* -1, 0 (either zero), 1 */

/*
** Arithmetic as cty.Value's Add, Subtract, Multiply, Divide, Modulo and
** Negate do it, with their precision rules:
**   add, sub, div: the larger operand precision, rounded to nearest even;
**   mul: rounded to 512 bits, then as many bits as the larger operand
**        precision or the exact product needs, whichever is more;
**   mod: x - y * trunc(x / y): the quotient at the larger precision, the
**        rest (trunc, product, difference) rounded to x's precision;
**        x % 0 (either sign) is x itself, sign follows x (-7 % 3 = -1);
**   neg: exact.
** 1 / 0 is +Inf (no error: cty 1.12 / hcl 2.14 have no division-by-zero
** check), overflow gives +-Inf, underflow +-0.
** NULL where cty's operator function fails; num_op_error() gives the text.
*/
const struct tfr_num *num_add(tfr_arena *a, const struct tfr_num *x,
                              const struct tfr_num *y);
const struct tfr_num *num_sub(tfr_arena *a, const struct tfr_num *x,
                              const struct tfr_num *y);
const struct tfr_num *num_mul(tfr_arena *a, const struct tfr_num *x,
                              const struct tfr_num *y);
const struct tfr_num *num_div(tfr_arena *a, const struct tfr_num *x,
                              const struct tfr_num *y);
const struct tfr_num *num_mod(tfr_arena *a, const struct tfr_num *x,
                              const struct tfr_num *y);
const struct tfr_num *num_neg(tfr_arena *a, const struct tfr_num *x);

/*
** Why num_<op>(x, y) returned NULL, op being one of '+', '-', '*', '/',
** '%', as cty's stdlib operator functions word it; NULL if it does not
** fail.  HCL reports it as summary "Operation failed", detail
** "Error during operation: <text>." :
**   '+'  +Inf + -Inf           "can't compute sum of opposing infinities"
**   '-'  Inf - Inf (same sign) "can't subtract infinity from itself"
**   '*'  0 * Inf               "can't multiply zero by infinity"
**   '/'  0 / 0, Inf / Inf      "can't divide zero by zero or infinity by
**                               infinity"
**   '%'  x % Inf (x finite), Inf % Inf
**                              "can't use modulo with zero and infinity"
**   '%'  Inf % y (y != 0), or x / y overflows
**        "panic in function implementation: runtime error: invalid memory
**         address or nil pointer dereference" (a Go panic inside cty:
**         Terraform appends "\n<goroutine stack>" before the "."; the
**         oracle prints the detail cut at the newline, without the ".")
*/
const char *num_op_error(int op, const struct tfr_num *x,
                         const struct tfr_num *y);

#endif
