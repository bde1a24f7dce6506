/*
** Crypto functions, as Terraform's internal/lang/funcs/crypto.go runs
** them:
**   md5 sha1 sha256 sha512 (lower-case hex) and base64sha256
**   base64sha512 (standard Base64 with padding): makeStringHashFunction,
**   the hash of the string's UTF-8 bytes (after HCL's NFC normalisation),
**   via libcrypto;
**   uuid(): hashicorp/go-uuid, 16 random bytes as 8-4-4-4-12 hex digits,
**   version and variant bits not set (Terraform's historical behaviour);
**   uuidv5(namespace, name): google/uuid's NewSHA1 and Parse;
**   bcrypt(str, cost?): golang.org/x/crypto/bcrypt, "$2a$" hashes with a
**   random salt, through libxcrypt;
**   rsadecrypt(ciphertext, privatekey): x/crypto/ssh's key parsing and
**   crypto/rsa's PKCS #1 v1.5 decryption, with their error texts, on
**   OpenSSL's big numbers.
*/
#include <crypt.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

#include <openssl/bn.h>
#include <openssl/evp.h>

#include "eval/engine.h"
#include "base/arena_int.h"
#include "base/compat.h"
#include "eval/funcs.h"
#include "values/number.h"
#include "eval/gobase64.h"
#include "base/strutil.h"
#include "base/heap.h"

/* The digest of n bytes; its length in *len (0 on failure). */
static void digest(const EVP_MD *md, const void *data, size_t n,
                   unsigned char *out, unsigned *len) {
  if (!EVP_Digest(data, n, out, len, md, NULL))
    *len = 0; /* only on allocation failure inside OpenSSL */
}

const tfr_value *funcs_hash(tfr_arena *a, const char *algo, bool base64,
                            const void *data, size_t n) {
  const EVP_MD *md = EVP_get_digestbyname(algo);
  unsigned char d[EVP_MAX_MD_SIZE];
  unsigned len = 0;
  if (md)
    digest(md, data, n, d, &len);
  if (base64) {
    unsigned char *out = tfr_arena_alloc(a, 4 * ((size_t)len + 2) / 3 + 1);
    int k = EVP_EncodeBlock(out, d, (int)len);
    return tfr_string_nocopy(a, (const char *)out, (size_t)k);
  }
  static const char hex[] = "0123456789abcdef";
  char *out = tfr_arena_alloc(a, 2 * (size_t)len + 1);
  for (unsigned i = 0; i < len; i++) {
    out[2 * i] = hex[d[i] >> 4];
    out[2 * i + 1] = hex[d[i] & 15];
  }
  out[2 * (size_t)len] = '\0';
  return tfr_string_nocopy(a, out, 2 * (size_t)len);
}

#define HASH_FN(fn, algo, base64)                                              \
  static const tfr_value *fn(struct fcall *f, const tfr_type *r) {             \
    (void)r;                                                                   \
    return funcs_hash(f->a, algo, base64, f->args[0]->s, f->args[0]->n);       \
  }

HASH_FN(fn_md5, "md5", false)
HASH_FN(fn_sha1, "sha1", false)
HASH_FN(fn_sha256, "sha256", false)
HASH_FN(fn_sha512, "sha512", false)
HASH_FN(fn_base64sha256, "sha256", true)
HASH_FN(fn_base64sha512, "sha512", true)

/* ---- randomness ---------------------------------------------------------- */

/* n bytes from the kernel's CSPRNG (compat_random, else /dev/urandom), as Go's
** crypto/rand.Reader; false with errno set when neither works. */
static bool random_bytes(unsigned char *p, size_t n) {
  while (n) {
    ssize_t k = compat_random(p, n);
    if (k < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    p += k;
    n -= (size_t)k;
  }
  if (!n)
    return true;
  FILE *r = fopen("/dev/urandom", "rb");
  if (!r)
    return false;
  size_t got = fread(p, 1, n, r);
  fclose(r);
  if (got != n)
    errno = EIO;
  return got == n;
}

static const char hexdigits[] = "0123456789abcdef";

/* The 8-4-4-4-12 text of 16 bytes, lower case. */
static const tfr_value *uuid_text(tfr_arena *a, const unsigned char *u) {
  char s[37];
  size_t k = 0;
  for (int i = 0; i < 16; i++) {
    if (i == 4 || i == 6 || i == 8 || i == 10)
      s[k++] = '-';
    s[k++] = hexdigits[u[i] >> 4];
    s[k++] = hexdigits[u[i] & 15];
  }
  return tfr_string(a, s, 36);
}

/* uuid(): go-uuid's GenerateUUID.  Not an RFC 4122 version 4 UUID: all 128
** bits are random, as in Terraform. */
static const tfr_value *fn_uuid(struct fcall *f, const tfr_type *r) {
  (void)r;
  unsigned char u[16];
  if (!random_bytes(u, sizeof u)) {
    fcall_error(f, "failed to read random bytes: %s", strerror(errno));
    return NULL;
  }
  return uuid_text(f->a, u);
}

/* google/uuid's xtob: two hex digits as a byte. */
static bool xtob(const char *s, unsigned char *out) {
  int hi = str_hex_digit((unsigned char)s[0]),
      lo = str_hex_digit((unsigned char)s[1]);
  if (hi < 0 || lo < 0)
    return false;
  *out = (unsigned char)(hi << 4 | lo);
  return true;
}

/*
** google/uuid 1.6's Parse: 36 characters, "urn:uuid:" + 36, 38 (braces
** assumed, not checked) or 32 hex digits.  NULL, or Go's error text.
*/
static const char *uuid_parse(tfr_arena *a, const char *s, size_t n,
                              unsigned char *u) {
  switch (n) {
  case 36:
    break;
  case 36 + 9:
    if (strncasecmp(s, "urn:uuid:", 9)) {
      struct sbuf q = {0};
      sbuf_go_quote(&q, s, 9);
      const char *e = tfr_arena_printf(a, "invalid urn prefix: %s", q.p);
      free(q.p);
      return e;
    }
    s += 9;
    break;
  case 36 + 2:
    s++;
    break;
  case 32:
    for (int i = 0; i < 16; i++)
      if (!xtob(s + 2 * i, &u[i]))
        return "invalid UUID format";
    return NULL;
  default:
    return tfr_arena_printf(a, "invalid UUID length: %zu", n);
  }
  if (s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-')
    return "invalid UUID format";
  static const int at[16] = {0,  2,  4,  6,  9,  11, 14, 16,
                             19, 21, 24, 26, 28, 30, 32, 34};
  for (int i = 0; i < 16; i++)
    if (!xtob(s + at[i], &u[i]))
      return "invalid UUID format";
  return NULL;
}

/* uuidv5(namespace, name): SHA-1 of the namespace's 16 bytes and the name,
** version 5, RFC 4122 variant. */
static const tfr_value *fn_uuidv5(struct fcall *f, const tfr_type *r) {
  (void)r;
  static const struct {
    const char *name;
    unsigned char last;
  } known[] = {{"dns", 0x10}, {"url", 0x11}, {"oid", 0x12}, {"x500", 0x14}};
  const tfr_value *ns = f->args[0], *name = f->args[1];
  unsigned char u[16] = {0x6b, 0xa7, 0xb8, 0x00, 0x9d, 0xad, 0x11, 0xd1,
                         0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8};
  size_t i = 0;
  while (
      i < sizeof known / sizeof *known &&
      !(strlen(known[i].name) == ns->n && !memcmp(known[i].name, ns->s, ns->n)))
    i++;
  if (i < sizeof known / sizeof *known) {
    u[3] = known[i].last;
  } else {
    const char *err = uuid_parse(f->a, ns->s, ns->n, u);
    if (err) {
      fcall_error(f, "uuidv5() doesn't support namespace %.*s (%s)", (int)ns->n,
                  ns->s, err);
      return NULL;
    }
  }
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  unsigned char d[EVP_MAX_MD_SIZE];
  unsigned len = 0;
  if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha1(), NULL) ||
      !EVP_DigestUpdate(ctx, u, 16) ||
      !EVP_DigestUpdate(ctx, name->s, name->n) ||
      !EVP_DigestFinal_ex(ctx, d, &len))
    tfr_oom(); /* only on allocation failure inside OpenSSL */
  EVP_MD_CTX_free(ctx);
  d[6] = (unsigned char)((d[6] & 0x0f) | 0x50);
  d[8] = (unsigned char)((d[8] & 0x3f) | 0x80);
  return uuid_text(f->a, d);
}

