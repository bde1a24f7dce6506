/*
** Loading a module directory (Terraform's configs package): which files make up
*the module,
** the top-level schema, and the `variable` blocks, merged with override
** files, with Terraform's diagnostics.
*/
#include "module/module.h"
#include "base/heap.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "base/arena_int.h"
#include "syntax/body.h"
#include "module/calls.h"
#include "base/diag_int.h"
#include "module/engine_tofu.h"
#include "eval/eval.h"
#include "syntax/parse.h"
#include "base/dirlist.h"
#include "eval/refs.h"
#include "module/strict.h"
#include "values/secret.h"
#include "base/strutil.h"
#include "eval/typeexpr.h"

/* ---- files ------------------------------------------------------------- */

/* Names Terraform ignores: hidden files and editor leftovers. */
static bool ignored_name(const char *name) {
  size_t n = strlen(name);
  return name[0] == '.' || (n && name[n - 1] == '~') ||
         (n > 1 && name[0] == '#' && name[n - 1] == '#');
}

/* dir_list's keep: the files Terraform reads as configuration. */
static bool config_entry(const char *dir, const char *name, void *ctx) {
  return !ignored_name(name) && dir_keep_files(dir, name, ctx);
}

static int cmp_name(const void *x, const void *y) {
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* For OpenTofu: is there an x.tofu (x.tofu.json) for this x.tf
** (x.tf.json)?  names are sorted (dir_list): found by binary search (a
** look through them all for each file was quadratic in their number). */
static bool has_tofu_twin(tfr_arena *a, const char **names, size_t n,
                          const char *tf) {
  bool json = str_ends_with(tf, ".tf.json");
  int base = (int)(strlen(tf) - (json ? 8 : 3));
  const char *twin =
      tfr_arena_printf(a, "%.*s%s", base, tf, json ? ".tofu.json" : ".tofu");
  return n && bsearch(&twin, names, n, sizeof *names, cmp_name);
}

static bool is_override(const char *name) {
  const char *ext = str_ends_with(name, ".tf.json")     ? ".tf.json"
                    : str_ends_with(name, ".tofu.json") ? ".tofu.json"
                    : str_ends_with(name, ".tofu")      ? ".tofu"
                                                        : ".tf";
  size_t base = strlen(name) - strlen(ext);
  return (base == 8 && strncmp(name, "override", 8) == 0) ||
         (base >= 9 && strncmp(name + base - 9, "_override", 9) == 0);
}

/* ---- decoding helpers -------------------------------------------------- */

/* A type constraint already decoded (loader.types, by the text of its
** expression: a type expression is a pure function of its text, no
** references, no function calls; a module repeats a few types often). */
struct decoded_type {
  const tfr_type *type;
  const struct tfr_defaults *defaults;
};

struct loader {
  tfr_arena *a;
  tfr_diags *diags;
  struct module *m;
  size_t cap;
  struct strmap names; /* declared name -> index in m->vars */
  size_t lcap;
  struct strmap lnames;     /* local name -> index in m->locals */
  size_t ocap;              /* m->objects, while loading */
  size_t pcap;              /* m->providers.names, while loading */
  struct bytemap types;     /* text -> struct decoded_type (in the arena) */
  struct bytemap rule_keys; /* refs_rule_key -> text_key */
  uint32_t nrule_keys;
  struct sbuf keybuf;
  struct bytemap templates; /* lexical_key -> struct rule_template */
  /* the file being read block by block: the parser's numbers of a rule's
  ** condition and message text (parse_cut_name cut) -> its template, or
  ** no_template when such rules cannot share */
  struct bytemap file_templates;
  struct src_file *seq_src; /* positions of declarations, in file order */
  struct src_cursor seq;
  struct src_file *streaming; /* the file parse_config_stream reads */
  tfr_arena *trees;           /* where syntax trees go */
  struct calls_loader *calls; /* module and output blocks */
};

/* The range of s in src, for positions asked for in file order: lines
** are counted on from the last one asked for. */
static struct tfr_range seq_range(struct loader *l, struct src_file *src,
                                  struct span s) {
  if (src != l->seq_src) {
    l->seq_src = src;
    l->seq = (struct src_cursor){0};
  }
  struct tfr_range r;
  r.filename = src->name;
  r.start = src_pos_seq(src, s.start, &l->seq);
  r.end = src_pos_seq(src, s.end, &l->seq);
  return r;
}

static void error_at(struct loader *l, struct src_file *src, struct span s,
                     const char *summary, const char *detail, const char *var) {
  struct tfr_range r = src_range(src, s);
  tfr_diags_add(l->diags, TFR_DIAG_ERROR, &r, summary, detail);
  if (var)
    tfr_diags_set_variable(l->diags, var);
}

static bool valid_identifier(const char *s) {
  if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' ||
        (unsigned char)*s >= 0x80))
    return false;
  for (s++; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
          (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' ||
          (unsigned char)*s >= 0x80))
      return false;
  return true;
}

static const char *const reserved[] = {"source",
                                       "version",
                                       "count",
                                       "for_each",
                                       "depends_on",
                                       "providers",
                                       "ignore_nested_deprecations",
                                       "_",
                                       "lifecycle",
                                       "locals",
                                       "provider"};

/* Where gohcl points at a badly typed argument: the expression's first
** token (for a quoted string, the text inside the quotes). */
static struct span start_range(const struct ast *x) {
  switch (x->kind) {
  case AST_TUPLE:
  case AST_OBJECT:
  case AST_PAREN:
    return (struct span){x->span.start, x->span.start + 1};
  case AST_STRING:
  case AST_TEMPLATE:
    if (!(x->flags & AST_F_HEREDOC) && x->span.end - x->span.start >= 2)
      return (struct span){x->span.start + 1, x->span.end - 1};
    return x->span;
  default:
    return x->span;
  }
}

/* Evaluate an argument as a constant and convert it (gohcl decoding). */
static const tfr_value *decode_const(struct loader *l, struct src_file *src,
                                     const struct ast *x, const tfr_type *t,
                                     const char *var,
                                     const tfr_value **despite) {
  struct eval_ctx c = {0};
  c.a = l->a;
  c.diags = l->diags;
  c.src = src;
  size_t before = tfr_diags_count(l->diags);
  const tfr_value *v = eval_expr(&c, x);
  if (despite) /* the value HCL gives it, errors or not */
    *despite = v;
  if (tfr_diags_count(l->diags) > before) {
    for (size_t i = before; i < tfr_diags_count(l->diags); i++)
      if (var && !tfr_diags_get(l->diags, i)->variable) {
        /* name the variable on the evaluation errors too */
        tfr_diags_set_variable_at(l->diags, i, var);
      }
    return NULL;
  }
  if (!t)
    return v;
  const char *err = NULL;
  const tfr_value *cv = conv_convert(l->a, v, t, &err);
  if (!cv || (cv->flags & TFR_V_NULL)) {
    error_at(l, src, start_range(x), "Unsuitable value type",
             tfr_arena_printf(l->a, "Unsuitable value: %s",
                              cv ? "value must not be null"
                                 : (err ? err : "incorrect type")),
             var);
    return NULL;
  }
  return cv;
}

/* ---- variable blocks --------------------------------------------------- */

static void decode_type(struct loader *l, struct src_file *src, bool json,
                        const struct ast *x, struct var_decl *v) {
  const struct ast *texpr = x;
  struct src_file *tsrc = src;
  if (json && x->kind != AST_STRING) {
    error_at(l, src, x->span, "Invalid type specification",
             "A type specification is either a primitive type keyword "
             "(bool, number, string) or a complex type constructor call, "
             "like list(string).",
             v->name);
    v->failed = true;
    return;
  }
  const char *text = json ? x->str : src->text + x->span.start;
  size_t len = json ? x->n : x->span.end - x->span.start;
  const struct decoded_type *known = bytemap_get(&l->types, text, len);
  if (known) {
    v->typed = true;
    v->type = known->type;
    v->defaults = known->defaults;
    v->literal_mode = tfr_type_is_primitive(v->type);
    return;
  }
  if (json) {
    /* the JSON string holds a native-syntax type expression */
    struct ast_file *f = parse_embedded(l->a, l->diags, src, x, false);
    if (!f) {
      v->failed = true;
      return;
    }
    texpr = f->body;
    tsrc = f->src;
  }
  v->typed = true;
  if (x->flags & AST_F_LAZY) { /* read but not built yet */
    texpr = parse_config_lazy(src, l->trees, l->diags, x);
    if (!texpr) {
      v->failed = true; /* cannot be: it was checked */
      v->type = &tfr_t_dynamic;
      return;
    }
  }
  size_t before = tfr_diags_count(l->diags);
  const tfr_type *t =
      typeexpr_variable(l->a, l->diags, tsrc, texpr,
                        engine_rules(l->m->opentofu)->product, &v->defaults);
  for (size_t i = before; i < tfr_diags_count(l->diags); i++)
    diags_at(l->diags, i)->variable = v->name;
  if (!t) {
    v->failed = true;
    v->type = &tfr_t_dynamic;
    return;
  }
  v->type = t;
  v->literal_mode = tfr_type_is_primitive(t);
  if (tfr_diags_count(l->diags) == before) {
    struct decoded_type *d = tfr_arena_alloc(l->a, sizeof *d);
    *d = (struct decoded_type){t, v->defaults};
    bytemap_put(&l->types, text, len, d);
  }
}

