/*
** Go's encoding/base64 StdEncoding (the port of Go's behaviour that
** base64encode/base64decode, textencodebase64, base64gzip/gunzip,
** filebase64 and rsadecrypt share): see gobase64.h.
*/
#include "eval/gobase64.h"

#include <stdint.h>
#include <string.h>

/* ---- base64 (Go's encoding/base64 StdEncoding) ----------------------------
 */

static const char b64chars[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void go_b64_encode(struct sbuf *b, const unsigned char *s, size_t n) {
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
bool go_b64_decode(struct sbuf *out, const char *src, size_t n, size_t *bad) {
  size_t ignored;
  if (!bad)
    bad = &ignored;
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
