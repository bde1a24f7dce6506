/*
** A module's interface as data (tfresolve/interface.h): the loader's
** variables and module calls, and the blocks the loader does not keep --
** outputs' descriptions, the terraform block's required_version and
** required_providers, provider blocks, resources and data sources -- read
** again from the files the loader read.  What is collected, and how a
** requirement is merged, follows HashiCorp's terraform-config-inspect
** (tfconfig/load_hcl.go:280-605, LoadModuleFromFile; tfconfig/load.go:61-82,
** the providers resources imply; tfconfig/provider_ref.go:28-120,
** required_providers entries).  Its errors were the load's: none is
** reported again here.
*/
#include <stdlib.h>
#include <string.h>

#include "base/arena_int.h"
#include "eval/eval.h"
#include "base/strutil.h"
#include "module/module.h"
#include "module/tree.h"
#include "syntax/body.h"
#include "syntax/parse.h"
#include "tfresolve/interface.h"
#include "values/convert.h"

struct ictx {
  tfr_arena *a, *trees;
  tfr_diags *scratch; /* errors already said by the load */
  const struct module *m;
  struct tfr_iface_output *outs;
  size_t nouts, ocap;
  const char **core;
  size_t ncore, ccap;
  struct tfr_iface_provider *provs;
  size_t nprovs, pcap;
  struct tfr_iface_resource *res;
  size_t nres, rcap;
  struct tfr_iface_provider_config *cfgs;
  size_t ncfgs, fcap;
};

/* ---- texts and constants ----------------------------------------------- */

static const char *span_text(tfr_arena *a, const struct src_file *src,
                             struct span s) {
  if (!src || s.end < s.start || s.end > src->len)
    return NULL;
  return tfr_arena_strndup(a, src->text + s.start, s.end - s.start);
}

/* The text of r, in the module file it names. */
static const char *range_text(struct ictx *c, const struct tfr_range *r) {
  if (!r->filename)
    return NULL;
  for (size_t i = 0; i < c->m->nfiles; i++)
    if (!strcmp(c->m->files[i]->name, r->filename))
      return span_text(
          c->a, c->m->files[i],
          (struct span){(uint32_t)r->start.byte, (uint32_t)r->end.byte});
  return NULL;
}

/* A type written as a string (a .tf.json file's, or a legacy quoted type
** in HCL) is given as the string holds it, as terraform-config-inspect
** decodes it first (load_hcl.go:341-356); other text as it is. */
static const char *unquote(tfr_arena *a, const char *t) {
  size_t n = t ? strlen(t) : 0;
  if (n < 2 || t[0] != '"' || t[n - 1] != '"' || memchr(t + 1, '\n', n - 2))
    return t;
  for (size_t i = 1; i + 1 < n; i++) {
    if (t[i] == '\\')
      i++;
    else if (t[i] == '"' || ((t[i] == '$' || t[i] == '%') && t[i + 1] == '{'))
      return t; /* not one string, or a template */
  }
  char *out = tfr_arena_alloc(a, n + 1);
  uint32_t len = 0;
  if (json_unescape(t, (uint32_t)n, out, &len) != 0)
    return t;
  out[len] = '\0';
  return out;
}

/* The string a quoted literal stands for, when it has no interpolation
** and only simple escapes; NULL otherwise (a template, a heredoc). */
static const char *literal_string(tfr_arena *a, const char *t) {
  size_t n = t ? strlen(t) : 0;
  if (n < 2 || t[0] != '"' || t[n - 1] != '"')
    return NULL;
  char *out = tfr_arena_alloc(a, n), *o = out;
  for (size_t i = 1; i + 1 < n; i++) {
    char ch = t[i];
    if ((ch == '$' || ch == '%') && t[i + 1] == '{')
      return NULL;
    if (ch == '"' || ch == '\n')
      return NULL;
    if (ch != '\\') {
      *o++ = ch;
      continue;
    }
    ch = t[++i];
    if (ch == 'n' || ch == 't' || ch == 'r')
      *o++ = ch == 'n' ? '\n' : ch == 't' ? '\t' : '\r';
    else if (ch == '"' || ch == '\\')
      *o++ = ch;
    else
      return NULL;
  }
  *o = '\0';
  return out;
}

