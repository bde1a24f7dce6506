/*
** String functions: chomp endswith format formatlist indent join lower
** regex regexall replace split startswith strcontains strrev substr title
** trim trimprefix trimsuffix trimspace upper basename dirname.
**
** They behave as go-cty v1.12.1's stdlib (string.go, format.go,
** regexp.go) and Terraform's own functions (strcontains, startswith,
** endswith, replace, basename, dirname) do, Go's strings, unicode, fmt,
** math/big and regexp packages included:
**   - "characters" are grapheme clusters where cty says so (strrev,
**     substr, format widths), runes where Go's strings package works on
**     runes (trim, split with an empty separator), bytes elsewhere;
**   - case mapping is Go's simple per-rune mapping (utf8proc's tables);
**   - format's number verbs print the exact binary value as Go's
**     big.Float / big.Int formatters do;
**   - regular expressions are Go's RE2 syntax, parsed here as Go's
**     regexp/syntax parses them (same errors, same limits) and matched by
**     RE2, Go's engine in C++ (leftmost-first, linear time).
** Every result lives in the call's arena; temporary buffers are freed
** before returning.
*/

#include <limits.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "convert.h"
#include "arena_int.h"
#include "funcs.h"
#include "re2_shim.h"
#include "json_out.h"
#include "number.h"
#include "render.h"
#include "strutil.h"

/* ---- small helpers ------------------------------------------------------- */

static const tfr_type t_list_string = {.kind = TFR_LIST, .elem = &tfr_t_string};

/* Start of the last rune of s[0..n), n > 0. */
static size_t last_rune_start(const char *s, size_t n) {
  size_t i = n - 1;
  while (i > 0 && n - i < 4 && ((unsigned char)s[i] & 0xC0) == 0x80)
    i--;
  return i;
}

static void put_rune(struct sbuf *b, int32_t r) {
  utf8proc_uint8_t u[4];
  utf8proc_ssize_t k = utf8proc_encode_char(r, u);
  sbuf_put(b, (const char *)u, (size_t)k);
}

/* Byte length of the grapheme cluster at the start of s (n > 0), as
** textseg.ScanGraphemeClusters finds it. */
static size_t grapheme_len(const char *s, size_t n) {
  int32_t prev, r;
  utf8proc_int32_t state = 0;
  size_t i = str_decode_rune(s, n, &prev);
  while (i < n) {
    size_t k = str_decode_rune(s + i, n - i, &r);
    if (utf8proc_grapheme_break_stateful(prev, r, &state))
      break;
    prev = r;
    i += k;
  }
  return i;
}

static size_t grapheme_count(const char *s, size_t n) {
  size_t c = 0;
  for (size_t i = 0; i < n; i += grapheme_len(s + i, n - i))
    c++;
  return c;
}

/* A string value from an sbuf, which is freed (NFC as cty.StringVal). */
static const tfr_value *sbuf_value(tfr_arena *a, struct sbuf *b) {
  const tfr_value *v = tfr_string(a, b->p ? b->p : "", b->n);
  free(b->p);
  return v;
}

static const tfr_value *str_value(tfr_arena *a, const char *s, size_t n) {
  return tfr_string(a, s, n);
}

/* Go's strings.Index (byte-wise); -1 when absent. */
static long find(const char *s, size_t n, const char *sub, size_t m,
                 size_t from) {
  if (m == 0)
    return from <= n ? (long)from : -1;
  for (size_t i = from; i + m <= n; i++)
    if (s[i] == sub[0] && !memcmp(s + i, sub, m))
      return (long)i;
  return -1;
}

/* A Go string literal (strconv.Quote) in the arena. */
static const char *go_quote(tfr_arena *a, const char *s, size_t n) {
  struct sbuf b = {0};
  sbuf_go_quote(&b, s, n);
  const char *q = tfr_arena_strndup(a, b.p, b.n);
  free(b.p);
  return q;
}

/* Go's %q of a rune (strconv.QuoteRune): 'x', '\'', '\n', '\u00a0'. */
static const char *go_quote_rune(tfr_arena *a, int32_t r) {
  if (r == '\'')
    return "'\\''";
  if (r == '"')
    return "'\"'";
  struct sbuf b = {0};
  struct sbuf q = {0};
  put_rune(&b, r);
  sbuf_go_quote(&q, b.p, b.n);
  const char *s = tfr_arena_printf(a, "'%.*s'", (int)(q.n - 2), q.p + 1);
  free(b.p);
  free(q.p);
  return s;
}

/* gocty.FromCtyValue(v, &int): a whole number within int64. */
static bool to_int(struct fcall *f, const tfr_value *v, int64_t *out) {
  if (num_to_int64(v->num, out))
    return true;
  fcall_error(f, "value must be a whole number, between "
                 "-9223372036854775808 and 9223372036854775807");
  return false;
}

/* ---- Go's unicode predicates --------------------------------------------- */

static bool go_isspace(int32_t r) {
  switch (r) {
  case '\t':
  case '\n':
  case '\v':
  case '\f':
  case '\r':
  case ' ':
  case 0x85:
  case 0xA0:
  case 0x1680:
  case 0x2028:
  case 0x2029:
  case 0x202F:
  case 0x205F:
  case 0x3000:
    return true;
  default:
    return r >= 0x2000 && r <= 0x200A;
  }
}

static bool go_isletter(int32_t r) {
  switch (utf8proc_category(r)) {
  case UTF8PROC_CATEGORY_LU:
  case UTF8PROC_CATEGORY_LL:
  case UTF8PROC_CATEGORY_LT:
  case UTF8PROC_CATEGORY_LM:
  case UTF8PROC_CATEGORY_LO:
    return true;
  default:
    return false;
  }
}

static bool go_isdigit(int32_t r) {
  return r < 0x80 ? (r >= '0' && r <= '9')
                  : utf8proc_category(r) == UTF8PROC_CATEGORY_ND;
}

/* ---- case mapping -------------------------------------------------------- */

/* Map every rune as Go's strings.Map does (upper, lower). */
static const tfr_value *map_runes(struct fcall *f, int32_t (*fn)(int32_t)) {
  const tfr_value *v = f->args[0];
  struct sbuf b = {0};
  sbuf_put(&b, "", 0);
  for (size_t i = 0; i < v->n;) {
    int32_t r;
    i += str_decode_rune(v->s + i, v->n - i, &r);
    put_rune(&b, fn(r));
  }
  return sbuf_value(f->a, &b);
}

/* utf8proc maps ß to ẞ; Go (any version) leaves it alone. */
static int32_t to_upper(int32_t r) {
  return r == 0xDF ? r : utf8proc_toupper(r);
}

static int32_t to_title(int32_t r) {
  return r == 0xDF ? r : utf8proc_totitle(r);
}
static int32_t to_lower(int32_t r) { return utf8proc_tolower(r); }

/* upper(str) */
static const tfr_value *fn_upper(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  return map_runes(f, to_upper);
}

/* lower(str) */
static const tfr_value *fn_lower(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  return map_runes(f, to_lower);
}

