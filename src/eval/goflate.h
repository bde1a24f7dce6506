/*
** Go's compress/flate and compress/gzip as Terraform's and OpenTofu's
** functions run them: the same bytes out, the same error texts.
*/
#ifndef TFR_GOFLATE_H
#define TFR_GOFLATE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/strutil.h"
#include "tfresolve/arena.h"

/* gzip.NewWriterLevel(.., 6) of s[0..n): appended to out (no header name
** or time, as Terraform's base64gzip writes it).  False when it fails. */
bool go_gzip(struct sbuf *out, const unsigned char *s, size_t n);

/*
** gzip.NewReader + io.ReadAll of in[0..n): every member, each checked
** against its CRC-32 and size, appended to out (at most the memory budget
** or 4 GiB).  False on error with OpenTofu's message in *err (in a).
*/
bool go_gunzip(tfr_arena *a, struct sbuf *out, const unsigned char *in,
               size_t n, const char **err);

#endif