static const struct ast *built(struct ictx *c, struct src_file *src,
                               const struct ast *x) {
  if (!x || !(x->flags & AST_F_LAZY))
    return x;
  const struct ast *t = parse_config_lazy(src, c->trees, c->scratch, x);
  return t ? t : x;
}

/* x as a constant string (gohcl.DecodeExpression into a string), or
** NULL. */
static const char *const_str(struct ictx *c, struct src_file *src,
                             const struct ast *x) {
  x = built(c, src, x);
  if (!x)
    return NULL;
  size_t before = tfr_diags_count(c->scratch);
  const tfr_value *v = eval_const(c->a, c->scratch, src, x);
  if (tfr_diags_count(c->scratch) > before || !v)
    return NULL;
  const char *e = NULL;
  v = conv_convert(c->a, v, &tfr_t_string, &e);
  if (!v || (v->flags & (TFR_V_NULL | TFR_V_UNKNOWN)))
    return NULL;
  return tfr_arena_strndup(c->a, v->s, v->n);
}

static bool const_bool(struct ictx *c, struct src_file *src,
                       const struct ast *x) {
  x = built(c, src, x);
  if (!x)
    return false;
  const tfr_value *v = eval_const(c->a, c->scratch, src, x);
  const char *e = NULL;
  v = v ? conv_convert(c->a, v, &tfr_t_bool, &e) : NULL;
  return v && !(v->flags & (TFR_V_NULL | TFR_V_UNKNOWN)) && v->b;
}

/* ---- variables ---------------------------------------------------------- */

/* The optional-attribute defaults below d, at path. */
static void walk_defaults(tfr_arena *a, const struct tfr_defaults *d,
                          const char *path, struct tfr_iface_default **out,
                          size_t *n, size_t *cap) {
  if (!d)
    return;
  for (uint32_t i = 0; i < d->nvalues; i++) {
    ARENA_GROW(a, *out, *n, *cap, 4);
    (*out)[(*n)++] = (struct tfr_iface_default){
        tfr_arena_printf(a, "%s.%s", path, d->value_names[i]), d->values[i]};
  }
  for (uint32_t i = 0; i < d->nchildren; i++) {
    const char *k = d->child_keys[i];
    const char *p;
    if (!*k)
      p = tfr_arena_printf(a, "%s[*]", path);
    else if (d->type && d->type->kind == TFR_TUPLE)
      p = tfr_arena_printf(a, "%s[%s]", path, k);
    else
      p = tfr_arena_printf(a, "%s.%s", path, k);
    walk_defaults(a, d->children[i], p, out, n, cap);
  }
}

/* A validation block as written: its condition's and message's text
** (a .tf.json file's are its JSON strings, quotes included), the
** message itself when it is one plain string, and what the condition
** says of the variable's values. */
static void one_rule(struct ictx *c, const struct var_decl *v,
                     const struct validation *val, struct tfr_iface_rule *r) {
  r->range = val->range.filename ? val->range : src_range(val->src, val->block);
  r->condition = span_text(c->a, val->src, val->cond_span);
  r->error_message = span_text(c->a, val->src, val->msg_span);
  r->message = literal_string(c->a, r->error_message);
  /* a rule sharing another's tree names that rule's variable */
  module_rule_reading(c->a, val->condition, val->alias ? val->alias : v->name,
                      r);
}

