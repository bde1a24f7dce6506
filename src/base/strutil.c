/*
** Small string helpers shared by several modules.
*/
#include "base/arena_int.h"
#include "base/strutil.h"
#include "base/heap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

size_t str_distance(const char *a, size_t na, const char *b, size_t nb) {
  size_t row[64];
  if (na > 62 || nb > 62)
    return 99;
  for (size_t j = 0; j <= nb; j++)
    row[j] = j;
  for (size_t i = 1; i <= na; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= nb; j++) {
      size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
      if (row[j - 1] + 1 < best)
        best = row[j - 1] + 1;
      if (up + 1 < best)
        best = up + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[nb];
}

struct near_key str_near_key(const char *s, size_t n) {
  struct near_key k = {s, n, 0};
  for (size_t i = 0; i < n; i++)
    k.classes |= UINT64_C(1) << ((unsigned char)s[i] & 63);
  return k;
}

/* Whether x has at least 3 bits set. */
static bool three_bits(uint64_t x) {
  int n = 0;
  for (; x && n < 3; n++)
    x &= x - 1;
  return n == 3;
}

bool str_near_keys(const struct near_key *a, const struct near_key *b) {
  if ((a->n > b->n ? a->n - b->n : b->n - a->n) >= 3 ||
      three_bits(a->classes & ~b->classes) ||
      three_bits(b->classes & ~a->classes))
    return false;
  return str_distance(a->s, a->n, b->s, b->n) < 3;
}

const char *str_suggest(const char *given, const char *const *names, size_t n) {
  const char *best = NULL;
  size_t below = 3, ng = strlen(given);
  for (size_t i = 0; i < n; i++) {
    size_t d = str_distance(given, ng, names[i], strlen(names[i]));
    if (d < below)
      below = d, best = names[i];
  }
  return best;
}

/* sbuf_limit_push's limit and whether a buffer reached it, per thread. */
static _Thread_local struct sbuf_limit cur_limit;

struct sbuf_limit sbuf_limit_push(size_t limit) {
  struct sbuf_limit prev = cur_limit;
  cur_limit = (struct sbuf_limit){limit, false};
  return prev;
}

bool sbuf_limit_pop(struct sbuf_limit prev) {
  bool hit = cur_limit.hit;
  cur_limit = prev;
  return hit;
}

bool sbuf_reserve(struct sbuf *b, size_t n) {
  if (b->too_large || (b->limit && (n > b->limit || b->n > b->limit - n))) {
    b->too_large = true;
    return false;
  }
  if (cur_limit.limit && (cur_limit.hit || n + 1 > cur_limit.limit - b->n ||
                          b->n > cur_limit.limit)) {
    cur_limit.hit = true;
    b->too_large = true;
    return false;
  }
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 64;
    while (b->n + n + 1 > cap)
      cap *= 2;
    char *p;
    if (b->arena) {
      p = tfr_arena_alloc_raw(b->arena, cap);
      if (b->n)
        memcpy(p, b->p, b->n);
    } else {
      p = heap_realloc(b->p, cap);
    }
    b->p = p;
    b->cap = cap;
  }
  return true;
}

void sbuf_put(struct sbuf *b, const char *s, size_t n) {
  if (!sbuf_reserve(b, n))
    return;
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = '\0';
}

void sbuf_str(struct sbuf *b, const char *s) { sbuf_put(b, s, strlen(s)); }

/* Go's unicode.IsPrint for a code point above ASCII. */
bool go_isprint(int32_t r) {
  switch (utf8proc_category(r)) {
  case UTF8PROC_CATEGORY_ZS:
  case UTF8PROC_CATEGORY_ZL:
  case UTF8PROC_CATEGORY_ZP:
  case UTF8PROC_CATEGORY_CC:
  case UTF8PROC_CATEGORY_CF:
  case UTF8PROC_CATEGORY_CS:
  case UTF8PROC_CATEGORY_CO:
  case UTF8PROC_CATEGORY_CN:
    return false;
  default:
    return true;
  }
}

const char *str_escape(int32_t c, bool go) {
  switch (c) {
  case '"':
    return "\\\"";
  case '\\':
    return "\\\\";
  case '\n':
    return "\\n";
  case '\r':
    return "\\r";
  case '\t':
    return "\\t";
  case '\a':
    return go ? "\\a" : NULL;
  case '\b':
    return go ? "\\b" : NULL;
  case '\f':
    return go ? "\\f" : NULL;
  case '\v':
    return go ? "\\v" : NULL;
  default:
    return NULL;
  }
}

