/*
** A C interface to the part of RE2 that the regex functions need (the C++
** library behind it is src/eval/re2_shim.cc).  RE2 is Go's regexp engine in
** C++: leftmost-first matches, linear time, the same submatches.
*/
#ifndef TFR_RE2_SHIM_H
#define TFR_RE2_SHIM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct re2_shim;

/* Compile pattern (RE2 syntax, UTF-8).  NULL on failure, with RE2's
** message in err (size bytes, NUL-terminated).  Memory running out (a
** std::bad_alloc inside RE2) is no failure of the pattern: it ends in
** tfr_oom() (src/base/heap.h), here and in re2_shim_match. */
struct re2_shim *re2_shim_new(const char *pattern, size_t n, char *err,
                              size_t size);
void re2_shim_free(struct re2_shim *re);
/* Capturing groups, not counting the whole match. */
int re2_shim_groups(const struct re2_shim *re);
/* The leftmost-first match in s[0..n) that starts at or after pos: 1 and
** the spans of the match and its groups in span[0..2*(groups+1)) (start,
** end; -1, -1 for a group that did not take part), 0 if none. */
int re2_shim_match(const struct re2_shim *re, const char *s, size_t n,
                   size_t pos, long *span);

#ifdef __cplusplus
}
#endif
#endif