/* ---- bcrypt -------------------------------------------------------------- */

/*
** bcrypt(str, cost...): x/crypto/bcrypt's GenerateFromPassword, whose
** checks come in this order: Terraform reads the cost into a Go int, then
** complains about a third argument; passwords over 72 bytes are refused;
** a cost under 4 means 10; over 31 is refused.  The hash is libxcrypt's
** "$2a$" bcrypt, which for valid UTF-8 (all a string can hold) is Go's:
** crypt_blowfish's "$2a$" safety measure only changes hashes of keys with
** 0xff bytes.  Known difference: a password containing U+0000 is hashed
** only up to it here (C strings), while Go hashes every byte.
*/
static const tfr_value *fn_bcrypt(struct fcall *f, const tfr_type *r) {
  (void)r;
  int64_t cost = 10;
  if (f->nargs > 1 && !num_to_int64(f->args[1]->num, &cost)) {
    fcall_error(f, "value must be a whole number, between "
                   "-9223372036854775808 and 9223372036854775807");
    return NULL;
  }
  if (f->nargs > 2) {
    fcall_error(f, "bcrypt() takes no more than two arguments");
    return NULL;
  }
  const char *lead = EVAL_ENGINE(f->c)->password_error;
  const tfr_value *s = f->args[0];
  if (s->n > 72) {
    fcall_error(f, "%s bcrypt: password length exceeds 72 bytes", lead);
    return NULL;
  }
  if (cost < 4)
    cost = 10;
  if (cost > 31) {
    fcall_error(f,
                "%s crypto/bcrypt: cost %lld is outside allowed range "
                "(4,31)",
                lead, (long long)cost);
    return NULL;
  }
  /* each step of the cost doubles the time: 16 is seconds, 31 days.
  ** The hash is random (its salt), so no rule can expect its text:
  ** above 16 it is left unknown, as a value only apply knows (a rule
  ** that reads it is deferred), never a wait of hours */
  if (cost > 16)
    return tfr_unknown(f->a, &tfr_t_string);
  unsigned char salt[16];
  if (!random_bytes(salt, sizeof salt)) {
    fcall_error(f, "%s %s", lead, strerror(errno));
    return NULL;
  }
  char setting[CRYPT_GENSALT_OUTPUT_SIZE];
  struct crypt_data *data = heap_calloc(1, sizeof *data);
  const char *hash = NULL;
  if (crypt_gensalt_rn("$2a$", (unsigned long)cost, (const char *)salt,
                       sizeof salt, setting, sizeof setting))
    hash = crypt_rn(tfr_arena_strndup(f->a, s->s, s->n), setting, data,
                    sizeof *data);
  const tfr_value *v = NULL;
  if (hash && hash[0] == '$')
    v = tfr_string(f->a, hash, strlen(hash));
  else
    fcall_error(f, "%s %s", lead, "libxcrypt has no $2a$ bcrypt");
  free(data);
  return v;
}

/* ---- rsadecrypt: Go's decoders ------------------------------------------- */

/* A byte range. */
struct bytes {
  const char *p;
  size_t n;
};

static bool has_prefix(struct bytes b, const char *pre) {
  size_t k = strlen(pre);
  return b.n >= k && !memcmp(b.p, pre, k);
}

/* Go's bytes.Index, or -1. */
static long find(struct bytes b, const char *needle) {
  size_t k = strlen(needle);
  for (size_t i = 0; i + k <= b.n; i++)
    if (!memcmp(b.p + i, needle, k))
      return (long)i;
  return -1;
}

/* encoding/pem's getLine: the line without "\r\n" or "\n" and trailing
** blanks; *rest after it. */
static struct bytes get_line(struct bytes data, struct bytes *rest) {
  const char *nl = memchr(data.p, '\n', data.n);
  size_t i = nl ? (size_t)(nl - data.p) : data.n;
  size_t j = nl ? i + 1 : i;
  if (nl && i > 0 && data.p[i - 1] == '\r')
    i--;
  while (i > 0 && (data.p[i - 1] == ' ' || data.p[i - 1] == '\t'))
    i--;
  rest->p = data.p + j;
  rest->n = data.n - j;
  return (struct bytes){data.p, i};
}

static struct bytes trim_space(struct bytes b) {
  while (b.n && strchr(" \t\n\v\f\r", b.p[0]))
    b.p++, b.n--;
  while (b.n && strchr(" \t\n\v\f\r", b.p[b.n - 1]))
    b.n--;
  return b;
}

struct pem_block {
  struct bytes type;
  bool encrypted; /* a Proc-Type header mentions ENCRYPTED */
  struct sbuf der;
};

/*
** encoding/pem's Decode (Go 1.19): the first well-formed block.  Its type
** line, headers up to the first line without ':', an END line naming the
** same type and the Base64 body (spaces and tabs removed) must all be
** right, else the search goes on after the BEGIN line.
*/
static bool pem_decode(struct bytes data, struct pem_block *blk) {
  struct bytes rest = data;
  for (;;) {
    if (has_prefix(rest, "-----BEGIN ")) {
      rest.p += 11, rest.n -= 11;
    } else {
      long k = find(rest, "\n-----BEGIN ");
      if (k < 0)
        return false;
      rest.p += k + 12, rest.n -= (size_t)k + 12;
    }
    struct bytes type = get_line(rest, &rest);
    if (type.n < 5 || memcmp(type.p + type.n - 5, "-----", 5))
      continue;
    type.n -= 5;
    bool headers = false, encrypted = false;
    for (;;) {
      if (!rest.n)
        return false;
      struct bytes next, line = get_line(rest, &next);
      const char *colon = memchr(line.p, ':', line.n);
      if (!colon)
        break;
      struct bytes key =
          trim_space((struct bytes){line.p, (size_t)(colon - line.p)});
      struct bytes val = trim_space(
          (struct bytes){colon + 1, line.n - (size_t)(colon - line.p) - 1});
      if (key.n == 9 && !memcmp(key.p, "Proc-Type", 9)) /* the last wins */
        encrypted = find(val, "ENCRYPTED") >= 0;
      headers = true;
      rest = next;
    }
    long end, trailer_at;
    if (!headers && has_prefix(rest, "-----END ")) {
      end = 0;
      trailer_at = 9;
    } else {
      end = find(rest, "\n-----END ");
      trailer_at = end + 10;
    }
    if (end < 0)
      continue;
    struct bytes trailer = {rest.p + trailer_at, rest.n - (size_t)trailer_at};
    size_t tlen = type.n + 5;
    if (trailer.n < tlen || memcmp(trailer.p, type.p, type.n) ||
        memcmp(trailer.p + type.n, "-----", 5))
      continue;
    struct bytes after = {trailer.p + tlen, trailer.n - tlen}, ignored;
    if (get_line(after, &ignored).n)
      continue;
    struct sbuf b64 = {0};
    sbuf_put(&b64, "", 0);
    for (long i = 0; i < end; i++)
      if (rest.p[i] != ' ' && rest.p[i] != '\t')
        sbuf_put(&b64, rest.p + i, 1);
    struct sbuf der = {0};
    bool ok = go_b64_decode(&der, b64.p, b64.n, NULL);
    free(b64.p);
    if (!ok) {
      free(der.p);
      continue;
    }
    blk->type = type;
    blk->encrypted = encrypted;
    blk->der = der;
    return true;
  }
}

