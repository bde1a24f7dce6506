/*
** JSON string escaping, as Go's encoding/json does it for the characters
** that matter to us (<, >, & are left alone: our output is not HTML).
*/
#include "json_out.h"

#include <string.h>

void json_write_string(FILE *out, const char *s, size_t n) {
  putc('"', out);
  size_t run = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    const char *esc = NULL;
    char buf[8];
    switch (ch) {
    case '"':
      esc = "\\\"";
      break;
    case '\\':
      esc = "\\\\";
      break;
    case '\n':
      esc = "\\n";
      break;
    case '\r':
      esc = "\\r";
      break;
    case '\t':
      esc = "\\t";
      break;
    default:
      if (ch < 0x20 || ch == 0x7f) {
        snprintf(buf, sizeof buf, "\\u%04x", ch);
        esc = buf;
      }
    }
    if (esc) {
      fwrite(s + run, 1, i - run, out);
      fputs(esc, out);
      run = i + 1;
    }
  }
  fwrite(s + run, 1, n - run, out);
  putc('"', out);
}

void json_write_cstr(FILE *out, const char *s) {
  if (!s)
    fputs("null", out);
  else
    json_write_string(out, s, strlen(s));
}