/* A variable as the loader merged it (override files included). */
static void one_variable(struct ictx *c, const struct var_decl *v,
                         struct tfr_iface_variable *o) {
  o->name = v->name;
  o->decl = v->decl;
  o->type = v->type_range.filename
                ? unquote(c->a, range_text(c, &v->type_range))
                : NULL;
  o->constraint = v->type;
  o->default_given = v->has_default ? v->dflt_given : NULL;
  o->default_value = v->has_default ? v->dflt : NULL;
  o->required = !v->has_default;
  o->description = v->description;
  o->deprecated = v->deprecated;
  o->sensitive = v->sensitive;
  o->nullable = v->nullable;
  o->ephemeral = v->ephemeral;
  o->is_const = v->is_const;
  struct tfr_iface_rule *rules =
      tfr_arena_alloc(c->a, (v->nvalidations + 1) * sizeof *rules);
  for (size_t k = 0; k < v->nvalidations; k++)
    one_rule(c, v, &v->validations[k], &rules[k]);
  o->rules = rules;
  o->nrules = v->nvalidations;
  struct tfr_iface_default *d = NULL;
  size_t n = 0, cap = 0;
  walk_defaults(c->a, v->defaults, "", &d, &n, &cap);
  o->defaults = d;
  o->ndefaults = n;
}

/* ---- outputs ------------------------------------------------------------ */

static struct tfr_iface_output *output_named(struct ictx *c, const char *name,
                                             size_t len, bool ovr) {
  for (size_t i = 0; i < c->nouts; i++)
    if (strlen(c->outs[i].name) == len && !memcmp(c->outs[i].name, name, len))
      return &c->outs[i];
  if (ovr)
    return NULL; /* an override of nothing: the load said so */
  ARENA_GROW(c->a, c->outs, c->nouts, c->ocap, 8);
  struct tfr_iface_output *o = &c->outs[c->nouts++];
  memset(o, 0, sizeof *o);
  o->name = tfr_arena_strndup(c->a, name, len);
  return o;
}

static void output_body(struct ictx *c, struct src_file *src,
                        struct tfr_iface_output *o, const struct ast *body,
                        bool json) {
  struct body_iter it = body_start(body, json, NULL);
  struct body_item x;
  while (body_next(&it, &x)) {
    if (x.is_block || !x.value)
      continue;
    const struct ast *v = built(c, src, x.value);
    if (body_item_is(&x, "description"))
      o->description = const_str(c, src, v);
    else if (body_item_is(&x, "deprecated"))
      o->deprecated = const_str(c, src, v);
    else if (body_item_is(&x, "sensitive"))
      o->sensitive = const_bool(c, src, v);
    else if (body_item_is(&x, "ephemeral"))
      o->ephemeral = const_bool(c, src, v);
    else if (body_item_is(&x, "type"))
      o->type = unquote(c->a, span_text(c->a, src, v->span));
    else if (body_item_is(&x, "value"))
      o->value = span_text(c->a, src, v->span);
  }
}

/* ---- providers ---------------------------------------------------------- */

static struct tfr_iface_provider *provider_named(struct ictx *c,
                                                 const char *name, size_t len) {
  for (size_t i = 0; i < c->nprovs; i++)
    if (strlen(c->provs[i].name) == len && !memcmp(c->provs[i].name, name, len))
      return &c->provs[i];
  ARENA_GROW(c->a, c->provs, c->nprovs, c->pcap, 8);
  struct tfr_iface_provider *p = &c->provs[c->nprovs++];
  memset(p, 0, sizeof *p);
  p->name = tfr_arena_strndup(c->a, name, len);
  return p;
}

static void add_str(tfr_arena *a, const char *const **v, size_t *n,
                    const char *s) {
  const char **nv = tfr_arena_alloc(a, (*n + 1) * sizeof *nv);
  if (*n)
    memcpy(nv, *v, *n * sizeof *nv);
  nv[(*n)++] = s;
  *v = nv;
}

