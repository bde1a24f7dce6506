/*
** Small string helpers shared by several modules.
*/
#ifndef TFR_STRUTIL_H
#define TFR_STRUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tfresolve/arena.h"

/* Levenshtein distance between two short strings, for "Did you mean"
** suggestions; a large number when either is long. */
size_t str_distance(const char *a, size_t na, const char *b, size_t nb);

/* Whether str_distance(a, b) < 3, the test of every "Did you mean"
** (hcl's nameSuggestion, hclsyntax/didyoumean.go:19-27), for many pairs:
** each string keyed once (str_near_key) with what two lower bounds of
** the distance need, its length and the classes of its bytes (a byte's
** low 6 bits).  Lengths 3 or more apart, or 3 classes that one has and
** the other has not (an edit removes at most one class of a and adds at
** most one of b), are not near; only the pairs left are measured.  A
** comparison of keys costs a few instructions, so that thousands of
** names against thousands stay cheap. */
struct near_key {
  const char *s;
  size_t n;
  uint64_t classes;
};
struct near_key str_near_key(const char *s, size_t n);
bool str_near_keys(const struct near_key *a, const struct near_key *b);

/* Terraform's rule for "Did you mean" (didyoumean.NameSuggestion): the
** name of names[0..n) closest to given, if its Levenshtein distance is
** below 3 (the first of equals); NULL when none is. */
const char *str_suggest(const char *given, const char *const *names, size_t n);

/* Does s end with suffix? */
bool str_ends_with(const char *s, const char *suffix);

/* Grapheme clusters in n bytes of UTF-8 (invalid bytes count as U+FFFD):
** what Terraform's length() returns and how HCL counts columns. */
size_t str_graphemes(const char *s, size_t n);

/* Decode one UTF-8 rune of the n > 0 bytes at s into *r (U+FFFD for an
** invalid byte); its length in bytes. */
size_t str_decode_rune(const char *s, size_t n, int32_t *r);

/* Go's unicode.IsSpace. */
bool str_go_isspace(int32_t r);

/* Go's unicode.IsLetter: general category L (Lu, Ll, Lt, Lm, Lo). */
bool str_go_isletter(int32_t r);

/* Go's strings.TrimSpace: [*s, *s + *n) narrowed to leave out the white
** space (unicode.IsSpace) at either end. */
void str_go_trim_space(const char **s, size_t *n);

/* cty's ctystrings.SafeKnownPrefix: how many of the n bytes of NFC text
** at s stay the same whatever text follows them (what a refined unknown
** string may say it starts with). */
size_t str_safe_prefix(const char *s, size_t n);

/* Runes (code points) in n bytes of UTF-8. */
size_t str_runes(const char *s, size_t n);
/* Whether s[0..n) is well-formed UTF-8 (RFC 3629: no overlong forms, no
** surrogates, nothing past U+10FFFF): Go's utf8.Valid, utf8proc's view. */
bool str_utf8_valid(const char *s, size_t n);
/* The length of the UTF-8 sequence lead byte b starts, or 0 (not a lead
** byte of well-formed UTF-8). */
size_t str_utf8_width(unsigned char b);

/* hclsyntax.ValidIdentifier: (ID_Start | '_') (ID_Continue | '-')*. */
bool str_is_identifier(const char *s, size_t n);

/* The value of a hexadecimal digit (either case), or -1. */
int str_hex_digit(int32_t c);

/* Go's path/filepath.Clean on Unix: the shortest equivalent path of the
** n bytes at p, NUL-terminated, in a (or static); its length in *len when
** len is not NULL. */
const char *str_path_clean(tfr_arena *a, const char *p, size_t n, size_t *len);

/* Byte order of x (nx bytes) and y (ny bytes), a prefix first: <0, 0, >0. */
int str_cmp_bytes(const char *x, size_t nx, const char *y, size_t ny);

/* A hash of n bytes (eight at a time), for in-memory hash tables. */
uint64_t str_hash(const char *s, size_t n);

/*
** Sorting many strings that lie scattered in memory (a module's variable
** names, a large map's keys): each carries its first 16 bytes as two
** big-endian numbers (str_prefix: zero-padded), which settle most
** comparisons without reading the string; tie(ctx, i, j) compares the
** strings of indexes i and j when the prefixes are equal.  A stable
** bottom-up merge sort of keys (n), tmp its room for n more; the result
** in keys.  The order is bytewise, as str_cmp_bytes and strcmp give it.
*/
struct str_key {
  uint64_t pre[2];
  uint32_t i;
};
void str_prefix(const char *s, size_t n, uint64_t pre[2]);
void str_sort(struct str_key *keys, struct str_key *tmp, size_t n,
              int (*tie)(const void *ctx, uint32_t i, uint32_t j),
              const void *ctx);

