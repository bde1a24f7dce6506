/*
** tfresolve diff A.tfvars B.tfvars [DIR]: the module's variables resolved
** twice, once with each side's var files on top of the module's own value
** sources, and the variables whose values differ, both values with their
** sources, nested differences by path.  Sensitive values are compared,
** never shown.  What is known is compared: a value (or a part of one)
** known only after apply on both sides -- from a resource, a data source,
** a module output built from them -- is no difference, and one known on
** one side only is shown as `(known after apply)`, plan's words for it
** (Terraform's internal/command/jsonformat/computed/renderers/unknown.go).
** Exit status as diff(1): 0 equal, 1 different, 2 trouble.
*/
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "cli_module.h"
#include "cli_util.h"

extern char **environ;

struct diff_opts {
  struct options o;
  bool no_env, opentofu;
  bool no_modules; /* -no-modules */
  const char *dir;
  const struct tfr_cli_arg *args; /* both sides' */
  size_t nargs;
  const char **side[2]; /* -a / -b files */
  size_t nside[2];
};

/* The two sides from the options and operands: A B [DIR], or with
** -a/-b only [DIR]; false after a usage message. */
static bool diff_flags(struct cli_opts *co, struct diff_opts *d) {
  d->o = co->o;
  d->no_env = co->no_env;
  d->opentofu = co->o.opentofu;
  d->no_modules = co->no_modules;
  d->args = co->args;
  d->nargs = co->nargs;
  d->side[0] = co->side_a.v;
  d->nside[0] = co->side_a.n;
  d->side[1] = co->side_b.v;
  d->nside[1] = co->side_b.n;
  const struct cli_strs *ops = &co->operands;
  if (ops->n > 3) {
    cli_usage_error(co->cmd, "too many arguments: \"%s\"", ops->v[3]);
    return false;
  }
  size_t need = d->nside[0] || d->nside[1] ? 0 : 2;
  if ((need && ops->n < 2) || ops->n > need + 1 ||
      (!need && (!d->nside[0] || !d->nside[1]))) {
    cli_usage_error(co->cmd, "%s",
                    need ? "which two var files? (A.tfvars B.tfvars)"
                         : "-a and -b each need at least one file, and only "
                           "DIR may follow");
    return false;
  }
  for (size_t k = 0; k < need; k++)
    d->side[k][d->nside[k]++] = ops->v[k];
  d->dir = ops->n > need ? ops->v[need] : ".";
  return true;
}

/* ---- differences ------------------------------------------------------- */

/* One difference inside a variable's value: at path, a and b (NULL:
** absent on that side). */
struct change {
  char *path;
  const tfr_value *a, *b;
};

struct changes {
  struct change *v;
  size_t n, cap;
};

static void add_change(struct changes *c, const char *path, size_t n,
                       const tfr_value *a, const tfr_value *b) {
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 8;
    c->v = cli_realloc(c->v, c->cap * sizeof *c->v);
  }
  char *p = cli_alloc(n + 1);
  memcpy(p, path, n);
  p[n] = '\0';
  c->v[c->n++] = (struct change){p, a, b};
}

static void free_changes(struct changes *c) {
  for (size_t i = 0; i < c->n; i++)
    free(c->v[i].path);
  free(c->v);
  *c = (struct changes){0};
}

static bool keyed(const tfr_value *v) {
  return v->type->kind == TFR_OBJECT || v->type->kind == TFR_MAP;
}

static bool sequence(const tfr_value *v) {
  return v->type->kind == TFR_LIST || v->type->kind == TFR_TUPLE;
}

static bool plain(const tfr_value *v) {
  return !v || (v->flags & (TFR_V_NULL | TFR_V_UNKNOWN));
}

/* The i-th key of an object or map value. */
static const char *key_of(const tfr_value *v, uint32_t i, size_t *n) {
  if (v->type->kind == TFR_OBJECT) {
    *n = strlen(v->type->names[i]);
    return v->type->names[i];
  }
  *n = v->keylens[i];
  return v->keys[i];
}

