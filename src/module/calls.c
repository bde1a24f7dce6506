/*
** The `module` and `output` blocks of a module, as Terraform's configs
** package decodes them (module_call.go, named_values.go), for the module
** tree (tree_load.c).  Their errors go to a list of their own, which the tree
** reports: a module whose tree is not followed is checked as before.
*/
#include "base/arena_int.h"
#include "module/calls.h"

#include <stdlib.h>
#include <string.h>

#include "syntax/body.h"
#include "module/engine_tofu.h"
#include "base/diag_int.h"
#include "eval/eval.h"
#include "eval/refs.h"
#include "syntax/parse.h"
#include "base/strutil.h"
#include "eval/typeexpr.h"

struct calls_loader {
  tfr_arena *a, *trees;
  tfr_diags *diags;
  const struct engine_rules *engine;
  const char *product; /* of type errors */
  struct module_call *calls;
  size_t ncalls, ccap;
  struct strmap names; /* of calls[0..ncalls): the index of each */
  struct output_decl *outputs;
  size_t noutputs, ocap;
  struct data_decl *data;
  size_t ndata, dcap;
};

static void err(struct calls_loader *l, struct src_file *src, struct span s,
                const char *summary, const char *detail) {
  struct tfr_range r = src_range(src, s);
  tfr_diags_add(l->diags, TFR_DIAG_ERROR, &r, summary, detail);
}

/* The tree of a lazy argument (a streamed block's), built now. */
static const struct ast *built(struct calls_loader *l, struct src_file *src,
                               const struct ast *x) {
  if (!x || !(x->flags & AST_F_LAZY))
    return x;
  const struct ast *t = parse_config_lazy(src, l->trees, l->diags, x);
  return t ? t : x;
}

/* In .tf.json a value where an expression is expected is read as hcl's
** JSON syntax evaluates it: every string in it, at any depth, is a
** template (object keys too); NULL after a template's error. */
static const struct ast *json_value(struct calls_loader *l,
                                    struct src_file *src, const struct ast *x,
                                    struct src_file **in) {
  if (x->kind == AST_STRING) {
    struct ast_file *f = parse_embedded(l->a, l->diags, src, x, true);
    if (f && in)
      *in = f->src;
    return f ? f->body : NULL;
  }
  if (x->kind != AST_OBJECT && x->kind != AST_TUPLE)
    return x;
  size_t n = x->kind == AST_OBJECT ? 2 * (size_t)x->n : x->n;
  size_t size = sizeof *x + (size_t)ast_nkids(x->kind) * sizeof x->kids[0];
  struct ast *c = tfr_arena_alloc(l->a, size);
  memcpy(c, x, size);
  c->items = tfr_arena_alloc(l->a, (n ? n : 1) * sizeof *c->items);
  for (size_t i = 0; i < n; i++) {
    const struct ast *it = x->items[i];
    bool key = x->kind == AST_OBJECT && i % 2 == 0;
    const struct ast *v = key && !(it->kind == AST_STRING &&
                                   memchr(it->str, '$', it->n) == NULL &&
                                   memchr(it->str, '%', it->n) == NULL)
                              ? json_value(l, src, it, NULL)
                          : key ? it
                                : json_value(l, src, it, NULL);
    if (!v)
      return NULL;
    c->items[i] = UNCONST(struct ast *, v);
  }
  return c;
}

/* A constant argument (gohcl's DecodeExpression): NULL after an error. */
static const tfr_value *constant(struct calls_loader *l, struct src_file *src,
                                 const struct ast *x, const tfr_type *t) {
  size_t before = tfr_diags_count(l->diags);
  const tfr_value *v = eval_const(l->a, l->diags, src, x);
  if (tfr_diags_count(l->diags) > before)
    return NULL;
  const char *e = NULL;
  const tfr_value *cv = conv_convert(l->a, v, t, &e);
  if (!cv || (cv->flags & (TFR_V_NULL | TFR_V_UNKNOWN))) {
    err(l, src, x->span, "Unsuitable value type",
        tfr_arena_printf(l->a, "Unsuitable value: %s",
                         cv ? "value must not be null"
                            : (e ? e : "incorrect type")));
    return NULL;
  }
  return cv;
}

/* hcl's MissingItemRange of a native block body: its "{", or the first
** attribute of a block written on one line. */
static struct span missing_at(struct src_file *src, const struct ast *block,
                              const struct ast *body) {
  uint32_t at = block->span.start;
  while (at < src->len && src->text[at] != '{')
    at++;
  if (at >= src->len)
    at = block->span.start;
  else if (body->n && memchr(src->text + at, '\n',
                             body->items[0]->span.start - at) == NULL)
    at = body->items[0]->span.start;
  return (struct span){at, at};
}

static const char *const call_meta[] = {"source",
                                        "version",
                                        "count",
                                        "for_each",
                                        "depends_on",
                                        "providers",
                                        "ignore_nested_deprecations",
                                        NULL};

