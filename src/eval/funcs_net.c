/*
** IP network functions: cidrhost cidrnetmask cidrsubnet cidrsubnets
** (Terraform's internal/lang/funcs/cidr.go) and, for OpenTofu only,
** cidrcontains (OpenTofu's internal/lang/funcs/cidr.go).
**
** Terraform parses prefixes with its internal/ipaddr, a copy of Go's old
** net parser: IPv4 octets may carry leading zeros and are read as decimal
** ("010.001.0.0/24" is 10.1.0.0/24).  It then computes with
** github.com/apparentlymart/go-cidr v1.1.0 on Go's net.IP values, and its
** results follow from how those behave, odd corners included: a hostnum
** or netnum is checked only through the low 64 bits of its magnitude, so
** some out-of-range numbers pass and make Go panic; an IPv4-mapped IPv6
** prefix ("::ffff:10.0.0.0/104") is sometimes treated as IPv4 and
** sometimes not; cidrsubnets cannot start at address zero.  So this file
** models the few pieces of Go's net package that those libraries use, on
** the same data: an address or mask is a byte slice of length 0 (nil),
** 4 or 16, and big integers are GMP's (big.Int's Lsh and Or on negative
** numbers behave like mpz_mul_2exp and mpz_ior).
*/
#include <gmp.h>
#include <inttypes.h>
#include <mpfr.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "eval/funcs.h"
#include "values/number.h"

/* ---- Go's net.IP, net.IPMask and net.IPNet -------------------------- */

struct ip {
  uint8_t len; /* 0 (nil or empty), 4 or 16 */
  uint8_t b[16];
};

struct ipnet {
  struct ip ip, mask;
};

static const uint8_t v4_in_v6[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

/* The last four bytes of a 16-byte slice (x[12:]). */
static struct ip tail4(const struct ip *x) {
  struct ip r = {4, {0}};
  memcpy(r.b, x->b + 12, 4);
  return r;
}

/* IP.To4: the 4-byte form of an IPv4 or IPv4-mapped address, else nil. */
static struct ip to4(const struct ip *x) {
  if (x->len == 4)
    return *x;
  if (x->len == 16 && !memcmp(x->b, v4_in_v6, 12))
    return tail4(x);
  return (struct ip){0, {0}};
}

/* go-cidr's checkIPv4: the 4-byte form where there is one. */
static struct ip check4(const struct ip *x) {
  struct ip r = to4(x);
  return r.len ? r : *x;
}

/* CIDRMask(ones, bits); nil unless bits is 32 or 128 and ones fits. */
static struct ip cidr_mask(int64_t ones, int bits) {
  struct ip m = {0, {0}};
  if ((bits != 32 && bits != 128) || ones < 0 || ones > bits)
    return m;
  m.len = (uint8_t)(bits / 8);
  for (int i = 0; i < m.len; i++) {
    int k = ones >= 8 ? 8 : (int)ones;
    m.b[i] = (uint8_t)(0xff00 >> k);
    ones -= k;
  }
  return m;
}

/* IP.Mask: nil when the lengths do not match (after IPv4 adjustments). */
static struct ip ip_mask(struct ip x, struct ip m) {
  static const uint8_t ff[12] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  if (m.len == 16 && x.len == 4 && !memcmp(m.b, ff, 12))
    m = tail4(&m);
  if (m.len == 4 && x.len == 16 && !memcmp(x.b, v4_in_v6, 12))
    x = tail4(&x);
  struct ip r = {0, {0}};
  if (x.len != m.len)
    return r;
  r.len = x.len;
  for (int i = 0; i < x.len; i++)
    r.b[i] = x.b[i] & m.b[i];
  return r;
}

/* simpleMaskLength: the number of leading ones, -1 if not a prefix. */
static int mask_ones(const struct ip *m) {
  int n = 0;
  for (int i = 0; i < m->len; i++) {
    unsigned v = m->b[i];
    if (v == 0xff) {
      n += 8;
      continue;
    }
    for (; v & 0x80; v = (v << 1) & 0xff)
      n++;
    if (v)
      return -1;
    for (i++; i < m->len; i++)
      if (m->b[i])
        return -1;
    break;
  }
  return n;
}

/* IPMask.Size */
static void mask_size(const struct ip *m, int *ones, int *bits) {
  int n = mask_ones(m);
  *ones = n < 0 ? 0 : n;
  *bits = n < 0 ? 0 : m->len * 8;
}

/* IP.Equal: an IPv4 address equals its IPv4-mapped form. */
static bool ip_equal(const struct ip *x, const struct ip *y) {
  if (x->len == y->len)
    return !memcmp(x->b, y->b, x->len);
  if (x->len == 4 && y->len == 16)
    return !memcmp(y->b, v4_in_v6, 12) && !memcmp(x->b, y->b + 12, 4);
  if (x->len == 16 && y->len == 4)
    return ip_equal(y, x);
  return false;
}

static bool is_zero_v4(const struct ip *x) {
  static const struct ip v4zero = {
      16, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 0, 0}};
  static const struct ip v6zero = {16, {0}};
  return ip_equal(x, &v4zero) || ip_equal(x, &v6zero);
}

