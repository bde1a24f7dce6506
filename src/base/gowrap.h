/*
** The two Go text helpers Terraform's plain diagnostics (format.
** DiagnosticPlain) pass each detail line through, byte for byte.
*/
#ifndef TFR_GOWRAP_H
#define TFR_GOWRAP_H

#include <stddef.h>

#include "base/strutil.h"

/*
** go-wordwrap's WrapString(s, lim) (github.com/mitchellh/go-wordwrap
** v1.0.1, the version Terraform's go.mod names), appended to out: breaks
** only at white space (unicode.IsSpace, but not U+00A0), dropping the
** spaces at a break; a word that would pass lim characters (runes)
** starts a new line, a word longer than lim stays whole; invalid UTF-8
** comes out as U+FFFD, as Go's range loop decodes it.
*/
void go_wrap_string(struct sbuf *out, const char *s, size_t n, size_t lim);

/*
** colorstring's Colorize.Color with Disable set (github.com/mitchellh/
** colorstring, DefaultColors), appended to out: every "[name]" whose name
** is a colour or attribute of DefaultColors ("[red]", "[bold]",
** "[reset]"; case matters) is dropped, anything else is kept.
*/
void go_colorstring_plain(struct sbuf *out, const char *s, size_t n);

#endif
