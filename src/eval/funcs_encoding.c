/*
** Encoding functions: base64decode base64encode base64gzip
** textencodebase64 textdecodebase64 urlencode csvdecode, and OpenTofu's
** urldecode and base64gunzip (funcs_encoding_tofu, -engine=opentofu);
** jsondecode and jsonencode are in funcs_json.c, yamldecode in
** funcs_yaml.c, yamlencode in funcs_yaml_emit.c (what they share:
** funcs_encoding_int.h).
**
** Each reproduces what Terraform runs: its own functions
** (internal/lang/funcs/encoding.go), cty's stdlib (json.go, csv.go) and
** go-cty-yaml 1.1.0, down to the Go libraries under them, because their
** quirks are visible in results and messages: Go's base64 decoder (skips
** newlines, no strict padding bits), url.QueryEscape, encoding/csv,
** encoding/json's streaming Decoder.Token (its error texts), the Go port
** of libyaml 0.1 in go-cty-yaml, and compress/flate (ported: zlib
** compresses differently).
**
** The reference program has all but base64gzip, textencodebase64 and
** textdecodebase64, and tests/eval/funcs_encoding.test agrees with it.
*/
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <utf8proc.h>
#include <yaml.h>

#include "base/arena_int.h"
#include "values/convert.h"
#include "eval/funcs.h"
#include "eval/funcs_encoding_int.h"
#include "values/number.h"
#include "eval/gobase64.h"
#include "eval/goflate.h"
#include "base/json_out.h"
#include "base/strutil.h"
#include "values/secret.h"
#include "base/heap.h"

#define MARKS (TFR_V_SENSITIVE | TFR_V_EPHEMERAL)

/* ---- small helpers ------------------------------------------------------- */

const tfr_value *number_value(tfr_arena *a, const struct tfr_num *n) {
  tfr_value *v = tfr_arena_alloc(a, sizeof *v);
  v->type = &tfr_t_number;
  v->num = n;
  return v;
}

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
size_t keep_last(struct named *v, size_t n) {
  qsort(v, n, sizeof *v, named_cmp);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (k && !strcmp(v[k - 1].name, v[i].name))
      k--;
    v[k++] = v[i];
  }
  return k;
}

/* base64encode(str) */
static const tfr_value *fn_base64encode(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  struct sbuf b = {0};
  go_b64_encode(&b, (const unsigned char *)f->args[0]->s, f->args[0]->n);
  return sbuf_value(f->a, &b);
}

/*
** Decodes the Base64 (Go's StdEncoding) argument s into *b; false after
** the error, which quotes s unless it is sensitive (as Terraform and
** OpenTofu do).
*/
static bool b64_decode_arg(struct fcall *f, const tfr_value *s,
                           struct sbuf *b) {
  size_t bad;
  if (go_b64_decode(b, s->s, s->n, &bad))
    return true;
  free(b->p);
  fcall_error(f, "failed to decode base64 data %s",
              (s->flags & TFR_V_SENSITIVE) ? SECRET_TEXT
                                           : str_go_quote(f->a, s->s, s->n));
  return false;
}