static bool is_meta(const struct body_item *it) {
  for (size_t i = 0; call_meta[i]; i++)
    if (body_item_is(it, call_meta[i]))
      return true;
  return false;
}

static struct module_call *new_call(struct calls_loader *l) {
  ARENA_GROW(l->a, l->calls, l->ncalls, l->ccap, 8);
  struct module_call *c = &l->calls[l->ncalls];
  *c = (struct module_call){0};
  return c;
}

/* The body of a module call, in either syntax. */
/* Whether x is hcl's static traversal (AbsTraversalForExpr): a name,
** then attributes and indexes by literal keys. */
static bool static_traversal(const struct ast *x) {
  for (;; x = x->kind == AST_GETATTR ? x->kids[0] : x->a) {
    if (x->kind == AST_VARIABLE)
      return true;
    if (x->kind == AST_INDEX && x->kids[0]->kind != AST_NUMBER &&
        x->kids[0]->kind != AST_STRING)
      return false;
    if (x->kind != AST_GETATTR && x->kind != AST_INDEX)
      return false;
  }
}

/* The reference a string of depends_on holds, as a traversal parsed from
** its text (hclsyntax.ParseTraversalAbs): .tf.json's placed from its
** opening quote (hcl json/structure.go:569-583, AsTraversal), a quoted
** one of the native syntax from after it (compat_shim.go:63-76); NULL
** when the text is no static reference (*in: the text's source). */
static const struct ast *string_reference(struct calls_loader *l,
                                          struct src_file *src,
                                          const struct ast *e, bool json,
                                          struct src_file **in) {
  struct ast at = *e;
  if (!json)
    at.span.start++;
  tfr_diags *quiet = tfr_diags_new(l->a);
  struct ast_file *f = parse_embedded(l->a, quiet, src, &at, false);
  if (!f || !f->body || tfr_diags_has_errors(quiet) ||
      !static_traversal(f->body))
    return NULL;
  *in = f->src;
  return f->body;
}

static void static_reference_error(struct calls_loader *l, struct src_file *src,
                                   struct span at) {
  err(l, src, at, "Invalid expression",
      "A single static variable reference is required: only attribute "
      "access and indexing with constant keys. No calculations, function "
      "calls, template expressions, etc are allowed here.");
}

/* A module block's depends_on as configs decodes it (depends_on.go:10-36,
** hcl.ExprList, hcl.AbsTraversalForExpr): a list of static references,
** none to an action.  A quoted one is deprecated (compat_shim.go:37-101)
** and followed all the same; in .tf.json every one is a string.  The
** references are checked against the module's objects in the validate
** walk. */
static void call_depends_on(struct calls_loader *l, struct module_call *c,
                            struct src_file *src, const struct ast *x,
                            bool json) {
  if (x->kind != AST_TUPLE) {
    struct span at = x->span;
    if (x->kind == AST_OBJECT || x->kind == AST_FOR)
      at.end = at.start + 1;
    err(l, src, at, "Invalid expression",
        "A static list expression is required.");
    return;
  }
  size_t cap = x->n ? x->n : 1;
  const struct ast **refs = tfr_arena_alloc(l->a, cap * sizeof *refs);
  struct src_file **srcs = tfr_arena_alloc(l->a, cap * sizeof *srcs);
  size_t n = 0;
  for (uint32_t i = 0; i < x->n; i++) {
    const struct ast *e = x->items[i];
    struct src_file *in = src;
    bool quoted = e->kind == AST_STRING && !(e->flags & AST_F_HEREDOC);
    if (quoted && !json) {
      struct tfr_range r = src_range(src, e->span);
      tfr_diags_add(l->diags, TFR_DIAG_WARNING, &r,
                    "Quoted references are deprecated",
                    "In this context, references are expected literally "
                    "rather than in quotes. Terraform 0.11 and earlier "
                    "required quotes, but quoted references are now "
                    "deprecated and will be removed in a future version of "
                    "Terraform. Remove the quotes surrounding this reference "
                    "to silence this warning.");
      /* (hclsyntax's syntax errors in its text are not said here) */
      e = string_reference(l, src, e, false, &in);
      if (!e)
        continue;
    } else if (json) {
      const struct ast *r =
          quoted ? string_reference(l, src, e, true, &in) : NULL;
      if (!r) {
        static_reference_error(l, src, e->span);
        continue;
      }
      e = r;
    }
    if (!static_traversal(e)) {
      static_reference_error(l, src, e->span);
      continue;
    }
    const struct ast *root = e;
    while (root->kind != AST_VARIABLE)
      root = root->kind == AST_GETATTR ? root->kids[0] : root->a;
    if (root->n == 6 && !memcmp(root->str, "action", 6)) {
      err(l, in, e->span, "Invalid depends_on Action Reference",
          "The depends_on attribute cannot reference action blocks "
          "directly. You must reference a resource or data source "
          "instead.");
      continue;
    }
    srcs[n] = in;
    refs[n++] = e;
  }
  c->depends_on = refs;
  c->depends_on_src = srcs;
  c->ndepends_on = n;
}

