/*
** Terraform's numbers: go-cty's *big.Float semantics on top of MPFR.
**
** Every MPFR operation rounds correctly to nearest-even, as every
** big.Float operation does, so doing the same operations in the same order
** at the same precisions gives bit-identical values.  What needs care is
** where Go is not "one correctly rounded operation": big.ParseFloat's
** power-of-five table (double rounding past 5^248), the precision each cty
** operation picks, and big.Float.Text('f', -1)'s shortest-digit search,
** which this file reproduces step by step (math/big/ftoa.go,
** roundShortest) with fast paths that give the same digits.
*/
#include "base/arena_int.h"
#include "values/number.h"
#include "base/heap.h"

#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(ULONG_MAX >= 0xFFFFFFFFFFFFFFFFULL,
               "64-bit unsigned long: 5^27 is passed to mpfr_mul_ui");

struct tfr_num {
  mpfr_t m;          /* significand in limbs[] */
  mp_limb_t limbs[]; /* mpfr_custom_get_size(precision) bytes */
};

/* ---- allocation and scratch numbers ----------------------------------- */

/*
** big.Float's exponent range is int32 (MinExp, MaxExp), about twice MPFR's
** default, and it overflows to Inf and underflows to 0 there.  The range
** is per thread in MPFR, so every entry point that computes sets it (and
** clears the underflow flag for go_underflow).
*/
static void go_range(void) {
  if (mpfr_get_emax() != INT32_MAX || mpfr_get_emin() != INT32_MIN) {
    mpfr_set_emax(INT32_MAX);
    mpfr_set_emin(INT32_MIN);
  }
  mpfr_clear_underflow();
}

/*
** After each operation: Go's setExpAndRound turns an exponent below
** MinExp into a signed zero, where MPFR may round up to its smallest
** number.  Clears the flag for the next operation.
*/
static void go_underflow(mpfr_ptr r) {
  if (mpfr_underflow_p() && !mpfr_zero_p(r))
    mpfr_set_zero(r, mpfr_signbit(r) ? -1 : 1);
  mpfr_clear_underflow();
}

/* A number of the given precision in the arena, initially +0. */
static struct tfr_num *num_alloc(tfr_arena *a, mpfr_prec_t prec) {
  size_t size = mpfr_custom_get_size(prec);
  struct tfr_num *r = tfr_arena_alloc_raw(a, sizeof *r + size);
  mpfr_custom_init(r->limbs, prec);
  mpfr_custom_init_set(r->m, MPFR_ZERO_KIND, 0, prec, r->limbs);
  return r;
}

/*
** A temporary MPFR number: on the stack up to 1088 bits (the parser's
** 640-bit power of five, a 512-bit product), else on the heap.
*/
#define TMP_LIMBS (1088 / GMP_NUMB_BITS)
struct tmp {
  mpfr_t m;
  bool heap;
  mp_limb_t limbs[TMP_LIMBS];
};

static void tmp_init(struct tmp *t, mpfr_prec_t prec) {
  t->heap = mpfr_custom_get_size(prec) > sizeof t->limbs;
  if (t->heap) {
    mpfr_init2(t->m, prec);
    return;
  }
  mpfr_custom_init(t->limbs, prec);
  mpfr_custom_init_set(t->m, MPFR_ZERO_KIND, 0, prec, t->limbs);
}

static void tmp_done(struct tmp *t) {
  if (t->heap)
    mpfr_clear(t->m);
}

static mpfr_prec_t max_prec(mpfr_srcptr x, mpfr_srcptr y) {
  mpfr_prec_t px = mpfr_get_prec(x), py = mpfr_get_prec(y);
  return px > py ? px : py;
}

/* ---- construction ----------------------------------------------------- */

const struct tfr_num *num_from_mpfr_prec(tfr_arena *a, mpfr_srcptr x,
                                         mpfr_prec_t prec) {
  assert(!mpfr_nan_p(x));
  go_range();
  struct tfr_num *r = num_alloc(a, prec ? prec : mpfr_get_prec(x));
  mpfr_set(r->m, x, MPFR_RNDN);
  go_underflow(r->m);
  return r;
}

const struct tfr_num *num_from_mpfr(tfr_arena *a, mpfr_srcptr x) {
  return num_from_mpfr_prec(a, x, NUM_PREC);
}

const struct tfr_num *num_from_int(tfr_arena *a, int64_t i) {
  go_range();
  struct tfr_num *r = num_alloc(a, 64);
  mpfr_set_sj(r->m, (intmax_t)i, MPFR_RNDN);
  return r;
}

const struct tfr_num *num_from_double(tfr_arena *a, double d) {
  assert(d == d);
  go_range();
  struct tfr_num *r = num_alloc(a, 53);
  mpfr_set_d(r->m, d, MPFR_RNDN);
  return r;
}

/* ---- parsing: big.ParseFloat(s, 10, 512, ToNearestEven) --------------- */

/* The pieces of "[+-]digits[.digits][(e|p)[+-]digits]". */
struct numlit {
  bool neg;
  const char *mant; /* the digits and the '.', as written */
  size_t mlen;
  size_t ndigits; /* digits in mant */
  int64_t fcount; /* minus the digits after '.' */
  int64_t exp;    /* the exponent's value */
  bool binexp;    /* 'p': a power of two */
};

/*
** The exponent as strconv.ParseInt(digits, 10, 64) reads it: false when
** there are no digits or the value does not fit an int64.
*/
static bool scan_exponent(const char *s, size_t n, size_t *i, int64_t *out) {
  bool neg = false;
  if (*i < n && (s[*i] == '+' || s[*i] == '-')) {
    neg = s[*i] == '-';
    (*i)++;
  }
  uint64_t v = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  size_t start = *i;
  for (; *i < n && s[*i] >= '0' && s[*i] <= '9'; (*i)++) {
    unsigned dig = (unsigned)(s[*i] - '0');
    if (v > (lim - dig) / 10)
      return false;
    v = v * 10 + dig;
  }
  if (*i == start)
    return false;
  *out = neg ? (int64_t)(0 - v) : (int64_t)v;
  return true;
}