/*
** base64decode(str): the decoded bytes, which must be UTF-8.  As in
** Terraform, the argument keeps its marks and a sensitive one is not
** quoted in the error.
*/
static const tfr_value *fn_base64decode(struct fcall *f, const tfr_type *ret) {
  const tfr_value *s = f->args[0];
  unsigned marks = s->flags & MARKS;
  if (s->flags & TFR_V_UNKNOWN)
    return tfr_value_mark(f->a, tfr_unknown(f->a, ret), marks);
  struct sbuf b = {0};
  if (!b64_decode_arg(f, s, &b))
    return NULL;
  if (!str_utf8_valid(b.p, b.n)) {
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

/* ---- textencodebase64 / textdecodebase64 ----------------------------------
 */

/*
** The encodings of golang.org/x/text's ianaindex.IANA that tfresolve
** implements (Terraform's x/text has about sixty; the other names give
** the "not a supported IANA encoding" error here).  Names match without
** regard to case, as IANA.Encoding matches them.
*/
enum textenc {
  TE_UTF8,
  TE_UTF16,
  TE_UTF16BE,
  TE_UTF16LE,
  TE_LATIN1,
  TE_LATIN9,
  TE_CP1252,
  TE_ASCII
};

static const struct {
  const char *alias;
  enum textenc enc;
} enc_aliases[] = {{"UTF-8", TE_UTF8},
                   {"csUTF8", TE_UTF8},
                   {"UTF-16", TE_UTF16},
                   {"csUTF16", TE_UTF16},
                   {"UTF-16BE", TE_UTF16BE},
                   {"csUTF16BE", TE_UTF16BE},
                   {"UTF-16LE", TE_UTF16LE},
                   {"csUTF16LE", TE_UTF16LE},
                   {"ISO_8859-1:1987", TE_LATIN1},
                   {"iso-ir-100", TE_LATIN1},
                   {"ISO_8859-1", TE_LATIN1},
                   {"ISO-8859-1", TE_LATIN1},
                   {"latin1", TE_LATIN1},
                   {"l1", TE_LATIN1},
                   {"IBM819", TE_LATIN1},
                   {"CP819", TE_LATIN1},
                   {"csISOLatin1", TE_LATIN1},
                   {"ISO-8859-15", TE_LATIN9},
                   {"ISO_8859-15", TE_LATIN9},
                   {"Latin-9", TE_LATIN9},
                   {"csISO885915", TE_LATIN9},
                   {"windows-1252", TE_CP1252},
                   {"cswindows1252", TE_CP1252},
                   {"US-ASCII", TE_ASCII},
                   {"iso-ir-6", TE_ASCII},
                   {"ANSI_X3.4-1968", TE_ASCII},
                   {"ANSI_X3.4-1986", TE_ASCII},
                   {"ISO_646.irv:1991", TE_ASCII},
                   {"ISO646-US", TE_ASCII},
                   {"us", TE_ASCII},
                   {"IBM367", TE_ASCII},
                   {"cp367", TE_ASCII},
                   {"csASCII", TE_ASCII}};

/* IANA.Name of each encoding (the canonical IANA name). */
static const char *const enc_names[] = {
    "UTF-8",           "UTF-16",      "UTF-16BE",     "UTF-16LE",
    "ISO_8859-1:1987", "ISO-8859-15", "windows-1252", "US-ASCII"};

/* The encoding named by v, or -1. */
static int lookup_encoding(const tfr_value *v) {
  const char *s = v->s;
  size_t n = v->n;
  str_go_trim_space(&s, &n);
  for (size_t i = 0; i < sizeof enc_aliases / sizeof *enc_aliases; i++)
    if (strlen(enc_aliases[i].alias) == n &&
        !strncasecmp(enc_aliases[i].alias, s, n))
      return (int)enc_aliases[i].enc;
  return -1;
}

/* windows-1252 0x80-0x9F (WHATWG's table; x/text maps its holes to
** U+FFFD, and the C1 controls of ISO-8859-15, also WHATWG's, too). */
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
  if ((e == TE_ASCII && c >= 0x80) || (e == TE_LATIN9 && c >= 0x80 && c < 0xA0))
    return 0xFFFD;
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
  if (e == TE_ASCII)
    return -1;
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

void put_cp(struct sbuf *b, int32_t cp) {
  utf8proc_uint8_t u[4];
  utf8proc_ssize_t k = utf8proc_encode_char(cp, u);
  sbuf_put(b, (const char *)u, (size_t)k);
}

/* x/text's UTF-16 decoder: bad sequences become U+FFFD; "UTF-16" takes
** its byte order from a BOM (and drops it), else big-endian. */
static void utf16_decode(struct sbuf *b, enum textenc e, const unsigned char *s,
                         size_t n) {
  size_t i = 0;
  bool le = e == TE_UTF16LE;
  if (e == TE_UTF16 && n >= 2) {
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
        r = r < 0xDC00 ? 0x10000 + ((r - 0xD800) << 10) + (x - 0xDC00) : 0xFFFD;
        w = 4;
      }
    }
    put_cp(b, r >= 0xD800 && r < 0xE000 ? 0xFFFD : r);
    i += w;
  }
}

/* Decode bytes in encoding e to UTF-8, bad input as U+FFFD. */
static void text_decode(struct sbuf *b, enum textenc e, const unsigned char *s,
                        size_t n) {
  sbuf_put(b, "", 0);
  if (e == TE_UTF16 || e == TE_UTF16BE || e == TE_UTF16LE) {
    utf16_decode(b, e, s, n);
    return;
  }
  for (size_t i = 0; i < n;) {
    if (e != TE_UTF8) {
      put_cp(b, sbcs_decode(e, s[i++]));
      continue;
    }
    utf8proc_int32_t cp;
    utf8proc_ssize_t k =
        utf8proc_iterate(s + i, (utf8proc_ssize_t)(n - i), &cp);
    if (k <= 0) {
      put_cp(b, 0xFFFD);
      i++;
    } else {
      sbuf_put(b, (const char *)s + i, (size_t)k);
      i += (size_t)k;
    }
  }
}

