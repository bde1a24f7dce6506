/*
** CI reports of `check`: SARIF 2.1.0, GitHub workflow commands, JUnit XML.
**
** Every report is built from the same list of findings: the diagnostics
** of every environment, each with the place it points at (its subject,
** or the declaration of its variable when it has none, as Terraform
** shows it), the validation rule that failed (for "Invalid value for
** variable") and the environments it occurs in.  A diagnostic that is the
** same in several environments is one finding, so that code scanning and
** the annotations do not repeat it.
**
** Values are never printed: only diagnostic texts, which the library
** already writes without sensitive values, and names.
*/
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_module.h"
#include "cli_util.h"

/* One diagnostic, in one or more environments. */
struct finding {
  enum tfr_severity sev;
  const char *summary, *detail;
  const struct tfr_variable *var; /* the declared variable, or NULL */
  const char *qname;              /* its address: var.NAME, module.a.var.NAME */
  const char *shape;              /* qname without instance keys: findings
                                     of one value in several instances of
                                     a call are one (issue 37) */
  const char **qnames;            /* each instance's qname, qname first */
  size_t nq, capq;
  const char *note;      /* what tfresolve adds, or NULL */
  struct tfr_range at;   /* where it points; filename NULL: none */
  struct tfr_range rule; /* the failed rule; filename NULL: none */
  const char *source;    /* for a value not in a file: "-var",
                            "TF_VAR_x" or the value's pseudo
                            file name; else NULL */
  const char *id;        /* rule id: the summary as a slug */
  size_t *envs;          /* indexes into the report's envs */
  size_t nenvs, capenvs;
  uint64_t hash;
  bool skip; /* a module call not checked (report.skips): a note */
};

/* A list of findings, identical ones merged. */
struct findings {
  struct finding *v;
  size_t n, cap;
};

struct report {
  tfr_arena *a;
  FILE *out;
  const struct report_env *envs;
  size_t n;
  struct finding *f;
  size_t nf, capf;
  /* the module calls not checked (tfr_resolution.unchecked), as findings
  ** of their own: summary "Module not checked", qname the call's address,
  ** at its module block (or count/for_each) */
  struct findings skips;
  char *cwd;  /* where relative file names are relative to */
  char *base; /* what URIs and paths are relative to (see base_dir) */
};

/* ---- text helpers ------------------------------------------------------ */