struct lint_ctx {
  struct loader *l;
  struct src_file *src; /* NULL: everything at the default's range */
  struct var_decl *v;
  size_t cap;
};

static void on_dropped(void *ctx, const struct dropped_attr *d) {
  struct lint_ctx *c = ctx;
  struct var_decl *v = c->v;
  if (v->ndropped == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 4;
    struct dropped_default *nd = tfr_arena_alloc(c->l->a, c->cap * sizeof *nd);
    if (v->ndropped)
      memcpy(nd, v->dropped, v->ndropped * sizeof *nd);
    v->dropped = nd;
  }
  v->dropped[v->ndropped++] = (struct dropped_default){
      d->path,
      d->name,
      c->src ? src_range(c->src, d->at) : v->dflt_range,
      d->object,
      d->constructor,
      d->json};
}

/* The attributes the default x (value v->dflt_given; x NULL: only the
** value, at the default's range) sets that v's type drops, while x is
** still there to say where. */
static void lint_default(struct loader *l, struct src_file *src,
                         const struct ast *x, struct var_decl *v) {
  struct lint_ctx c = {l, src, v, 0};
  v->dropped = NULL;
  v->ndropped = 0;
  if (x)
    strict_dropped(l->a, x, v->dflt_given, v->type, on_dropped, &c);
  else
    strict_dropped_value(l->a, v->dflt_given, v->type, on_dropped, &c);
}

/* default = ...: a constant, optional defaults applied, converted. */
static void decode_default(struct loader *l, struct src_file *src,
                           const struct ast *x, struct var_decl *v) {
  const tfr_value *despite = NULL;
  const tfr_value *d = decode_const(l, src, x, NULL, v->name, &despite);
  v->has_default = true;
  v->dflt_range = seq_range(l, src, x->span);
  bool broken = !d;
  if (broken) {
    /* Terraform converts what HCL returns even after an error (a JSON
    ** object with a repeated key keeps the first value) */
    v->failed = true;
    if (!despite)
      return;
    d = despite;
  } else {
    v->dflt_given = d;
    lint_default(l, src, x, v);
  }
  if (v->defaults && !(d->flags & TFR_V_NULL))
    d = conv_apply_defaults(l->a, d, v->defaults);
  const char *err = NULL, *path = NULL;
  const tfr_value *cv = conv_convert_path(l->a, d, v->type, &err, &path);
  if (!cv) {
    /* Terraform names the element here: "[1]: a number is required";
    ** of a sensitive default the keys are not shown (secret.h) */
    const char *shown = err ? err : "incorrect type";
    const char *hidden =
        v->sensitive ? secret_conv_error(l->a, shown, v->type) : shown;
    const char *where = v->sensitive ? secret_path(l->a, path) : path;
    error_at(l, src, x->span, "Invalid default value for variable",
             tfr_arena_printf(l->a,
                              "This default value is not compatible with the "
                              "variable's type constraint: %s%s%s.",
                              where && *where ? where : "",
                              where && *where ? ": " : "", hidden),
             v->name);
    if (v->sensitive) {
      size_t i = tfr_diags_count(l->diags) - 1;
      secret_hide_source(l->diags, i);
      if (hidden != shown || where != path)
        secret_hide_detail(l->diags, i, tfr_diags_get(l->diags, i)->detail);
    }
    v->failed = true;
    return;
  }
  if (!broken)
    v->dflt = cv;
}

static const char *str_value(struct loader *l, struct src_file *src,
                             const struct ast *x, const char *var) {
  if (x->kind == AST_STRING) { /* a literal: its text, in NFC */
    const tfr_value *v = tfr_string(l->a, x->str, x->n);
    return v->s;
  }
  const tfr_value *v = decode_const(l, src, x, &tfr_t_string, var, NULL);
  return v ? tfr_arena_strndup(l->a, v->s, v->n) : NULL;
}

static bool bool_value(struct loader *l, struct src_file *src,
                       const struct ast *x, const char *var, bool *out) {
  if (x->kind == AST_BOOL) { /* a literal */
    *out = x->flags & AST_F_TRUE;
    return true;
  }
  const tfr_value *v = decode_const(l, src, x, &tfr_t_bool, var, NULL);
  if (v)
    *out = v->b;
  return v != NULL;
}

/* The arguments of one `variable` block as written, before decoding:
** override files merge at this level. */
struct partial {
  const char *name;
  struct tfr_range decl;
  struct span decl_span, label_span;
  struct src_file *src;
  bool json, override;
  const struct ast *type, *dflt, *description, *sensitive, *nullable;
  const struct ast *ephemeral, *deprecated, *is_const;
  struct span deprecated_attr;
  struct validation *validations;
  size_t nvalidations;
};

static const char *const arg_names[] = {
    "default",  "deprecated", "description", "ephemeral",
    "nullable", "sensitive",  "type",        "const"};

/* " Did you mean "type"?" for a misspelt argument, as hcl suggests. */
static const char *suggest_arg(struct loader *l, const char *s, size_t n) {
  for (size_t i = 0; i < sizeof arg_names / sizeof *arg_names; i++)
    if (str_distance(s, n, arg_names[i], strlen(arg_names[i])) < 3)
      return tfr_arena_printf(l->a, " Did you mean \"%s\"?", arg_names[i]);
  return "";
}

static const struct ast **arg_slot(struct partial *p, const char *name,
                                   size_t n) {
  static const char *const names[] = {"type",       "default",  "description",
                                      "sensitive",  "nullable", "ephemeral",
                                      "deprecated", "const"};
  const struct ast **slots[] = {&p->type,       &p->dflt,     &p->description,
                                &p->sensitive,  &p->nullable, &p->ephemeral,
                                &p->deprecated, &p->is_const};
  for (size_t i = 0; i < 8; i++)
    if (strlen(names[i]) == n && !memcmp(names[i], name, n))
      return slots[i];
  return NULL;
}

/* The rule's text_key: rules whose text differs only in their own
** variable's name get the same number (validate_unknown evaluates one of
** them), found while the text is in the cache. */
static uint32_t rule_key(struct loader *l, const struct partial *p,
                         const struct validation *rule) {
  if (rule->message_literal || rule->cond_src != p->src ||
      rule->msg_src != p->src || !rule->condition || !rule->error_message)
    return 0;
  l->keybuf.n = 0;
  if (!refs_rule_key(l->trees, &l->keybuf, p->src->text, rule->condition,
                     rule->cond_refs, rule->error_message, rule->msg_refs,
                     p->name))
    return 0;
  void *id = bytemap_get(&l->rule_keys, l->keybuf.p, l->keybuf.n);
  if (id)
    return (uint32_t)(uintptr_t)id;
  uint32_t k = ++l->nrule_keys;
  bytemap_put(&l->rule_keys, tfr_arena_strndup(l->a, l->keybuf.p, l->keybuf.n),
              l->keybuf.n, (void *)(uintptr_t)k);
  return k;
}

/* ---- rules sharing trees ----------------------------------------------- */

/*
** A module often repeats one rule for many variables, only the variable's
** name changed (`can(regex("^[a-z]", var.NAME))`).  The first such rule
** read keeps its trees; each later one shares them, its own read but never
** built (the streaming parser checks their syntax and leaves AST_F_LAZY
** placeholders).  Validation evaluates a sharing rule in the first one's
** trees, its own variable's value standing in for the first one's, and
** reads its own trees again only when that produces a diagnostic (whose
** ranges must be its own).
**
** That is sound when the texts differ only where the first rule refers to
** its own variable as var.NAME, and it refers to nothing else that could
** tell the two apart: no other variable, no local value (evaluated once
** and kept), no resource, no `var` as a whole, no impure function.
*/
struct rule_template {
  const struct ast *cond, *msg;
  struct src_file *src;
  const char *owner;
  uint32_t text_key;
};

/* The rule's lexical key in l->keybuf: its condition's and message's
** text, each var.NAME of its own variable cut out. */
static size_t lexical_key(struct loader *l, const struct partial *p,
                          struct span cond, struct span msg, struct span *at) {
  size_t nlen = strlen(p->name);
  l->keybuf.n = 0;
  size_t n = parse_cut_name(&l->keybuf, p->src->text, cond, p->name, nlen, at);
  return n + parse_cut_name(&l->keybuf, p->src->text, msg, p->name, nlen,
                            at ? at + n : NULL);
}