/* Copy the first min(n, have) bytes of a struct a program allocated (n:
** the sizeof of its header) into out (have bytes: ours), zeroing what the
** program's layout lacks, which is its default.  False, with out zeroed,
** when n is below min (the first sized layout; 0: not set by its _INIT
** macro). */
bool mem_read_sized(void *out, size_t have, const void *in, size_t n,
                    size_t min);

/* p without its const, where the library knows the object is its own to
** change or free (a cast through uintptr_t, which -Wcast-qual accepts:
** every such place is marked by the name). */
#define UNCONST(type, p) ((type)(uintptr_t)(const void *)(p))

/* Where a struct's field ends: the size of a layout that ends with it. */
#define STRUCT_END(type, field)                                                \
  (offsetof(type, field) + sizeof(((type *)0)->field))

/* The growable, NUL-terminated byte buffer of the library.  p is
** malloc'd (the owner frees it), or, with arena set, in that arena (each
** growth leaves the old copy to it: for text that becomes an arena value).
** limit (0: none) caps its length; a put that would pass it, or this
** thread's sbuf limit, sets too_large and adds nothing. */
struct sbuf {
  char *p;
  size_t n, cap;
  tfr_arena *arena;
  size_t limit;
  bool too_large;
};

/* Room for n more bytes and a terminating NUL (aborts when memory is
** exhausted); false, leaving b as it is but too_large set, when that
** would pass b's limit or this thread's (sbuf_put then adds nothing). */
bool sbuf_reserve(struct sbuf *b, size_t n);

/* A limit on every sbuf this thread grows (0: none): the function-call
** machinery sets the memory budget around each call, so that a result that
** would outgrow it stops growing and the call fails with "value too large"
** instead of running out of memory.  pop restores the previous limit and
** says whether a buffer reached this one. */
struct sbuf_limit {
  size_t limit;
  bool hit;
};
struct sbuf_limit sbuf_limit_push(size_t limit);
bool sbuf_limit_pop(struct sbuf_limit prev);
void sbuf_put(struct sbuf *b, const char *s, size_t n);
void sbuf_str(struct sbuf *b, const char *s);

/* Go's unicode.IsPrint for a code point (letters, marks, numbers,
** punctuation, symbols, and the ASCII space). */
bool go_isprint(int32_t cp);

/* The backslash escape of c in a quoted string, or NULL: the five that
** HCL writes (\" \\ \n \r \t) and, with go, also strconv.Quote's \a \b
** \f \v. */
const char *str_escape(int32_t c, bool go);

/* Append n bytes as Go's strconv.Quote (fmt's %q) writes them: printable
** characters as they are, others escaped; invalid UTF-8 as \xNN.  It is
** how Terraform's console quotes strings and how cty keys sets. */
void sbuf_go_quote(struct sbuf *b, const char *s, size_t n);

/* The same as a NUL-terminated string in the arena. */
const char *str_go_quote(tfr_arena *a, const char *s, size_t n);

/* A map from NUL-terminated names (not copied: they must outlive it) to
** indexes, for lookups by name in linear time overall. */
struct strmap {
  struct strmap_entry { /* one slot of 16 bytes */
    const char *key;    /* NULL: empty */
    uint32_t hash;      /* of key: probes and growth rarely read keys */
    uint32_t val;       /* values are indexes: below 2^32 */
  } * e;
  size_t cap, n;
};

void strmap_free(struct strmap *m);
/* True and *val set when the name is there. */
bool strmap_get(const struct strmap *m, const char *key, size_t *val);
/* Add or replace. */
void strmap_put(struct strmap *m, const char *key, size_t val);
/* Add unless the name is there: true when added, else *old is its value. */
bool strmap_add(struct strmap *m, const char *key, size_t val, size_t *old);
/* Remove the name, if there. */
void strmap_del(struct strmap *m, const char *key);
/* Room for n names without growing. */
void strmap_reserve(struct strmap *m, size_t n);

/* A map from byte strings (key and length; not copied: they must outlive
** it) to non-NULL pointers. */
struct bytemap {
  struct bytemap_entry {
    const char *key;
    size_t len;
    void *val; /* NULL: an empty slot */
  } * e;
  size_t cap, n;
};

void bytemap_free(struct bytemap *m);
/* The value of the key, or NULL. */
void *bytemap_get(const struct bytemap *m, const char *key, size_t len);
/* Add or replace (val not NULL). */
void bytemap_put(struct bytemap *m, const char *key, size_t len, void *val);

#endif