/* Go's %q (strconv.Quote) of n bytes. */
void sbuf_go_quote(struct sbuf *b, const char *s, size_t n) {
  char e[16];
  sbuf_put(b, "\"", 1);
  for (size_t i = 0; i < n;) {
    utf8proc_int32_t r;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
                                          (utf8proc_ssize_t)(n - i), &r);
    if (k <= 0) { /* invalid UTF-8 */
      snprintf(e, sizeof e, "\\x%02x", (unsigned char)s[i]);
      sbuf_str(b, e);
      i++;
      continue;
    }
    const char *esc = str_escape(r, true);
    if (esc) {
      sbuf_str(b, esc);
    } else if (r < 0x80 ? (r >= 0x20 && r < 0x7f) : go_isprint(r)) {
      sbuf_put(b, s + i, (size_t)k);
    } else {
      snprintf(e, sizeof e,
               r < 0x80      ? "\\x%02x"
               : r < 0x10000 ? "\\u%04x"
                             : "\\U%08x",
               (unsigned)r);
      sbuf_str(b, e);
    }
    i += (size_t)k;
  }
  sbuf_put(b, "\"", 1);
}

static size_t strhash(const char *s) { return (size_t)str_hash(s, strlen(s)); }

void strmap_free(struct strmap *m) {
  free(m->e);
  *m = (struct strmap){0};
}

/* The slot of key (hash h), or the empty slot where it would go (cap >
** 0). */
static size_t strmap_slot(const struct strmap *m, const char *key, uint32_t h) {
  size_t i = (size_t)h & (m->cap - 1);
  while (m->e[i].key && (m->e[i].hash != h || strcmp(m->e[i].key, key)))
    i = (i + 1) & (m->cap - 1);
  return i;
}

bool strmap_get(const struct strmap *m, const char *key, size_t *val) {
  if (!m->cap)
    return false;
  size_t i = strmap_slot(m, key, (uint32_t)strhash(key));
  if (!m->e[i].key)
    return false;
  *val = m->e[i].val;
  return true;
}

/* Rehash into cap slots (a power of two, more than twice the keys). */
static void strmap_resize(struct strmap *m, size_t cap) {
  struct strmap old = *m;
  m->cap = cap;
  m->e = heap_calloc(m->cap, sizeof *m->e);
  for (size_t i = 0; i < old.cap; i++)
    if (old.e[i].key) {
      size_t k = (size_t)old.e[i].hash & (m->cap - 1); /* keys distinct */
      while (m->e[k].key)
        k = (k + 1) & (m->cap - 1);
      m->e[k] = old.e[i];
    }
  free(old.e);
}

static void strmap_grow(struct strmap *m) {
  strmap_resize(m, m->cap ? m->cap * 2 : 64);
}

/* The slot for key (hash h), made room for. */
static size_t strmap_room(struct strmap *m, const char *key, uint32_t h) {
  if (2 * (m->n + 1) > m->cap)
    strmap_grow(m);
  return strmap_slot(m, key, h);
}

void strmap_put(struct strmap *m, const char *key, size_t val) {
  uint32_t h = (uint32_t)strhash(key);
  size_t i = strmap_room(m, key, h);
  m->n += !m->e[i].key;
  m->e[i] = (struct strmap_entry){key, h, (uint32_t)val};
}

bool strmap_add(struct strmap *m, const char *key, size_t val, size_t *old) {
  uint32_t h = (uint32_t)strhash(key);
  size_t i = strmap_room(m, key, h);
  if (m->e[i].key) {
    *old = m->e[i].val;
    return false;
  }
  m->e[i] = (struct strmap_entry){key, h, (uint32_t)val};
  m->n++;
  return true;
}

void strmap_reserve(struct strmap *m, size_t n) {
  size_t cap = m->cap ? m->cap : 64;
  while (2 * n > cap)
    cap *= 2;
  if (cap > m->cap) /* at once: no table of every size on the way */
    strmap_resize(m, cap);
}

void strmap_del(struct strmap *m, const char *key) {
  if (!m->cap)
    return;
  size_t i = strmap_slot(m, key, (uint32_t)strhash(key)), mask = m->cap - 1;
  if (!m->e[i].key)
    return;
  /* backward-shift deletion: a later key of the run moves into the gap
  ** unless its home slot lies after the gap (cyclically) */
  for (size_t j = (i + 1) & mask; m->e[j].key; j = (j + 1) & mask) {
    size_t home = (size_t)m->e[j].hash & mask;
    bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
    if (stays)
      continue;
    m->e[i] = m->e[j];
    i = j;
  }
  m->e[i].key = NULL;
  m->n--;
}

