/*
** format and formatlist: Go's fmt verbs as cty's stdlib format functions
** run them (its number formatting, flags, widths and error texts).  The
** group funcs_format.
*/
#include <limits.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "values/convert.h"
#include "base/arena_int.h"
#include "eval/funcs.h"
#include "eval/funcs_string_int.h"
#include "eval/goregexp.h"
#include "eval/re2_shim.h"
#include "base/json_out.h"
#include "values/number.h"
#include "render/render.h"
#include "base/strutil.h"
#include "base/heap.h"

/* ---- format: Go's number formatting -------------------------------------- */

/*
** math/big's decimal: the value is 0.mant * 10^exp; mant has no trailing
** zeros and is empty for zero.  Digits live in the arena.
*/
struct dec {
  char *mant;
  long len;
  long exp;
};

/* Strip trailing zeros (big's trim). */
static void dec_trim(struct dec *d) {
  while (d->len > 0 && d->mant[d->len - 1] == '0')
    d->len--;
  if (!d->len)
    d->exp = 0;
}

/* The exact decimal value of a finite, non-zero x (Go's decimal.init).
** False when it would have more digits than we are willing to print. */
static bool dec_exact(tfr_arena *a, mpfr_srcptr x, struct dec *d) {
  mpfr_exp_t e = mpfr_get_exp(x);
  long p = (long)mpfr_get_prec(x);
  long id = e > 0 ? (long)((double)e * 0.30103) + 2 : 0;
  long fd = p - e > 0 ? p - (long)e : 0;
  if (id + fd > 4000000)
    return false;
  mpfr_exp_t de;
  char *s = mpfr_get_str(NULL, &de, 10, (size_t)(id + fd + 2), x, MPFR_RNDN);
  const char *digits = s[0] == '-' ? s + 1 : s;
  d->len = (long)strlen(digits);
  d->mant = tfr_arena_strndup(a, digits, (size_t)d->len);
  d->exp = (long)de;
  mpfr_free_str(s);
  dec_trim(d);
  return true;
}

/* The shortest decimal that reads back as x at its precision (big's
** roundShortest), taken from num_format's text of the same digits. */
static void dec_shortest(tfr_arena *a, const struct tfr_num *x, struct dec *d) {
  const char *t = num_format(a, x);
  if (*t == '-')
    t++;
  size_t n = strlen(t);
  d->mant = tfr_arena_alloc_raw(a, n + 1);
  d->len = 0;
  d->exp = 0;
  bool point = false;
  for (size_t i = 0; i < n; i++) {
    if (t[i] == '.') {
      point = true;
    } else if (d->len == 0 && t[i] == '0') {
      if (point)
        d->exp--;
    } else {
      d->mant[d->len++] = t[i];
      if (!point)
        d->exp++;
    }
  }
  dec_trim(d);
}

static void dec_round_up(struct dec *d, long n) {
  if (n < 0 || n >= d->len)
    return;
  while (n > 0 && d->mant[n - 1] >= '9')
    n--;
  if (n == 0) {
    d->mant[0] = '1';
    d->len = 1;
    d->exp++;
    return;
  }
  d->mant[n - 1]++;
  d->len = n;
}

static void dec_round_down(struct dec *d, long n) {
  if (n < 0 || n >= d->len)
    return;
  d->len = n;
  dec_trim(d);
}

/* Round to n digits, to nearest, ties to even (big's decimal.round). */
static void dec_round(struct dec *d, long n) {
  if (n < 0 || n >= d->len)
    return;
  bool up;
  if (d->mant[n] == '5' && n + 1 == d->len)
    up = n > 0 && (d->mant[n - 1] - '0') % 2;
  else
    up = d->mant[n] >= '5';
  if (up)
    dec_round_up(d, n);
  else
    dec_round_down(d, n);
}

