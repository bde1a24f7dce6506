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

#include "values/convert.h"
#include "base/arena_int.h"
#include "eval/funcs.h"
#include "eval/funcs_string_int.h"
#include "eval/goregexp.h"
#include "eval/re2_shim.h"
#include "base/json_out.h"
#include "values/number.h"
#include "base/strutil.h"
#include "base/heap.h"

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

size_t grapheme_count(const char *s, size_t n) {
  size_t c = 0;
  for (size_t i = 0; i < n; i += grapheme_len(s + i, n - i))
    c++;
  return c;
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

/* Go's %q of a rune (strconv.QuoteRune): 'x', '\'', '\n', '\u00a0'. */
const char *go_quote_rune(tfr_arena *a, int32_t r) {
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
  if (str_go_isletter(r) || go_isdigit(r))
    return false;
  return str_go_isspace(r);
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
size_t skip_graphemes(const char *s, size_t n, int64_t k) {
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
  const tfr_value *s = f->args[0], *p = f->args[1];
  /* (an unknown string without a known prefix has no text at all) */
  bool has = !p->n || (p->n <= s->n && !memcmp(s->s, p->s, p->n));
  /* its str takes an unknown string, whose known prefix may decide
  ** (internal/lang/funcs/string.go:26-28 and 40-58 in Terraform) */
  if ((s->flags & TFR_V_UNKNOWN) && p->n && !has && s->n < p->n)
    return tfr_unknown(f->a, ret);
  return tfr_bool(has);
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
  return str_go_isspace(r);
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
  /* a list holding an unknown string makes the result unknown, before
  ** any null element is looked at (cty/function/stdlib/string.go:256-261
  ** in go-cty v1.18.1) */
  for (size_t ai = 1; ai < f->nargs; ai++)
    if (!tfr_value_is_wholly_known(f->args[ai]))
      return tfr_unknown(f->a, &tfr_t_string);
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

/* ---- regular expressions ---------------------------------------------- */

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
  const struct re_entry *last; /* the last one found: rules of one text ask
                                  for one pattern, twice a rule (its type,
                                  its match), with no hash then */
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
      free(UNCONST(char *, e->names[k]));
    free(e->names);
  }
  free(c->slots);
  free(c);
}

static struct re_cache *re_cache_of(tfr_arena *a) {
  void **slot = arena_slot(a, ARENA_SLOT_REGEX, re_cache_destroy);
  if (!*slot) {
    *slot = heap_calloc(1, sizeof(struct re_cache));
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
  const struct re_entry *last = c->last;
  if (last && last->n == n && !memcmp(last->text, s, n))
    return last;
  struct re_entry *e = re_cache_find(c, s, n, str_hash(s, n));
  if (!e || !e->text)
    return NULL;
  c->last = e;
  return e;
}

/* Keep a compiled pattern; false (the caller keeps it) when the cache is
** full. */
static bool re_cache_put(tfr_arena *a, const char *s, size_t n,
                         const struct goregex *re) {
  struct re_cache *c = re_cache_of(a);
  if (c->n >= RE_CACHE_MAX || c->bytes + n > RE_CACHE_BYTES)
    return false;
  if (2 * (c->n + 1) > c->cap) { /* at most half full */
    size_t cap = c->cap ? 2 * c->cap : 64;
    struct re_entry *slots = heap_calloc(cap, sizeof *slots);
    struct re_cache grown = {slots, cap, 0, 0, NULL};
    for (size_t i = 0; i < c->cap; i++)
      if (c->slots[i].text)
        *re_cache_find(&grown, c->slots[i].text, c->slots[i].n,
                       c->slots[i].hash) = c->slots[i];
    free(c->slots);
    c->slots = slots;
    c->cap = cap;
    c->last = NULL; /* it was in the slots freed */
  }
  uint64_t h = str_hash(s, n);
  struct re_entry *e = re_cache_find(c, s, n, h);
  char *text = heap_alloc(n + 1);
  const char **names = heap_calloc((size_t)re->ncap + 1, sizeof *names);
  for (int k = 1; k <= re->ncap; k++)
    if (re->names[k])
      names[k] = heap_strdup(re->names[k]);
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
    struct rx *tree = go_rx_parse(p, a, s, n);
    if (!tree)
      return false;
    size_t re2_len = 0;
    const char *re2_text = go_rx_re2(a, tree, &re2_len);
    if (!re2_text) {
      *why = "the pattern is larger than this run's memory budget";
      return false;
    }
    char err[256];
    re->re2 = re2_shim_new(re2_text, re2_len, err, sizeof err);
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
** re->span), 0: none (memory running out ends in tfr_oom, in the shim). */
static int re_exec(struct goregex *re, const char *s, size_t n, size_t pos) {
  return re2_shim_match(re->re2, s, n, pos, re->span);
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
  if (go_rx_parse(p, f->a, pat->s, pat->n))
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
  int rc = re_exec(&re, s->s, s->n, 0);
  const tfr_value *v = rc > 0 ? match_value(f->a, &re, s->s, ret) : NULL;
  re_free(&re);
  if (!rc)
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
  while (pos <= s->n && re_exec(&re, s->s, s->n, pos) > 0) {
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
        fcall_ours(f);
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
    if (!str_go_isletter(r) && !go_isdigit(r) && r != '_')
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
  while (pos <= src->n && re_exec(re, src->s, src->n, pos) > 0) {
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

#define STR_DYN(name)                                                          \
  { name, &tfr_t_string, FP_ALLOW_DYNAMIC }
#define NUM_DYN(name)                                                          \
  { name, &tfr_t_number, FP_ALLOW_DYNAMIC }

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
     {{"str", &tfr_t_string, FP_ALLOW_UNKNOWN}, STR("prefix")},
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