/* ---- rsadecrypt: a little of Go's encoding/asn1 ---------------------------
**
** Just what asn1.Unmarshal does with the structures x509 and ssh parse
** keys into, error texts included: tag and length parsing, INTEGER into
** a Go int or *big.Int, OCTET STRING, OBJECT IDENTIFIER, BIT STRING,
** RawValue, nested SEQUENCEs (extra elements allowed), SEQUENCE OF, and
** OPTIONAL / EXPLICIT fields.
*/

enum gkind {
  GK_INT,
  GK_BIG,
  GK_BYTES,
  GK_OID,
  GK_RAW,
  GK_BITS,
  GK_SEQ,
  GK_SEQOF
};

struct gstruct;

struct gfield {
  enum gkind kind;
  const char *tname; /* Go's reflect.Type.Name() of the field's type */
  bool optional;
  int explicit_tag;          /* -1: none */
  const struct gstruct *sub; /* GK_SEQ, or GK_SEQOF's element */
};

struct gstruct {
  size_t n;
  const struct gfield *f;
};

/* A parsed field. */
struct gval {
  bool set;
  int64_t i;              /* GK_INT */
  const unsigned char *p; /* contents (GK_BIG, GK_BYTES, GK_BITS, ...) */
  size_t n;
  const unsigned char *full; /* GK_RAW: the whole element */
  size_t nfull;
  int oid[64]; /* GK_OID */
  size_t noid;
  struct gval *kids; /* GK_SEQ's fields, GK_SEQOF's elements */
  size_t nkids;
};

/* A Go error: asn1.SyntaxError, asn1.StructuralError or anything else. */
enum gerr_kind { GE_NONE, GE_SYNTAX, GE_STRUCT, GE_OTHER };

struct gerr {
  enum gerr_kind kind;
  const char *msg; /* without "asn1: syntax error: " and the like */
};

static bool gfail(struct gerr *e, enum gerr_kind kind, const char *msg) {
  e->kind = kind;
  e->msg = msg;
  return false;
}

/* The error's Error() text. */
static const char *gerr_text(tfr_arena *a, const struct gerr *e) {
  if (e->kind == GE_SYNTAX)
    return tfr_arena_printf(a, "asn1: syntax error: %s", e->msg);
  if (e->kind == GE_STRUCT)
    return tfr_arena_printf(a, "asn1: structure error: %s", e->msg);
  return e->msg;
}

struct tag_len {
  int cls, tag;
  long long length;
  bool compound;
};

/* parseBase128Int */
static bool base128(const unsigned char *b, size_t n, size_t *off, int *ret,
                    struct gerr *e) {
  int64_t v = 0;
  for (int shifted = 0; *off < n; shifted++) {
    if (shifted == 5)
      return gfail(e, GE_STRUCT, "base 128 integer too large");
    v <<= 7;
    unsigned char c = b[*off];
    if (shifted == 0 && c == 0x80)
      return gfail(e, GE_SYNTAX, "integer is not minimally encoded");
    v |= c & 0x7f;
    (*off)++;
    if (!(c & 0x80)) {
      *ret = (int)v;
      if (v > INT32_MAX)
        return gfail(e, GE_STRUCT, "base 128 integer too large");
      return true;
    }
  }
  return gfail(e, GE_SYNTAX, "truncated base 128 integer");
}

/* parseTagAndLength */
static bool tag_len(const unsigned char *b, size_t n, size_t *off,
                    struct tag_len *t, struct gerr *e) {
  unsigned char c = b[(*off)++];
  t->cls = c >> 6;
  t->compound = (c & 0x20) != 0;
  t->tag = c & 0x1f;
  if (t->tag == 0x1f) {
    if (!base128(b, n, off, &t->tag, e))
      return false;
    if (t->tag < 0x1f)
      return gfail(e, GE_SYNTAX, "non-minimal tag");
  }
  if (*off >= n)
    return gfail(e, GE_SYNTAX, "truncated tag or length");
  c = b[(*off)++];
  if (!(c & 0x80)) {
    t->length = c & 0x7f;
    return true;
  }
  int k = c & 0x7f;
  if (!k)
    return gfail(e, GE_SYNTAX, "indefinite length found (not DER)");
  t->length = 0;
  for (int i = 0; i < k; i++) {
    if (*off >= n)
      return gfail(e, GE_SYNTAX, "truncated tag or length");
    c = b[(*off)++];
    if (t->length >= 1 << 23)
      return gfail(e, GE_STRUCT, "length too large");
    t->length = t->length << 8 | c;
    if (!t->length)
      return gfail(e, GE_STRUCT, "superfluous leading zeros in length");
  }
  if (t->length < 0x80)
    return gfail(e, GE_STRUCT, "non-minimal length");
  return true;
}

/* checkInteger */
static bool check_integer(const unsigned char *b, size_t n, struct gerr *e) {
  if (!n)
    return gfail(e, GE_STRUCT, "empty integer");
  if (n > 1 &&
      ((b[0] == 0 && !(b[1] & 0x80)) || (b[0] == 0xff && (b[1] & 0x80))))
    return gfail(e, GE_STRUCT, "integer not minimally-encoded");
  return true;
}

struct gparser {
  tfr_arena *a;
  struct gerr err;
};

static bool gparse_struct(struct gparser *g, const struct gstruct *s,
                          const unsigned char *b, size_t n, struct gval *v);

