/*
** Module source addresses, normalised as Terraform's loader compares a
** call's source with the one `terraform init` recorded (both sides go
** through the same parse: internal/modsdir/manifest.go:100-112 and
** internal/configs/configload/loader_load.go:65).
**
** Ported from hashicorp/terraform 883c7221ee2e: internal/getmodules/
** moduleaddrs/source_parsing.go (ParseModuleSource and its three kinds),
** subdir.go, package.go, detect_remote_shorthands.go and detect_git.go,
** detect_s3.go, detect_gcs.go, detect_abs_filepath.go; String() from
** internal/addrs/module_source.go:76-158; the registry address from
** hashicorp/terraform-registry-address module.go:44-114 (OpenTofu's
** opentofu/registry-address is the same with its own default host) and
** its host from hashicorp/terraform-svchost svchost.go:98-151.  Go's
** net/url is followed as far as these sources use it (String's escaping
** of a path, Query().Encode() of an ssh address).
*/
#include "module/source.h"

#include <stdlib.h>
#include <string.h>

#include "base/arena_int.h"
#include "base/strutil.h"

/* An address and its subdirectory ("" when none). */
struct split {
  const char *pkg, *sub;
};

static const char *cut(tfr_arena *a, const char *s, size_t n) {
  return tfr_arena_strndup(a, s, n);
}

static const char *clean(tfr_arena *a, const char *s) {
  return str_path_clean(a, s, strlen(s), NULL);
}

/* NULL, the parse's error text (fmt, with one %s) in *e. */
static const char *fail(tfr_arena *a, struct source_error *e, const char *fmt,
                        const char *arg) {
  e->text = tfr_arena_printf(a, fmt, arg);
  return NULL;
}

static const char *outside(tfr_arena *a, struct source_error *e,
                           const char *sub) {
  return fail(a, e, "subdirectory path %s leads outside of the module package",
              str_go_quote(a, sub, strlen(sub)));
}

/* Go's path.Join of two non-empty paths. */
static const char *join(tfr_arena *a, const char *x, const char *y) {
  return clean(a, tfr_arena_printf(a, "%s/%s", x, y));
}

static bool starts(const char *s, const char *prefix) {
  return !strncmp(s, prefix, strlen(prefix));
}

bool source_is_local(const char *raw) {
  return starts(raw, "./") || starts(raw, "../") || starts(raw, ".\\") ||
         starts(raw, "..\\");
}

/* subdir.go:26-67 SplitPackageSubdir: the first "//" after a scheme and
** before the query separates the subdirectory, which is cleaned; the
** query stays with the address. */
static struct split split_subdir(tfr_arena *a, const char *src) {
  size_t n = strlen(src);
  const char *q = strchr(src, '?');
  size_t stop = q ? (size_t)(q - src) : n, offset = 0, idx = stop;
  const char *sch = strstr(src, "://");
  if (sch && (size_t)(sch - src) + 3 <= stop)
    offset = (size_t)(sch - src) + 3;
  for (size_t i = offset; i + 1 < stop; i++)
    if (src[i] == '/' && src[i + 1] == '/') {
      idx = i;
      break;
    }
  if (idx == stop)
    return (struct split){src, ""};
  const char *sub = src + idx + 2, *sq = strchr(sub, '?');
  size_t nsub = sq ? (size_t)(sq - sub) : strlen(sub);
  const char *pkg =
      sq ? tfr_arena_printf(a, "%.*s%s", (int)idx, src, sq) : cut(a, src, idx);
  return (struct split){pkg, nsub ? str_path_clean(a, sub, nsub, NULL) : ""};
}

/* ---- registry addresses ------------------------------------------------ */

static bool alnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
         (c >= 'A' && c <= 'Z');
}