/* Only references to the rule's own variable, each a var.NAME (self:
** refers to it at all). */
static bool only_self(const struct refs *r, const char *name, bool *self) {
  *self = r->vars.n == 1 && !strcmp(r->vars.v[0], name);
  return (r->vars.n == 0 || *self) && !r->locals.n && !r->objects.n &&
         !r->other && !r->other_name && !r->var_whole;
}

static int cmp_span(const void *x, const void *y) {
  const struct span *a = x, *b = y;
  return (a->start > b->start) - (a->start < b->start);
}

/* Offer the rule (its own trees just built from lazy placeholders) as the
** template of its lexical key, when later rules can share it soundly. */
static const struct rule_template *offer_template(struct loader *l,
                                                  const struct partial *p,
                                                  const struct validation *r) {
  bool cself, mself;
  if (!r->text_key || !parse_plain_name(p->name, strlen(p->name)) ||
      !only_self(r->cond_refs, p->name, &cself) || !cself ||
      !only_self(r->msg_refs, p->name, &mself))
    return NULL;
  /* every cut is a reference to the variable, and every reference a cut */
  size_t nlen = strlen(p->name), room = 2;
  room += (r->cond_span.end - r->cond_span.start) / (4 + nlen);
  room += (r->msg_span.end - r->msg_span.start) / (4 + nlen);
  struct span *cuts = tfr_arena_alloc(l->trees, room * sizeof *cuts);
  size_t ncut = lexical_key(l, p, r->cond_span, r->msg_span, cuts);
  const struct ref_names *e[2] = {&r->cond_refs->every, &r->msg_refs->every};
  if (ncut != e[0]->n + e[1]->n)
    return NULL;
  struct span *refs = tfr_arena_alloc(l->trees, (ncut + 1) * sizeof *refs);
  for (size_t i = 0, k = 0; i < 2; i++)
    for (size_t j = 0; j < e[i]->n; j++)
      refs[k++] = e[i]->at[j];
  qsort(refs, ncut, sizeof *refs, cmp_span);
  for (size_t i = 0; i < ncut; i++)
    if (refs[i].start != cuts[i].start || refs[i].end != cuts[i].end)
      return NULL;
  if (bytemap_get(&l->templates, l->keybuf.p, l->keybuf.n))
    return NULL;
  struct rule_template *t = tfr_arena_alloc(l->a, sizeof *t);
  *t = (struct rule_template){r->condition, r->error_message, p->src, p->name,
                              r->text_key};
  bytemap_put(&l->templates, tfr_arena_strndup(l->a, l->keybuf.p, l->keybuf.n),
              l->keybuf.n, t);
  return t;
}

static const struct rule_template no_template;

/* The parser's numbers of the rule's texts (both lazy), as a key of
** file_templates; false when it did not number them. */
static bool text_ids(const struct ast *cond, const struct ast *msg,
                     uint32_t ids[2]) {
  ids[0] = cond->n;
  ids[1] = msg->n;
  return ids[0] && ids[1];
}

static void file_template(struct loader *l, const uint32_t ids[2],
                          const struct rule_template *t) {
  char *k = tfr_arena_alloc(l->a, 2 * sizeof *ids);
  memcpy(k, ids, 2 * sizeof *ids);
  bytemap_put(&l->file_templates, k, 2 * sizeof *ids, UNCONST(void *, t));
}

/* The rule (lazy placeholders cond and msg for its condition and message)
** shares an earlier rule's trees when one has its lexical key. */
static bool share_template(struct loader *l, const struct partial *p,
                           struct validation *r, const struct ast *cond,
                           const struct ast *msg) {
  uint32_t ids[2];
  bool numbered = text_ids(cond, msg, ids);
  const struct rule_template *t =
      numbered ? bytemap_get(&l->file_templates, (const char *)ids, sizeof ids)
               : NULL;
  if (t == &no_template)
    return false;
  if (!t) {
    if (!l->templates.n || !parse_plain_name(p->name, strlen(p->name)))
      return false;
    lexical_key(l, p, r->cond_span, r->msg_span, NULL);
    t = bytemap_get(&l->templates, l->keybuf.p, l->keybuf.n);
    if (!t)
      return false;
    if (numbered)
      file_template(l, ids, t);
  }
  r->condition = t->cond;
  r->error_message = t->msg;
  r->cond_src = r->msg_src = t->src;
  r->alias = t->owner;
  r->text_key = t->text_key;
  return true;
}

/* The tree of a lazy argument, built in the loader's tree arena. */
static const struct ast *built(struct loader *l, struct src_file *src,
                               const struct ast *x) {
  if (!(x->flags & AST_F_LAZY))
    return x;
  const struct ast *t = parse_config_lazy(src, l->trees, l->diags, x);
  return t ? t : x; /* cannot fail: it was checked (a null then) */
}

static void add_validation(struct loader *l, struct partial *p,
                           const struct ast *cond, const struct ast *msg,
                           struct span block, const struct ast *literal,
                           struct src_file *cond_src, struct src_file *msg_src,
                           const struct ast *cond_whole,
                           const struct ast *msg_whole) {
  struct validation *nv =
      tfr_arena_alloc(l->a, (p->nvalidations + 1) * sizeof *nv);
  if (p->nvalidations)
    memcpy(nv, p->validations, p->nvalidations * sizeof *nv);
  struct validation *r = &nv[p->nvalidations++];
  *r = (struct validation){0};
  r->src = p->src;
  r->block = block;
  r->message_literal = literal;
  r->cond_src = cond_src ? cond_src : p->src;
  r->msg_src = msg_src ? msg_src : p->src;
  r->cond_span = (cond_whole ? cond_whole : cond)->span;
  r->msg_span = (msg_whole ? msg_whole : msg)->span;
  p->validations = nv;
  bool lazy = (cond->flags & AST_F_LAZY) && (msg->flags & AST_F_LAZY);
  if (lazy && share_template(l, p, r, cond, msg))
    return;
  r->condition = built(l, p->src, cond);
  r->error_message = built(l, p->src, msg);
  r->cond_refs = refs_every(l->a, r->condition);
  r->msg_refs = refs_every(l->a, r->error_message);
  r->text_key = rule_key(l, p, r);
  uint32_t ids[2];
  if (lazy) {
    const struct rule_template *t = offer_template(l, p, r);
    if (text_ids(cond, msg, ids))
      file_template(l, ids, t ? t : &no_template);
  }
}

/* A validation block without its condition or error_message: one error
** for each argument it lacks, at where (hcl's range for the block). */
static void missing_rule_args(struct loader *l, struct partial *p,
                              struct span where, const struct ast *cond,
                              const struct ast *msg) {
  for (int k = 0; k < 2; k++)
    if (!(k ? msg : cond))
      error_at(l, p->src, where, "Missing required argument",
               tfr_arena_printf(l->a,
                                "The argument \"%s\" is required, but no "
                                "definition was found.",
                                k ? "error_message" : "condition"),
               p->name);
}

/* A validation block: condition and error_message, both required. */
/* A validation block's condition and error_message, in either syntax;
** in the native syntax anything else is an error. */
static void rule_args(struct loader *l, struct partial *p,
                      const struct ast *body, bool json,
                      const struct ast **cond, const struct ast **msg) {
  *cond = *msg = NULL;
  struct body_iter iter = body_start(body, json, NULL);
  struct body_item x;
  while (body_next(&iter, &x)) {
    const struct body_item *it = &x;
    if (!it->is_block && body_item_is(it, "condition"))
      *cond = it->value;
    else if (!it->is_block && body_item_is(it, "error_message"))
      *msg = it->value;
    else if (!json)
      error_at(l, p->src, it->name_span,
               it->is_block ? "Unsupported block type" : "Unsupported argument",
               tfr_arena_printf(l->a,
                                it->is_block
                                    ? "Blocks of type \"%.*s\" are not "
                                      "expected here."
                                    : "An argument named \"%.*s\" is "
                                      "not expected here.",
                                (int)it->len, it->name),
               p->name);
  }
}

static void validation_block(struct loader *l, struct partial *p,
                             const struct ast *body, struct span block) {
  const struct ast *cond, *msg;
  rule_args(l, p, body, false, &cond, &msg);
  if (!cond || !msg) {
    /* one error per missing argument, at the start of the block's body
    ** as HCL's MissingItemRange gives it: its "{", or the attribute of a
    ** block written on one line */
    uint32_t at = block.end;
    while (at < p->src->len && p->src->text[at] != '{')
      at++;
    if (at >= p->src->len)
      at = block.start;
    else if (body->n && memchr(p->src->text + at, '\n',
                               body->items[0]->span.start - at) == NULL)
      at = body->items[0]->span.start;
    struct span where = {at, at};
    missing_rule_args(l, p, where, cond, msg);
    return;
  }
  add_validation(l, p, cond, msg, block, NULL, NULL, NULL, NULL, NULL);
}