/* The length of the valid UTF-8 sequence at s (1..4) and its code point,
** or 0 when s does not start one (an invalid byte counts as one). */
static size_t utf8_next(const unsigned char *s, uint32_t *cp) {
  static const uint32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
  size_t len = s[0] < 0x80             ? 1
               : (s[0] & 0xE0) == 0xC0 ? 2
               : (s[0] & 0xF0) == 0xE0 ? 3
               : (s[0] & 0xF8) == 0xF0 ? 4
                                       : 0;
  if (!len)
    return 0;
  uint32_t c = len == 1 ? s[0] : s[0] & (0x7F >> len);
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xC0) != 0x80)
      return 0;
    c = c << 6 | (s[i] & 0x3F);
  }
  if (c < min[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
    return 0;
  *cp = c;
  return len;
}

/* The summary as a rule id: "Invalid value for variable" ->
** "invalid-value-for-variable".  A summary with a colon ("Cycle: var.a")
** names its kind before it. */
static const char *slug(tfr_arena *a, const char *summary) {
  size_t n = strcspn(summary, ":");
  char *s = tfr_arena_alloc(a, n + 1);
  size_t k = 0;
  for (size_t i = 0; i < n && k < 64; i++) {
    char c = summary[i];
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
      s[k++] = c;
    else if (c >= 'A' && c <= 'Z')
      s[k++] = (char)(c - 'A' + 'a');
    else if (k && s[k - 1] != '-')
      s[k++] = '-';
  }
  while (k && s[k - 1] == '-')
    k--;
  s[k] = '\0';
  return k ? s : "diagnostic";
}

static uint64_t hash_str(uint64_t h, const char *s) {
  for (; s && *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211u;
  return (h ^ 0xFF) * 1099511628211u;
}

static uint64_t hash_range(uint64_t h, const struct tfr_range *r) {
  h = hash_str(h, r->filename);
  int v[4] = {r->start.line, r->start.column, r->end.line, r->end.column};
  for (int i = 0; i < 4; i++)
    h = (h ^ (uint64_t)(unsigned)v[i]) * 1099511628211u;
  return h;
}

static bool same_str(const char *x, const char *y) {
  return x == y || (x && y && !strcmp(x, y));
}

static bool same_range(const struct tfr_range *x, const struct tfr_range *y) {
  return same_str(x->filename, y->filename) && x->start.line == y->start.line &&
         x->start.column == y->start.column && x->end.line == y->end.line &&
         x->end.column == y->end.column;
}

/* ---- file names -------------------------------------------------------- */

/* The directory paths are reported relative to: the directory tfresolve
** was started in.  -chdir moves the process before the report is
** written; a shell's PWD still names the starting directory, so it is
** used when the current directory is inside it (GitHub wants paths from
** the repository root, where the workflow runs).  Else the current
** directory. */
static void base_dir(struct report *r) {
  char buf[PATH_MAX];
  r->cwd = tfr_arena_strdup(r->a, getcwd(buf, sizeof buf) ? buf : ".");
  r->base = r->cwd;
  const char *pwd = getenv("PWD");
  struct stat want, st;
  if (!pwd || pwd[0] != '/' || r->cwd[0] != '/' || stat(pwd, &want) != 0)
    return;
  /* PWD's real path when the current directory is inside it: the prefix
  ** of getcwd's path (which, as realpath's, has no symbolic links) that
  ** is the same directory as PWD (device and inode; realpath is XSI) */
  size_t len = strlen(r->cwd);
  for (size_t n = len; n > 0; n--) { /* n: the length of a prefix */
    if (n < len && n > 1 && r->cwd[n] != '/')
      continue;
    char *dir = tfr_arena_strndup(r->a, r->cwd, n);
    if (stat(dir, &st) == 0 && st.st_dev == want.st_dev &&
        st.st_ino == want.st_ino) {
      r->base = n == 1 ? "" : dir;
      return;
    }
  }
}

/* dir/name (name alone when absolute) without "." and ".." segments. */
static char *normalise(tfr_arena *a, const char *dir, const char *name) {
  const char *full =
      name[0] == '/' ? name : tfr_arena_printf(a, "%s/%s", dir, name);
  size_t len = strlen(full);
  char *out = tfr_arena_alloc(a, len + 2);
  size_t k = 0;
  for (const char *p = full; *p;) {
    while (*p == '/')
      p++;
    size_t seg = strcspn(p, "/");
    if (!seg)
      break;
    if (seg == 2 && p[0] == '.' && p[1] == '.') {
      while (k && out[k - 1] != '/')
        k--;
      if (k)
        k--;
    } else if (!(seg == 1 && p[0] == '.')) {
      out[k++] = '/';
      memcpy(out + k, p, seg);
      k += seg;
    }
    p += seg;
  }
  if (!k)
    out[k++] = '/';
  out[k] = '\0';
  return out;
}

/* A diagnostic's file name as a path from the base directory, or the
** absolute path of a file outside it. */
static const char *rel_path(const struct report *r, const char *name) {
  const char *full = normalise(r->a, r->cwd, name);
  size_t n = strlen(r->base);
  if (!strncmp(full, r->base, n) && full[n] == '/' && full[n + 1])
    return full + n + 1;
  return full;
}

/* rel_path as a URI reference: relative, or a file: URI when absolute;
** every byte a path segment may not hold is percent-encoded (and ':',
** which would make a relative reference look like a scheme). */
static const char *file_uri(const struct report *r, const char *name) {
  const char *p = rel_path(r, name);
  size_t len = strlen(p);
  char *u = tfr_arena_alloc(r->a, 3 * len + 8), *o = u;
  if (p[0] == '/')
    o += sprintf(o, "file://");
  for (const unsigned char *s = (const unsigned char *)p; *s; s++) {
    if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
        (*s >= '0' && *s <= '9') || strchr("-._~/!$&'()*+,;=@", *s))
      *o++ = (char)*s;
    else
      o += sprintf(o, "%%%02X", *s);
  }
  *o = '\0';
  return u;
}

/* A range for output: 1-based, end after start, never 0.  An end that is
** missing or before the start makes a one-character region; an end
** column 0 becomes 1 (the region ends with the line before). */
struct region {
  int sl, sc, el, ec;
};

static struct region region_of(const struct tfr_range *g) {
  struct region x = {g->start.line, g->start.column, g->end.line,
                     g->end.column};
  if (x.sl < 1)
    x.sl = 1;
  if (x.sc < 1)
    x.sc = 1;
  if (x.el < x.sl || (x.el == x.sl && x.ec <= x.sc)) {
    x.el = x.sl;
    x.ec = x.sc + 1;
  }
  if (x.ec < 1)
    x.ec = 1;
  return x;
}

/* "file:line,col-col" with the reported path. */
static const char *where(const struct report *r, const struct tfr_range *g) {
  struct tfr_range c = *g;
  struct region x = region_of(g);
  c.filename = rel_path(r, g->filename);
  c.start.line = x.sl;
  c.start.column = x.sc;
  c.end.line = x.el;
  c.end.column = x.ec;
  char buf[PATH_MAX + 64];
  tfr_range_format(&c, buf, sizeof buf);
  return tfr_arena_strdup(r->a, buf);
}

/* ---- modules not checked ----------------------------------------------- */

const char *cli_unchecked_count(tfr_arena *a,
                                const struct tfr_resolution *res) {
  return tfr_arena_printf(a, "%zu module%s not checked", res->nunchecked,
                          res->nunchecked == 1 ? "" : "s");
}

void cli_print_unchecked(FILE *out, const struct tfr_resolution *res,
                         const char *indent) {
  for (size_t i = 0; i < res->nunchecked; i++) {
    const struct tfr_unchecked *u = tfr_resolution_unchecked(res, i);
    fprintf(out, "%s%s: %s\n", indent, u->address, u->why);
  }
}

/* ---- findings ---------------------------------------------------------- */

static const struct tfr_variable *find_var(const struct tfr_resolution *res,
                                           const char *name) {
  for (size_t i = 0; name && res && i < res->n; i++) {
    const struct tfr_variable *v = tfr_resolution_variable(res, i);
    if (!strcmp(v->name, name))
      return v;
  }
  return NULL;
}

/* The failed rule a validation diagnostic names ("This was checked by
** the validation rule at main.tf:26,3-13."), else the var's first failed
** rule. */
static struct tfr_range failed_rule(const struct tfr_variable *v,
                                    const char *detail) {
  struct tfr_range none = {NULL, {0, 0, 0}, {0, 0, 0}};
  const struct tfr_range *first = NULL;
  for (size_t i = 0; i < v->nrules; i++) {
    const struct tfr_rule *rule = tfr_variable_rule(v, i);
    if (rule->result != TFR_RULE_FAILED || !rule->range.filename)
      continue;
    char at[PATH_MAX + 64], text[PATH_MAX + 96];
    tfr_range_format(&rule->range, at, sizeof at);
    snprintf(text, sizeof text, "validation rule at %s.", at);
    if (detail && strstr(detail, text))
      return rule->range;
    if (!first)
      first = &rule->range;
  }
  return first ? *first : none;
}

/* Where a value that is not in a file came from: the last failed -var
** or TF_VAR_ attempt of its variable. */
static const char *value_source(tfr_arena *a, const struct tfr_variable *v,
                                const char *pseudo) {
  for (size_t i = v ? v->nattempts : 0; i-- > 0;) {
    const struct tfr_attempt *t = tfr_variable_attempt(v, i);
    if (t->failed && t->source == TFR_SRC_CLI)
      return "-var";
    if (t->failed && t->source == TFR_SRC_ENV)
      return tfr_arena_printf(a, "TF_VAR_%s", v->name);
  }
  return pseudo;
}

/* A finding for diagnostic g of environment env (not yet merged). */
static struct finding finding_of(struct report *r, size_t env,
                                 const struct tfr_diag *g) {
  struct finding f = {0};
  f.sev = g->sev;
  f.summary = g->summary ? g->summary : "";
  f.detail = g->detail ? g->detail : "";
  const struct tfr_instance *in = NULL;
  f.var = g->module && *g->module ? cli_child_var(r->envs[env].res, g, &in)
                                  : find_var(r->envs[env].res, g->variable);
  f.at = g->subject;
  /* a child's value that a var file sets: that line is the one to fix */
  const struct tfr_range *fix = in && f.var && g->sev == TFR_DIAG_ERROR
                                    ? cli_fix_range(r->envs[env].res, in, f.var)
                                    : NULL;
  if (fix)
    f.at = *fix;
  if (g->element.filename) /* the element at fault, where it is written */
    f.at = g->element;
  if (f.var)
    f.qname = in ? tfr_arena_printf(r->a, "%s.var.%s", in->address, f.var->name)
                 : tfr_arena_printf(r->a, "var.%s", f.var->name);
  f.shape = f.qname ? cli_call_path(r->a, f.qname) : NULL;
  f.note = g->note && *g->note ? g->note : NULL;
  if (f.at.filename && f.at.filename[0] == '<') {
    /* a -var or TF_VAR_ value, parsed as "<value for var.x>" */
    f.source = value_source(r->a, f.var, f.at.filename);
    f.at.filename = NULL;
  }
  if (!f.at.filename && f.var && f.var->decl.filename)
    f.at = f.var->decl;
  if (!f.at.filename)
    f.at = (struct tfr_range){NULL, {0, 0, 0}, {0, 0, 0}};
  f.rule = (struct tfr_range){NULL, {0, 0, 0}, {0, 0, 0}};
  if (f.var && g->code == TFR_CODE_RULE_FAILED)
    f.rule = failed_rule(f.var, f.detail);
  f.id = slug(r->a, f.summary);
  uint64_t h = hash_str(14695981039346656037u, f.summary);
  h = hash_str(h, f.detail);
  h = hash_str(h, f.shape);
  h = hash_str(h, f.note);
  h = hash_str(h, f.source);
  f.hash = hash_range(hash_range(h, &f.at), &f.rule) ^ (uint64_t)f.sev;
  return f;
}

static bool same_finding(const struct finding *x, const struct finding *y) {
  return x->hash == y->hash && x->sev == y->sev &&
         same_str(x->summary, y->summary) && same_str(x->detail, y->detail) &&
         same_str(x->shape, y->shape) && same_str(x->note, y->note) &&
         same_str(x->source, y->source) && same_range(&x->at, &y->at) &&
         same_range(&x->rule, &y->rule);
}

/* One more instance the finding is about (each once). */
static void add_instance(tfr_arena *a, struct finding *f, const char *qname) {
  for (size_t i = 0; i < f->nq; i++)
    if (same_str(f->qnames[i], qname))
      return;
  if (f->nq == f->capq) {
    f->capq = f->capq ? 2 * f->capq : 4;
    const char **v = tfr_arena_alloc(a, f->capq * sizeof *v);
    if (f->nq)
      memcpy(v, f->qnames, f->nq * sizeof *v);
    f->qnames = v;
  }
  f->qnames[f->nq++] = qname;
}

static void add_env(tfr_arena *a, struct finding *f, size_t env) {
  if (f->nenvs && f->envs[f->nenvs - 1] == env)
    return; /* the same diagnostic twice in one environment */
  if (f->nenvs == f->capenvs) {
    f->capenvs = f->capenvs ? 2 * f->capenvs : 4;
    size_t *v = tfr_arena_alloc(a, f->capenvs * sizeof *v);
    if (f->nenvs)
      memcpy(v, f->envs, f->nenvs * sizeof *v);
    f->envs = v;
  }
  f->envs[f->nenvs++] = env;
}

/* f of environment env into l: a new finding, or an identical one's
** environments. */
static void add_finding(tfr_arena *a, struct findings *l,
                        const struct finding *f, size_t env) {
  size_t k = 0;
  while (k < l->n && !same_finding(&l->v[k], f))
    k++;
  if (k == l->n) {
    if (l->n == l->cap) {
      l->cap = l->cap ? 2 * l->cap : 16;
      struct finding *v = tfr_arena_alloc(a, l->cap * sizeof *v);
      if (l->n)
        memcpy(v, l->v, l->n * sizeof *v);
      l->v = v;
    }
    l->v[l->n++] = *f;
  }
  add_env(a, &l->v[k], env);
  if (f->qname)
    add_instance(a, &l->v[k], f->qname);
}

/* A module call not checked, as a finding. */
static struct finding skip_of(struct report *r, const struct tfr_unchecked *u) {
  struct finding f = {0};
  f.sev = TFR_DIAG_WARNING; /* reported as a note or a skipped test */
  f.summary = "Module not checked";
  f.detail =
      tfr_arena_printf(r->a, "%s is not checked: %s.", u->address, u->why);
  f.qname = u->address;
  f.at = u->range;
  f.id = "module-not-checked";
  f.skip = true;
  uint64_t h = hash_str(14695981039346656037u, f.detail);
  f.hash = hash_range(h, &f.at);
  return f;
}

/* Every diagnostic of every environment, and every module call not
** checked, identical ones merged. */
static void collect(struct report *r) {
  struct findings all = {r->f, r->nf, r->capf};
  for (size_t e = 0; e < r->n; e++) {
    const tfr_diags *d = r->envs[e].diags;
    for (size_t i = 0; d && i < tfr_diags_count(d); i++) {
      struct finding f = finding_of(r, e, tfr_diags_get(d, i));
      add_finding(r->a, &all, &f, e);
    }
    const struct tfr_resolution *res = r->envs[e].res;
    for (size_t i = 0; res && i < res->nunchecked; i++) {
      struct finding f = skip_of(r, tfr_resolution_unchecked(res, i));
      add_finding(r->a, &r->skips, &f, e);
    }
  }
  r->f = all.v;
  r->nf = all.n;
  r->capf = all.cap;
}

/* Whether environment names are shown: when they are given. */
static bool named(const struct report *r, const struct finding *f) {
  for (size_t i = 0; i < f->nenvs; i++)
    if (r->envs[f->envs[i]].name)
      return true;
  return false;
}

/* "a.tfvars, b.tfvars" */
static const char *env_list(const struct report *r, const struct finding *f) {
  const char *s = "";
  for (size_t i = 0; i < f->nenvs; i++) {
    const char *name = r->envs[f->envs[i]].name;
    s = tfr_arena_printf(r->a, "%s%s%s", s, i ? ", " : "",
                         name ? name : "(default)");
  }
  return s;
}

/* What every format adds to a diagnostic's text: where a value that is
** not in a file came from, and the environments. */
static const char *suffix(const struct report *r, const struct finding *f) {
  const char *s = "";
  if (f->note)
    s = tfr_arena_printf(r->a, "\n\n%s", f->note);
  if (!f->skip &&
      (f->nq > 1 || (f->qname && !strncmp(f->qname, "module.", 7)))) {
    /* which module instances: a child's finding names them */
    s = tfr_arena_printf(r->a, "%s\n\nIn %s", s,
                         f->nq > 1 ? "module instances " : "");
    for (size_t i = 0; i < f->nq; i++) {
      const char *q = f->qnames[i], *v = strstr(q, ".var.");
      s = tfr_arena_printf(r->a, "%s%s%.*s", s, i ? ", " : "",
                           (int)(v ? (size_t)(v - q) : strlen(q)), q);
    }
    s = tfr_arena_printf(r->a, "%s.", s);
  }
  if (f->source)
    s = tfr_arena_printf(r->a, "%s\n\nThe value was set by %s.", s, f->source);
  if (named(r, f))
    s = tfr_arena_printf(r->a, "%s\n\nEnvironment%s: %s", s,
                         f->nenvs > 1 ? "s" : "", env_list(r, f));
  return s;
}

/* The message of an annotation: the detail (the summary when there is
** none; the title has the summary), and the suffix. */
static const char *body(const struct report *r, const struct finding *f) {
  return tfr_arena_printf(r->a, "%s%s", *f->detail ? f->detail : f->summary,
                          suffix(r, f));
}

/* ---- SARIF 2.1.0 ------------------------------------------------------- */

static const char *level(enum tfr_severity s) {
  return s == TFR_DIAG_ERROR ? "error" : "warning";
}

/* A finding's SARIF level: a module call not checked is a note. */
static const char *level_of(const struct finding *f) {
  return f->skip ? "note" : level(f->sev);
}

/* The distinct rule ids of the findings with (with_location) or without
** a location, in order of first use; *n gets their count. */
static const struct finding **kinds(const struct report *r, bool with_location,
                                    size_t *n) {
  const struct finding **k = tfr_arena_alloc(r->a, (r->nf + 1) * sizeof *k);
  *n = 0;
  for (size_t i = 0; i < r->nf; i++) {
    if (!r->f[i].at.filename != !with_location)
      continue;
    size_t j = 0;
    while (j < *n && strcmp(k[j]->id, r->f[i].id))
      j++;
    if (j == *n)
      k[(*n)++] = &r->f[i];
  }
  return k;
}

static size_t kind_index(const struct finding **k, size_t n, const char *id) {
  size_t j = 0;
  while (j < n && strcmp(k[j]->id, id))
    j++;
  return j;
}

static void sarif_descriptors(FILE *o, const char *member,
                              const struct finding **k, size_t n) {
  fprintf(o, ",\n          \"%s\": [", member);
  for (size_t i = 0; i < n; i++) {
    fprintf(o, "%s\n            {\"id\": ", i ? "," : "");
    tfr_json_write_cstr(o, k[i]->id);
    fprintf(o, ",\n             \"shortDescription\": {\"text\": ");
    tfr_json_write_cstr(o, k[i]->summary);
    fprintf(o,
            "},\n             \"defaultConfiguration\": "
            "{\"level\": \"%s\"}}",
            level_of(k[i]));
  }
  fprintf(o, "\n          ]");
}

static void sarif_physical(const struct report *r, const struct tfr_range *g) {
  struct region x = region_of(g);
  fprintf(r->out, "\"physicalLocation\": {\"artifactLocation\": {\"uri\": ");
  tfr_json_write_cstr(r->out, file_uri(r, g->filename));
  fprintf(r->out,
          "}, \"region\": {\"startLine\": %d, \"startColumn\": %d, "
          "\"endLine\": %d, \"endColumn\": %d}}",
          x.sl, x.sc, x.el, x.ec);
}

/* The finding's locations: its place, its variable and where its value
** came from as logical locations, and the failed rule as related. */
static void sarif_locations(const struct report *r, const struct finding *f) {
  FILE *o = r->out;
  fprintf(o, ",\n         \"locations\": [{");
  sarif_physical(r, &f->at);
  if (f->var || f->source) {
    fprintf(o, ",\n           \"logicalLocations\": [");
    if (f->var) {
      fprintf(o, "{\"name\": ");
      tfr_json_write_cstr(o, f->var->name);
      fprintf(o, ", \"fullyQualifiedName\": ");
      tfr_json_write_cstr(o, f->qname);
      fprintf(o, ", \"kind\": \"variable\"}");
    }
    if (f->source) {
      fprintf(o, "%s{\"name\": ", f->var ? ", " : "");
      tfr_json_write_cstr(o, f->source);
      fprintf(o, ", \"kind\": \"value\"}");
    }
    fprintf(o, "]");
  }
  fprintf(o, "}]");
  if (f->rule.filename) {
    fprintf(o, ",\n         \"relatedLocations\": [{\"id\": 1, ");
    sarif_physical(r, &f->rule);
    fprintf(o, ",\n           \"message\": {\"text\": \"The validation rule "
               "that failed\"}}]");
  }
}

static void sarif_properties(const struct report *r, const struct finding *f) {
  if (!f->var && !named(r, f) && !f->skip)
    return;
  FILE *o = r->out;
  fprintf(o, ",\n         \"properties\": {");
  if (f->var || f->skip) {
    fprintf(o, f->skip ? "\"module\": " : "\"variable\": ");
    tfr_json_write_cstr(o, f->skip ? f->qname : f->var->name);
  }
  if (named(r, f)) {
    fprintf(o, "%s\"environments\": [", f->var || f->skip ? ", " : "");
    for (size_t i = 0; i < f->nenvs; i++) {
      const char *name = r->envs[f->envs[i]].name;
      fprintf(o, "%s", i ? ", " : "");
      tfr_json_write_cstr(o, name ? name : "(default)");
    }
    fprintf(o, "]");
  }
  fprintf(o, "}");
}

static void sarif_message(const struct report *r, const struct finding *f) {
  fprintf(r->out, ",\n         \"message\": {\"text\": ");
  tfr_json_write_cstr(r->out, tfr_arena_printf(r->a, "%s%s%s%s", f->summary,
                                               *f->detail ? "\n\n" : "",
                                               f->detail, suffix(r, f)));
  fprintf(r->out, "}");
}

static void sarif_results(const struct report *r, const struct finding **k,
                          size_t nk) {
  FILE *o = r->out;
  fprintf(o, ",\n      \"results\": [");
  bool first = true;
  for (size_t i = 0; i < r->nf; i++) {
    const struct finding *f = &r->f[i];
    if (!f->at.filename)
      continue;
    fprintf(o, "%s\n        {\"ruleId\": ", first ? "" : ",");
    first = false;
    tfr_json_write_cstr(o, f->id);
    fprintf(o, ", \"ruleIndex\": %zu, \"level\": \"%s\"",
            kind_index(k, nk, f->id), level(f->sev));
    sarif_message(r, f);
    sarif_locations(r, f);
    sarif_properties(r, f);
    fprintf(o, "}");
  }
  fprintf(o, "%s]", first ? "" : "\n      ");
}

/* One notification of the invocation. */
static void sarif_notification(const struct report *r, const struct finding **k,
                               size_t nk, const struct finding *f, bool first) {
  FILE *o = r->out;
  fprintf(o, "%s\n        {\"descriptor\": {\"id\": ", first ? "" : ",");
  tfr_json_write_cstr(o, f->id);
  fprintf(o, ", \"index\": %zu}, \"level\": \"%s\"", kind_index(k, nk, f->id),
          level_of(f));
  sarif_message(r, f);
  if (f->at.filename) {
    fprintf(o, ",\n         \"locations\": [{");
    sarif_physical(r, &f->at);
    fprintf(o, "}]");
  }
  sarif_properties(r, f);
  fprintf(o, "}");
}

/* Diagnostics that point nowhere (a -var for an undeclared variable, a
** missing var file) are notifications of the invocation: code scanning
** rejects a whole file when one result has no file location.  So is
** each module call not checked, a note, never folded: what the verdict
** did not cover is said. */
static void sarif_notifications(const struct report *r,
                                const struct finding **k, size_t nk) {
  FILE *o = r->out;
  fprintf(o, ",\n      \"invocations\": [{\"executionSuccessful\": true");
  if (nk) {
    fprintf(o, ",\n        \"toolExecutionNotifications\": [");
    bool first = true;
    for (size_t i = 0; i < r->nf; i++)
      if (!r->f[i].at.filename) {
        sarif_notification(r, k, nk, &r->f[i], first);
        first = false;
      }
    for (size_t i = 0; i < r->skips.n; i++) {
      sarif_notification(r, k, nk, &r->skips.v[i], first);
      first = false;
    }
    fprintf(o, "]");
  }
  fprintf(o, "}]");
}

static void write_sarif(struct report *r) {
  FILE *o = r->out;
  size_t nrules, nnotes;
  const struct finding **rules = kinds(r, true, &nrules);
  const struct finding **notes = kinds(r, false, &nnotes);
  if (r->skips.n) /* kinds leaves room for one more */
    notes[nnotes++] = &r->skips.v[0];
  fprintf(o, "{\n  \"$schema\": \"https://docs.oasis-open.org/sarif/sarif/"
             "v2.1.0/os/schemas/sarif-schema-2.1.0.json\",\n"
             "  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n"
             "      \"tool\": {\n        \"driver\": {\n"
             "          \"name\": \"tfresolve\",\n          \"version\": ");
  tfr_json_write_cstr(o, tfr_version());
  fprintf(o, ",\n          \"semanticVersion\": ");
  tfr_json_write_cstr(o, tfr_version());
  sarif_descriptors(o, "rules", rules, nrules);
  if (nnotes)
    sarif_descriptors(o, "notifications", notes, nnotes);
  fprintf(o, "\n        }\n      }");
  sarif_notifications(r, notes, nnotes);
  fprintf(o, ",\n      \"columnKind\": \"unicodeCodePoints\"");
  sarif_results(r, rules, nrules);
  fprintf(o, "\n    }\n  ]\n}\n");
}

/* ---- GitHub workflow commands ------------------------------------------ */

/* Text as GitHub's runner reads it back: '%', CR and LF encoded, and in
** a property value ':' and ',' too.  Bytes that are not UTF-8 become
** U+FFFD. */
static void gh_escape(FILE *o, const char *s, bool property) {
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    uint32_t cp;
    size_t len = utf8_next(p, &cp);
    if (!len) {
      fputs("\xEF\xBF\xBD", o);
      p++;
      continue;
    }
    if (*p == '%')
      fputs("%25", o);
    else if (*p == '\r')
      fputs("%0D", o);
    else if (*p == '\n')
      fputs("%0A", o);
    else if (property && *p == ':')
      fputs("%3A", o);
    else if (property && *p == ',')
      fputs("%2C", o);
    else
      fwrite(p, 1, len, o);
    p += len;
  }
}