/* networkNumberAndMask; false where Go gives nil, nil. */
static bool net_number_mask(const struct ipnet *n, struct ip *ip,
                            struct ip *m) {
  *ip = to4(&n->ip);
  if (!ip->len) {
    *ip = n->ip;
    if (ip->len != 16)
      return false;
  }
  *m = n->mask;
  if (m->len == 4)
    return ip->len == 4;
  if (m->len != 16)
    return false;
  if (ip->len == 4)
    *m = tail4(m);
  return true;
}

/* IPNet.Contains */
static bool net_contains(const struct ipnet *n, struct ip x) {
  struct ip nn, m;
  if (!net_number_mask(n, &nn, &m))
    nn.len = m.len = 0;
  struct ip x4 = to4(&x);
  if (x4.len)
    x = x4;
  if (x.len != nn.len)
    return false;
  for (int i = 0; i < x.len; i++)
    if ((nn.b[i] & m.b[i]) != (x.b[i] & m.b[i]))
      return false;
  return true;
}

static char *hex_bytes(char *p, const uint8_t *b, int n) {
  static const char hex[] = "0123456789abcdef";
  for (int i = 0; i < n; i++) {
    *p++ = hex[b[i] >> 4];
    *p++ = hex[b[i] & 15];
  }
  *p = '\0';
  return p;
}

/* IP.String into buf (at least 48 bytes): dotted for IPv4 and
** IPv4-mapped addresses, RFC 5952 for IPv6 (the first longest run of two
** or more zero groups becomes "::", hex in lower case). */
static void ip_format(char *buf, const struct ip *x) {
  if (!x->len) {
    strcpy(buf, "<nil>");
    return;
  }
  struct ip v4 = to4(x);
  if (v4.len) {
    sprintf(buf, "%u.%u.%u.%u", v4.b[0], v4.b[1], v4.b[2], v4.b[3]);
    return;
  }
  if (x->len != 16) {
    buf[0] = '?';
    hex_bytes(buf + 1, x->b, x->len);
    return;
  }
  int e0 = -1, e1 = -1; /* the run of zero groups, in bytes */
  for (int i = 0; i < 16; i += 2) {
    int j = i;
    while (j < 16 && !x->b[j] && !x->b[j + 1])
      j += 2;
    if (j > i && j - i > e1 - e0) {
      e0 = i;
      e1 = j;
      i = j;
    }
  }
  if (e1 - e0 <= 2)
    e0 = e1 = -1;
  char *p = buf;
  for (int i = 0; i < 16; i += 2) {
    if (i == e0) {
      *p++ = ':';
      *p++ = ':';
      i = e1;
      if (i >= 16)
        break;
    } else if (i > 0) {
      *p++ = ':';
    }
    p += sprintf(p, "%x", (unsigned)(x->b[i] << 8 | x->b[i + 1]));
  }
  *p = '\0';
}

static const char *ip_string(tfr_arena *a, const struct ip *x) {
  char buf[48];
  ip_format(buf, x);
  return tfr_arena_printf(a, "%s", buf);
}