void bytemap_free(struct bytemap *m) {
  free(m->e);
  *m = (struct bytemap){0};
}

/* The slot of the key, or the empty slot where it would go (cap > 0). */
static size_t bytemap_slot(const struct bytemap *m, const char *key,
                           size_t len) {
  size_t i = str_hash(key, len) & (m->cap - 1);
  while (m->e[i].val &&
         (m->e[i].len != len || memcmp(m->e[i].key, key, len) != 0))
    i = (i + 1) & (m->cap - 1);
  return i;
}

void *bytemap_get(const struct bytemap *m, const char *key, size_t len) {
  return m->cap ? m->e[bytemap_slot(m, key, len)].val : NULL;
}

void bytemap_put(struct bytemap *m, const char *key, size_t len, void *val) {
  if (2 * (m->n + 1) > m->cap) {
    struct bytemap old = *m;
    m->cap = old.cap ? 2 * old.cap : 64;
    m->e = heap_calloc(m->cap, sizeof *m->e);
    for (size_t i = 0; i < old.cap; i++)
      if (old.e[i].val)
        m->e[bytemap_slot(m, old.e[i].key, old.e[i].len)] = old.e[i];
    free(old.e);
  }
  size_t i = bytemap_slot(m, key, len);
  m->n += !m->e[i].val;
  m->e[i] = (struct bytemap_entry){key, len, val};
}

bool str_ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

size_t str_graphemes(const char *s, size_t n) {
  /* ASCII text: every byte starts a cluster except the LF of a CR LF
  ** (the common case: line/column positions of configuration files). */
  size_t k = 0, crlf = 0;
  while (k < n && (unsigned char)s[k] < 0x80) {
    if (s[k] == '\n' && k && s[k - 1] == '\r')
      crlf++;
    k++;
  }
  if (k == n)
    return n - crlf;
  size_t count = 0;
  utf8proc_int32_t prev = -1, state = 0;
  for (size_t i = 0; i < n;) {
    utf8proc_int32_t cp = 0xFFFD;
    utf8proc_ssize_t step = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
                                             (utf8proc_ssize_t)(n - i), &cp);
    if (step <= 0) {
      step = 1;
      cp = 0xFFFD;
    }
    if (prev < 0 || utf8proc_grapheme_break_stateful(prev, cp, &state))
      count++;
    prev = cp;
    i += (size_t)step;
  }
  return count;
}