/* ::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=T::message
** (columns only on one line: GitHub rejects them across lines). */
static void gh_finding(const struct report *r, const struct finding *f) {
  FILE *o = r->out;
  fprintf(o, "::%s ", f->skip ? "notice" : level(f->sev));
  if (f->at.filename) {
    struct region x = region_of(&f->at);
    fputs("file=", o);
    gh_escape(o, rel_path(r, f->at.filename), true);
    fprintf(o, ",line=%d", x.sl);
    if (x.el == x.sl)
      fprintf(o, ",col=%d,endLine=%d,endColumn=%d", x.sc, x.el, x.ec);
    else
      fprintf(o, ",endLine=%d", x.el);
    fputs(",", o);
  }
  fputs("title=", o);
  gh_escape(o,
            named(r, f)
                ? tfr_arena_printf(r->a, "%s (%s)", f->summary, env_list(r, f))
                : f->summary,
            true);
  fputs("::", o);
  gh_escape(o, body(r, f), false);
  fputc('\n', o);
}

/* "; 2 modules not checked: module.a, module.b" for an environment's
** summary line, or "". */
static const char *gh_unchecked(const struct report *r, size_t env) {
  const struct tfr_resolution *res = r->envs[env].res;
  if (!res || !res->nunchecked)
    return "";
  const char *s =
      tfr_arena_printf(r->a, "; %s:", cli_unchecked_count(r->a, res));
  for (size_t i = 0; i < res->nunchecked; i++)
    s = tfr_arena_printf(r->a, "%s%s %s", s, i ? "," : "",
                         tfr_resolution_unchecked(res, i)->address);
  return s;
}

