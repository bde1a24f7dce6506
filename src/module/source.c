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
  const char *pkg = sq ? tfr_arena_printf(a, "%.*s%s", (int)idx, src, sq)
                       : cut(a, src, idx);
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
  const char *out = ok ? tfr_arena_printf(a, "%.*s%s", (int)b.n, b.p, port)
                       : NULL;
  free(b.p);
  return out;
}

/* module.go:44-114 ParseModuleSource and String(): [HOST/]NS/NAME/SYSTEM
** with an optional //SUBDIR; NULL when raw is not one. */
static const char *registry(tfr_arena *a, const char *raw,
                            const char *default_host) {
  if (source_is_local(raw)) /* source_parsing.go:155 */
    return NULL;
  struct split sp = split_subdir(a, raw);
  if (starts(sp.sub, "../"))
    return NULL;
  const char *parts[4];
  size_t lens[4], n = 0;
  for (const char *p = sp.pkg;; n++) {
    const char *e = strchr(p, '/');
    if (n == 4)
      return NULL; /* more than four components */
    parts[n] = p;
    lens[n] = e ? (size_t)(e - p) : strlen(p);
    if (!e) {
      n++;
      break;
    }
    p = e + 1;
  }
  if (n != 3 && n != 4)
    return NULL;
  const char *host = default_host;
  size_t i = 0;
  if (n == 4) {
    host = host_normal(a, parts[0], lens[0]);
    if (!host || !strchr(host, '.'))
      return NULL;
    i = 1;
  }
  if (!strcmp(host, "github.com") || !strcmp(host, "bitbucket.org"))
    return NULL; /* reserved for version control */
  if (!name_ok(parts[i], lens[i]) || !name_ok(parts[i + 1], lens[i + 1]) ||
      !system_ok(parts[i + 2], lens[i + 2]))
    return NULL;
  return tfr_arena_printf(a, "%s/%.*s/%.*s/%.*s%s%s", host, (int)lens[i],
                          parts[i], (int)lens[i + 1], parts[i + 1],
                          (int)lens[i + 2], parts[i + 2], *sp.sub ? "//" : "",
                          sp.sub);
}

/* ---- what net/url does to the addresses the detectors build ------------ */

static const char hex[] = "0123456789ABCDEF";

/* url.PathUnescape of n bytes into b; false on a bad escape. */
static bool unescape(struct sbuf *b, const char *s, size_t n, bool query) {
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c == '%') {
      int x = i + 1 < n ? str_hex_digit((unsigned char)s[i + 1]) : -1,
          y = i + 2 < n ? str_hex_digit((unsigned char)s[i + 2]) : -1;
      if (x < 0 || y < 0)
        return false;
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
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    bool keep = c && (alnum((char)c) || strchr("-_.~", c) ||
                      (!query && strchr("$&+,/:;=@", c)));
    if (keep)
      sbuf_put(b, (const char *)&c, 1);
    else if (query && c == ' ')
      sbuf_put(b, "+", 1);
    else {
      char e[3] = {'%', hex[c >> 4], hex[c & 15]};
      sbuf_put(b, e, 3);
    }
  }
}

/* A path as url.URL's String writes it after Path was set to the
** unescaped text p (suffix appended to it first): NULL on a bad escape
** in p when it came through url.Parse (parsed). */
static const char *url_path(tfr_arena *a, const char *p, size_t n,
                            const char *suffix, bool parsed) {
  struct sbuf u = {0}, e = {0};
  sbuf_put(&u, "", 0);
  sbuf_put(&e, "", 0);
  bool ok = parsed ? unescape(&u, p, n, false) : (sbuf_put(&u, p, n), true);
  if (ok) {
    sbuf_str(&u, suffix);
    escape(&e, u.p, u.n, false);
  }
  const char *out = ok ? cut(a, e.p, e.n) : NULL;
  free(u.p);
  free(e.p);
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
                       size_t *nout) {
  struct sbuf b = {0};
  sbuf_put(&b, "", 0);
  bool ok = unescape(&b, s, n, true);
  *out = cut(a, b.p, b.n);
  *nout = b.n;
  free(b.p);
  return ok;
}