/* big's fmtE: d.ddddde±dd */
static void fmt_e(struct sbuf *b, char fc, long prec, const struct dec *d) {
  char ch = d->len ? d->mant[0] : '0';
  sbuf_put(b, &ch, 1);
  if (prec > 0) {
    sbuf_put(b, ".", 1);
    long i = 1, m = d->len < prec + 1 ? d->len : prec + 1;
    if (i < m) {
      sbuf_put(b, d->mant + i, (size_t)(m - i));
      i = m;
    }
    for (; i <= prec; i++)
      sbuf_put(b, "0", 1);
  }
  long exp = d->len ? d->exp - 1 : 0;
  char e[32];
  snprintf(e, sizeof e, "%c%c%s%ld", fc, exp < 0 ? '-' : '+',
           labs(exp) < 10 ? "0" : "", labs(exp));
  sbuf_str(b, e);
}

/* big's fmtF: ddd.ddd */
static void fmt_f(struct sbuf *b, long prec, const struct dec *d) {
  if (d->exp > 0) {
    long m = d->len < d->exp ? d->len : d->exp;
    sbuf_put(b, d->mant, (size_t)m);
    for (; m < d->exp; m++)
      sbuf_put(b, "0", 1);
  } else {
    sbuf_put(b, "0", 1);
  }
  if (prec > 0) {
    sbuf_put(b, ".", 1);
    for (long i = 0; i < prec; i++) {
      long k = d->exp + i;
      sbuf_put(b, k >= 0 && k < d->len ? d->mant + k : "0", 1);
    }
  }
}

/* big's %g / %G choice between the two forms. */
static void fmt_g(struct sbuf *b, char fc, long prec, bool shortest,
                  const struct dec *d) {
  long eprec = prec;
  if (eprec > d->len && d->len >= d->exp)
    eprec = d->len;
  if (shortest)
    eprec = 6;
  long exp = d->exp - 1;
  if (exp < -4 || exp >= eprec) {
    if (prec > d->len)
      prec = d->len;
    fmt_e(b, (char)(fc + 'e' - 'g'), prec - 1, d);
    return;
  }
  if (prec > d->exp)
    prec = d->len;
  fmt_f(b, prec - d->exp > 0 ? prec - d->exp : 0, d);
}

/*
** big.Float.Append(fmt, prec) for fmt in e E f g G: prec < 0 means the
** shortest representation.  False when the number is too large to print.
*/
static bool float_append(struct sbuf *b, tfr_arena *a, const struct tfr_num *x,
                         char fc, long prec) {
  mpfr_srcptr m = num_mpfr(x);
  if (mpfr_signbit(m))
    sbuf_put(b, "-", 1);
  if (mpfr_inf_p(m)) {
    sbuf_str(b, mpfr_signbit(m) ? "Inf" : "+Inf");
    return true;
  }
  struct dec d = {"", 0, 0};
  bool shortest = prec < 0;
  if (!mpfr_zero_p(m)) {
    if (shortest)
      dec_shortest(a, x, &d);
    else if (!dec_exact(a, m, &d))
      return false;
  }
  bool g = fc == 'g' || fc == 'G';
  if (shortest) {
    prec = fc == 'f' ? (d.len - d.exp > 0 ? d.len - d.exp : 0)
           : g       ? d.len
                     : d.len - 1;
  } else if (fc == 'f') {
    dec_round(&d, d.exp + prec);
  } else {
    if (g && prec == 0)
      prec = 1;
    dec_round(&d, g ? prec : 1 + prec);
  }
  if (fc == 'f')
    fmt_f(b, prec, &d);
  else if (g)
    fmt_g(b, fc, prec, shortest, &d);
  else
    fmt_e(b, fc, prec, &d);
  return true;
}

/* ---- format: verbs ------------------------------------------------------- */

/* One %-sequence, as cty's format_fsm.rl scans it. */
struct fverb {
  size_t off;      /* byte offset of the '%' */
  const char *raw; /* the whole verb, "%-[2]5.2f" */
  size_t rawlen;
  int64_t argnum; /* 1-based */
  int mode;
  bool zero, sharp, plus, minus, space, has_width, has_prec;
  int64_t width, prec; /* -1 when absent */
};