static bool key_is(const struct ast *key, const char *name) {
  size_t n = strlen(name);
  return key && (key->kind == AST_VARIABLE || key->kind == AST_STRING) &&
         key->n == n && !memcmp(key->str, name, n);
}

/* One entry of required_providers: a version string (legacy) or an
** object of source, version and configuration_aliases. */
static void requirement(struct ictx *c, struct src_file *src,
                        const struct body_item *it) {
  const struct ast *x = built(c, src, it->value);
  struct tfr_iface_provider *p = provider_named(c, it->name, it->len);
  if (x->kind != AST_OBJECT) {
    const char *v = const_str(c, src, x);
    if (v)
      add_str(c->a, &p->versions, &p->nversions, v);
    return;
  }
  for (uint32_t j = 0; j < x->n; j++) {
    const struct ast *k = x->items[2 * j], *v = x->items[2 * j + 1];
    if (key_is(k, "source")) {
      const char *s = const_str(c, src, v);
      if (s)
        p->source = s;
    } else if (key_is(k, "version")) {
      const char *s = const_str(c, src, v);
      if (s)
        add_str(c->a, &p->versions, &p->nversions, s);
    } else if (key_is(k, "configuration_aliases") && v->kind == AST_TUPLE) {
      for (uint32_t e = 0; e < v->n; e++)
        add_str(c->a, &p->aliases, &p->naliases,
                unquote(c->a, span_text(c->a, src, v->items[e]->span)));
    }
  }
}

static void terraform_body(struct ictx *c, struct src_file *src,
                           const struct ast *body, bool json) {
  static const char *const blocks[] = {"required_providers", "backend", "cloud",
                                       NULL};
  struct body_iter it = body_start(body, json, blocks);
  struct body_item x;
  while (body_next(&it, &x)) {
    if (!x.is_block && body_item_is(&x, "required_version")) {
      const char *v = const_str(c, src, x.value);
      if (v) {
        ARENA_GROW(c->a, c->core, c->ncore, c->ccap, 2);
        c->core[c->ncore++] = v;
      }
      continue;
    }
    if (!x.is_block || !body_item_is(&x, "required_providers"))
      continue;
    const struct ast *one;
    size_t n = 1;
    const struct ast *const *bodies =
        json ? ast_json_blocks(x.body, &one, &n) : &x.body;
    for (size_t i = 0; i < n; i++) {
      struct body_iter rp = body_start(bodies[i], json, NULL);
      struct body_item r;
      while (body_next(&rp, &r))
        if (!r.is_block && r.value)
          requirement(c, src, &r);
    }
  }
}

/* A provider block: a requirement (its version a constraint) and a
** configuration, by name and alias (load_hcl.go:437-478; a later block of
** the same key replaces an earlier one there, as a map entry). */
static void provider_body(struct ictx *c, struct src_file *src,
                          const char *name, size_t len, const struct ast *body,
                          bool json, struct span decl) {
  struct tfr_iface_provider *p = provider_named(c, name, len);
  const char *alias = NULL;
  struct body_iter it = body_start(body, json, NULL);
  struct body_item x;
  while (body_next(&it, &x)) {
    if (x.is_block)
      continue;
    if (body_item_is(&x, "version")) {
      const char *v = const_str(c, src, x.value);
      if (v)
        add_str(c->a, &p->versions, &p->nversions, v);
    } else if (body_item_is(&x, "alias")) {
      const char *v = const_str(c, src, x.value);
      alias = v && *v ? v : NULL;
    }
  }
  for (size_t i = 0; i < c->ncfgs; i++)
    if (!strcmp(c->cfgs[i].name, p->name) &&
        (alias ? c->cfgs[i].alias && !strcmp(c->cfgs[i].alias, alias)
               : !c->cfgs[i].alias)) {
      c->cfgs[i].decl = src_range(src, decl);
      return;
    }
  ARENA_GROW(c->a, c->cfgs, c->ncfgs, c->fcap, 4);
  c->cfgs[c->ncfgs++] =
      (struct tfr_iface_provider_config){p->name, alias, src_range(src, decl)};
}