static void json_validations(struct loader *l, struct partial *p,
                             const struct ast *x);

/* The arguments and validation blocks of a variable block, in either
** syntax (JSON has no other blocks: an unknown property is an argument). */
static void variable_items(struct loader *l, struct partial *p,
                           const struct ast *body, bool json) {
  static const char *const blocks[] = {"validation", NULL};
  struct body_iter iter = body_start(body, json, json ? blocks : NULL);
  struct body_item x;
  while (body_next(&iter, &x)) {
    const struct body_item *it = &x;
    if (it->is_block && body_item_is(it, "validation")) {
      if (json)
        json_validations(l, p, it->body);
      else if (it->labels->n)
        error_at(l, p->src, it->labels->items[0]->span,
                 "Extraneous label for validation",
                 "No labels are expected for validation blocks.", p->name);
      else
        validation_block(l, p, it->body, it->name_span);
      continue;
    }
    if (it->is_block) {
      error_at(l, p->src, it->name_span, "Unsupported block type",
               tfr_arena_printf(l->a,
                                "Blocks of type \"%.*s\" are not expected "
                                "here.",
                                (int)it->len, it->name),
               p->name);
      continue;
    }
    const struct ast **slot = arg_slot(p, it->name, it->len);
    if (!slot) {
      error_at(l, p->src, it->name_span, "Unsupported argument",
               tfr_arena_printf(l->a,
                                "An argument named \"%.*s\" is not expected "
                                "here.%s",
                                (int)it->len, it->name,
                                json ? "" : suggest_arg(l, it->name, it->len)),
               p->name);
      continue;
    }
    *slot = it->value;
    if (slot == &p->deprecated)
      p->deprecated_attr = it->span;
  }
}

/* A native `variable "name" { ... }` block. */
static bool native_variable(struct loader *l, struct src_file *src,
                            const struct ast *b, struct partial *p) {
  const struct ast *labels = b->kids[0], *body = b->kids[1];
  struct span def = {b->span.start, labels->n
                                        ? labels->items[labels->n - 1]->span.end
                                        : b->span.start + b->n};
  if (labels->n != 1) {
    /* hcl points at the extra label, or at the opening brace */
    struct span brace = {body->span.start, body->span.start + 1};
    error_at(l, src, labels->n ? labels->items[1]->span : brace,
             labels->n ? "Extraneous label for variable"
                       : "Missing name for variable",
             labels->n ? "Only 1 labels (name) are expected for variable "
                         "blocks."
                       : "All variable blocks must have 1 labels (name).",
             NULL);
    return false;
  }
  const struct ast *label = labels->items[0];
  p->name = tfr_arena_strndup(l->a, label->str, label->n);
  p->src = src;
  p->decl_span = def;
  p->label_span = label->span;
  p->decl = seq_range(l, src, def);
  variable_items(l, p, body, false);
  return true;
}

/*
** In .tf.json, a string where an expression is expected is a template
** (`"${var.x > 0}"`).  An error message that is not a valid template is
** still used as literal text, with Terraform's warning.
*/
static const struct ast *json_expr(struct loader *l, struct partial *p,
                                   const struct ast *x, bool message,
                                   struct src_file **src) {
  *src = p->src;
  if (x->kind != AST_STRING)
    return x;
  tfr_diags *scratch = tfr_diags_new(l->a);
  struct ast_file *f =
      parse_embedded(l->a, message ? scratch : l->diags, p->src, x, true);
  if (f) {
    *src = f->src;
    return f->body;
  }
  if (!message) {
    for (size_t i = 0; i < tfr_diags_count(l->diags); i++)
      if (!tfr_diags_get(l->diags, i)->variable)
        tfr_diags_set_variable_at(l->diags, i, p->name);
    return x;
  }
  struct tfr_range r = src_range(p->src, x->span);
  module_literal_message_warning(l->a, l->diags, &r,
                                 diags_error_text(l->a, scratch, 0), p->name,
                                 engine_rules(l->m->opentofu)->product);
  return x;
}

/* In JSON, a validation block is an object, or an array of objects. */
static void json_validations(struct loader *l, struct partial *p,
                             const struct ast *x) {
  const struct ast *one;
  size_t n;
  const struct ast *const *objs = ast_json_blocks(x, &one, &n);
  for (size_t i = 0; i < n; i++) {
    const struct ast *o = objs[i], *cond, *msg;
    if (o->kind != AST_OBJECT)
      continue;
    rule_args(l, p, o, true, &cond, &msg);
    /* hcl's ranges: a block is defined at the "{" of its object, or at
    ** the "[" of the array that holds it; an argument it lacks is missed
    ** at the object's closing "}" (one error for each) */
    struct span def = {x->span.start, x->span.start + 1};
    struct span close = {o->span.end - 1, o->span.end};
    missing_rule_args(l, p, close, cond, msg);
    if (cond && msg) {
      struct src_file *cs, *ms;
      const struct ast *ce = json_expr(l, p, cond, false, &cs);
      const struct ast *me = json_expr(l, p, msg, true, &ms);
      add_validation(l, p, ce, me, def, msg->kind == AST_STRING ? msg : NULL,
                     cs, ms, cond, msg);
    }
  }
}

/* "variable": {"name": {...}} in a .tf.json file. */
static void json_variable(struct loader *l, struct src_file *src,
                          const struct ast *key, const struct ast *body,
                          struct partial *p) {
  p->name = tfr_arena_strndup(l->a, key->str, key->n);
  p->src = src;
  p->json = true;
  /* hcl's JSON blocks are defined at their body's opening brace */
  p->decl_span = body->kind == AST_OBJECT
                     ? (struct span){body->span.start, body->span.start + 1}
                     : key->span;
  p->label_span = key->span;
  p->decl = seq_range(l, src, p->decl_span);
  if (body->kind != AST_OBJECT) { /* at its first token, as hcl */
    error_at(l, src, ast_json_start(body), "Incorrect JSON value type",
             body->kind == AST_TUPLE
                 ? "A JSON object is required here, setting the arguments "
                   "for this block."
                 : "Either a JSON object or a JSON array is required, "
                   "representing the contents of one or more \"variable\" "
                   "blocks.",
             p->name);
    return;
  }
  variable_items(l, p, body, true);
}

/* OpenTofu's rule: `deprecated` must say what to do instead. */
static void nonblank_deprecated(struct loader *l, const struct partial *p,
                                const char *d) {
  size_t n = strlen(d);
  str_go_trim_space(&d, &n);
  if (!n)
    error_at(l, p->src, p->label_span, "Invalid `deprecated` value",
             "The \"deprecated\" argument must not be empty, and should "
             "provide instructions on how to migrate away from usage of this "
             "deprecated variable.",
             p->name);
}

/* Decode the simple arguments that are set in p into v.  An override
** file's (base false) are checked the same way, but its deprecation
** message is not merged (Terraform's Variable.merge never copies it;
** OpenTofu's copies one that is not empty). */
static void decode_simple(struct loader *l, const struct partial *p,
                          struct var_decl *v, bool base) {
  struct src_file *src = p->src;
  if (p->description) {
    const char *d = str_value(l, src, p->description, v->name);
    if (d)
      v->description = d;
  }
  const struct engine_rules *e = engine_rules(l->m->opentofu);
  if (p->deprecated) {
    const char *d = str_value(l, src, p->deprecated, v->name);
    if (d && e->deprecated_nonblank)
      nonblank_deprecated(l, p, d);
    if (d && (base || (e->override_deprecated && *d))) {
      v->deprecated = d;
      v->deprecated_range = seq_range(l, src, p->deprecated_attr);
    }
  }
  if (p->sensitive)
    bool_value(l, src, p->sensitive, v->name, &v->sensitive);
  if (p->ephemeral)
    bool_value(l, src, p->ephemeral, v->name, &v->ephemeral);
  if (p->nullable)
    bool_value(l, src, p->nullable, v->name, &v->nullable);
  if (p->is_const)
    bool_value(l, src, p->is_const, v->name, &v->is_const);
}

static void check_name(struct loader *l, const struct partial *p) {
  bool bad = !valid_identifier(p->name);
  const char *detail =
      "A name must start with a letter or underscore and may contain only "
      "letters, digits, underscores, and dashes.";
  for (size_t i = 0; !bad && i < sizeof reserved / sizeof *reserved; i++)
    if (p->name[0] == reserved[i][0] && !strcmp(p->name, reserved[i])) {
      bad = true;
      detail = tfr_arena_printf(l->a,
                                "The variable name \"%s\" is reserved due to "
                                "its special meaning inside module blocks.",
                                p->name);
    }
  if (bad)
    error_at(l, p->src, p->label_span, "Invalid variable name", detail,
             p->name);
}