static void write_github(struct report *r) {
  for (size_t i = 0; i < r->nf; i++)
    gh_finding(r, &r->f[i]);
  for (size_t i = 0; i < r->skips.n; i++)
    gh_finding(r, &r->skips.v[i]);
  for (size_t e = 0; e < r->n; e++) {
    size_t errors = 0, warnings = 0;
    const tfr_diags *d = r->envs[e].diags;
    for (size_t i = 0; d && i < tfr_diags_count(d); i++) {
      if (tfr_diags_get(d, i)->sev == TFR_DIAG_ERROR)
        errors++;
      else
        warnings++;
    }
    fprintf(r->out, "tfresolve check%s%s: %s, %zu error%s, %zu warning%s%s\n",
            r->envs[e].name ? " " : "", r->envs[e].name ? r->envs[e].name : "",
            r->envs[e].res && r->envs[e].res->valid ? "valid" : "invalid",
            errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s",
            gh_unchecked(r, e));
  }
}

/* ---- JUnit XML --------------------------------------------------------- */

/* Text for XML 1.0: markup characters as references (in attributes the
** whitespace characters too, which attribute normalisation would turn
** into spaces); characters XML forbids and bytes that are not UTF-8 as
** U+FFFD. */
static void xml_escape(FILE *o, const char *s, bool attr) {
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    uint32_t cp = 0;
    size_t len = utf8_next(p, &cp);
    bool bad = !len || (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') ||
               cp == 0xFFFE || cp == 0xFFFF;
    if (bad)
      fputs("\xEF\xBF\xBD", o);
    else if (cp == '&')
      fputs("&amp;", o);
    else if (cp == '<')
      fputs("&lt;", o);
    else if (cp == '>')
      fputs("&gt;", o);
    else if (cp == '\r')
      fputs("&#13;", o);
    else if (attr && cp == '"')
      fputs("&quot;", o);
    else if (attr && cp == '\'')
      fputs("&apos;", o);
    else if (attr && (cp == '\n' || cp == '\t'))
      fprintf(o, "&#%u;", (unsigned)cp);
    else
      fwrite(p, 1, len, o);
    p += len ? len : 1;
  }
}