/* strings.Title's isSeparator: what starts a new word. */
static bool title_separator(int32_t r) {
  if (r < 0x80)
    return !((r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') ||
             (r >= 'A' && r <= 'Z') || r == '_');
  if (go_isletter(r) || go_isdigit(r))
    return false;
  return go_isspace(r);
}

/* title(str): strings.Title, the first letter of each word in title case. */
static const tfr_value *fn_title(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *v = f->args[0];
  struct sbuf b = {0};
  sbuf_put(&b, "", 0);
  int32_t prev = ' ';
  for (size_t i = 0; i < v->n;) {
    int32_t r;
    i += str_decode_rune(v->s + i, v->n - i, &r);
    put_rune(&b, title_separator(prev) ? to_title(r) : r);
    prev = r;
  }
  return sbuf_value(f->a, &b);
}

/* ---- grapheme functions -------------------------------------------------- */

/* strrev(str): the grapheme clusters in reverse order. */
static const tfr_value *fn_strrev(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *v = f->args[0];
  char *out = tfr_arena_alloc_raw(f->a, v->n + 1);
  size_t pos = v->n;
  for (size_t i = 0; i < v->n;) {
    size_t d = grapheme_len(v->s + i, v->n - i);
    pos -= d;
    memcpy(out + pos, v->s + i, d);
    i += d;
  }
  return str_value(f->a, out, v->n);
}

/* Byte offset after k grapheme clusters from s (or n). */
static size_t skip_graphemes(const char *s, size_t n, int64_t k) {
  size_t i = 0;
  for (int64_t pos = 0; i < n && pos < k; pos++)
    i += grapheme_len(s + i, n - i);
  return i;
}

/*
** substr(str, offset, length), cty's quirks included: a negative offset
** counts from the end, a negative length takes the rest, and a length of
** 0 after a negative offset also takes the rest.
*/
static const tfr_value *fn_substr(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *v = f->args[0];
  int64_t off, len;
  if (!to_int(f, f->args[1], &off) || !to_int(f, f->args[2], &len))
    return NULL;
  if (off < 0)
    off += (int64_t)grapheme_count(v->s, v->n);
  else if (len == 0)
    return str_value(f->a, "", 0);
  size_t start = 0;
  if (off > 0) {
    start = skip_graphemes(v->s, v->n, off);
    if (start >= v->n)
      return str_value(f->a, "", 0);
  }
  if (len < 0)
    return str_value(f->a, v->s + start, v->n - start);
  size_t end = start + skip_graphemes(v->s + start, v->n - start,
                                      len == 0 ? INT64_MAX : len);
  return str_value(f->a, v->s + start, end - start);
}

/* ---- search and trim ----------------------------------------------------- */

/* startswith(str, prefix) */
static const tfr_value *fn_startswith(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *s = f->args[0], *p = f->args[1];
  return tfr_bool(p->n <= s->n && !memcmp(s->s, p->s, p->n));
}

/* endswith(str, suffix) */
static const tfr_value *fn_endswith(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *s = f->args[0], *p = f->args[1];
  return tfr_bool(p->n <= s->n && !memcmp(s->s + s->n - p->n, p->s, p->n));
}

/* strcontains(str, substr) */
static const tfr_value *fn_strcontains(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *s = f->args[0], *p = f->args[1];
  return tfr_bool(find(s->s, s->n, p->s, p->n, 0) >= 0);
}

/* trimprefix(str, prefix) */
static const tfr_value *fn_trimprefix(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *s = f->args[0], *p = f->args[1];
  if (p->n <= s->n && !memcmp(s->s, p->s, p->n))
    return str_value(f->a, s->s + p->n, s->n - p->n);
  return s;
}

/* trimsuffix(str, suffix) */
static const tfr_value *fn_trimsuffix(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *s = f->args[0], *p = f->args[1];
  if (p->n <= s->n && !memcmp(s->s + s->n - p->n, p->s, p->n))
    return str_value(f->a, s->s, s->n - p->n);
  return s;
}

/* Does the rune r occur in set (n bytes)? */
static bool rune_in(int32_t r, const char *set, size_t n) {
  for (size_t i = 0; i < n;) {
    int32_t c;
    i += str_decode_rune(set + i, n - i, &c);
    if (c == r)
      return true;
  }
  return false;
}

/* Trim runes from both ends while cut() says they go (Go's TrimFunc). */
static const tfr_value *trim_by(tfr_arena *a, const tfr_value *v,
                                bool (*cut)(int32_t, const tfr_value *),
                                const tfr_value *set) {
  size_t lo = 0, hi = v->n;
  while (lo < hi) {
    int32_t r;
    size_t k = str_decode_rune(v->s + lo, hi - lo, &r);
    if (!cut(r, set))
      break;
    lo += k;
  }
  while (hi > lo) {
    size_t st = last_rune_start(v->s + lo, hi - lo) + lo;
    int32_t r;
    str_decode_rune(v->s + st, hi - st, &r);
    if (!cut(r, set))
      break;
    hi = st;
  }
  return str_value(a, v->s + lo, hi - lo);
}

static bool cut_space(int32_t r, const tfr_value *set) {
  (void)set;
  return go_isspace(r);
}

static bool cut_set(int32_t r, const tfr_value *set) {
  return rune_in(r, set->s, set->n);
}

/* trimspace(str): strings.TrimSpace, Unicode white space. */
static const tfr_value *fn_trimspace(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  return trim_by(f->a, f->args[0], cut_space, NULL);
}

/* trim(str, cutset): strings.Trim, any rune of cutset at either end. */
static const tfr_value *fn_trim(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  if (!f->args[0]->n || !f->args[1]->n)
    return f->args[0];
  return trim_by(f->a, f->args[0], cut_set, f->args[1]);
}

/* chomp(str): drop every \r and \n at the end (cty's (?:\r\n?|\n)*\z). */
static const tfr_value *fn_chomp(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *v = f->args[0];
  size_t n = v->n;
  while (n && (v->s[n - 1] == '\n' || v->s[n - 1] == '\r'))
    n--;
  return str_value(f->a, v->s, n);
}

/* ---- join, split, replace, indent ---------------------------------------- */

/* join(separator, lists...) */
static const tfr_value *fn_join(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *sep = f->args[0];
  if (f->nargs < 2) {
    fcall_error(f, "at least one list is required");
    return NULL;
  }
  struct sbuf b = {0};
  sbuf_put(&b, "", 0);
  bool first = true;
  for (size_t ai = 1; ai < f->nargs; ai++) {
    const tfr_value *l = f->args[ai];
    for (uint32_t ei = 0; ei < l->n; ei++) {
      const tfr_value *e = l->elems[ei];
      if (e->flags & TFR_V_NULL) {
        free(b.p);
        if (f->nargs > 2)
          fcall_arg_error(f, ai,
                          "element %u of list %zu is null; cannot "
                          "concatenate null values",
                          ei, ai);
        else
          fcall_arg_error(f, ai,
                          "element %u is null; cannot concatenate "
                          "null values",
                          ei);
        return NULL;
      }
      if (!first)
        sbuf_put(&b, sep->s, sep->n);
      sbuf_put(&b, e->s, e->n);
      first = false;
    }
  }
  return sbuf_value(f->a, &b);
}

/* split(separator, str): strings.Split; "" splits into runes. */
static const tfr_value *fn_split(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *sep = f->args[0], *s = f->args[1];
  size_t n = 0, cap = 8;
  const tfr_value **parts = tfr_arena_alloc(f->a, cap * sizeof *parts);
  size_t at = 0;
  for (;;) {
    size_t end;
    if (!sep->n) {
      if (at >= s->n)
        break;
      int32_t r;
      end = at + str_decode_rune(s->s + at, s->n - at, &r);
    } else {
      long k = find(s->s, s->n, sep->s, sep->n, at);
      end = k < 0 ? s->n : (size_t)k;
    }
    if (n == cap) {
      const tfr_value **p = tfr_arena_alloc(f->a, 2 * cap * sizeof *p);
      memcpy(p, parts, n * sizeof *p);
      parts = p;
      cap *= 2;
    }
    parts[n++] = str_value(f->a, s->s + at, end - at);
    if (!sep->n) {
      at = end;
    } else {
      if (end == s->n)
        break;
      at = end + sep->n;
    }
  }
  return tfr_list(f->a, &tfr_t_string, n, parts);
}

/* strings.Replace(s, old, new, -1); an empty old inserts new around
** every rune. */
static const tfr_value *replace_plain(tfr_arena *a, const tfr_value *s,
                                      const tfr_value *old,
                                      const tfr_value *rep) {
  struct sbuf b = {0};
  sbuf_put(&b, "", 0);
  if (!old->n) {
    sbuf_put(&b, rep->s, rep->n);
    for (size_t i = 0; i < s->n;) {
      int32_t r;
      size_t k = str_decode_rune(s->s + i, s->n - i, &r);
      sbuf_put(&b, s->s + i, k);
      sbuf_put(&b, rep->s, rep->n);
      i += k;
    }
    return sbuf_value(a, &b);
  }
  size_t at = 0;
  for (long k; (k = find(s->s, s->n, old->s, old->n, at)) >= 0;) {
    sbuf_put(&b, s->s + at, (size_t)k - at);
    sbuf_put(&b, rep->s, rep->n);
    at = (size_t)k + old->n;
  }
  sbuf_put(&b, s->s + at, s->n - at);
  return sbuf_value(a, &b);
}

/* indent(spaces, str): spaces after every newline. */
static const tfr_value *fn_indent(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  int64_t spaces;
  if (!to_int(f, f->args[0], &spaces))
    return NULL;
  if (spaces < 0) {
    fcall_error(f, "panic in function implementation: strings: negative "
                   "Repeat count");
    return NULL;
  }
  const tfr_value *s = f->args[1];
  size_t lines = 0;
  for (size_t i = 0; i < s->n; i++)
    lines += s->s[i] == '\n';
  if (lines && (uint64_t)spaces > ((uint64_t)1 << 28) / lines) {
    fcall_error(f, "the result would be too large");
    return NULL;
  }
  struct sbuf b = {0};
  sbuf_put(&b, "", 0);
  for (size_t i = 0; i < s->n; i++) {
    sbuf_put(&b, s->s + i, 1);
    if (s->s[i] == '\n')
      for (int64_t k = 0; k < spaces; k++)
        sbuf_put(&b, " ", 1);
  }
  return sbuf_value(f->a, &b);
}

/* ---- basename, dirname --------------------------------------------------- */

/* basename(path): filepath.Base. */
static const tfr_value *fn_basename(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *v = f->args[0];
  if (!v->n)
    return str_value(f->a, ".", 1);
  size_t n = v->n;
  while (n > 0 && v->s[n - 1] == '/')
    n--;
  if (!n)
    return str_value(f->a, "/", 1);
  size_t i = n;
  while (i > 0 && v->s[i - 1] != '/')
    i--;
  return str_value(f->a, v->s + i, n - i);
}

/* dirname(path): filepath.Dir. */
static const tfr_value *fn_dirname(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *v = f->args[0];
  size_t i = v->n;
  while (i > 0 && v->s[i - 1] != '/')
    i--;
  const char *d = str_path_clean(f->a, v->s, i, NULL);
  return str_value(f->a, d, strlen(d));
}

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
  return go_quote(st->a, v->raw, v->rawlen);
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
  FILE *fp = open_memstream(&buf, &len);
  if (!fp)
    tfr_oom();
  if (v->type->kind == TFR_STRING && !(v->flags & TFR_V_NULL))
    json_write_string(fp, v->s, v->n);
  else
    render_json_value(fp, a, v);
  fclose(fp);
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
    if (!tfr_value_is_wholly_known(args[k]))
      return tfr_unknown(f->a, &tfr_t_string);
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

/* ---- regular expressions: Go's regexp/syntax parser ---------------------- */

/*
** Terraform compiles patterns with Go's regexp.Compile (RE2 syntax, Perl
** flags).  We parse them the way Go 1.19's regexp/syntax does, with its
** stack of partial expressions, so that the same patterns are rejected
** with the same Error{Code, Expr}, and the same limits apply (repeat
** counts, nesting, size).  The tree is then written out in RE2 syntax
** with the same meaning: every literal as \x{...}, Go's ASCII
** classes spelled out, ^ $ . by their Go definitions, greediness and
** case folding explicit, captures numbered only (names stay here), and
** matched by RE2 (src/re2_shim.h), the engine Go's regexp is a port of:
** the same leftmost-first matches and submatches, in linear time.
*/

#define RE_ERR_RANGE "invalid character class range"
#define RE_ERR_ESCAPE "invalid escape sequence"
#define RE_ERR_NAMED "invalid named capture"
#define RE_ERR_PERL "invalid or unsupported Perl syntax"
#define RE_ERR_REPEAT_OP "invalid nested repetition operator"
#define RE_ERR_REPEAT_SIZE "invalid repeat count"
#define RE_ERR_UTF8 "invalid UTF-8"
#define RE_ERR_BRACKET "missing closing ]"
#define RE_ERR_PAREN "missing closing )"
#define RE_ERR_REPEAT_ARG "missing argument to repetition operator"
#define RE_ERR_BACKSLASH "trailing backslash at end of expression"
#define RE_ERR_UNEXPECTED "unexpected )"
#define RE_ERR_NESTING "expression nests too deeply"
#define RE_ERR_INTERNAL "regexp/syntax: internal error"

enum {                    /* parse flags, as Go's syntax.Flags */
       RXF_FOLD = 1,      /* (?i) */
       RXF_ONELINE = 2,   /* not (?m): ^ and $ match only at the ends */
       RXF_DOTNL = 4,     /* (?s) */
       RXF_NONGREEDY = 8, /* (?U), or a repeat's own ? */
};

enum rx_op {
  RX_NOMATCH = 1,
  RX_EMPTY,
  RX_LIT,
  RX_CLASS,
  RX_ANYNL,
  RX_ANY,
  RX_BOL,
  RX_EOL,
  RX_BOT,
  RX_EOT,
  RX_WORDB,
  RX_NWORDB,
  RX_CAP,
  RX_STAR,
  RX_PLUS,
  RX_QUEST,
  RX_REPEAT,
  RX_CONCAT,
  RX_ALT,
  RX_PSEUDO = 64,
  RX_LPAREN,
  RX_VBAR /* parse-stack markers */
};

/* A growable byte buffer in the arena (class bodies, the RE2 text). */
struct cbuf {
  tfr_arena *a;
  char *p;
  size_t n, cap;
};

static void cb_put(struct cbuf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 32;
    while (b->n + n + 1 > cap)
      cap *= 2;
    char *p = tfr_arena_alloc_raw(b->a, cap);
    if (b->n)
      memcpy(p, b->p, b->n);
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = '\0';
}

static void cb_str(struct cbuf *b, const char *s) { cb_put(b, s, strlen(s)); }

/* One node of Go's syntax.Regexp tree. */
struct rx {
  int op;
  unsigned flags;
  int min, max;    /* RX_REPEAT; max -1 for {n,} */
  int cap;         /* RX_CAP, RX_LPAREN: capture index; 0 for (?:...) */
  int64_t size;    /* compiled size, once known (Go's calcSize) */
  int height;      /* of the tree below (Go's calcHeight) */
  struct cbuf lit; /* RX_LIT: the runes, UTF-8 */
  struct cbuf cls; /* RX_CLASS: the class body, RE2 syntax */
  bool neg;        /* RX_CLASS: [^...] */
  struct rx **sub;
  size_t nsub;
};

struct rxp {
  tfr_arena *a;
  unsigned flags;
  struct rx **stack;
  size_t n, cap;
  int ncap;
  const char **names; /* names[1..ncap]; NULL when unnamed */
  size_t names_cap;
  const char *whole, *wend;
  const char *code; /* the error: Go's Error.Code ... */
  const char *expr; /* ... and Error.Expr */
  size_t exprlen;
};

static bool rx_fail(struct rxp *p, const char *code, const char *e,
                    const char *eend) {
  p->code = code;
  p->expr = e;
  p->exprlen = (size_t)(eend - e);
  return false;
}

/* Go's nextRune: at the end it gives U+FFFD and does not move. */
static const char *rx_next(struct rxp *p, const char *t, const char *end,
                           int32_t *c) {
  if (t >= end) {
    *c = 0xFFFD;
    return t;
  }
  utf8proc_int32_t r;
  utf8proc_ssize_t k =
      utf8proc_iterate((const utf8proc_uint8_t *)t, end - t, &r);
  if (k <= 0) {
    rx_fail(p, RE_ERR_UTF8, t, end);
    return NULL;
  }
  *c = r;
  return t + k;
}

static struct rx *rx_new(struct rxp *p, int op) {
  struct rx *re = tfr_arena_alloc(p->a, sizeof *re);
  re->op = op;
  re->flags = p->flags;
  re->size = -1;
  re->height = 1;
  re->lit.a = re->cls.a = p->a;
  return re;
}

/* Go's calcSize: the compiled program's size, memoised per node. */
static int64_t rx_size(struct rx *re) {
  if (re->size >= 0 && re->op != RX_LIT)
    return re->size;
  int64_t s = 0, sub = re->nsub ? rx_size(re->sub[0]) : 0;
  switch (re->op) {
  case RX_LIT:
    for (size_t i = 0; i < re->lit.n; i++)
      s += ((unsigned char)re->lit.p[i] & 0xC0) != 0x80;
    break;
  case RX_CAP:
  case RX_STAR:
    s = 2 + sub;
    break;
  case RX_PLUS:
  case RX_QUEST:
    s = 1 + sub;
    break;
  case RX_CONCAT:
  case RX_ALT:
    for (size_t i = 0; i < re->nsub; i++)
      s += rx_size(re->sub[i]);
    if (re->op == RX_ALT && re->nsub > 1)
      s += (int64_t)re->nsub - 1;
    break;
  case RX_REPEAT:
    if (re->max == -1)
      s = re->min == 0 ? 2 + sub : 1 + re->min * sub;
    else
      s = re->max * sub + (re->max - re->min);
    break;
  default:
    break;
  }
  re->size = s < 1 ? 1 : s;
  return re->size;
}

/* Go's maxHeight: a tree deeper than this is "nested too deeply".  Each
** node knows its height once its subexpressions are complete. */
#define RX_MAX_HEIGHT 1000

static bool rx_set_height(struct rxp *p, struct rx *re) {
  re->height = 1;
  for (size_t i = 0; i < re->nsub; i++)
    if (re->sub[i]->height + 1 > re->height)
      re->height = re->sub[i]->height + 1;
  if (re->height > RX_MAX_HEIGHT)
    return rx_fail(p, RE_ERR_NESTING, p->whole, p->wend);
  return true;
}

/* Go's maxSize: 128 MB of 40-byte instructions.  Go's checkLimits: a
** finished node may be neither too deep nor too large. */
#define RX_MAX_SIZE ((128 << 20) / 40)

static bool rx_check_limits(struct rxp *p, struct rx *re) {
  if (!rx_set_height(p, re))
    return false;
  if (rx_size(re) > RX_MAX_SIZE)
    return rx_fail(p, RE_ERR_INTERNAL, p->whole, p->wend);
  return true;
}

/* Go's maybeConcat: merge the top two literals of the stack. */
static void rx_maybe_concat(struct rxp *p) {
  if (p->n < 2)
    return;
  struct rx *r1 = p->stack[p->n - 1], *r2 = p->stack[p->n - 2];
  if (r1->op != RX_LIT || r2->op != RX_LIT ||
      (r1->flags & RXF_FOLD) != (r2->flags & RXF_FOLD))
    return;
  cb_put(&r2->lit, r1->lit.p, r1->lit.n);
  p->n--;
}

static struct rx *rx_push(struct rxp *p, struct rx *re) {
  rx_maybe_concat(p);
  if (p->n == p->cap) {
    size_t cap = p->cap ? 2 * p->cap : 16;
    struct rx **s = tfr_arena_alloc(p->a, cap * sizeof *s);
    if (p->n)
      memcpy(s, p->stack, p->n * sizeof *s);
    p->stack = s;
    p->cap = cap;
  }
  p->stack[p->n++] = re;
  return re;
}

static struct rx *rx_op(struct rxp *p, int op) {
  return rx_push(p, rx_new(p, op));
}

static void rx_literal(struct rxp *p, int32_t r) {
  struct rx *re = rx_new(p, RX_LIT);
  utf8proc_uint8_t u[4];
  utf8proc_ssize_t k = utf8proc_encode_char(r, u);
  if (r >= 0xD800 && r <= 0xDFFF) { /* not encodable: never matches */
    cb_put(&re->lit, "\xED\xA0\x80", 3);
  } else {
    cb_put(&re->lit, (const char *)u, (size_t)k);
  }
  rx_push(p, re);
}

/* Go's repeatIsValid: nested counted repetitions multiply to <= n. */
static bool rx_repeat_valid(const struct rx *re, int n) {
  if (re->op == RX_REPEAT) {
    int m = re->max;
    if (m == 0)
      return true;
    if (m < 0)
      m = re->min;
    if (m > n)
      return false;
    if (m > 0)
      n /= m;
  }
  for (size_t i = 0; i < re->nsub; i++)
    if (!rx_repeat_valid(re->sub[i], n))
      return false;
  return true;
}

/* Go's parser.repeat: apply * + ? {n,m} (before..after is its text) to
** the top of the stack.  Returns the new position, NULL on error. */
static const char *rx_repeat(struct rxp *p, int op, int min, int max,
                             const char *before, const char *after,
                             const char *last) {
  unsigned flags = p->flags;
  if (after < p->wend && *after == '?') {
    after++;
    flags ^= RXF_NONGREEDY;
  }
  if (last) {
    rx_fail(p, RE_ERR_REPEAT_OP, last, after);
    return NULL;
  }
  if (!p->n || p->stack[p->n - 1]->op >= RX_PSEUDO) {
    rx_fail(p, RE_ERR_REPEAT_ARG, before, after);
    return NULL;
  }
  struct rx *re = rx_new(p, op);
  re->min = min;
  re->max = max;
  re->flags = flags;
  re->sub = tfr_arena_alloc(p->a, sizeof *re->sub);
  re->sub[0] = p->stack[p->n - 1];
  re->nsub = 1;
  p->stack[p->n - 1] = re;
  if (!rx_check_limits(p, re))
    return NULL;
  if (op == RX_REPEAT && (min >= 2 || max >= 2) && !rx_repeat_valid(re, 1000)) {
    rx_fail(p, RE_ERR_REPEAT_SIZE, before, after);
    return NULL;
  }
  return after;
}

/* Go's collapse: one node for subs under op, flattening nested ops. */
static struct rx *rx_collapse(struct rxp *p, struct rx **subs, size_t n,
                              int op) {
  if (n == 1)
    return subs[0];
  size_t total = 0;
  for (size_t i = 0; i < n; i++)
    total += subs[i]->op == op ? subs[i]->nsub : 1;
  struct rx *re = rx_new(p, op);
  re->sub = tfr_arena_alloc(p->a, total * sizeof *re->sub);
  for (size_t i = 0; i < n; i++)
    if (subs[i]->op == op)
      for (size_t k = 0; k < subs[i]->nsub; k++)
        re->sub[re->nsub++] = subs[i]->sub[k];
    else
      re->sub[re->nsub++] = subs[i];
  return re;
}

/* Replace the top of the stack above the topmost marker by one node:
** its concatenation (op RX_CONCAT) or alternation (RX_ALT). */
static bool rx_reduce(struct rxp *p, int op) {
  if (op == RX_CONCAT)
    rx_maybe_concat(p);
  size_t i = p->n;
  while (i > 0 && p->stack[i - 1]->op < RX_PSEUDO)
    i--;
  size_t n = p->n - i;
  struct rx **subs = n ? p->stack + i : NULL;
  p->n = i;
  struct rx *re = n ? rx_collapse(p, subs, n, op)
                    : rx_new(p, op == RX_CONCAT ? RX_EMPTY : RX_NOMATCH);
  rx_push(p, re);
  return rx_check_limits(p, re);
}

/* Go's swapVerticalBar (without its class merging, which only saves
** space): move a | marker above the alternative just finished. */
static bool rx_swap_vbar(struct rxp *p) {
  if (p->n >= 2 && p->stack[p->n - 2]->op == RX_VBAR) {
    struct rx *t = p->stack[p->n - 1];
    p->stack[p->n - 1] = p->stack[p->n - 2];
    p->stack[p->n - 2] = t;
    return true;
  }
  return false;
}

static bool rx_vertical_bar(struct rxp *p) {
  if (!rx_reduce(p, RX_CONCAT))
    return false;
  if (!rx_swap_vbar(p))
    rx_op(p, RX_VBAR);
  return true;
}

/* Finish the alternation on the stack (at ')' and at the end). */
static bool rx_close_alt(struct rxp *p) {
  if (!rx_reduce(p, RX_CONCAT))
    return false;
  if (rx_swap_vbar(p))
    p->n--;
  return rx_reduce(p, RX_ALT);
}

static bool rx_right_paren(struct rxp *p) {
  if (!rx_close_alt(p))
    return false;
  if (p->n < 2 || p->stack[p->n - 2]->op != RX_LPAREN)
    return rx_fail(p, RE_ERR_UNEXPECTED, p->whole, p->wend);
  struct rx *r1 = p->stack[p->n - 1], *r2 = p->stack[p->n - 2];
  p->n -= 2;
  p->flags = r2->flags;
  if (!r2->cap) {
    rx_push(p, r1);
    return true;
  }
  r2->op = RX_CAP;
  r2->sub = tfr_arena_alloc(p->a, sizeof *r2->sub);
  r2->sub[0] = r1;
  r2->nsub = 1;
  rx_push(p, r2);
  return rx_check_limits(p, r2);
}

/* A new capture group, named or not. */
static void rx_capture(struct rxp *p, const char *name) {
  p->ncap++;
  if ((size_t)p->ncap >= p->names_cap) {
    size_t cap = p->names_cap ? 2 * p->names_cap : 8;
    const char **nn = tfr_arena_alloc(p->a, cap * sizeof *nn);
    if (p->names_cap)
      memcpy(nn, p->names, p->names_cap * sizeof *nn);
    p->names = nn;
    p->names_cap = cap;
  }
  p->names[p->ncap] = name;
  rx_op(p, RX_LPAREN)->cap = p->ncap;
}

static bool rx_isalnum(int32_t c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
         (c >= 'a' && c <= 'z');
}

static bool rx_valid_name(const char *s, const char *end) {
  if (s == end)
    return false;
  for (; s < end; s++)
    if (*s != '_' && !rx_isalnum((unsigned char)*s))
      return false;
  return true;
}

/* (?P<name>...): a named capture; s is at "(?P<". */
static const char *rx_named_capture(struct rxp *p, const char *s) {
  const char *gt = memchr(s, '>', (size_t)(p->wend - s));
  if (!gt) {
    rx_fail(p, RE_ERR_NAMED, s, p->wend);
    return NULL;
  }
  if (!rx_valid_name(s + 4, gt)) {
    rx_fail(p, RE_ERR_NAMED, s, gt + 1);
    return NULL;
  }
  rx_capture(p, tfr_arena_strndup(p->a, s + 4, (size_t)(gt - s - 4)));
  return gt + 1;
}

/* Go's parsePerlFlags: (?flags), (?flags:...), (?:...), (?P<name>...). */
static const char *rx_perl_flags(struct rxp *p, const char *s) {
  if (p->wend - s > 4 && s[2] == 'P' && s[3] == '<')
    return rx_named_capture(p, s);
  const char *t = s + 2;
  unsigned flags = p->flags;
  int sign = 1;
  bool saw = false;
  while (t < p->wend) {
    int32_t c;
    t = rx_next(p, t, p->wend, &c);
    if (!t)
      return NULL;
    if (c == 'i' || c == 'm' || c == 's' || c == 'U') {
      flags = c == 'i'   ? flags | RXF_FOLD
              : c == 'm' ? flags & ~RXF_ONELINE
              : c == 's' ? flags | RXF_DOTNL
                         : flags | RXF_NONGREEDY;
      saw = true;
    } else if (c == '-' && sign > 0) {
      sign = -1;
      flags = ~flags;
      saw = false;
    } else if ((c == ':' || c == ')') && (sign > 0 || saw)) {
      if (sign < 0)
        flags = ~flags;
      if (c == ':')
        rx_op(p, RX_LPAREN);
      p->flags = flags;
      return t;
    } else {
      break;
    }
  }
  rx_fail(p, RE_ERR_PERL, s, t);
  return NULL;
}

/* Go's parseInt for repeat counts: no leading zeros; -1 when >= 1e8. */
static const char *rx_int(const char *s, const char *end, int *n) {
  if (s >= end || *s < '0' || *s > '9')
    return NULL;
  if (end - s >= 2 && s[0] == '0' && s[1] >= '0' && s[1] <= '9')
    return NULL;
  *n = 0;
  const char *t = s;
  while (t < end && *t >= '0' && *t <= '9')
    t++;
  for (const char *q = s; q < t; q++) {
    if (*n >= 100000000) {
      *n = -1;
      break;
    }
    *n = *n * 10 + (*q - '0');
  }
  return t;
}

/* Go's parseRepeat: {n}, {n,} or {n,m} at s; NULL if it is not one. */
static const char *rx_parse_repeat(const char *s, const char *end, int *min,
                                   int *max) {
  if (s >= end || *s != '{')
    return NULL;
  const char *t = rx_int(s + 1, end, min);
  if (!t || t >= end)
    return NULL;
  if (*t != ',') {
    *max = *min;
  } else if (++t >= end) {
    return NULL;
  } else if (*t == '}') {
    *max = -1;
  } else {
    t = rx_int(t, end, max);
    if (!t)
      return NULL;
    if (*max < 0)
      *min = -1;
  }
  if (t >= end || *t != '}')
    return NULL;
  return t + 1;
}

/* \x{hhhh} after the '{': the rune into *r and the position after the
** '}'; NULL with *stop where Go stopped reading (NULL: bad UTF-8). */
static const char *rx_hex_braces(struct rxp *p, const char *t, int32_t *r,
                                 const char **stop) {
  int nhex = 0;
  *r = 0;
  for (;;) {
    *stop = t;
    if (t >= p->wend)
      return NULL;
    int32_t c;
    t = rx_next(p, t, p->wend, &c);
    *stop = t;
    if (!t)
      return NULL;
    if (c == '}')
      break;
    int v = str_hex_digit(c);
    if (v < 0)
      return NULL;
    *r = *r * 16 + v;
    if (*r > 0x10FFFF)
      return NULL;
    nhex++;
  }
  return nhex ? t : NULL;
}

/* Go's parseEscape: one escaped rune at s ('\\').  NULL on error. */
static const char *rx_escape(struct rxp *p, const char *s, int32_t *r) {
  const char *t = s + 1;
  if (t >= p->wend) {
    rx_fail(p, RE_ERR_BACKSLASH, "", "");
    return NULL;
  }
  int32_t c;
  t = rx_next(p, t, p->wend, &c);
  if (!t)
    return NULL;
  switch (c) {
  case '1':
  case '2':
  case '3':
  case '4':
  case '5':
  case '6':
  case '7':
    if (t >= p->wend || *t < '0' || *t > '7')
      break;
    /* fall through */
  case '0':
    *r = c - '0';
    for (int i = 1; i < 3 && t < p->wend && *t >= '0' && *t <= '7'; i++)
      *r = *r * 8 + (*t++ - '0');
    return t;
  case 'x': {
    if (t >= p->wend)
      break;
    t = rx_next(p, t, p->wend, &c);
    if (!t)
      return NULL;
    if (c == '{') {
      const char *stop, *e = rx_hex_braces(p, t, r, &stop);
      if (e || !stop)
        return e;
      t = stop; /* Go's error text ends where it stopped reading */
      break;
    }
    int32_t c2;
    int x = str_hex_digit(c);
    t = rx_next(p, t, p->wend, &c2);
    if (!t)
      return NULL;
    if (x < 0 || str_hex_digit(c2) < 0)
      break;
    *r = x * 16 + str_hex_digit(c2);
    return t;
  }
  case 'a':
    *r = '\a';
    return t;
  case 'f':
    *r = '\f';
    return t;
  case 'n':
    *r = '\n';
    return t;
  case 'r':
    *r = '\r';
    return t;
  case 't':
    *r = '\t';
    return t;
  case 'v':
    *r = '\v';
    return t;
  default:
    if (c < 0x80 && !rx_isalnum(c)) {
      *r = c;
      return t;
    }
    break;
  }
  rx_fail(p, RE_ERR_ESCAPE, s, t);
  return NULL;
}

/* Go 1.19's unicode.Categories and unicode.Scripts (Unicode 13): the
** names \p{...} accepts, besides "Any". */
static const char *const rx_unicode_names[] = {"C",
                                               "Cc",
                                               "Cf",
                                               "Co",
                                               "Cs",
                                               "L",
                                               "Ll",
                                               "Lm",
                                               "Lo",
                                               "Lt",
                                               "Lu",
                                               "M",
                                               "Mc",
                                               "Me",
                                               "Mn",
                                               "N",
                                               "Nd",
                                               "Nl",
                                               "No",
                                               "P",
                                               "Pc",
                                               "Pd",
                                               "Pe",
                                               "Pf",
                                               "Pi",
                                               "Po",
                                               "Ps",
                                               "S",
                                               "Sc",
                                               "Sk",
                                               "Sm",
                                               "So",
                                               "Z",
                                               "Zl",
                                               "Zp",
                                               "Zs",
                                               "Adlam",
                                               "Ahom",
                                               "Anatolian_Hieroglyphs",
                                               "Arabic",
                                               "Armenian",
                                               "Avestan",
                                               "Balinese",
                                               "Bamum",
                                               "Bassa_Vah",
                                               "Batak",
                                               "Bengali",
                                               "Bhaiksuki",
                                               "Bopomofo",
                                               "Brahmi",
                                               "Braille",
                                               "Buginese",
                                               "Buhid",
                                               "Canadian_Aboriginal",
                                               "Carian",
                                               "Caucasian_Albanian",
                                               "Chakma",
                                               "Cham",
                                               "Cherokee",
                                               "Chorasmian",
                                               "Common",
                                               "Coptic",
                                               "Cuneiform",
                                               "Cypriot",
                                               "Cyrillic",
                                               "Deseret",
                                               "Devanagari",
                                               "Dives_Akuru",
                                               "Dogra",
                                               "Duployan",
                                               "Egyptian_Hieroglyphs",
                                               "Elbasan",
                                               "Elymaic",
                                               "Ethiopic",
                                               "Georgian",
                                               "Glagolitic",
                                               "Gothic",
                                               "Grantha",
                                               "Greek",
                                               "Gujarati",
                                               "Gunjala_Gondi",
                                               "Gurmukhi",
                                               "Han",
                                               "Hangul",
                                               "Hanifi_Rohingya",
                                               "Hanunoo",
                                               "Hatran",
                                               "Hebrew",
                                               "Hiragana",
                                               "Imperial_Aramaic",
                                               "Inherited",
                                               "Inscriptional_Pahlavi",
                                               "Inscriptional_Parthian",
                                               "Javanese",
                                               "Kaithi",
                                               "Kannada",
                                               "Katakana",
                                               "Kayah_Li",
                                               "Kharoshthi",
                                               "Khitan_Small_Script",
                                               "Khmer",
                                               "Khojki",
                                               "Khudawadi",
                                               "Lao",
                                               "Latin",
                                               "Lepcha",
                                               "Limbu",
                                               "Linear_A",
                                               "Linear_B",
                                               "Lisu",
                                               "Lycian",
                                               "Lydian",
                                               "Mahajani",
                                               "Makasar",
                                               "Malayalam",
                                               "Mandaic",
                                               "Manichaean",
                                               "Marchen",
                                               "Masaram_Gondi",
                                               "Medefaidrin",
                                               "Meetei_Mayek",
                                               "Mende_Kikakui",
                                               "Meroitic_Cursive",
                                               "Meroitic_Hieroglyphs",
                                               "Miao",
                                               "Modi",
                                               "Mongolian",
                                               "Mro",
                                               "Multani",
                                               "Myanmar",
                                               "Nabataean",
                                               "Nandinagari",
                                               "New_Tai_Lue",
                                               "Newa",
                                               "Nko",
                                               "Nushu",
                                               "Nyiakeng_Puachue_Hmong",
                                               "Ogham",
                                               "Ol_Chiki",
                                               "Old_Hungarian",
                                               "Old_Italic",
                                               "Old_North_Arabian",
                                               "Old_Permic",
                                               "Old_Persian",
                                               "Old_Sogdian",
                                               "Old_South_Arabian",
                                               "Old_Turkic",
                                               "Oriya",
                                               "Osage",
                                               "Osmanya",
                                               "Pahawh_Hmong",
                                               "Palmyrene",
                                               "Pau_Cin_Hau",
                                               "Phags_Pa",
                                               "Phoenician",
                                               "Psalter_Pahlavi",
                                               "Rejang",
                                               "Runic",
                                               "Samaritan",
                                               "Saurashtra",
                                               "Sharada",
                                               "Shavian",
                                               "Siddham",
                                               "SignWriting",
                                               "Sinhala",
                                               "Sogdian",
                                               "Sora_Sompeng",
                                               "Soyombo",
                                               "Sundanese",
                                               "Syloti_Nagri",
                                               "Syriac",
                                               "Tagalog",
                                               "Tagbanwa",
                                               "Tai_Le",
                                               "Tai_Tham",
                                               "Tai_Viet",
                                               "Takri",
                                               "Tamil",
                                               "Tangut",
                                               "Telugu",
                                               "Thaana",
                                               "Thai",
                                               "Tibetan",
                                               "Tifinagh",
                                               "Tirhuta",
                                               "Ugaritic",
                                               "Vai",
                                               "Wancho",
                                               "Warang_Citi",
                                               "Yezidi",
                                               "Yi",
                                               "Zanabazar_Square"};

/* Go's ASCII classes as code point ranges (perl_groups.go). */
struct rx_group {
  const char *name;
  int sign;
  const char *ranges; /* pairs of bytes lo, hi */
};

static const struct rx_group rx_groups[] = {
    {"\\d", 1, "09"},
    {"\\D", -1, "09"},
    {"\\s", 1, "\t\n\f\r  "},
    {"\\S", -1, "\t\n\f\r  "},
    {"\\w", 1, "09AZ__az"},
    {"\\W", -1, "09AZ__az"},
    {"[:alnum:]", 1, "09AZaz"},
    {"[:^alnum:]", -1, "09AZaz"},
    {"[:alpha:]", 1, "AZaz"},
    {"[:^alpha:]", -1, "AZaz"},
    {"[:ascii:]", 1, "\x01\x7f"},
    {"[:^ascii:]", -1, "\x01\x7f"},
    {"[:blank:]", 1, "\t\t  "},
    {"[:^blank:]", -1, "\t\t  "},
    {"[:cntrl:]", 1, "\x01\x1f\x7f\x7f"},
    {"[:^cntrl:]", -1, "\x01\x1f\x7f\x7f"},
    {"[:digit:]", 1, "09"},
    {"[:^digit:]", -1, "09"},
    {"[:graph:]", 1, "!~"},
    {"[:^graph:]", -1, "!~"},
    {"[:lower:]", 1, "az"},
    {"[:^lower:]", -1, "az"},
    {"[:print:]", 1, " ~"},
    {"[:^print:]", -1, " ~"},
    {"[:punct:]", 1, "!/:@[`{~"},
    {"[:^punct:]", -1, "!/:@[`{~"},
    {"[:space:]", 1, "\t\r  "},
    {"[:^space:]", -1, "\t\r  "},
    {"[:upper:]", 1, "AZ"},
    {"[:^upper:]", -1, "AZ"},
    {"[:word:]", 1, "09AZ__az"},
    {"[:^word:]", -1, "09AZ__az"},
    {"[:xdigit:]", 1, "09AFaf"},
    {"[:^xdigit:]", -1, "09AFaf"},
};

static const struct rx_group *rx_find_group(const char *s, size_t n) {
  for (size_t i = 0; i < sizeof rx_groups / sizeof *rx_groups; i++)
    if (strlen(rx_groups[i].name) == n && !memcmp(rx_groups[i].name, s, n))
      return &rx_groups[i];
  return NULL;
}

/* Append lo-hi to a class body, leaving out the surrogates. */
static void cls_range(struct cbuf *b, int32_t lo, int32_t hi) {
  if (lo <= 0xDFFF && hi >= 0xD800) {
    if (lo < 0xD800)
      cls_range(b, lo, 0xD7FF);
    if (hi > 0xDFFF)
      cls_range(b, 0xE000, hi);
    return;
  }
  char e[40];
  if (lo == hi)
    snprintf(e, sizeof e, "\\x{%X}", (unsigned)lo);
  else
    snprintf(e, sizeof e, "\\x{%X}-\\x{%X}", (unsigned)lo, (unsigned)hi);
  cb_str(b, e);
}

/* An ASCII group ("\x01" stands for NUL, which cannot be in the table).
** A negated group under (?i) leaves out the case-folded group, as Go's
** appendGroup does (and RE2 then adds nothing back): \W is not s, S,
** ſ, k, K or the Kelvin sign. */
static void cls_group(struct cbuf *b, const struct rx_group *g, bool fold) {
  const unsigned char *r = (const unsigned char *)g->ranges;
  size_t n = strlen(g->ranges);
  if (g->sign > 0) {
    for (size_t i = 0; i < n; i += 2)
      cls_range(b, r[i] == 1 ? 0 : r[i], r[i + 1]);
    return;
  }
  bool in[128] = {false};
  for (size_t i = 0; i < n; i += 2)
    for (int c = r[i] == 1 ? 0 : r[i]; c <= r[i + 1]; c++)
      in[c] = true;
  bool longs = false, kelvin = false;
  if (fold) {
    for (int c = 'A'; c <= 'Z'; c++)
      in[c] = in[c + 32] = in[c] || in[c + 32];
    longs = in['s'];
    kelvin = in['k'];
  }
  for (int c = 0; c < 128; c++)
    if (!in[c]) {
      int e = c;
      while (e + 1 < 128 && !in[e + 1])
        e++;
      cls_range(b, c, e);
      c = e;
    }
  int32_t lo = 0x80;
  if (longs) {
    cls_range(b, lo, 0x17E);
    lo = 0x180;
  }
  if (kelvin) {
    cls_range(b, lo, 0x2129);
    lo = 0x212B;
  }
  cls_range(b, lo, 0x10FFFF);
}

/* Go's orbits of simple case folding, from utf8proc's case mappings
** (which agree, but for the Turkish dotted and dotless i).  Returns the
** union-find parents over [0, RX_MAX_FOLD], malloc'd. */
#define RX_MAX_FOLD 0x1E943
static int32_t *fold_orbits(void) {
  int32_t *up = malloc((RX_MAX_FOLD + 1) * sizeof *up);
  if (!up)
    tfr_oom();
  for (int32_t c = 0; c <= RX_MAX_FOLD; c++)
    up[c] = c;
  for (int32_t c = 0x41; c <= RX_MAX_FOLD; c++) {
    int32_t m[3] = {utf8proc_toupper(c), utf8proc_tolower(c),
                    utf8proc_totitle(c)};
    for (int k = 0; k < 3; k++) {
      if (m[k] == c || m[k] > RX_MAX_FOLD || c == 0x130 || c == 0x131 ||
          m[k] == 0x130 || m[k] == 0x131)
        continue;
      int32_t x = c, y = m[k];
      while (up[x] != x)
        x = up[x];
      while (up[y] != y)
        y = up[y];
      if (x != y)
        up[x < y ? y : x] = x < y ? x : y;
    }
  }
  return up;
}

static int32_t orbit_root(int32_t *up, int32_t c) {
  while (up[c] != c)
    c = up[c] = up[up[c]];
  return c;
}

/* Is c in the Unicode category Go calls name (L, Ll, Lt, Lu, M, Mn)? */
static bool in_category(int32_t c, const char *name, size_t n) {
  int k = utf8proc_category(c);
  if (n == 1 && name[0] == 'L')
    return k >= UTF8PROC_CATEGORY_LU && k <= UTF8PROC_CATEGORY_LO;
  if (n == 1 && name[0] == 'M')
    return k >= UTF8PROC_CATEGORY_MN && k <= UTF8PROC_CATEGORY_ME;
  if (n == 2 && name[0] == 'L')
    return k == (name[1] == 'l'   ? UTF8PROC_CATEGORY_LL
                 : name[1] == 'u' ? UTF8PROC_CATEGORY_LU
                                  : UTF8PROC_CATEGORY_LT);
  return k == UTF8PROC_CATEGORY_MN;
}

/* Go's FoldCategory / FoldScript: what (?i) adds to \p{name}, the code
** points outside it whose case-fold orbit meets it. */
static void cls_fold_extra(struct cbuf *b, const char *name, size_t n) {
  static const struct {
    const char *name;
    int32_t cps[4];
  } scripts[] = {{"Common", {0x39C, 0x3BC}},
                 {"Greek", {0xB5, 0x345}},
                 {"Inherited", {0x399, 0x3B9, 0x1FBE}}};
  for (size_t i = 0; i < sizeof scripts / sizeof *scripts; i++)
    if (strlen(scripts[i].name) == n && !memcmp(scripts[i].name, name, n))
      for (int k = 0; k < 4 && scripts[i].cps[k]; k++)
        cls_range(b, scripts[i].cps[k], scripts[i].cps[k]);
  static const char *const cats[] = {"L", "Ll", "Lt", "Lu", "M", "Mn"};
  bool cat = false;
  for (size_t i = 0; i < 6; i++)
    cat |= strlen(cats[i]) == n && !memcmp(cats[i], name, n);
  if (!cat)
    return;
  int32_t *up = fold_orbits();
  bool *meets = calloc(RX_MAX_FOLD + 1, 1);
  if (!meets)
    tfr_oom();
  for (int32_t c = 0x41; c <= RX_MAX_FOLD; c++)
    meets[orbit_root(up, c)] |= in_category(c, name, n);
  for (int32_t c = 0x41, lo = -1; c <= RX_MAX_FOLD + 1; c++) {
    bool add = c <= RX_MAX_FOLD && !in_category(c, name, n) &&
               meets[orbit_root(up, c)];
    if (add && lo < 0)
      lo = c;
    if (!add && lo >= 0) {
      cls_range(b, lo, c - 1);
      lo = -1;
    }
  }
  free(meets);
  free(up);
}

/* \p{name} or \P{name} (sign < 0) in a class body, Go's meaning: "Any"
** is everything (RE2's C is Go's: Cc Cf Co Cs). */
static void cls_unicode(struct cbuf *b, const char *name, size_t n, int sign) {
  if (n == 3 && !memcmp(name, "Any", 3)) {
    if (sign > 0)
      cls_range(b, 0, 0x10FFFF);
    return;
  }

  cb_str(b, sign > 0 ? "\\p{" : "\\P{");
  cb_put(b, name, n);
  cb_str(b, "}");
}

static bool rx_unicode_known(const char *name, size_t n) {
  if (n == 3 && !memcmp(name, "Any", 3))
    return true;
  for (size_t i = 0; i < sizeof rx_unicode_names / sizeof *rx_unicode_names;
       i++)
    if (strlen(rx_unicode_names[i]) == n &&
        !memcmp(rx_unicode_names[i], name, n))
      return true;
  return false;
}

/*
** Go's parseUnicodeClass at s: \pN, \p{Name}, \PN, \p{^Name}.  Appends to
** b and returns the position after it; returns s if there is none here,
** NULL on error.  With neg (outside brackets) a negated class sets *neg
** and appends the positive one, so that (?i) folds before negating.
*/
static const char *rx_unicode_class(struct rxp *p, const char *s,
                                    struct cbuf *b, bool *neg) {
  if (p->wend - s < 2 || s[0] != '\\' || (s[1] != 'p' && s[1] != 'P'))
    return s;
  int sign = s[1] == 'P' ? -1 : 1;
  int32_t c;
  const char *t = rx_next(p, s + 2, p->wend, &c), *name, *nend;
  if (!t)
    return NULL;
  if (c != '{') {
    name = s + 2;
    nend = t;
  } else {
    const char *close = memchr(s, '}', (size_t)(p->wend - s));
    if (!close) {
      rx_fail(p, RE_ERR_RANGE, s, p->wend);
      return NULL;
    }
    t = close + 1;
    name = s + 3;
    nend = close;
  }
  if (name < nend && *name == '^') {
    sign = -sign;
    name++;
  }
  size_t n = (size_t)(nend - name);
  if (!rx_unicode_known(name, n)) {
    rx_fail(p, RE_ERR_RANGE, s, t);
    return NULL;
  }
  if (neg && sign < 0) {
    *neg = true;
    sign = 1;
  }
  cls_unicode(b, name, n, sign);
  if ((p->flags & RXF_FOLD) && sign > 0)
    cls_fold_extra(b, name, n);
  return t;
}

/* A Perl class escape (\d \s \w and negations) at s, or s. */
static const char *rx_perl_class(struct rxp *p, const char *s, struct cbuf *b) {
  if (p->wend - s < 2 || s[0] != '\\')
    return s;
  const struct rx_group *g = rx_find_group(s, 2);
  if (!g)
    return s;
  cls_group(b, g, p->flags & RXF_FOLD);
  return s + 2;
}

/* A POSIX class [:name:] at s, or s; NULL on an unknown name. */
static const char *rx_named_class(struct rxp *p, const char *s,
                                  struct cbuf *b) {
  if (p->wend - s <= 2 || s[0] != '[' || s[1] != ':')
    return s;
  const char *e = NULL;
  for (const char *q = s + 2; q + 1 < p->wend; q++)
    if (q[0] == ':' && q[1] == ']') {
      e = q + 2;
      break;
    }
  if (!e)
    return s;
  const struct rx_group *g = rx_find_group(s, (size_t)(e - s));
  if (!g) {
    rx_fail(p, RE_ERR_RANGE, s, e);
    return NULL;
  }
  cls_group(b, g, p->flags & RXF_FOLD);
  return e;
}

/* Go's parseClassChar: one (possibly escaped) rune of a class. */
static const char *rx_class_char(struct rxp *p, const char *t,
                                 const char *whole, int32_t *r) {
  if (t >= p->wend) {
    rx_fail(p, RE_ERR_BRACKET, whole, p->wend);
    return NULL;
  }
  if (*t == '\\')
    return rx_escape(p, t, r);
  return rx_next(p, t, p->wend, r);
}

/* One item of a class at t: a named, Unicode or Perl class, a rune or a
** range.  Returns the position after it, NULL on error. */
static const char *rx_class_item(struct rxp *p, const char *t,
                                 const char *whole, struct cbuf *b) {
  const char *u = rx_named_class(p, t, b);
  if (u != t)
    return u;
  u = rx_unicode_class(p, t, b, NULL);
  if (u != t)
    return u;
  u = rx_perl_class(p, t, b);
  if (u != t)
    return u;
  int32_t lo, hi;
  const char *rng = t;
  t = rx_class_char(p, t, whole, &lo);
  if (!t)
    return NULL;
  hi = lo;
  if (p->wend - t >= 2 && t[0] == '-' && t[1] != ']') {
    t = rx_class_char(p, t + 1, whole, &hi);
    if (!t)
      return NULL;
    if (hi < lo) {
      rx_fail(p, RE_ERR_RANGE, rng, t);
      return NULL;
    }
  }
  cls_range(b, lo, hi);
  return t;
}

/* Go's parseClass: [...] at s. */
static const char *rx_class(struct rxp *p, const char *s) {
  struct rx *re = rx_new(p, RX_CLASS);
  const char *t = s + 1;
  if (t < p->wend && *t == '^') {
    re->neg = true;
    t++;
  }
  bool first = true;
  while (t >= p->wend || *t != ']' || first) {
    first = false;
    t = rx_class_item(p, t, s, &re->cls);
    if (!t)
      return NULL;
  }
  rx_push(p, re);
  return t + 1;
}

/* A class node for an escape outside brackets: \d, \pL, ...  \D \S \W
** become [^...] so that RE2 folds case before negating, as Go does. */
static const char *rx_escape_class(struct rxp *p, const char *t) {
  struct rx *re = rx_new(p, RX_CLASS);
  const char *u = rx_unicode_class(p, t, &re->cls, &re->neg);
  if (u == t && p->wend - t >= 2 && t[0] == '\\') {
    const struct rx_group *g = rx_find_group(t, 2);
    if (g) {
      struct rx_group pos = *g;
      pos.sign = 1;
      re->neg = g->sign < 0;
      cls_group(&re->cls, &pos, false);
      u = t + 2;
    }
  }
  if (u && u != t)
    rx_push(p, re);
  return u;
}

/* A backslash outside brackets. */
static const char *rx_backslash(struct rxp *p, const char *t) {
  static const struct {
    char c;
    int op;
  } ops[] = {{'A', RX_BOT}, {'b', RX_WORDB}, {'B', RX_NWORDB}, {'z', RX_EOT}};
  if (p->wend - t >= 2) {
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
      if (t[1] == ops[i].c) {
        rx_op(p, ops[i].op);
        return t + 2;
      }
    if (t[1] == 'C') {
      rx_fail(p, RE_ERR_ESCAPE, t, t + 2);
      return NULL;
    }
    if (t[1] == 'Q') {
      const char *lit = t + 2, *e = p->wend;
      for (const char *q = lit; q + 1 < p->wend; q++)
        if (q[0] == '\\' && q[1] == 'E') {
          e = q;
          break;
        }
      while (lit < e) {
        int32_t c;
        lit = rx_next(p, lit, e, &c);
        if (!lit)
          return NULL;
        rx_literal(p, c);
      }
      return e < p->wend ? e + 2 : e;
    }
  }
  const char *u = rx_escape_class(p, t);
  if (u != t)
    return u;
  int32_t c;
  u = rx_escape(p, t, &c);
  if (u)
    rx_literal(p, c);
  return u;
}

/* * + ? or {n,m} at t; *last is the previous repeat operator, if the
** previous item was one.  NULL on error. */
static const char *rx_repeat_op(struct rxp *p, const char *t, const char *last,
                                bool *literal) {
  *literal = false;
  if (*t != '{') {
    int op = *t == '*' ? RX_STAR : *t == '+' ? RX_PLUS : RX_QUEST;
    return rx_repeat(p, op, 0, 0, t, t + 1, last);
  }
  int min, max;
  const char *after = rx_parse_repeat(t, p->wend, &min, &max);
  if (!after) {
    rx_literal(p, '{');
    *literal = true;
    return t + 1;
  }
  if (min < 0 || min > 1000 || max > 1000 || (max >= 0 && min > max)) {
    rx_fail(p, RE_ERR_REPEAT_SIZE, t, after);
    return NULL;
  }
  return rx_repeat(p, RX_REPEAT, min, max, t, after, last);
}

/* One step of Go's parse loop at t: returns the new position. */
static const char *rx_step(struct rxp *p, const char *t, const char **last) {
  const char *repeat = NULL;
  bool lit;
  switch (*t) {
  case '(':
    if (p->wend - t >= 2 && t[1] == '?') {
      t = rx_perl_flags(p, t);
      break;
    }
    rx_capture(p, NULL);
    t++;
    break;
  case '|':
    t = rx_vertical_bar(p) ? t + 1 : NULL;
    break;
  case ')':
    t = rx_right_paren(p) ? t + 1 : NULL;
    break;
  case '^':
    rx_op(p, p->flags & RXF_ONELINE ? RX_BOT : RX_BOL);
    t++;
    break;
  case '$':
    rx_op(p, p->flags & RXF_ONELINE ? RX_EOT : RX_EOL);
    t++;
    break;
  case '.':
    rx_op(p, p->flags & RXF_DOTNL ? RX_ANY : RX_ANYNL);
    t++;
    break;
  case '[':
    t = rx_class(p, t);
    break;
  case '*':
  case '+':
  case '?':
  case '{': {
    const char *before = t;
    t = rx_repeat_op(p, t, *last, &lit);
    if (!lit)
      repeat = before;
    break;
  }
  case '\\':
    t = rx_backslash(p, t);
    break;
  default: {
    int32_t c;
    t = rx_next(p, t, p->wend, &c);
    if (t)
      rx_literal(p, c);
    break;
  }
  }
  *last = repeat;
  return t;
}

/*
** Parse a pattern as Go's syntax.Parse(s, syntax.Perl).  Returns the tree,
** or NULL with p->code / p->expr set.
*/
static struct rx *rx_parse(struct rxp *p, tfr_arena *a, const char *s,
                           size_t n) {
  *p = (struct rxp){.a = a, .flags = RXF_ONELINE, .whole = s, .wend = s + n};
  const char *t = s, *last = NULL;
  while (t && t < p->wend)
    t = rx_step(p, t, &last);
  if (!t || !rx_close_alt(p))
    return NULL;
  if (p->n != 1) {
    rx_fail(p, RE_ERR_PAREN, s, p->wend);
    return NULL;
  }
  return p->stack[0];
}

/* ---- regular expressions: RE2 ------------------------------------------- */

/*
** The tree written out in RE2's syntax, which is Go's: every literal rune
** other than an ASCII letter or digit as \x{...}, Go's ASCII classes spelled
** out, case folding explicit, captures numbered only (names stay here) and
** in Go's order, so that RE2's group i is Go's.
*/
static const char rx_nomatch[] = "[^\\x00-\\x{10FFFF}]";

static void rx_emit(struct cbuf *b, const struct rx *re);

/* A literal string: ASCII letters and digits as such, the rest as \x{}. */
static void rx_emit_lit(struct cbuf *b, const struct rx *re) {
  for (size_t i = 0; i < re->lit.n;) {
    int32_t r;
    char e[16];
    if (re->lit.n - i >= 3 && !memcmp(re->lit.p + i, "\xED\xA0\x80", 3)) {
      cb_str(b, rx_nomatch); /* a surrogate: Go accepts it, nothing matches */
      i += 3;
      continue;
    }
    size_t k = str_decode_rune(re->lit.p + i, re->lit.n - i, &r);
    if (r < 0x80 && rx_isalnum(r)) {
      cb_put(b, re->lit.p + i, 1);
    } else {
      snprintf(e, sizeof e, "\\x{%X}", (unsigned)r);
      cb_str(b, e);
    }
    i += k;
  }
}

static void rx_emit_class(struct cbuf *b, const struct rx *re) {
  if (!re->cls.n) { /* e.g. [\P{Any}] */
    cb_str(b, re->neg ? "(?s:.)" : rx_nomatch);
    return;
  }
  cb_str(b, re->neg ? "[^" : "[");
  cb_put(b, re->cls.p, re->cls.n);
  cb_str(b, "]");
}

static void rx_emit_repeat(struct cbuf *b, const struct rx *re) {
  int min = re->op == RX_PLUS ? 1 : re->op == RX_REPEAT ? re->min : 0;
  int max = re->op == RX_QUEST ? 1 : re->op == RX_REPEAT ? re->max : -1;
  char q[40];
  if (min == 0 && max == -1)
    snprintf(q, sizeof q, "*");
  else if (min == 1 && max == -1)
    snprintf(q, sizeof q, "+");
  else if (min == 0 && max == 1)
    snprintf(q, sizeof q, "?");
  else if (max == min)
    snprintf(q, sizeof q, "{%d}", min);
  else if (max < 0)
    snprintf(q, sizeof q, "{%d,}", min);
  else
    snprintf(q, sizeof q, "{%d,%d}", min, max);
  cb_str(b, "(?:");
  rx_emit(b, re->sub[0]);
  cb_str(b, ")");
  cb_str(b, q);
  if (re->flags & RXF_NONGREEDY)
    cb_str(b, "?");
}

static void rx_emit(struct cbuf *b, const struct rx *re) {
  bool fold =
      (re->op == RX_LIT || re->op == RX_CLASS) && (re->flags & RXF_FOLD);
  if (fold)
    cb_str(b, "(?i:");
  switch (re->op) {
  case RX_NOMATCH:
    cb_str(b, rx_nomatch);
    break;
  case RX_EMPTY:
    cb_str(b, "(?:)");
    break;
  case RX_LIT:
    rx_emit_lit(b, re);
    break;
  case RX_CLASS:
    rx_emit_class(b, re);
    break;
  case RX_ANYNL:
    cb_str(b, "[^\\n]");
    break;
  case RX_ANY:
    cb_str(b, "(?s:.)");
    break;
  case RX_BOL:
    cb_str(b, "(?m:^)");
    break;
  case RX_EOL:
    cb_str(b, "(?m:$)");
    break;
  case RX_BOT:
    cb_str(b, "\\A");
    break;
  case RX_EOT:
    cb_str(b, "\\z");
    break;
  case RX_WORDB:
    cb_str(b, "\\b");
    break;
  case RX_NWORDB:
    cb_str(b, "\\B");
    break;
  case RX_CAP:
    cb_str(b, "(");
    rx_emit(b, re->sub[0]);
    cb_str(b, ")");
    break;
  case RX_CONCAT:
    for (size_t i = 0; i < re->nsub; i++)
      rx_emit(b, re->sub[i]);
    break;
  case RX_ALT:
    cb_str(b, "(?:");
    for (size_t i = 0; i < re->nsub; i++) {
      if (i)
        cb_str(b, "|");
      rx_emit(b, re->sub[i]);
    }
    cb_str(b, ")");
    break;
  default:
    rx_emit_repeat(b, re);
  }
  if (fold)
    cb_str(b, ")");
}

/* A compiled pattern (freed by re_free), Go's capture names, and the spans
** of the last match. */
struct goregex {
  struct re2_shim *re2;
  int ncap;
  const char **names; /* [1..ncap], NULL when unnamed */
  long *span;         /* [2 * (ncap + 1)] */
  bool cached;        /* re2 belongs to the arena's cache */
};

static void re_free(struct goregex *re) {
  if (!re->cached)
    re2_shim_free(re->re2);
}

/*
** Compiled patterns, cached per arena by their text: validation rules
** repeat a handful of patterns thousands of times, and translating and
** compiling one costs far more than matching a name against it.  The
** cache (arena_slot) is the arena's, used by one thread at a time;
** everything in it is malloc'd, so arena_reset leaves it whole.  It stops
** growing at RE_CACHE_MAX patterns or RE_CACHE_BYTES of pattern text.
*/
struct re_entry {
  char *text; /* NULL: an empty slot */
  size_t n;
  uint64_t hash;
  struct re2_shim *re2;
  int ncap;
  const char **names; /* [1..ncap] */
};

struct re_cache {
  struct re_entry *slots;
  size_t cap, n, bytes;
};

enum { RE_CACHE_MAX = 1 << 16, RE_CACHE_BYTES = 64 << 20 };

static void re_cache_destroy(void *ctx) {
  struct re_cache *c = ctx;
  for (size_t i = 0; i < c->cap; i++) {
    struct re_entry *e = &c->slots[i];
    if (!e->text)
      continue;
    free(e->text);
    re2_shim_free(e->re2);
    for (int k = 1; k <= e->ncap; k++)
      free((char *)e->names[k]);
    free(e->names);
  }
  free(c->slots);
  free(c);
}

static struct re_cache *re_cache_of(tfr_arena *a) {
  void **slot = arena_slot(a, ARENA_SLOT_REGEX, re_cache_destroy);
  if (!*slot) {
    struct re_cache *c = calloc(1, sizeof *c);
    if (!c)
      return NULL;
    *slot = c;
  }
  return *slot;
}

/* The entry for pattern s[0..n), or the empty slot where it would go
** (NULL when the cache has no slots). */
static struct re_entry *re_cache_find(struct re_cache *c, const char *s,
                                      size_t n, uint64_t h) {
  if (!c->cap)
    return NULL;
  for (size_t i = (size_t)h & (c->cap - 1);; i = (i + 1) & (c->cap - 1)) {
    struct re_entry *e = &c->slots[i];
    if (!e->text || (e->hash == h && e->n == n && !memcmp(e->text, s, n)))
      return e;
  }
}

static const struct re_entry *re_cache_get(tfr_arena *a, const char *s,
                                           size_t n) {
  struct re_cache *c = re_cache_of(a);
  struct re_entry *e = c ? re_cache_find(c, s, n, str_hash(s, n)) : NULL;
  return e && e->text ? e : NULL;
}

/* Keep a compiled pattern; false (the caller keeps it) when the cache is
** full or memory is short. */
static bool re_cache_put(tfr_arena *a, const char *s, size_t n,
                         const struct goregex *re) {
  struct re_cache *c = re_cache_of(a);
  if (!c || c->n >= RE_CACHE_MAX || c->bytes + n > RE_CACHE_BYTES)
    return false;
  if (2 * (c->n + 1) > c->cap) { /* at most half full */
    size_t cap = c->cap ? 2 * c->cap : 64;
    struct re_entry *slots = calloc(cap, sizeof *slots);
    if (!slots)
      return false;
    struct re_cache grown = {slots, cap, 0, 0};
    for (size_t i = 0; i < c->cap; i++)
      if (c->slots[i].text)
        *re_cache_find(&grown, c->slots[i].text, c->slots[i].n,
                       c->slots[i].hash) = c->slots[i];
    free(c->slots);
    c->slots = slots;
    c->cap = cap;
  }
  uint64_t h = str_hash(s, n);
  struct re_entry *e = re_cache_find(c, s, n, h);
  char *text = malloc(n + 1);
  const char **names = calloc((size_t)re->ncap + 1, sizeof *names);
  bool ok = text && names;
  for (int k = 1; ok && k <= re->ncap; k++)
    if (re->names[k] && !(names[k] = strdup(re->names[k])))
      ok = false;
  if (!ok) {
    for (int k = 1; names && k <= re->ncap; k++)
      free((char *)names[k]);
    free(names);
    free(text);
    return false;
  }
  memcpy(text, s, n);
  text[n] = '\0';
  *e = (struct re_entry){text, n, h, re->re2, re->ncap, names};
  c->n++;
  c->bytes += n;
  return true;
}

/*
** Compile a Go pattern (or take it from the arena's cache).  On a syntax
** error returns false with p's code and expression set (*why NULL); on
** any other failure false with *why set.
*/
static bool re_compile(tfr_arena *a, const char *s, size_t n,
                       struct goregex *re, struct rxp *p, const char **why) {
  *why = NULL;
  const struct re_entry *hit = re_cache_get(a, s, n);
  if (hit) {
    re->re2 = hit->re2;
    re->ncap = hit->ncap;
    re->names = hit->names;
    re->cached = true;
  } else {
    struct rx *tree = rx_parse(p, a, s, n);
    if (!tree)
      return false;
    struct cbuf b = {.a = a};
    cb_str(&b, "");
    rx_emit(&b, tree);
    char err[256];
    re->re2 = re2_shim_new(b.p, b.n, err, sizeof err);
    if (!re->re2) {
      *why = tfr_arena_printf(a, "%s", err);
      return false;
    }
    if (re2_shim_groups(re->re2) != p->ncap) {
      re2_shim_free(re->re2);
      *why = RE_ERR_INTERNAL;
      return false;
    }
    re->ncap = p->ncap;
    re->names = p->names;
    re->cached = re_cache_put(a, s, n, re);
  }
  re->span = tfr_arena_alloc(a, 2 * ((size_t)re->ncap + 1) * sizeof *re->span);
  return true;
}

/* Find the leftmost-first match at or after pos.  1: found (its spans in
** re->span), 0: none, -1: memory ran out (*why set). */
static int re_exec(struct goregex *re, const char *s, size_t n, size_t pos,
                   const char **why) {
  int rc = re2_shim_match(re->re2, s, n, pos, re->span);
  if (rc < 0)
    *why = "out of memory while matching the regular expression";
  return rc;
}

/* Start and end of Go group g of the last match (0: the whole match);
** false if it did not take part. */
static bool re_group(struct goregex *re, int g, size_t *lo, size_t *hi) {
  if (g < 0 || g > re->ncap || re->span[2 * g] < 0)
    return false;
  *lo = (size_t)re->span[2 * g];
  *hi = (size_t)re->span[2 * g + 1];
  return true;
}

/* ---- regex, regexall, replace -------------------------------------------- */

/* Parse the pattern argument; on a syntax error report it as cty's
** regexPatternResultType does and return false. */
static bool pattern_parse(struct fcall *f, struct rxp *p) {
  const tfr_value *pat = f->args[0];
  if (rx_parse(p, f->a, pat->s, pat->n))
    return true;
  fcall_arg_error(f, 0, "invalid regexp pattern: %s in %.*s", p->code,
                  (int)p->exprlen, p->expr);
  return false;
}

/* The distinct capture names, in order of first appearance. */
static size_t distinct_names(const struct rxp *p, const char **out) {
  size_t n = 0;
  for (int i = 1; i <= p->ncap; i++) {
    if (!p->names[i])
      continue;
    size_t k = 0;
    while (k < n && strcmp(out[k], p->names[i]))
      k++;
    if (k == n)
      out[n++] = p->names[i];
  }
  return n;
}

/* cty's regexPatternResultType: no groups: string; unnamed groups: a
** tuple of strings; named groups: an object; both: an error.  A pattern
** compiled before (re_compile's cache) is not parsed again. */
static const tfr_type *pattern_type(struct fcall *f) {
  const tfr_value *pat = f->args[0];
  const struct re_entry *hit = re_cache_get(f->a, pat->s, pat->n);
  struct rxp p;
  if (!hit) { /* compile it now: the call itself, and later ones, need it */
    struct goregex re;
    const char *why;
    if (re_compile(f->a, pat->s, pat->n, &re, &p, &why)) {
      re_free(&re);
      hit = re_cache_get(f->a, pat->s, pat->n);
    }
  }
  if (hit) {
    p.ncap = hit->ncap;
    p.names = hit->names;
  } else if (!pattern_parse(f, &p)) {
    return NULL;
  }
  int unnamed = 0;
  for (int i = 1; i <= p.ncap; i++)
    unnamed += !p.names[i];
  if (!p.ncap)
    return &tfr_t_string;
  if (unnamed && unnamed < p.ncap) {
    fcall_arg_error(f, 0,
                    "invalid regexp pattern: cannot mix both named "
                    "and unnamed capture groups");
    return NULL;
  }
  const tfr_type **ts = tfr_arena_alloc(f->a, (size_t)p.ncap * sizeof *ts);
  for (int i = 0; i < p.ncap; i++)
    ts[i] = &tfr_t_string;
  if (unnamed)
    return tfr_type_tuple(f->a, (size_t)p.ncap, ts);
  const char **names = tfr_arena_alloc(f->a, (size_t)p.ncap * sizeof *names);
  size_t n = distinct_names(&p, names);
  return tfr_type_object(f->a, n, names, ts, NULL);
}

static const tfr_type *ty_regex(struct fcall *f) {
  if (f->args[0]->flags & TFR_V_UNKNOWN)
    return &tfr_t_dynamic;
  return pattern_type(f);
}

static const tfr_type *ty_regexall(struct fcall *f) {
  if (f->args[0]->flags & TFR_V_UNKNOWN)
    return tfr_type_list(f->a, &tfr_t_dynamic);
  const tfr_type *t = pattern_type(f);
  return t ? tfr_type_list(f->a, t) : NULL;
}

/* Compile the pattern argument for an implementation. */
static bool pattern_compile(struct fcall *f, struct goregex *re) {
  struct rxp p;
  const char *why;
  const tfr_value *pat = f->args[0];
  if (re_compile(f->a, pat->s, pat->n, re, &p, &why))
    return true;
  if (why)
    fcall_error(f, "%s", why);
  else
    fcall_arg_error(f, 0, "error parsing pattern: %s in %.*s", p.code,
                    (int)p.exprlen, p.expr);
  return false;
}

/* Group g of the last match as a string value (null if unset). */
static const tfr_value *group_value(tfr_arena *a, struct goregex *re,
                                    const char *s, int g) {
  size_t lo, hi;
  if (!re_group(re, g, &lo, &hi))
    return tfr_null(a, &tfr_t_string);
  return str_value(a, s + lo, hi - lo);
}

/* cty's regexPatternResult: the last match as a value of type t. */
static const tfr_value *match_value(tfr_arena *a, struct goregex *re,
                                    const char *s, const tfr_type *t) {
  if (t->kind == TFR_STRING)
    return group_value(a, re, s, 0);
  const tfr_value **vals = tfr_arena_alloc(a, (size_t)re->ncap * sizeof *vals);
  if (t->kind == TFR_TUPLE) {
    for (int i = 1; i <= re->ncap; i++)
      vals[i - 1] = group_value(a, re, s, i);
    return tfr_tuple(a, (size_t)re->ncap, vals);
  }
  for (int i = 1; i <= re->ncap; i++) { /* a later name wins */
    long k = tfr_type_attr(t, re->names[i], strlen(re->names[i]));
    vals[k] = group_value(a, re, s, i);
  }
  return tfr_object(a, t->n, (const char *const *)t->names, vals);
}

/* regex(pattern, string): the first match. */
static const tfr_value *fn_regex(struct fcall *f, const tfr_type *ret) {
  struct goregex re;
  const tfr_value *s = f->args[1];
  if (!pattern_compile(f, &re))
    return NULL;
  const char *why = NULL;
  int rc = re_exec(&re, s->s, s->n, 0, &why);
  const tfr_value *v = rc > 0 ? match_value(f->a, &re, s->s, ret) : NULL;
  re_free(&re);
  if (rc < 0)
    fcall_error(f, "%s", why);
  else if (!rc)
    fcall_error(f, "pattern did not match any part of the given string");
  return v;
}

/* regexall(pattern, string): every match, as Go's FindAll finds them: an
** empty match right after the previous match does not count. */
static const tfr_value *fn_regexall(struct fcall *f, const tfr_type *ret) {
  struct goregex re;
  const tfr_value *s = f->args[1];
  if (!pattern_compile(f, &re))
    return NULL;
  size_t n = 0, cap = 8, pos = 0, lo = 0, hi = 0;
  long prev_end = -1;
  const tfr_value **out = tfr_arena_alloc(f->a, cap * sizeof *out);
  const char *why = NULL;
  int rc = 0;
  while (pos <= s->n && (rc = re_exec(&re, s->s, s->n, pos, &why)) > 0) {
    re_group(&re, 0, &lo, &hi);
    bool accept = !(hi == pos && (long)lo == prev_end);
    if (hi == pos) {
      int32_t r;
      pos = pos < s->n ? pos + str_decode_rune(s->s + pos, s->n - pos, &r)
                       : s->n + 1;
    } else {
      pos = hi;
    }
    prev_end = (long)hi;
    if (!accept)
      continue;
    if (n == cap) {
      if (tfr_arena_used(f->a) > arena_value_budget()) {
        re_free(&re);
        fcall_error(f, "value too large: the matches take more than this "
                       "run's memory budget (-max-memory)");
        return NULL;
      }
      const tfr_value **o = tfr_arena_alloc(f->a, 2 * cap * sizeof *o);
      memcpy(o, out, n * sizeof *o);
      out = o;
      cap *= 2;
    }
    out[n++] = match_value(f->a, &re, s->s, ret->elem);
  }
  re_free(&re);
  if (rc < 0) {
    fcall_error(f, "%s", why);
    return NULL;
  }
  return tfr_list(f->a, ret->elem, n, out);
}

/* Go's regexp extract: a group reference after '$' in a template,
** $name or ${name}.  Returns the rest, NULL if there is none. */
static const char *tmpl_ref(const char *s, const char *end, const char **name,
                            size_t *len, long *num) {
  bool brace = s < end && *s == '{';
  const char *t = s + brace, *q = t;
  while (q < end) {
    int32_t r;
    size_t k = str_decode_rune(q, (size_t)(end - q), &r);
    if (!go_isletter(r) && !go_isdigit(r) && r != '_')
      break;
    q += k;
  }
  if (q == t || (brace && (q >= end || *q != '}')))
    return NULL;
  *name = t;
  *len = (size_t)(q - t);
  *num = 0;
  for (const char *c = t; c < q; c++) {
    if (*c < '0' || *c > '9' || *num >= 100000000) {
      *num = -1;
      break;
    }
    *num = *num * 10 + (*c - '0');
  }
  if (*t == '0' && q - t > 1)
    *num = -1;
  return brace ? q + 1 : q;
}

/* Go's Regexp.expand: the template with $1, ${name}, $$ filled in. */
static void expand(struct sbuf *b, const tfr_value *tmpl, const char *s,
                   struct goregex *re) {
  const char *t = tmpl->s, *end = tmpl->s + tmpl->n;
  size_t lo, hi;
  while (t < end) {
    const char *d = memchr(t, '$', (size_t)(end - t));
    if (!d)
      break;
    sbuf_put(b, t, (size_t)(d - t));
    t = d + 1;
    if (t < end && *t == '$') {
      sbuf_put(b, "$", 1);
      t++;
      continue;
    }
    const char *name;
    size_t len;
    long num;
    const char *rest = tmpl_ref(t, end, &name, &len, &num);
    if (!rest) {
      sbuf_put(b, "$", 1);
      continue;
    }
    t = rest;
    int g = -1;
    for (int i = 1; num < 0 && i <= re->ncap && g < 0; i++)
      if (re->names[i] && strlen(re->names[i]) == len &&
          !memcmp(re->names[i], name, len) && re_group(re, i, &lo, &hi))
        g = i;
    if (num >= 0 && num <= re->ncap)
      g = (int)num;
    if (g >= 0 && re_group(re, g, &lo, &hi))
      sbuf_put(b, s + lo, hi - lo);
  }
  sbuf_put(b, t, (size_t)(end - t));
}

/* Go's Regexp.ReplaceAllString. */
static const tfr_value *replace_regex(struct fcall *f, struct goregex *re,
                                      const tfr_value *src,
                                      const tfr_value *rep) {
  struct sbuf b = {0};
  sbuf_put(&b, "", 0);
  size_t last = 0, pos = 0, lo = 0, hi = 0;
  const char *why = NULL;
  int rc = 0;
  while (pos <= src->n && (rc = re_exec(re, src->s, src->n, pos, &why)) > 0) {
    re_group(re, 0, &lo, &hi);
    sbuf_put(&b, src->s + last, lo - last);
    if (hi > last || lo == 0)
      expand(&b, rep, src->s, re);
    last = hi;
    int32_t r;
    size_t w =
        pos < src->n ? str_decode_rune(src->s + pos, src->n - pos, &r) : 0;
    pos = pos + w > hi ? pos + w : pos + 1 > hi ? pos + 1 : hi;
  }
  if (rc < 0) {
    free(b.p);
    fcall_error(f, "%s", why);
    return NULL;
  }
  sbuf_put(&b, src->s + last, src->n - last);
  return sbuf_value(f->a, &b);
}

/* replace(str, substr, replace): a /regex/ or a plain substring. */
static const tfr_value *fn_replace(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *s = f->args[0], *sub = f->args[1], *rep = f->args[2];
  if (sub->n < 2 || sub->s[0] != '/' || sub->s[sub->n - 1] != '/')
    return replace_plain(f->a, s, sub, rep);
  struct goregex re;
  struct rxp p;
  const char *why;
  if (!re_compile(f->a, sub->s + 1, sub->n - 2, &re, &p, &why)) {
    if (why)
      fcall_error(f, "%s", why);
    else
      fcall_error(f, "error parsing regexp: %s: `%.*s`", p.code, (int)p.exprlen,
                  p.expr);
    return NULL;
  }
  const tfr_value *v = replace_regex(f, &re, s, rep);
  re_free(&re);
  return v;
}

/* ---- the table ----------------------------------------------------------- */

#define STR(name)                                                              \
  { name, &tfr_t_string, 0 }
#define STR_DYN(name)                                                          \
  { name, &tfr_t_string, FP_ALLOW_DYNAMIC }
#define NUM_DYN(name)                                                          \
  { name, &tfr_t_number, FP_ALLOW_DYNAMIC }

static const struct func_param format_args = {"args", NULL, FP_ALLOW_NULL};
static const struct func_param formatlist_args = {
    "args", NULL, FP_ALLOW_NULL | FP_ALLOW_UNKNOWN};
static const struct func_param join_lists = {"lists", &t_list_string, 0};

static const struct func_spec specs[] = {
    {"basename", 1, {STR("path")}, NULL, &tfr_t_string, NULL, fn_basename},
    {"chomp", 1, {STR("str")}, NULL, &tfr_t_string, NULL, fn_chomp},
    {"dirname", 1, {STR("path")}, NULL, &tfr_t_string, NULL, fn_dirname},
    {"endswith",
     2,
     {STR("str"), STR("suffix")},
     NULL,
     &tfr_t_bool,
     NULL,
     fn_endswith},
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
    {"indent",
     2,
     {{"spaces", &tfr_t_number, 0}, STR("str")},
     NULL,
     &tfr_t_string,
     NULL,
     fn_indent},
    {"join", 1, {STR("separator")}, &join_lists, &tfr_t_string, NULL, fn_join},
    {"lower", 1, {STR_DYN("str")}, NULL, &tfr_t_string, NULL, fn_lower},
    {"regex",
     2,
     {STR("pattern"), STR("string")},
     NULL,
     NULL,
     ty_regex,
     fn_regex},
    {"regexall",
     2,
     {STR("pattern"), STR("string")},
     NULL,
     NULL,
     ty_regexall,
     fn_regexall},
    {"replace",
     3,
     {STR("str"), STR("substr"), STR("replace")},
     NULL,
     &tfr_t_string,
     NULL,
     fn_replace},
    {"split",
     2,
     {STR("separator"), STR("str")},
     NULL,
     &t_list_string,
     NULL,
     fn_split},
    {"startswith",
     2,
     {STR("str"), STR("prefix")},
     NULL,
     &tfr_t_bool,
     NULL,
     fn_startswith},
    {"strcontains",
     2,
     {STR("str"), STR("substr")},
     NULL,
     &tfr_t_bool,
     NULL,
     fn_strcontains},
    {"strrev", 1, {STR_DYN("str")}, NULL, &tfr_t_string, NULL, fn_strrev},
    {"substr",
     3,
     {STR_DYN("str"), NUM_DYN("offset"), NUM_DYN("length")},
     NULL,
     &tfr_t_string,
     NULL,
     fn_substr},
    {"title", 1, {STR("str")}, NULL, &tfr_t_string, NULL, fn_title},
    {"trim",
     2,
     {STR("str"), STR("cutset")},
     NULL,
     &tfr_t_string,
     NULL,
     fn_trim},
    {"trimprefix",
     2,
     {STR("str"), STR("prefix")},
     NULL,
     &tfr_t_string,
     NULL,
     fn_trimprefix},
    {"trimspace", 1, {STR("str")}, NULL, &tfr_t_string, NULL, fn_trimspace},
    {"trimsuffix",
     2,
     {STR("str"), STR("suffix")},
     NULL,
     &tfr_t_string,
     NULL,
     fn_trimsuffix},
    {"upper", 1, {STR_DYN("str")}, NULL, &tfr_t_string, NULL, fn_upper},
};

const struct func_group funcs_string = {specs, sizeof specs / sizeof *specs};