/* Room for n declarations in all, in the arena (a large module's in huge
** pages; a file's declarations are counted before it is read, so that
** the array rarely moves; when it does, it at least doubles: one file
** of a few declarations after another costs linear memory, not a copy
** of every declaration per file). */
static void reserve_vars(struct loader *l, size_t n) {
  if (n <= l->cap)
    return;
  if (n < 2 * l->cap)
    n = 2 * l->cap;
  struct var_decl *v = tfr_arena_alloc_raw(l->a, n * sizeof *v);
  if (l->m->nvars)
    memcpy(v, l->m->vars, l->m->nvars * sizeof *v);
  l->cap = n;
  l->m->vars = v;
}

/* A variable declared in a primary file. */
static struct var_decl *declare(struct loader *l, const struct partial *p) {
  struct module *m = l->m;
  size_t i;
  if (!strmap_add(&l->names, p->name, m->nvars, &i)) {
    char where[512];
    tfr_range_format(&m->vars[i].decl, where, sizeof where);
    error_at(l, p->src, p->decl_span, "Duplicate variable declaration",
             tfr_arena_printf(l->a,
                              "A variable named \"%s\" was already declared "
                              "at %s. Variable names must be unique within "
                              "a module.",
                              p->name, where),
             p->name);
    return NULL;
  }
  if (m->nvars == l->cap)
    reserve_vars(l, l->cap ? l->cap * 2 : 16);
  struct var_decl *v = &m->vars[m->nvars++];
  memset(v, 0, sizeof *v);
  v->name = p->name;
  v->decl = p->decl;
  v->src = p->src;
  v->type = &tfr_t_dynamic;
  v->literal_mode = true;
  v->nullable = true;
  check_name(l, p);
  if (p->type) {
    decode_type(l, p->src, p->json, p->type, v);
    v->type_range = seq_range(l, p->src, p->type->span);
  }
  decode_simple(l, p, v, true);
  static const char *const marks[] = {"sensitive", "ephemeral"};
  bool const_marks = engine_rules(l->m->opentofu)->const_excludes_marks;
  for (int mk = 0; mk < 2 && v->is_const && const_marks; mk++)
    if (mk == 0 ? v->sensitive : v->ephemeral)
      error_at(l, p->src, p->decl_span,
               tfr_arena_printf(l->a, "Const variable cannot be %s", marks[mk]),
               tfr_arena_printf(l->a,
                                "A variable that is marked as \"const\" "
                                "cannot also be marked as \"%s\".",
                                marks[mk]),
               v->name);
  /* the default is decoded even after a bad type, as Terraform does (a
  ** null default of a nullable = false variable is still an error) */
  if (p->dflt)
    decode_default(l, p->src, p->dflt, v);
  if (v->has_default && v->dflt && (v->dflt->flags & TFR_V_NULL) &&
      !v->nullable) {
    error_at(l, p->src, p->dflt->span, "Invalid default value for variable",
             "A null default value is not valid when nullable=false.", v->name);
    v->failed = true;
  }
  v->validations = p->validations;
  v->nvalidations = p->nvalidations;
  for (size_t k = 0; k < p->nvalidations; k++) /* after the declaration's */
    v->validations[k].range = seq_range(l, p->src, v->validations[k].block);
  return v;
}

/* An override file's block merges into the declaration, argument by
** argument (configs/module_merge.go). */
static void override(struct loader *l, const struct partial *p) {
  struct var_decl *v = NULL;
  size_t at;
  if (strmap_get(&l->names, p->name, &at))
    v = &l->m->vars[at];
  if (!v) {
    error_at(l, p->src, p->decl_span,
             "Missing base variable declaration to override",
             tfr_arena_printf(l->a,
                              "There is no variable named \"%s\". An "
                              "override file can only override a variable "
                              "that was already declared in a primary "
                              "configuration file.",
                              p->name),
             p->name);
    return;
  }
  if (p->nvalidations) {
    error_at(l, p->src, p->validations[0].block,
             "Can't override validation blocks",
             "Override files cannot override \"validation\" blocks.", p->name);
    return;
  }
  decode_simple(l, p, v, false);
  /* the base's optional-attribute defaults stay, as Terraform keeps them */
  const struct tfr_defaults *keep = v->defaults, *own = NULL;
  if (p->type) {
    decode_type(l, p->src, p->json, p->type, v);
    own = v->defaults;
    v->defaults = keep;
    v->type_range = seq_range(l, p->src, p->type->span);
    v->type_overridden = true;
  }
  if (p->type && p->dflt) {
    /* the override block decoded alone first: its default converted to
    ** its type, its own optional defaults applied, errors at the value */
    v->defaults = own;
    decode_default(l, p->src, p->dflt, v);
    v->defaults = keep;
    if (v->failed)
      return;
  } else if (p->dflt) {
    struct eval_ctx c = {0};
    c.a = l->a;
    c.diags = l->diags;
    c.src = p->src;
    size_t before = tfr_diags_count(l->diags);
    const tfr_value *d = eval_expr(&c, p->dflt);
    if (tfr_diags_count(l->diags) > before) {
      v->failed = true;
      return;
    }
    v->dflt = d;
    v->has_default = true;
    v->dflt_range = src_range(p->src, p->dflt->span);
    v->dflt_given = d;
    lint_default(l, p->src, p->dflt, v);
  } else if (p->type && v->dflt_given) {
    lint_default(l, NULL, NULL, v); /* the base's default, a new type */
  }
  if (v->has_default && v->dflt && (p->type || p->dflt)) {
    const char *err = NULL;
    const tfr_value *cv = conv_convert(l->a, v->dflt, v->type, &err);
    if (!cv) {
      const char *why =
          p->dflt && !p->type
              ? "The overridden default value for this variable is not "
                "compatible with the variable's type constraint"
          : p->type && !p->dflt
              ? "Overriding this variable's type constraint has made its "
                "default value invalid"
              : "This default value is not compatible with the variable's "
                "type constraint";
      error_at(
          l, p->src, p->decl_span, "Invalid default value for variable",
          tfr_arena_printf(l->a, "%s: %s.", why, err ? err : "incorrect type"),
          v->name);
      v->failed = true;
      return;
    }
    v->dflt = cv;
  }
  if (v->has_default && v->dflt && (v->dflt->flags & TFR_V_NULL) &&
      !v->nullable) {
    error_at(l, p->src, p->decl_span, "Invalid default value for variable",
             "A null default value is not valid when nullable=false.", v->name);
    v->failed = true;
  }
}

/* ---- locals ------------------------------------------------------------ */

/* One local value; an override file's replaces the one of that name. */
static void add_local(struct loader *l, struct src_file *src, const char *name,
                      size_t len, const struct ast *expr, struct span span,
                      bool ovr) {
  struct module *m = l->m;
  const char *nm = tfr_arena_strndup(l->a, name, len);
  size_t i;
  if (strmap_get(&l->lnames, nm, &i)) {
    struct local_decl *d = &m->locals[i];
    if (ovr) {
      d->expr = expr;
      d->src = src;
      d->span = span;
      return;
    }
    struct tfr_range was = src_range(d->src, d->span);
    char where[512];
    tfr_range_format(&was, where, sizeof where);
    error_at(l, src, span, "Duplicate local value definition",
             tfr_arena_printf(l->a,
                              "A local value named \"%s\" was already "
                              "defined at %s. Local value names must be "
                              "unique within a module.",
                              nm, where),
             NULL);
    return;
  }
  if (m->nlocals == l->lcap) {
    l->lcap = l->lcap ? l->lcap * 2 : 16;
    struct local_decl *nl = tfr_arena_alloc(l->a, l->lcap * sizeof *nl);
    if (m->nlocals)
      memcpy(nl, m->locals, m->nlocals * sizeof *nl);
    m->locals = nl;
  }
  strmap_put(&l->lnames, nm, m->nlocals);
  m->locals[m->nlocals++] = (struct local_decl){nm, expr, src, span};
}

/* The local values a locals body defines, in either syntax (in JSON,
** strings are templates). */
static void locals_items(struct loader *l, struct src_file *src,
                         const struct ast *body, bool json, bool ovr) {
  struct body_iter iter = body_start(body, json, NULL);
  struct body_item x;
  while (body_next(&iter, &x)) {
    const struct body_item *it = &x;
    if (it->is_block)
      continue;
    const struct ast *v = it->value;
    if (json && v->kind == AST_STRING) {
      struct ast_file *t = parse_embedded(l->a, l->diags, src, v, true);
      if (!t)
        continue;
      v = t->body;
    }
    add_local(l, src, it->name, it->len, v, it->span, ovr);
  }
}

/* In JSON, "locals" is an object (or an array of objects). */
static void json_locals(struct loader *l, struct src_file *src,
                        const struct ast *x, bool ovr) {
  const struct ast *one;
  size_t n;
  const struct ast *const *objs = ast_json_blocks(x, &one, &n);
  for (size_t i = 0; i < n; i++) {
    locals_items(l, src, objs[i], true, ovr);
  }
}