size_t str_decode_rune(const char *s, size_t n, int32_t *r) {
  utf8proc_int32_t cp;
  utf8proc_ssize_t k =
      utf8proc_iterate((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, &cp);
  if (k <= 0) {
    *r = 0xFFFD;
    return 1;
  }
  *r = cp;
  return (size_t)k;
}

bool str_go_isspace(int32_t r) {
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

void str_go_trim_space(const char **s, size_t *n) {
  size_t lead = 0, last = 0;
  bool seen = false;
  for (size_t i = 0; i < *n;) {
    int32_t r;
    size_t k = str_decode_rune(*s + i, *n - i, &r);
    if (!str_go_isspace(r)) {
      if (!seen)
        lead = i;
      seen = true;
      last = i + k;
    }
    i += k;
  }
  if (!seen)
    lead = last = *n;
  *s += lead;
  *n = last - lead;
}

/* Where the rune that ends at byte end starts (0 if none). */
static size_t rune_start(const char *s, size_t end) {
  size_t i = end;
  while (i > 0 && end - i < 4 && ((unsigned char)s[i - 1] & 0xC0) == 0x80)
    i--;
  return i > 0 ? i - 1 : 0;
}

/* x/text's NFC "inert" rune: a starter that combines with nothing that
** may follow (no canonical composition begins with it, Hangul's
** algorithmic ones included). */
static bool nfc_inert(int32_t r) {
  const utf8proc_property_t *p = utf8proc_get_property(r);
  if (p->combining_class != 0)
    return false;
  if (r >= 0x1100 && r <= 0x1112) /* Hangul L: composes with a V */
    return false;
  if (r >= 0xAC00 && r <= 0xD7A3 && (r - 0xAC00) % 28 == 0)
    return false; /* Hangul LV: composes with a T */
  /* utf8proc's comb_index: UINT16_MAX when the rune takes part in no
  ** composition (below 0x8000 it may begin one, above it end one) */
  return p->comb_index == UINT16_MAX;
}

/* cty's sequenceMustEndGraphemeCluster: one rune that no grapheme rule
** joins to what follows. */
static bool ends_cluster(int32_t r) {
  return r < 0x80 && strchr("-_:;/\\,.(){}[]|?!~ \t@#$%^&*+\"'", (int)r) &&
         r != 0;
}

size_t str_safe_prefix(const char *s, size_t n) {
  if (!n)
    return 0;
  /* norm.NFC.LastBoundary: an incomplete rune at the end, or a last rune
  ** that may combine with what follows, cuts the prefix back */
  size_t last = rune_start(s, n);
  int32_t r;
  size_t k = str_decode_rune(s + last, n - last, &r);
  size_t end = n;
  if (last + k != n || (r == 0xFFFD && k == 1)) {
    end = last; /* an incomplete rune: the boundary before it */
    if (!end)
      return 0;
    last = rune_start(s, end);
    k = str_decode_rune(s + last, end - last, &r);
  }
  if (!nfc_inert(r)) {
    /* back to the last starter (the boundary before it) */
    size_t i = last;
    for (;;) {
      if (utf8proc_get_property(r)->combining_class == 0)
        return i;
      if (!i)
        return end == n ? 0 : end;
      i = rune_start(s, i);
      str_decode_rune(s + i, end - i, &r);
    }
  }
  if (end != n)
    return end;
  /* the last grapheme cluster may still grow, unless it is one rune that
  ** ends a cluster whatever follows */
  size_t cluster = 0, count = 0;
  utf8proc_int32_t state = 0, prev = -1;
  for (size_t i = 0; i < n;) {
    int32_t c;
    size_t w = str_decode_rune(s + i, n - i, &c);
    if (prev < 0 || utf8proc_grapheme_break_stateful(prev, c, &state)) {
      cluster = i;
      count = 0;
    }
    count++;
    prev = c;
    i += w;
  }
  return count == 1 && ends_cluster(r) ? n : cluster;
}

size_t str_runes(const char *s, size_t n) {
  size_t count = 0;
  for (size_t i = 0; i < n; count++) {
    int32_t r;
    i += str_decode_rune(s + i, n - i, &r);
  }
  return count;
}

bool str_go_isletter(int32_t r) {
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

/* Unicode's ID_Start and ID_Continue, by general category. */
static bool id_start(int32_t r) {
  return str_go_isletter(r) || utf8proc_category(r) == UTF8PROC_CATEGORY_NL;
}

static bool id_continue(int32_t r) {
  switch (utf8proc_category(r)) {
  case UTF8PROC_CATEGORY_MN:
  case UTF8PROC_CATEGORY_MC:
  case UTF8PROC_CATEGORY_ND:
  case UTF8PROC_CATEGORY_PC:
    return true;
  default:
    return id_start(r);
  }
}

bool str_is_identifier(const char *s, size_t n) {
  if (!n)
    return false;
  for (size_t i = 0; i < n;) {
    int32_t r;
    size_t k = str_decode_rune(s + i, n - i, &r);
    bool ok = i == 0 ? (id_start(r) || r == '_') : (id_continue(r) || r == '-');
    if (!ok || (r == 0xFFFD && k == 1))
      return false;
    i += k;
  }
  return true;
}

const char *str_path_clean(tfr_arena *a, const char *p, size_t n, size_t *len) {
  if (!n) {
    if (len)
      *len = 1;
    return ".";
  }
  char *out = tfr_arena_alloc_raw(a, n + 2);
  bool rooted = p[0] == '/';
  size_t w = 0, r = 0, dotdot = 0;
  if (rooted) {
    out[w++] = '/';
    r = dotdot = 1;
  }
  while (r < n) {
    if (p[r] == '/') {
      r++;
    } else if (p[r] == '.' && (r + 1 == n || p[r + 1] == '/')) {
      r++;
    } else if (p[r] == '.' && p[r + 1] == '.' &&
               (r + 2 == n || p[r + 2] == '/')) {
      r += 2;
      if (w > dotdot) {
        w--;
        while (w > dotdot && out[w] != '/')
          w--;
      } else if (!rooted) {
        if (w > 0)
          out[w++] = '/';
        out[w++] = '.';
        out[w++] = '.';
        dotdot = w;
      }
    } else {
      if ((rooted && w != 1) || (!rooted && w != 0))
        out[w++] = '/';
      for (; r < n && p[r] != '/'; r++)
        out[w++] = p[r];
    }
  }
  if (!w)
    out[w++] = '.';
  out[w] = '\0';
  if (len)
    *len = w;
  return out;
}

int str_hex_digit(int32_t c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

int str_cmp_bytes(const char *x, size_t nx, const char *y, size_t ny) {
  int c = memcmp(x, y, nx < ny ? nx : ny);
  if (c)
    return c;
  return nx < ny ? -1 : nx > ny ? 1 : 0;
}

/* One step of str_hash: a word mixed in. */
static uint64_t hash_word(uint64_t h, uint64_t w) {
  h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 29);
}

uint64_t str_hash(const char *s, size_t n) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) { /* eight bytes at a time */
    uint64_t w;
    memcpy(&w, s + i, 8);
    h = hash_word(h, w);
  }
  if (i < n) {
    uint64_t w = 0;
    memcpy(&w, s + i, n - i);
    h = hash_word(h, w);
  }
  h ^= h >> 32; /* the low bits, which tables use, depend on all */
  h *= 0x94D049BB133111EBull;
  return h ^ (h >> 29);
}

bool mem_read_sized(void *out, size_t have, const void *in, size_t n,
                    size_t min) {
  memset(out, 0, have);
  if (n < min)
    return false;
  memcpy(out, in, n < have ? n : have);
  return true;
}

const char *str_go_quote(tfr_arena *a, const char *s, size_t n) {
  struct sbuf b = {0};
  sbuf_go_quote(&b, s, n);
  const char *r = tfr_arena_strndup(a, b.p ? b.p : "", b.n);
  free(b.p);
  return r;
}

size_t str_utf8_width(unsigned char b) {
  return b < 0x80   ? 1
         : b < 0xC2 ? 0
         : b < 0xE0 ? 2
         : b < 0xF0 ? 3
         : b < 0xF5 ? 4
                    : 0;
}

/* Whether s[0..n) is well-formed UTF-8 (no overlong forms, surrogates or
** code points past U+10FFFF), as utf8proc reads it. */
bool str_utf8_valid(const char *text, size_t n) {
  const unsigned char *s = (const unsigned char *)text;
  for (size_t i = 0; i < n;) {
    if (s[i] < 0x80) {
      i++;
      continue;
    }
    size_t w = str_utf8_width(s[i]);
    if (!w || w > n - i)
      return false;
    for (size_t k = 1; k < w; k++)
      if ((s[i + k] & 0xC0) != 0x80)
        return false;
    if ((s[i] == 0xE0 && s[i + 1] < 0xA0) ||  /* overlong */
        (s[i] == 0xED && s[i + 1] >= 0xA0) || /* surrogate */
        (s[i] == 0xF0 && s[i + 1] < 0x90) ||  /* overlong */
        (s[i] == 0xF4 && s[i + 1] >= 0x90))   /* past U+10FFFF */
      return false;
    i += w;
  }
  return true;
}

void str_prefix(const char *s, size_t n, uint64_t pre[2]) {
  pre[0] = pre[1] = 0;
  for (size_t k = 0; k < 16; k++)
    pre[k / 8] = pre[k / 8] << 8 | (k < n ? (unsigned char)s[k] : 0);
}

static bool key_before(const struct str_key *x, const struct str_key *y,
                       int (*tie)(const void *, uint32_t, uint32_t),
                       const void *ctx) {
  if (x->pre[0] != y->pre[0])
    return x->pre[0] < y->pre[0];
  if (x->pre[1] != y->pre[1])
    return x->pre[1] < y->pre[1];
  return tie(ctx, x->i, y->i) < 0;
}

void str_sort(struct str_key *keys, struct str_key *tmp, size_t n,
              int (*tie)(const void *ctx, uint32_t i, uint32_t j),
              const void *ctx) {
  struct str_key *src = keys, *dst = tmp;
  for (size_t w = 1; w < n; w *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * w) {
      size_t mid = lo + w < n ? lo + w : n,
             hi = lo + 2 * w < n ? lo + 2 * w : n;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        dst[k++] = key_before(&src[j], &src[i], tie, ctx) ? src[j++] : src[i++];
      while (i < mid)
        dst[k++] = src[i++];
      while (j < hi)
        dst[k++] = src[j++];
    }
    struct str_key *t = src;
    src = dst;
    dst = t;
  }
  if (src != keys)
    memcpy(keys, src, n * sizeof *keys);
}
