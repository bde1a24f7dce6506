/*
** Hash functions: md5 sha1 sha256 sha512 (lower-case hex) and
** base64sha256 base64sha512 (standard Base64 with padding), Terraform's
** makeStringHashFunction (internal/lang/funcs/crypto.go): the hash of the
** string's UTF-8 bytes (after HCL's NFC normalisation), via libcrypto.
*/
#include <openssl/evp.h>

#include "funcs.h"

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

#define HASH_FN(fn, algo, base64)                                  \
  static const tfr_value *fn(struct fcall *f, const tfr_type *r) { \
    (void)r;                                                      \
    return funcs_hash(f->a, algo, base64, f->args[0]->s,          \
                      f->args[0]->n);                             \
  }

HASH_FN(fn_md5, "md5", false)
HASH_FN(fn_sha1, "sha1", false)
HASH_FN(fn_sha256, "sha256", false)
HASH_FN(fn_sha512, "sha512", false)
HASH_FN(fn_base64sha256, "sha256", true)
HASH_FN(fn_base64sha512, "sha512", true)

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