/* parseField: one field at *off of b[0..n). */
static bool gparse(struct gparser *g, const struct gfield *fd,
                   const unsigned char *b, size_t n, size_t *off,
                   struct gval *v) {
  size_t init = *off;
  struct gerr *e = &g->err;
  if (init == n) { /* missing at the end: fine if optional */
    if (!fd->optional)
      return gfail(e, GE_SYNTAX, "sequence truncated");
    return true;
  }
  struct tag_len t;
  if (!tag_len(b, n, off, &t, e))
    return false;
  if (fd->explicit_tag >= 0) {
    if (*off == n)
      return gfail(e, GE_STRUCT, "explicit tag has no child");
    if (t.cls == 2 && t.tag == fd->explicit_tag &&
        (t.length == 0 || t.compound)) {
      if (fd->kind != GK_RAW) {
        if (t.length == 0)
          return gfail(e, GE_STRUCT,
                       "zero length explicit tag was not an asn1.Flag");
        if (!tag_len(b, n, off, &t, e))
          return false;
      }
    } else {
      *off = init;
      if (fd->optional)
        return true;
      return gfail(e, GE_STRUCT, "explicitly tagged member didn't match");
    }
  }
  static const int utag[] = {
      [GK_INT] = 2, [GK_BIG] = 2,  [GK_BYTES] = 4, [GK_OID] = 6,
      [GK_RAW] = 0, [GK_BITS] = 3, [GK_SEQ] = 16,  [GK_SEQOF] = 16};
  bool any = fd->kind == GK_RAW;
  bool compound = fd->kind == GK_SEQ || fd->kind == GK_SEQOF;
  if (!any &&
      (t.cls != 0 || t.tag != utag[fd->kind] || t.compound != compound)) {
    if (fd->optional) {
      *off = init;
      return true;
    }
    return gfail(
        e, GE_STRUCT,
        tfr_arena_printf(
            g->a,
            "tags don't match (%d vs {class:%d tag:%d length:%lld "
            "isCompound:%s}) {optional:false explicit:false "
            "application:false private:false defaultValue:<nil> tag:<nil> "
            "stringType:0 timeType:0 set:false omitEmpty:false} %s @%zu",
            utag[fd->kind], t.cls, t.tag, t.length,
            t.compound ? "true" : "false", fd->tname, *off));
  }
  if ((unsigned long long)t.length > n - *off)
    return gfail(e, GE_SYNTAX, "data truncated");
  const unsigned char *in = b + *off;
  size_t len = (size_t)t.length;
  *off += len;
  v->set = true;
  v->p = in;
  v->n = len;
  switch (fd->kind) {
  case GK_RAW:
    v->full = b + init;
    v->nfull = *off - init;
    return true;
  case GK_BYTES:
    return true;
  case GK_BIG:
    return check_integer(in, len, e);
  case GK_INT:
    if (!check_integer(in, len, e))
      return false;
    if (len > 8)
      return gfail(e, GE_STRUCT, "integer too large");
    v->i = (int8_t)in[0]; /* sign-extended */
    for (size_t i = 1; i < len; i++)
      v->i = (int64_t)((uint64_t)v->i << 8 | in[i]);
    return true;
  case GK_BITS:
    if (!len)
      return gfail(e, GE_SYNTAX, "zero length BIT STRING");
    if (in[0] > 7 || (len == 1 && in[0] > 0) ||
        (in[len - 1] & ((1 << in[0]) - 1)))
      return gfail(e, GE_SYNTAX, "invalid padding bits in BIT STRING");
    return true;
  case GK_OID: {
    if (!len)
      return gfail(e, GE_SYNTAX, "zero length OBJECT IDENTIFIER");
    size_t o = 0;
    int x;
    if (!base128(in, len, &o, &x, e))
      return false;
    v->oid[0] = x < 80 ? x / 40 : 2;
    v->oid[1] = x < 80 ? x % 40 : x - 80;
    v->noid = 2;
    while (o < len) {
      if (!base128(in, len, &o, &x, e))
        return false;
      if (v->noid < sizeof v->oid / sizeof *v->oid)
        v->oid[v->noid++] = x;
    }
    return true;
  }
  case GK_SEQ:
    return gparse_struct(g, fd->sub, in, len, v);
  case GK_SEQOF: {
    size_t count = 0;
    for (size_t o = 0; o < len;) { /* parseSequenceOf's first pass */
      if (!tag_len(in, len, &o, &t, e))
        return false;
      if (t.cls != 0 || !t.compound || t.tag != 16)
        return gfail(e, GE_STRUCT, "sequence tag mismatch");
      if ((unsigned long long)t.length > len - o)
        return gfail(e, GE_SYNTAX, "truncated sequence");
      o += (size_t)t.length;
      count++;
    }
    v->kids = tfr_arena_alloc(g->a, (count ? count : 1) * sizeof *v->kids);
    v->nkids = count;
    struct gfield elem = {GK_SEQ, "", false, -1, fd->sub};
    size_t o = 0;
    for (size_t i = 0; i < count; i++)
      if (!gparse(g, &elem, in, len, &o, &v->kids[i]))
        return false;
    return true;
  }
  }
  return true;
}

static bool gparse_struct(struct gparser *g, const struct gstruct *s,
                          const unsigned char *b, size_t n, struct gval *v) {
  v->kids = tfr_arena_alloc(g->a, s->n * sizeof *v->kids);
  v->nkids = s->n;
  size_t off = 0;
  for (size_t i = 0; i < s->n; i++)
    if (!gparse(g, &s->f[i], b, n, &off, &v->kids[i]))
      return false;
  return true; /* extra elements are allowed */
}

/* asn1.Unmarshal(der, &struct): false with g->err; *rest: unused bytes. */
static bool gunmarshal(struct gparser *g, const char *tname,
                       const struct gstruct *s, struct bytes der,
                       struct gval *v, size_t *rest) {
  struct gfield top = {GK_SEQ, tname, false, -1, s};
  size_t off = 0;
  memset(v, 0, sizeof *v);
  g->err.kind = GE_NONE;
  if (!gparse(g, &top, (const unsigned char *)der.p, der.n, &off, v))
    return false;
  *rest = der.n - off;
  return true;
}

/* Go's structures. */
#define F(kind, tname)                                                         \
  { kind, tname, false, -1, NULL }
#define OPT(kind, tname)                                                       \
  { kind, tname, true, -1, NULL }

static const struct gfield f_prime[] = {F(GK_BIG, ""), F(GK_BIG, ""),
                                        F(GK_BIG, "")};
static const struct gstruct s_prime = {3, f_prime};
static const struct gfield f_pkcs1[] = {
    F(GK_INT, "int"), F(GK_BIG, ""),
    F(GK_INT, "int"), F(GK_BIG, ""),
    F(GK_BIG, ""),    F(GK_BIG, ""),
    OPT(GK_BIG, ""),  OPT(GK_BIG, ""),
    OPT(GK_BIG, ""),  {GK_SEQOF, "", true, -1, &s_prime}};
static const struct gstruct s_pkcs1 = {10, f_pkcs1}; /* pkcs1PrivateKey */
static const struct gfield f_algo[] = {F(GK_OID, "ObjectIdentifier"),
                                       OPT(GK_RAW, "RawValue")};
static const struct gstruct s_algo = {2, f_algo};
static const struct gfield f_pkcs8[] = {
    F(GK_INT, "int"),
    {GK_SEQ, "AlgorithmIdentifier", false, -1, &s_algo},
    F(GK_BYTES, "")};
static const struct gstruct s_pkcs8 = {3, f_pkcs8};
static const struct gfield f_ec[] = {
    F(GK_INT, "int"),
    F(GK_BYTES, ""),
    {GK_OID, "ObjectIdentifier", true, 0, NULL},
    {GK_BITS, "BitString", true, 1, NULL}};