/* A formatting run: the arguments, the output and the error, if any
** (argi > 0: about that argument, cty's NewArgErrorf). */
struct fstate {
  tfr_arena *a;
  const tfr_value *const *args;
  size_t nargs;
  struct sbuf out;
  const char *err;
  size_t argi;
};

static bool ferror_(struct fstate *st, const char *msg) {
  st->err = msg;
  return false;
}

static const char *vraw(struct fstate *st, const struct fverb *v) {
  return str_go_quote(st->a, v->raw, v->rawlen);
}

/* "unsupported value for "%d" at 0: <why>" */
static bool unsupported(struct fstate *st, const struct fverb *v,
                        const char *why) {
  return ferror_(st, tfr_arena_printf(st->a,
                                      "unsupported value for %s at "
                                      "%zu: %s",
                                      vraw(st, v), v->off, why));
}

/* cty's formatPadWidth: pad to the width in grapheme clusters. */
static void pad_width(struct sbuf *b, const struct fverb *v, const char *s,
                      size_t n) {
  size_t have = v->width >= 0 ? grapheme_count(s, n) : 0;
  if (v->width < 0 || have >= (size_t)v->width) {
    sbuf_put(b, s, n);
    return;
  }
  if (v->minus)
    sbuf_put(b, s, n);
  for (size_t i = have; i < (size_t)v->width; i++)
    sbuf_put(b, v->zero ? "0" : " ", 1);
  if (!v->minus)
    sbuf_put(b, s, n);
}

/* cty's JSON encoding of a value (json.Marshal), in the arena. */
static const char *value_json(tfr_arena *a, const tfr_value *v, size_t *n) {
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = heap_memstream(&buf, &len);
  if (v->type->kind == TFR_STRING && !(v->flags & TFR_V_NULL))
    json_write_string(fp, v->s, v->n);
  else
    render_json_value(fp, a, v);
  heap_memstream_close(fp);
  const char *s = tfr_arena_strndup(a, buf, len);
  *n = len;
  free(buf);
  return s;
}

/* %v and %#v: strings and numbers as such, anything else as JSON. */
static bool verb_asis(struct fstate *st, const struct fverb *v,
                      const tfr_value *arg) {
  bool null = arg->flags & TFR_V_NULL;
  if (!v->sharp && !null && arg->type->kind == TFR_STRING) {
    pad_width(&st->out, v, arg->s, arg->n);
    return true;
  }
  if (!v->sharp && !null && arg->type->kind == TFR_NUMBER) {
    struct sbuf t = {0};
    sbuf_put(&t, "", 0);
    float_append(&t, st->a, arg->num, 'g', -1);
    pad_width(&st->out, v, t.p, t.n);
    free(t.p);
    return true;
  }
  size_t n;
  const char *j = value_json(st->a, arg, &n);
  pad_width(&st->out, v, j, n);
  return true;
}

/* Convert as cty's convert.Convert; NULL after reporting. */
static const tfr_value *fconvert(struct fstate *st, const struct fverb *v,
                                 const tfr_value *arg, const tfr_type *t) {
  const char *err = NULL;
  const tfr_value *cv = conv_convert(st->a, arg, t, &err);
  if (!cv)
    unsupported(st, v, err ? err : "incorrect type");
  return cv;
}

/* %t */
static bool verb_bool(struct fstate *st, const struct fverb *v,
                      const tfr_value *arg) {
  const tfr_value *b = fconvert(st, v, arg, &tfr_t_bool);
  if (!b)
    return false;
  sbuf_str(&st->out, b->b ? "true" : "false");
  return true;
}