/* IPNet.String: "address/length", or "<nil>" where Go finds no network
** number (an IPv4 mask on an IPv6 address, a nil mask). */
static const char *ipnet_string(tfr_arena *a, const struct ipnet *n) {
  struct ip nn, m;
  if (!net_number_mask(n, &nn, &m))
    return "<nil>";
  char buf[48];
  ip_format(buf, &nn);
  int l = mask_ones(&m);
  if (l < 0) { /* not reachable: every mask here is a CIDR mask */
    char hex[33];
    hex_bytes(hex, m.b, m.len);
    return tfr_arena_printf(a, "%s/%s", buf, hex);
  }
  return tfr_arena_printf(a, "%s/%d", buf, l);
}

/* ---- Terraform's internal/ipaddr ------------------------------------ */

/* ipaddr's "big": numbers stop there. */
#define NUM_LIMIT 0xFFFFFF

/* dtoi: the decimal number at the start of s; false if there are no
** digits or it reaches NUM_LIMIT. */
static bool dtoi(const char *s, size_t n, int *val, size_t *used) {
  int v = 0;
  size_t i = 0;
  for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
    v = v * 10 + (s[i] - '0');
    if (v >= NUM_LIMIT)
      return false;
  }
  *val = v;
  *used = i;
  return i > 0;
}

/* xtoi: the same in hexadecimal. */
static bool xtoi(const char *s, size_t n, int *val, size_t *used) {
  int v = 0;
  size_t i = 0;
  for (; i < n; i++) {
    int d;
    if (s[i] >= '0' && s[i] <= '9')
      d = s[i] - '0';
    else if (s[i] >= 'a' && s[i] <= 'f')
      d = s[i] - 'a' + 10;
    else if (s[i] >= 'A' && s[i] <= 'F')
      d = s[i] - 'A' + 10;
    else
      break;
    v = v * 16 + d;
    if (v >= NUM_LIMIT)
      return false;
  }
  *val = v;
  *used = i;
  return i > 0;
}

/* parseIPv4: four decimal octets (leading zeros allowed); the result is
** 16 bytes, IPv4-mapped, as net.IPv4 makes it. */
static bool parse_ipv4(const char *s, size_t n, struct ip *out) {
  uint8_t p[4];
  for (int i = 0; i < 4; i++) {
    if (!n)
      return false;
    if (i > 0) {
      if (s[0] != '.')
        return false;
      s++;
      n--;
    }
    int v;
    size_t c;
    if (!dtoi(s, n, &v, &c) || v > 0xff)
      return false;
    s += c;
    n -= c;
    p[i] = (uint8_t)v;
  }
  if (n)
    return false;
  out->len = 16;
  memcpy(out->b, v4_in_v6, 12);
  memcpy(out->b + 12, p, 4);
  return true;
}

/* parseIPv6: RFC 4291 text, with at most one "::" and an optional
** trailing dotted IPv4 part. */
static bool parse_ipv6(const char *s, size_t n, struct ip *out) {
  struct ip ip = {16, {0}};
  int ellipsis = -1;
  if (n >= 2 && s[0] == ':' && s[1] == ':') {
    ellipsis = 0;
    s += 2;
    n -= 2;
    if (!n) {
      *out = ip;
      return true;
    }
  }
  int i = 0;
  while (i < 16) {
    int v;
    size_t c;
    if (!xtoi(s, n, &v, &c) || v > 0xffff)
      return false;
    if (c < n && s[c] == '.') {
      if (ellipsis < 0 && i != 12)
        return false;
      if (i + 4 > 16)
        return false;
      struct ip v4;
      if (!parse_ipv4(s, n, &v4))
        return false;
      memcpy(ip.b + i, v4.b + 12, 4);
      n = 0;
      i += 4;
      break;
    }
    ip.b[i] = (uint8_t)(v >> 8);
    ip.b[i + 1] = (uint8_t)v;
    i += 2;
    s += c;
    n -= c;
    if (!n)
      break;
    if (s[0] != ':' || n == 1)
      return false;
    s++;
    n--;
    if (s[0] == ':') {
      if (ellipsis >= 0)
        return false;
      ellipsis = i;
      s++;
      n--;
      if (!n)
        break;
    }
  }
  if (n)
    return false;
  if (i < 16) {
    if (ellipsis < 0)
      return false;
    int k = 16 - i;
    for (int j = i - 1; j >= ellipsis; j--)
      ip.b[j + k] = ip.b[j];
    for (int j = ellipsis + k - 1; j >= ellipsis; j--)
      ip.b[j] = 0;
  } else if (ellipsis >= 0) {
    return false; /* "::" must stand for at least one group */
  }
  *out = ip;
  return true;
}