static void xml_attr(FILE *o, const char *name, const char *value) {
  fprintf(o, " %s=\"", name);
  xml_escape(o, value, true);
  fputc('"', o);
}

static bool in_env(const struct finding *f, size_t env) {
  for (size_t i = 0; i < f->nenvs; i++)
    if (f->envs[i] == env)
      return true;
  return false;
}

/* Whether finding f of environment env belongs to testcase qname
** ("var.x", "module.a.var.x"; NULL: the module's). */
static bool of_case(const struct finding *f, size_t env, const char *qname) {
  if (!in_env(f, env))
    return false;
  if (!qname)
    return !f->var;
  for (size_t i = 0; i < f->nq; i++)
    if (same_str(f->qnames[i], qname))
      return true;
  return false;
}

/* The testcases of an environment: its module, then its variables, then
** each child module instance's (the tree's), by address. */
struct tcase {
  const struct tfr_variable *v; /* NULL: the module's */
  const char *qname, *name;
  const char *skip; /* a module call not checked: why (a skipped test) */
};

static size_t cases_of(const struct report *r, size_t env, struct tcase **out) {
  const struct tfr_resolution *res = r->envs[env].res;
  size_t n = 1 + (res ? res->n + res->nunchecked : 0);
  for (size_t i = 0; res && res->tree && i < res->ninstances; i++)
    n += tfr_resolution_instance(res, i)->n;
  struct tcase *c = tfr_arena_alloc(r->a, n * sizeof *c);
  size_t k = 0;
  c[k++] = (struct tcase){NULL, NULL, "(module)", NULL};
  for (size_t i = 0; res && i < res->n; i++) {
    const struct tfr_variable *v = tfr_resolution_variable(res, i);
    c[k++] = (struct tcase){v, tfr_arena_printf(r->a, "var.%s", v->name),
                            v->name, NULL};
  }
  for (size_t i = 0; res && res->tree && i < res->ninstances; i++) {
    const struct tfr_instance *in = tfr_resolution_instance(res, i);
    for (size_t j = 0; j < in->n; j++) {
      const struct tfr_variable *v = tfr_instance_variable(in, j);
      const char *q = tfr_arena_printf(r->a, "%s.var.%s", in->address, v->name);
      c[k++] = (struct tcase){v, q, q, NULL};
    }
  }
  for (size_t i = 0; res && i < res->nunchecked; i++) {
    const struct tfr_unchecked *u = tfr_resolution_unchecked(res, i);
    c[k++] = (struct tcase){
        NULL, u->address, u->address,
        tfr_arena_printf(r->a, "Module not checked: %s", u->why)};
  }
  *out = c;
  return k;
}