/* url.ParseQuery then Values.Encode: pairs sorted by key, each part
** escaped as QueryEscape does; NULL where ParseQuery fails (a bad escape,
** a semicolon). */
static const char *query_encode(tfr_arena *a, const char *q) {
  size_t n = strlen(q), np = 0;
  struct qpair *v = tfr_arena_alloc(a, (n + 1) * sizeof *v);
  for (const char *p = q; *p;) {
    const char *e = strchr(p, '&');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    if (memchr(p, ';', l))
      return NULL;
    const char *eq = memchr(p, '=', l);
    size_t kl = eq ? (size_t)(eq - p) : l;
    struct qpair *x = &v[np];
    x->at = np;
    if (l && (!query_part(a, p, kl, &x->k, &x->nk) ||
              !query_part(a, eq ? eq + 1 : "", eq ? l - kl - 1 : 0, &x->v,
                          &x->nv)))
      return NULL;
    np += l > 0;
    p += l + (e != NULL);
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
** when the address is invalid. */

/* "?" and the query of an address, or "". */
static const char *with_query(tfr_arena *a, const char *q) {
  return q && *q ? tfr_arena_printf(a, "?%s", q) : "";
}

/* detect_git.go:37-70 detectGitHub. */
static int detect_github(tfr_arena *a, const char *src, const char **out) {
  if (!starts(src, "github.com/"))
    return 0;
  const char *q = strchr(src, '?');
  const char *s = q ? cut(a, src, (size_t)(q - src)) : src;
  const char *p1 = strchr(s, '/'), *p2 = strchr(p1 + 1, '/');
  if (!p2) /* fewer than three parts */
    return -1;
  const char *p3 = strchr(p2 + 1, '/');
  size_t n = p3 ? (size_t)(p3 - p1) : strlen(p1);
  const char *path = cut(a, p1, n);
  bool git = str_ends_with(path, ".git");
  const char *suffix =
      tfr_arena_printf(a, "%s%s%s", git ? "" : ".git", p3 ? "//" : "",
                       p3 ? p3 + 1 : "");
  const char *ep = url_path(a, path, n, suffix, true);
  if (!ep)
    return -1;
  *out = tfr_arena_printf(a, "git::https://github.com%s%s", ep,
                          with_query(a, q ? q + 1 : NULL));
  return 1;
}

/* detect_git.go:14-33 detectGit and 104-137 detectSSH: user@host:path,
** an ssh URL when the user is "git". */
static int detect_ssh(tfr_arena *a, const char *src, const char **out) {
  const char *at = strchr(src, '@');
  if (!at || at == src || (size_t)(at - src) != 3 || strncmp(src, "git", 3))
    return 0; /* sshPattern's user is not "git" (or there is none) */
  const char *host = at + 1, *colon = strchr(host, ':');
  if (!colon || colon == host)
    return 0;
  const char *path = colon + 1;
  if (*path == '/')
    path++;
  if (!*path) {
    if (colon[1] != '/')
      return 0;
    path = colon + 1; /* "/?" gives its slash back to ".+" */
  }
  const char *q = strchr(path, '?');
  size_t np = q ? (size_t)(q - path) : strlen(path);
  const char *query = q ? query_encode(a, q + 1) : NULL;
  if (q && !query)
    return -1;
  const char *ep = url_path(a, path, np, "", false);
  *out = tfr_arena_printf(a, "git::ssh://git@%.*s%s%s%s",
                          (int)(colon - host), host, *path == '/' ? "" : "/",
                          ep, with_query(a, query));
  return 1;
}

/* detect_git.go:74-101 detectBitBucket. */
static int detect_bitbucket(tfr_arena *a, const char *src, const char **out) {
  if (!starts(src, "bitbucket.org/"))
    return 0;
  const char *p = src + 13, *q = strchr(p, '?');
  size_t n = q ? (size_t)(q - p) : strlen(p);
  const char *path = cut(a, p, n);
  const char *ep =
      url_path(a, path, n, str_ends_with(path, ".git") ? "" : ".git", true);
  if (!ep)
    return -1;
  *out = tfr_arena_printf(a, "git::https://bitbucket.org%s%s", ep,
                          with_query(a, q ? q + 1 : NULL));
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
  const char *e = strchr(s, '/');
  return e ? cut(a, s, (size_t)(e - s)) : s;
}

/* detect_gcs.go:14-39 detectGCS. */
static int detect_gcs(tfr_arena *a, const char *src, const char **out) {
  if (!strstr(src, "googleapis.com/"))
    return 0;
  const char *object = part(a, src, 4, true);
  if (!object)
    return -1; /* fewer than five parts */
  *out = tfr_arena_printf(a, "gcs::https://www.googleapis.com/storage/%s/%s/%s",
                          part(a, src, 2, false), part(a, src, 3, false),
                          object);
  return 1;
}

/* detect_s3.go:14-70 detectS3: path style, old and new virtual-host
** style, by the number of the host's dot-separated parts. */
static int detect_s3(tfr_arena *a, const char *src, const char **out) {
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
    return -1;
  return 1;
}

/* detect_abs_filepath.go:23-43 (on Unix); anything else that reaches it
** is the "cannot detect a supported external module source type" error
** (MaybeRelativePathErr). */
static int detect_abs(tfr_arena *a, const char *src, const char **out) {
  if (src[0] != '/')
    return -1;
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
** makes of src, its subdirectory apart; false when none applies. */
static bool detect(tfr_arena *a, const char *src, struct split *out) {
  const char *force;
  const char *get = forced(a, src, &force);
  struct split sp = split_subdir(a, get);
  if (has_scheme(sp.pkg)) {
    *out = split_subdir(a, src);
    return true;
  }
  static int (*const detectors[])(tfr_arena *, const char *, const char **) = {
      detect_github, detect_ssh, detect_bitbucket,
      detect_gcs,    detect_s3,  detect_abs};
  for (size_t i = 0; i < sizeof detectors / sizeof *detectors; i++) {
    const char *result;
    int r = detectors[i](a, sp.pkg, &result);
    if (r < 0)
      return false;
    if (!r)
      continue;
    const char *dforce;
    result = forced(a, result, &dforce);
    struct split d = split_subdir(a, result);
    const char *sub = !*d.sub    ? sp.sub
                      : *sp.sub ? join(a, d.sub, sp.sub)
                                : d.sub;
    const char *f = *force ? force : dforce;
    out->pkg = *f ? tfr_arena_printf(a, "%s::%s", f, d.pkg) : d.pkg;
    out->sub = *sub ? clean(a, sub) : "";
    return true;
  }
  return false;
}

/* source_parsing.go:169-217 parseModuleSourceRemote and
** module_source.go:147-158 String(). */
static const char *remote(tfr_arena *a, const char *raw) {
  struct split sp = split_subdir(a, raw), d;
  if (starts(sp.sub, "../") || !detect(a, sp.pkg, &d))
    return NULL;
  const char *sub = sp.sub;
  if (*d.sub)
    sub = *sub ? join(a, d.sub, sub) : clean(a, d.sub);
  if (starts(sub, "../"))
    return NULL;
  if (!*sub)
    return d.pkg;
  const char *q = strchr(d.pkg, '?');
  if (q)
    return tfr_arena_printf(a, "%.*s//%s%s", (int)(q - d.pkg), d.pkg, sub, q);
  return tfr_arena_printf(a, "%s//%s", d.pkg, sub);
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
                          const char *registry_host, bool registry_only) {
  if (!registry_only && source_is_local(raw))
    return local(a, raw);
  const char *r = registry(a, raw, registry_host);
  if (r || registry_only)
    return r;
  return remote(a, raw);
}
