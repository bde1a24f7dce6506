/*
** Encoding functions: base64decode base64encode base64gzip
** textencodebase64 textdecodebase64 urlencode csvdecode jsondecode
** jsonencode yamldecode yamlencode.
**
** Each reproduces what Terraform runs: its own functions
** (internal/lang/funcs/encoding.go), cty's stdlib (json.go, csv.go) and
** go-cty-yaml 1.0.2, down to the Go libraries under them, because their
** quirks are visible in results and messages: Go's base64 decoder (skips
** newlines, no strict padding bits), url.QueryEscape, encoding/csv,
** encoding/json's streaming Decoder.Token (its error texts), libyaml's
** Go port (its emitter is reproduced here; the C libyaml 0.2.5 emitter
** differs, e.g. no "..." after a plain root scalar), and compress/flate.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <utf8proc.h>
#include <yaml.h>
#include <zlib.h>

#include "convert.h"
#include "funcs.h"
#include "json_out.h"
#include "number.h"
#include "strutil.h"

#define MARKS (TFR_V_SENSITIVE | TFR_V_EPHEMERAL)

/* Defined in funcs_time.c: go-cty-yaml's timestamp recognition. */
const char *time_yaml_stamp(tfr_arena *a, const char *s, size_t n);

/* ---- small helpers ------------------------------------------------------- */

/* The buffer's bytes as a string value (copied, NFC); frees the buffer. */
static const tfr_value *sbuf_value(tfr_arena *a, struct sbuf *b) {
  const tfr_value *v = tfr_string(a, b->p ? b->p : "", b->n);
  free(b->p);
  b->p = NULL;
  return v;
}

/* Go's %q (strconv.Quote) of n bytes, in the arena. */
static const char *go_q(tfr_arena *a, const char *s, size_t n) {
  struct sbuf b = {0};
  sbuf_go_quote(&b, s, n);
  const char *r = tfr_arena_strndup(a, b.p, b.n);
  free(b.p);
  return r;
}

static const tfr_value *number_value(tfr_arena *a, const struct tfr_num *n) {
  tfr_value *v = tfr_arena_alloc(a, sizeof *v);
  v->type = &tfr_t_number;
  v->num = n;
  return v;
}

/* A name and where it came from, for sorting out duplicates. */
struct named {
  const char *name;
  size_t idx;
};

static int named_cmp(const void *x, const void *y) {
  const struct named *a = x, *b = y;
  int c = strcmp(a->name, b->name);
  return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

/*
** Sort v (n names) and keep the last occurrence of each distinct name,
** as assigning them to a Go map in order does; returns how many remain
** (at the front of v, by name).  O(n log n): objects may be large.
*/
static size_t keep_last(struct named *v, size_t n) {
  qsort(v, n, sizeof *v, named_cmp);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (k && !strcmp(v[k - 1].name, v[i].name))
      k--;
    v[k++] = v[i];
  }
  return k;
}

/* ---- base64 (Go's encoding/base64 StdEncoding) ---------------------------- */

static const char b64chars[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void b64_encode(struct sbuf *b, const unsigned char *s, size_t n) {
  sbuf_put(b, "", 0);
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)s[i] << 16;
    if (i + 1 < n)
      v |= (uint32_t)s[i + 1] << 8;
    if (i + 2 < n)
      v |= s[i + 2];
    char q[4] = {b64chars[v >> 18], b64chars[(v >> 12) & 63],
                 i + 1 < n ? b64chars[(v >> 6) & 63] : '=',
                 i + 2 < n ? b64chars[v & 63] : '='};
    sbuf_put(b, q, 4);
  }
}

static int b64_value(unsigned char c) {
  const char *p = c ? strchr(b64chars, c) : NULL;
  return p ? (int)(p - b64chars) : -1;
}

/*
** Go's StdEncoding.DecodeString: \r and \n are skipped, padding is
** required, unused bits are not checked.  On error returns false with
** *bad the offset Go's CorruptInputError reports.
*/
static bool b64_decode(struct sbuf *out, const char *src, size_t n,
                       size_t *bad) {
  size_t si = 0;
  sbuf_put(out, "", 0);
  for (;;) {
    int dbuf[4] = {0, 0, 0, 0};
    size_t dlen = 4, j;
    bool tail_err = false;
    for (j = 0; j < 4; j++) {
      if (si == n) {
        if (j == 0)
          return true;
        *bad = si - j;
        return false;
      }
      unsigned char in = (unsigned char)src[si++];
      int v = b64_value(in);
      if (v >= 0) {
        dbuf[j] = v;
        continue;
      }
      if (in == '\n' || in == '\r') {
        j--;
        continue;
      }
      if (in != '=' || j < 2) {
        *bad = si - 1;
        return false;
      }
      if (j == 2) { /* a second '=' must follow, maybe after newlines */
        while (si < n && (src[si] == '\n' || src[si] == '\r'))
          si++;
        if (si == n) {
          *bad = n;
          return false;
        }
        if (src[si] != '=') {
          *bad = si - 1;
          return false;
        }
        si++;
      }
      while (si < n && (src[si] == '\n' || src[si] == '\r'))
        si++;
      if (si < n) {
        tail_err = true;
        *bad = si;
      }
      dlen = j;
      break;
    }
    uint32_t val = (uint32_t)dbuf[0] << 18 | (uint32_t)dbuf[1] << 12 |
                   (uint32_t)dbuf[2] << 6 | (uint32_t)dbuf[3];
    char bytes[3] = {(char)(val >> 16), (char)(val >> 8), (char)val};
    sbuf_put(out, bytes, dlen - 1);
    if (tail_err)
      return false;
    if (dlen < 4)
      return true;
  }
}

static bool valid_utf8(const char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    utf8proc_int32_t cp;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
                                          (utf8proc_ssize_t)(n - i), &cp);
    if (k <= 0)
      return false;
    i += (size_t)k;
  }
  return true;
}

/* base64encode(str) */
static const tfr_value *fn_base64encode(struct fcall *f,
                                        const tfr_type *ret) {
  (void)ret;
  struct sbuf b = {0};
  b64_encode(&b, (const unsigned char *)f->args[0]->s, f->args[0]->n);
  return sbuf_value(f->a, &b);
}

/*
** base64decode(str): the decoded bytes, which must be UTF-8.  As in
** Terraform, the argument keeps its marks and a sensitive one is not
** quoted in the error.
*/
static const tfr_value *fn_base64decode(struct fcall *f,
                                        const tfr_type *ret) {
  const tfr_value *s = f->args[0];
  unsigned marks = s->flags & MARKS;
  if (s->flags & TFR_V_UNKNOWN)
    return tfr_value_mark(f->a, tfr_unknown(f->a, ret), marks);
  struct sbuf b = {0};
  size_t bad;
  if (!b64_decode(&b, s->s, s->n, &bad)) {
    free(b.p);
    fcall_error(f, "failed to decode base64 data %s",
                (marks & TFR_V_SENSITIVE) ? "(sensitive value)"
                                          : go_q(f->a, s->s, s->n));
    return NULL;
  }
  if (!valid_utf8(b.p, b.n)) {
    free(b.p);
    fcall_error(f, "the result of decoding the provided string is not "
                   "valid UTF-8");
    return NULL;
  }
  return tfr_value_mark(f->a, sbuf_value(f->a, &b), marks);
}

/* urlencode(str): Go's url.QueryEscape. */
static const tfr_value *fn_urlencode(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  static const char hex[] = "0123456789ABCDEF";
  const tfr_value *s = f->args[0];
  struct sbuf b = {0};
  sbuf_put(&b, "", 0);
  for (size_t i = 0; i < s->n; i++) {
    unsigned char c = (unsigned char)s->s[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
        (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ||
        c == '~') {
      sbuf_put(&b, (const char *)&c, 1);
    } else if (c == ' ') {
      sbuf_put(&b, "+", 1);
    } else {
      char e[3] = {'%', hex[c >> 4], hex[c & 15]};
      sbuf_put(&b, e, 3);
    }
  }
  return sbuf_value(f->a, &b);
}

/* ---- textencodebase64 / textdecodebase64 ---------------------------------- */

/*
** The encodings of golang.org/x/text's ianaindex.IANA that tfresolve
** implements (Terraform's x/text has about sixty; the other names give
** the "not a supported IANA encoding" error here).  Names match without
** regard to case, as IANA.Encoding matches them.
*/
enum textenc { TE_UTF8, TE_UTF16, TE_UTF16BE, TE_UTF16LE, TE_LATIN1,
               TE_LATIN9, TE_CP1252 };

static const struct {
  const char *alias;
  enum textenc enc;
} enc_aliases[] = {
    {"UTF-8", TE_UTF8},         {"csUTF8", TE_UTF8},
    {"UTF-16", TE_UTF16},       {"csUTF16", TE_UTF16},
    {"UTF-16BE", TE_UTF16BE},   {"csUTF16BE", TE_UTF16BE},
    {"UTF-16LE", TE_UTF16LE},   {"csUTF16LE", TE_UTF16LE},
    {"ISO_8859-1:1987", TE_LATIN1}, {"iso-ir-100", TE_LATIN1},
    {"ISO_8859-1", TE_LATIN1},  {"ISO-8859-1", TE_LATIN1},
    {"latin1", TE_LATIN1},      {"l1", TE_LATIN1},
    {"IBM819", TE_LATIN1},      {"CP819", TE_LATIN1},
    {"csISOLatin1", TE_LATIN1}, {"ISO-8859-15", TE_LATIN9},
    {"ISO_8859-15", TE_LATIN9}, {"Latin-9", TE_LATIN9},
    {"csISO885915", TE_LATIN9}, {"windows-1252", TE_CP1252},
    {"cswindows1252", TE_CP1252}};

/* IANA.Name of each encoding (the canonical IANA name). */
static const char *const enc_names[] = {
    "UTF-8", "UTF-16", "UTF-16BE", "UTF-16LE", "ISO_8859-1:1987",
    "ISO-8859-15", "windows-1252"};

/* Go's unicode.IsSpace. */
static bool go_isspace(int32_t cp) {
  if (cp < 0x100)
    return (cp >= 9 && cp <= 13) || cp == ' ' || cp == 0x85 || cp == 0xA0;
  utf8proc_category_t cat = utf8proc_category(cp);
  return cat == UTF8PROC_CATEGORY_ZS || cat == UTF8PROC_CATEGORY_ZL ||
         cat == UTF8PROC_CATEGORY_ZP;
}

/* Go's strings.TrimSpace: [*s, *s + *n) without surrounding spaces. */
static void trim_space(const char **s, size_t *n) {
  const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)*s;
  size_t lead = 0, trail = *n, last = 0;
  bool seen = false;
  for (size_t i = 0; i < *n;) {
    utf8proc_int32_t cp;
    utf8proc_ssize_t k = utf8proc_iterate(p + i, (utf8proc_ssize_t)(*n - i),
                                          &cp);
    if (k <= 0)
      k = 1, cp = -1;
    if (!go_isspace(cp)) {
      if (!seen)
        lead = i;
      seen = true;
      last = i + (size_t)k;
    }
    i += (size_t)k;
  }
  trail = seen ? last : lead;
  *s += lead;
  *n = trail - lead;
}

/* The encoding named by v, or -1. */
static int lookup_encoding(const tfr_value *v) {
  const char *s = v->s;
  size_t n = v->n;
  trim_space(&s, &n);
  for (size_t i = 0; i < sizeof enc_aliases / sizeof *enc_aliases; i++)
    if (strlen(enc_aliases[i].alias) == n &&
        !strncasecmp(enc_aliases[i].alias, s, n))
      return (int)enc_aliases[i].enc;
  return -1;
}

/* windows-1252 0x80-0x9F (WHATWG's table; x/text maps its holes to
** U+FFFD). */
static const uint16_t cp1252_high[32] = {
    0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
    0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178};

/* ISO-8859-15's differences from Latin-1. */
static const uint16_t latin9_diff[][2] = {
    {0xA4, 0x20AC}, {0xA6, 0x0160}, {0xA8, 0x0161}, {0xB4, 0x017D},
    {0xB8, 0x017E}, {0xBC, 0x0152}, {0xBD, 0x0153}, {0xBE, 0x0178}};

/* The code point of byte c in a single-byte encoding. */
static int32_t sbcs_decode(enum textenc e, unsigned char c) {
  if (e == TE_CP1252 && c >= 0x80 && c < 0xA0)
    return cp1252_high[c - 0x80];
  if (e == TE_LATIN9)
    for (size_t i = 0; i < 8; i++)
      if (latin9_diff[i][0] == c)
        return latin9_diff[i][1];
  return c;
}

/* The byte of code point cp in a single-byte encoding, or -1. */
static int sbcs_encode(enum textenc e, int32_t cp) {
  if (cp < 0x80)
    return cp;
  for (int c = 0x80; c < 0x100; c++)
    if (cp != 0xFFFD && sbcs_decode(e, (unsigned char)c) == cp)
      return c;
  return -1;
}

static void put_u16(struct sbuf *b, uint32_t u, bool le) {
  char x[2] = {(char)(le ? u : u >> 8), (char)(le ? u >> 8 : u)};
  sbuf_put(b, x, 2);
}