/* "Error: summary\n\ndetail\n\n  at file:1,2-3" for a failure or the
** test's output. */
static void junit_text(const struct report *r, const struct finding *f) {
  const char *b = *f->detail ? f->detail : NULL;
  if (f->source)
    b = tfr_arena_printf(r->a, "%s%sThe value was set by %s.", b ? b : "",
                         b ? "\n\n" : "", f->source);
  fprintf(r->out, "%s: ", f->sev == TFR_DIAG_ERROR ? "Error" : "Warning");
  xml_escape(r->out, f->summary, false);
  if (b) {
    fputs("\n\n", r->out);
    xml_escape(r->out, b, false);
  }
  if (f->at.filename) {
    fputs("\n\n  at ", r->out);
    xml_escape(r->out, where(r, &f->at), false);
  }
  if (f->rule.filename) {
    fputs("\n  validation rule at ", r->out);
    xml_escape(r->out, where(r, &f->rule), false);
  }
  fputs("\n", r->out);
}

/* The outcome of one testcase: failed (errors), skipped (a deferred
** rule, or a variable left unresolved by errors elsewhere) or passed. */
struct outcome {
  size_t errors, warnings;
  const struct finding *first_error;
  const char *skipped;
};

static struct outcome outcome_of(const struct report *r, size_t env,
                                 const struct tcase *tc) {
  const struct tfr_variable *v = tc->v;
  struct outcome c = {0, 0, NULL, tc->skip};
  if (tc->skip)
    return c; /* no finding is its own */
  for (size_t i = 0; i < r->nf; i++) {
    const struct finding *f = &r->f[i];
    if (!of_case(f, env, tc->qname))
      continue;
    if (f->sev == TFR_DIAG_ERROR && !c.errors++)
      c.first_error = f;
    c.warnings += f->sev != TFR_DIAG_ERROR;
  }
  size_t deferred = 0;
  for (size_t i = 0; v && i < v->nrules; i++) {
    const struct tfr_rule *rule = tfr_variable_rule(v, i);
    if (rule->result == TFR_RULE_DEFERRED && !deferred++)
      c.skipped = tfr_arena_printf(r->a, "Validation rule deferred: %s",
                                   rule->detail ? rule->detail : "");
  }
  if (deferred > 1)
    c.skipped = tfr_arena_printf(r->a,
                                 "%zu validation rules deferred: they "
                                 "cannot be known offline",
                                 deferred);
  if (v && v->error && !c.skipped)
    c.skipped = "Not resolved: resolving stopped at errors elsewhere";
  return c;
}