/* ParseIP: by the first '.' or ':'. */
static bool parse_ip(const char *s, size_t n, struct ip *out) {
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '.')
      return parse_ipv4(s, n, out);
    if (s[i] == ':')
      return parse_ipv6(s, n, out);
  }
  return false;
}

/* ParseCIDR's network: the address masked to the prefix, 4 bytes with a
** 4-byte mask for IPv4 text, 16 with 16 for IPv6 text (IPv4-mapped too). */
static bool parse_cidr(const char *s, size_t n, struct ipnet *out) {
  const char *slash = memchr(s, '/', n);
  if (!slash)
    return false;
  size_t an = (size_t)(slash - s);
  const char *m = slash + 1;
  size_t mn = n - an - 1;
  struct ip ip;
  int bits = 32;
  if (!parse_ipv4(s, an, &ip)) {
    bits = 128;
    if (!parse_ipv6(s, an, &ip))
      return false;
  }
  int ones;
  size_t used;
  if (!dtoi(m, mn, &ones, &used) || used != mn || ones > bits)
    return false;
  out->mask = cidr_mask(ones, bits);
  out->ip = ip_mask(ip, out->mask);
  return true;
}

/* ---- go-cidr -------------------------------------------------------- */

/* Inc / Dec: the next or previous address, wrapping. */
static struct ip ip_inc(const struct ip *x) {
  struct ip r = check4(x);
  for (int j = r.len - 1; j >= 0; j--)
    if (++r.b[j] > 0)
      break;
  return r;
}

static struct ip ip_dec(const struct ip *x) {
  struct ip r = check4(x);
  for (int j = r.len - 1; j >= 0; j--)
    if (--r.b[j] < 255)
      break;
  return r;
}

/* AddressRange's last address: every host bit set. */
static struct ip address_last(const struct ipnet *n) {
  int ones, bits;
  mask_size(&n->mask, &ones, &bits);
  struct ip r = n->ip;
  if (ones == bits || (r.len != 4 && r.len != 16) || ones > r.len * 8)
    return r; /* the last two: Go panics, unreachable from here */
  for (int k = ones; k < r.len * 8; k++)
    r.b[k / 8] |= (uint8_t)(0x80 >> (k % 8));
  return r;
}

/* PreviousSubnet (its rollover flag unused by Terraform). */
static struct ipnet previous_subnet(const struct ipnet *n, int64_t plen) {
  struct ip start = check4(&n->ip);
  struct ipnet r;
  r.mask = cidr_mask(plen, 8 * start.len);
  r.ip = ip_mask(ip_dec(&start), r.mask);
  return r;
}

/* NextSubnet: the subnet of length plen after n; *rollover when the
** address space wrapped around to zero. */
static struct ipnet next_subnet(const struct ipnet *n, int64_t plen,
                                bool *rollover) {
  struct ip last = address_last(n);
  struct ipnet cur;
  cur.mask = cidr_mask(plen, 8 * last.len);
  cur.ip = ip_mask(last, cur.mask);
  struct ip end = address_last(&cur);
  last = ip_inc(&end);
  struct ipnet r = {ip_mask(last, cur.mask), cur.mask};
  *rollover = is_zero_v4(&last);
  return r;
}

/* ---- numbers -------------------------------------------------------- */

#define INT_RANGE_MSG                                                          \
  "value must be a whole number, between -9223372036854775808 and "            \
  "9223372036854775807"

/* A whole number at least 2^HUGE_BITS whose low 128 bits are zero: too
** large to be worth materialising, and all that matters about it. */
#define HUGE_BITS (1L << 20)