/* module.go:39 moduleRegistryNamePattern. */
static bool name_ok(const char *s, size_t n) {
  if (n < 1 || n > 64 || !alnum(s[0]) || !alnum(s[n - 1]))
    return false;
  for (size_t i = 1; i + 1 < n; i++)
    if (!alnum(s[i]) && s[i] != '-' && s[i] != '_')
      return false;
  return true;
}

/* module.go:40 moduleRegistryTargetSystemPattern. */
static bool system_ok(const char *s, size_t n) {
  if (n < 1 || n > 64)
    return false;
  for (size_t i = 0; i < n; i++)
    if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'z')))
      return false;
  return true;
}

/* svchost.go:199-222: ":443" is no port; NULL when not a port. */
static const char *port_normal(tfr_arena *a, const char *p) {
  if (!*p)
    return "";
  long num = 0;
  size_t i = 1;
  for (; p[i] >= '0' && p[i] <= '9' && num <= 65535; i++)
    num = num * 10 + (p[i] - '0');
  if (i == 1 || p[i] || num > 65535)
    return NULL;
  return num == 443 ? "" : tfr_arena_printf(a, ":%ld", num);
}

/* One label of a host under idna's Lookup profile, lowercased into b:
** ASCII letters, digits and hyphens, no hyphen at either end nor in the
** third and fourth places.  Other bytes (a name in Unicode) are kept as
** they are: their IDNA mapping is not ported. */
static bool label_ok(struct sbuf *b, const char *s, size_t n) {
  if (!n || (n >= 4 && !memcmp(s, "xn--", 4)))
    return false;
  if (s[0] == '-' || s[n - 1] == '-' || (n >= 4 && s[2] == '-' && s[3] == '-'))
    return false;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z')
      c = (char)(c - 'A' + 'a');
    else if (!((unsigned char)c >= 0x80 || alnum(c) || c == '-'))
      return false;
    sbuf_put(b, &c, 1);
  }
  return true;
}

/* svchost.go:98-151 ForComparison (and ForDisplay of its result): the
** host lowercased, its port normalised; NULL when invalid. */
static const char *host_normal(tfr_arena *a, const char *s, size_t n) {
  const char *colon = memchr(s, ':', n);
  size_t hn = colon ? (size_t)(colon - s) : n;
  const char *port = port_normal(a, colon ? cut(a, colon, n - hn) : "");
  if (!port || !hn)
    return NULL;
  struct sbuf b = {0};
  bool ok = true;
  for (size_t i = 0; ok && i <= hn;) {
    size_t j = i;
    while (j < hn && s[j] != '.')
      j++;
    if (i)
      sbuf_put(&b, ".", 1);
    ok = label_ok(&b, s + i, j - i);
    i = j + 1;
  }
  const char *out =
      ok ? tfr_arena_printf(a, "%.*s%s", (int)b.n, b.p, port) : NULL;
  free(b.p);
  return out;
}

#define NAME_RULE                                                              \
  "must be between one and 64 characters, including ASCII letters, "           \
  "digits, dashes, and underscores, where dashes and underscores may not be "  \
  "the prefix or suffix"

/* module.go:94-111: the namespace, name and target system. */
static bool names_ok(tfr_arena *a, const char **p, const size_t *l,
                     struct source_error *e) {
  if (!name_ok(p[0], l[0]) && memchr(p[0], '.', l[0]))
    fail(a, e,
         "source address must have three more components after the "
         "hostname: the namespace, the name, and the target system%s",
         "");
  else if (!name_ok(p[0], l[0]))
    fail(a, e, "invalid namespace %s: " NAME_RULE, str_go_quote(a, p[0], l[0]));
  else if (!name_ok(p[1], l[1]))
    fail(a, e, "invalid module name %s: " NAME_RULE,
         str_go_quote(a, p[1], l[1]));
  else if (!system_ok(p[2], l[2]) && memchr(p[2], '?', l[2]))
    fail(a, e,
         "module registry addresses may not include a query string "
         "portion%s",
         "");
  else if (!system_ok(p[2], l[2]))
    fail(a, e,
         "invalid target system %s: must be between one and 64 ASCII "
         "letters or digits",
         str_go_quote(a, p[2], l[2]));
  else
    return true;
  return false;
}