static int cmp_key(const char *x, size_t nx, const char *y, size_t ny) {
  int c = memcmp(x, y, nx < ny ? nx : ny);
  return c ? c : (nx > ny) - (nx < ny);
}

static void diff_values(struct changes *c, struct cli_buf *p,
                        const tfr_value *a, const tfr_value *b);

static bool known(const tfr_value *v) {
  return !v || tfr_value_is_wholly_known(v);
}

/* The next wholly known element of set v from *i on, or NULL. */
static const tfr_value *next_known(const tfr_value *v, uint32_t *i) {
  while (*i < v->n && !known(v->elems[*i]))
    ++*i;
  return *i < v->n ? v->elems[(*i)++] : NULL;
}

/* Two sets with unknown elements: whether their known elements differ.
** Sets keep cty's order, which does not depend on the other elements, so
** the known ones are compared in step. */
static bool sets_differ(const tfr_value *a, const tfr_value *b) {
  uint32_t i = 0, j = 0;
  for (;;) {
    const tfr_value *x = next_known(a, &i), *y = next_known(b, &j);
    if (!x || !y)
      return x || y;
    if (!tfr_value_equal(x, y))
      return true;
  }
}

/* Whether a and b differ in what is known of them: both wholly unknown
** (plan knows them only after apply) is nothing to compare; one known
** and the other not is a difference, as plan shows a value that becomes
** "(known after apply)"; objects, maps, lists and tuples with unknown
** parts are compared element by element (diff_values), sets by their
** known elements; else cty's Equals must say they differ whatever the
** unknowns turn out to be (a refinement that excludes the other). */
static bool may_differ(const tfr_value *a, const tfr_value *b) {
  bool ua = a->flags & TFR_V_UNKNOWN, ub = b->flags & TFR_V_UNKNOWN;
  if (ua || ub)
    return !(ua && ub);
  if (known(a) && known(b))
    return !tfr_value_equal(a, b);
  if ((keyed(a) && keyed(b)) || (sequence(a) && sequence(b)))
    return true;
  if (a->type->kind == TFR_SET && b->type->kind == TFR_SET &&
      !(a->flags & TFR_V_NULL) && !(b->flags & TFR_V_NULL))
    return sets_differ(a, b);
  return tfr_value_equals(a, b) == 0;
}

/* One step of the path, "[\"key\"]" or ".name" (an object attribute). */
static void key_step(struct cli_buf *p, const tfr_value *v, const char *k,
                     size_t n) {
  if (v->type->kind == TFR_OBJECT) {
    cli_buf_put(p, ".", 1);
    cli_buf_put(p, k, n);
    return;
  }
  cli_buf_put(p, "[", 1);
  char *buf = NULL;
  size_t len = 0;
  FILE *m = cli_memstream(&buf, &len);
  char *z = cli_alloc(n + 1);
  memcpy(z, k, n);
  z[n] = '\0';
  tfr_json_write_cstr(m, z);
  cli_memstream_close(m);
  cli_buf_put(p, buf, len);
  free(z);
  free(buf);
  cli_buf_put(p, "]", 1);
}

/* Both keyed: the union of their keys, each sorted, in one pass. */
static void diff_keyed(struct changes *c, struct cli_buf *p, const tfr_value *a,
                       const tfr_value *b) {
  uint32_t i = 0, j = 0;
  size_t mark = p->n;
  while (i < a->n || j < b->n) {
    size_t na = 0, nb = 0;
    const char *ka = i < a->n ? key_of(a, i, &na) : NULL;
    const char *kb = j < b->n ? key_of(b, j, &nb) : NULL;
    int o = !ka ? 1 : !kb ? -1 : cmp_key(ka, na, kb, nb);
    key_step(p, o <= 0 ? a : b, o <= 0 ? ka : kb, o <= 0 ? na : nb);
    if (o < 0)
      add_change(c, p->p, p->n, a->elems[i++], NULL);
    else if (o > 0)
      add_change(c, p->p, p->n, NULL, b->elems[j++]);
    else
      diff_values(c, p, a->elems[i++], b->elems[j++]);
    p->n = mark;
    if (p->p)
      p->p[mark] = '\0';
  }
}