enum bigint { BIG_ERROR, BIG_OK, BIG_HUGE };

/* gocty.FromCtyValue into a *big.Int: a whole number or "value must be a
** whole number" (an error in function call). */
static enum bigint to_bigint(struct fcall *f, const tfr_value *v, mpz_t z) {
  if (!num_is_int(v->num)) {
    fcall_error(f, "value must be a whole number");
    return BIG_ERROR;
  }
  mpfr_srcptr x = num_mpfr(v->num);
  if (!mpfr_zero_p(x) && mpfr_get_exp(x) > HUGE_BITS &&
      mpfr_get_exp(x) - (mpfr_exp_t)mpfr_get_prec(x) >= 128)
    return BIG_HUGE;
  mpfr_get_z(z, x, MPFR_RNDN); /* exact: x is whole */
  return BIG_OK;
}

/* gocty.FromCtyValue into an int (64 bits). */
static bool to_int(struct fcall *f, size_t i, bool arg_error, int64_t *out) {
  if (num_to_int64(f->args[i]->num, out))
    return true;
  if (arg_error)
    fcall_arg_error(f, i, INT_RANGE_MSG);
  else
    fcall_error(f, INT_RANGE_MSG);
  return false;
}

/* big.Int.Uint64: the low 64 bits of the magnitude. */
static uint64_t low64(const mpz_t z) {
  mpz_t t;
  mpz_init(t);
  mpz_abs(t, z);
  mpz_fdiv_r_2exp(t, t, 64);
  uint8_t b[8];
  size_t n = 0;
  mpz_export(b, &n, 1, 1, 1, 0, t);
  mpz_clear(t);
  uint64_t r = 0;
  for (size_t i = 0; i < n; i++)
    r = r << 8 | b[i];
  return r;
}

static const char *mpz_text(tfr_arena *a, const mpz_t z) {
  char *s = tfr_arena_alloc(a, mpz_sizeinbase(z, 10) + 2);
  return mpz_get_str(s, 10, z);
}

/* Go's panic in intToIP when the number has more bytes than the address
** (the loop indexes the result at -1). */
static void panic_index(struct fcall *f) {
  fcall_error(f, "panic in function implementation: runtime error: index "
                 "out of range [-1]");
}

/*
** Whether shifting a nonzero number of numbits bits left by shift bits
** (big.Int.Lsh) fails before intToIP gets it, or makes intToIP fail:
** reports the panic and returns true.  Go allocates len+1 words plus 4
** spare (nat.shl, nat.make) and makeslice refuses more than maxAlloc,
** 2^48 bytes on 64-bit systems; a result of more than total + 1 bits
** does not fit the address.  (Between those, Go really allocates up to
** 256 TiB and then panics on the index, or runs out of memory.)
*/
static bool shift_panics(struct fcall *f, uint64_t numbits, uint64_t shift,
                         int total) {
  const uint64_t max_words = ((uint64_t)1 << 48) / 8;
  uint64_t len = (numbits + 63) / 64 + shift / 64 + 1;
  if (len > max_words)
    fcall_error(f, "panic in function implementation: runtime error: "
                   "makeslice: len out of range");
  else if (len + 4 > max_words)
    fcall_error(f, "panic in function implementation: runtime error: "
                   "makeslice: cap out of range");
  else if (shift > (uint64_t)total + 1)
    panic_index(f); /* |result| > 2^shift - 2^total >= 2^total */
  else
    return false;
  return true;
}