/* module.go:44-114 ParseModuleSource and String(): [HOST/]NS/NAME/SYSTEM
** with an optional //SUBDIR; NULL when raw is not one. */
static const char *registry(tfr_arena *a, const char *raw,
                            const char *default_host, struct source_error *e) {
  if (source_is_local(raw)) /* source_parsing.go:155 */
    return fail(a, e,
                "can't use local directory %s as a module registry "
                "address",
                str_go_quote(a, raw, strlen(raw)));
  struct split sp = split_subdir(a, raw);
  if (starts(sp.sub, "../"))
    return outside(a, e, sp.sub);
  const char *parts[4];
  size_t lens[4], n = 0;
  for (const char *p = sp.pkg; p; n++) {
    const char *slash = strchr(p, '/');
    if (n < 4) {
      parts[n] = p;
      lens[n] = slash ? (size_t)(slash - p) : strlen(p);
    }
    p = slash ? slash + 1 : NULL;
  }
  if (n != 3 && n != 4)
    return fail(a, e,
                "a module registry source address must have either "
                "three or four slash-separated components%s",
                "");
  const char *host = default_host;
  size_t i = 0;
  if (n == 4) {
    const char *h0 = str_go_quote(a, parts[0], lens[0]);
    host = host_normal(a, parts[0], lens[0]);
    if (!host && strstr(cut(a, parts[0], lens[0]), "--"))
      return fail(a, e,
                  "invalid module registry hostname %s; "
                  "internationalized domain names must be given as "
                  "direct unicode characters, not in punycode",
                  h0);
    if (!host)
      return fail(a, e, "invalid module registry hostname %s", h0);
    if (!strchr(host, '.'))
      return fail(a, e,
                  "invalid module registry hostname: must contain at "
                  "least one dot%s",
                  "");
    i = 1;
  }
  if (!strcmp(host, "github.com") || !strcmp(host, "bitbucket.org"))
    return fail(a, e,
                "can't use %s as a module registry host, because it's "
                "reserved for installing directly from version "
                "control repositories",
                str_go_quote(a, host, strlen(host)));
  if (!names_ok(a, parts + i, lens + i, e))
    return NULL;
  return tfr_arena_printf(a, "%s/%.*s/%.*s/%.*s%s%s", host, (int)lens[i],
                          parts[i], (int)lens[i + 1], parts[i + 1],
                          (int)lens[i + 2], parts[i + 2], *sp.sub ? "//" : "",
                          sp.sub);
}

/* ---- what net/url does to the addresses the detectors build ------------ */

/* url.PathUnescape (QueryUnescape: query) of n bytes into b; false on a
** bad escape, with Go's error for it in *e. */
static bool unescape(tfr_arena *a, struct sbuf *b, const char *s, size_t n,
                     bool query, struct source_error *e) {
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c == '%') {
      int x = i + 1 < n ? str_hex_digit((unsigned char)s[i + 1]) : -1,
          y = i + 2 < n ? str_hex_digit((unsigned char)s[i + 2]) : -1;
      if (x < 0 || y < 0) {
        size_t l = n - i < 3 ? n - i : 3;
        fail(a, e, "invalid URL escape %s", str_go_quote(a, s + i, l));
        return false;
      }
      c = (char)(x * 16 + y);
      i += 2;
    } else if (c == '+' && query)
      c = ' ';
    sbuf_put(b, &c, 1);
  }
  return true;
}

/* url's escape of a path (shouldEscape with encodePath) or a query
** component (QueryEscape). */
static void escape(struct sbuf *b, const char *s, size_t n, bool query) {
  static const char hex[] = "0123456789ABCDEF";
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    bool keep = c && (alnum((char)c) || strchr("-_.~", c) ||
                      (!query && strchr("$&+,/:;=@", c)));
    if (keep)
      sbuf_put(b, (const char *)&c, 1);
    else if (query && c == ' ')
      sbuf_put(b, "+", 1);
    else {
      char x[3] = {'%', hex[c >> 4], hex[c & 15]};
      sbuf_put(b, x, 3);
    }
  }
}