static void junit_case(const struct report *r, size_t env, const char *cls,
                       const struct tcase *tc, struct outcome c) {
  FILE *o = r->out;
  const char *name = tc->name;
  fputs("    <testcase", o);
  xml_attr(o, "classname", cls);
  xml_attr(o, "name", name);
  if (!c.errors && !c.warnings && !c.skipped) {
    fputs("/>\n", o);
    return;
  }
  fputs(">\n", o);
  if (c.errors) {
    fputs("      <failure", o);
    xml_attr(o, "message",
             c.errors == 1
                 ? c.first_error->summary
                 : tfr_arena_printf(r->a, "%s (and %zu more)",
                                    c.first_error->summary, c.errors - 1));
    xml_attr(o, "type", c.first_error->id);
    fputs(">", o);
    for (size_t i = 0, k = 0; i < r->nf; i++)
      if (of_case(&r->f[i], env, tc->qname) && r->f[i].sev == TFR_DIAG_ERROR) {
        fputs(k++ ? "\n" : "", o);
        junit_text(r, &r->f[i]);
      }
    fputs("</failure>\n", o);
  } else if (c.skipped) {
    fputs("      <skipped", o);
    xml_attr(o, "message", c.skipped);
    fputs("/>\n", o);
  }
  if (c.warnings) {
    fputs("      <system-out>", o);
    for (size_t i = 0, k = 0; i < r->nf; i++)
      if (of_case(&r->f[i], env, tc->qname) && r->f[i].sev != TFR_DIAG_ERROR) {
        fputs(k++ ? "\n" : "", o);
        junit_text(r, &r->f[i]);
      }
    fputs("</system-out>\n", o);
  }
  fputs("    </testcase>\n", o);
}