/* ---- resources, data sources, module calls ------------------------------ */

static void add_object(struct loader *l, const char *name) {
  struct module *m = l->m;
  if (m->nobjects == l->ocap) {
    l->ocap = l->ocap ? l->ocap * 2 : 32;
    const char **nv = tfr_arena_alloc(l->a, l->ocap * sizeof *nv);
    if (m->nobjects)
      memcpy(nv, m->objects, m->nobjects * sizeof *nv);
    m->objects = nv;
  }
  m->objects[m->nobjects++] = name;
}

static bool is_kind(const struct ast *block, const char *kind) {
  size_t n = strlen(kind);
  return block->n == n && !memcmp(block->str, kind, n);
}

/* A native block that declares something a rule may refer to. */
static void native_object(struct loader *l, const struct ast *it) {
  const struct ast *labels = it->kids[0];
  size_t n = labels ? labels->n : 0;
  const char *prefix = is_kind(it, "resource")    ? ""
                       : is_kind(it, "data")      ? "data."
                       : is_kind(it, "ephemeral") ? "ephemeral."
                                                  : NULL;
  if (prefix && n == 2)
    add_object(
        l, tfr_arena_printf(l->a, "%s%.*s.%.*s", prefix,
                            (int)labels->items[0]->n, labels->items[0]->str,
                            (int)labels->items[1]->n, labels->items[1]->str));
  else if (is_kind(it, "module") && n == 1)
    add_object(l,
               tfr_arena_printf(l->a, "module.%.*s", (int)labels->items[0]->n,
                                labels->items[0]->str));
}

/* The same in JSON: {"resource": {"TYPE": {"NAME": ...}}}, {"module":
** {"NAME": ...}}, each level an object or an array of objects. */
static void json_objects(struct loader *l, const struct ast *x, int depth,
                         const char *prefix) {
  const struct ast *one;
  size_t n;
  const struct ast *const *objs = ast_json_blocks(x, &one, &n);
  for (size_t i = 0; i < n; i++) {
    if (objs[i]->kind != AST_OBJECT)
      continue;
    for (uint32_t j = 0; j < objs[i]->n; j++) {
      const struct ast *k = objs[i]->items[2 * j];
      if (ast_json_comment(k))
        continue;
      const char *name = tfr_arena_printf(
          l->a, "%s%s%.*s", prefix, *prefix ? "." : "", (int)k->n, k->str);
      if (depth == 1)
        add_object(l, name);
      else
        json_objects(l, objs[i]->items[2 * j + 1], depth - 1, name);
    }
  }
}