static const struct gstruct s_ec = {4, f_ec}; /* ecPrivateKey */
static const struct gfield f_dsa[] = {F(GK_INT, "int"), F(GK_BIG, ""),
                                      F(GK_BIG, ""),    F(GK_BIG, ""),
                                      F(GK_BIG, ""),    F(GK_BIG, "")};
static const struct gstruct s_dsa = {6, f_dsa};

#undef F
#undef OPT

static bool parses_as(struct gparser *g, const char *tname,
                      const struct gstruct *s, struct bytes der) {
  struct gval v;
  size_t rest;
  struct gerr keep = g->err;
  bool ok = gunmarshal(g, tname, s, der, &v, &rest);
  g->err = keep;
  return ok;
}

/* ---- rsadecrypt: the private key ----------------------------------------- */

/* A private key format, and x509's hint when a key of it is given to the
** parser of another. */
struct key_format {
  const char *tname;
  const struct gstruct *s;
  const char *hint;
};
static const struct key_format kf_pkcs1 = {
    "pkcs1PrivateKey", &s_pkcs1,
    "x509: failed to parse private key (use ParsePKCS1PrivateKey instead for "
    "this key format)"};
static const struct key_format kf_ec = {
    "ecPrivateKey", &s_ec,
    "x509: failed to parse private key (use ParseECPrivateKey instead for "
    "this key format)"};
static const struct key_format kf_pkcs8 = {
    "pkcs8", &s_pkcs8,
    "x509: failed to parse private key (use ParsePKCS8PrivateKey instead for "
    "this key format)"};

/* What parsing a key gave: an RSA key, another kind of key (then Go's
** "%t" of it, which Terraform prints), or an error. */
struct key {
  struct gerr err;
  const char *other;
  BIGNUM *n, *d;
  int64_t e; /* Go's int */
  BIGNUM *primes[16];
  size_t nprimes;
  BIGNUM *owned[24]; /* freed by key_free */
  size_t nowned;
};

static void key_free(struct key *k) {
  for (size_t i = 0; i < k->nowned; i++)
    BN_free(k->owned[i]);
}

static bool key_fail(struct key *k, enum gerr_kind kind, const char *msg) {
  return gfail(&k->err, kind, msg);
}

/* Whether der, which its own parser refused, is a key of format f: then
** x509's hint is k's error. */
static bool other_format(struct gparser *g, struct bytes der, struct key *k,
                         const struct key_format *f) {
  return parses_as(g, f->tname, f->s, der) && !key_fail(k, GE_OTHER, f->hint);
}

/* A signed big-endian two's complement integer (asn1's parseBigInt and
** ssh's parseInt), owned by k. */
static BIGNUM *key_bn(struct key *k, const unsigned char *p, size_t n) {
  BIGNUM *v = BN_bin2bn(p, (int)n, NULL);
  if (!v)
    tfr_oom();
  if (k->nowned == sizeof k->owned / sizeof *k->owned)
    abort(); /* our bug: more numbers than any key has */
  k->owned[k->nowned++] = v;
  if (n && (p[0] & 0x80)) { /* negative: subtract 2^(8n) */
    BIGNUM *t = BN_new();
    if (!t || !BN_set_bit(t, (int)(8 * n)) || !BN_sub(v, v, t))
      tfr_oom(); /* these fail only when memory does */
    BN_free(t);
  }
  return v;
}

static bool bn_positive(const BIGNUM *v) {
  return !BN_is_zero(v) && !BN_is_negative(v);
}

/* crypto/rsa's (*PrivateKey).Validate (Go 1.19). */
static bool rsa_validate(struct key *k) {
  if (k->e < 2)
    return key_fail(k, GE_OTHER, "crypto/rsa: public exponent too small");
  if (k->e > INT32_MAX)
    return key_fail(k, GE_OTHER, "crypto/rsa: public exponent too large");
  BN_CTX *ctx = BN_CTX_new();
  BIGNUM *mod = BN_new(), *t = BN_new(), *de = BN_new(), *pm1 = BN_new();
  if (!ctx || !mod || !t || !de || !pm1)
    tfr_oom();
  const char *err = NULL;
  BN_one(mod);
  for (size_t i = 0; i < k->nprimes && !err; i++) {
    if (BN_cmp(k->primes[i], BN_value_one()) <= 0)
      err = "crypto/rsa: invalid prime value";
    else
      BN_mul(mod, mod, k->primes[i], ctx);
  }
  if (!err && BN_cmp(mod, k->n))
    err = "crypto/rsa: invalid modulus";
  BN_set_word(de, (BN_ULONG)k->e);
  BN_mul(de, de, k->d, ctx);
  for (size_t i = 0; i < k->nprimes && !err; i++) {
    BN_sub(pm1, k->primes[i], BN_value_one());
    BN_nnmod(t, de, pm1, ctx); /* Go's Mod: Euclidean */
    if (!BN_is_one(t))
      err = "crypto/rsa: invalid exponents";
  }
  BN_free(mod);
  BN_free(t);
  BN_free(de);
  BN_free(pm1);
  BN_CTX_free(ctx);
  return err ? key_fail(k, GE_OTHER, err) : true;
}

static const char *oid_text(tfr_arena *a, const struct gval *v) {
  struct sbuf b = {0};
  for (size_t i = 0; i < v->noid; i++) {
    char num[16];
    int k = snprintf(num, sizeof num, "%s%d", i ? "." : "", v->oid[i]);
    sbuf_put(&b, num, (size_t)k);
  }
  const char *s = tfr_arena_strndup(a, b.p ? b.p : "", b.n);
  free(b.p);
  return s;
}

static bool oid_is(const struct gval *v, const int *want, size_t n) {
  return v->noid == n && !memcmp(v->oid, want, n * sizeof *want);
}

/* What fmt's %t prints for a byte slice: every byte a bad verb. */
static const char *go_t_bytes(tfr_arena *a, const unsigned char *p, size_t n) {
  struct sbuf b = {0};
  sbuf_put(&b, "[", 1);
  for (size_t i = 0; i < n; i++) {
    char num[24];
    int k = snprintf(num, sizeof num, "%s%%!t(uint8=%u)", i ? " " : "", p[i]);
    sbuf_put(&b, num, (size_t)k);
  }
  sbuf_put(&b, "]", 1);
  const char *s = tfr_arena_strndup(a, b.p, b.n);
  free(b.p);
  return s;
}

/* What fmt's %t prints for a *big.Int (its Format method). */
static const char *go_t_big(tfr_arena *a, const BIGNUM *v) {
  char *dec = BN_bn2dec(v);
  if (!dec)
    tfr_oom();
  const char *s = tfr_arena_printf(a, "%%!t(big.Int=%s)", dec);
  OPENSSL_free(dec);
  return s;
}

/*
** The %t of an ECDSA key is not reproduced: Go prints its curve as
** memory addresses (and its type name depends on the Go version), so
** such keys, and X25519 ones, are shown as this.
*/
#define NOT_RSA_OPAQUE "&{...}"