/* go-cidr's insertNumIntoIP: ip | num << shift, as an address of ip's
** length; false (and the panic reported) when it does not fit. */
static bool insert_num(struct fcall *f, const struct ip *ip, const mpz_t num,
                       uint64_t shift, struct ip *out) {
  if (mpz_sgn(num) &&
      shift_panics(f, mpz_sizeinbase(num, 2), shift, ip->len * 8))
    return false;
  mpz_t v, t;
  mpz_inits(v, t, NULL);
  mpz_import(v, ip->len, 1, 1, 1, 0, ip->b);
  mpz_mul_2exp(t, num, (mp_bitcnt_t)shift);
  mpz_ior(v, v, t);
  mpz_abs(v, v); /* big.Int.Bytes: the magnitude */
  size_t n = mpz_sgn(v) ? (mpz_sizeinbase(v, 2) + 7) / 8 : 0;
  bool ok = n <= ip->len;
  if (ok) {
    *out = (struct ip){ip->len, {0}};
    size_t cnt = 0;
    if (n)
      mpz_export(out->b + (ip->len - n), &cnt, 1, 1, 1, 0, v);
  } else {
    panic_index(f);
  }
  mpz_clears(v, t, NULL);
  return ok;
}

/* ---- the functions -------------------------------------------------- */

/* ParseCIDR on a string argument; the error as Terraform words it. */
static bool prefix_arg(struct fcall *f, size_t i, bool arg_error,
                       struct ipnet *out) {
  const tfr_value *v = f->args[i];
  if (parse_cidr(v->s, v->n, out))
    return true;
  if (arg_error)
    fcall_arg_error(f, i, "invalid CIDR expression: invalid CIDR address: %.*s",
                    (int)v->n, v->s);
  else
    fcall_error(f, "invalid CIDR expression: invalid CIDR address: %.*s",
                (int)v->n, v->s);
  return false;
}

/* go-cidr's HostBig, the number already converted. */
static const char *host(struct fcall *f, const struct ipnet *net, mpz_t num,
                        enum bigint kind) {
  int ones, bits;
  mask_size(&net->mask, &ones, &bits);
  if (kind == BIG_HUGE && num_sign(f->args[1]->num) > 0) {
    panic_index(f); /* its low 64 bits are zero, so it passes the check */
    return NULL;
  }
  if (kind == BIG_HUGE) {
    /* Go would print hostnum + 2^(bits - ones) in full, millions of
    ** digits; this gives the number in short scientific form instead. */
    char buf[64];
    mpfr_snprintf(buf, sizeof buf, "%.17Rg", num_mpfr(f->args[1]->num));
    fcall_error(f, "prefix of %d does not accommodate a host numbered %s", ones,
                buf);
    return NULL;
  }
  const char *res = NULL;
  mpz_t max, u;
  mpz_inits(max, u, NULL);
  mpz_setbit(max, (mp_bitcnt_t)(bits - ones));
  mpz_sub_ui(max, max, 1);
  /* big.NewInt(int64(num.Uint64())): may come out negative */
  uint64_t lo = low64(num);
  mpz_import(u, 1, 1, sizeof lo, 0, 0, &lo);
  if (lo >> 63) {
    mpz_t two64;
    mpz_init(two64);
    mpz_setbit(two64, 64);
    mpz_sub(u, u, two64);
    mpz_clear(two64);
  }
  if (mpz_sgn(num) < 0) { /* counting from the end */
    mpz_neg(u, num);
    mpz_sub_ui(u, u, 1);
    mpz_sub(num, max, u);
  }
  if (mpz_cmp(u, max) > 0) {
    fcall_error(f, "prefix of %d does not accommodate a host numbered %s", ones,
                mpz_text(f->a, num));
  } else {
    /* insertNumIntoIP(ip, num, 32 or 128): an IPv4-mapped network counts
    ** as IPv4 here, so its 16 bytes get the number 96 bits up. */
    int width = to4(&net->ip).len ? 32 : 128;
    struct ip r;
    if (insert_num(f, &net->ip, num, (uint64_t)(net->ip.len * 8 - width), &r))
      res = ip_string(f->a, &r);
  }
  mpz_clears(max, u, NULL);
  return res;
}

/* cidrhost(prefix, hostnum): the address of host number hostnum in the
** network; a negative hostnum counts back from its last address. */
static const tfr_value *fn_cidrhost(struct fcall *f, const tfr_type *r) {
  (void)r;
  const char *res = NULL;
  mpz_t num;
  mpz_init(num);
  struct ipnet net;
  enum bigint kind = to_bigint(f, f->args[1], num);
  if (kind != BIG_ERROR && prefix_arg(f, 0, false, &net))
    res = host(f, &net, num, kind);
  mpz_clear(num);
  return res ? tfr_string_nocopy(f->a, res, strlen(res)) : NULL;
}