/* The module arguments of a call, as they are read. */
struct arg_list {
  struct module_arg *v;
  size_t n, cap;
};

/* Argument it (value x, in xsrc; span: its expression in the file). */
static void push_arg(struct calls_loader *l, struct arg_list *al,
                     const struct body_item *it, const struct ast *x,
                     struct src_file *xsrc, struct src_file *src,
                     struct span span) {
  ARENA_GROW(l->a, al->v, al->n, al->cap, 8);
  al->v[al->n++] =
      (struct module_arg){tfr_arena_strndup(l->a, it->name, it->len),
                          x,
                          xsrc,
                          src,
                          it->name_span,
                          span};
}

/* The attributes of a `_ { }` block: module arguments whatever their
** names, meta-arguments' included (module_call.go:124-144). */
static void escaped_args(struct calls_loader *l, struct arg_list *al,
                         struct src_file *src, const struct ast *body,
                         bool json) {
  const struct ast *one;
  size_t n = 1;
  const struct ast *const *bodies =
      json ? ast_json_blocks(body, &one, &n) : &body;
  for (size_t i = 0; i < n; i++) {
    struct body_iter iter = body_start(bodies[i], json, NULL);
    struct body_item it;
    while (body_next(&iter, &it)) {
      if (it.is_block)
        continue;
      const struct ast *x = built(l, src, it.value);
      struct span span = x ? x->span : (struct span){0};
      struct src_file *xsrc = src;
      if (json && x)
        x = json_value(l, src, x, &xsrc);
      if (x)
        push_arg(l, al, &it, x, xsrc, src, span);
    }
  }
}

/* What a lifecycle body of a module block holds besides `enabled`: hcl's
** errors for a body of that one argument (hclsyntax/structure.go:73-121;
** json/structure.go:57-74). */
static void lifecycle_extra(struct calls_loader *l, struct src_file *src,
                            const struct body_item *it, bool json) {
  const char *name = str_go_quote(l->a, it->name, it->len);
  const char *hint = str_distance(it->name, it->len, "enabled", 7) < 3
                         ? " Did you mean \"enabled\"?"
                         : "";
  if (json)
    err(l, src, it->name_span, "Extraneous JSON object property",
        tfr_arena_printf(l->a, "No argument or block type is named %s.%s", name,
                         hint));
  else if (it->is_block)
    err(l, src, it->name_span, "Unsupported block type",
        tfr_arena_printf(l->a, "Blocks of type %s are not expected here.",
                         name));
  else
    err(l, src, it->name_span, "Unsupported argument",
        tfr_arena_printf(l->a, "An argument named %s is not expected here.%s",
                         name, hint));
}

/* OpenTofu's lifecycle block of a module block, whose one argument is
** `enabled` (O configs/module_call.go:115-134, 400-406); a second one is
** an error at its name, naming the first (*seen: its span). */
static void call_lifecycle(struct calls_loader *l, struct module_call *c,
                           const struct body_item *it, bool json,
                           struct span *seen) {
  struct src_file *src = c->src;
  const struct ast *one;
  size_t n = 1;
  const struct ast *const *bodies =
      json ? ast_json_blocks(it->body, &one, &n) : &it->body;
  for (size_t i = 0; i < n; i++) {
    struct span def =
        json ? (struct span){bodies[i]->span.start, bodies[i]->span.start + 1}
             : it->name_span;
    if (seen->end) {
      struct tfr_range r = src_range(src, *seen);
      char at[512];
      tfr_range_format(&r, at, sizeof at);
      err(l, src, def, "Duplicate lifecycle block",
          tfr_arena_printf(l->a,
                           "This resource already has a lifecycle block at "
                           "%s.",
                           at));
      continue;
    }
    *seen = def;
    struct body_iter iter = body_start(bodies[i], json, NULL);
    struct body_item a;
    while (body_next(&iter, &a)) {
      if (a.is_block || !body_item_is(&a, "enabled")) {
        lifecycle_extra(l, src, &a, json);
        continue;
      }
      const struct ast *x = built(l, src, a.value);
      c->enabled_name = a.name_span;
      c->enabled_src = src;
      c->enabled = json && x ? json_value(l, src, x, &c->enabled_src) : x;
    }
  }
}