/* x509.ParsePKCS1PrivateKey */
static bool parse_pkcs1(struct gparser *g, struct bytes der, struct key *k) {
  struct gval v;
  size_t rest;
  if (!gunmarshal(g, "pkcs1PrivateKey", &s_pkcs1, der, &v, &rest)) {
    if (other_format(g, der, k, &kf_ec) || other_format(g, der, k, &kf_pkcs8))
      return false;
    k->err = g->err;
    return false;
  }
  if (rest)
    return key_fail(k, GE_SYNTAX, "trailing data");
  const struct gval *f = v.kids;
  if (f[0].i > 1)
    return key_fail(k, GE_OTHER, "x509: unsupported private key version");
  k->n = key_bn(k, f[1].p, f[1].n);
  k->e = f[2].i;
  k->d = key_bn(k, f[3].p, f[3].n);
  k->primes[0] = key_bn(k, f[4].p, f[4].n);
  k->primes[1] = key_bn(k, f[5].p, f[5].n);
  k->nprimes = 2;
  if (!bn_positive(k->n) || !bn_positive(k->d) || !bn_positive(k->primes[0]) ||
      !bn_positive(k->primes[1]))
    return key_fail(k, GE_OTHER,
                    "x509: private key contains zero or negative value");
  for (size_t i = 0; i < f[9].nkids; i++) {
    const struct gval *prime = &f[9].kids[i].kids[0];
    if (k->nprimes == sizeof k->primes / sizeof *k->primes) /* absurd */
      return key_fail(k, GE_OTHER, "crypto/rsa: invalid modulus");
    BIGNUM *pr = key_bn(k, prime->p, prime->n);
    if (!bn_positive(pr))
      return key_fail(k, GE_OTHER,
                      "x509: private key contains zero or negative prime");
    k->primes[k->nprimes++] = pr;
  }
  return rsa_validate(k);
}

static const int oid_rsa[] = {1, 2, 840, 113549, 1, 1, 1};
static const int oid_ecdsa[] = {1, 2, 840, 10045, 2, 1};
static const int oid_ed25519[] = {1, 3, 101, 112};
static const int oid_x25519[] = {1, 3, 101, 110};

/* The curve OIDs x509's namedCurveFromOID knows (P-224 to P-521). */
static bool known_curve(const struct gval *oid) {
  static const int p256[] = {1, 2, 840, 10045, 3, 1, 7};
  static const int p224[] = {1, 3, 132, 0, 33};
  static const int p384[] = {1, 3, 132, 0, 34};
  static const int p521[] = {1, 3, 132, 0, 35};
  return oid_is(oid, p256, 7) || oid_is(oid, p224, 5) || oid_is(oid, p384, 5) ||
         oid_is(oid, p521, 5);
}

/* x509.ParseECPrivateKey, as far as telling whether it succeeds (the
** curve point checks are not made). */
static bool parse_ec(struct gparser *g, struct bytes der, struct key *k,
                     bool in_pkcs8) {
  struct gval v;
  size_t rest;
  if (!gunmarshal(g, "ecPrivateKey", &s_ec, der, &v, &rest)) {
    if (other_format(g, der, k, &kf_pkcs8) ||
        other_format(g, der, k, &kf_pkcs1))
      return false;
    return key_fail(k, GE_OTHER,
                    tfr_arena_printf(g->a,
                                     "x509: failed to parse EC private "
                                     "key: %s",
                                     gerr_text(g->a, &g->err)));
  }
  if (v.kids[0].i != 1)
    return key_fail(k, GE_OTHER,
                    tfr_arena_printf(g->a,
                                     "x509: unknown EC private key "
                                     "version %lld",
                                     (long long)v.kids[0].i));
  if (!in_pkcs8 && !known_curve(&v.kids[2]))
    return key_fail(k, GE_OTHER, "x509: unknown elliptic curve");
  k->other = NOT_RSA_OPAQUE;
  return true;
}

/* The 64-byte Ed25519 private key (seed, public key) of a 32-byte seed. */
static const char *ed25519_bytes(tfr_arena *a, const unsigned char *seed) {
  unsigned char key[64];
  size_t publen = 32;
  EVP_PKEY *pk = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);
  if (!pk || !EVP_PKEY_get_raw_public_key(pk, key + 32, &publen))
    tfr_oom(); /* a 32-byte seed is always a key: only memory fails */
  EVP_PKEY_free(pk);
  memcpy(key, seed, 32);
  return go_t_bytes(a, key, 64);
}

/* x509's error for a key (what: "RSA", "EC") in PKCS#8 that its own
** parser refused with k's error. */
static bool embedded_fail(struct gparser *g, struct key *k, const char *what) {
  return key_fail(k, GE_OTHER,
                  tfr_arena_printf(g->a,
                                   "x509: failed to parse %s private key "
                                   "embedded in PKCS#8: %s",
                                   what, gerr_text(g->a, &k->err)));
}

/* x509.ParsePKCS8PrivateKey */
static bool parse_pkcs8(struct gparser *g, struct bytes der, struct key *k) {
  struct gval v;
  size_t rest;
  if (!gunmarshal(g, "pkcs8", &s_pkcs8, der, &v, &rest)) {
    struct gerr keep = g->err;
    if (other_format(g, der, k, &kf_ec) || other_format(g, der, k, &kf_pkcs1))
      return false;
    k->err = keep;
    return false;
  }
  const struct gval *algo = &v.kids[1].kids[0], *params = &v.kids[1].kids[1];
  struct bytes inner = {(const char *)v.kids[2].p, v.kids[2].n};
  if (oid_is(algo, oid_rsa, 7)) {
    return parse_pkcs1(g, inner, k) || embedded_fail(g, k, "RSA");
  }
  if (oid_is(algo, oid_ecdsa, 6)) {
    return parse_ec(g, inner, k, true) || embedded_fail(g, k, "EC");
  }
  if (oid_is(algo, oid_ed25519, 4)) {
    if (params->set && params->nfull)
      return key_fail(k, GE_OTHER,
                      "x509: invalid Ed25519 private key parameters");
    static const struct gfield octets = {GK_BYTES, "", false, -1, NULL};
    struct gval seed = {0};
    size_t off = 0;
    if (!gparse(g, &octets, (const unsigned char *)inner.p, inner.n, &off,
                &seed))
      return key_fail(k, GE_OTHER,
                      tfr_arena_printf(g->a,
                                       "x509: invalid Ed25519 private "
                                       "key: %s",
                                       gerr_text(g->a, &g->err)));
    if (seed.n != 32)
      return key_fail(k, GE_OTHER,
                      tfr_arena_printf(g->a,
                                       "x509: invalid Ed25519 private key "
                                       "length: %zu",
                                       seed.n));
    k->other = ed25519_bytes(g->a, seed.p);
    return true;
  }
  if (oid_is(algo, oid_x25519, 4)) { /* Go 1.20's crypto/ecdh */
    k->other = NOT_RSA_OPAQUE;
    return true;
  }
  return key_fail(k, GE_OTHER,
                  tfr_arena_printf(g->a,
                                   "x509: PKCS#8 wrapping contained private "
                                   "key with unknown algorithm: %s",
                                   oid_text(g->a, algo)));
}

/* ssh.ParseDSAPrivateKey */
static bool parse_dsa(struct gparser *g, struct bytes der, struct key *k) {
  struct gval v;
  size_t rest;
  if (!gunmarshal(g, "", &s_dsa, der, &v, &rest))
    return key_fail(k, GE_OTHER,
                    tfr_arena_printf(g->a, "ssh: failed to parse DSA key: %s",
                                     gerr_text(g->a, &g->err)));
  if (rest)
    return key_fail(k, GE_OTHER, "ssh: garbage after DSA key");
  const char *t[5];
  for (int i = 0; i < 5; i++) /* P Q G Y X, printed as P Q G Y X */
    t[i] = go_t_big(g->a, key_bn(k, v.kids[i + 1].p, v.kids[i + 1].n));
  k->other = tfr_arena_printf(g->a, "&{{{%s %s %s} %s} %s}", t[0], t[1], t[2],
                              t[3], t[4]);
  return true;
}