/* Encode UTF-8 text s into encoding e; false when a character has no
** representation there. */
static bool text_encode(struct sbuf *b, enum textenc e, const char *s,
                        size_t n) {
  sbuf_put(b, "", 0);
  if (e == TE_UTF8) {
    sbuf_put(b, s, n);
    return true;
  }
  if (e == TE_UTF16)
    put_u16(b, 0xFEFF, false);
  for (size_t i = 0; i < n;) {
    utf8proc_int32_t cp;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
                                          (utf8proc_ssize_t)(n - i), &cp);
    i += (size_t)(k > 0 ? k : 1);
    if (e == TE_UTF16 || e == TE_UTF16BE || e == TE_UTF16LE) {
      bool le = e == TE_UTF16LE;
      if (cp >= 0x10000) {
        put_u16(b, 0xD800 + ((uint32_t)(cp - 0x10000) >> 10), le);
        put_u16(b, 0xDC00 + ((uint32_t)(cp - 0x10000) & 0x3FF), le);
      } else {
        put_u16(b, (uint32_t)cp, le);
      }
      continue;
    }
    int c = sbcs_encode(e, cp);
    if (c < 0)
      return false;
    char ch = (char)c;
    sbuf_put(b, &ch, 1);
  }
  return true;
}

static void put_cp(struct sbuf *b, int32_t cp) {
  utf8proc_uint8_t u[4];
  utf8proc_ssize_t k = utf8proc_encode_char(cp, u);
  sbuf_put(b, (const char *)u, (size_t)k);
}

/* x/text's UTF-16 decoder; bad sequences become U+FFFD.  false for the
** BOM-sniffing "UTF-16" given fewer than two bytes (ErrShortSrc). */
static bool utf16_decode(struct sbuf *b, enum textenc e,
                         const unsigned char *s, size_t n) {
  size_t i = 0;
  bool le = e == TE_UTF16LE;
  if (e == TE_UTF16) {
    if (n < 2)
      return false;
    if (s[0] == 0xFE && s[1] == 0xFF)
      i = 2;
    else if (s[0] == 0xFF && s[1] == 0xFE)
      i = 2, le = true;
  }
  while (i < n) {
    if (i + 1 >= n) {
      put_cp(b, 0xFFFD);
      break;
    }
    int32_t r = le ? s[i] | s[i + 1] << 8 : s[i] << 8 | s[i + 1];
    size_t w = 2;
    if (r >= 0xD800 && r < 0xE000 && i + 3 < n) {
      int32_t x = le ? s[i + 2] | s[i + 3] << 8 : s[i + 2] << 8 | s[i + 3];
      if (x >= 0xDC00 && x < 0xE000) {
        r = r < 0xDC00 ? 0x10000 + ((r - 0xD800) << 10) + (x - 0xDC00)
                       : 0xFFFD;
        w = 4;
      }
    }
    put_cp(b, r >= 0xD800 && r < 0xE000 ? 0xFFFD : r);
    i += w;
  }
  return true;
}

/* Decode bytes in encoding e to UTF-8, bad input as U+FFFD; false when
** x/text's decoder fails outright. */
static bool text_decode(struct sbuf *b, enum textenc e,
                        const unsigned char *s, size_t n) {
  sbuf_put(b, "", 0);
  if (e == TE_UTF16 || e == TE_UTF16BE || e == TE_UTF16LE)
    return utf16_decode(b, e, s, n);
  for (size_t i = 0; i < n;) {
    if (e != TE_UTF8) {
      put_cp(b, sbcs_decode(e, s[i++]));
      continue;
    }
    utf8proc_int32_t cp;
    utf8proc_ssize_t k = utf8proc_iterate(s + i, (utf8proc_ssize_t)(n - i),
                                          &cp);
    if (k <= 0) {
      put_cp(b, 0xFFFD);
      i++;
    } else {
      sbuf_put(b, (const char *)s + i, (size_t)k);
      i += (size_t)k;
    }
  }
  return true;
}

/* textencodebase64(string, encoding) */
static const tfr_value *fn_textencodebase64(struct fcall *f,
                                            const tfr_type *ret) {
  (void)ret;
  int e = lookup_encoding(f->args[1]);
  if (e < 0) {
    fcall_arg_error(f, 1, "%s is not a supported IANA encoding name or "
                          "alias in this Terraform version",
                    go_q(f->a, f->args[1]->s, f->args[1]->n));
    return NULL;
  }
  struct sbuf raw = {0}, b = {0};
  if (!text_encode(&raw, (enum textenc)e, f->args[0]->s, f->args[0]->n)) {
    free(raw.p);
    fcall_arg_error(f, 0, "the given string contains characters that "
                          "cannot be represented in %s", enc_names[e]);
    return NULL;
  }
  b64_encode(&b, (const unsigned char *)raw.p, raw.n);
  free(raw.p);
  return sbuf_value(f->a, &b);
}

static bool has_replacement(const char *s, size_t n) {
  for (size_t i = 0; i + 2 < n; i++)
    if (!memcmp(s + i, "\xEF\xBF\xBD", 3))
      return true;
  return false;
}

/* textdecodebase64(source, encoding) */
static const tfr_value *fn_textdecodebase64(struct fcall *f,
                                            const tfr_type *ret) {
  (void)ret;
  int e = lookup_encoding(f->args[1]);
  if (e < 0) {
    fcall_arg_error(f, 1, "%s is not a supported IANA encoding name or "
                          "alias in this Terraform version",
                    go_q(f->a, f->args[1]->s, f->args[1]->n));
    return NULL;
  }
  struct sbuf raw = {0}, b = {0};
  size_t bad;
  if (!b64_decode(&raw, f->args[0]->s, f->args[0]->n, &bad)) {
    free(raw.p);
    fcall_arg_error(f, 0, "the given value is has an invalid base64 symbol "
                          "at offset %zu", bad);
    return NULL;
  }
  bool ok = text_decode(&b, (enum textenc)e, (unsigned char *)raw.p, raw.n);
  free(raw.p);
  if (!ok || has_replacement(b.p, b.n)) {
    free(b.p);
    fcall_arg_error(f, 0, "the given string contains symbols that are not "
                          "defined for %s", enc_names[e]);
    return NULL;
  }
  return sbuf_value(f->a, &b);
}

/* ---- base64gzip ---------------------------------------------------------- */