/* cidrnetmask(prefix): the IPv4 netmask in dotted form. */
static const tfr_value *fn_cidrnetmask(struct fcall *f, const tfr_type *r) {
  (void)r;
  struct ipnet net;
  if (!prefix_arg(f, 0, false, &net))
    return NULL;
  if (!to4(&net.ip).len) {
    fcall_error(f, "IPv6 addresses cannot have a netmask: %.*s",
                (int)f->args[0]->n, f->args[0]->s);
    return NULL;
  }
  /* the mask printed as an address: an IPv4-mapped prefix has 16 bytes */
  const char *s = ip_string(f->a, &net.mask);
  return tfr_string_nocopy(f->a, s, strlen(s));
}

/* go-cidr's SubnetBig, the numbers already converted. */
static const char *subnet(struct fcall *f, const struct ipnet *net,
                          int64_t newbits, mpz_t num, enum bigint kind) {
  int parent, bits;
  mask_size(&net->mask, &parent, &bits);
  /* Go's int arithmetic wraps */
  int64_t plen = (int64_t)((uint64_t)parent + (uint64_t)newbits);
  if (plen > bits) {
    fcall_error(f,
                "insufficient address space to extend prefix of %d by "
                "%" PRId64,
                parent, newbits);
    return NULL;
  }
  /* uint64(1<<uint64(newBits)) - 1: a shift of 64 or more gives 0 */
  uint64_t max =
      newbits >= 0 && newbits < 64 ? ((uint64_t)1 << newbits) - 1 : UINT64_MAX;
  uint64_t shift = (uint64_t)bits - (uint64_t)plen;
  if (kind == BIG_HUGE) { /* low 64 bits zero: passes, then too large */
    mpfr_exp_t e = mpfr_get_exp(num_mpfr(f->args[2]->num));
    if (!shift_panics(f, (uint64_t)e, shift, bits))
      panic_index(f);
    return NULL;
  }
  if (low64(num) > max) {
    fcall_error(f,
                "prefix extension of %" PRId64
                " does not accommodate a subnet numbered %s",
                newbits, mpz_text(f->a, num));
    return NULL;
  }
  struct ipnet r;
  if (!insert_num(f, &net->ip, num, shift, &r.ip))
    return NULL;
  r.mask = cidr_mask(plen, bits);
  return ipnet_string(f->a, &r);
}

/* cidrsubnet(prefix, newbits, netnum): subnet number netnum of the
** prefix extended by newbits bits. */
static const tfr_value *fn_cidrsubnet(struct fcall *f, const tfr_type *r) {
  (void)r;
  int64_t newbits;
  if (!to_int(f, 1, false, &newbits))
    return NULL;
  const char *res = NULL;
  mpz_t num;
  mpz_init(num);
  struct ipnet net;
  enum bigint kind = to_bigint(f, f->args[2], num);
  if (kind != BIG_ERROR && prefix_arg(f, 0, false, &net))
    res = subnet(f, &net, newbits, num, kind);
  mpz_clear(num);
  return res ? tfr_string_nocopy(f->a, res, strlen(res)) : NULL;
}

static const tfr_type t_list_string = {.kind = TFR_LIST, .elem = &tfr_t_string};