static int cmp_cstr(const void *x, const void *y) {
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

bool module_declares(const struct module *m, const char *name) {
  return m->nobjects && bsearch(&name, m->objects, m->nobjects,
                                sizeof *m->objects, cmp_cstr) != NULL;
}

/* ---- top level --------------------------------------------------------- */

static const char *const top_blocks[] = {
    "terraform", "provider", "variable", "locals",    "output",
    "module",    "resource", "data",     "ephemeral", "action",
    "moved",     "removed",  "import",   "check",     NULL};

static bool top_block_ok(const char *s, size_t n) {
  for (size_t i = 0; top_blocks[i]; i++)
    if (strlen(top_blocks[i]) == n && !memcmp(top_blocks[i], s, n))
      return true;
  return false;
}

/* The objects a block declares, for references to them (resources, data
** sources, ephemeral resources, module calls): the labels of a native
** block, the nested keys of a JSON one. */
static void block_objects(struct loader *l, const struct body_item *it,
                          bool json) {
  if (!json)
    native_object(l, it->node);
  else if (body_item_is(it, "resource"))
    json_objects(l, it->body, 2, "");
  else if (body_item_is(it, "data"))
    json_objects(l, it->body, 2, "data");
  else if (body_item_is(it, "ephemeral"))
    json_objects(l, it->body, 2, "ephemeral");
  else if (body_item_is(it, "module"))
    json_objects(l, it->body, 1, "module");
}

/* ---- required_providers ------------------------------------------------- */

/* Whether key (a native object's key, or a JSON property) is name. */
static bool key_is(const struct ast *key, const char *name) {
  size_t n = strlen(name);
  return (key->kind == AST_VARIABLE || key->kind == AST_STRING) &&
         key->n == n && !memcmp(key->str, name, n);
}

/* Whether the requirement x of local name "terraform" is the built-in
** provider: no source (addrs.ImpliedProviderForUnqualifiedType), or
** terraform.io/builtin/terraform. */
static bool builtin_terraform(const struct ast *x) {
  if (x->kind != AST_OBJECT)
    return true; /* a version constraint alone */
  for (uint32_t j = 0; j < x->n; j++) {
    const struct ast *v = x->items[2 * j + 1];
    if (key_is(x->items[2 * j], "source"))
      return v->kind == AST_STRING && v->n == 30 &&
             !strncasecmp(v->str, "terraform.io/builtin/terraform", 30);
  }
  return true;
}

/* One required_providers block's providers, by local name. */
static void required_providers(struct loader *l, const struct ast *body,
                               bool json) {
  struct eval_providers *p = &l->m->providers;
  struct body_iter iter = body_start(body, json, NULL);
  struct body_item it;
  while (body_next(&iter, &it)) {
    if (it.is_block || !it.value)
      continue;
    if (p->n == l->pcap) {
      l->pcap = l->pcap ? 2 * l->pcap : 8;
      const char **nv = tfr_arena_alloc(l->a, l->pcap * sizeof *nv);
      if (p->n)
        memcpy(nv, p->names, p->n * sizeof *nv);
      p->names = nv;
    }
    p->names[p->n++] = tfr_arena_strndup(l->a, it.name, it.len);
    if (body_item_is(&it, "terraform") && builtin_terraform(it.value))
      p->builtin_terraform = true;
  }
}

/* A terraform block: its required_providers (the provider functions
** the module may call). */
static void terraform_block(struct loader *l, const struct body_item *it,
                            bool json) {
  static const char *const blocks[] = {"required_providers", NULL};
  const struct ast *one;
  size_t n = 1;
  const struct ast *const *bodies =
      json ? ast_json_blocks(it->body, &one, &n) : &it->body;
  for (size_t i = 0; i < n; i++) {
    struct body_iter iter = body_start(bodies[i], json, blocks);
    struct body_item rp;
    while (body_next(&iter, &rp)) {
      if (!rp.is_block || !body_item_is(&rp, "required_providers"))
        continue;
      const struct ast *one2;
      size_t n2 = 1;
      const struct ast *const *rbodies =
          json ? ast_json_blocks(rp.body, &one2, &n2) : &rp.body;
      for (size_t j = 0; j < n2; j++)
        required_providers(l, rbodies[j], json);
    }
  }
}

/* ---- moved and removed blocks ------------------------------------------ */

/* The call NAME of a traversal module.NAME, or NULL. */
static const char *call_named(struct loader *l, const struct ast *x) {
  if (!x || x->kind != AST_GETATTR || x->kids[0]->kind != AST_VARIABLE ||
      x->kids[0]->n != 6 || memcmp(x->kids[0]->str, "module", 6))
    return NULL;
  return tfr_arena_strndup(l->a, x->str, x->n);
}

/* A native moved or removed block of a primary file: kept when its
** addresses are module calls (the tree checks them). */
static void refactor_block(struct loader *l, struct src_file *src,
                           const struct body_item *it) {
  struct refactor_stmt r = {0};
  r.removed = body_item_is(it, "removed");
  r.src = src;
  r.decl = it->name_span;
  struct body_iter iter = body_start(it->body, false, NULL);
  struct body_item a;
  while (body_next(&iter, &a)) {
    if (a.is_block)
      continue;
    if (body_item_is(&a, "from"))
      r.from = call_named(l, built(l, src, a.value));
    else if (body_item_is(&a, "to"))
      r.to = call_named(l, built(l, src, a.value));
  }
  if (!r.from || (!r.removed && !r.to))
    return;
  struct module *m = l->m;
  struct refactor_stmt *nv =
      tfr_arena_alloc(l->a, (m->nrefactors + 1) * sizeof *nv);
  if (m->nrefactors)
    memcpy(nv, m->refactors, m->nrefactors * sizeof *nv);
  nv[m->nrefactors++] = r;
  m->refactors = nv;
}

/* Declare (or, in an override file, override) p. */
static void add_variable(struct loader *l, struct partial *p) {
  if (p->override)
    override(l, p);
  else
    declare(l, p);
}

/* "variable": {"NAME": {...}, ...} in JSON: each variable; true when one
** has validation rules. */
static bool json_variables(struct loader *l, struct src_file *src,
                           const struct ast *v, bool ovr) {
  if (v->kind != AST_OBJECT)
    return false;
  bool rules = false;
  for (uint32_t j = 0; j < v->n; j++) {
    struct partial p = {0};
    p.override = ovr;
    json_variable(l, src, v->items[2 * j], v->items[2 * j + 1], &p);
    add_variable(l, &p);
    rules |= p.nvalidations > 0;
  }
  return rules;
}

/* One top-level item of a module file, in either syntax; true when what
** it leaves (a local value, a validation rule) refers to its tree. */
static bool top_item(struct loader *l, struct src_file *src,
                     const struct body_item *it, bool json, bool ovr) {
  if (!it->is_block && !json) {
    error_at(l, src, it->name_span, "Unsupported argument",
             tfr_arena_printf(l->a,
                              "An argument named \"%.*s\" is not expected "
                              "here.",
                              (int)it->len, it->name),
             NULL);
    return false;
  }
  if (!it->is_block || !top_block_ok(it->name, it->len)) {
    bool rp = !json && body_item_is(it, "required_providers");
    error_at(l, src, it->name_span, "Unsupported block type",
             rp ? "A \"required_providers\" block must be nested inside a "
                  "\"terraform\" block."
                : tfr_arena_printf(l->a,
                                   "Blocks of type \"%.*s\" are not "
                                   "expected here.",
                                   (int)it->len, it->name),
             NULL);
    return false;
  }
  if (body_item_is(it, "locals")) {
    if (json)
      json_locals(l, src, it->body, ovr);
    else
      locals_items(l, src, it->body, false, ovr);
    return true;
  }
  if (body_item_is(it, "terraform")) {
    terraform_block(l, it, json);
    return false;
  }
  if ((body_item_is(it, "moved") || body_item_is(it, "removed")) && !json &&
      !ovr) {
    refactor_block(l, src, it);
    return false;
  }
  if (!ovr)
    block_objects(l, it, json);
  if (body_item_is(it, "data")) {
    if (!ovr)
      calls_data_block(l->calls, src, it, json);
    return true;
  }
  if (body_item_is(it, "module") || body_item_is(it, "output")) {
    if (body_item_is(it, "module"))
      calls_module_block(l->calls, src, it, json, ovr);
    else
      calls_output_block(l->calls, src, it, json, ovr);
    return true;
  }
  if (!body_item_is(it, "variable"))
    return false;
  if (json)
    return json_variables(l, src, it->body, ovr);
  struct partial p = {0};
  p.override = ovr;
  if (!native_variable(l, src, it->node, &p))
    return false;
  add_variable(l, &p);
  for (size_t i = 0; i < p.nvalidations; i++)
    if (!p.validations[i].alias)
      return true; /* its trees are the block's */
  return false;
}

/* parse_config_stream's item: a primary file's block. */
static bool stream_item(void *ctx, const struct ast *block) {
  struct loader *l = ctx;
  struct body_item it = body_item_of(block);
  return top_item(l, l->streaming, &it, false, false);
}

/* Hand each item of a file to its decoder. */
static void each_variable(struct loader *l, struct ast_file *f, bool ovr) {
  struct body_iter iter =
      body_start(f->body, f->json, f->json ? top_blocks : NULL);
  struct body_item it;
  while (body_next(&iter, &it))
    top_item(l, f->src, &it, f->json, ovr);
}

static int name_tie(const void *ctx, uint32_t i, uint32_t j) {
  const struct module *m = ctx;
  return strcmp(m->vars[i].name, m->vars[j].name);
}

/* The declarations in name order: sorted by reference, then the array
** permuted in place, cycle by cycle. */
static void sort_vars(struct module *m) {
  size_t n = m->nvars;
  struct str_key *order = heap_alloc(2 * n * sizeof *order);
  size_t *from = heap_alloc(n * sizeof *from);
  for (size_t i = 0; i < n; i++) {
    str_prefix(m->vars[i].name, strlen(m->vars[i].name), order[i].pre);
    order[i].i = (uint32_t)i;
  }
  str_sort(order, order + n, n, name_tie, m);
  for (size_t i = 0; i < n; i++)
    from[i] = order[i].i; /* vars[i] gets vars[from[i]] */
  for (size_t i = 0; i < n; i++) {
    if (from[i] == i)
      continue;
    struct var_decl tmp = m->vars[i];
    size_t j = i;
    while (from[j] != i) {
      size_t k = from[j];
      m->vars[j] = m->vars[k];
      from[j] = j;
      j = k;
    }
    m->vars[j] = tmp;
    from[j] = j;
  }
  free(order);
  free(from);
}

/* The hash of the variable names, for module_var: slots of 8 bytes and
** the names copied together, so that a lookup (one per value a tfvars
** file sets) touches no declaration and few cache lines. */
static void index_vars(tfr_arena *a, struct module *m) {
  size_t n = 16, pool = 0;
  while (n < 2 * m->nvars)
    n *= 2;
  for (size_t i = 0; i < m->nvars; i++)
    pool += strlen(m->vars[i].name) + 1;
  struct var_slot *slots = tfr_arena_alloc(a, n * sizeof *slots);
  uint32_t *at = tfr_arena_alloc(a, (m->nvars ? m->nvars : 1) * sizeof *at);
  char *names = tfr_arena_alloc_raw(a, pool ? pool : 1);
  size_t off = 0;
  for (size_t i = 0; i < m->nvars; i++) {
    const char *name = m->vars[i].name;
    size_t len = strlen(name);
    memcpy(names + off, name, len + 1);
    at[i] = (uint32_t)off;
    off += len + 1;
    uint32_t h = (uint32_t)str_hash(name, len);
    size_t k = h & (n - 1);
    while (slots[k].index1)
      k = (k + 1) & (n - 1);
    slots[k] = (struct var_slot){h, (uint32_t)i + 1};
  }
  m->var_slots = slots;
  m->nslots = n;
  m->name_pool = names;
  m->name_at = at;
}

/* The local values' names hashed, for module_local_index. */
static void index_locals(tfr_arena *a, struct module *m) {
  size_t n = 16;
  while (n < 2 * m->nlocals)
    n *= 2;
  struct var_slot *slots = tfr_arena_alloc(a, n * sizeof *slots);
  for (size_t i = 0; i < m->nlocals; i++) {
    const char *name = m->locals[i].name;
    uint32_t h = (uint32_t)str_hash(name, strlen(name));
    size_t k = h & (n - 1);
    while (slots[k].index1)
      k = (k + 1) & (n - 1);
    slots[k] = (struct var_slot){h, (uint32_t)i + 1};
  }
  m->local_slots = slots;
  m->nlocal_slots = n;
}

struct tfr_rule *module_skipped_rules(tfr_arena *a, const struct var_decl *v) {
  struct tfr_rule *rules =
      v->nvalidations ? tfr_arena_alloc_raw(a, v->nvalidations * sizeof *rules)
                      : NULL;
  for (size_t i = 0; i < v->nvalidations; i++)
    rules[i] = (struct tfr_rule){
        v->validations[i].refs
            ? v->validations[i].range
            : src_range(v->validations[i].src, v->validations[i].block),
        TFR_RULE_SKIPPED, "resolving stopped at earlier errors"};
  return rules;
}

long module_local_index(const struct module *m, const char *name, size_t len) {
  if (!m->nlocal_slots)
    return -1;
  uint32_t h = (uint32_t)str_hash(name, len);
  for (size_t k = h & (m->nlocal_slots - 1); m->local_slots[k].index1;
       k = (k + 1) & (m->nlocal_slots - 1)) {
    if (m->local_slots[k].hash != h)
      continue;
    uint32_t i = m->local_slots[k].index1 - 1;
    const char *v = m->locals[i].name;
    if (!strncmp(v, name, len) && v[len] == '\0')
      return (long)i;
  }
  return -1;
}

long module_var_index(const struct module *m, const char *name, size_t len) {
  if (!m->nslots)
    return -1;
  uint32_t h = (uint32_t)str_hash(name, len);
  for (size_t k = h & (m->nslots - 1); m->var_slots[k].index1;
       k = (k + 1) & (m->nslots - 1)) {
    if (m->var_slots[k].hash != h)
      continue;
    uint32_t i = m->var_slots[k].index1 - 1;
    const char *v = m->name_pool + m->name_at[i];
    if (!memcmp(v, name, len) && v[len] == '\0')
      return (long)i;
  }
  return -1;
}

const struct var_decl *module_var(const struct module *m, const char *name,
                                  size_t len) {
  long i = module_var_index(m, name, len);
  return i < 0 ? NULL : &m->vars[i];
}

/* Number the distinct (type, defaults) pairs of the variables, which the
** type memo shares, so that later stages do their work per type. */
static void type_ids(tfr_arena *a, struct module *m) {
  size_t n = 16;
  while (n < 2 * m->nvars)
    n *= 2;
  struct var_decl **first = heap_calloc(n, sizeof *first);
  uint32_t *ids = tfr_arena_alloc(a, (m->nvars ? m->nvars : 1) * sizeof *ids);
  m->var_type = ids;
  for (size_t i = 0; i < m->nvars; i++) {
    struct var_decl *v = &m->vars[i];
    uintptr_t key[2] = {(uintptr_t)v->type, (uintptr_t)v->defaults};
    size_t h = str_hash((const char *)key, sizeof key) & (n - 1);
    while (first[h] &&
           (first[h]->type != v->type || first[h]->defaults != v->defaults))
      h = (h + 1) & (n - 1);
    if (first[h]) {
      ids[i] = v->type_id = first[h]->type_id;
      v->plain = first[h]->plain;
      continue;
    }
    first[h] = v;
    ids[i] = v->type_id = (uint32_t)m->ntypes++;
    v->plain = tfr_type_plain(a, v->type);
  }
  free(first);
}

bool module_whole_files;

/* What a primary file added while it was read block by block, to take
** back when it turns out to need the grammar. */
struct undo {
  size_t nvars, nlocals, nobjects, ndiags;
  struct calls_mark calls;
  struct arena_mark trees;
};

static struct undo undo_point(struct loader *l) {
  struct module *m = l->m;
  return (struct undo){m->nvars,
                       m->nlocals,
                       m->nobjects,
                       tfr_diags_count(l->diags),
                       calls_mark(l->calls),
                       arena_mark(l->trees)};
}

static void undo(struct loader *l, const struct undo *u) {
  struct module *m = l->m;
  for (size_t i = u->nvars; i < m->nvars; i++)
    strmap_del(&l->names, m->vars[i].name);
  for (size_t i = u->nlocals; i < m->nlocals; i++)
    strmap_del(&l->lnames, m->locals[i].name);
  m->nvars = u->nvars;
  m->nlocals = u->nlocals;
  m->nobjects = u->nobjects;
  calls_undo(l->calls, u->calls);
  diags_remove(l->diags, u->ndiags, tfr_diags_count(l->diags));
  arena_reset(l->trees, u->trees);
  bytemap_free(&l->templates); /* their trees may be gone */
  l->templates = (struct bytemap){0};
  bytemap_free(&l->file_templates);
  l->file_templates = (struct bytemap){0};
  l->seq_src = NULL;
}

/* A primary configuration file: read block by block when it is plain
** (most are), else parsed whole; its variables declared. */
static void primary_file(struct loader *l, struct src_file *src) {
  bytemap_free(&l->file_templates); /* the parser numbers texts per file */
  l->file_templates = (struct bytemap){0};
  /* room for its declarations at once: lines that start "variable" */
  size_t n = 0;
  for (const char *t = src->text, *end = t + src->len; t < end;) {
    n += end - t >= 8 && !memcmp(t, "variable", 8);
    t = memchr(t, '\n', (size_t)(end - t));
    if (!t)
      break;
    t++;
  }
  reserve_vars(l, l->m->nvars + n);
  strmap_reserve(&l->names, l->m->nvars + n);
  struct undo u = undo_point(l);
  l->streaming = src;
  if (!module_whole_files &&
      parse_config_stream(src, l->trees, l->diags, stream_item, l))
    return;
  undo(l, &u);
  bool complete;
  struct ast_file *f = parse_config(src, l->trees, l->diags, &complete);
  if (f)
    each_variable(l, f, false);
}

struct module *module_load(tfr_arena *a, tfr_diags *diags, const char *dir,
                           bool opentofu, bool shared,
                           const struct overlays *ov) {
  struct module *m = tfr_arena_alloc(a, sizeof *m);
  m->dir = dir;
  m->addr = "";
  m->opentofu = opentofu;
  struct loader l = {0};
  l.a = a;
  l.diags = diags;
  l.m = m;
  /* the syntax trees, in an arena of their own: once declared, variables
  ** keep none of them unless they have validation rules or the module
  ** has locals */
  tfr_arena *trees = tfr_arena_new();
  l.trees = trees;
  m->tree_diags = tfr_diags_new(a);
  l.calls = calls_loader_new(a, trees, m->tree_diags, engine_rules(opentofu));
  size_t n;
  const char **names = dir_list(a, dir, config_entry, NULL, ov, &n);
  struct src_file **srcs = tfr_arena_alloc(a, (n ? n : 1) * sizeof *srcs);
  bool saw_tofu = false;
  /* Primary files first, then override files, each in lexical order, each
  ** file read and its blocks decoded before the next, as Terraform does. */
  for (int pass = 0; pass < 2; pass++) {
    for (size_t i = 0; i < n; i++) {
      const char *nm = names[i];
      bool tf = str_ends_with(nm, ".tf") || str_ends_with(nm, ".tf.json");
      bool is_tofu =
          str_ends_with(nm, ".tofu") || str_ends_with(nm, ".tofu.json");
      saw_tofu |= is_tofu;
      if (tf && opentofu && has_tofu_twin(a, names, n, nm))
        continue; /* OpenTofu uses x.tofu instead of x.tf */
      if ((!tf && !(opentofu && is_tofu)) || is_override(nm) != (pass == 1))
        continue;
      m->has_config = true;
      const char *path =
          !strcmp(dir, ".") ? nm : tfr_arena_printf(a, "%s/%s", dir, nm);
      srcs[i] = parse_open(a, diags, ov, path, NULL, 0);
      if (!srcs[i])
        continue;
      if (pass == 0) {
        primary_file(&l, srcs[i]);
        continue;
      }
      bool complete;
      struct ast_file *f = parse_config(srcs[i], trees, diags, &complete);
      if (f)
        each_variable(&l, f, true);
    }
  }
  if (saw_tofu && !opentofu)
    tfr_diags_add(diags, TFR_DIAG_WARNING, NULL, "OpenTofu files ignored",
                  "This directory has .tofu files, which Terraform ignores. "
                  "To resolve the variables as OpenTofu does, use "
                  "-engine=opentofu.");
  if (saw_tofu && !opentofu)
    tfr_diags_set_ours(diags);
  strmap_free(&l.names);
  strmap_free(&l.lnames);
  bytemap_free(&l.types);
  bytemap_free(&l.rule_keys);
  bytemap_free(&l.templates);
  bytemap_free(&l.file_templates);
  free(l.keybuf.p);
  calls_finish(l.calls, &m->calls, &m->ncalls, &m->outputs, &m->noutputs);
  calls_finish_data(l.calls, &m->data, &m->ndata);
  if (m->nobjects > 1)
    qsort(m->objects, m->nobjects, sizeof *m->objects, cmp_cstr);
  if (m->nvars > 1)
    sort_vars(m);
  index_vars(a, m);
  if (m->nlocals)
    index_locals(a, m);
  type_ids(a, m);
  for (size_t i = 0; i < n && shared; i++)
    if (srcs[i])
      src_lines(srcs[i]);
  bool kept = m->nlocals > 0 || m->ncalls > 0 || m->noutputs > 0;
  for (size_t i = 0; i < m->nvars && !kept; i++)
    kept = m->vars[i].nvalidations > 0;
  if (kept)
    tfr_arena_on_free(a, (void (*)(void *))tfr_arena_free, trees);
  else
    arena_recycle(trees, a);
  return m;
}

void module_no_config_error(tfr_diags *d, const char *product) {
  char detail[512]; /* copied by tfr_diags_add */
  snprintf(detail, sizeof detail,
           "Plan requires configuration to be present. Planning without a "
           "configuration would mark everything for destruction, which is "
           "normally not what is desired. If you would like to destroy "
           "everything, run plan with the -destroy option. Otherwise, create "
           "a %s configuration file (.tf file) and try again.",
           product);
  tfr_diags_add(d, TFR_DIAG_ERROR, NULL, "No configuration files", detail);
  /* ours: plan's advice is about destroying; what tfresolve needs */
  tfr_diags_set_note(d, "tfresolve reads the module in the current directory "
                        "(or the DIR given, or -chdir=DIR): run it where the "
                        "module's .tf files are.");
}

void module_literal_message_warning(tfr_arena *a, tfr_diags *d,
                                    const struct tfr_range *r, const char *why,
                                    const char *var, const char *product) {
  tfr_diags_add(d, TFR_DIAG_WARNING, r,
                "Validation error message expression is invalid",
                tfr_arena_printf(a,
                                 "The error message provided could not be "
                                 "evaluated as an expression, so %s is "
                                 "interpreting it as a string literal.\n\n"
                                 "In future versions of %s, this will "
                                 "be considered an error. Please file a "
                                 "GitHub issue if this would break your "
                                 "workflow.\n\n%s",
                                 product, product, why));
  tfr_diags_set_variable(d, var);
}

const char *module_closest_var(const struct module *m, const char *name,
                               size_t below) {
  const char *best = NULL;
  size_t n = strlen(name);
  for (size_t i = 0; i < m->nvars; i++) {
    size_t d = str_distance(name, n, m->vars[i].name, strlen(m->vars[i].name));
    if (d < below) {
      below = d;
      best = m->vars[i].name;
    }
  }
  return best;
}