/* A block in a module block: the escaping block `_` (one), or a name
** Terraform reserves (module_call.go:121-155, moduleBlockSchema). */
static void call_block(struct calls_loader *l, struct arg_list *al,
                       struct src_file *src, const struct body_item *it,
                       bool json, const struct body_item *first_escape) {
  if (!body_item_is(it, "_")) {
    err(l, src, it->name_span, "Reserved block type name in module block",
        tfr_arena_printf(l->a,
                         "The block type name \"%.*s\" is reserved for use "
                         "by %s in a future version.",
                         (int)it->len, it->name, l->product));
    return;
  }
  if (first_escape) {
    struct tfr_range r = src_range(src, first_escape->name_span);
    char at[512];
    tfr_range_format(&r, at, sizeof at);
    err(l, src, it->name_span, "Duplicate escaping block",
        tfr_arena_printf(l->a,
                         "The special block type \"_\" can be used to force "
                         "particular arguments to be interpreted as module "
                         "input variables rather than as meta-arguments, but "
                         "each module block can have only one such block. "
                         "The first escaping block was at %s.",
                         at));
    return;
  }
  escaped_args(l, al, src, it->body, json);
}

/* OpenTofu's "Invalid combination of ..." when `enabled` comes with count
** or for_each or both (O validation.go:15-53: the names in that order, an
** Oxford comma for three, the range from the first name to the last);
** the call keeps no repetition (the module does not load). */
static void enabled_combination(struct calls_loader *l, struct module_call *c,
                                const struct span *count,
                                const struct span *for_each) {
  struct span at = c->enabled_name;
  const char *names[3];
  size_t n = 0;
  const struct span *each[3] = {count, &c->enabled_name, for_each};
  static const char *const quoted[3] = {"\"count\"", "\"enabled\"",
                                        "\"for_each\""};
  for (int i = 0; i < 3; i++) {
    if (!each[i])
      continue;
    names[n++] = quoted[i];
    at.start = each[i]->start < at.start ? each[i]->start : at.start;
    at.end = each[i]->end > at.end ? each[i]->end : at.end;
  }
  const char *list =
      n == 3 ? tfr_arena_printf(l->a, "%s, %s, and %s", names[0], names[1],
                                names[2])
             : tfr_arena_printf(l->a, "%s and %s", names[0], names[1]);
  err(l, c->src, at, tfr_arena_printf(l->a, "Invalid combination of %s", list),
      tfr_arena_printf(l->a,
                       "The %s meta-arguments are mutually-exclusive. Only "
                       "one should be used to be explicit about the number "
                       "of module instances to be created.",
                       list));
  c->count = c->for_each = NULL;
}

static void call_body(struct calls_loader *l, struct module_call *c,
                      const struct ast *body, bool json) {
  static const char *const blocks[] = {"_", "lifecycle", "locals", "provider",
                                       NULL};
  struct src_file *src = c->src;
  struct arg_list al = {0};
  struct span for_each_name = {0};
  bool has_count = false, escaped = false;
  struct span count_name = {0};
  struct body_item escape = {0};
  struct span lifecycle = {0};
  struct body_iter iter = body_start(body, json, blocks);
  struct body_item it;
  while (body_next(&iter, &it)) {
    if (it.is_block && body_item_is(&it, "lifecycle") &&
        l->engine->module_lifecycle) {
      call_lifecycle(l, c, &it, json, &lifecycle);
      continue;
    }
    if (it.is_block &&
        (json || body_item_is(&it, "_") || body_item_is(&it, "lifecycle") ||
         body_item_is(&it, "locals") || body_item_is(&it, "provider"))) {
      call_block(l, &al, src, &it, json, escaped ? &escape : NULL);
      if (body_item_is(&it, "_") && !escaped)
        escape = it, escaped = true;
      continue;
    }
    if (it.is_block)
      continue; /* any other block: not a module argument */
    const struct ast *x = built(l, src, it.value);
    if (body_item_is(&it, "source")) {
      c->source_span = x->span;
      c->source_src = src;
      if (x->kind == AST_STRING || json) {
        const tfr_value *v = constant(l, src, x, &tfr_t_string);
        if (v) {
          c->source = tfr_arena_strndup(l->a, v->s, v->n);
          c->source_len = v->n;
        }
      } else /* const variables, local values, path.*: the tree's */
        c->source_expr = x;
      continue;
    }
    if (body_item_is(&it, "version")) {
      const tfr_value *v = constant(l, src, x, &tfr_t_string);
      if (v)
        c->version = tfr_arena_strndup(l->a, v->s, v->n);
      continue;
    }
    if (body_item_is(&it, "depends_on")) {
      call_depends_on(l, c, src, x, json);
      continue;
    }
    struct span span = x ? x->span : (struct span){0};
    struct src_file *xsrc = src;
    if (json && x)
      x = json_value(l, src, x, &xsrc);
    if (!x)
      continue;
    if (body_item_is(&it, "count")) {
      c->count = x;
      c->count_src = xsrc;
      has_count = true;
      count_name = it.name_span;
      continue;
    }
    if (body_item_is(&it, "for_each")) {
      c->for_each = x;
      c->for_each_src = xsrc;
      for_each_name = it.name_span;
      continue;
    }
    if (is_meta(&it))
      continue;
    push_arg(l, &al, &it, x, xsrc, src, span);
  }
  if (has_count && c->for_each && !c->enabled) {
    /* OpenTofu: from the first name to the last (validation.go:15-53) */
    struct span at = for_each_name;
    if (l->engine->repetition_between)
      at = count_name.start < for_each_name.start
               ? (struct span){count_name.start, for_each_name.end}
               : (struct span){for_each_name.start, count_name.end};
    err(l, src, at, "Invalid combination of \"count\" and \"for_each\"",
        l->engine->repetition_detail);
    c->for_each = NULL;
  }
  if (c->enabled && (has_count || c->for_each))
    enabled_combination(l, c, has_count ? &count_name : NULL,
                        c->for_each ? &for_each_name : NULL);
  c->args = al.v;
  c->nargs = al.n;
}