/* The https URL url.Parse makes of "https://" host p (the path, n bytes,
** unescaped) and String() writes once suffix is added to its path, with
** the query (which url.Parse had when parsed_query); NULL on a bad escape,
** with the detector's error (what: "GitHub") in *e. */
static const char *https_url(tfr_arena *a, const char *host, const char *p,
                             size_t n, const char *suffix, const char *query,
                             bool parsed_query, const char *what,
                             struct source_error *e) {
  struct sbuf u = {0}, x = {0};
  sbuf_put(&u, "", 0);
  sbuf_put(&x, "", 0);
  bool ok = unescape(a, &u, p, n, false, e);
  if (ok) {
    sbuf_str(&u, suffix);
    escape(&x, u.p, u.n, false);
  }
  const char *out =
      ok ? tfr_arena_printf(a, "https://%s%.*s%s%s", host, (int)x.n, x.p,
                            query && *query ? "?" : "", query ? query : "")
         : NULL;
  free(u.p);
  free(x.p);
  if (!ok) {
    /* the text url.Parse was given: with the query when it had it */
    const char *q = parsed_query ? query : NULL;
    const char *url = tfr_arena_printf(a, "https://%s%.*s%s%s", host, (int)n, p,
                                       q ? "?" : "", q ? q : "");
    e->text = tfr_arena_printf(a, "error parsing %s URL: parse %s: %s", what,
                               str_go_quote(a, url, strlen(url)), e->text);
  }
  return out;
}

struct qpair {
  const char *k, *v;
  size_t nk, nv, at;
};

static int qpair_cmp(const void *x, const void *y) {
  const struct qpair *p = x, *q = y;
  int c = str_cmp_bytes(p->k, p->nk, q->k, q->nk);
  return c ? c : (p->at > q->at) - (p->at < q->at);
}

/* One key or value of a query, unescaped, in a. */
static bool query_part(tfr_arena *a, const char *s, size_t n, const char **out,
                       size_t *nout, struct source_error *e) {
  struct sbuf b = {0};
  sbuf_put(&b, "", 0);
  bool ok = unescape(a, &b, s, n, true, e);
  *out = cut(a, b.p, b.n);
  *nout = b.n;
  free(b.p);
  return ok;
}

/* One "&"-separated pair of a query into x (none for an empty one). */
static bool query_pair(tfr_arena *a, const char *p, size_t l, struct qpair *x,
                       struct source_error *e) {
  if (memchr(p, ';', l)) {
    fail(a, e, "invalid semicolon separator in query%s", "");
    return false;
  }
  const char *eq = memchr(p, '=', l);
  size_t kl = eq ? (size_t)(eq - p) : l;
  return query_part(a, p, kl, &x->k, &x->nk, e) &&
         query_part(a, eq ? eq + 1 : "", eq ? l - kl - 1 : 0, &x->v, &x->nv, e);
}

/* url.ParseQuery then Values.Encode: pairs sorted by key, each part
** escaped as QueryEscape does; NULL where ParseQuery fails (a bad escape,
** a semicolon), with its error in *e. */
static const char *query_encode(tfr_arena *a, const char *q,
                                struct source_error *e) {
  size_t np = 0;
  struct qpair *v = tfr_arena_alloc(a, (strlen(q) + 1) * sizeof *v);
  for (const char *p = q; *p;) {
    const char *amp = strchr(p, '&');
    size_t l = amp ? (size_t)(amp - p) : strlen(p);
    if (l && !query_pair(a, p, l, &v[np], e))
      return NULL;
    if (l)
      v[np].at = np, np++;
    p += l + (amp != NULL);
  }
  qsort(v, np, sizeof *v, qpair_cmp);
  struct sbuf b = {0};
  sbuf_put(&b, "", 0);
  for (size_t i = 0; i < np; i++) {
    if (i)
      sbuf_put(&b, "&", 1);
    escape(&b, v[i].k, v[i].nk, true);
    sbuf_put(&b, "=", 1);
    escape(&b, v[i].v, v[i].nv, true);
  }
  const char *out = cut(a, b.p, b.n);
  free(b.p);
  return out;
}