/* gzip of n bytes as Go's gzip.NewWriter writes it (no name, no mtime,
** OS 255), then a flush and a close. */
static bool go_gzip(struct sbuf *out, const unsigned char *s, size_t n) {
  static const char header[10] = {0x1f, (char)0x8b, 8, 0, 0, 0, 0, 0, 0,
                                  (char)0xff};
  sbuf_put(out, header, sizeof header);
  z_stream z;
  memset(&z, 0, sizeof z);
  if (deflateInit2(&z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return false;
  unsigned char buf[16384];
  z.next_in = (unsigned char *)s;
  z.avail_in = (uInt)n;
  for (int flush = Z_SYNC_FLUSH;;) {
    z.next_out = buf;
    z.avail_out = sizeof buf;
    int r = deflate(&z, flush);
    sbuf_put(out, (const char *)buf, sizeof buf - z.avail_out);
    if (r == Z_STREAM_END)
      break;
    if (z.avail_out == 0)
      continue;
    if (flush == Z_FINISH && r != Z_OK && r != Z_BUF_ERROR) {
      deflateEnd(&z);
      return false;
    }
    flush = Z_FINISH;
  }
  deflateEnd(&z);
  uint32_t crc = (uint32_t)crc32(0, s, (uInt)n), size = (uint32_t)n;
  char trailer[8];
  for (int i = 0; i < 4; i++) {
    trailer[i] = (char)(crc >> (8 * i));
    trailer[4 + i] = (char)(size >> (8 * i));
  }
  sbuf_put(out, trailer, 8);
  return true;
}

/* base64gzip(str) */
static const tfr_value *fn_base64gzip(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  struct sbuf raw = {0}, b = {0};
  if (!go_gzip(&raw, (const unsigned char *)f->args[0]->s, f->args[0]->n)) {
    free(raw.p);
    fcall_error(f, "failed to write gzip raw data");
    return NULL;
  }
  b64_encode(&b, (const unsigned char *)raw.p, raw.n);
  free(raw.p);
  return sbuf_value(f->a, &b);
}

/* ---- csvdecode (Go's encoding/csv Reader with default settings) ---------- */

struct csv_reader {
  const char *s;
  size_t n, pos;
  int num_line;
  int fields_per_record; /* 0: set by the first record */
  struct sbuf line;      /* the current line, \r\n made \n */
};

/* One record: the fields as offsets into rec. */
struct csv_record {
  struct sbuf rec;
  size_t *ends;
  size_t nfields, cap;
  int err_line; /* with err */
  const char *err;
};

static const char csv_bare_quote[] = "bare \" in non-quoted-field";
static const char csv_quote[] = "extraneous or missing \" in quoted-field";
static const char csv_field_count[] = "wrong number of fields";

/* readLine: false at the end of the input (with an empty line). */
static bool csv_read_line(struct csv_reader *r) {
  r->line.n = 0;
  sbuf_put(&r->line, "", 0);
  r->num_line++;
  if (r->pos == r->n)
    return false;
  const char *p = r->s + r->pos;
  const char *nl = memchr(p, '\n', r->n - r->pos);
  size_t len = nl ? (size_t)(nl - p) + 1 : r->n - r->pos;
  r->pos += len;
  if (!nl && p[len - 1] == '\r')
    len--;
  sbuf_put(&r->line, p, len);
  if (r->line.n >= 2 && r->line.p[r->line.n - 2] == '\r' &&
      r->line.p[r->line.n - 1] == '\n') {
    r->line.p[r->line.n - 2] = '\n';
    r->line.p[--r->line.n] = '\0';
  }
  return true;
}

static size_t length_nl(const char *s, size_t n) {
  return n && s[n - 1] == '\n';
}

static void csv_end_field(struct csv_record *rec) {
  if (rec->nfields == rec->cap) {
    rec->cap = rec->cap ? rec->cap * 2 : 16;
    rec->ends = realloc(rec->ends, rec->cap * sizeof *rec->ends);
    if (!rec->ends)
      abort();
  }
  rec->ends[rec->nfields++] = rec->rec.n;
}

/* A quoted field starting after its quote at *pp; false at the end of
** the record. */
static bool csv_quoted(struct csv_reader *r, struct csv_record *rec,
                       size_t *pp, int *pos_line, size_t *pos_col,
                       bool *more) {
  size_t p = *pp;
  for (;;) {
    const char *line = r->line.p + p;
    size_t len = r->line.n - p;
    const char *q = memchr(line, '"', len);
    if (q) {
      size_t i = (size_t)(q - line);
      sbuf_put(&rec->rec, line, i);
      p += i + 1;
      *pos_col += i + 1;
      const char *rest = r->line.p + p;
      size_t rlen = r->line.n - p;
      if (rlen && rest[0] == '"') {
        sbuf_put(&rec->rec, "\"", 1);
        p++;
        (*pos_col)++;
      } else if (rlen && rest[0] == ',') {
        p++;
        (*pos_col)++;
        csv_end_field(rec);
        *pp = p;
        *more = true;
        return true;
      } else if (length_nl(rest, rlen) == rlen) {
        csv_end_field(rec);
        *more = false;
        return true;
      } else {
        rec->err = csv_quote;
        rec->err_line = r->num_line;
        return false;
      }
    } else if (len > 0) {
      sbuf_put(&rec->rec, line, len);
      *pos_col += len;
      csv_read_line(r);
      p = 0;
      if (r->line.n > 0) {
        (*pos_line)++;
        *pos_col = 1;
      }
    } else {
      rec->err = csv_quote;
      rec->err_line = *pos_line;
      return false;
    }
  }
}

/* readRecord: false at the end of the input; rec->err on a parse error. */
static bool csv_read_record(struct csv_reader *r, struct csv_record *rec) {
  rec->rec.n = 0;
  sbuf_put(&rec->rec, "", 0);
  rec->nfields = 0;
  rec->err = NULL;
  for (;;) {
    if (!csv_read_line(r))
      return false;
    if (r->line.n != length_nl(r->line.p, r->line.n))
      break;
  }
  int rec_line = r->num_line, pos_line = r->num_line;
  size_t pos_col = 1, p = 0;
  for (bool more = true; more;) {
    const char *line = r->line.p + p;
    size_t len = r->line.n - p;
    if (len == 0 || line[0] != '"') {
      const char *comma = memchr(line, ',', len);
      size_t flen = comma ? (size_t)(comma - line) : len - length_nl(line,
                                                                   len);
      if (memchr(line, '"', flen)) {
        rec->err = csv_bare_quote;
        rec->err_line = r->num_line;
        return true;
      }
      sbuf_put(&rec->rec, line, flen);
      csv_end_field(rec);
      more = comma != NULL;
      p += flen + 1;
      pos_col += flen + 1;
    } else {
      p++;
      pos_col++;
      if (!csv_quoted(r, rec, &p, &pos_line, &pos_col, &more))
        return true;
    }
  }
  if (r->fields_per_record > 0) {
    if (rec->nfields != (size_t)r->fields_per_record) {
      rec->err = csv_field_count;
      rec->err_line = rec_line;
    }
  } else if (r->fields_per_record == 0) {
    r->fields_per_record = (int)rec->nfields;
  }
  return true;
}

static void csv_free(struct csv_reader *r, struct csv_record *rec) {
  free(r->line.p);
  free(rec->rec.p);
  free(rec->ends);
}

static const char *csv_field(tfr_arena *a, const struct csv_record *rec,
                             size_t i, size_t *len) {
  size_t start = i ? rec->ends[i - 1] : 0;
  *len = rec->ends[i] - start;
  return tfr_arena_strndup(a, rec->rec.p + start, *len);
}

/* The result type: a list of objects named by the header row. */
static const tfr_type *csvdecode_type(struct fcall *f) {
  const tfr_value *s = f->args[0];
  if (s->flags & TFR_V_UNKNOWN)
    return &tfr_t_dynamic;
  struct csv_reader r = {s->s, s->n, 0, 0, 0, {0}};
  struct csv_record rec = {{0}, NULL, 0, 0, 0, NULL};
  const tfr_type *t = NULL;
  if (!csv_read_record(&r, &rec)) {
    fcall_error(f, "missing header line");
  } else if (rec.err) {
    fcall_error(f, "CSV parse error on line %d: %s", rec.err_line, rec.err);
  } else {
    const char **names = tfr_arena_alloc(f->a, (rec.nfields + 1) *
                                                   sizeof *names);
    const tfr_type **types = tfr_arena_alloc(f->a, (rec.nfields + 1) *
                                                       sizeof *types);
    struct named *v = tfr_arena_alloc(f->a, (rec.nfields + 1) * sizeof *v);
    size_t i, len, dup = rec.nfields;
    for (i = 0; i < rec.nfields; i++) {
      names[i] = csv_field(f->a, &rec, i, &len);
      types[i] = &tfr_t_string;
      v[i] = (struct named){names[i], i};
    }
    /* The first column whose name an earlier one has. */
    qsort(v, rec.nfields, sizeof *v, named_cmp);
    for (i = 1; i < rec.nfields; i++)
      if (!strcmp(v[i - 1].name, v[i].name) && v[i].idx < dup)
        dup = v[i].idx;
    if (dup < rec.nfields)
      fcall_error(f, "duplicate column name %s",
                  go_q(f->a, names[dup], strlen(names[dup])));
    i = dup;
    if (i == rec.nfields)
      t = tfr_type_list(f->a, tfr_type_object(f->a, rec.nfields, names,
                                              types, NULL));
  }
  csv_free(&r, &rec);
  return t;
}

/* csvdecode(str): one object per row after the header row. */
static const tfr_value *fn_csvdecode(struct fcall *f, const tfr_type *ret) {
  const tfr_type *ety = ret->elem;
  const tfr_value *s = f->args[0];
  struct csv_reader r = {s->s, s->n, 0, 0, (int)ety->n, {0}};
  struct csv_record rec = {{0}, NULL, 0, 0, 0, NULL};
  csv_read_record(&r, &rec);
  size_t nh = rec.nfields, len;
  const char **names = tfr_arena_alloc(f->a, (nh + 1) * sizeof *names);
  for (size_t i = 0; i < nh; i++)
    names[i] = csv_field(f->a, &rec, i, &len);
  size_t nrows = 0, cap = 0;
  const tfr_value **rows = NULL;
  while (csv_read_record(&r, &rec)) {
    if (rec.err) {
      fcall_error(f, "CSV parse error on line %d: %s", rec.err_line,
                  rec.err);
      csv_free(&r, &rec);
      return NULL;
    }
    const tfr_value **vals = tfr_arena_alloc(f->a, (nh + 1) * sizeof *vals);
    for (size_t i = 0; i < nh; i++) {
      size_t start = i ? rec.ends[i - 1] : 0;
      vals[i] = tfr_string(f->a, rec.rec.p + start, rec.ends[i] - start);
    }
    if (nrows == cap) {
      cap = cap ? cap * 2 : 16;
      const tfr_value **nr = tfr_arena_alloc(f->a, cap * sizeof *nr);
      if (nrows)
        memcpy(nr, rows, nrows * sizeof *nr);
      rows = nr;
    }
    rows[nrows++] = tfr_object(f->a, nh, names, vals);
  }
  csv_free(&r, &rec);
  return tfr_list(f->a, ety, nrows, rows);
}

/* ---- JSON: Go's encoding/json Decoder, as cty's jsondecode drives it ------ */

enum jkind { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

/* A parsed JSON value.  Object members keep their order and duplicates. */
struct jnode {
  uint8_t kind;
  bool b;
  char deep;        /* root children: the bracket that nests too deep */
  const char *s;    /* string (decoded) or number text */
  size_t n;
  struct jnode **kids;
  const char **keys; /* objects */
  size_t *keylens;
  size_t nkids, cap;
};

/* Decoder.Token's states. */
enum { TS_TOP, TS_ARR_START, TS_ARR_VALUE, TS_ARR_COMMA, TS_OBJ_START,
       TS_OBJ_KEY, TS_OBJ_COLON, TS_OBJ_VALUE, TS_OBJ_COMMA };

struct jdec {
  tfr_arena *a;
  const char *s;
  size_t n, pos;
  int state;
  int *stack;
  size_t nstack, cap;
  const char *err; /* Go's error text */
};

/* A token: a delimiter, or a scalar in node. */
struct jtok {
  char delim;
  struct jnode *node;
};

static bool json_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* peek: the next non-space byte, or -1 at the end (io.EOF). */
static int jpeek(struct jdec *d) {
  while (d->pos < d->n && json_space(d->s[d->pos]))
    d->pos++;
  return d->pos < d->n ? (unsigned char)d->s[d->pos] : -1;
}

/* Go's quoteChar: how the scanner names a byte in its messages. */
static const char *quote_char(tfr_arena *a, unsigned char c) {
  if (c == '\'')
    return "'\\''";
  if (c == '"')
    return "'\"'";
  utf8proc_uint8_t u[4];
  utf8proc_ssize_t k = utf8proc_encode_char(c, u);
  const char *q = go_q(a, (const char *)u, (size_t)k);
  return tfr_arena_printf(a, "'%.*s'", (int)strlen(q) - 2, q + 1);
}

static bool jfail(struct jdec *d, unsigned char c, const char *context) {
  d->err = tfr_arena_printf(d->a, "invalid character %s%s%s",
                            quote_char(d->a, c), *context ? " " : "",
                            context);
  return false;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/*
** Scan the scalar at d->pos as Go's scanner does (readValue for a value
** that is not an array or object) and set *len to its length.  A scalar
** cut short by the end of the input is "unexpected EOF".
*/
static bool scan_scalar(struct jdec *d, size_t *len) {
  const char *s = d->s + d->pos, *end = d->s + d->n;
  const char *p = s;
#define NEXT_OR_EOF() \
  do { \
    if (++p == end) { \
      d->err = "unexpected EOF"; \
      return false; \
    } \
  } while (0)
  switch (*p) {
  case '"':
    for (;;) {
      NEXT_OR_EOF();
      unsigned char c = (unsigned char)*p;
      if (c == '"')
        break;
      if (c < 0x20)
        return jfail(d, c, "in string literal");
      if (c != '\\')
        continue;
      NEXT_OR_EOF();
      if (strchr("bfnrt\\/\"", *p) && *p)
        continue;
      if (*p != 'u')
        return jfail(d, (unsigned char)*p, "in string escape code");
      for (int i = 0; i < 4; i++) {
        NEXT_OR_EOF();
        if (!is_hex(*p))
          return jfail(d, (unsigned char)*p,
                       "in \\u hexadecimal character escape");
      }
    }
    p++;
    break;
  case 't':
  case 'f':
  case 'n': {
    const char *word = *p == 't' ? "true" : *p == 'f' ? "false" : "null";
    for (size_t i = 1; word[i]; i++) {
      NEXT_OR_EOF();
      if (*p != word[i])
        return jfail(d, (unsigned char)*p,
                     tfr_arena_printf(d->a, "in literal %s (expecting '%c')",
                                      word, word[i]));
    }
    p++;
    break;
  }
  default:
    if (*p != '-' && !is_digit(*p))
      return jfail(d, (unsigned char)*p, "looking for beginning of value");
    if (*p == '-') {
      NEXT_OR_EOF();
      if (!is_digit(*p))
        return jfail(d, (unsigned char)*p, "in numeric literal");
    }
    if (*p == '0')
      p++;
    else
      while (p < end && is_digit(*p))
        p++;
    if (p < end && *p == '.') {
      NEXT_OR_EOF();
      if (!is_digit(*p))
        return jfail(d, (unsigned char)*p,
                     "after decimal point in numeric literal");
      while (p < end && is_digit(*p))
        p++;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
      NEXT_OR_EOF();
      if (*p == '+' || *p == '-')
        NEXT_OR_EOF();
      if (!is_digit(*p))
        return jfail(d, (unsigned char)*p, "in exponent of numeric literal");
      while (p < end && is_digit(*p))
        p++;
    }
  }
#undef NEXT_OR_EOF
  *len = (size_t)(p - s);
  return true;
}

static int hex4(const char *p) {
  int v = 0;
  for (int i = 0; i < 4; i++) {
    char c = p[i];
    v = v * 16 + (is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10);
  }
  return v;
}

/* Go's unquote of a scanned string literal (quotes included). */
static const char *unquote(tfr_arena *a, const char *s, size_t n,
                           size_t *len) {
  struct sbuf b = {0};
  sbuf_put(&b, "", 0);
  for (size_t i = 1; i + 1 < n;) {
    unsigned char c = (unsigned char)s[i];
    if (c != '\\') {
      utf8proc_int32_t cp;
      utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
                                            (utf8proc_ssize_t)(n - 1 - i),
                                            &cp);
      if (k <= 0) {
        put_cp(&b, 0xFFFD);
        i++;
      } else {
        sbuf_put(&b, s + i, (size_t)k);
        i += (size_t)k;
      }
      continue;
    }
    char e = s[i + 1];
    const char *simple = strchr("b\bf\fn\nr\rt\t\\\\//\"\"", e);
    if (e != 'u' && simple) {
      sbuf_put(&b, simple + 1, 1);
      i += 2;
      continue;
    }
    int32_t r = hex4(s + i + 2);
    i += 6;
    if (r >= 0xD800 && r < 0xE000) {
      int32_t r2 = i + 6 <= n - 1 && s[i] == '\\' && s[i + 1] == 'u'
                       ? hex4(s + i + 2)
                       : -1;
      if (r < 0xDC00 && r2 >= 0xDC00 && r2 < 0xE000) {
        r = 0x10000 + ((r - 0xD800) << 10) + (r2 - 0xDC00);
        i += 6;
      } else {
        r = 0xFFFD;
      }
    }
    put_cp(&b, r);
  }
  const char *r = tfr_arena_strndup(a, b.p, b.n);
  *len = b.n;
  free(b.p);
  return r;
}

/* Decode(&x) of the scalar at the cursor. */
static struct jnode *decode_scalar(struct jdec *d) {
  size_t len = 0;
  if (!scan_scalar(d, &len))
    return NULL;
  const char *s = d->s + d->pos;
  d->pos += len;
  struct jnode *j = tfr_arena_alloc(d->a, sizeof *j);
  switch (s[0]) {
  case '"':
    j->kind = J_STR;
    j->s = unquote(d->a, s, len, &j->n);
    break;
  case 't':
  case 'f':
    j->kind = J_BOOL;
    j->b = s[0] == 't';
    break;
  case 'n':
    j->kind = J_NULL;
    break;
  default:
    j->kind = J_NUM;
    j->s = tfr_arena_strndup(d->a, s, len);
    j->n = len;
  }
  return j;
}

static bool value_allowed(int st) {
  return st == TS_TOP || st == TS_ARR_START || st == TS_ARR_VALUE ||
         st == TS_OBJ_VALUE;
}

static void value_end(struct jdec *d) {
  if (d->state == TS_ARR_START || d->state == TS_ARR_VALUE)
    d->state = TS_ARR_COMMA;
  else if (d->state == TS_OBJ_VALUE)
    d->state = TS_OBJ_COMMA;
}

static bool token_error(struct jdec *d, unsigned char c) {
  static const char *const ctx[] = {
      [TS_TOP] = "looking for beginning of value",
      [TS_ARR_START] = "looking for beginning of value",
      [TS_ARR_VALUE] = "looking for beginning of value",
      [TS_ARR_COMMA] = "after array element",
      [TS_OBJ_START] = "",
      [TS_OBJ_KEY] = "looking for beginning of object key string",
      [TS_OBJ_COLON] = "after object key",
      [TS_OBJ_VALUE] = "looking for beginning of value",
      [TS_OBJ_COMMA] = "after object key:value pair"};
  return jfail(d, c, ctx[d->state]);
}

static void push_state(struct jdec *d, int next) {
  if (d->nstack == d->cap) {
    d->cap = d->cap ? d->cap * 2 : 64;
    d->stack = realloc(d->stack, d->cap * sizeof *d->stack);
    if (!d->stack)
      abort();
  }
  d->stack[d->nstack++] = d->state;
  d->state = next;
}

/* Decoder.Token. */
static bool jtoken(struct jdec *d, struct jtok *t) {
  t->delim = 0;
  t->node = NULL;
  for (;;) {
    int c = jpeek(d);
    if (c < 0) {
      d->err = "EOF";
      return false;
    }
    switch (c) {
    case '[':
    case '{':
      if (!value_allowed(d->state))
        return token_error(d, (unsigned char)c);
      d->pos++;
      push_state(d, c == '[' ? TS_ARR_START : TS_OBJ_START);
      t->delim = (char)c;
      return true;
    case ']':
    case '}':
      if (c == ']' ? d->state != TS_ARR_START && d->state != TS_ARR_COMMA
                   : d->state != TS_OBJ_START && d->state != TS_OBJ_COMMA)
        return token_error(d, (unsigned char)c);
      d->pos++;
      d->state = d->stack[--d->nstack];
      value_end(d);
      t->delim = (char)c;
      return true;
    case ':':
      if (d->state != TS_OBJ_COLON)
        return token_error(d, ':');
      d->pos++;
      d->state = TS_OBJ_VALUE;
      continue;
    case ',':
      if (d->state == TS_ARR_COMMA)
        d->state = TS_ARR_VALUE;
      else if (d->state == TS_OBJ_COMMA)
        d->state = TS_OBJ_KEY;
      else
        return token_error(d, ',');
      d->pos++;
      continue;
    default:
      if (c == '"' && (d->state == TS_OBJ_START || d->state == TS_OBJ_KEY)) {
        t->node = decode_scalar(d);
        if (!t->node)
          return false;
        d->state = TS_OBJ_COLON;
        return true;
      }
      if (!value_allowed(d->state))
        return token_error(d, (unsigned char)c);
      t->node = decode_scalar(d);
      if (!t->node)
        return false;
      value_end(d);
      return true;
    }
  }
}

static void jnode_add(tfr_arena *a, struct jnode *p, const char *key,
                      size_t keylen, struct jnode *kid) {
  if (p->nkids == p->cap) {
    size_t cap = p->cap ? p->cap * 2 : 8;
    struct jnode **k = tfr_arena_alloc(a, cap * sizeof *k);
    const char **ks = tfr_arena_alloc(a, cap * sizeof *ks);
    size_t *kl = tfr_arena_alloc(a, cap * sizeof *kl);
    if (p->nkids) {
      memcpy(k, p->kids, p->nkids * sizeof *k);
      memcpy(ks, p->keys, p->nkids * sizeof *ks);
      memcpy(kl, p->keylens, p->nkids * sizeof *kl);
    }
    p->kids = k, p->keys = ks, p->keylens = kl, p->cap = cap;
  }
  p->keys[p->nkids] = key;
  p->keylens[p->nkids] = keylen;
  p->kids[p->nkids++] = kid;
}

/* encoding/json's scanner refuses to nest deeper than this. */
#define JSON_MAX_DEPTH 10000

/*
** Read one JSON document the way cty's ImpliedType walks it with Token
** (iteratively: documents may nest deeply), then check for extra data.
** NULL with d->err on failure.  A child of the root that nests more than
** JSON_MAX_DEPTH levels is marked (deep): cty's Unmarshal reads each
** child with Decode, whose scanner refuses it.
*/
static struct jnode *json_parse(struct jdec *d) {
  struct jtok t;
  if (!jtoken(d, &t))
    return NULL;
  struct jnode *root = NULL, *deep_owner = NULL;
  struct jnode **open = NULL; /* containers being filled */
  size_t nopen = 0, capopen = 0;
  const char *key = NULL;
  size_t keylen = 0;
  for (;;) {
    struct jnode *v = t.node;
    if (t.delim) {
      v = tfr_arena_alloc(d->a, sizeof *v);
      v->kind = t.delim == '[' ? J_ARR : J_OBJ;
    }
    if (nopen)
      jnode_add(d->a, open[nopen - 1], key, keylen, v);
    else
      root = v;
    if (t.delim) {
      if (nopen == 1)
        deep_owner = v;
      if (nopen == JSON_MAX_DEPTH + 1 && deep_owner && !deep_owner->deep)
        deep_owner->deep = t.delim;
      if (nopen == capopen) {
        capopen = capopen ? capopen * 2 : 64;
        open = realloc(open, capopen * sizeof *open);
        if (!open)
          abort();
      }
      open[nopen++] = v;
    }
    /* Close finished containers, then read the next member. */
    for (;;) {
      if (!nopen)
        goto done;
      struct jnode *c = open[nopen - 1];
      if (!jtoken(d, &t))
        goto fail;
      if (t.delim == ']' || t.delim == '}') {
        nopen--;
        continue;
      }
      if (c->kind == J_OBJ) {
        key = t.node->s;
        keylen = t.node->n;
        if (!jtoken(d, &t))
          goto fail;
      }
      break;
    }
  }
done:
  free(open);
  if (jpeek(d) >= 0 && d->s[d->pos] != ']' && d->s[d->pos] != '}') {
    d->err = "extraneous data after JSON object";
    return NULL;
  }
  return root;
fail:
  free(open);
  return NULL;
}

/* An attribute name as cty.Object and cty.ObjectVal keep it: NFC. */
static const char *nfc_name(tfr_arena *a, const char *s, size_t n) {
  return tfr_string(a, s, n)->s;
}

/*
** The distinct keys of an object node (NFC, as cty.Object normalises
** them), each with its last member.
*/
static size_t last_members(tfr_arena *a, const struct jnode *j,
                           const char ***names, const struct jnode ***vals) {
  struct named *v = tfr_arena_alloc(a, (j->nkids + 1) * sizeof *v);
  for (size_t i = 0; i < j->nkids; i++)
    v[i] = (struct named){nfc_name(a, j->keys[i], j->keylens[i]), i};
  size_t n = keep_last(v, j->nkids);
  *names = tfr_arena_alloc(a, (n + 1) * sizeof **names);
  *vals = tfr_arena_alloc(a, (n + 1) * sizeof **vals);
  for (size_t i = 0; i < n; i++) {
    (*names)[i] = v[i].name;
    (*vals)[i] = j->kids[v[i].idx];
  }
  return n;
}

/* cty's json.ImpliedType of a parsed document. */
static const tfr_type *json_implied(tfr_arena *a, const struct jnode *j) {
  switch (j->kind) {
  case J_NULL:
    return &tfr_t_dynamic;
  case J_BOOL:
    return &tfr_t_bool;
  case J_NUM:
    return &tfr_t_number;
  case J_STR:
    return &tfr_t_string;
  case J_ARR: {
    const tfr_type **ts = tfr_arena_alloc(a, (j->nkids + 1) * sizeof *ts);
    for (size_t i = 0; i < j->nkids; i++)
      ts[i] = json_implied(a, j->kids[i]);
    return tfr_type_tuple(a, j->nkids, ts);
  }
  default: {
    const char **names;
    const struct jnode **vals;
    size_t n = last_members(a, j, &names, &vals);
    const tfr_type **ts = tfr_arena_alloc(a, (n + 1) * sizeof *ts);
    for (size_t i = 0; i < n; i++)
      ts[i] = json_implied(a, vals[i]);
    return tfr_type_object(a, n, names, ts, NULL);
  }
  }
}

static const tfr_value *json_unmarshal(tfr_arena *a, const struct jnode *j,
                                       const tfr_type *t, const char **err);

/* cty's unmarshalPrimitive. */
static const tfr_value *json_primitive(tfr_arena *a, const struct jnode *j,
                                       const tfr_type *t, const char **err) {
  switch (t->kind) {
  case TFR_BOOL:
    if (j->kind == J_BOOL)
      return tfr_bool(j->b);
    if (j->kind == J_STR) {
      const tfr_value *v = conv_convert(a, tfr_string(a, j->s, j->n), t,
                                        err);
      return v;
    }
    *err = "bool is required";
    return NULL;
  case TFR_NUMBER:
    if (j->kind == J_NUM || j->kind == J_STR) {
      const struct tfr_num *n = num_parse(a, j->s, j->n);
      if (!n)
        *err = "a number is required";
      return n ? number_value(a, n) : NULL;
    }
    *err = "number is required";
    return NULL;
  default:
    if (j->kind == J_STR || j->kind == J_NUM)
      return tfr_string(a, j->s, j->n);
    if (j->kind == J_BOOL)
      return tfr_string(a, j->b ? "true" : "false", j->b ? 4 : 5);
    *err = "string is required";
    return NULL;
  }
}

/* The elements of an array node against one element type. */
static const tfr_value **json_elems(tfr_arena *a, const struct jnode *j,
                                    const tfr_type *ety, const char **err) {
  const tfr_value **vs = tfr_arena_alloc(a, (j->nkids + 1) * sizeof *vs);
  for (size_t i = 0; i < j->nkids; i++)
    if (!(vs[i] = json_unmarshal(a, j->kids[i], ety, err)))
      return NULL;
  return vs;
}

/* cty's unmarshalObject. */
static const tfr_value *json_object(tfr_arena *a, const struct jnode *j,
                                    const tfr_type *t, const char **err) {
  const tfr_value **vals = tfr_arena_alloc(a, (t->n + 1) * sizeof *vals);
  for (size_t i = 0; i < j->nkids; i++) {
    long k = tfr_type_attr(t, j->keys[i], j->keylens[i]);
    if (k < 0) {
      *err = tfr_arena_printf(a, "unsupported attribute %s",
                              go_q(a, j->keys[i], j->keylens[i]));
      return NULL;
    }
    if (!(vals[k] = json_unmarshal(a, j->kids[i], t->types[k], err)))
      return NULL;
  }
  for (uint32_t k = 0; k < t->n; k++)
    if (!vals[k])
      vals[k] = tfr_null(a, t->types[k]);
  return tfr_object(a, t->n, (const char *const *)t->names, vals);
}

/* cty's unmarshalMap. */
static const tfr_value *json_map(tfr_arena *a, const struct jnode *j,
                                 const tfr_type *t, const char **err) {
  const char **names;
  const struct jnode **members;
  for (size_t i = 0; i < j->nkids; i++)
    if (!json_unmarshal(a, j->kids[i], t->elem, err))
      return NULL;
  size_t n = last_members(a, j, &names, &members);
  const tfr_value **vals = tfr_arena_alloc(a, (n + 1) * sizeof *vals);
  uint32_t *lens = tfr_arena_alloc(a, (n + 1) * sizeof *lens);
  for (size_t i = 0; i < n; i++) {
    vals[i] = json_unmarshal(a, members[i], t->elem, err);
    lens[i] = (uint32_t)strlen(names[i]);
  }
  return tfr_map(a, t->elem, n, names, lens, vals);
}

/* cty's Type.UnmarshalJSON on a parsed type description; NULL with *err
** (nested errors are worded approximately). */
static const tfr_type *json_type_spec(tfr_arena *a, const struct jnode *j,
                                      const char **err) {
  static const struct {
    const char *name;
    const tfr_type *t;
  } prims[] = {{"string", &tfr_t_string}, {"number", &tfr_t_number},
               {"bool", &tfr_t_bool},     {"dynamic", &tfr_t_dynamic}};
  if (j->kind == J_STR) {
    for (size_t i = 0; i < 4; i++)
      if (!strcmp(j->s, prims[i].name))
        return prims[i].t;
    *err = tfr_arena_printf(a, "invalid primitive type name %s",
                            go_q(a, j->s, j->n));
    return NULL;
  }
  if (j->kind != J_ARR) {
    *err = "invalid type description";
    return NULL;
  }
  const char *k = j->nkids && j->kids[0]->kind == J_STR ? j->kids[0]->s : "";
  bool coll = !strcmp(k, "list") || !strcmp(k, "set") || !strcmp(k, "map");
  bool obj = !strcmp(k, "object"), tup = !strcmp(k, "tuple");
  if (!coll && !obj && !tup) {
    *err = "invalid complex type kind name";
    return NULL;
  }
  if (j->nkids < 2 || j->nkids > (obj ? 3u : 2u)) {
    *err = "unexpected extra data in type description";
    return NULL;
  }
  const struct jnode *arg = j->kids[1];
  if (coll) {
    const tfr_type *e = json_type_spec(a, arg, err);
    if (!e)
      return NULL;
    return k[0] == 'l' ? tfr_type_list(a, e)
           : k[0] == 's' ? tfr_type_set(a, e)
                         : tfr_type_map(a, e);
  }
  if (arg->kind != (obj ? J_OBJ : J_ARR)) {
    *err = obj ? "json: cannot unmarshal into map[string]cty.Type"
               : "json: cannot unmarshal into []cty.Type";
    return NULL;
  }
  const char **names = arg->keys;
  const struct jnode **kids = (const struct jnode **)arg->kids;
  size_t n = obj ? last_members(a, arg, &names, &kids) : arg->nkids;
  const tfr_type **ts = tfr_arena_alloc(a, (n + 1) * sizeof *ts);
  for (size_t i = 0; i < n; i++)
    if (!(ts[i] = json_type_spec(a, kids[i], err)))
      return NULL;
  return obj ? tfr_type_object(a, n, names, ts, NULL)
             : tfr_type_tuple(a, n, ts);
}

/* cty's unmarshalDynamic: {"value": ..., "type": ...}. */
static const tfr_value *json_dynamic(tfr_arena *a, const struct jnode *j,
                                     const char **err) {
  if (j->kind != J_OBJ) {
    *err = "missing expected {";
    return NULL;
  }
  const tfr_type *t = NULL;
  const struct jnode *body = NULL;
  for (size_t i = 0; i < j->nkids; i++) {
    if (!strcmp(j->keys[i], "type")) {
      const char *why = NULL;
      if (!(t = json_type_spec(a, j->kids[i], &why))) {
        *err = tfr_arena_printf(a, "failed to decode type for dynamic "
                                   "value: %s", why);
        return NULL;
      }
    } else if (!strcmp(j->keys[i], "value")) {
      body = j->kids[i];
    } else {
      *err = tfr_arena_printf(a, "invalid key %s in dynamically-typed value",
                              go_q(a, j->keys[i], j->keylens[i]));
      return NULL;
    }
  }
  if (!t || !body) {
    *err = !t ? "missing type in dynamically-typed value"
              : "missing value in dynamically-typed value";
    return NULL;
  }
  return json_unmarshal(a, body, t, err);
}

/* cty's json.Unmarshal of a parsed document into type t. */
static const tfr_value *json_unmarshal(tfr_arena *a, const struct jnode *j,
                                       const tfr_type *t, const char **err) {
  if (j->kind == J_NULL)
    return tfr_null(a, t);
  if (t->kind == TFR_DYNAMIC)
    return json_dynamic(a, j, err);
  if (tfr_type_is_primitive(t))
    return json_primitive(a, j, t, err);
  bool arr = t->kind == TFR_LIST || t->kind == TFR_SET ||
             t->kind == TFR_TUPLE;
  if (j->kind != (arr ? J_ARR : J_OBJ)) {
    *err = arr ? "missing expected [" : "missing expected {";
    return NULL;
  }
  const tfr_value **vs;
  switch (t->kind) {
  case TFR_LIST:
  case TFR_SET:
    if (!(vs = json_elems(a, j, t->elem, err)))
      return NULL;
    return t->kind == TFR_LIST ? tfr_list(a, t->elem, j->nkids, vs)
                               : tfr_set(a, t->elem, j->nkids, vs);
  case TFR_TUPLE:
    vs = tfr_arena_alloc(a, (t->n + 1) * sizeof *vs);
    for (size_t i = 0; i < t->n && i < j->nkids; i++)
      if (!(vs[i] = json_unmarshal(a, j->kids[i], t->types[i], err)))
        return NULL;
    if (j->nkids != t->n) {
      *err = tfr_arena_printf(a, "%s tuple elements (need %u)",
                              j->nkids > t->n ? "too many" : "not enough",
                              t->n);
      return NULL;
    }
    return tfr_tuple(a, t->n, vs);
  case TFR_MAP:
    return json_map(a, j, t, err);
  default:
    return json_object(a, j, t, err);
  }
}

/* The first root child nested too deeply for Go's scanner, or NULL. */
static const struct jnode *json_too_deep(const struct jnode *root) {
  if (root->kind != J_ARR && root->kind != J_OBJ)
    return NULL;
  for (size_t i = 0; i < root->nkids; i++)
    if (root->kids[i]->deep)
      return root->kids[i];
  return NULL;
}

/* Parse the jsondecode argument; NULL after reporting the error. */
static const struct jnode *json_read(struct fcall *f, const tfr_value *s) {
  struct jdec d = {f->a, s->s, s->n, 0, TS_TOP, NULL, 0, 0, NULL};
  const struct jnode *j = json_parse(&d);
  free(d.stack);
  if (!j)
    fcall_error(f, "%s", d.err);
  return j;
}

/* jsondecode's result type: the document's implied type. */
static const tfr_type *jsondecode_type(struct fcall *f) {
  const tfr_value *s = f->args[0];
  if (s->flags & TFR_V_UNKNOWN)
    return &tfr_t_dynamic;
  const struct jnode *j = json_read(f, s);
  if (!j)
    return NULL;
  if (json_too_deep(j))
    return &tfr_t_dynamic; /* the call fails; see fn_jsondecode */
  return json_implied(f->a, j);
}

/* jsondecode(str) */
static const tfr_value *fn_jsondecode(struct fcall *f, const tfr_type *ret) {
  const struct jnode *j = json_read(f, f->args[0]);
  if (!j)
    return NULL;
  const struct jnode *deep = json_too_deep(j);
  if (deep) {
    fcall_error(f, "failed to read %s value: invalid character '%c' "
                   "exceeded max depth",
                j->kind == J_ARR ? "tuple" : "object", deep->deep);
    return NULL;
  }
  const char *err = NULL;
  const tfr_value *v = json_unmarshal(f->a, j, ret, &err);
  if (!v)
    fcall_error(f, "%s", err ? err : "invalid JSON");
  return v;
}

/* ---- jsonencode (cty's json.Marshal) ------------------------------------- */

/* A string as Go's encoding/json writes it (HTML-safe escaping). */
static void go_json_string(struct sbuf *b, const char *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  sbuf_put(b, "\"", 1);
  for (size_t i = 0; i < n;) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x80) {
      i++;
      if (c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' &&
          c != '&') {
        sbuf_put(b, (const char *)&c, 1);
        continue;
      }
      const char *esc = c == '"'    ? "\\\""
                        : c == '\\' ? "\\\\"
                        : c == '\n' ? "\\n"
                        : c == '\r' ? "\\r"
                        : c == '\t' ? "\\t"
                                    : NULL;
      if (esc) {
        sbuf_str(b, esc);
      } else {
        char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
        sbuf_put(b, u, 6);
      }
      continue;
    }
    utf8proc_int32_t cp;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
                                          (utf8proc_ssize_t)(n - i), &cp);
    if (k <= 0) {
      sbuf_str(b, "\\ufffd");
      i++;
    } else if (cp == 0x2028 || cp == 0x2029) {
      sbuf_str(b, cp == 0x2028 ? "\\u2028" : "\\u2029");
      i += (size_t)k;
    } else {
      sbuf_put(b, s + i, (size_t)k);
      i += (size_t)k;
    }
  }
  sbuf_put(b, "\"", 1);
}