static void diff_values(struct changes *c, struct cli_buf *p,
                        const tfr_value *a, const tfr_value *b) {
  if (a && b && !may_differ(a, b))
    return;
  if (!plain(a) && !plain(b) && keyed(a) && keyed(b)) {
    diff_keyed(c, p, a, b);
    return;
  }
  if (!plain(a) && !plain(b) && sequence(a) && sequence(b)) {
    size_t mark = p->n;
    uint32_t n = a->n > b->n ? a->n : b->n;
    for (uint32_t i = 0; i < n; i++) {
      char step[32];
      int k = snprintf(step, sizeof step, "[%u]", i);
      cli_buf_put(p, step, (size_t)k);
      diff_values(c, p, i < a->n ? a->elems[i] : NULL,
                  i < b->n ? b->elems[i] : NULL);
      p->n = mark;
      p->p[mark] = '\0';
    }
    return;
  }
  if (!a && !b)
    return;
  add_change(c, p->p ? p->p : "", p->n, a, b);
}

/* ---- output ------------------------------------------------------------ */

/* A value in one line: HCL, as show writes values (folded). */
static char *one_line(tfr_arena *a, const tfr_value *v) {
  return cli_strdup(v ? tfr_value_hcl_line(a, v) : "(absent)");
}

struct side {
  const struct tfr_resolution *res;
  tfr_diags *diags;
  const char **files;
  size_t nfiles;
};

/* The value a side gives a variable: plan's, or its preview. */
static const tfr_value *value_of(const struct tfr_variable *v) {
  return v ? (v->value ? v->value : v->preview) : NULL;
}

static const char *where(tfr_arena *a, const struct tfr_variable *v) {
  if (!v)
    return "(not declared)";
  const char *s = cli_source_text(a, v->source, v->source_file, v->source_line,
                                  v->name, v->source_via);
  if (!v->value && v->preview)
    return tfr_arena_printf(a, "%s, a preview: %s", s, v->reason);
  if (!v->value)
    return tfr_arena_printf(a, "%s, not resolved: %s", s,
                            v->reason ? v->reason : "see the errors");
  return s;
}

static void human_variable(tfr_arena *a, const struct tfr_variable *va,
                           const struct tfr_variable *vb,
                           const struct changes *c, const char *addr) {
  const struct tfr_variable *v = va ? va : vb;
  bool hide = (va && va->sensitive) || (vb && vb->sensitive);
  printf("~ %s%svar.%s\n", addr ? addr : "", addr ? "." : "", v->name);
  bool whole = c->n == 1 && !*c->v[0].path;
  for (int s = 0; s < 2; s++) {
    const struct tfr_variable *x = s ? vb : va;
    const char *val = "";
    if (hide)
      val = "(sensitive value)  ";
    else if (whole && !(s ? c->v[0].b : c->v[0].a))
      val = "(no value)  ";
    else if (whole) {
      char *t = one_line(a, s ? c->v[0].b : c->v[0].a);
      val = tfr_arena_printf(a, "%s  ", t);
      free(t);
    }
    printf("    %c: %sfrom %s\n", s ? 'b' : 'a', val, where(a, x));
  }
  if (hide || whole)
    return;
  for (size_t i = 0; i < c->n; i++) {
    char *x = one_line(a, c->v[i].a), *y = one_line(a, c->v[i].b);
    printf("    %s: %s -> %s\n", c->v[i].path, x, y);
    free(x);
    free(y);
  }
}

/* A key of an object or map value as a JSON string. */
static void json_key(const char *k, size_t n) {
  char *z = cli_alloc(n + 1);
  memcpy(z, k, n);
  z[n] = '\0';
  tfr_json_write_cstr(stdout, z);
  free(z);
}