/* Split s into a numlit as big.Float.scan does; false if malformed. */
static bool scan_literal(const char *s, size_t n, struct numlit *l) {
  size_t i = 0;
  memset(l, 0, sizeof *l);
  if (i < n && (s[i] == '+' || s[i] == '-'))
    l->neg = s[i++] == '-';
  l->mant = s + i;
  bool dot = false;
  for (; i < n; i++) {
    if (s[i] >= '0' && s[i] <= '9') {
      l->ndigits++;
      l->fcount -= dot;
    } else if (s[i] == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  l->mlen = (size_t)(s + i - l->mant);
  if (l->ndigits == 0)
    return false;
  if (i < n && s[i] && strchr("eEpP", s[i])) {
    l->binexp = s[i] == 'p' || s[i] == 'P';
    i++;
    if (!scan_exponent(s, n, &i, &l->exp))
      return false;
  }
  return i == n;
}

/* The mantissa digits as an integer, when there are more than 19. */
static void literal_digits(const struct numlit *l, mpz_t z) {
  char small[128];
  char *buf = l->ndigits < sizeof small ? small : heap_alloc(l->ndigits + 1);
  size_t k = 0;
  for (size_t i = 0; i < l->mlen; i++)
    if (l->mant[i] != '.')
      buf[k++] = l->mant[i];
  buf[k] = '\0';
  mpz_set_str(z, buf, 10);
  if (buf != small)
    free(buf);
}

/*
** The mantissa digits, exactly, into m (initialised here; the caller
** calls tmp_done); returns their bit length, 0 when they are all zeros.
*/
static int64_t literal_mantissa(const struct numlit *l, struct tmp *m) {
  uint64_t v = 0;
  int nd = 0; /* significant digits */
  for (size_t i = 0; i < l->mlen && nd <= 19; i++) {
    char c = l->mant[i];
    if (c != '.' && (nd || c != '0')) {
      v = v * 10 + (uint64_t)(c - '0');
      nd++;
    }
  }
  if (nd <= 19) {
    int64_t bits = 0;
    for (uint64_t w = v; w; w >>= 1)
      bits++;
    tmp_init(m, 64);
    mpfr_set_uj(m->m, v, MPFR_RNDN);
    return bits;
  }
  mpz_t z;
  mpz_init(z);
  literal_digits(l, z);
  int64_t bits = (int64_t)mpz_sizeinbase(z, 2);
  tmp_init(m, (mpfr_prec_t)bits);
  mpfr_set_z(m->m, z, MPFR_RNDN);
  mpz_clear(z);
  return bits;
}

/*
** big.Float.pow5: 5^n at 576 bits (the parse precision + 64), computed
** by squaring with 640-bit factors when n > 27, so rounded for n > 248.
*/
static void go_pow5(mpfr_ptr z, uint64_t n) {
  static const uint64_t pow5_27 = 7450580596923828125ULL;
  if (n <= 248) { /* exact in 576 bits, whichever way it is computed */
    mpfr_set_ui(z, 1, MPFR_RNDN);
    for (; n >= 27; n -= 27)
      mpfr_mul_ui(z, z, (unsigned long)pow5_27, MPFR_RNDN);
    unsigned long p = 1;
    while (n--)
      p *= 5;
    mpfr_mul_ui(z, z, p, MPFR_RNDN);
    return;
  }
  mpfr_set_uj(z, pow5_27, MPFR_RNDN);
  n -= 27;
  struct tmp f;
  tmp_init(&f, mpfr_get_prec(z) + 64);
  mpfr_set_ui(f.m, 5, MPFR_RNDN);
  while (n > 0) {
    if (n & 1)
      mpfr_mul(z, z, f.m, MPFR_RNDN);
    mpfr_mul(f.m, f.m, f.m, MPFR_RNDN);
    n >>= 1;
  }
  tmp_done(&f);
}

/*
** r = mant * 2^exp2 * 5^exp5 as big.Float.scan computes it: the exact
** mantissa, then one multiplication or division by go_pow5(|exp5|).
*/
static void scale_pow5(mpfr_ptr r, mpfr_srcptr mant, int64_t exp5) {
  uint64_t k = exp5 < 0 ? (uint64_t)0 - (uint64_t)exp5 : (uint64_t)exp5;
  if (exp5 == 0) {
    mpfr_set(r, mant, MPFR_RNDN);
  } else if (k <= 27) {
    uint64_t p = 1;
    while (k--)
      p *= 5;
    if (exp5 < 0)
      mpfr_div_ui(r, mant, (unsigned long)p, MPFR_RNDN);
    else
      mpfr_mul_ui(r, mant, (unsigned long)p, MPFR_RNDN);
  } else {
    struct tmp p;
    tmp_init(&p, NUM_PREC + 64);
    go_pow5(p.m, k);
    if (exp5 < 0)
      mpfr_div(r, mant, p.m, MPFR_RNDN);
    else
      mpfr_mul(r, mant, p.m, MPFR_RNDN);
    tmp_done(&p);
  }
}

/* The value of a well-formed literal; false on Go's "exponent overflow". */
static bool literal_value(const struct numlit *l, mpfr_ptr r) {
  struct tmp mant;
  int64_t bits = literal_mantissa(l, &mant);
  /* Literals are far shorter than 2^40 digits, so no int64 overflow. */
  const int64_t big = (int64_t)1 << 40;
  int64_t exp2 = bits + l->fcount + l->exp; /* Go's normalized exponent */
  bool ok = true;
  if (bits == 0) {
    mpfr_set_zero(r, 1); /* Go checks no exponent range for zero */
  } else if (l->exp > big || l->exp < -big || exp2 < INT32_MIN ||
             exp2 > INT32_MAX) {
    ok = false;
  } else { /* exact: the exponent becomes exp2 */
    mpfr_mul_2si(mant.m, mant.m, (long)(l->fcount + l->exp), MPFR_RNDN);
    scale_pow5(r, mant.m, l->binexp ? l->fcount : l->fcount + l->exp);
  }
  tmp_done(&mant);
  if (l->neg)
    mpfr_neg(r, r, MPFR_RNDN);
  return ok;
}

/* Go's Float.Parse special case: exactly [+-](Inf|inf). */
static int literal_inf(const char *s, size_t n) {
  int sign = 1;
  if (n == 4 && (s[0] == '+' || s[0] == '-')) {
    sign = s[0] == '-' ? -1 : 1;
    s++;
    n--;
  }
  if (n == 3 && (memcmp(s, "Inf", 3) == 0 || memcmp(s, "inf", 3) == 0))
    return sign;
  return 0;
}

const struct tfr_num *num_parse(tfr_arena *a, const char *s, size_t n) {
  go_range();
  int inf = literal_inf(s, n);
  if (inf) {
    struct tfr_num *r = num_alloc(a, NUM_PREC);
    mpfr_set_inf(r->m, inf);
    return r;
  }
  /* digits only, fewer than fit an unsigned long: an exact integer */
  if (n && n <= (sizeof(unsigned long) >= 8 ? 19u : 9u)) {
    unsigned long u = 0;
    size_t i = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9')
      u = u * 10 + (unsigned long)(s[i++] - '0');
    if (i == n) {
      struct tfr_num *r = num_alloc(a, NUM_PREC);
      mpfr_set_ui(r->m, u, MPFR_RNDN);
      return r;
    }
  }
  struct numlit l;
  if (!scan_literal(s, n, &l))
    return NULL;
  struct tfr_num *r = num_alloc(a, NUM_PREC);
  if (!literal_value(&l, r->m))
    return NULL; /* r is left unused in the arena */
  go_underflow(r->m);
  return r;
}

/* ---- accessors and comparisons ---------------------------------------- */

mpfr_srcptr num_mpfr(const struct tfr_num *x) { return x->m; }

mpfr_prec_t num_prec(const struct tfr_num *x) { return mpfr_get_prec(x->m); }

int num_cmp(const struct tfr_num *x, const struct tfr_num *y) {
  int c = mpfr_cmp(x->m, y->m);
  return (c > 0) - (c < 0);
}

bool num_is_int(const struct tfr_num *x) { return mpfr_integer_p(x->m); }

bool num_is_inf(const struct tfr_num *x) { return mpfr_inf_p(x->m); }

bool num_is_zero(const struct tfr_num *x) { return mpfr_zero_p(x->m); }

int num_sign(const struct tfr_num *x) { return mpfr_sgn(x->m); }

bool num_to_int64(const struct tfr_num *x, int64_t *out) {
  if (!mpfr_integer_p(x->m) || !mpfr_fits_intmax_p(x->m, MPFR_RNDN))
    return false;
  intmax_t v = mpfr_get_sj(x->m, MPFR_RNDN);
  if (v < INT64_MIN || v > INT64_MAX)
    return false;
  *out = (int64_t)v;
  return true;
}

/* ---- arithmetic -------------------------------------------------------- */

const char *num_op_error(int op, const struct tfr_num *x,
                         const struct tfr_num *y) {
  static const char nil_panic[] =
      "panic in function implementation: runtime error: invalid memory "
      "address or nil pointer dereference";
  go_range();
  bool xi = mpfr_inf_p(x->m), yi = mpfr_inf_p(y->m);
  bool xz = mpfr_zero_p(x->m), yz = mpfr_zero_p(y->m);
  bool same = mpfr_signbit(x->m) == mpfr_signbit(y->m);
  switch (op) {
  case '+':
    return xi && yi && !same ? "can't compute sum of opposing infinities"
                             : NULL;
  case '-':
    return xi && yi && same ? "can't subtract infinity from itself" : NULL;
  case '*':
    return (xz && yi) || (xi && yz) ? "can't multiply zero by infinity" : NULL;
  case '/':
    return (xz && yz) || (xi && yi)
               ? "can't divide zero by zero or infinity by infinity"
               : NULL;
  case '%':
    break;
  default:
    return NULL;
  }
  if (yz)
    return NULL; /* x % 0 is x */
  if (yi)
    return "can't use modulo with zero and infinity";
  if (xi)
    return nil_panic; /* trunc(Inf) is a nil *big.Int in Go */
  struct tmp q;
  tmp_init(&q, max_prec(x->m, y->m));
  mpfr_div(q.m, x->m, y->m, MPFR_RNDN);
  bool overflow = mpfr_inf_p(q.m);
  tmp_done(&q);
  return overflow ? nil_panic : NULL;
}

/* x op y (fn, at the larger precision, rounded to nearest) as cty's
** Add, Subtract and Divide; NULL for num_op_error's cases. */
static const struct tfr_num *
rounded_op(tfr_arena *a, char op,
           int (*fn)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t),
           const struct tfr_num *x, const struct tfr_num *y) {
  if (num_op_error(op, x, y))
    return NULL;
  go_range();
  struct tfr_num *r = num_alloc(a, max_prec(x->m, y->m));
  fn(r->m, x->m, y->m, MPFR_RNDN);
  go_underflow(r->m);
  return r;
}

const struct tfr_num *num_add(tfr_arena *a, const struct tfr_num *x,
                              const struct tfr_num *y) {
  return rounded_op(a, '+', mpfr_add, x, y);
}

/* cty: x.Add(y.Negate()), the same rounding as one subtraction. */
const struct tfr_num *num_sub(tfr_arena *a, const struct tfr_num *x,
                              const struct tfr_num *y) {
  return rounded_op(a, '-', mpfr_sub, x, y);
}

/*
** cty's Multiply: the product rounded to 512 bits, then kept with the
** larger operand precision or the product's MinPrec, whichever is larger
** (so the second rounding is exact).
*/
const struct tfr_num *num_mul(tfr_arena *a, const struct tfr_num *x,
                              const struct tfr_num *y) {
  if (num_op_error('*', x, y))
    return NULL;
  go_range();
  struct tmp p;
  tmp_init(&p, 512);
  mpfr_mul(p.m, x->m, y->m, MPFR_RNDN);
  go_underflow(p.m);
  mpfr_prec_t prec = max_prec(x->m, y->m), min = mpfr_min_prec(p.m);
  struct tfr_num *r = num_alloc(a, prec > min ? prec : min);
  mpfr_set(r->m, p.m, MPFR_RNDN);
  tmp_done(&p);
  return r;
}

const struct tfr_num *num_div(tfr_arena *a, const struct tfr_num *x,
                              const struct tfr_num *y) {
  return rounded_op(a, '/', mpfr_div, x, y);
}

/*
** cty's Modulo: x - y * trunc(x / y), the quotient at the larger
** precision, then the integer, the product and the difference each
** rounded to x's precision (work := new(big.Float).Copy(v).SetInt(...)).
*/
const struct tfr_num *num_mod(tfr_arena *a, const struct tfr_num *x,
                              const struct tfr_num *y) {
  if (mpfr_zero_p(y->m))
    return x;
  if (num_op_error('%', x, y))
    return NULL;
  go_range();
  struct tmp q;
  tmp_init(&q, max_prec(x->m, y->m));
  mpfr_div(q.m, x->m, y->m, MPFR_RNDN);
  go_underflow(q.m);
  mpfr_trunc(q.m, q.m); /* exact: big.Float.Int */
  if (mpfr_zero_p(q.m))
    mpfr_set_zero(q.m, 1); /* a big.Int has no -0 */
  struct tfr_num *r = num_alloc(a, mpfr_get_prec(x->m));
  mpfr_set(r->m, q.m, MPFR_RNDN);
  tmp_done(&q);
  mpfr_mul(r->m, y->m, r->m, MPFR_RNDN);
  go_underflow(r->m);
  mpfr_sub(r->m, x->m, r->m, MPFR_RNDN);
  go_underflow(r->m);
  return r;
}

const struct tfr_num *num_neg(tfr_arena *a, const struct tfr_num *x) {
  go_range();
  struct tfr_num *r = num_alloc(a, mpfr_get_prec(x->m));
  mpfr_neg(r->m, x->m, MPFR_RNDN);
  return r;
}

/* ---- formatting: big.Float.Text('f', -1) ------------------------------- */

/*
** A decimal as math/big's: the value is 0.d[0]d[1]... * 10^exp, without
** trailing zeros.  Ours may be a prefix: when more is set, the exact
** expansion has further (not all zero) digits after d[0..n).
*/
struct dec {
  char *d;
  long n;
  long exp;
  bool more;
};

/* floor(e * log10(2)) for |e| < 2^40, possibly one too small. */
/* floor(e * log10(2)) for every exponent a number can have (|e| < 2^31):
** 1292913986 / 2^32 is log10(2) to within 1.5e-11, so the product is off
** by less than 0.04 there.  (Go's 78913 / 2^18 is good for float64's
** exponents only: at 2^-33,000,000 it is 26 digits off.) */
static long log10_pow2(long e) {
  long long v = (long long)e * 1292913986LL;
  return v >= 0 ? (long)(v >> 32) : -(long)((-v + (1LL << 32) - 1) >> 32);
}

static void dec_trim(struct dec *x) {
  while (x->n > 0 && x->d[x->n - 1] == '0')
    x->n--;
  if (x->n == 0)
    x->exp = 0;
}

/* Digit i of a decimal (math/big decimal.at); false if beyond our prefix. */
static bool dec_at(const struct dec *x, long i, char *c) {
  if (i >= 0 && i < x->n) {
    *c = x->d[i];
    return true;
  }
  *c = '0';
  return !(i >= x->n && x->more);
}

/* len(x.mant) == k and len(x.mant) > k */
static bool dec_len_is(const struct dec *x, long k) {
  return !x->more && x->n == k;
}
static bool dec_len_over(const struct dec *x, long k) {
  return x->more || x->n > k;
}

/* decimal.roundUp(n) and roundDown(n), for 0 < n <= x->n. */
static void dec_round_up(struct dec *x, long n) {
  if (!dec_len_over(x, n))
    return;
  while (n > 0 && x->d[n - 1] >= '9')
    n--;
  if (n == 0) {
    x->d[0] = '1';
    x->n = 1;
    x->exp++;
  } else {
    x->d[n - 1]++;
    x->n = n;
  }
  x->more = false;
}

static void dec_round_down(struct dec *x, long n) {
  if (!dec_len_over(x, n))
    return;
  x->n = n;
  x->more = false;
  dec_trim(x);
}

/* decimal.round(n): to nearest, ties (an exact trailing 5) to even. */
static bool dec_round(struct dec *x, long n) {
  if (!dec_len_over(x, n))
    return true;
  if (n >= x->n)
    return false; /* digit n is beyond our prefix */
  bool up = x->d[n] >= '5';
  if (x->d[n] == '5' && dec_len_is(x, n + 1))
    up = n > 0 && ((x->d[n - 1] - '0') & 1);
  if (up)
    dec_round_up(x, n);
  else
    dec_round_down(x, n);
  return true;
}

/*
** math/big roundShortest: walk the digits of x until they differ from
** those of the bounds x -/+ half an ulp, then round there.  Note that Go
** compares digit strings position by position even when the bounds have
** another decimal exponent, and that its interval is symmetric even at a
** power of two; we copy both.  Returns false when our digit prefixes
** were too short to decide (the caller retries with more).
*/
static bool round_shortest(struct dec *d, const struct dec *lo,
                           const struct dec *up, bool inclusive) {
  /* Skip the common prefix, where neither test can pass: okdown needs
     lower to differ or to end, okup needs upper to differ. */
  long i = 0, lim = d->n < lo->n ? d->n : lo->n;
  lim = lim < up->n ? lim : up->n;
  if (!lo->more && lim > lo->n - 1)
    lim = lo->n - 1;
  while (i < lim && d->d[i] == lo->d[i] && d->d[i] == up->d[i])
    i++;
  for (;; i++) {
    char m, l, u;
    if (i >= d->n)
      return !d->more; /* Go's loop ran out: d stays exact */
    m = d->d[i];
    if (!dec_at(lo, i, &l) || !dec_at(up, i, &u))
      return false;
    bool okdown = l != m || (inclusive && dec_len_is(lo, i + 1));
    bool okup = m != u && (inclusive || m + 1 < u || dec_len_over(up, i + 1));
    if (okdown && okup)
      return dec_round(d, i + 1);
    if (okdown) {
      dec_round_down(d, i + 1);
      return true;
    }
    if (okup) {
      dec_round_up(d, i + 1);
      return true;
    }
  }
}

/* d holds n digits of q (|value| = q * 10^-t), more beyond if inexact. */
static void dec_set(struct dec *d, long n, long t, bool inexact) {
  d->n = n;
  d->exp = n - t;
  d->more = inexact;
  if (!inexact)
    dec_trim(d);
}

/* d = the digits of q, without trailing zeros; |x| = q * 10^-t. */
static void dec_from_u64(struct dec *d, uint64_t q, long t) {
  char tmp[24];
  int n = 0;
  do {
    tmp[n++] = (char)('0' + q % 10);
    q /= 10;
  } while (q);
  for (int i = 0; i < n; i++)
    d->d[i] = tmp[n - 1 - i];
  d->n = n;
  d->exp = n - t;
  d->more = false;
  dec_trim(d);
}

/*
** dst = the n digits at s minus v, v being far smaller; returns the
** length (a leading zero dropped).
*/
static long digits_sub(char *dst, const char *s, long n, unsigned long v) {
  memcpy(dst, s, (size_t)n);
  int borrow = 0;
  for (long i = n - 1; i >= 0 && (v || borrow); i--) {
    int dig = dst[i] - '0' - (int)(v % 10) - borrow;
    v /= 10;
    borrow = dig < 0;
    dst[i] = (char)('0' + dig + 10 * borrow);
  }
  long z = 0;
  while (z < n - 1 && dst[z] == '0')
    z++;
  memmove(dst, dst + z, (size_t)(n - z));
  return n - z;
}

/* dst = the n digits at s plus v, v being far smaller; returns the length. */
static long digits_add(char *dst, const char *s, long n, unsigned long v) {
  memcpy(dst + 1, s, (size_t)n);
  int carry = 0;
  for (long i = n; i >= 1 && (v || carry); i--) {
    int dig = dst[i] - '0' + (int)(v % 10) + carry;
    v /= 10;
    carry = dig >= 10;
    dst[i] = (char)('0' + dig - 10 * carry);
  }
  assert(v == 0); /* v is far smaller than the digits at s */
  if (carry) {
    dst[0] = '1';
    return n + 1;
  }
  memmove(dst, dst + 1, (size_t)n);
  return n;
}

/* ---- formatting: the common cases on limbs ----------------------------- */

_Static_assert(GMP_NUMB_BITS == 64 && GMP_NAIL_BITS == 0,
               "the fast paths assume 64-bit limbs without nails");

/*
** The significand of a regular x: n limbs, most significant last with its
** top bit set, bits below the precision zero; |x| = L * 2^(exp - 64n).
*/
static const mp_limb_t *limbs_of(mpfr_srcptr x, mp_size_t *n) {
  *n = (mp_size_t)((mpfr_get_prec(x) + 63) / 64);
  return mpfr_custom_get_significand(x);
}

#define POW5_MAX 440 /* 5^440 < 2^1024: 16 limbs */
#define POW5_LIMBS 16

/* 5^t for 0 <= t <= POW5_MAX into f; returns the limb count. */
static mp_size_t pow5_limbs(mp_limb_t *f, long t) {
  static const mp_limb_t p27 = 7450580596923828125ULL; /* 5^27 */
  mp_size_t n = 1;
  f[0] = 1;
  for (; t > 0; t -= 27) {
    mp_limb_t m = p27;
    if (t < 27)
      for (m = 1; t > 0; t--)
        m *= 5;
    mp_limb_t carry = mpn_mul_1(f, f, n, m);
    if (carry)
      f[n++] = carry;
  }
  return n;
}

/*
** |x| when x is whole, below 2^63 and its ulp is at most 1: then no other
** whole number lies within half an ulp and Go prints all the digits.
*/
static bool small_int(mpfr_srcptr x, uint64_t *u) {
  mpfr_exp_t e = mpfr_get_exp(x);
  if (e < 1 || e > 63 || e > mpfr_get_prec(x))
    return false;
  mp_size_t n;
  const mp_limb_t *l = limbs_of(x, &n);
  if (l[n - 1] << e)
    return false;
  for (mp_size_t i = 0; i < n - 1; i++)
    if (l[i])
      return false;
  *u = l[n - 1] >> (64 - e);
  return true;
}

#define FAST_LIMBS 16 /* precisions up to 1024 bits */
#define WORK_LIMBS (FAST_LIMBS + POW5_LIMBS + 4)

/*
** 2 * r <= h (or < h unless inclusive), r and h in m limbs; r is
** doubled in place (it has a spare top limb).
*/
static bool twice_within(mp_limb_t *r, const mp_limb_t *h, mp_size_t m,
                         bool inclusive) {
  mpn_lshift(r, r, m, 1);
  int c = mpn_cmp(r, h, m);
  return inclusive ? c <= 0 : c < 0;
}

/* p = l * f, nl and nf limbs; returns the product's limb count. */
static mp_size_t mul_limbs(mp_limb_t *p, const mp_limb_t *l, mp_size_t nl,
                           const mp_limb_t *f, mp_size_t nf) {
  if (nf == 1)
    p[nl] = mpn_mul_1(p, l, nl, f[0]);
  else if (nl >= nf)
    mpn_mul(p, l, nl, f, nf);
  else
    mpn_mul(p, f, nf, l, nl);
  return nl + nf;
}

/*
** shortest_fast's test done on limbs for the common case: 0 <= t <=
** POW5_MAX and |x| * 10^t not whole.  P = L * 5^t and |x| * 10^t =
** P / 2^s, so q is P >> s and r the low s bits; twice half an ulp in
** those units is h = 5^t << (64n - prec).  -1 when the case does not
** apply, else whether q or q + 1 is the answer.
*/
static int fast_limbs(mpfr_srcptr x, struct dec *d, long k) {
  mp_size_t n;
  const mp_limb_t *l = limbs_of(x, &n);
  long e = (long)mpfr_get_exp(x), prec = (long)mpfr_get_prec(x);
  long t = k - log10_pow2(e) - 1, s = 64 * (long)n - e - t;
  if (n > FAST_LIMBS || t < 0 || t > POW5_MAX || s <= 0)
    return -1;
  mp_limb_t f[POW5_LIMBS + 1], p[WORK_LIMBS], r[WORK_LIMBS], h[WORK_LIMBS];
  mp_limb_t keep[WORK_LIMBS];
  mp_size_t fn = pow5_limbs(f, t), pn = mul_limbs(p, l, n, f, fn);
  long qi = s / 64, qb = s % 64;
  if (qi >= pn)
    return -1;
  uint64_t q = p[qi] >> qb;
  if (qb && qi + 1 < pn)
    q |= p[qi + 1] << (64 - qb);
  /* m limbs hold 2r (s + 1 bits), 2^s + 1 bit, and h (fn + 1 limbs) */
  mp_size_t m = (qi + 2 > fn + 1 ? qi + 2 : fn + 1);
  memset(h, 0, (size_t)m * sizeof *h);
  memcpy(h, f, (size_t)fn * sizeof *h);
  long hs = 64 * (long)n - prec; /* 0 <= hs < 64 */
  if (hs)
    mpn_lshift(h, h, fn + 1, (unsigned)hs);
  bool inclusive = !((l[0] >> hs) & 1); /* the ulp bit */
  memset(r, 0, (size_t)m * sizeof *r);
  memcpy(r, p, (size_t)qi * sizeof *r);
  if (qb)
    r[qi] = p[qi] & (((mp_limb_t)1 << qb) - 1);
  bool rzero = mpn_zero_p(r, m);
  memcpy(keep, r, (size_t)m * sizeof *r);
  if (twice_within(r, h, m, inclusive)) {
    dec_from_u64(d, q, t);
    return 1;
  }
  if (rzero)
    return 0;
  memset(r, 0, (size_t)m * sizeof *r); /* r = 2^s - r */
  r[qi] = (mp_limb_t)1 << qb;
  mpn_sub_n(r, r, keep, m);
  if (!twice_within(r, h, m, inclusive))
    return 0;
  dec_from_u64(d, q + 1, t);
  return 1;
}

/*
** v (vn limbs) split at bit s: q = v >> s (qn limbs, returned, zero
** limbs on top dropped) and r = v mod 2^s in m limbs.
*/
static mp_size_t split_limbs(mp_limb_t *q, mp_limb_t *r, mp_size_t m,
                             const mp_limb_t *v, mp_size_t vn, long s) {
  mp_size_t qi = s / 64, qb = s % 64, qn = vn - qi;
  memset(r, 0, (size_t)m * sizeof *r);
  memcpy(r, v, (size_t)(qi < vn ? qi : vn) * sizeof *r);
  if (qi >= vn)
    return 0;
  if (qb) {
    r[qi] = v[qi] & (((mp_limb_t)1 << qb) - 1);
    mpn_rshift(q, v + qi, qn, (unsigned)qb);
  } else {
    memcpy(q, v + qi, (size_t)qn * sizeof *q);
  }
  while (qn > 0 && q[qn - 1] == 0)
    qn--;
  return qn;
}

/*
** bounds_digits on limbs, for 0 <= t <= POW5_MAX, |x| * 10^t not whole
** and precisions up to 1024 bits.  In units of 2^-(s+1): x is 2L * 5^t,
** half an ulp is h = 5^t << (64n - prec), so the bounds' quotients are
** x's minus or plus h >> (s+1), with a borrow or carry from the
** remainders.  False when the case does not apply.
*/
static bool bounds_limbs(mpfr_srcptr x, long t, struct dec *d, struct dec *lo,
                         struct dec *up) {
  mp_size_t n;
  const mp_limb_t *l = limbs_of(x, &n);
  long s = 64 * (long)n - (long)mpfr_get_exp(x) - t + 1;
  if (n > FAST_LIMBS || t < 0 || t > POW5_MAX || s <= 1)
    return false;
  mp_limb_t f[POW5_LIMBS + 1], p[WORK_LIMBS], q[WORK_LIMBS], h[WORK_LIMBS];
  mp_limb_t r[WORK_LIMBS], hr[WORK_LIMBS], hq[WORK_LIMBS], b[WORK_LIMBS];
  mp_size_t fn = pow5_limbs(f, t), pn = mul_limbs(p, l, n, f, fn);
  p[pn] = mpn_lshift(p, p, pn, 1);
  pn++;
  long hs = 64 * (long)n - (long)mpfr_get_prec(x);
  h[fn] = hs ? mpn_lshift(h, f, fn, (unsigned)hs) : 0;
  if (!hs)
    memcpy(h, f, (size_t)fn * sizeof *h);
  mp_size_t m = s / 64 + 1; /* remainders of s bits, plus a carry bit */
  if (m + 1 > WORK_LIMBS)
    return false;
  mp_size_t qn = split_limbs(q, r, m, p, pn, s);
  mp_size_t hqn = split_limbs(hq, hr, m, h, fn + 1, s);
  if (qn == 0 || hqn > 1)
    return false;
  unsigned long c = hqn ? hq[0] : 0;
  if (c > ULONG_MAX / 4)
    return false;
  bool rx = !mpn_zero_p(r, m);
  mp_limb_t top = ((mp_limb_t)1 << (s % 64)) - 1; /* limb m-1 of r */
  /* lower: r - hr, borrowing 2^s; upper: r + hr, carrying 2^s */
  bool borrow = mpn_sub_n(b, r, hr, m) != 0;
  b[m - 1] &= top;
  bool rl = !mpn_zero_p(b, m);
  mpn_add_n(b, r, hr, m);
  bool carry = (b[m - 1] >> (s % 64)) & 1;
  b[m - 1] &= top;
  bool ru = !mpn_zero_p(b, m);
  long nd = (long)mpn_get_str((unsigned char *)d->d, 10, q, qn);
  for (long i = 0; i < nd; i++)
    d->d[i] = (char)(d->d[i] + '0');
  dec_set(lo, digits_sub(lo->d, d->d, nd, c + borrow), t, rl);
  dec_set(up, digits_add(up->d, d->d, nd, c + carry), t, ru);
  dec_set(d, nd, t, rx);
  return true;
}

/* ---- formatting: any precision and exponent, with GMP integers --------- */

/*
** The first digits of v * 2^f: the digits of q = floor(v * 2^f * 10^t)
** into dst->d (room for the decimal size of q + 2), and whether the
** product had a remainder.  v * 2^f * 10^t = v * 2^(f+t) * 5^t.
*/
static void scaled_digits(struct dec *dst, const mpz_t v, long f, long t) {
  mpz_t q, den;
  mpz_inits(q, den, NULL);
  long s2 = f + t;
  mpz_set_ui(den, 1);
  if (t >= 0) {
    mpz_ui_pow_ui(q, 5, (unsigned long)t);
    mpz_mul(q, q, v);
  } else {
    mpz_set(q, v);
    mpz_ui_pow_ui(den, 5, (unsigned long)-t);
  }
  if (s2 >= 0)
    mpz_mul_2exp(q, q, (mp_bitcnt_t)s2);
  bool rem;
  if (s2 < 0 && t >= 0) { /* the usual case: a shift */
    rem = mpz_scan1(q, 0) < (mp_bitcnt_t)-s2;
    mpz_fdiv_q_2exp(q, q, (mp_bitcnt_t)-s2);
  } else {
    if (s2 < 0)
      mpz_mul_2exp(den, den, (mp_bitcnt_t)-s2);
    rem = !mpz_divisible_p(q, den);
    mpz_fdiv_q(q, q, den);
  }
  mpz_get_str(dst->d, 10, q);
  dst->n = (long)strlen(dst->d);
  dst->exp = dst->n - t;
  dst->more = rem;
  mpz_clears(q, den, NULL);
  if (!rem)
    dec_trim(dst);
}

/* The scale shared by x and its bounds: v * 2^f * 10^t = v * c / den. */
struct scale {
  mpz_t c, den;
  long shift; /* den = 2^shift when t >= 0, else -1 */
};

static void scale_init(struct scale *sc, long f, long t) {
  long s2 = f + t; /* 10^t = 2^t * 5^t */
  mpz_init_set_ui(sc->c, 1);
  mpz_init_set_ui(sc->den, 1);
  if (t >= 0)
    mpz_ui_pow_ui(sc->c, 5, (unsigned long)t);
  else
    mpz_ui_pow_ui(sc->den, 5, (unsigned long)-t);
  if (s2 >= 0)
    mpz_mul_2exp(sc->c, sc->c, (mp_bitcnt_t)s2);
  else
    mpz_mul_2exp(sc->den, sc->den, (mp_bitcnt_t)-s2);
  sc->shift = t < 0 ? -1 : s2 < 0 ? -s2 : 0;
}

static void scale_done(struct scale *sc) { mpz_clears(sc->c, sc->den, NULL); }

/* q, r = v * c divided by den */
static void scale_divmod(mpz_t q, mpz_t r, const mpz_t v,
                         const struct scale *sc) {
  mpz_mul(q, v, sc->c);
  if (sc->shift >= 0) {
    mpz_fdiv_r_2exp(r, q, (mp_bitcnt_t)sc->shift);
    mpz_fdiv_q_2exp(q, q, (mp_bitcnt_t)sc->shift);
  } else {
    mpz_fdiv_qr(q, r, q, sc->den);
  }
}

/*
** The first digits of x and of its bounds x -/+ half an ulp, which are
** (M2 -/+ 1) * 2^f with M2 the mantissa with one more bit: one
** conversion for x, and the bounds differ from it by c / den, a small
** number of units of the last digit, so their digits are x's minus or
** plus that.  False when that number is not small (k too large).
*/
static bool bounds_digits(const mpz_t m2, long f, long t, struct dec *d,
                          struct dec *lo, struct dec *up) {
  struct scale sc;
  mpz_t q, r, cq, cr, b;
  scale_init(&sc, f, t);
  mpz_inits(q, r, cq, cr, b, NULL);
  scale_divmod(q, r, m2, &sc);
  mpz_fdiv_qr(cq, cr, sc.c, sc.den);
  bool ok = mpz_cmp_ui(cq, ULONG_MAX / 4) < 0;
  if (ok) {
    unsigned long c = mpz_get_ui(cq);
    mpz_get_str(d->d, 10, q);
    long n = (long)strlen(d->d);
    mpz_sub(b, r, cr); /* lower: r - cr, borrowing one unit if negative */
    bool borrow = mpz_sgn(b) < 0;
    if (borrow)
      mpz_add(b, b, sc.den);
    dec_set(lo, digits_sub(lo->d, d->d, n, c + borrow), t, mpz_sgn(b) != 0);
    mpz_add(b, r, cr); /* upper: r + cr, carrying one unit if >= den */
    bool carry = mpz_cmp(b, sc.den) >= 0;
    if (carry)
      mpz_sub(b, b, sc.den);
    dec_set(up, digits_add(up->d, d->d, n, c + carry), t, mpz_sgn(b) != 0);
    dec_set(d, n, t, mpz_sgn(r) != 0);
  }
  mpz_clears(q, r, cq, cr, b, NULL);
  scale_done(&sc);
  return ok;
}

/*
** Fast path for numbers within half an ulp of a decimal of at most k
** digits (3.14, 0.3 = 0.1 + 0.2, 1e30): q = floor(|x| * 10^t) has about
** k digits; q or q + 1 is the answer when it lies within |x| -/+ half an
** ulp.  Such a decimal is then the only one of k digits or fewer there
** (the interval is narrower than 10^-t since 10^k < 2^(prec-6)), so it is
** what Go's search finds.  False when there is none: use the slow path.
*/
static bool shortest_fast(mpfr_srcptr x, struct dec *d, long k) {
  mpz_t m2, num, den, c;
  mpz_inits(m2, num, den, c, NULL);
  long f = (long)mpfr_get_z_2exp(m2, x) - 1;
  mpz_abs(m2, m2);
  mpz_mul_2exp(m2, m2, 1);
  bool inclusive = !mpz_tstbit(m2, 1);
  long t = k - log10_pow2((long)mpfr_get_exp(x)) - 1, s2 = f + t;
  /* |x| * 10^t = m2 * c / den, half an ulp = c / den */
  mpz_set_ui(c, 1);
  mpz_set_ui(den, 1);
  if (t >= 0)
    mpz_ui_pow_ui(c, 5, (unsigned long)t);
  else
    mpz_ui_pow_ui(den, 5, (unsigned long)-t);
  if (s2 >= 0)
    mpz_mul_2exp(c, c, (mp_bitcnt_t)s2);
  else
    mpz_mul_2exp(den, den, (mp_bitcnt_t)-s2);
  mpz_mul(num, m2, c);
  mpz_fdiv_qr(num, m2, num, den); /* num = q, m2 = remainder */
  int lo = mpz_cmp(m2, c);
  bool ok = inclusive ? lo <= 0 : lo < 0;
  if (!ok && mpz_sgn(m2) > 0) {
    mpz_sub(m2, den, m2);
    int hi = mpz_cmp(m2, c);
    ok = inclusive ? hi <= 0 : hi < 0;
    mpz_add_ui(num, num, 1);
  }
  if (ok && mpz_sizeinbase(num, 10) > (size_t)k + 2)
    ok = false; /* not the k digits expected: the slow path decides */
  if (ok) {
    mpz_get_str(d->d, 10, num);
    d->n = (long)strlen(d->d);
    d->exp = d->n - t;
    d->more = false;
    dec_trim(d);
  }
  mpz_clears(m2, num, den, c, NULL);
  return ok;
}

/*
** The shortest digits of |x| the slow, faithful way: the first k digits
** of x and of its bounds, then Go's loop.  k covers the (prec + 1) *
** log10(2) + 2 digits the loop needs, and doubles if that ever fell
** short.  Returns the malloc'ed buffer that d's digits live in.
*/
static char *shortest_slow(mpfr_srcptr x, struct dec *d) {
  mpz_t m2;
  mpz_init(m2);
  long f = (long)mpfr_get_z_2exp(m2, x) - 1;
  mpz_abs(m2, m2);
  mpz_mul_2exp(m2, m2, 1);
  bool inclusive = !mpz_tstbit(m2, 1);
  long e = (long)mpfr_get_exp(x);
  long k = (long)(((long long)mpfr_get_prec(x) + 1) * 30103 / 100000) + 8;
  char *buf = NULL;
  bool first = true;
  for (;; k *= 2) {
    long t = k - log10_pow2(e) - 1, room = k + 8;
    buf = heap_realloc(buf, 3 * (size_t)room);
    struct dec lo = {buf + room, 0, 0, false};
    struct dec up = {buf + 2 * room, 0, 0, false};
    d->d = buf;
    if (first && bounds_limbs(x, t, d, &lo, &up) &&
        round_shortest(d, &lo, &up, inclusive))
      break;
    first = false;
    if (!bounds_digits(m2, f, t, d, &lo, &up)) {
      scaled_digits(d, m2, f, t);
      mpz_sub_ui(m2, m2, 1);
      scaled_digits(&lo, m2, f, t);
      mpz_add_ui(m2, m2, 2);
      scaled_digits(&up, m2, f, t);
      mpz_sub_ui(m2, m2, 1);
    }
    if (round_shortest(d, &lo, &up, inclusive))
      break;
  }
  mpz_clear(m2);
  return buf;
}

/* fmtF: the digits of d with prec = max(len - exp, 0) fraction digits. */
static char *format_f(tfr_arena *a, bool neg, const struct dec *d) {
  long ip = d->exp > 0 ? d->exp : 1;
  long fp = d->n - d->exp > 0 ? d->n - d->exp : 0;
  char *s = tfr_arena_alloc_raw(a, (size_t)(neg + ip + (fp > 0) + fp + 1));
  char *p = s;
  if (neg)
    *p++ = '-';
  if (d->exp > 0) {
    long m = d->n < d->exp ? d->n : d->exp;
    memcpy(p, d->d, (size_t)m);
    memset(p + m, '0', (size_t)(d->exp - m));
    p += d->exp;
  } else {
    *p++ = '0';
  }
  if (fp > 0) { /* digits d[exp..n), after -exp zeros if exp < 0 */
    *p++ = '.';
    long zeros = d->exp < 0 ? -d->exp : 0, from = d->exp > 0 ? d->exp : 0;
    memset(p, '0', (size_t)zeros);
    memcpy(p + zeros, d->d + from, (size_t)(d->n - from));
    p += fp;
  }
  *p = '\0';
  return s;
}

/* The digits of a small whole number (see small_int). */
static const char *format_int(tfr_arena *a, bool neg, uint64_t u) {
  char buf[24], *p = buf + sizeof buf;
  *--p = '\0';
  do {
    *--p = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (neg)
    *--p = '-';
  return tfr_arena_strndup(a, p, (size_t)(buf + sizeof buf - 1 - p));
}

const char *num_format(tfr_arena *a, const struct tfr_num *num) {
  mpfr_srcptr x = num->m;
  bool neg = mpfr_signbit(x);
  if (mpfr_inf_p(x))
    return tfr_arena_strdup(a, neg ? "-Inf" : "+Inf");
  if (mpfr_zero_p(x))
    return tfr_arena_strdup(a, neg ? "-0" : "0");
  mpfr_prec_t prec = mpfr_get_prec(x);
  uint64_t u;
  if (small_int(x, &u))
    return format_int(a, neg, u);
  /* fast digits k: 10^(k+1) < 2^prec, and q < 10^20 fits a word */
  long kfast = (long)(((long long)prec - 7) * 30103 / 100000);
  char small[32];
  struct dec d = {small, 0, 0, false};
  char *heap = NULL;
  int fast = 0;
  if (kfast >= 3) {
    kfast = kfast > 18 ? 18 : kfast;
    fast = fast_limbs(x, &d, kfast);
    if (fast < 0)
      fast = shortest_fast(x, &d, kfast);
  }
  if (!fast)
    heap = shortest_slow(x, &d);
  const char *s = format_f(a, neg, &d);
  free(heap);
  return s;
}

/* ---- cty equality ------------------------------------------------------ */

/* x is a power of two and y the number just below it, at one precision. */
static bool below_power_of_two(mpfr_srcptr x, mpfr_srcptr y) {
  if (mpfr_min_prec(x) != 1)
    return false;
  struct tmp t;
  tmp_init(&t, mpfr_get_prec(x));
  mpfr_set(t.m, x, MPFR_RNDN);
  mpfr_nextbelow(t.m);
  bool r = mpfr_equal_p(t.m, y);
  tmp_done(&t);
  return r;
}

/*
** rawNumberEqual compares Text('f', -1) strings.  Numbers of one
** precision have disjoint digit intervals except across a power of two,
** where Go's symmetric interval reaches down to the next number below;
** only then, or when the precisions differ, do we compare the texts.
*/
bool num_equal(const struct tfr_num *x, const struct tfr_num *y) {
  if (x == y)
    return true;
  go_range();
  if (mpfr_sgn(x->m) != mpfr_sgn(y->m))
    return false;
  if (mpfr_zero_p(x->m) || mpfr_inf_p(x->m) || mpfr_inf_p(y->m))
    return mpfr_equal_p(x->m, y->m);
  mpfr_exp_t ex = mpfr_get_exp(x->m), ey = mpfr_get_exp(y->m);
  if (ex - ey > 1 || ey - ex > 1)
    return false;
  if (mpfr_get_prec(x->m) == mpfr_get_prec(y->m)) {
    if (mpfr_equal_p(x->m, y->m))
      return true;
    if (!below_power_of_two(x->m, y->m) && !below_power_of_two(y->m, x->m))
      return false;
  }
  tfr_arena *a = tfr_arena_new();
  bool r = strcmp(num_format(a, x), num_format(a, y)) == 0;
  tfr_arena_free(a);
  return r;
}