/* The SSH wire format (x/crypto/ssh's Unmarshal of strings, uint32s and
** mpints). */
struct wire {
  const unsigned char *p;
  size_t n;
};

static bool wire_u32(struct wire *w, uint32_t *v) {
  if (w->n < 4)
    return false;
  *v = (uint32_t)w->p[0] << 24 | (uint32_t)w->p[1] << 16 |
       (uint32_t)w->p[2] << 8 | w->p[3];
  w->p += 4, w->n -= 4;
  return true;
}

static bool wire_string(struct wire *w, struct wire *s) {
  uint32_t len;
  struct wire save = *w;
  if (!wire_u32(w, &len) || w->n < len) {
    *w = save;
    return false;
  }
  s->p = w->p;
  s->n = len;
  w->p += len, w->n -= len;
  return true;
}

static bool wire_is(struct wire s, const char *want) {
  return s.n == strlen(want) && !memcmp(s.p, want, s.n);
}

/* checkOpenSSHKeyPadding */
static bool padding_ok(struct wire pad) {
  for (size_t i = 0; i < pad.n; i++)
    if (pad.p[i] != (unsigned char)(i + 1))
      return false;
  return true;
}

/* big.Int's Int64(): the low 64 bits of |x|, negated if x < 0. */
static int64_t bn_int64(const BIGNUM *x) {
  unsigned char b[8] = {0};
  int n = BN_num_bytes(x);
  unsigned char *all = heap_calloc((size_t)(n ? n : 1), 1);
  BN_bn2bin(x, all);
  for (int i = 0; i < 8 && i < n; i++)
    b[7 - i] = all[n - 1 - i];
  free(all);
  uint64_t u = 0;
  for (int i = 0; i < 8; i++)
    u = u << 8 | b[i];
  return BN_is_negative(x) ? (int64_t)(0 - u) : (int64_t)u;
}

/* ssh's parseOpenSSHPrivateKey with unencryptedOpenSSHKey. */
static bool parse_openssh(struct gparser *g, struct bytes der, struct key *k) {
  static const char magic[] = "openssh-key-v1";
  if (der.n < sizeof magic || memcmp(der.p, magic, sizeof magic))
    return key_fail(k, GE_OTHER, "ssh: invalid openssh private key format");
  struct wire w = {(const unsigned char *)der.p + sizeof magic,
                   der.n - sizeof magic};
  struct wire cipher, kdf, kdfopts, pub, block;
  uint32_t nkeys;
  if (!wire_string(&w, &cipher) || !wire_string(&w, &kdf) ||
      !wire_string(&w, &kdfopts) || !wire_u32(&w, &nkeys) ||
      !wire_string(&w, &pub) || !wire_string(&w, &block))
    return key_fail(k, GE_OTHER, "ssh: short read");
  if (w.n)
    return key_fail(k, GE_OTHER, "ssh: parse error in message type 0");
  if (nkeys != 1)
    return key_fail(k, GE_OTHER, "ssh: multi-key files are not supported");
  if (!wire_is(kdf, "none") || !wire_is(cipher, "none")) {
    /* Go parses the embedded public key first; of its errors only the
    ** missing algorithm name is reproduced. */
    struct wire algo;
    if (!wire_string(&pub, &algo))
      return key_fail(k, GE_OTHER,
                      "ssh: failed to parse embedded public key: ssh: "
                      "short read");
    return key_fail(k, GE_OTHER,
                    "ssh: this private key is passphrase protected");
  }
  if (kdfopts.n)
    return key_fail(k, GE_OTHER, "ssh: invalid openssh private key");
  uint32_t check1, check2;
  struct wire type;
  if (!wire_u32(&block, &check1) || !wire_u32(&block, &check2) ||
      !wire_string(&block, &type) || check1 != check2)
    return key_fail(k, GE_OTHER, "ssh: malformed OpenSSH key");
  struct wire rest = block, comment;
  if (wire_is(type, "ssh-rsa")) {
    struct wire num[6];
    for (int i = 0; i < 6; i++)
      if (!wire_string(&rest, &num[i]))
        return key_fail(k, GE_OTHER, "ssh: short read");
    if (!wire_string(&rest, &comment))
      return key_fail(k, GE_OTHER, "ssh: short read");
    if (!padding_ok(rest))
      return key_fail(k, GE_OTHER, "ssh: padding not as expected");
    k->n = key_bn(k, num[0].p, num[0].n);
    k->e = bn_int64(key_bn(k, num[1].p, num[1].n));
    k->d = key_bn(k, num[2].p, num[2].n);
    k->primes[0] = key_bn(k, num[4].p, num[4].n);
    k->primes[1] = key_bn(k, num[5].p, num[5].n);
    k->nprimes = 2;
    return rsa_validate(k);
  }
  if (wire_is(type, "ssh-ed25519")) {
    struct wire pubk, priv;
    if (!wire_string(&rest, &pubk) || !wire_string(&rest, &priv) ||
        !wire_string(&rest, &comment))
      return key_fail(k, GE_OTHER, "ssh: short read");
    if (priv.n != 64)
      return key_fail(k, GE_OTHER, "ssh: private key unexpected length");
    if (!padding_ok(rest))
      return key_fail(k, GE_OTHER, "ssh: padding not as expected");
    k->other = tfr_arena_printf(g->a, "&%s", go_t_bytes(g->a, priv.p, 64));
    return true;
  }
  if (wire_is(type, "ecdsa-sha2-nistp256") ||
      wire_is(type, "ecdsa-sha2-nistp384") ||
      wire_is(type, "ecdsa-sha2-nistp521")) {
    struct wire curve, pubk, d;
    if (!wire_string(&rest, &curve) || !wire_string(&rest, &pubk) ||
        !wire_string(&rest, &d) || !wire_string(&rest, &comment))
      return key_fail(k, GE_OTHER, "ssh: short read");
    if (!padding_ok(rest))
      return key_fail(k, GE_OTHER, "ssh: padding not as expected");
    if (!wire_is(curve, "nistp256") && !wire_is(curve, "nistp384") &&
        !wire_is(curve, "nistp521"))
      return key_fail(k, GE_OTHER,
                      tfr_arena_printf(g->a,
                                       "ssh: unhandled elliptic curve: %.*s",
                                       (int)curve.n, (const char *)curve.p));
    k->other = NOT_RSA_OPAQUE;
    return true;
  }
  return key_fail(k, GE_OTHER, "ssh: unhandled key type");
}