/* A value not wholly known as Terraform's plan JSON writes it
** (internal/command/jsonplan/plan.go): its known parts as "after"
** (omitUnknowns: an unknown attribute or map element left out, an
** unknown element of a sequence or set null, its place kept), or where
** it is unknown as "after_unknown" (unknownAsBool: true for an unknown
** value, false for a known leaf, a sequence of each element's, an object
** of the attributes not wholly known).  Values JSON cannot hold
** (infinity) are null. */
static void json_parts(tfr_arena *a, const tfr_value *v, bool where) {
  bool unknown = v->flags & TFR_V_UNKNOWN;
  if (where && (unknown || known(v))) {
    fputs(unknown ? "true" : "false", stdout);
    return;
  }
  if (!where && (unknown || !tfr_value_json_encodable(v))) {
    fputs("null", stdout);
    return;
  }
  bool obj = keyed(v);
  if (known(v) || !(obj || sequence(v) || v->type->kind == TFR_SET)) {
    tfr_value_write_json(stdout, a, v);
    return;
  }
  fputc(obj ? '{' : '[', stdout);
  for (uint32_t i = 0, k = 0; i < v->n; i++) {
    const tfr_value *e = v->elems[i];
    if (obj && (where ? known(e) : (e->flags & TFR_V_UNKNOWN) != 0))
      continue;
    fputs(k++ ? ", " : "", stdout);
    if (obj) {
      size_t n;
      const char *key = key_of(v, i, &n);
      json_key(key, n);
      fputs(": ", stdout);
    }
    json_parts(a, e, where);
  }
  fputc(obj ? '}' : ']', stdout);
}

/* A value in JSON: cty's encoding, or null when hidden; a value not
** wholly known as plan's JSON has it, its known parts and where it is
** unknown ("<unknown>": true, or the structure of json_parts). */
static void json_value(tfr_arena *a, const tfr_value *val, bool hide,
                       const char *unknown) {
  if (val && !hide)
    json_parts(a, val, false);
  else
    fputs("null", stdout);
  if (val && !hide && !known(val)) {
    printf(", \"%s\": ", unknown);
    json_parts(a, val, true);
  }
}

static void json_side(tfr_arena *a, const struct tfr_variable *v,
                      const tfr_value *val, bool hide) {
  fputs("{\"value\": ", stdout);
  json_value(a, val, hide, "unknown");
  if (v) {
    printf(", \"resolved\": %s, \"source\": {\"kind\": \"%s\"",
           v->value ? "true" : "false", tfr_source_kind_name(v->source));
    if (v->source_file) {
      fputs(", \"file\": ", stdout);
      tfr_json_write_cstr(stdout, v->source_file);
    }
    if (v->source_line)
      printf(", \"line\": %d", v->source_line);
    if (v->source_via) {
      fputs(", \"via\": ", stdout);
      tfr_json_write_cstr(stdout, v->source_via);
    }
    fputc('}', stdout);
  }
  fputc('}', stdout);
}

static void json_variable(tfr_arena *a, const struct tfr_variable *va,
                          const struct tfr_variable *vb,
                          const struct changes *c, bool first,
                          const char *addr) {
  const struct tfr_variable *v = va ? va : vb;
  bool hide = (va && va->sensitive) || (vb && vb->sensitive);
  printf("%s  {\"variable\": ", first ? "\n" : ",\n");
  tfr_json_write_cstr(stdout, v->name);
  if (addr) {
    fputs(", \"module\": ", stdout);
    tfr_json_write_cstr(stdout, addr);
  }
  printf(", \"sensitive\": %s, \"a\": ", hide ? "true" : "false");
  json_side(a, va, value_of(va), hide);
  fputs(", \"b\": ", stdout);
  json_side(a, vb, value_of(vb), hide);
  if (!hide) {
    fputs(", \"changes\": [", stdout);
    for (size_t i = 0; i < c->n; i++) {
      fputs(i ? ", {\"path\": " : "{\"path\": ", stdout);
      tfr_json_write_cstr(stdout, c->v[i].path);
      for (int s = 0; s < 2; s++) {
        const tfr_value *x = s ? c->v[i].b : c->v[i].a;
        if (!x)
          continue; /* absent on that side */
        printf(", \"%c\": ", s ? 'b' : 'a');
        json_value(a, x, false, s ? "b_unknown" : "a_unknown");
      }
      fputc('}', stdout);
    }
    fputc(']', stdout);
  }
  fputc('}', stdout);
}