/* %s and %q: precision truncates to grapheme clusters, width pads. */
static bool verb_string(struct fstate *st, const struct fverb *v,
                        const tfr_value *arg) {
  const tfr_value *s = fconvert(st, v, arg, &tfr_t_string);
  if (!s)
    return false;
  size_t n = s->n;
  if (v->prec > 0)
    n = skip_graphemes(s->s, s->n, v->prec);
  if (v->mode == 's') {
    pad_width(&st->out, v, s->s, n);
    return true;
  }
  size_t qn;
  const char *q = value_json(st->a, tfr_string_nocopy(st->a, s->s, n), &qn);
  pad_width(&st->out, v, q, qn);
  return true;
}

/* The digits of the whole number |x| in base 2, 8, 10 or 16 (lower
** case), in the arena; NULL when there would be too many. */
static const char *int_digits(tfr_arena *a, mpfr_srcptr x, int base) {
  if (mpfr_zero_p(x))
    return "0";
  mpfr_exp_t e = mpfr_get_exp(x);
  if (e > (1L << 24))
    return NULL;
  double per = base == 2 ? 1 : base == 8 ? 3 : base == 16 ? 4 : 3.3219;
  mpfr_exp_t de;
  char *s = mpfr_get_str(NULL, &de, base, (size_t)((double)e / per) + 2, x,
                         MPFR_RNDN);
  const char *d = s[0] == '-' ? s + 1 : s;
  const char *r = tfr_arena_strndup(a, d, (size_t)de);
  mpfr_free_str(s);
  return r;
}

static void put_repeat(struct sbuf *b, const char *s, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    sbuf_str(b, s);
}

/* Go's fmt flags as a Formatter sees them: '0' never with '-'. */
static bool go_zero(const struct fverb *v) { return v->zero && !v->minus; }

/* big.Int.Format for %b %d %o %x %X. */
static bool verb_int(struct fstate *st, const struct fverb *v,
                     const tfr_value *num) {
  mpfr_srcptr x = num_mpfr(num->num);
  if (!num_is_int(num->num))
    return unsupported(st, v, "an integer is required");
  int base = v->mode == 'b' ? 2 : v->mode == 'o' ? 8 : v->mode == 'd' ? 10 : 16;
  const char *dg = int_digits(st->a, x, base);
  if (!dg)
    return ferror_(st, "number too large to format");
  const char *sign = mpfr_sgn(x) < 0 ? "-"
                     : v->plus       ? "+"
                     : v->space      ? " "
                                     : "";
  const char *prefix = "";
  if (v->sharp)
    prefix = v->mode == 'b'   ? "0b"
             : v->mode == 'o' ? "0"
             : v->mode == 'x' ? "0x"
             : v->mode == 'X' ? "0X"
                              : "";
  int64_t len = (int64_t)strlen(dg), zeros = 0, left = 0, right = 0;
  if (v->prec >= 0) {
    if (len < v->prec)
      zeros = v->prec - len;
    else if (!strcmp(dg, "0") && v->prec == 0)
      return true;
  }
  int64_t total = (int64_t)(strlen(sign) + strlen(prefix)) + zeros + len;
  if (v->width >= 0 && total < v->width) {
    if (v->minus)
      right = v->width - total;
    else if (go_zero(v) && v->prec < 0)
      zeros = v->width - total;
    else
      left = v->width - total;
  }
  put_repeat(&st->out, " ", left);
  sbuf_str(&st->out, sign);
  sbuf_str(&st->out, prefix);
  put_repeat(&st->out, "0", zeros);
  for (const char *c = dg; *c; c++) {
    char ch = v->mode == 'X' && *c >= 'a' ? (char)(*c - 'a' + 'A') : *c;
    sbuf_put(&st->out, &ch, 1);
  }
  put_repeat(&st->out, " ", right);
  return true;
}