/* ---- go-getter's detectors (detect_*.go) ---------------------------------
** Each gives 1 and the address it makes, 0 when it does not apply, -1
** when the address is invalid (its error in *e). */

/* -1, the error text in *e. */
static int bad(tfr_arena *a, struct source_error *e, const char *text) {
  fail(a, e, "%s", text);
  return -1;
}

/* detect_git.go:37-70 detectGitHub. */
static int detect_github(tfr_arena *a, const char *src, const char **out,
                         struct source_error *e) {
  if (!starts(src, "github.com/"))
    return 0;
  const char *q = strchr(src, '?');
  const char *s = q ? cut(a, src, (size_t)(q - src)) : src;
  const char *p1 = strchr(s, '/'), *p2 = strchr(p1 + 1, '/');
  if (!p2) /* fewer than three parts */
    return bad(a, e, "GitHub URLs should be github.com/username/repo");
  const char *p3 = strchr(p2 + 1, '/');
  size_t n = p3 ? (size_t)(p3 - p1) : strlen(p1);
  bool git = n >= 4 && !memcmp(p1 + n - 4, ".git", 4);
  const char *suffix = tfr_arena_printf(a, "%s%s%s", git ? "" : ".git",
                                        p3 ? "//" : "", p3 ? p3 + 1 : "");
  const char *url = https_url(a, "github.com", p1, n, suffix, q ? q + 1 : NULL,
                              false, "GitHub", e);
  if (!url)
    return -1;
  *out = tfr_arena_printf(a, "git::%s", url);
  return 1;
}

/* detect_git.go:14-33 detectGit and 104-137 detectSSH: user@host:path,
** an ssh URL when the user is "git". */
static int detect_ssh(tfr_arena *a, const char *src, const char **out,
                      struct source_error *e) {
  const char *at = strchr(src, '@');
  if (!at || at - src != 3 || strncmp(src, "git", 3))
    return 0; /* sshPattern's user is not "git" (or there is none) */
  const char *host = at + 1, *colon = strchr(host, ':');
  if (!colon || colon == host)
    return 0;
  const char *path = colon + 1;
  if (*path == '/' && path[1])
    path++; /* "/?" takes it, unless ".+" needs it */
  if (!*path)
    return 0;
  const char *q = strchr(path, '?');
  size_t np = q ? (size_t)(q - path) : strlen(path);
  const char *query = q ? query_encode(a, q + 1, e) : NULL;
  if (q && !query) {
    e->text = tfr_arena_printf(a, "error parsing Git SSH URL: %s", e->text);
    return -1;
  }
  struct sbuf x = {0};
  sbuf_put(&x, "", 0);
  escape(&x, path, np, false);
  *out =
      tfr_arena_printf(a, "git::ssh://git@%.*s%s%.*s%s%s", (int)(colon - host),
                       host, *path == '/' ? "" : "/", (int)x.n, x.p,
                       query && *query ? "?" : "", query ? query : "");
  free(x.p);
  return 1;
}

/* detect_git.go:74-101 detectBitBucket. */
static int detect_bitbucket(tfr_arena *a, const char *src, const char **out,
                            struct source_error *e) {
  if (!starts(src, "bitbucket.org/"))
    return 0;
  const char *p = src + 13, *q = strchr(p, '?');
  size_t n = q ? (size_t)(q - p) : strlen(p);
  bool git = n >= 4 && !memcmp(p + n - 4, ".git", 4);
  const char *url = https_url(a, "bitbucket.org", p, n, git ? "" : ".git",
                              q ? q + 1 : NULL, true, "BitBucket", e);
  if (!url)
    return -1;
  *out = tfr_arena_printf(a, "git::%s", url);
  return 1;
}