/* What a comparison found: how many variables were compared (the root's,
** the child instances'), how many differ, and how many of those that do
** not were known only in part (compared where known). */
struct tally {
  size_t root, child, differ, partly;
};

/* One variable of both sides (addr: its child instance, or NULL), printed
** if it differs, counted in t. */
static void compare_one(tfr_arena *a, struct cli_buf *p,
                        const struct tfr_variable *va,
                        const struct tfr_variable *vb, const char *addr,
                        const struct diff_opts *d, struct tally *t) {
  struct changes c = {0};
  p->n = 0;
  cli_buf_put(p, "", 0);
  const tfr_value *x = value_of(va), *y = value_of(vb);
  diff_values(&c, p, x, y);
  if (c.n && d->o.format == FMT_JSON)
    json_variable(a, va, vb, &c, t->differ == 0, addr);
  else if (c.n)
    human_variable(a, va, vb, &c, addr);
  t->differ += c.n > 0;
  t->partly += !c.n && x && y && (!known(x) || !known(y));
  *(addr ? &t->child : &t->root) += 1;
  free_changes(&c);
}

/* The variable of instance addr named name on a side, or NULL. */
static const struct tfr_variable *instance_var(const struct tfr_resolution *res,
                                               const char *addr,
                                               const char *name) {
  for (size_t i = 0; i < res->ninstances; i++) {
    const struct tfr_instance *in = tfr_resolution_instance(res, i);
    if (strcmp(in->address, addr))
      continue;
    for (size_t k = 0; k < in->n; k++)
      if (!strcmp(tfr_instance_variable(in, k)->name, name))
        return tfr_instance_variable(in, k);
  }
  return NULL;
}

/* Every differing variable, printed, and the tally: the root's, then
** each child instance's (of side a, then those only side b has). */
static struct tally compare(tfr_arena *a, const struct side *s,
                            const struct diff_opts *d) {
  struct tally t = {0, 0, 0, 0};
  struct cli_buf p = {0};
  for (size_t i = 0; i < s[0].res->n; i++) {
    const struct tfr_variable *va = tfr_resolution_variable(s[0].res, i);
    const struct tfr_variable *vb = tfr_resolution_find(s[1].res, va->name);
    compare_one(a, &p, va, vb, NULL, d, &t);
  }
  for (int k = 0; k < 2; k++)
    for (size_t i = 0; i < s[k].res->ninstances; i++) {
      const struct tfr_instance *in = tfr_resolution_instance(s[k].res, i);
      for (size_t j = 0; j < in->n; j++) {
        const struct tfr_variable *v = tfr_instance_variable(in, j);
        const struct tfr_variable *o =
            instance_var(s[!k].res, in->address, v->name);
        if (k && o)
          continue; /* compared from side a */
        compare_one(a, &p, k ? o : v, k ? v : o, in->address, d, &t);
      }
    }
  free(p.p);
  return t;
}

/* "No differences: ..." with what was compared, and what was known only
** in part. */
static void human_same(tfr_arena *a, const struct tally *t,
                       const struct tfr_resolution *res) {
  const char *children =
      t->child
          ? tfr_arena_printf(a, " (and %zu in %zu module instance%s)", t->child,
                             res->ninstances, res->ninstances == 1 ? "" : "s")
          : "";
  printf("No differences: the %zu variable%s%s resolve%s to the same values "
         "on both sides",
         t->root, t->root == 1 ? "" : "s", children,
         t->root == 1 && !t->child ? "s" : "");
  if (t->partly)
    printf(" (in %zu of them, what is known only after apply is not "
           "compared)",
           t->partly);
  puts(".");
}