/* The encoding named by argument 1 of textencodebase64 and
** textdecodebase64; -1 after the error. */
static int encoding_arg(struct fcall *f) {
  int e = lookup_encoding(f->args[1]);
  if (e < 0)
    fcall_arg_error(f, 1,
                    "%s is not a supported IANA encoding name or "
                    "alias in this Terraform version",
                    str_go_quote(f->a, f->args[1]->s, f->args[1]->n));
  return e;
}

/* textencodebase64(string, encoding) */
static const tfr_value *fn_textencodebase64(struct fcall *f,
                                            const tfr_type *ret) {
  (void)ret;
  int e = encoding_arg(f);
  if (e < 0)
    return NULL;
  struct sbuf raw = {0}, b = {0};
  if (!text_encode(&raw, (enum textenc)e, f->args[0]->s, f->args[0]->n)) {
    free(raw.p);
    fcall_arg_error(f, 0,
                    "the given string contains characters that "
                    "cannot be represented in %s",
                    enc_names[e]);
    return NULL;
  }
  go_b64_encode(&b, (const unsigned char *)raw.p, raw.n);
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
  int e = encoding_arg(f);
  if (e < 0)
    return NULL;
  struct sbuf raw = {0}, b = {0};
  size_t bad;
  if (!go_b64_decode(&raw, f->args[0]->s, f->args[0]->n, &bad)) {
    free(raw.p);
    /* internal/lang/funcs/encoding.go since terraform#38289 (before it:
    ** "is has") */
    fcall_arg_error(f, 0,
                    "the given value has an invalid base64 symbol "
                    "at offset %zu",
                    bad);
    return NULL;
  }
  text_decode(&b, (enum textenc)e, (unsigned char *)raw.p, raw.n);
  free(raw.p);
  if (has_replacement(b.p, b.n)) {
    free(b.p);
    fcall_arg_error(f, 0,
                    "the given string contains symbols that are not "
                    "defined for %s",
                    enc_names[e]);
    return NULL;
  }
  return sbuf_value(f->a, &b);
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
  go_b64_encode(&b, (const unsigned char *)raw.p, raw.n);
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
    rec->ends = heap_realloc(rec->ends, rec->cap * sizeof *rec->ends);
  }
  rec->ends[rec->nfields++] = rec->rec.n;
}

/* A quoted field starting after its quote at *pp; false at the end of
** the record. */
static bool csv_quoted(struct csv_reader *r, struct csv_record *rec, size_t *pp,
                       int *pos_line, size_t *pos_col, bool *more) {
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
      size_t flen = comma ? (size_t)(comma - line) : len - length_nl(line, len);
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
    const char **names =
        tfr_arena_alloc(f->a, (rec.nfields + 1) * sizeof *names);
    const tfr_type **types =
        tfr_arena_alloc(f->a, (rec.nfields + 1) * sizeof *types);
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
                  str_go_quote(f->a, names[dup], strlen(names[dup])));
    i = dup;
    if (i == rec.nfields)
      t = tfr_type_list(f->a,
                        tfr_type_object(f->a, rec.nfields, names, types, NULL));
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
      fcall_error(f, "CSV parse error on line %d: %s", rec.err_line, rec.err);
      csv_free(&r, &rec);
      return NULL;
    }
    const tfr_value **vals = tfr_arena_alloc(f->a, (nh + 1) * sizeof *vals);
    for (size_t i = 0; i < nh; i++) {
      size_t start = i ? rec.ends[i - 1] : 0;
      vals[i] = tfr_string(f->a, rec.rec.p + start, rec.ends[i] - start);
    }
    ARENA_GROW(f->a, rows, nrows, cap, 16);
    rows[nrows++] = tfr_object(f->a, nh, names, vals);
  }
  csv_free(&r, &rec);
  return tfr_list(f->a, ety, nrows, rows);
}

/* ---- OpenTofu's urldecode and base64gunzip --------------------------------
**
** OpenTofu only (internal/lang/funcs/encoding.go): the group
** funcs_encoding_tofu exists with -engine=opentofu.
*/