/* The n-th "/"-separated part of s (the rest of s when rest), or NULL. */
static const char *part(tfr_arena *a, const char *s, size_t nth, bool rest) {
  for (; nth && s; nth--) {
    s = strchr(s, '/');
    s = s ? s + 1 : NULL;
  }
  if (!s || rest)
    return s;
  const char *end = strchr(s, '/');
  return end ? cut(a, s, (size_t)(end - s)) : s;
}

/* detect_gcs.go:14-39 detectGCS. */
static int detect_gcs(tfr_arena *a, const char *src, const char **out,
                      struct source_error *e) {
  if (!strstr(src, "googleapis.com/"))
    return 0;
  const char *object = part(a, src, 4, true);
  if (!object) /* fewer than five parts */
    return bad(a, e, "URL is not a valid GCS URL");
  *out =
      tfr_arena_printf(a, "gcs::https://www.googleapis.com/storage/%s/%s/%s",
                       part(a, src, 2, false), part(a, src, 3, false), object);
  return 1;
}

/* detect_s3.go:14-70 detectS3: path style, old and new virtual-host
** style, by the number of the host's dot-separated parts. */
static int detect_s3(tfr_arena *a, const char *src, const char **out,
                     struct source_error *e) {
  if (!strstr(src, ".amazonaws.com/"))
    return 0;
  const char *slash = strchr(src, '/'), *rest = slash + 1;
  const char *hp[6];
  size_t hl[6], n = 0;
  for (const char *p = src; n < 6;) {
    const char *d = memchr(p, '.', (size_t)(slash - p));
    hp[n] = p;
    hl[n++] = d ? (size_t)(d - p) : (size_t)(slash - p);
    if (!d)
      break;
    p = d + 1;
  }
  if (n == 3)
    *out = tfr_arena_printf(a, "s3::https://%.*s.amazonaws.com/%s", (int)hl[0],
                            hp[0], rest);
  else if (n == 4)
    *out = tfr_arena_printf(a, "s3::https://%.*s.amazonaws.com/%.*s/%s",
                            (int)hl[1], hp[1], (int)hl[0], hp[0], rest);
  else if (n == 5 && hl[1] == 2 && !memcmp(hp[1], "s3", 2))
    *out = tfr_arena_printf(a, "s3::https://s3.%.*s.amazonaws.com/%.*s/%s",
                            (int)hl[2], hp[2], (int)hl[0], hp[0], rest);
  else
    return bad(a, e, "URL is not a valid S3 URL");
  return 1;
}

/* detect_abs_filepath.go:23-63 (on Unix); anything else that reaches it
** is MaybeRelativePathErr. */
static int detect_abs(tfr_arena *a, const char *src, const char **out,
                      struct source_error *e) {
  if (src[0] != '/') {
    e->relative = src;
    return bad(a, e,
               tfr_arena_printf(a,
                                "Terraform cannot detect a supported external "
                                "module source type for %s",
                                src));
  }
  *out = tfr_arena_printf(a, "file://%s", src);
  return 1;
}

/* Go's url.Parse gives a scheme: letters, then letters, digits, "+-.",
** up to a colon; and the text has no control character (which it
** refuses). */
static bool has_scheme(const char *s) {
  for (const char *p = s; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f)
      return false;
  for (size_t i = 0; s[i]; i++) {
    char c = s[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
      continue;
    if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.') {
      if (!i)
        return false;
      continue;
    }
    return c == ':' && i > 0;
  }
  return false;
}