/* The call named name, or NULL (by l->names: a module of many calls
** is read in linear time, not each call against all before it). */
static struct module_call *call_named(struct calls_loader *l,
                                      const char *name) {
  size_t i;
  return strmap_get(&l->names, name, &i) ? &l->calls[i] : NULL;
}

/* A duplicate call is an error at the second one's header. */
static bool duplicate_call(struct calls_loader *l,
                           const struct module_call *c) {
  const struct module_call *o = call_named(l, c->name);
  if (!o)
    return false;
  struct tfr_range was = src_range(o->src, o->decl);
  char where[512];
  tfr_range_format(&was, where, sizeof where);
  err(l, c->src, c->decl, "Duplicate module call",
      tfr_arena_printf(l->a,
                       "A module call named \"%s\" was already defined at "
                       "%s. Module calls must have unique names within a "
                       "module.",
                       c->name, where));
  return true;
}

/* An override file's call merged into the primary one it names
** (configs' ModuleCall.merge): what it sets replaces the base's, each
** argument by name (hcl's MergeBodies). */
static void merge_call(struct calls_loader *l, const struct module_call *o) {
  struct module_call *c = call_named(l, o->name);
  if (!c) {
    err(l, o->src, o->decl, "Missing module call to override",
        tfr_arena_printf(l->a,
                         "There is no module call named \"%s\". An override "
                         "file can only override a module call that was "
                         "defined in a primary configuration file.",
                         o->name));
    return;
  }
  if (o->source_src) {
    c->source = o->source;
    c->source_len = o->source_len;
    c->source_span = o->source_span;
    c->source_src = o->source_src;
  }
  if (o->version)
    c->version = o->version;
  if (o->count)
    c->count = o->count, c->count_src = o->count_src;
  if (o->for_each)
    c->for_each = o->for_each, c->for_each_src = o->for_each_src;
  size_t n = c->nargs;
  struct module_arg *args =
      tfr_arena_alloc(l->a, (n + o->nargs ? n + o->nargs : 1) * sizeof *args);
  if (n)
    memcpy(args, c->args, n * sizeof *args);
  for (size_t j = 0; j < o->nargs; j++) {
    size_t k = 0;
    while (k < n && strcmp(args[k].name, o->args[j].name))
      k++;
    args[k] = o->args[j];
    n += k == n;
  }
  c->args = args;
  c->nargs = n;
}

/* A call read: kept (a primary file's), or merged (an override's). */
static void add_call(struct calls_loader *l, struct module_call *c,
                     bool override) {
  if (override) {
    if (c->ndepends_on) /* module_merge.go:208-217 */
      err(l, c->src, c->depends_on[0]->span, "Unsupported override",
          "The depends_on argument may not be overridden.");
    merge_call(l, c); /* c is the unused slot past the last call */
    return;
  }
  if (!c->source_src)
    err(l, c->src, c->missing, "Missing required argument",
        "The argument \"source\" is required, but no definition was "
        "found.");
  if (!duplicate_call(l, c))
    strmap_put(&l->names, c->name, l->ncalls++);
}

void calls_module_block(struct calls_loader *l, struct src_file *src,
                        const struct body_item *it, bool json, bool override) {
  if (!json) {
    const struct ast *b = it->node, *labels = b->kids[0], *body = b->kids[1];
    if (labels->n != 1)
      return; /* hcl's label errors are the loader's own */
    struct module_call *c = new_call(l);
    c->src = src;
    c->name =
        tfr_arena_strndup(l->a, labels->items[0]->str, labels->items[0]->n);
    c->decl = (struct span){b->span.start, labels->items[0]->span.end};
    c->missing = missing_at(src, b, body);
    call_body(l, c, body, false);
    add_call(l, c, override);
    return;
  }
  /* "module": {"NAME": {...}}, each level an object or array of them */
  struct json_members m;
  for (ast_json_members(&m, it->body); ast_json_next(&m);) {
    const struct ast *k = m.key, *vone;
    size_t vn;
    const struct ast *const *bodies = ast_json_blocks(m.value, &vone, &vn);
    for (size_t q = 0; q < vn; q++) {
      struct module_call *c = new_call(l);
      c->src = src;
      c->json = true;
      c->name = tfr_arena_strndup(l->a, k->str, k->n);
      c->decl = k->span;
      c->missing = ast_json_start(bodies[q]);
      c->missing.end = c->missing.start;
      call_body(l, c, bodies[q], true);
      add_call(l, c, override);
    }
  }
}

