/*
** Go's encoding/base64 with StdEncoding, byte for byte: the one base64 of
** the library.
*/
#ifndef TFR_GOBASE64_H
#define TFR_GOBASE64_H

#include <stdbool.h>
#include <stddef.h>

#include "base/strutil.h"

/* EncodeToString: appended to b (padded, no newlines). */
void go_b64_encode(struct sbuf *b, const unsigned char *s, size_t n);

/*
** DecodeString, appended to out: \r and \n are skipped, padding is
** required, unused bits are not checked.  False where Go fails, with *bad
** (when bad is not NULL) the offset Go's CorruptInputError reports.
*/
bool go_b64_decode(struct sbuf *out, const char *src, size_t n, size_t *bad);

#endif