/* ---- resources ---------------------------------------------------------- */

static void resource(struct ictx *c, struct src_file *src, bool data,
                     const char *type, size_t tlen, const char *name,
                     size_t nlen, const struct ast *body, bool json,
                     struct span decl) {
  ARENA_GROW(c->a, c->res, c->nres, c->rcap, 16);
  struct tfr_iface_resource *r = &c->res[c->nres++];
  memset(r, 0, sizeof *r);
  r->data = data;
  r->type = tfr_arena_strndup(c->a, type, tlen);
  r->name = tfr_arena_strndup(c->a, name, nlen);
  r->decl = src_range(src, decl);
  /* resourceTypeDefaultProviderName (tfconfig/resource.go:62) */
  const char *us = memchr(type, '_', tlen);
  r->provider = tfr_arena_strndup(c->a, type, us ? (size_t)(us - type) : tlen);
  struct body_iter it = body_start(body, json, NULL);
  struct body_item x;
  while (body_next(&it, &x)) {
    if (x.is_block || !body_item_is(&x, "provider") || !x.value)
      continue;
    const char *t =
        unquote(c->a, span_text(c->a, src, built(c, src, x.value)->span));
    const char *dot = t ? strchr(t, '.') : NULL;
    if (!t)
      continue;
    r->provider = dot ? tfr_arena_strndup(c->a, t, (size_t)(dot - t)) : t;
    r->alias = dot ? dot + 1 : NULL;
  }
}

/* ---- the files ---------------------------------------------------------- */

static const char *label(const struct ast *labels, uint32_t i, size_t *len) {
  if (!labels || labels->n <= i)
    return NULL;
  *len = labels->items[i]->n;
  return labels->items[i]->str;
}

static void native_block(struct ictx *c, struct src_file *src,
                         const struct body_item *it, bool ovr) {
  size_t l0 = 0, l1 = 0;
  const char *n0 = label(it->labels, 0, &l0), *n1 = label(it->labels, 1, &l1);
  if (body_item_is(it, "terraform")) {
    terraform_body(c, src, it->body, false);
  } else if (body_item_is(it, "output") && n0) {
    struct tfr_iface_output *o = output_named(c, n0, l0, ovr);
    if (o && !ovr)
      o->decl =
          src_range(src, (struct span){it->span.start, it->labels->span.end});
    if (o)
      output_body(c, src, o, it->body, false);
  } else if (body_item_is(it, "provider") && n0 && !ovr) {
    provider_body(c, src, n0, l0, it->body, false,
                  (struct span){it->span.start, it->labels->span.end});
  } else if ((body_item_is(it, "resource") || body_item_is(it, "data")) && n0 &&
             n1 && !ovr) {
    resource(c, src, body_item_is(it, "data"), n0, l0, n1, l1, it->body, false,
             (struct span){it->span.start, it->labels->span.end});
  }
}

/* {"output": {"NAME": {...}}}, {"resource": {"TYPE": {"NAME": {...}}}} */
static void json_block(struct ictx *c, struct src_file *src,
                       const struct body_item *it, bool ovr) {
  struct json_members m1, m2;
  if (body_item_is(it, "terraform")) {
    const struct ast *one;
    size_t n = 1;
    const struct ast *const *b = ast_json_blocks(it->body, &one, &n);
    for (size_t i = 0; i < n; i++)
      terraform_body(c, src, b[i], true);
    return;
  }
  bool out = body_item_is(it, "output"), prov = body_item_is(it, "provider");
  bool data = body_item_is(it, "data");
  if (!out && !prov && !data && !body_item_is(it, "resource"))
    return;
  for (ast_json_members(&m1, it->body); ast_json_next(&m1);) {
    const struct ast *k = m1.key;
    if (out) {
      struct tfr_iface_output *o = output_named(c, k->str, k->n, ovr);
      if (o && !ovr)
        o->decl = src_range(src, k->span);
      if (o)
        output_body(c, src, o, m1.value, true);
    } else if (prov && !ovr) {
      const struct ast *one;
      size_t n = 1;
      const struct ast *const *b = ast_json_blocks(m1.value, &one, &n);
      for (size_t i = 0; i < n; i++)
        provider_body(c, src, k->str, k->n, b[i], true, k->span);
    } else if (!ovr) {
      for (ast_json_members(&m2, m1.value); ast_json_next(&m2);)
        resource(c, src, data, k->str, k->n, m2.key->str, m2.key->n, m2.value,
                 true, m2.key->span);
    }
  }
}