static struct output_decl *new_output(struct calls_loader *l) {
  ARENA_GROW(l->a, l->outputs, l->noutputs, l->ocap, 8);
  struct output_decl *o = &l->outputs[l->noutputs];
  *o = (struct output_decl){0};
  return o;
}

/* An expression of a check rule block: in JSON a template. */
static const struct ast *rule_expr(struct calls_loader *l, struct src_file *src,
                                   const struct ast *x, bool json,
                                   struct src_file **in) {
  *in = src;
  x = built(l, src, x);
  return json ? json_value(l, src, x, in) : x;
}

/* A precondition block of output o (body: one block's; configs/checks.go:
** 110-133): its condition, which must refer to something, and error
** message. */
static void output_precondition(struct calls_loader *l, struct output_decl *o,
                                const struct body_item *blk,
                                const struct ast *body, bool json) {
  struct src_file *src = o->src;
  struct out_rule r = {0};
  struct body_iter iter = body_start(body, json, NULL);
  struct body_item it;
  while (body_next(&iter, &it)) {
    if (it.is_block)
      continue;
    if (body_item_is(&it, "condition"))
      r.cond = rule_expr(l, src, it.value, json, &r.cond_src);
    else if (body_item_is(&it, "error_message"))
      r.msg = rule_expr(l, src, it.value, json, &r.msg_src);
  }
  const char *missing = !r.cond ? "condition" : !r.msg ? "error_message" : NULL;
  if (missing) {
    struct span at =
        json ? ast_json_start(body) : missing_at(src, blk->node, body);
    at.end = at.start;
    err(l, src, at, "Missing required argument",
        tfr_arena_printf(l->a,
                         "The argument \"%s\" is required, but no "
                         "definition was found.",
                         missing));
    return;
  }
  struct refs refs = refs_of(l->a, r.cond);
  if (!refs.any)
    err(l, r.cond_src, r.cond->span, "Invalid precondition expression",
        "The condition expression must refer to at least one object from "
        "elsewhere in the configuration, or else its result would not be "
        "checking anything.");
  struct out_rule *nv = tfr_arena_alloc(l->a, (o->npreconds + 1) * sizeof *nv);
  if (o->npreconds)
    memcpy(nv, o->preconds, o->npreconds * sizeof *nv);
  nv[o->npreconds++] = r;
  o->preconds = nv;
}

/* What an output block sets, for an override's merge. */
enum { SET_VALUE = 1, SET_SENSITIVE = 2, SET_EPHEMERAL = 4, SET_TYPE = 8 };

static unsigned output_body(struct calls_loader *l, struct output_decl *o,
                            const struct ast *body, bool json, bool override) {
  static const char *const blocks[] = {"precondition", "postcondition", NULL};
  unsigned set = 0;
  struct src_file *src = o->src;
  struct body_iter iter = body_start(body, json, blocks);
  struct body_item it;
  while (body_next(&iter, &it)) {
    if (it.is_block && body_item_is(&it, "precondition")) {
      if (override) {
        err(l, src, it.name_span, "Can't override precondition blocks",
            "Override files cannot override \"precondition\" blocks.");
        continue;
      }
      const struct ast *one;
      size_t n = 1;
      const struct ast *const *bodies =
          json ? ast_json_blocks(it.body, &one, &n) : &it.body;
      for (size_t i = 0; i < n; i++)
        output_precondition(l, o, &it, bodies[i], json);
      continue;
    }
    if (it.is_block && body_item_is(&it, "postcondition")) {
      err(l, src, it.name_span, "Postconditions are not allowed",
          "Output values can only have preconditions, not postconditions.");
      continue;
    }
    if (it.is_block)
      continue;
    if (body_item_is(&it, "deprecated")) {
      o->deprecated = true;
      o->deprecated_at = it.span;
      continue;
    }
    const struct ast *x = built(l, src, it.value);
    if (body_item_is(&it, "sensitive") || body_item_is(&it, "ephemeral")) {
      const tfr_value *v = constant(l, src, x, &tfr_t_bool);
      bool sens = body_item_is(&it, "sensitive");
      if (v && sens)
        o->sensitive = v->b;
      else if (v)
        o->ephemeral = v->b;
      set |= sens ? SET_SENSITIVE : SET_EPHEMERAL;
      continue;
    }
    if (body_item_is(&it, "type")) {
      const struct ast *tx = x;
      struct src_file *tsrc = src;
      if (json && x->kind == AST_STRING) {
        struct ast_file *f = parse_embedded(l->a, l->diags, src, x, false);
        if (!f)
          continue;
        tx = f->body;
        tsrc = f->src;
      }
      /* hcl's TypeConstraintWithDefaults (named_values.go:449-455): no
      ** quoted or bare list/map shim, which is a variable's alone */
      o->type =
          typeexpr_parse(l->a, l->diags, tsrc, tx, true, true, &o->defaults);
      set |= SET_TYPE;
      continue;
    }
    if (body_item_is(&it, "value")) {
      set |= SET_VALUE;
      o->expr = json ? json_value(l, src, x, NULL) : x;
      o->expr_src = src;
    }
  }
  return set; /* an output without a value is null */
}