/* big.Float.Format for %e %E %f %g %G: sign, then padding. */
static bool verb_float(struct fstate *st, const struct fverb *v,
                       const tfr_value *num) {
  long prec = v->prec >= 0 ? (long)v->prec : 6;
  if ((v->mode == 'g' || v->mode == 'G') && v->prec < 0)
    prec = -1;
  struct sbuf t = {0};
  sbuf_put(&t, "", 0);
  if (!float_append(&t, st->a, num->num, (char)v->mode, prec)) {
    free(t.p);
    return ferror_(st, "number too large to format");
  }
  const char *buf = t.p, *sign = "";
  if (*buf == '-') {
    sign = "-";
    buf++;
  } else if (*buf == '+') {
    sign = v->space ? " " : "+";
    buf++;
  } else if (v->plus) {
    sign = "+";
  } else if (v->space) {
    sign = " ";
  }
  int64_t len = (int64_t)(strlen(sign) + strlen(buf)), pad = 0;
  if (v->width > len)
    pad = v->width - len;
  if (go_zero(v) && !mpfr_inf_p(num_mpfr(num->num))) {
    sbuf_str(&st->out, sign);
    put_repeat(&st->out, "0", pad);
    sbuf_str(&st->out, buf);
  } else if (v->minus) {
    sbuf_str(&st->out, sign);
    sbuf_str(&st->out, buf);
    put_repeat(&st->out, " ", pad);
  } else {
    put_repeat(&st->out, " ", pad);
    sbuf_str(&st->out, sign);
    sbuf_str(&st->out, buf);
  }
  free(t.p);
  return true;
}