static const char *const top_blocks[] = {
    "terraform", "provider", "variable", "locals",    "output",
    "module",    "resource", "data",     "ephemeral", "action",
    "moved",     "removed",  "import",   "check",     NULL};

static bool is_override_name(const char *path) {
  const char *b = strrchr(path, '/');
  b = b ? b + 1 : path;
  const char *dot = strchr(b, '.');
  size_t n = dot ? (size_t)(dot - b) : strlen(b);
  return (n == 8 && !strncmp(b, "override", 8)) ||
         (n >= 9 && !strncmp(b + n - 9, "_override", 9));
}

static void read_file(struct ictx *c, struct src_file *src) {
  bool complete;
  struct ast_file *f = parse_config(src, c->trees, c->scratch, &complete);
  if (!f)
    return;
  bool ovr = is_override_name(src->name);
  struct body_iter it =
      body_start(f->body, f->json, f->json ? top_blocks : NULL);
  struct body_item x;
  while (body_next(&it, &x)) {
    if (!x.is_block)
      continue;
    if (f->json)
      json_block(c, src, &x, ovr);
    else
      native_block(c, src, &x, ovr);
  }
}

/* ---- the whole ---------------------------------------------------------- */

static int by_output(const void *x, const void *y) {
  return strcmp(((const struct tfr_iface_output *)x)->name,
                ((const struct tfr_iface_output *)y)->name);
}
static int by_provider(const void *x, const void *y) {
  return strcmp(((const struct tfr_iface_provider *)x)->name,
                ((const struct tfr_iface_provider *)y)->name);
}
static int by_config(const void *x, const void *y) {
  const struct tfr_iface_provider_config *p = x, *q = y;
  int t = strcmp(p->name, q->name);
  if (t || !p->alias || !q->alias)
    return t ? t : (p->alias != NULL) - (q->alias != NULL);
  return strcmp(p->alias, q->alias);
}
static int by_resource(const void *x, const void *y) {
  const struct tfr_iface_resource *p = x, *q = y;
  if (p->data != q->data)
    return p->data ? 1 : -1;
  int t = strcmp(p->type, q->type);
  return t ? t : strcmp(p->name, q->name);
}

static void calls_of(struct ictx *c, struct tfr_interface *f) {
  const struct module *m = c->m;
  struct tfr_iface_call *calls =
      tfr_arena_alloc(c->a, (m->ncalls + 1) * sizeof *calls);
  for (size_t i = 0; i < m->ncalls; i++) {
    const struct module_call *mc = &m->calls[i];
    struct tfr_iface_call *o = &calls[i];
    memset(o, 0, sizeof *o);
    o->name = mc->name;
    o->decl = src_range(mc->src, mc->decl);
    if (mc->source_expr)
      o->source_expr = span_text(c->a, mc->source_src, mc->source_span);
    else
      o->source = mc->source;
    o->version = mc->version;
  }
  f->calls = calls;
  f->ncalls = m->ncalls;
}