/* An output read: kept, or (override) merged into the one it names, what
** it sets replacing the base's (configs' Output.merge). */
static void add_output(struct calls_loader *l, struct output_decl *o,
                       unsigned set, bool override) {
  if (!override) {
    l->noutputs++;
    return;
  }
  struct output_decl *b = NULL;
  for (size_t i = 0; i < l->noutputs && !b; i++)
    if (!strcmp(l->outputs[i].name, o->name))
      b = &l->outputs[i];
  if (!b) {
    err(l, o->src, o->decl, "Missing output to override",
        tfr_arena_printf(l->a,
                         "There is no output named \"%s\". An override file "
                         "can only override an output that was defined in a "
                         "primary configuration file.",
                         o->name));
    return;
  }
  if (set & SET_VALUE)
    b->expr = o->expr, b->expr_src = o->expr_src;
  if (set & SET_SENSITIVE)
    b->sensitive = o->sensitive;
  if (set & SET_EPHEMERAL)
    b->ephemeral = o->ephemeral;
  if (set & SET_TYPE)
    b->type = o->type, b->defaults = o->defaults;
}

void calls_output_block(struct calls_loader *l, struct src_file *src,
                        const struct body_item *it, bool json, bool override) {
  if (!json) {
    const struct ast *b = it->node, *labels = b->kids[0], *body = b->kids[1];
    if (labels->n != 1)
      return;
    struct output_decl *o = new_output(l);
    o->src = src;
    o->name =
        tfr_arena_strndup(l->a, labels->items[0]->str, labels->items[0]->n);
    o->decl = (struct span){b->span.start, labels->items[0]->span.end};
    add_output(l, o, output_body(l, o, body, false, override), override);
    return;
  }
  struct json_members m;
  for (ast_json_members(&m, it->body); ast_json_next(&m);) {
    struct output_decl *o = new_output(l);
    o->src = src;
    o->name = tfr_arena_strndup(l->a, m.key->str, m.key->n);
    o->decl = m.key->span;
    add_output(l, o, output_body(l, o, m.value, true, override), override);
  }
}

struct calls_loader *calls_loader_new(tfr_arena *a, tfr_arena *trees,
                                      tfr_diags *diags,
                                      const struct engine_rules *engine) {
  struct calls_loader *l = tfr_arena_alloc(a, sizeof *l);
  l->a = a;
  l->trees = trees;
  l->diags = diags;
  l->engine = engine;
  l->product = engine->product;
  return l;
}

struct calls_mark calls_mark(const struct calls_loader *l) {
  return (struct calls_mark){l->ncalls, l->noutputs, l->ndata,
                             tfr_diags_count(l->diags)};
}

void calls_undo(struct calls_loader *l, struct calls_mark m) {
  for (size_t i = m.ncalls; i < l->ncalls; i++)
    strmap_del(&l->names, l->calls[i].name);
  l->ncalls = m.ncalls;
  l->noutputs = m.noutputs;
  l->ndata = m.ndata;
  diags_remove(l->diags, m.ndiags, tfr_diags_count(l->diags));
}

/* ---- data blocks ------------------------------------------------------- */

static void data_expr(struct calls_loader *l, struct data_decl *d,
                      struct src_file *src, const struct ast *x) {
  if (!x)
    return;
  if (!(d->nexprs & (d->nexprs - 1))) { /* 0 or a power of two: grow */
    size_t cap = d->nexprs ? 2 * d->nexprs : 4;
    const struct ast **n = tfr_arena_alloc(l->a, cap * sizeof *n);
    struct src_file **ns = tfr_arena_alloc(l->a, cap * sizeof *ns);
    if (d->nexprs) {
      memcpy(n, d->exprs, d->nexprs * sizeof *n);
      memcpy(ns, d->srcs, d->nexprs * sizeof *ns);
    }
    d->exprs = n;
    d->srcs = ns;
  }
  d->srcs[d->nexprs] = src;
  d->exprs[d->nexprs++] = x;
}

/* Whether an argument of a data block is not part of what it reads. */
static bool data_skips(const struct body_item *it) {
  return body_item_is(it, "lifecycle") || body_item_is(it, "provider") ||
         body_item_is(it, "provisioner");
}