/*
** urldecode(str): Go's url.QueryUnescape.  Every '%' must start two hex
** digits, checked before anything is decoded; '+' is a space; other bytes
** stay as they are (the result may not be UTF-8).  OpenTofu prints the
** empty string QueryUnescape returns on error where the URL would be.
*/
static const tfr_value *fn_urldecode(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const char *s = f->args[0]->s;
  size_t n = f->args[0]->n;
  for (size_t i = 0; i < n; i++) {
    if (s[i] != '%')
      continue;
    if (i + 2 >= n || str_hex_digit((unsigned char)s[i + 1]) < 0 ||
        str_hex_digit((unsigned char)s[i + 2]) < 0) {
      size_t k = n - i < 3 ? n - i : 3;
      fcall_error(f, "failed to decode URL '': invalid URL escape %s",
                  str_go_quote(f->a, s + i, k));
      return NULL;
    }
    i += 2;
  }
  struct sbuf b = {0};
  sbuf_put(&b, "", 0);
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c == '%') {
      c = (char)(str_hex_digit((unsigned char)s[i + 1]) << 4 |
                 str_hex_digit((unsigned char)s[i + 2]));
      i += 2;
    } else if (c == '+') {
      c = ' ';
    }
    sbuf_put(&b, &c, 1);
  }
  return sbuf_value(f->a, &b);
}

/*
** base64gunzip(str): Base64 (Go's StdEncoding) then gzip, the result
** kept as bytes (it need not be UTF-8).  As in OpenTofu the argument
** keeps its marks, which the result carries, and a sensitive one is not
** quoted in the error.
*/
static const tfr_value *fn_base64gunzip(struct fcall *f, const tfr_type *ret) {
  const tfr_value *s = f->args[0];
  unsigned marks = s->flags & MARKS;
  if (s->flags & TFR_V_UNKNOWN)
    return tfr_value_mark(f->a, tfr_unknown(f->a, ret), marks);
  struct sbuf raw = {0}, b = {0};
  if (!b64_decode_arg(f, s, &raw))
    return NULL;
  const char *err = NULL;
  bool ok = go_gunzip(f->a, &b, (const unsigned char *)raw.p, raw.n, &err);
  free(raw.p);
  if (!ok) {
    free(b.p);
    fcall_error(f, "%s", err);
    if (!strncmp(err, "value too large:", 16))
      fcall_ours(f); /* our memory limits, not OpenTofu's words */
    return NULL;
  }
  return tfr_value_mark(f->a, sbuf_value(f->a, &b), marks);
}

/* ---- the table ------------------------------------------------------------
 */

static const struct func_spec specs[] = {
    {"base64decode",
     1,
     {{"str", &tfr_t_string, FP_ALLOW_MARKED | FP_ALLOW_UNKNOWN}},
     NULL,
     &tfr_t_string,
     NULL,
     fn_base64decode},
    {"base64encode",
     1,
     {STR("str")},
     NULL,
     &tfr_t_string,
     NULL,
     fn_base64encode},
    {"base64gzip", 1, {STR("str")}, NULL, &tfr_t_string, NULL, fn_base64gzip},
    {"csvdecode", 1, {STR("str")}, NULL, NULL, csvdecode_type, fn_csvdecode},
    {"textdecodebase64",
     2,
     {STR("source"), STR("encoding")},
     NULL,
     &tfr_t_string,
     NULL,
     fn_textdecodebase64},
    {"textencodebase64",
     2,
     {STR("string"), STR("encoding")},
     NULL,
     &tfr_t_string,
     NULL,
     fn_textencodebase64},
    {"urlencode", 1, {STR("str")}, NULL, &tfr_t_string, NULL, fn_urlencode},
};

const struct func_group funcs_encoding = {specs, sizeof specs / sizeof *specs};
static const struct func_spec specs_tofu[] = {
    {"base64gunzip",
     1,
     {{"str", &tfr_t_string, FP_ALLOW_MARKED | FP_ALLOW_UNKNOWN}},
     NULL,
     &tfr_t_string,
     NULL,
     fn_base64gunzip},
    {"urldecode", 1, {STR("str")}, NULL, &tfr_t_string, NULL, fn_urldecode},
};

const struct func_group funcs_encoding_tofu = {
    specs_tofu, sizeof specs_tofu / sizeof *specs_tofu};