static void json_files(const struct side *s) {
  fputs("{\"var_files\": [", stdout);
  for (size_t i = 0; i < s->nfiles; i++) {
    fputs(i ? ", " : "", stdout);
    tfr_json_write_cstr(stdout, s->files[i]);
  }
  printf("], \"valid\": %s, \"diagnostics\": ",
         s->res->valid ? "true" : "false");
  tfr_diags_render_json(s->diags, stdout);
  fputc('}', stdout);
}

/* The module in d->dir resolved twice, with each side's var files on top
** of the common sources (*sargs: the args buffer, the caller's to free);
** false after the module's load errors (said). */
static bool module_sides(tfr_arena *a, const struct diff_opts *d,
                         struct side *s, struct tfr_cli_arg **sargs, int argc) {
  tfr_diags *load = tfr_diags_new(a);
  tfr_module *mod = tfr_module_load(a, load, d->dir, d->opentofu);
  if (tfr_diags_has_errors(load)) {
    cli_print_diags(load, &d->o);
    return false;
  }
  *sargs = cli_calloc(d->nargs + (size_t)argc + 2, sizeof **sargs);
  for (int k = 0; k < 2; k++) {
    /* the common sources, then the side's files */
    size_t n = 0;
    for (size_t i = 0; i < d->nargs; i++)
      (*sargs)[n++] = d->args[i];
    for (size_t i = 0; i < d->nside[k]; i++)
      (*sargs)[n++] =
          (struct tfr_cli_arg){.file = true, .value = d->side[k][i]};
    struct tfr_resolve_opts o = TFR_RESOLVE_OPTS_INIT;
    o.dir = d->dir;
    o.env = d->no_env ? NULL : environ;
    o.args = *sargs;
    o.nargs = n;
    o.opentofu = d->opentofu;
    o.tree = !d->no_modules;
    s[k].diags = tfr_diags_new(a);
    tfr_diags_share_sources(s[k].diags, load);
    s[k].res = tfr_resolve_module(a, s[k].diags, mod, &o);
    s[k].files = d->side[k];
    s[k].nfiles = d->nside[k];
  }
  return true;
}

/* diff UNIT_A UNIT_B: two terragrunt units (directories holding
** terragrunt.hcl), each resolved with the values terragrunt passes its
** module; -var, -var-file and -no-env apply to both.  False after a unit
** that cannot be read or whose module is not checked (said). */
static bool unit_sides(tfr_arena *a, const struct diff_opts *d,
                       struct side *s) {
  for (int k = 0; k < 2; k++) {
    struct tfr_resolve_opts o = TFR_RESOLVE_OPTS_INIT;
    o.env = d->no_env ? NULL : environ;
    o.args = d->args;
    o.nargs = d->nargs;
    o.opentofu = d->opentofu;
    o.tree = !d->no_modules;
    s[k].diags = tfr_diags_new(a);
    s[k].files = d->side[k];
    s[k].nfiles = 1;
    int rc = EXIT_OK;
    s[k].res = cli_unit_resolve(a, &s[k].diags, d->side[k][0], &o, &rc);
    if (!s[k].res) {
      cli_print_diags(s[k].diags, &d->o);
      return false;
    }
  }
  return true;
}

static bool units(const struct diff_opts *d) {
  return d->nside[0] == 1 && d->nside[1] == 1 && cli_unit_here(d->side[0][0]) &&
         cli_unit_here(d->side[1][0]);
}

