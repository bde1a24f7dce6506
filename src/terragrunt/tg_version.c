/*
** constraint_check(VERSION, CONSTRAINT) (config_helpers.go:1813-1835):
** hashicorp/go-version v1.9.0's NewSemver, NewConstraint and Check --
** versions of numeric segments (three at least) with an optional
** prerelease and metadata, compared segment by segment and prerelease
** part by part (version.go:115-340), and constraints "=", "!=", ">",
** "<", ">=", "<=", "~>" joined by commas, a prerelease version matching
** only a constraint of the same segments with a prerelease
** (constraint.go:142-307).
*/
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/heap.h"
#include "terragrunt/tg_int.h"

#define MAX_SEGS 16

struct ver {
  long long seg[MAX_SEGS];
  int n, si;       /* segments (padded to 3), and as written */
  const char *pre; /* prerelease, "" when none */
  size_t npre;
  const char *meta;
  size_t nmeta;
};

static bool ident_char(char c) {
  return isalnum((unsigned char)c) || c == '-' || c == '~';
}

/* A dot-separated list of non-empty identifiers at p, up to stop; its end. */
static const char *ident_list(const char *p, char stop) {
  const char *start = p;
  while (*p && *p != stop) {
    if (*p == '.' && (p == start || p[-1] == '.'))
      return NULL;
    if (*p != '.' && !ident_char(*p))
      return NULL;
    p++;
  }
  return p > start && p[-1] != '.' ? p : NULL;
}

/* s[0..n) as a version; semver: a prerelease needs its "-". */
static bool parse_version(const char *s, size_t n, bool semver, struct ver *v) {
  char *t = heap_alloc(n + 1);
  memcpy(t, s, n);
  t[n] = 0;
  const char *p = t + (*t == 'v');
  memset(v, 0, sizeof *v);
  bool ok = isdigit((unsigned char)*p);
  while (ok && v->si < MAX_SEGS) {
    char *end;
    v->seg[v->si++] = strtoll(p, &end, 10);
    p = end;
    if (*p != '.' || !isdigit((unsigned char)p[1]))
      break;
    p++;
  }
  v->n = v->si < 3 ? 3 : v->si;
  const char *pre = NULL, *pe = NULL;
  if (ok &&
      (*p == '-' || (!semver && (isalpha((unsigned char)*p) || *p == '~')))) {
    pre = p + (*p == '-');
    pe = ident_list(pre, '+');
    ok = pe != NULL;
    p = pe ? pe : p;
  }
  if (ok && *p == '+') {
    const char *me = ident_list(p + 1, 0);
    ok = me && !*me;
    v->meta = s + (p + 1 - t);
    v->nmeta = me ? (size_t)(me - p - 1) : 0;
    p = me ? me : p;
  }
  ok = ok && !*p;
  v->pre = pre ? s + (pre - t) : "";
  v->npre = pre ? (size_t)(pe - pre) : 0;
  free(t);
  return ok;
}

static bool equal_segments(const struct ver *a, const struct ver *b) {
  if (a->n != b->n)
    return false;
  for (int i = 0; i < a->n; i++)
    if (a->seg[i] != b->seg[i])
      return false;
  return true;
}

/* comparePart (version.go:261-306). */
static int compare_part(const char *a, size_t na, const char *b, size_t nb) {
  if (na == nb && !memcmp(a, b, na))
    return 0;
  char *ea, *eb;
  char ta[32] = "", tb[32] = "";
  memcpy(ta, a, na < 31 ? na : 31);
  memcpy(tb, b, nb < 31 ? nb : 31);
  long long ia = strtoll(ta, &ea, 10), ib = strtoll(tb, &eb, 10);
  bool num_a = na && na < 31 && !*ea, num_b = nb && nb < 31 && !*eb;
  if (!na)
    return num_b ? -1 : 1;
  if (!nb)
    return num_a ? 1 : -1;
  if (num_a && !num_b)
    return -1;
  if (!num_a && num_b)
    return 1;
  if (!num_a && !num_b) {
    size_t m = na < nb ? na : nb;
    int c = memcmp(a, b, m);
    return c > 0 || (c == 0 && na > nb) ? 1 : -1;
  }
  return ia > ib ? 1 : -1;
}