/* An object attribute name: cty.StringVal(name), so NFC. */
static void json_name(struct sbuf *b, tfr_arena *a, const char *name) {
  const tfr_value *v = tfr_string(a, name, strlen(name));
  go_json_string(b, v->s, v->n);
}

/* cty's marshal; false (with *err) for an infinity. */
static bool json_marshal(struct sbuf *b, tfr_arena *a, const tfr_value *v,
                         const char **err) {
  if (v->flags & TFR_V_NULL) {
    sbuf_str(b, "null");
    return true;
  }
  switch (v->type->kind) {
  case TFR_BOOL:
    sbuf_str(b, v->b ? "true" : "false");
    return true;
  case TFR_NUMBER:
    if (num_is_inf(v->num)) {
      *err = "cannot serialize infinity as JSON";
      return false;
    }
    sbuf_str(b, num_format(a, v->num));
    return true;
  case TFR_STRING:
    go_json_string(b, v->s, v->n);
    return true;
  case TFR_MAP:
  case TFR_OBJECT:
    sbuf_put(b, "{", 1);
    for (uint32_t i = 0; i < v->n; i++) {
      if (i)
        sbuf_put(b, ",", 1);
      if (v->type->kind == TFR_MAP)
        go_json_string(b, v->keys[i], v->keylens[i]);
      else
        json_name(b, a, v->type->names[i]);
      sbuf_put(b, ":", 1);
      if (!json_marshal(b, a, v->elems[i], err))
        return false;
    }
    sbuf_put(b, "}", 1);
    return true;
  default: /* list, set, tuple */
    sbuf_put(b, "[", 1);
    for (uint32_t i = 0; i < v->n; i++) {
      if (i)
        sbuf_put(b, ",", 1);
      if (!json_marshal(b, a, v->elems[i], err))
        return false;
    }
    sbuf_put(b, "]", 1);
    return true;
  }
}