/* The arguments of a native body, nested blocks' too (a dynamic block's
** for_each only: its content refers to its iterator). */
static void data_native(struct calls_loader *l, struct data_decl *d,
                        struct src_file *src, const struct ast *body,
                        bool dynamic) {
  struct body_iter iter = body_start(body, false, NULL);
  struct body_item it;
  while (body_next(&iter, &it)) {
    if (data_skips(&it) || (dynamic && it.is_block))
      continue;
    if (it.is_block)
      data_native(l, d, src, it.body, body_item_is(&it, "dynamic"));
    else if (body_item_is(&it, "depends_on") && !dynamic)
      d->depends_on = built(l, src, it.value);
    else
      data_expr(l, d, src, built(l, src, it.value));
  }
}

/* The arguments of a JSON body, read as hcl's JSON syntax reads an
** expression (depends_on, whose strings are references, is not read). */
static void data_json(struct calls_loader *l, struct data_decl *d,
                      struct src_file *src, const struct ast *body) {
  struct body_iter iter = body_start(body, true, NULL);
  struct body_item it;
  while (body_next(&iter, &it)) {
    if (data_skips(&it) || body_item_is(&it, "depends_on") ||
        body_item_is(&it, "dynamic") || !it.value)
      continue;
    struct src_file *xsrc = src;
    const struct ast *x = json_value(l, src, it.value, &xsrc);
    data_expr(l, d, xsrc, x);
  }
}

static struct data_decl *new_data(struct calls_loader *l, struct src_file *src,
                                  const char *type, size_t nt, const char *name,
                                  size_t nn) {
  ARENA_GROW(l->a, l->data, l->ndata, l->dcap, 8);
  struct data_decl *d = &l->data[l->ndata++];
  *d = (struct data_decl){0};
  d->src = src;
  d->name = tfr_arena_printf(l->a, "%.*s.%.*s", (int)nt, type, (int)nn, name);
  return d;
}

void calls_data_block(struct calls_loader *l, struct src_file *src,
                      const struct body_item *it, bool json) {
  if (!json) {
    const struct ast *b = it->node, *labels = b->kids[0];
    if (labels->n != 2)
      return; /* hcl's label errors are the loader's own */
    struct data_decl *d =
        new_data(l, src, labels->items[0]->str, labels->items[0]->n,
                 labels->items[1]->str, labels->items[1]->n);
    data_native(l, d, src, b->kids[1], false);
    return;
  }
  /* "data": {"TYPE": {"NAME": {...}}}, each level an object or array */
  const struct ast *one;
  size_t n;
  const struct ast *const *types = ast_json_blocks(it->body, &one, &n);
  for (size_t i = 0; i < n; i++)
    for (uint32_t j = 0; types[i]->kind == AST_OBJECT && j < types[i]->n; j++) {
      const struct ast *tk = types[i]->items[2 * j];
      size_t nn;
      const struct ast *const *names =
          ast_json_blocks(types[i]->items[2 * j + 1], &one, &nn);
      for (size_t q = 0; !ast_json_comment(tk) && q < nn; q++)
        for (uint32_t r = 0; names[q]->kind == AST_OBJECT && r < names[q]->n;
             r++) {
          const struct ast *nk = names[q]->items[2 * r];
          if (ast_json_comment(nk))
            continue;
          struct data_decl *d =
              new_data(l, src, tk->str, tk->n, nk->str, nk->n);
          data_json(l, d, src, names[q]->items[2 * r + 1]);
        }
    }
}

static int cmp_data(const void *x, const void *y) {
  return strcmp(((const struct data_decl *)x)->name,
                ((const struct data_decl *)y)->name);
}

void calls_finish_data(struct calls_loader *l, struct data_decl **data,
                       size_t *ndata) {
  if (l->ndata > 1)
    qsort(l->data, l->ndata, sizeof *l->data, cmp_data);
  *data = l->data;
  *ndata = l->ndata;
}

static int cmp_call(const void *x, const void *y) {
  return strcmp(((const struct module_call *)x)->name,
                ((const struct module_call *)y)->name);
}

static int cmp_output(const void *x, const void *y) {
  return strcmp(((const struct output_decl *)x)->name,
                ((const struct output_decl *)y)->name);
}

void calls_finish(struct calls_loader *l, struct module_call **calls,
                  size_t *ncalls, struct output_decl **outputs,
                  size_t *noutputs) {
  strmap_free(&l->names);
  if (l->ncalls > 1)
    qsort(l->calls, l->ncalls, sizeof *l->calls, cmp_call);
  if (l->noutputs > 1)
    qsort(l->outputs, l->noutputs, sizeof *l->outputs, cmp_output);
  *calls = l->calls;
  *ncalls = l->ncalls;
  *outputs = l->outputs;
  *noutputs = l->noutputs;
}