/* comparePrereleases (version.go:308-340): part by part. */
static int compare_pre(const char *a, size_t na, const char *b, size_t nb) {
  while (na || nb) {
    const char *da = memchr(a, '.', na), *db = memchr(b, '.', nb);
    size_t la = da ? (size_t)(da - a) : na, lb = db ? (size_t)(db - b) : nb;
    int c = compare_part(a, la, b, lb);
    if (c)
      return c;
    a += la + (da != NULL), na -= la + (da != NULL);
    b += lb + (db != NULL), nb -= lb + (db != NULL);
  }
  return 0;
}

/* Version.Compare (version.go:169-235). */
static int compare(const struct ver *a, const struct ver *b) {
  if (equal_segments(a, b)) {
    if (!a->npre && !b->npre)
      return 0;
    if (!a->npre)
      return 1;
    if (!b->npre)
      return -1;
    return compare_pre(a->pre, a->npre, b->pre, b->npre);
  }
  int hs = a->n > b->n ? a->n : b->n;
  for (int i = 0; i < hs; i++) {
    long long x = i < a->n ? a->seg[i] : 0, y = i < b->n ? b->seg[i] : 0;
    if (x != y)
      return x < y ? -1 : 1;
  }
  return 0;
}

/* prereleaseCheck (constraint.go:181-193). */
static bool pre_check(const struct ver *v, const struct ver *c) {
  if (c->npre && v->npre)
    return equal_segments(v, c);
  return !(v->npre && !c->npre);
}

/* constraintPessimistic (constraint.go:268-307). */
static bool pessimistic(const struct ver *v, const struct ver *c) {
  if (!pre_check(v, c) || (c->npre && !v->npre) || compare(v, c) < 0)
    return false;
  if (c->n > v->n)
    return false;
  for (int i = 0; i < c->si - 1; i++)
    if (v->seg[i] != c->seg[i])
      return false;
  return c->seg[c->n - 1] <= v->seg[c->n - 1];
}

static bool check_one(const struct ver *v, const char *op,
                      const struct ver *c) {
  int r = compare(v, c);
  if (!*op || !strcmp(op, "="))
    return r == 0;
  if (!strcmp(op, "!="))
    return r != 0;
  if (!strcmp(op, "~>"))
    return pessimistic(v, c);
  if (!pre_check(v, c))
    return false;
  if (!strcmp(op, ">"))
    return r == 1;
  if (!strcmp(op, "<"))
    return r == -1;
  if (!strcmp(op, ">="))
    return r >= 0;
  return r <= 0; /* "<=" */
}

/* One constraint of the list at s[0..n), checked against v; -1 when it
** is malformed. */
static int check_single(const struct ver *v, const char *s, size_t n) {
  while (n && isspace((unsigned char)*s))
    s++, n--;
  while (n && isspace((unsigned char)s[n - 1]))
    n--;
  static const char *const ops[] = {"<=", ">=", "!=", "~>", "<", ">", "="};
  const char *op = "";
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
    if (n >= strlen(ops[i]) && !strncmp(s, ops[i], strlen(ops[i]))) {
      op = ops[i];
      break;
    }
  s += strlen(op), n -= strlen(op);
  while (n && isspace((unsigned char)*s))
    s++, n--;
  struct ver c;
  if (!parse_version(s, n, false, &c))
    return -1;
  return check_one(v, op, &c);
}

int tg_constraint_check(tfr_arena *a, const char *version,
                        const char *constraints, const char **bad) {
  struct ver v;
  if (!parse_version(version, strlen(version), true, &v)) {
    *bad = NULL;
    return -1;
  }
  bool all = true;
  for (const char *p = constraints;;) {
    const char *c = strchr(p, ',');
    size_t n = c ? (size_t)(c - p) : strlen(p);
    int r = check_single(&v, p, n);
    if (r < 0) {
      *bad = tfr_arena_strndup(a, p, n);
      return -1;
    }
    all = all && r;
    if (!c)
      break;
    p = c + 1;
  }
  return all;
}