/* jsonencode(val) */
static const tfr_value *fn_jsonencode(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  struct sbuf b = {0};
  const char *err = NULL;
  if (!json_marshal(&b, f->a, f->args[0], &err)) {
    free(b.p);
    fcall_error(f, "%s", err);
    return NULL;
  }
  return sbuf_value(f->a, &b);
}

/* ---- yamldecode (go-cty-yaml 1.0.2 over libyaml's parser) ---------------- */

#define YAML_TAG(t) "tag:yaml.org,2002:" t
#define YAML_MAX_DEPTH 10000

/* A resolved scalar (go-cty-yaml's resolveScalar). */
enum yres { YR_ERR, YR_VALUE, YR_MERGE };

/* One anchor: how many definitions are open, and what it was. */
struct yanchor {
  const char *name;
  int pending;
  const tfr_type *t;
  const tfr_value *v;
};

/* A walk over the event stream: implied type (types) or value. */
struct ywalk {
  tfr_arena *a;
  yaml_parser_t p;
  bool types;
  int depth;
  struct yanchor *anchors;
  size_t nanchors, cap;
  const char *err;
};

/* A node's result: its type in the type walk, its value in the other. */
struct ynode {
  const tfr_type *t;
  const tfr_value *v;
};

/* go-cty-yaml's Error for a parser failure (parserError). */
static bool yparser_error(struct ywalk *w) {
  yaml_parser_t *p = &w->p;
  const char *cause = p->problem ? p->problem : "invalid YAML syntax";
  if (p->problem_mark.line != 0) {
    size_t line = p->problem_mark.line, col = p->problem_mark.column;
    if (p->error == YAML_SCANNER_ERROR)
      line++, col = 0;
    w->err = tfr_arena_printf(w->a, "on line %zu, column %zu: %s", line,
                              col + 1, cause);
  } else if (p->context_mark.line != 0) {
    w->err = tfr_arena_printf(w->a, "on line %zu, column %zu: %s",
                              p->context_mark.line,
                              p->context_mark.column + 1, cause);
  } else {
    w->err = cause;
  }
  return false;
}

/* parseEventErrorWrap: the event's position unless it is on line 0. */
static bool yevent_error(struct ywalk *w, const yaml_event_t *e,
                         const char *cause) {
  if (e->start_mark.line == 0)
    w->err = cause;
  else
    w->err = tfr_arena_printf(w->a, "on line %zu, column %zu: %s",
                              e->start_mark.line, e->start_mark.column + 1,
                              cause);
  return false;
}

static bool ynext(struct ywalk *w, yaml_event_t *e) {
  if (!yaml_parser_parse(&w->p, e))
    return yparser_error(w);
  return true;
}

static const char *ystr(const yaml_char_t *s) {
  return s ? (const char *)s : "";
}

/* Go's regexp `\A[-+]?(|0o[0-7_]+|[0-9_]+|0x[0-9a-fA-F_]+)\z`. */
static bool yaml_int_like(const char *s, size_t n) {
  size_t i = n && (s[0] == '-' || s[0] == '+');
  if (i == n)
    return true;
  const char *digits = "0123456789_";
  if (n - i > 2 && s[i] == '0' && (s[i + 1] == 'o' || s[i + 1] == 'x')) {
    bool oct = s[i + 1] == 'o';
    size_t j;
    for (j = i + 2; j < n; j++)
      if (!(oct ? (s[j] >= '0' && s[j] <= '7') || s[j] == '_'
                : is_hex(s[j]) || s[j] == '_'))
        break;
    if (j == n)
      return true;
  }
  for (; i < n; i++)
    if (!strchr(digits, s[i]) || !s[i])
      return false;
  return true;
}

/* Go's regexp `\A[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\z`. */
static bool yaml_float_like(const char *s, size_t n) {
  size_t i = n && (s[0] == '-' || s[0] == '+'), d = 0;
  if (i < n && s[i] == '.') {
    for (i++; i < n && is_digit(s[i]); i++)
      d++;
    if (!d)
      return false;
  } else {
    for (; i < n && is_digit(s[i]); i++)
      d++;
    if (!d)
      return false;
    if (i < n && s[i] == '.')
      for (i++; i < n && is_digit(s[i]); i++)
        ;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < n && (s[i] == '-' || s[i] == '+'))
      i++;
    for (d = 0; i < n && is_digit(s[i]); i++)
      d++;
    if (!d)
      return false;
  }
  return i == n;
}

/* Go's strconv.ParseInt(s, 0, 64), then ParseUint(s, 0, 64). */
static const struct tfr_num *go_parse_int(tfr_arena *a, const char *s,
                                          size_t n) {
  size_t i = 0;
  bool neg = false, sign = n && (s[0] == '-' || s[0] == '+');
  if (sign) {
    neg = s[0] == '-';
    i++;
  }
  unsigned base = 10;
  if (n - i >= 1 && s[i] == '0') {
    char c = n - i >= 3 ? (char)(s[i + 1] | 0x20) : 0;
    base = c == 'b' ? 2 : c == 'o' ? 8 : c == 'x' ? 16 : 8;
    i += base == 8 && c != 'o' ? 1 : 2;
  }
  if (i == n && !(base == 8 && s[i - 1] == '0'))
    return NULL;
  uint64_t u = 0;
  for (; i < n; i++) {
    int dv = is_digit(s[i]) ? s[i] - '0'
             : ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'z')
                 ? (s[i] | 0x20) - 'a' + 10
                 : 99;
    if (dv >= (int)base)
      return NULL;
    if (u > (UINT64_MAX - (uint64_t)dv) / base)
      return NULL;
    u = u * base + (uint64_t)dv;
  }
  if (!sign || !neg) {
    if (u <= INT64_MAX)
      return num_from_int(a, (int64_t)u);
    if (sign) /* ParseUint takes no sign */
      return NULL;
    mpfr_t x;
    mpfr_init2(x, 64);
    mpfr_set_ui(x, (unsigned long)u, MPFR_RNDN);
    const struct tfr_num *r = num_from_mpfr_prec(a, x, 64);
    mpfr_clear(x);
    return r;
  }
  if (u > (uint64_t)INT64_MAX + 1)
    return NULL;
  return num_from_int(a, u == (uint64_t)INT64_MAX + 1 ? INT64_MIN
                                                      : -(int64_t)u);
}

