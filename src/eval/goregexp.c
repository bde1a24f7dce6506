/*
** Go's regexp/syntax, ported (see goregexp.h): patterns parsed as Go 1.19
** parses them, then written out in RE2's syntax with the same meaning.
*/
#include "eval/goregexp.h"
#include "base/heap.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "base/arena_int.h"
#include "base/strutil.h"

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
** matched by RE2 (src/eval/re2_shim.h), the engine Go's regexp is a port of:
** the same leftmost-first matches and submatches, in linear time.
*/

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

/* Class bodies and the RE2 text grow in the arena (struct sbuf with
** arena set). */
static void cb_put(struct sbuf *b, const char *s, size_t n) {
  sbuf_put(b, s, n);
}

static void cb_str(struct sbuf *b, const char *s) { sbuf_put(b, s, strlen(s)); }

/* One node of Go's syntax.Regexp tree. */
struct rx {
  int op;
  unsigned flags;
  int min, max;    /* RX_REPEAT; max -1 for {n,} */
  int cap;         /* RX_CAP, RX_LPAREN: capture index; 0 for (?:...) */
  int64_t size;    /* compiled size, once known (Go's calcSize) */
  int height;      /* of the tree below (Go's calcHeight) */
  struct sbuf lit; /* RX_LIT: the runes, UTF-8 */
  struct sbuf cls; /* RX_CLASS: the class body, RE2 syntax */
  bool neg;        /* RX_CLASS: [^...] */
  struct rx **sub;
  size_t nsub;
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
  re->lit.arena = re->cls.arena = p->a;
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
  ARENA_GROW(p->a, p->stack, p->n, p->cap, 16);
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
static void cls_range(struct sbuf *b, int32_t lo, int32_t hi) {
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
static void cls_group(struct sbuf *b, const struct rx_group *g, bool fold) {
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
  int32_t *up = heap_alloc((RX_MAX_FOLD + 1) * sizeof *up);
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
static void cls_fold_extra(struct sbuf *b, const char *name, size_t n) {
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
  bool *meets = heap_calloc(RX_MAX_FOLD + 1, 1);
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
static void cls_unicode(struct sbuf *b, const char *name, size_t n, int sign) {
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
                                    struct sbuf *b, bool *neg) {
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
static const char *rx_perl_class(struct rxp *p, const char *s, struct sbuf *b) {
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
                                  struct sbuf *b) {
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
                                 const char *whole, struct sbuf *b) {
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
struct rx *go_rx_parse(struct rxp *p, tfr_arena *a, const char *s, size_t n) {
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

static void rx_emit(struct sbuf *b, const struct rx *re);

/* A literal string: ASCII letters and digits as such, the rest as \x{}. */
static void rx_emit_lit(struct sbuf *b, const struct rx *re) {
  b->too_large |= re->lit.too_large;
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

static void rx_emit_class(struct sbuf *b, const struct rx *re) {
  b->too_large |= re->cls.too_large;
  if (!re->cls.n) { /* e.g. [\P{Any}] */
    cb_str(b, re->neg ? "(?s:.)" : rx_nomatch);
    return;
  }
  cb_str(b, re->neg ? "[^" : "[");
  cb_put(b, re->cls.p, re->cls.n);
  cb_str(b, "]");
}

static void rx_emit_repeat(struct sbuf *b, const struct rx *re) {
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

/* The RE2 text of the ops that have no operands. */
static const char *const rx_fixed[RX_NWORDB + 1] = {
    [RX_NOMATCH] = rx_nomatch, [RX_EMPTY] = "(?:)", [RX_ANYNL] = "[^\\n]",
    [RX_ANY] = "(?s:.)",       [RX_BOL] = "(?m:^)", [RX_EOL] = "(?m:$)",
    [RX_BOT] = "\\A",          [RX_EOT] = "\\z",    [RX_WORDB] = "\\b",
    [RX_NWORDB] = "\\B"};

static void rx_emit(struct sbuf *b, const struct rx *re) {
  bool fold =
      (re->op == RX_LIT || re->op == RX_CLASS) && (re->flags & RXF_FOLD);
  if (fold)
    cb_str(b, "(?i:");
  switch (re->op) {
  case RX_NOMATCH:
  case RX_EMPTY:
  case RX_ANYNL:
  case RX_ANY:
  case RX_BOL:
  case RX_EOL:
  case RX_BOT:
  case RX_EOT:
  case RX_WORDB:
  case RX_NWORDB:
    cb_str(b, rx_fixed[re->op]);
    break;
  case RX_LIT:
    rx_emit_lit(b, re);
    break;
  case RX_CLASS:
    rx_emit_class(b, re);
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

const char *go_rx_re2(tfr_arena *a, const struct rx *re, size_t *n) {
  struct sbuf b = {.arena = a};
  cb_str(&b, "");
  rx_emit(&b, re);
  *n = b.n;
  return b.too_large ? NULL : b.p;
}