/* ssh.ParseRawPrivateKey: the first PEM block, by type. */
static bool parse_private_key(struct gparser *g, struct bytes pem,
                              struct key *k) {
  struct pem_block blk;
  if (!pem_decode(pem, &blk))
    return key_fail(k, GE_OTHER, "ssh: no key found");
  struct bytes der = {tfr_arena_strndup(g->a, blk.der.p, blk.der.n), blk.der.n};
  free(blk.der.p);
  if (blk.encrypted)
    return key_fail(k, GE_OTHER,
                    "ssh: this private key is passphrase protected");
  struct bytes t = blk.type;
#define TYPE_IS(s) (t.n == sizeof s - 1 && !memcmp(t.p, s, t.n))
  if (TYPE_IS("RSA PRIVATE KEY"))
    return parse_pkcs1(g, der, k);
  if (TYPE_IS("PRIVATE KEY"))
    return parse_pkcs8(g, der, k);
  if (TYPE_IS("EC PRIVATE KEY"))
    return parse_ec(g, der, k, false);
  if (TYPE_IS("DSA PRIVATE KEY"))
    return parse_dsa(g, der, k);
  if (TYPE_IS("OPENSSH PRIVATE KEY"))
    return parse_openssh(g, der, k);
#undef TYPE_IS
  struct sbuf q = {0};
  sbuf_go_quote(&q, t.p, t.n);
  const char *msg = tfr_arena_printf(g->a, "ssh: unsupported key type %s", q.p);
  free(q.p);
  return key_fail(k, GE_OTHER, msg);
}

/*
** crypto/rsa's DecryptPKCS1v15: m = c^d mod n (what the CRT computes for
** a key that passed Validate), then the padding 00 02 PS 00 M with at
** least 8 bytes of PS.  Every failure is ErrDecryption.  A ciphertext
** larger than n fails; one with extra leading zero bytes is decrypted,
** as in Go 1.19 (newer Go refuses one longer than the modulus' limbs).
*/
static bool rsa_decrypt(const struct key *k, const unsigned char *c, size_t cn,
                        struct sbuf *out) {
  int size = BN_num_bytes(k->n);
  if (size < 11)
    return false;
  BN_CTX *ctx = BN_CTX_new();
  BIGNUM *cv = BN_bin2bn(c, (int)cn, NULL), *m = BN_new(), *d = BN_dup(k->d);
  BIGNUM *phi = BN_new(), *t = BN_new();
  unsigned char *em = heap_alloc((size_t)size);
  if (!ctx || !cv || !m || !d || !phi || !t)
    tfr_oom();
  bool ok = BN_cmp(cv, k->n) <= 0;
  if (ok && BN_is_negative(d)) { /* Go reduces d modulo each p-1 */
    BN_one(phi);
    for (size_t i = 0; i < k->nprimes; i++) {
      BN_sub(t, k->primes[i], BN_value_one());
      BN_mul(phi, phi, t, ctx);
    }
    BN_nnmod(d, d, phi, ctx);
  }
  BN_set_flags(d, BN_FLG_CONSTTIME);
  ok = ok && BN_mod_exp(m, cv, d, k->n, ctx) &&
       BN_bn2binpad(m, em, size) == size;
  size_t index = 0;
  if (ok) {
    for (int i = 2; i < size && !index; i++)
      if (!em[i])
        index = (size_t)i;
    ok = em[0] == 0 && em[1] == 2 && index >= 10;
  }
  if (ok)
    sbuf_put(out, (const char *)em + index + 1, (size_t)size - index - 1);
  free(em);
  BN_free(cv);
  BN_free(m);
  BN_clear_free(d);
  BN_free(phi);
  BN_free(t);
  BN_CTX_free(ctx);
  return ok;
}

/*
** rsadecrypt(ciphertext, privatekey).  Terraform words key errors by Go
** type: asn1.SyntaxError becomes "invalid ASN1 data in the given private
** key: ...", asn1.StructuralError is meant to as well but Terraform's
** pattern has a typo ("struture"), so it shows as "asn1: structure
** error: ..." (OpenTofu fixed it), anything else is "invalid private
** key: ...".  A key that is not RSA is printed with Go's "%t" verb, which
** only fits booleans: Ed25519 and DSA keys come out as Go prints them.
** Not reproduced exactly: the "%t" of ECDSA and X25519 keys (Go prints
** memory addresses; here "&{...}"), Go's checks of ECDSA key values and
** of an encrypted OpenSSH key's public key, and the minimum key size of
** Go 1.24 (rsa1024min).
*/
static const tfr_value *fn_rsadecrypt(struct fcall *f, const tfr_type *r) {
  (void)r;
  const tfr_value *ct = f->args[0], *pem = f->args[1];
  struct sbuf raw = {0};
  if (!go_b64_decode(&raw, ct->s, ct->n, NULL)) {
    struct sbuf q = {0};
    sbuf_go_quote(&q, ct->s, ct->n);
    fcall_arg_error(f, 0,
                    "failed to decode input %s: cipher text must be "
                    "base64-encoded",
                    q.p);
    free(q.p);
    free(raw.p);
    return NULL;
  }
  struct gparser g = {f->a, {GE_NONE, NULL}};
  struct key k;
  memset(&k, 0, sizeof k);
  const tfr_value *v = NULL;
  if (!parse_private_key(&g, (struct bytes){pem->s, pem->n}, &k)) {
    const char *msg = k.err.msg;
    if (k.err.kind == GE_SYNTAX ||
        (k.err.kind == GE_STRUCT && EVAL_ENGINE(f->c)->asn1_struct_syntax))
      msg = tfr_arena_printf(f->a,
                             "invalid ASN1 data in the given private key: "
                             "%s",
                             k.err.msg);
    else if (k.err.kind == GE_STRUCT)
      msg = gerr_text(f->a, &k.err);
    else
      msg = tfr_arena_printf(f->a, "invalid private key: %s", msg);
    fcall_arg_error(f, 1, "%s", msg);
  } else if (k.other) {
    fcall_arg_error(f, 1, "invalid private key type %s", k.other);
  } else {
    struct sbuf out = {0};
    sbuf_put(&out, "", 0);
    if (rsa_decrypt(&k, (const unsigned char *)raw.p, raw.n, &out))
      v = tfr_string(f->a, out.p, out.n);
    else
      fcall_error(f, "failed to decrypt: crypto/rsa: decryption error");
    free(out.p);
  }
  key_free(&k);
  free(raw.p);
  return v;
}

/* ---- the table ----------------------------------------------------------- */

#define HASH(name, impl)                                                       \
  { name, 1, {{"str", &tfr_t_string, 0}}, NULL, &tfr_t_string, NULL, impl }

static const struct func_param bcrypt_cost = {"cost", &tfr_t_number, 0};

static const struct func_spec specs[] = {
    HASH("base64sha256", fn_base64sha256),
    HASH("base64sha512", fn_base64sha512),
    {"bcrypt", 1, {STR("str")}, &bcrypt_cost, &tfr_t_string, NULL, fn_bcrypt},
    HASH("md5", fn_md5),
    {"rsadecrypt",
     2,
     {STR("ciphertext"), STR("privatekey")},
     NULL,
     &tfr_t_string,
     NULL,
     fn_rsadecrypt},
    HASH("sha1", fn_sha1),
    HASH("sha256", fn_sha256),
    HASH("sha512", fn_sha512),
    {"uuid", 0, {{NULL, NULL, 0}}, NULL, &tfr_t_string, NULL, fn_uuid},
    {"uuidv5",
     2,
     {STR("namespace"), STR("name")},
     NULL,
     &tfr_t_string,
     NULL,
     fn_uuidv5},
};

const struct func_group funcs_crypto = {specs, sizeof specs / sizeof *specs};