/* detect_remote_shorthands.go:13 forcedRegexp: "TYPE::" in *force. */
static const char *forced(tfr_arena *a, const char *s, const char **force) {
  size_t i = 0;
  while (alnum(s[i]))
    i++;
  *force = "";
  if (!i || strncmp(s + i, "::", 2) || !s[i + 2])
    return s;
  *force = cut(a, s, i);
  return s + i + 2;
}

/* detect_remote_shorthands.go:32-94 and package.go:27-54
** NormalizePackageAddress: the package address go-getter's detection
** makes of src, its subdirectory apart; false (*e) when it fails. */
static bool detect(tfr_arena *a, const char *src, struct split *out,
                   struct source_error *e) {
  const char *force;
  const char *get = forced(a, src, &force);
  struct split sp = split_subdir(a, get);
  if (has_scheme(sp.pkg)) {
    *out = split_subdir(a, src);
    return true;
  }
  static int (*const detectors[])(tfr_arena *, const char *, const char **,
                                  struct source_error *) = {
      detect_github, detect_ssh, detect_bitbucket,
      detect_gcs,    detect_s3,  detect_abs};
  for (size_t i = 0; i < sizeof detectors / sizeof *detectors; i++) {
    const char *result;
    int r = detectors[i](a, sp.pkg, &result, e);
    if (r < 0)
      return false;
    if (!r)
      continue;
    const char *dforce;
    result = forced(a, result, &dforce);
    struct split d = split_subdir(a, result);
    const char *sub = !*d.sub   ? sp.sub
                      : *sp.sub ? join(a, d.sub, sp.sub)
                                : d.sub;
    const char *f = *force ? force : dforce;
    out->pkg = *f ? tfr_arena_printf(a, "%s::%s", f, d.pkg) : d.pkg;
    out->sub = *sub ? clean(a, sub) : "";
    return true;
  }
  return false; /* (cannot be: detect_abs decides) */
}

/* source_parsing.go:169-217 parseModuleSourceRemote and
** module_source.go:147-158 String(). */
static const char *remote(tfr_arena *a, const char *raw,
                          struct source_error *e) {
  struct split sp = split_subdir(a, raw), d;
  if (starts(sp.sub, "../"))
    return outside(a, e, sp.sub);
  if (!detect(a, sp.pkg, &d, e))
    return NULL;
  const char *sub = sp.sub;
  if (*d.sub)
    sub = *sub ? join(a, d.sub, sub) : clean(a, d.sub);
  if (starts(sub, "../")) {
    e->text = tfr_arena_printf(a,
                               "detected subdirectory path %s of %s leads "
                               "outside of the module package",
                               str_go_quote(a, sub, strlen(sub)),
                               str_go_quote(a, d.pkg, strlen(d.pkg)));
    return NULL;
  }
  if (!*sub)
    return d.pkg;
  const char *q = strchr(d.pkg, '?');
  if (q)
    return tfr_arena_printf(a, "%.*s//%s%s", (int)(q - d.pkg), d.pkg, sub, q);
  return tfr_arena_printf(a, "%s//%s", d.pkg, sub);
}

int source_control_char(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
      return (unsigned char)s[i];
  return -1;
}

/* source_parsing.go:99-133 parseModuleSourceLocal. */
static const char *local(tfr_arena *a, const char *raw) {
  char *s = tfr_arena_strdup(a, raw);
  for (char *p = s; *p; p++)
    if (*p == '\\')
      *p = '/';
  const char *c = clean(a, s);
  return starts(c, "../") ? c : tfr_arena_printf(a, "./%s", c);
}

const char *source_normal(tfr_arena *a, const char *raw,
                          const char *registry_host, bool registry_only,
                          struct source_error *err) {
  struct source_error none;
  struct source_error *e = err ? err : &none;
  *e = (struct source_error){0};
  if (!registry_only && source_is_local(raw))
    return local(a, raw);
  const char *r = registry(a, raw, registry_host, e);
  if (r || registry_only)
    return r;
  *e = (struct source_error){0};
  return remote(a, raw, e);
}