const struct tfr_interface *module_interface(tfr_arena *a,
                                             const struct module *m) {
  struct ictx c = {0};
  c.a = a;
  c.m = m;
  c.trees = tfr_arena_new();
  c.scratch = tfr_diags_new(c.trees);
  struct tfr_interface *f = tfr_arena_alloc(a, sizeof *f);
  memset(f, 0, sizeof *f);
  f->path = m->dir;
  f->has_config = m->has_config;
  struct tfr_iface_variable *vars =
      tfr_arena_alloc(a, (m->nvars + 1) * sizeof *vars);
  for (size_t i = 0; i < m->nvars; i++) {
    memset(&vars[i], 0, sizeof vars[i]);
    one_variable(&c, &m->vars[i], &vars[i]);
  }
  f->vars = vars;
  f->nvars = m->nvars;
  for (size_t i = 0; i < m->nfiles; i++)
    read_file(&c, m->files[i]);
  /* the providers resources imply (tfconfig/load.go:67-76) */
  for (size_t i = 0, n = c.nres; i < n; i++)
    provider_named(&c, c.res[i].provider, strlen(c.res[i].provider));
  if (c.nouts > 1)
    qsort(c.outs, c.nouts, sizeof *c.outs, by_output);
  if (c.nprovs > 1)
    qsort(c.provs, c.nprovs, sizeof *c.provs, by_provider);
  if (c.nres > 1)
    qsort(c.res, c.nres, sizeof *c.res, by_resource);
  if (c.ncfgs > 1)
    qsort(c.cfgs, c.ncfgs, sizeof *c.cfgs, by_config);
  f->configs = c.cfgs;
  f->nconfigs = c.ncfgs;
  f->outputs = c.outs;
  f->noutputs = c.nouts;
  f->required_core = c.core;
  f->nrequired_core = c.ncore;
  f->providers = c.provs;
  f->nproviders = c.nprovs;
  f->resources = c.res;
  f->nresources = c.nres;
  calls_of(&c, f);
  tfr_arena_free(c.trees);
  return f;
}

/* ---- the configuration tree's modules ---------------------------------- */

const struct tfr_instance *
tfr_resolution_config_modules(const struct tfr_resolution *res, size_t *n) {
  const struct tree *t = resolve_tree(res);
  const struct tfr_instance *out = NULL;
  *n = t ? tree_config_modules(UNCONST(struct tree *, t), &out) : 0;
  return *n ? out : NULL;
}

const char *const *
tfr_resolution_config_depends_on(const struct tfr_resolution *res, size_t i,
                                 size_t *n) {
  const struct tree *t = resolve_tree(res);
  *n = 0;
  return t ? tree_config_depends_on(t, i, n) : NULL;
}

/* A .tf.json value where an expression is expected is read by the
** loader as hcl evaluates it with a context (its strings templates);
** without one hcl gives every string as written (hcl's json/structure.go
** expression.Value: a stringVal is parsed as a template only when ctx is
** not nil).  A top-level string's template has its own source, the
** string's text (source.h: base); an array or object is read again as
** JSON from its file. */
const tfr_value *tfr_expr_constant_value(tfr_arena *a, const tfr_file *expr) {
  struct src_file *src = expr->f.src;
  const struct ast *x = expr->f.body;
  if (src->base.line > 0)
    return tfr_string(a, src->text, src->len);
  tfr_diags *d = tfr_diags_new(a);
  size_t nlen = strlen(src->name);
  if ((x->kind == AST_TUPLE || x->kind == AST_OBJECT) && nlen > 5 &&
      !strcmp(src->name + nlen - 5, ".json")) {
    const struct tfr_file *f =
        parse_bytes(a, d, src->name, src->text + x->span.start,
                    x->span.end - x->span.start, TFR_SYNTAX_JSON);
    if (!f || tfr_diags_has_errors(d))
      return NULL;
    src = f->f.src;
    x = f->f.body;
  }
  const tfr_value *v = eval_const(a, d, src, x);
  return tfr_diags_has_errors(d) ? NULL : v;
}