static int run(struct cli_opts *co) {
  struct diff_opts d = {0};
  int argc = co->argc;
  int rc = EXIT_USAGE;
  tfr_arena *a = NULL;
  struct tfr_cli_arg *sargs = NULL;
  if (!diff_flags(co, &d))
    goto out;
  struct side s[2];
  a = tfr_arena_new();
  if (units(&d)) {
    if (!unit_sides(a, &d, s))
      goto out;
  } else if (!cli_module_dir_ok("diff", d.dir) ||
             !module_sides(a, &d, s, &sargs, argc)) {
    goto out;
  }
  bool valid = s[0].res->valid && s[1].res->valid;
  /* a var file that cannot be read (a typo in its name): that error
  ** alone, not a comparison with a side that has no values */
  bool unreadable = cli_unreadable_var_file(s[0].diags) ||
                    cli_unreadable_var_file(s[1].diags);
  if (d.o.format == FMT_JSON)
    fputs("{\"format_version\": \"1.4\",\n \"differences\": [", stdout);
  struct tally t = {0, 0, 0, 0};
  if (!unreadable)
    t = compare(a, s, &d);
  size_t ndiff = t.differ;
  if (d.o.format == FMT_JSON) {
    printf("%s],\n \"equal\": %s,\n \"a\": ", ndiff ? "\n " : "",
           ndiff || unreadable ? "false" : "true");
    json_files(&s[0]);
    fputs(",\n \"b\": ", stdout);
    json_files(&s[1]);
    fputs("}\n", stdout);
  } else {
    if (unreadable)
      ;
    else if (!ndiff)
      human_same(a, &t, s[0].res);
    else
      printf("%zu variable%s differ%s.\n", ndiff, ndiff == 1 ? "" : "s",
             ndiff == 1 ? "s" : "");
    fflush(stdout);
    for (int k = 0; k < 2; k++)
      if (tfr_diags_count(s[k].diags)) {
        fprintf(stderr, "tfresolve diff: side %c (%s%s):\n", k ? 'b' : 'a',
                s[k].files[0], s[k].nfiles > 1 ? ", ..." : "");
        cli_print_diags(s[k].diags, &d.o);
      }
  }
  rc = !valid || unreadable ? EXIT_USAGE : ndiff ? EXIT_INVALID : EXIT_OK;
out:
  if (a)
    tfr_arena_free(a);
  free(sargs);
  return rc;
}

static const struct cli_option options[] = {
    CLI_OPT_LIST("a", "FILE", side_a,
                 "A var file of side a (repeatable: layers, in order; "
                 "instead of the A and B operands)"),
    CLI_OPT_LIST("b", "FILE", side_b, "A var file of side b (as -a)"),
    CLI_OPT_INCLUDE(cli_opts_sources),
    CLI_OPT_INCLUDE(cli_opts_chdir),
    CLI_OPT_INCLUDE(cli_opts_no_env),
    CLI_OPT_INCLUDE(cli_opts_engine),
    CLI_OPT_INCLUDE(cli_opts_json),
    CLI_OPT_INCLUDE(cli_opts_no_modules),
    CLI_OPT_INCLUDE(cli_opts_sensitive),
    CLI_OPT_INCLUDE(cli_opts_no_color),
    CLI_OPT_INCLUDE(cli_opts_help),
    CLI_OPT_END};

const struct cli_command cli_cmd_diff = {
    .name = "diff",
    .summary = "Two var files side by side: the variables they resolve\n"
               "differently",
    .run = run,
    .options = options,
    .usage =
        "Usage: tfresolve diff [options] A.tfvars B.tfvars [DIR]\n"
        "       tfresolve diff [options] -a=FILE... -b=FILE... [DIR]\n"
        "\n"
        "Resolve the module in DIR (default: the current directory) twice: "
        "side\n"
        "a with var file A on top of the module's own value sources, side b\n"
        "with B, and show the variables whose values differ: both values with\n"
        "where each came from, nested differences by path (tags[\"env\"]);\n"
        "then those of each child module instance (module.app.var.size).\n"
        "What plan knows only after apply (resources, data sources) is no\n"
        "difference on both sides, and shown as (known after apply) beside a\n"
        "known value; known parts are compared.\n"
        "Sensitive values are compared but never shown (-show-sensitive is\n"
        "accepted and changes nothing).  -var, -var-file, -no-env and\n"
        "-engine apply to both sides, as for show (the side's files come\n"
        "last).\n"
        "\n"
        "With two terragrunt units (directories holding terragrunt.hcl) as A\n"
        "and B, each side is its unit's module with the values terragrunt\n"
        "passes it (dev against prod).\n",
    .footer = "Exit status: 0 the values are equal, 1 they differ, 2 usage "
              "error or\n"
              "a side that does not resolve (its errors are shown).\n"};
