/*
** The validation rules of a variable block, in either syntax, and the
** trees rules that differ only in their own variable's name share.
*/
#include "module/module.h"

#include <stdlib.h>
#include <string.h>

#include "base/arena_int.h"
#include "syntax/body.h"
#include "base/diag_int.h"
#include "module/engine_tofu.h"
#include "syntax/parse.h"
#include "eval/refs.h"
#include "base/strutil.h"
#include "module/module_int.h"

/* ---- one rule's number ------------------------------------------------- */

/* The rule's text_key: rules whose text differs only in their own
** variable's name get the same number (the validate walk evaluates one of
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
const struct ast *loader_built(struct loader *l, struct src_file *src,
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
  r->condition = loader_built(l, p->src, cond);
  r->error_message = loader_built(l, p->src, msg);
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
      loader_error_at(
          l, p->src, where, "Missing required argument",
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
      loader_error_at(
          l, p->src, it->name_span,
          it->is_block ? "Unsupported block type" : "Unsupported argument",
          tfr_arena_printf(l->a,
                           it->is_block ? "Blocks of type \"%.*s\" are not "
                                          "expected here."
                                        : "An argument named \"%.*s\" is "
                                          "not expected here.",
                           (int)it->len, it->name),
          p->name);
  }
}

void loader_validation_block(struct loader *l, struct partial *p,
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
void loader_json_validations(struct loader *l, struct partial *p,
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
