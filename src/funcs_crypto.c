/*
** Hash functions: md5 sha1 sha256 sha512 (lower-case hex) and
** base64sha256 base64sha512 (standard Base64 with padding), Terraform's
** makeStringHashFunction (internal/lang/funcs/crypto.go): the hash of the
** string's UTF-8 bytes (after HCL's NFC normalisation), via libcrypto.
*/
#include <openssl/evp.h>

#include "funcs.h"

/* The digest of the string argument; its length in *n. */
static void digest(struct fcall *f, const EVP_MD *md, unsigned char *out,
                   unsigned *n) {
  const tfr_value *s = f->args[0];
  if (!EVP_Digest(s->s, s->n, out, n, md, NULL))
    *n = 0; /* only on allocation failure inside OpenSSL */
}

static const tfr_value *hex_hash(struct fcall *f, const EVP_MD *md) {
  unsigned char d[EVP_MAX_MD_SIZE];
  unsigned n = 0;
  digest(f, md, d, &n);
  static const char hex[] = "0123456789abcdef";
  char *out = tfr_arena_alloc(f->a, 2 * (size_t)n + 1);
  for (unsigned i = 0; i < n; i++) {
    out[2 * i] = hex[d[i] >> 4];
    out[2 * i + 1] = hex[d[i] & 15];
  }
  out[2 * (size_t)n] = '\0';
  return tfr_string_nocopy(f->a, out, 2 * (size_t)n);
}

static const tfr_value *base64_hash(struct fcall *f, const EVP_MD *md) {
  unsigned char d[EVP_MAX_MD_SIZE];
  unsigned n = 0;
  digest(f, md, d, &n);
  unsigned char *out = tfr_arena_alloc(f->a, 4 * ((size_t)n + 2) / 3 + 1);
  int len = EVP_EncodeBlock(out, d, (int)n);
  return tfr_string_nocopy(f->a, (const char *)out, (size_t)len);
}

#define HASH_FN(fn, md, enc)                                      \
  static const tfr_value *fn(struct fcall *f, const tfr_type *r) { \
    (void)r;                                                      \
    return enc(f, md());                                          \
  }

HASH_FN(fn_md5, EVP_md5, hex_hash)
HASH_FN(fn_sha1, EVP_sha1, hex_hash)
HASH_FN(fn_sha256, EVP_sha256, hex_hash)
HASH_FN(fn_sha512, EVP_sha512, hex_hash)
HASH_FN(fn_base64sha256, EVP_sha256, base64_hash)
HASH_FN(fn_base64sha512, EVP_sha512, base64_hash)

#define HASH(name, impl)                                               \
  {name, 1, {{"str", &tfr_t_string, 0}}, NULL, &tfr_t_string, NULL, impl}

static const struct func_spec specs[] = {
    HASH("base64sha256", fn_base64sha256),
    HASH("base64sha512", fn_base64sha512),
    HASH("md5", fn_md5),
    HASH("sha1", fn_sha1),
    HASH("sha256", fn_sha256),
    HASH("sha512", fn_sha512),
};

const struct func_group funcs_crypto = {specs, sizeof specs / sizeof *specs};