static const struct {
  const char *s;
  int kind; /* 1 true, 0 false, 2 null, 3 +inf, 4 -inf */
} yaml_words[] = {
    {"y", 1},     {"Y", 1},     {"yes", 1},   {"Yes", 1},   {"YES", 1},
    {"true", 1},  {"True", 1},  {"TRUE", 1},  {"on", 1},    {"On", 1},
    {"ON", 1},    {"n", 0},     {"N", 0},     {"no", 0},    {"No", 0},
    {"NO", 0},    {"false", 0}, {"False", 0}, {"FALSE", 0}, {"off", 0},
    {"Off", 0},   {"OFF", 0},   {"", 2},      {"~", 2},     {"null", 2},
    {"Null", 2},  {"NULL", 2},  {".inf", 3},  {".Inf", 3},  {".INF", 3},
    {"+.inf", 3}, {"+.Inf", 3}, {"+.INF", 3}, {"-.inf", 4}, {"-.Inf", 4},
    {"-.INF", 4}};

/* resolveMap: -1 when s is not one of its words. */
static int yaml_word(const char *s, size_t n) {
  for (size_t i = 0; i < sizeof yaml_words / sizeof *yaml_words; i++)
    if (strlen(yaml_words[i].s) == n && !memcmp(yaml_words[i].s, s, n))
      return yaml_words[i].kind;
  return -1;
}

static const tfr_value *yaml_word_value(tfr_arena *a, int kind) {
  if (kind <= 1)
    return tfr_bool(kind == 1);
  if (kind == 2)
    return tfr_null(a, &tfr_t_dynamic);
  return number_value(a, num_parse(a, kind == 3 ? "+Inf" : "-Inf", 4));
}

static bool resolvable_tag(const char *tag) {
  static const char *const tags[] = {
      "",                   YAML_TAG("str"),   YAML_TAG("bool"),
      YAML_TAG("int"),      YAML_TAG("float"), YAML_TAG("null"),
      YAML_TAG("timestamp"), YAML_TAG("binary")};
  for (size_t i = 0; i < sizeof tags / sizeof *tags; i++)
    if (!strcmp(tag, tags[i]))
      return true;
  return false;
}

static char yaml_hint(const char *s, size_t n) {
  if (!n)
    return 'N';
  char c = s[0];
  if (c == '+' || c == '-')
    return 'S';
  if (is_digit(c))
    return 'D';
  if (c && strchr("yYnNtTfFoO~", c))
    return 'M';
  return c == '.' ? '.' : 0;
}