/* cty's formatAppend: check the argument, then format it by mode. */
static bool format_verb(struct fstate *st, struct fverb *v) {
  if ((uint64_t)(v->argnum - 1) >= st->nargs)
    return ferror_(st,
                   tfr_arena_printf(st->a,
                                    "not enough arguments for %s at %zu: need "
                                    "index %lld but have %zu total",
                                    vraw(st, v), v->off, (long long)v->argnum,
                                    st->nargs));
  const tfr_value *arg = st->args[v->argnum - 1];
  if (v->mode != 'v' && (arg->flags & TFR_V_NULL))
    return unsupported(st, v, "null value cannot be formatted");
  if (!v->has_width)
    v->width = -1;
  if (!v->has_prec)
    v->prec = -1;
  if (v->width > 1000000 || v->prec > 1000000)
    return ferror_(st, "format width or precision too large");
  switch (v->mode) {
  case 'v':
    return verb_asis(st, v, arg);
  case 't':
    return verb_bool(st, v, arg);
  case 's':
  case 'q':
    return verb_string(st, v, arg);
  case 'b':
  case 'd':
  case 'o':
  case 'x':
  case 'X':
  case 'e':
  case 'E':
  case 'f':
  case 'g':
  case 'G': {
    const tfr_value *num = fconvert(st, v, arg, &tfr_t_number);
    if (!num)
      return false;
    return strchr("bdoxX", v->mode) ? verb_int(st, v, num)
                                    : verb_float(st, v, num);
  }
  default:
    return ferror_(st, tfr_arena_printf(st->a,
                                        "unsupported format verb %s in %s at "
                                        "offset %zu",
                                        go_quote_rune(st->a, v->mode),
                                        vraw(st, v), v->off));
  }
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Digits at s[*p..n) into *out (saturating). */
static void scan_num(const char *s, size_t n, size_t *p, int64_t *out) {
  int64_t v = 0;
  for (; *p < n && is_digit(s[*p]); (*p)++)
    v = v > INT32_MAX ? v : v * 10 + (s[*p] - '0');
  *out = v;
}

/* Scan one verb after its '%' at p: flags, [argidx], width, .prec.
** Returns the position of the mode letter, or n at the end of the text;
** *bad when it stopped at a character that cannot be there. */
static size_t scan_verb(const char *s, size_t n, size_t p, struct fverb *v,
                        bool *bad) {
  *bad = true;
  for (; p < n && strchr("0#-+ ", s[p]) && s[p]; p++) {
    v->zero |= s[p] == '0';
    v->sharp |= s[p] == '#';
    v->minus |= s[p] == '-';
    v->plus |= s[p] == '+';
    v->space |= s[p] == ' ';
  }
  if (p < n && s[p] == '[') {
    if (++p >= n || s[p] < '1' || s[p] > '9')
      return p;
    scan_num(s, n, &p, &v->argnum);
    if (p >= n || s[p] != ']')
      return p;
    p++;
  }
  if (p < n && s[p] >= '1' && s[p] <= '9') {
    v->has_width = true;
    scan_num(s, n, &p, &v->width);
  }
  if (p < n && s[p] == '.') {
    v->has_prec = true;
    p++;
    scan_num(s, n, &p, &v->prec);
  }
  *bad = false;
  return p;
}

static bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/*
** cty's formatFSM: copy text, expand %% and the verbs.  False with
** st->err (and st->argi) set on failure.
*/
static bool format_run(struct fstate *st, const char *s, size_t n) {
  int64_t next = 1, highest = 0;
  for (size_t p = 0; p < n;) {
    if (s[p] != '%' || (p + 1 < n && s[p + 1] == '%')) {
      sbuf_put(&st->out, s + p, 1);
      p += s[p] == '%' ? 2 : 1;
      continue;
    }
    struct fverb v = {.off = p, .argnum = next};
    bool bad;
    p = scan_verb(s, n, p + 1, &v, &bad);
    if (p >= n)
      return ferror_(st, tfr_arena_printf(st->a,
                                          "invalid format string "
                                          "starting at offset %zu",
                                          n));
    if (bad || !is_alpha(s[p])) {
      int32_t r;
      str_decode_rune(s + p, n - p, &r);
      return ferror_(st, tfr_arena_printf(st->a,
                                          "unrecognized format "
                                          "character %s at offset "
                                          "%zu",
                                          go_quote_rune(st->a, r), p));
    }
    v.mode = s[p];
    v.raw = s + v.off;
    v.rawlen = p + 1 - v.off;
    if (v.argnum > highest)
      highest = v.argnum;
    if (!format_verb(st, &v))
      return false;
    next = v.argnum + 1;
    p++;
  }
  if ((size_t)highest < st->nargs) {
    st->argi = (size_t)highest + 1;
    return ferror_(st, highest ? tfr_arena_printf(st->a,
                                                  "too many arguments"
                                                  "; only %lld used by "
                                                  "format string",
                                                  (long long)highest)
                               : "too many arguments; no verbs in format "
                                 "string");
  }
  return true;
}

/* Run format over args; the string value, or NULL with st's error. */
static const tfr_value *format_string(struct fstate *st, const char *s,
                                      size_t n) {
  sbuf_put(&st->out, "", 0);
  if (!format_run(st, s, n)) {
    free(st->out.p);
    st->out = (struct sbuf){0};
    return NULL;
  }
  return sbuf_value(st->a, &st->out);
}

/* format(format, args...) */
static const tfr_value *fn_format(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  /* cty: an argument not wholly known makes the result unknown, starting
  ** with the literal text before the first verb */
  for (size_t i = 1; i < f->nargs; i++)
    if (!tfr_value_is_wholly_known(f->args[i])) {
      const char *pc = memchr(f->args[0]->s, '%', f->args[0]->n);
      size_t n = pc ? (size_t)(pc - f->args[0]->s) : 0;
      return n ? tfr_unknown_string_prefix(f->a, f->args[0]->s, n)
               : tfr_unknown(f->a, &tfr_t_string);
    }
  struct fstate st = {.a = f->a, .args = f->args + 1, .nargs = f->nargs - 1};
  const tfr_value *v = format_string(&st, f->args[0]->s, f->args[0]->n);
  if (v)
    return v;
  if (st.argi)
    fcall_arg_error(f, st.argi, "%s", st.err);
  else
    fcall_error(f, "%s", st.err);
  return NULL;
}

/* Is v a known, non-null list, set or tuple (or an unknown tuple), which
** formatlist iterates?  *len its length. */
static bool fl_sequence(const tfr_value *v, size_t *len) {
  int k = v->type->kind;
  if ((k != TFR_LIST && k != TFR_SET && k != TFR_TUPLE) ||
      (v->flags & TFR_V_NULL))
    return false;
  *len = k == TFR_TUPLE ? v->type->n : v->n;
  return true;
}

/* One formatlist iteration: the i-th element of every sequence. */
static const tfr_value *fl_iteration(struct fcall *f, size_t i,
                                     const bool *seq) {
  size_t n = f->nargs - 1;
  const tfr_value **args = tfr_arena_alloc(f->a, (n ? n : 1) * sizeof *args);
  for (size_t k = 0; k < n; k++) {
    args[k] = seq[k] ? f->args[k + 1]->elems[i] : f->args[k + 1];
    /* this element unknown, not null (cty/function/stdlib/format.go:
    ** 172-181 in go-cty v1.18.1) */
    if (!tfr_value_is_wholly_known(args[k]))
      return funcs_unknown_notnull(f->a, &tfr_t_string);
  }
  struct fstate st = {.a = f->a, .args = args, .nargs = n};
  const tfr_value *v = format_string(&st, f->args[0]->s, f->args[0]->n);
  if (!v)
    fcall_error(f, "error on format iteration %zu: %s", i, st.err);
  return v;
}

/* formatlist(format, args...): format once per element of the list,
** set and tuple arguments, which must have the same length. */
static const tfr_value *fn_formatlist(struct fcall *f, const tfr_type *ret) {
  if (f->nargs == 1) {
    const tfr_value *v = fn_format(f, ret);
    return v ? tfr_list(f->a, &tfr_t_string, 1, &v) : NULL;
  }
  bool *seq = tfr_arena_alloc(f->a, f->nargs * sizeof *seq);
  bool unknown = false;
  size_t iterlen = 0, chooser = 0, len;
  for (size_t i = 1; i < f->nargs; i++) {
    const tfr_value *a = f->args[i];
    bool known = !(a->flags & TFR_V_UNKNOWN);
    if (fl_sequence(a, &len) && (known || a->type->kind == TFR_TUPLE)) {
      if (!chooser) {
        iterlen = len;
        chooser = i;
      } else if (len != iterlen) {
        fcall_arg_error(f, i,
                        "argument %zu has length %zu, which is "
                        "inconsistent with argument %zu of length "
                        "%zu",
                        i, len, chooser, iterlen);
        return NULL;
      }
      seq[i - 1] = known;
      unknown |= !known;
    } else {
      unknown |=
          !known && (fl_sequence(a, &len) || a->type->kind == TFR_DYNAMIC);
    }
  }
  if (unknown)
    return tfr_unknown(f->a, ret);
  if (!chooser)
    iterlen = 1;
  const tfr_value **out =
      tfr_arena_alloc(f->a, (iterlen ? iterlen : 1) * sizeof *out);
  for (size_t i = 0; i < iterlen; i++) {
    out[i] = fl_iteration(f, i, seq);
    if (!out[i])
      return NULL;
  }
  return tfr_list(f->a, &tfr_t_string, iterlen, out);
}

static const tfr_type t_list_string = {.kind = TFR_LIST, .elem = &tfr_t_string};
/* cty's args allow type any and unknown values (stdlib/format.go): an
** unknown argument gives an unknown string (not an unknown of type any)
** that keeps the literal text before the first verb, as cty's Impl does */
static const struct func_param format_args = {
    "args", NULL, FP_ALLOW_NULL | FP_ALLOW_UNKNOWN | FP_ALLOW_DYNAMIC};
static const struct func_param formatlist_args = {
    "args", NULL, FP_ALLOW_NULL | FP_ALLOW_UNKNOWN | FP_ALLOW_DYNAMIC};

static const struct func_spec specs[] = {
    {"format",
     1,
     {STR("format")},
     &format_args,
     &tfr_t_string,
     NULL,
     fn_format},
    {"formatlist",
     1,
     {STR("format")},
     &formatlist_args,
     &t_list_string,
     NULL,
     fn_formatlist},
};

const struct func_group funcs_format = {specs, sizeof specs / sizeof *specs};