/* cidrsubnets(prefix, newbits...): consecutive subnets, each newbits
** longer than the prefix, each after the one before (aligned to its own
** size), all inside the prefix. */
static const tfr_value *fn_cidrsubnets(struct fcall *f, const tfr_type *r) {
  (void)r;
  struct ipnet net;
  if (!prefix_arg(f, 0, true, &net))
    return NULL;
  int start, bits;
  mask_size(&net.mask, &start, &bits);
  size_t n = f->nargs - 1;
  if (!n)
    return tfr_list(f->a, &tfr_t_string, 0, NULL);
  int64_t first;
  if (!to_int(f, 1, true, &first))
    return NULL;
  struct ipnet cur =
      previous_subnet(&net, (int64_t)((uint64_t)first + (uint64_t)start));
  const tfr_value **out = tfr_arena_alloc(f->a, n * sizeof *out);
  for (size_t i = 0; i < n; i++) {
    int64_t len;
    if (!to_int(f, i + 1, true, &len))
      return NULL;
    if (len < 1) {
      fcall_arg_error(f, i + 1, "must extend prefix by at least one bit");
      return NULL;
    }
    if (len > 32) { /* for 32-bit platforms' sake, even on IPv6 */
      fcall_arg_error(f, i + 1, "may not extend prefix by more than 32 bits");
      return NULL;
    }
    len += start;
    if (len > net.ip.len * 8) {
      fcall_arg_error(f, i + 1,
                      "would extend prefix to %" PRId64
                      " bits, which is too long for an %s address",
                      len, net.ip.len == 4 ? "IPv4" : "IPv6");
      return NULL;
    }
    bool rollover;
    struct ipnet next = next_subnet(&cur, len, &rollover);
    if (rollover || !net_contains(&net, next.ip)) {
      fcall_arg_error(f, i + 1,
                      "not enough remaining address space for a subnet "
                      "with a prefix of %" PRId64 " bits after %s",
                      len, ipnet_string(f->a, &cur));
      return NULL;
    }
    cur = next;
    const char *s = ipnet_string(f->a, &cur);
    out[i] = tfr_string_nocopy(f->a, s, strlen(s));
  }
  return tfr_list(f->a, &tfr_t_string, n, out);
}

/* OpenTofu's cidrcontains(containing_prefix, contained_ip_or_prefix):
** whether the address, or both ends of the prefix, lie in the prefix;
** both must be of one address family. */
static const tfr_value *fn_cidrcontains(struct fcall *f, const tfr_type *r) {
  (void)r;
  const tfr_value *pv = f->args[0], *av = f->args[1];
  struct ipnet outer;
  if (!parse_cidr(pv->s, pv->n, &outer)) {
    fcall_error(f, "invalid CIDR address: %.*s", (int)pv->n, pv->s);
    return NULL;
  }
  struct ip first, last = {0, {0}};
  if (!parse_ip(av->s, av->n, &first)) {
    struct ipnet inner;
    if (!parse_cidr(av->s, av->n, &inner)) {
      fcall_error(f, "invalid IP address or prefix: %.*s", (int)av->n, av->s);
      return NULL;
    }
    first = inner.ip;
    last = address_last(&inner);
  }
  if (!to4(&first).len != !to4(&outer.ip).len) {
    fcall_error(f, "address family mismatch: %.*s vs. %.*s", (int)pv->n, pv->s,
                (int)av->n, av->s);
    return NULL;
  }
  bool in = net_contains(&outer, first);
  if (last.len)
    in = in && net_contains(&outer, last);
  return tfr_bool(in);
}

static const struct func_param newbits_param = NUM("newbits");

static const struct func_spec specs[] = {
    {"cidrhost",
     2,
     {STR("prefix"), NUM("hostnum")},
     NULL,
     &tfr_t_string,
     NULL,
     fn_cidrhost},
    {"cidrnetmask",
     1,
     {STR("prefix")},
     NULL,
     &tfr_t_string,
     NULL,
     fn_cidrnetmask},
    {"cidrsubnet",
     3,
     {STR("prefix"), NUM("newbits"), NUM("netnum")},
     NULL,
     &tfr_t_string,
     NULL,
     fn_cidrsubnet},
    {"cidrsubnets",
     1,
     {STR("prefix")},
     &newbits_param,
     &t_list_string,
     NULL,
     fn_cidrsubnets},
};

static const struct func_spec tofu_specs[] = {
    {"cidrcontains",
     2,
     {STR("containing_prefix"), STR("contained_ip_or_prefix")},
     NULL,
     &tfr_t_bool,
     NULL,
     fn_cidrcontains},
};

const struct func_group funcs_net = {specs, sizeof specs / sizeof *specs};
const struct func_group funcs_net_tofu = {tofu_specs, sizeof tofu_specs /
                                                          sizeof *tofu_specs};