/* go-cty-yaml's resolveScalar. */
static enum yres yaml_resolve(struct ywalk *w, const char *tag,
                              const char *s, size_t n,
                              yaml_scalar_style_t style,
                              const tfr_value **out) {
  tfr_arena *a = w->a;
  if (!resolvable_tag(tag)) {
    w->err = tfr_arena_printf(a, "unsupported tag %s",
                              go_q(a, tag, strlen(tag)));
    return YR_ERR;
  }
  char hint = yaml_hint(s, n);
  bool is_str = !strcmp(tag, YAML_TAG("str")),
       is_bin = !strcmp(tag, YAML_TAG("binary"));
  if (hint && !is_str && !is_bin) {
    if (style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
        style == YAML_DOUBLE_QUOTED_SCALAR_STYLE) {
      *out = tfr_string(a, s, n);
      return YR_VALUE;
    }
    int word = yaml_word(s, n);
    if (word >= 0) {
      *out = yaml_word_value(a, word);
      return YR_VALUE;
    }
    if (!*tag && n == 4 && s[0] == '.' &&
        (!memcmp(s, ".nan", 4) || !memcmp(s, ".NaN", 4) ||
         !memcmp(s, ".NAN", 4))) {
      w->err = "floating point NaN is not supported";
      return YR_ERR;
    }
    if (hint == '.') {
      const struct tfr_num *num = num_parse(a, s, n);
      if (num) {
        *out = number_value(a, num);
        return YR_VALUE;
      }
    } else if (hint == 'D' || hint == 'S') {
      if (!*tag || !strcmp(tag, YAML_TAG("timestamp"))) {
        const char *ts = time_yaml_stamp(a, s, n);
        if (ts) {
          *out = tfr_string(a, ts, strlen(ts));
          return YR_VALUE;
        }
      }
      if (yaml_int_like(s, n))
        tag = YAML_TAG("int");
      else if (yaml_float_like(s, n))
        tag = YAML_TAG("float");
    }
  }
  if (!*tag && n == 2 && !memcmp(s, "<<", 2))
    return YR_MERGE;
  const char *bad = NULL;
  if (is_str || is_bin || !*tag) {
    struct sbuf junk = {0};
    size_t off;
    bool ok = !is_bin || b64_decode(&junk, s, n, &off);
    free(junk.p);
    if (!ok)
      bad = ": not valid base64";
    else
      *out = tfr_string(a, s, n);
  } else if (!strcmp(tag, YAML_TAG("bool"))) {
    int word = yaml_word(s, n);
    if (word == 0 || word == 1)
      *out = tfr_bool(word == 1);
    else
      bad = "";
  } else if (!strcmp(tag, YAML_TAG("int")) ||
             !strcmp(tag, YAML_TAG("float"))) {
    char *plain = tfr_arena_alloc(a, n + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
      if (s[i] != '_')
        plain[k++] = s[i];
    const struct tfr_num *num = num_parse(a, plain, k);
    if (!num)
      num = go_parse_int(a, plain, k);
    if (num)
      *out = number_value(a, num);
    else
      bad = "";
  } else if (!strcmp(tag, YAML_TAG("timestamp"))) {
    const char *ts = time_yaml_stamp(a, s, n);
    if (ts)
      *out = tfr_string(a, ts, strlen(ts));
    else
      bad = "";
  } else { /* null */
    *out = tfr_null(a, &tfr_t_dynamic);
  }
  if (bad) {
    w->err = tfr_arena_printf(a, "cannot parse %s as %s%s", go_q(a, s, n),
                              tag, bad);
    return YR_ERR;
  }
  return YR_VALUE;
}

static struct yanchor *yanchor_find(struct ywalk *w, const char *name) {
  for (size_t i = 0; i < w->nanchors; i++)
    if (!strcmp(w->anchors[i].name, name))
      return &w->anchors[i];
  return NULL;
}

static void yanchor_begin(struct ywalk *w, const char *name) {
  if (!*name)
    return;
  struct yanchor *an = yanchor_find(w, name);
  if (!an) {
    if (w->nanchors == w->cap) {
      w->cap = w->cap ? w->cap * 2 : 8;
      struct yanchor *n = tfr_arena_alloc(w->a, w->cap * sizeof *n);
      if (w->nanchors)
        memcpy(n, w->anchors, w->nanchors * sizeof *n);
      w->anchors = n;
    }
    an = &w->anchors[w->nanchors++];
    an->name = tfr_arena_strdup(w->a, name);
  }
  an->pending++;
}

static void yanchor_complete(struct ywalk *w, const char *name,
                             struct ynode r) {
  if (!*name)
    return;
  struct yanchor *an = yanchor_find(w, name);
  an->pending--;
  an->t = r.t;
  an->v = r.v;
}

static bool ywalk_node(struct ywalk *w, yaml_event_t *e, struct ynode *r);

/* Parse the next event as a node. */
static bool ywalk_next(struct ywalk *w, struct ynode *r) {
  yaml_event_t e;
  if (!ynext(w, &e))
    return false;
  bool ok = ywalk_node(w, &e, r);
  yaml_event_delete(&e);
  return ok;
}

static bool ywalk_scalar(struct ywalk *w, yaml_event_t *e, struct ynode *r) {
  const char *anchor = ystr(e->data.scalar.anchor);
  const char *tag = ystr(e->data.scalar.tag);
  const char *s = (const char *)e->data.scalar.value;
  size_t n = e->data.scalar.length;
  yanchor_begin(w, anchor);
  if (w->types && !*tag && !e->data.scalar.plain_implicit) {
    r->t = &tfr_t_string;
  } else {
    const tfr_value *v = NULL;
    enum yres k = yaml_resolve(w, tag, s, n, e->data.scalar.style, &v);
    if (k == YR_ERR)
      return yevent_error(w, e, w->err);
    if (k == YR_MERGE)
      v = tfr_string(w->a, "<<", 2);
    r->t = v->type;
    r->v = v;
  }
  yanchor_complete(w, anchor, *r);
  return true;
}

static bool ywalk_alias(struct ywalk *w, yaml_event_t *e, struct ynode *r) {
  const char *name = ystr(e->data.alias.anchor);
  struct yanchor *an = yanchor_find(w, name);
  if (an && an->pending > 0)
    return yevent_error(w, e, tfr_arena_printf(w->a,
        "cannot refer to anchor %s from inside its own definition",
        go_q(w->a, name, strlen(name))));
  if (!an)
    return yevent_error(w, e, tfr_arena_printf(w->a,
        "reference to undefined anchor %s", go_q(w->a, name, strlen(name))));
  r->t = an->t;
  r->v = an->v;
  return true;
}

/* Members of a mapping being read, in order, duplicates included. */
struct ymembers {
  const char **names;
  struct ynode *vals;
  size_t n, cap;
};

static void ymembers_add(tfr_arena *a, struct ymembers *m, const char *name,
                         struct ynode v) {
  if (m->n == m->cap) {
    m->cap = m->cap ? m->cap * 2 : 8;
    const char **nn = tfr_arena_alloc(a, m->cap * sizeof *nn);
    struct ynode *nv = tfr_arena_alloc(a, m->cap * sizeof *nv);
    if (m->n) {
      memcpy(nn, m->names, m->n * sizeof *nn);
      memcpy(nv, m->vals, m->n * sizeof *nv);
    }
    m->names = nn, m->vals = nv;
  }
  m->names[m->n] = name;
  m->vals[m->n++] = v;
}

/* The object type or value of the members: names made NFC, the last
** member of each name kept. */
static struct ynode ymembers_object(struct ywalk *w, struct ymembers *m) {
  struct named *v = tfr_arena_alloc(w->a, (m->n + 1) * sizeof *v);
  for (size_t i = 0; i < m->n; i++)
    v[i] = (struct named){nfc_name(w->a, m->names[i], strlen(m->names[i])),
                          i};
  size_t n = keep_last(v, m->n);
  const char **names = tfr_arena_alloc(w->a, (n + 1) * sizeof *names);
  for (size_t i = 0; i < n; i++)
    names[i] = v[i].name;
  struct ynode r = {0};
  if (w->types) {
    const tfr_type **ts = tfr_arena_alloc(w->a, (n + 1) * sizeof *ts);
    for (size_t i = 0; i < n; i++)
      ts[i] = m->vals[v[i].idx].t;
    r.t = tfr_type_object(w->a, n, names, ts, NULL);
  } else {
    const tfr_value **vs = tfr_arena_alloc(w->a, (n + 1) * sizeof *vs);
    for (size_t i = 0; i < n; i++)
      vs[i] = m->vals[v[i].idx].v;
    r.v = tfr_object(w->a, n, names, vs);
    r.t = r.v->type;
  }
  return r;
}

/* A `<<` key: merge the next node's attributes into m. */
static bool ywalk_merge(struct ywalk *w, yaml_event_t *key,
                        struct ymembers *m) {
  struct ynode v;
  if (!ywalk_next(w, &v))
    return false;
  /* Merged values are objects or nulls: YAML decodes to no maps. */
  if (v.t->kind != TFR_OBJECT)
    return yevent_error(w, key, tfr_arena_printf(w->a,
        "cannot merge %s into mapping", tfr_type_friendly(w->a, v.t)));
  for (uint32_t i = 0; i < v.t->n; i++) {
    struct ynode el = {v.t->types[i], w->types ? NULL : v.v->elems[i]};
    ymembers_add(w->a, m, v.t->names[i], el);
  }
  return true;
}

/* One key of a mapping: false on error, *done at MAPPING-END. */
static bool ywalk_member(struct ywalk *w, struct ymembers *m, bool *done) {
  yaml_event_t e;
  if (!ynext(w, &e))
    return false;
  bool ok = false;
  *done = e.type == YAML_MAPPING_END_EVENT;
  if (*done) {
    ok = true;
  } else if (e.type != YAML_SCALAR_EVENT) {
    yevent_error(w, &e, "only strings are allowed as mapping keys");
  } else {
    const tfr_value *k = NULL;
    enum yres res = yaml_resolve(w, ystr(e.data.scalar.tag),
                                 (const char *)e.data.scalar.value,
                                 e.data.scalar.length, e.data.scalar.style,
                                 &k);
    if (res == YR_MERGE) {
      ok = ywalk_merge(w, &e, m);
    } else if (res == YR_VALUE) {
      const char *cerr = NULL;
      k = conv_convert(w->a, k, &tfr_t_string, &cerr);
      struct ynode v;
      if (!k)
        yevent_error(w, &e, "only strings are allowed as mapping keys");
      else if (k->flags & TFR_V_NULL)
        yevent_error(w, &e, "mapping key cannot be null");
      else if ((ok = ywalk_next(w, &v)))
        ymembers_add(w->a, m, tfr_arena_strndup(w->a, k->s, k->n), v);
    }
  }
  yaml_event_delete(&e);
  return ok;
}

static bool ywalk_mapping(struct ywalk *w, yaml_event_t *e,
                          struct ynode *r) {
  const char *tag = ystr(e->data.mapping_start.tag);
  const char *anchor = ystr(e->data.mapping_start.anchor);
  if (*tag && strcmp(tag, YAML_TAG("map")))
    return yevent_error(w, e, tfr_arena_printf(w->a,
        "can't interpret mapping as %s", tag));
  yanchor_begin(w, anchor);
  struct ymembers m = {0};
  for (bool done = false; !done;)
    if (!ywalk_member(w, &m, &done))
      return false;
  *r = ymembers_object(w, &m);
  yanchor_complete(w, anchor, *r);
  return true;
}

static bool ywalk_sequence(struct ywalk *w, yaml_event_t *e,
                           struct ynode *r) {
  const char *tag = ystr(e->data.sequence_start.tag);
  const char *anchor = ystr(e->data.sequence_start.anchor);
  if (*tag && strcmp(tag, YAML_TAG("seq")))
    return yevent_error(w, e, tfr_arena_printf(w->a,
        "can't interpret sequence as %s", tag));
  yanchor_begin(w, anchor);
  size_t n = 0, cap = 8;
  struct ynode *items = tfr_arena_alloc(w->a, cap * sizeof *items);
  for (;;) {
    yaml_event_t ev;
    if (!ynext(w, &ev))
      return false;
    if (ev.type == YAML_SEQUENCE_END_EVENT) {
      yaml_event_delete(&ev);
      break;
    }
    if (n == cap) {
      struct ynode *ni = tfr_arena_alloc(w->a, 2 * cap * sizeof *ni);
      memcpy(ni, items, n * sizeof *ni);
      items = ni, cap *= 2;
    }
    bool ok = ywalk_node(w, &ev, &items[n++]);
    yaml_event_delete(&ev);
    if (!ok)
      return false;
  }
  if (w->types) {
    const tfr_type **ts = tfr_arena_alloc(w->a, (n + 1) * sizeof *ts);
    for (size_t i = 0; i < n; i++)
      ts[i] = items[i].t;
    r->t = tfr_type_tuple(w->a, n, ts);
  } else {
    const tfr_value **vs = tfr_arena_alloc(w->a, (n + 1) * sizeof *vs);
    for (size_t i = 0; i < n; i++)
      vs[i] = items[i].v;
    r->v = tfr_tuple(w->a, n, vs);
    r->t = r->v->type;
  }
  yanchor_complete(w, anchor, *r);
  return true;
}

/* impliedTypeParseRemainder / unmarshalParseRemainder. */
static bool ywalk_node(struct ywalk *w, yaml_event_t *e, struct ynode *r) {
  r->t = NULL;
  r->v = NULL;
  if (w->depth >= YAML_MAX_DEPTH)
    return yevent_error(w, e, "nesting too deep");
  w->depth++;
  bool ok;
  switch (e->type) {
  case YAML_SCALAR_EVENT:
    ok = ywalk_scalar(w, e, r);
    break;
  case YAML_ALIAS_EVENT:
    ok = ywalk_alias(w, e, r);
    break;
  case YAML_MAPPING_START_EVENT:
    ok = ywalk_mapping(w, e, r);
    break;
  case YAML_SEQUENCE_START_EVENT:
    ok = ywalk_sequence(w, e, r);
    break;
  case YAML_DOCUMENT_START_EVENT:
    ok = yevent_error(w, e, "only a single document is allowed");
    break;
  case YAML_STREAM_END_EVENT:
    ok = yevent_error(w, e, "expecting value but found end of stream");
    break;
  default:
    ok = yevent_error(w, e, "unexpected parser event");
  }
  w->depth--;
  return ok;
}

/* Expect one event of type t, else fail with message msg. */
static bool yexpect(struct ywalk *w, yaml_event_type_t t, const char *msg) {
  yaml_event_t e;
  if (!ynext(w, &e))
    return false;
  bool ok = e.type == t || yevent_error(w, &e, msg);
  yaml_event_delete(&e);
  return ok;
}

/* One walk over the whole stream (impliedType or unmarshal). */
static bool ywalk_doc(struct ywalk *w, const tfr_value *src,
                      struct ynode *r) {
  const unsigned char *s = (const unsigned char *)src->s;
  size_t n = src->n;
  if (!n)
    s = (const unsigned char *)"\n", n = 1;
  if (!yaml_parser_initialize(&w->p)) {
    w->err = "failed to initialize YAML parser";
    return false;
  }
  yaml_parser_set_input_string(&w->p, s, n);
  bool ok = yexpect(w, YAML_STREAM_START_EVENT, "missing stream start token")
            && yexpect(w, YAML_DOCUMENT_START_EVENT,
                       "missing start of document")
            && ywalk_next(w, r);
  if (ok) {
    yaml_event_t e;
    ok = ynext(w, &e);
    if (ok && e.type != YAML_DOCUMENT_END_EVENT)
      ok = yevent_error(w, &e, e.type == YAML_DOCUMENT_START_EVENT
                                   ? "only a single document is allowed"
                                   : "unexpected extra content after value");
    if (ok)
      yaml_event_delete(&e);
  }
  ok = ok && yexpect(w, YAML_STREAM_END_EVENT,
                     "unexpected extra content after value");
  yaml_parser_delete(&w->p);
  return ok;
}

/* yamldecode's result type: the document's implied type. */
static const tfr_type *yamldecode_type(struct fcall *f) {
  const tfr_value *s = f->args[0];
  if (s->flags & TFR_V_UNKNOWN)
    return &tfr_t_dynamic;
  struct ywalk w;
  memset(&w, 0, sizeof w);
  w.a = f->a;
  w.types = true;
  struct ynode r;
  if (!ywalk_doc(&w, s, &r)) {
    fcall_error(f, "%s", w.err);
    return NULL;
  }
  return r.t;
}

/* yamldecode(src) */
static const tfr_value *fn_yamldecode(struct fcall *f, const tfr_type *ret) {
  if (ret->kind == TFR_DYNAMIC) /* a null document: cty.DynamicVal */
    return tfr_unknown(f->a, &tfr_t_dynamic);
  struct ywalk w;
  memset(&w, 0, sizeof w);
  w.a = f->a;
  struct ynode r;
  if (!ywalk_doc(&w, f->args[0], &r)) {
    fcall_error(f, "%s", w.err);
    return NULL;
  }
  const char *err = NULL;
  const tfr_value *v = conv_convert(f->a, r.v, ret, &err);
  if (!v)
    fcall_error(f, "%s", err ? err : "conversion failed");
  return v;
}

/* ---- yamlencode (go-cty-yaml's marshal, yaml.v2's emitter) --------------- */

/*
** The emitter of go-cty-yaml (a Go port of libyaml 0.1), reduced to what
** marshal asks of it: block collections, flow "[]" and "{}" for empty
** ones, plain numbers, bools and nulls, double-quoted strings and literal
** blocks for strings with "\n", 80 columns, indent 2.  Its state and
** helpers keep their libyaml names so that the two can be compared.
*/
struct yem {
  struct sbuf out;
  int indent, *indents;
  size_t nindents, cap;
  int column;
  bool whitespace, indention, open_ended;
  int flow_level;
  bool root_ctx, seq_ctx, map_ctx, simple_key_ctx;
  /* the scalar being written (yaml_emitter_analyze_scalar) */
  const unsigned char *value;
  size_t len;
  bool multiline, flow_plain_allowed, block_plain_allowed,
      single_quoted_allowed, block_allowed;
};

#define BEST_INDENT 2
#define BEST_WIDTH 80

enum ystyle { YS_PLAIN, YS_SINGLE, YS_DOUBLE, YS_LITERAL };

/* Byte i of the scalar, 0 past its end (Go would index the slice). */
static unsigned char yb(const struct yem *e, size_t i) {
  return i < e->len ? e->value[i] : 0;
}

static size_t ywidth(unsigned char c) {
  return (c & 0x80) == 0 ? 1 : (c & 0xE0) == 0xC0 ? 2
         : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
}

static bool y_printable(const struct yem *e, size_t i) {
  unsigned char c = yb(e, i), c1 = yb(e, i + 1), c2 = yb(e, i + 2);
  return c == 0x0A || (c >= 0x20 && c <= 0x7E) || (c == 0xC2 && c1 >= 0xA0)
         || (c > 0xC2 && c < 0xED) || (c == 0xED && c1 < 0xA0) || c == 0xEE
         || (c == 0xEF && !(c1 == 0xBB && c2 == 0xBF) &&
             !(c1 == 0xBF && (c2 == 0xBE || c2 == 0xBF)));
}

/* yaml.v2's is_bom looks at the start of the scalar whatever i is. */
static bool y_bom(const struct yem *e) {
  return yb(e, 0) == 0xEF && yb(e, 1) == 0xBB && yb(e, 2) == 0xBF;
}

static bool y_space(const struct yem *e, size_t i) { return yb(e, i) == ' '; }

static bool y_break(const struct yem *e, size_t i) {
  unsigned char c = yb(e, i), c1 = yb(e, i + 1), c2 = yb(e, i + 2);
  return c == '\r' || c == '\n' || (c == 0xC2 && c1 == 0x85) ||
         (c == 0xE2 && c1 == 0x80 && (c2 == 0xA8 || c2 == 0xA9));
}

static bool y_blank(const struct yem *e, size_t i) {
  return yb(e, i) == ' ' || yb(e, i) == '\t';
}

static bool y_blankz(const struct yem *e, size_t i) {
  return y_blank(e, i) || y_break(e, i) || yb(e, i) == 0;
}

static void yput(struct yem *e, char c) {
  sbuf_put(&e->out, &c, 1);
  e->column++;
}

static void yput_break(struct yem *e) {
  sbuf_put(&e->out, "\n", 1);
  e->column = 0;
}

/* Copy one character of the scalar. */
static void ywrite(struct yem *e, size_t *i) {
  size_t w = ywidth(yb(e, *i));
  sbuf_put(&e->out, (const char *)e->value + *i, w ? w : 1);
  e->column++;
  *i += w ? w : 1;
}

static void ywrite_break(struct yem *e, size_t *i) {
  if (yb(e, *i) == '\n') {
    yput_break(e);
    (*i)++;
  } else {
    ywrite(e, i);
    e->column = 0;
  }
}

static void yincrease_indent(struct yem *e, bool flow, bool indentless) {
  if (e->nindents == e->cap) {
    e->cap = e->cap ? e->cap * 2 : 16;
    e->indents = realloc(e->indents, e->cap * sizeof *e->indents);
    if (!e->indents)
      abort();
  }
  e->indents[e->nindents++] = e->indent;
  if (e->indent < 0)
    e->indent = flow ? BEST_INDENT : 0;
  else if (!indentless)
    e->indent += BEST_INDENT;
}

static void ypop_indent(struct yem *e) { e->indent = e->indents[--e->nindents]; }

static void ywrite_indent(struct yem *e) {
  int indent = e->indent < 0 ? 0 : e->indent;
  if (!e->indention || e->column > indent ||
      (e->column == indent && !e->whitespace))
    yput_break(e);
  while (e->column < indent)
    yput(e, ' ');
  e->whitespace = true;
  e->indention = true;
}

static void ywrite_indicator(struct yem *e, const char *ind, bool need_ws,
                             bool is_ws, bool is_indention) {
  if (need_ws && !e->whitespace)
    yput(e, ' ');
  for (; *ind; ind++)
    yput(e, *ind);
  e->whitespace = is_ws;
  e->indention = e->indention && is_indention;
  e->open_ended = false;
}

/* yaml_emitter_analyze_scalar */
static void yanalyze(struct yem *e, const char *s, size_t n) {
  e->value = (const unsigned char *)s;
  e->len = n;
  if (!n) {
    e->multiline = false;
    e->flow_plain_allowed = false;
    e->block_plain_allowed = true;
    e->single_quoted_allowed = true;
    e->block_allowed = false;
    return;
  }
  bool block_ind = false, flow_ind = false, line_breaks = false,
       special = false, leading_space = false, leading_break = false,
       trailing_space = false, trailing_break = false, break_space = false,
       space_break = false, preceded_ws = true, prev_space = false,
       prev_break = false;
  if (n >= 3 && ((s[0] == '-' && s[1] == '-' && s[2] == '-') ||
                 (s[0] == '.' && s[1] == '.' && s[2] == '.')))
    block_ind = flow_ind = true;
  for (size_t i = 0, w; i < n; i += w) {
    w = ywidth(yb(e, i));
    if (!w)
      w = 1;
    bool followed_ws = i + w >= n || y_blank(e, i + w);
    unsigned char c = yb(e, i);
    if (i == 0) {
      if (strchr("#,[]{}&*!|>'\"%@`", c) && c)
        flow_ind = block_ind = true;
      else if (c == '?' || c == ':') {
        flow_ind = true;
        block_ind = block_ind || followed_ws;
      } else if (c == '-' && followed_ws)
        flow_ind = block_ind = true;
    } else {
      if (c && strchr(",?[]{}", c))
        flow_ind = true;
      else if (c == ':') {
        flow_ind = true;
        block_ind = block_ind || followed_ws;
      } else if (c == '#' && preceded_ws)
        flow_ind = block_ind = true;
    }
    if (!y_printable(e, i))
      special = true;
    if (y_space(e, i)) {
      leading_space = leading_space || i == 0;
      trailing_space = trailing_space || i + w == n;
      break_space = break_space || prev_break;
      prev_space = true;
      prev_break = false;
    } else if (y_break(e, i)) {
      line_breaks = true;
      leading_break = leading_break || i == 0;
      trailing_break = trailing_break || i + w == n;
      space_break = space_break || prev_space;
      prev_space = false;
      prev_break = true;
    } else {
      prev_space = prev_break = false;
    }
    preceded_ws = y_blankz(e, i);
  }
  e->multiline = line_breaks;
  e->flow_plain_allowed = e->block_plain_allowed = true;
  e->single_quoted_allowed = e->block_allowed = true;
  if (leading_space || leading_break || trailing_space || trailing_break)
    e->flow_plain_allowed = e->block_plain_allowed = false;
  if (trailing_space)
    e->block_allowed = false;
  if (break_space)
    e->flow_plain_allowed = e->block_plain_allowed =
        e->single_quoted_allowed = false;
  if (space_break || special)
    e->flow_plain_allowed = e->block_plain_allowed =
        e->single_quoted_allowed = e->block_allowed = false;
  if (line_breaks)
    e->flow_plain_allowed = e->block_plain_allowed = false;
  if (flow_ind)
    e->flow_plain_allowed = false;
  if (block_ind)
    e->block_plain_allowed = false;
}

/* yaml_emitter_select_scalar_style */
static enum ystyle yselect_style(const struct yem *e, enum ystyle style) {
  if (e->simple_key_ctx && e->multiline)
    style = YS_DOUBLE;
  if (style == YS_PLAIN) {
    if ((e->flow_level && !e->flow_plain_allowed) ||
        (!e->flow_level && !e->block_plain_allowed))
      style = YS_SINGLE;
    if (!e->len && (e->flow_level || e->simple_key_ctx))
      style = YS_SINGLE;
  }
  if (style == YS_SINGLE && !e->single_quoted_allowed)
    style = YS_DOUBLE;
  if (style == YS_LITERAL &&
      (!e->block_allowed || e->flow_level || e->simple_key_ctx))
    style = YS_DOUBLE;
  return style;
}

static void ywrite_plain(struct yem *e, bool allow_breaks) {
  if (!e->whitespace)
    yput(e, ' ');
  bool spaces = false, breaks = false;
  for (size_t i = 0; i < e->len;) {
    if (y_space(e, i)) {
      if (allow_breaks && !spaces && e->column > BEST_WIDTH &&
          !y_space(e, i + 1)) {
        ywrite_indent(e);
        i++;
      } else {
        ywrite(e, &i);
      }
      spaces = true;
    } else if (y_break(e, i)) {
      if (!breaks && yb(e, i) == '\n')
        yput_break(e);
      ywrite_break(e, &i);
      e->indention = true;
      breaks = true;
    } else {
      if (breaks)
        ywrite_indent(e);
      ywrite(e, &i);
      e->indention = false;
      spaces = breaks = false;
    }
  }
  e->whitespace = e->indention = false;
  if (e->root_ctx)
    e->open_ended = true;
}

static void ywrite_single(struct yem *e, bool allow_breaks) {
  ywrite_indicator(e, "'", true, false, false);
  bool spaces = false, breaks = false;
  for (size_t i = 0; i < e->len;) {
    if (y_space(e, i)) {
      if (allow_breaks && !spaces && e->column > BEST_WIDTH && i > 0 &&
          i < e->len - 1 && !y_space(e, i + 1)) {
        ywrite_indent(e);
        i++;
      } else {
        ywrite(e, &i);
      }
      spaces = true;
    } else if (y_break(e, i)) {
      if (!breaks && yb(e, i) == '\n')
        yput_break(e);
      ywrite_break(e, &i);
      e->indention = true;
      breaks = true;
    } else {
      if (breaks)
        ywrite_indent(e);
      if (yb(e, i) == '\'')
        yput(e, '\'');
      ywrite(e, &i);
      e->indention = false;
      spaces = breaks = false;
    }
  }
  ywrite_indicator(e, "'", false, false, false);
  e->whitespace = e->indention = false;
}

/* One escaped character of a double-quoted scalar. */
static void ywrite_escape(struct yem *e, size_t *i) {
  static const char hex[] = "0123456789ABCDEF";
  unsigned char c = yb(e, *i);
  size_t w = ywidth(c);
  int32_t v = (c & 0x80) == 0 ? c & 0x7F : (c & 0xE0) == 0xC0 ? c & 0x1F
              : (c & 0xF0) == 0xE0 ? c & 0x0F : c & 0x07;
  for (size_t k = 1; k < w; k++)
    v = (v << 6) + (yb(e, *i + k) & 0x3F);
  *i += w ? w : 1;
  yput(e, '\\');
  static const struct {
    int32_t cp;
    char c;
  } named[] = {{0, '0'},   {7, 'a'},    {8, 'b'},      {9, 't'},
               {10, 'n'},  {11, 'v'},   {12, 'f'},     {13, 'r'},
               {27, 'e'},  {'"', '"'},  {'\\', '\\'},  {0x85, 'N'},
               {0xA0, '_'}, {0x2028, 'L'}, {0x2029, 'P'}};
  for (size_t k = 0; k < sizeof named / sizeof *named; k++)
    if (named[k].cp == v) {
      yput(e, named[k].c);
      return;
    }
  int digits = v <= 0xFF ? 2 : v <= 0xFFFF ? 4 : 8;
  yput(e, digits == 2 ? 'x' : digits == 4 ? 'u' : 'U');
  for (int k = (digits - 1) * 4; k >= 0; k -= 4)
    yput(e, hex[(v >> k) & 15]);
}

static void ywrite_double(struct yem *e, bool allow_breaks) {
  bool spaces = false;
  ywrite_indicator(e, "\"", true, false, false);
  for (size_t i = 0; i < e->len;) {
    unsigned char c = yb(e, i);
    if (!y_printable(e, i) || y_bom(e) || y_break(e, i) || c == '"' ||
        c == '\\') {
      ywrite_escape(e, &i);
      spaces = false;
    } else if (y_space(e, i)) {
      if (allow_breaks && !spaces && e->column > BEST_WIDTH && i > 0 &&
          i < e->len - 1) {
        ywrite_indent(e);
        if (y_space(e, i + 1))
          yput(e, '\\');
        i++;
      } else {
        ywrite(e, &i);
      }
      spaces = true;
    } else {
      ywrite(e, &i);
      spaces = false;
    }
  }
  ywrite_indicator(e, "\"", false, false, false);
  e->whitespace = e->indention = false;
}

/* The indentation and chomping indicators of a block scalar. */
static void yblock_hints(struct yem *e) {
  if (y_space(e, 0) || y_break(e, 0)) {
    char hint[2] = {'0' + BEST_INDENT, 0};
    ywrite_indicator(e, hint, false, false, false);
  }
  e->open_ended = false;
  const char *chomp = NULL;
  if (!e->len) {
    chomp = "-";
  } else {
    size_t i = e->len - 1;
    while (i > 0 && (yb(e, i) & 0xC0) == 0x80)
      i--;
    if (!y_break(e, i)) {
      chomp = "-";
    } else if (i == 0) {
      chomp = "+";
    } else {
      i--;
      while (i > 0 && (yb(e, i) & 0xC0) == 0x80)
        i--;
      if (y_break(e, i))
        chomp = "+";
    }
  }
  if (chomp)
    ywrite_indicator(e, chomp, false, false, false);
}

static void ywrite_literal(struct yem *e) {
  ywrite_indicator(e, "|", true, false, false);
  yblock_hints(e);
  yput_break(e);
  e->indention = e->whitespace = true;
  bool breaks = true;
  for (size_t i = 0; i < e->len;) {
    if (y_break(e, i)) {
      ywrite_break(e, &i);
      e->indention = true;
      breaks = true;
    } else {
      if (breaks)
        ywrite_indent(e);
      ywrite(e, &i);
      e->indention = false;
      breaks = false;
    }
  }
}

/* A scalar node (already analysed). */
static void yemit_scalar(struct yem *e, enum ystyle want) {
  enum ystyle style = yselect_style(e, want);
  yincrease_indent(e, true, false);
  switch (style) {
  case YS_PLAIN:
    ywrite_plain(e, !e->simple_key_ctx);
    break;
  case YS_SINGLE:
    ywrite_single(e, !e->simple_key_ctx);
    break;
  case YS_DOUBLE:
    ywrite_double(e, !e->simple_key_ctx);
    break;
  default:
    ywrite_literal(e);
  }
  ypop_indent(e);
}

/* Analyse the scalar of a primitive value; its requested style. */
static enum ystyle yscalar_of(struct yem *e, tfr_arena *a,
                              const tfr_value *v) {
  if (v->flags & TFR_V_NULL) {
    yanalyze(e, "null", 4);
    return YS_PLAIN;
  }
  if (v->type->kind == TFR_STRING) {
    yanalyze(e, v->s, v->n);
    return memchr(v->s, '\n', v->n) ? YS_LITERAL : YS_DOUBLE;
  }
  const char *t = v->type->kind == TFR_BOOL ? (v->b ? "true" : "false")
                                            : num_format(a, v->num);
  yanalyze(e, t, strlen(t));
  return YS_PLAIN;
}

static void yemit_node(struct yem *e, tfr_arena *a, const tfr_value *v,
                       bool root, bool seq, bool map, bool simple_key);

/* A block mapping's key and value. */
static void yemit_pair(struct yem *e, tfr_arena *a, const tfr_value *k,
                       const tfr_value *v) {
  ywrite_indent(e);
  enum ystyle ks = yscalar_of(e, a, k);
  if (!e->multiline && e->len <= 128) {
    e->root_ctx = e->seq_ctx = false;
    e->map_ctx = e->simple_key_ctx = true;
    yemit_scalar(e, ks);
    ywrite_indicator(e, ":", false, false, false);
  } else {
    ywrite_indicator(e, "?", true, false, true);
    yscalar_of(e, a, k);
    e->root_ctx = e->seq_ctx = e->simple_key_ctx = false;
    e->map_ctx = true;
    yemit_scalar(e, ks);
    ywrite_indent(e);
    ywrite_indicator(e, ":", true, false, true);
  }
  yemit_node(e, a, v, false, false, true, false);
}

static void yemit_node(struct yem *e, tfr_arena *a, const tfr_value *v,
                       bool root, bool seq, bool map, bool simple_key) {
  e->root_ctx = root;
  e->seq_ctx = seq;
  e->map_ctx = map;
  e->simple_key_ctx = simple_key;
  int k = v->type->kind;
  if ((v->flags & TFR_V_NULL) || tfr_type_is_primitive(v->type)) {
    yemit_scalar(e, yscalar_of(e, a, v));
    return;
  }
  bool mapping = k == TFR_MAP || k == TFR_OBJECT;
  if (e->flow_level || !v->n) { /* an empty collection: [] or {} */
    ywrite_indicator(e, mapping ? "{" : "[", true, true, false);
    yincrease_indent(e, true, false);
    ywrite_indicator(e, mapping ? "}" : "]", false, false, false);
    ypop_indent(e);
    return;
  }
  yincrease_indent(e, false, !mapping && e->map_ctx && !e->indention);
  for (uint32_t i = 0; i < v->n; i++) {
    if (!mapping) {
      ywrite_indent(e);
      ywrite_indicator(e, "-", true, false, true);
      yemit_node(e, a, v->elems[i], false, true, false, false);
      continue;
    }
    const tfr_value *key =
        k == TFR_MAP ? tfr_string_nocopy(a, v->keys[i], v->keylens[i])
                     : tfr_string_nocopy(a, v->type->names[i],
                                         strlen(v->type->names[i]));
    yemit_pair(e, a, key, v->elems[i]);
  }
  ypop_indent(e);
}

/* yamlencode(value) */
static const tfr_value *fn_yamlencode(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  struct yem e;
  memset(&e, 0, sizeof e);
  e.indent = -1;
  e.whitespace = e.indention = true;
  sbuf_put(&e.out, "", 0);
  yemit_node(&e, f->a, f->args[0], true, false, false, false);
  ywrite_indent(&e); /* document end */
  if (e.open_ended) { /* stream end */
    ywrite_indicator(&e, "...", true, false, false);
    ywrite_indent(&e);
  }
  free(e.indents);
  return sbuf_value(f->a, &e.out);
}


/* ---- the table ------------------------------------------------------------ */

#define STR(name) {name, &tfr_t_string, 0}

static const struct func_spec specs[] = {
    {"base64decode", 1,
     {{"str", &tfr_t_string, FP_ALLOW_MARKED | FP_ALLOW_UNKNOWN}}, NULL,
     &tfr_t_string, NULL, fn_base64decode},
    {"base64encode", 1, {STR("str")}, NULL, &tfr_t_string, NULL,
     fn_base64encode},
    {"base64gzip", 1, {STR("str")}, NULL, &tfr_t_string, NULL,
     fn_base64gzip},
    {"csvdecode", 1, {STR("str")}, NULL, NULL, csvdecode_type,
     fn_csvdecode},
    {"jsondecode", 1, {STR("str")}, NULL, NULL, jsondecode_type,
     fn_jsondecode},
    {"jsonencode", 1,
     {{"val", NULL, FP_ALLOW_NULL | FP_ALLOW_DYNAMIC}}, NULL,
     &tfr_t_string, NULL, fn_jsonencode},
    {"textdecodebase64", 2, {STR("source"), STR("encoding")}, NULL,
     &tfr_t_string, NULL, fn_textdecodebase64},
    {"textencodebase64", 2, {STR("string"), STR("encoding")}, NULL,
     &tfr_t_string, NULL, fn_textencodebase64},
    {"urlencode", 1, {STR("str")}, NULL, &tfr_t_string, NULL,
     fn_urlencode},
    {"yamldecode", 1, {STR("src")}, NULL, NULL, yamldecode_type,
     fn_yamldecode},
    {"yamlencode", 1,
     {{"value", NULL, FP_ALLOW_NULL | FP_ALLOW_DYNAMIC}}, NULL,
     &tfr_t_string, NULL, fn_yamlencode},
};

const struct func_group funcs_encoding = {specs,
                                          sizeof specs / sizeof *specs};