/* A suite's name: the environment, else the module directory (its
** variables' directory; the base directory's own name when that is it). */
static const char *suite_name(const struct report *r, size_t env) {
  if (r->envs[env].name)
    return r->envs[env].name;
  const struct tfr_resolution *res = r->envs[env].res;
  const char *dir = NULL;
  const struct tfr_variable *first = tfr_resolution_variable(res, 0);
  if (first && first->decl.filename) {
    const char *p = rel_path(r, first->decl.filename);
    const char *slash = strrchr(p, '/');
    if (slash)
      dir = tfr_arena_strndup(r->a, p, slash > p ? (size_t)(slash - p) : 1);
  }
  if (!dir) {
    const char *slash = strrchr(r->base, '/');
    dir = slash && slash[1] ? slash + 1 : ".";
  }
  return dir;
}

struct counts {
  size_t tests, failures, skipped;
};

static struct counts count_env(const struct report *r, size_t env) {
  struct tcase *tc;
  size_t n = cases_of(r, env, &tc);
  struct counts k = {n, 0, 0};
  for (size_t i = 0; i < n; i++) {
    struct outcome c = outcome_of(r, env, &tc[i]);
    k.failures += c.errors > 0;
    k.skipped += !c.errors && c.skipped;
  }
  return k;
}

static void junit_counts(FILE *o, struct counts k) {
  fprintf(o, " tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\"",
          k.tests, k.failures, k.skipped);
}

static void write_junit(struct report *r) {
  FILE *o = r->out;
  struct counts all = {0, 0, 0};
  for (size_t e = 0; e < r->n; e++) {
    struct counts k = count_env(r, e);
    all.tests += k.tests;
    all.failures += k.failures;
    all.skipped += k.skipped;
  }
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites", o);
  xml_attr(o, "name", "tfresolve check");
  junit_counts(o, all);
  fputs(">\n", o);
  for (size_t e = 0; e < r->n; e++) {
    const char *name = suite_name(r, e);
    fputs("  <testsuite", o);
    xml_attr(o, "name", name);
    junit_counts(o, count_env(r, e));
    fputs(">\n", o);
    struct tcase *tc;
    size_t n = cases_of(r, e, &tc);
    for (size_t i = 0; i < n; i++)
      junit_case(r, e, name, &tc[i], outcome_of(r, e, &tc[i]));
    fputs("  </testsuite>\n", o);
  }
  fputs("</testsuites>\n", o);
}

void report_write(FILE *out, enum out_format f, const struct report_env *envs,
                  size_t n) {
  struct report r = {0};
  r.a = tfr_arena_new();
  r.out = out;
  r.envs = envs;
  r.n = n;
  base_dir(&r);
  collect(&r);
  if (f == FMT_SARIF)
    write_sarif(&r);
  else if (f == FMT_GITHUB)
    write_github(&r);
  else if (f == FMT_JUNIT)
    write_junit(&r);
  fflush(out);
  tfr_arena_free(r.a);
}
