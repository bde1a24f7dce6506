/*
** The `variable` blocks of a module (Terraform's configs/named_values.go):
** each block's arguments as written, decoded into a declaration with
** Terraform's diagnostics, and an override file's block merged into it
** argument by argument (configs/module_merge.go).  Validation blocks are
** module_rules.c's.
*/
#include "module/module.h"

#include <stdlib.h>
#include <string.h>

#include "base/arena_int.h"
#include "syntax/body.h"
#include "base/diag_int.h"
#include "module/engine_tofu.h"
#include "eval/eval.h"
#include "syntax/parse.h"
#include "module/strict.h"
#include "values/secret.h"
#include "base/strutil.h"
#include "eval/typeexpr.h"
#include "module/module_int.h"

/* ---- decoding helpers -------------------------------------------------- */

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
  size_t before = tfr_diags_count(l->diags);
  const tfr_value *v = eval_const(l->a, l->diags, src, x);
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
    loader_error_at(l, src, start_range(x), "Unsuitable value type",
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
    loader_error_at(
        l, src, x->span, "Invalid type specification",
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
  ARENA_GROW(c->l->a, v->dropped, v->ndropped, c->cap, 4);
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
    loader_error_at(
        l, src, x->span, "Invalid default value for variable",
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
        loader_json_validations(l, p, it->body);
      else if (it->labels->n)
        loader_error_at(l, p->src, it->labels->items[0]->span,
                        "Extraneous label for validation",
                        "No labels are expected for validation blocks.",
                        p->name);
      else
        loader_validation_block(l, p, it->body, it->name_span);
      continue;
    }
    if (it->is_block) {
      loader_error_at(
          l, p->src, it->name_span, "Unsupported block type",
          tfr_arena_printf(l->a,
                           "Blocks of type \"%.*s\" are not expected "
                           "here.",
                           (int)it->len, it->name),
          p->name);
      continue;
    }
    const struct ast **slot = arg_slot(p, it->name, it->len);
    if (!slot) {
      loader_error_at(
          l, p->src, it->name_span, "Unsupported argument",
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
bool loader_native_variable(struct loader *l, struct src_file *src,
                            const struct ast *b, struct partial *p) {
  const struct ast *labels = b->kids[0], *body = b->kids[1];
  struct span def = {b->span.start, labels->n
                                        ? labels->items[labels->n - 1]->span.end
                                        : b->span.start + b->n};
  if (labels->n != 1) {
    /* hcl points at the extra label, or at the opening brace */
    struct span brace = {body->span.start, body->span.start + 1};
    loader_error_at(l, src, labels->n ? labels->items[1]->span : brace,
                    labels->n ? "Extraneous label for variable"
                              : "Missing name for variable",
                    labels->n
                        ? "Only 1 labels (name) are expected for variable "
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
    loader_error_at(
        l, src, ast_json_start(body), "Incorrect JSON value type",
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
    loader_error_at(
        l, p->src, p->label_span, "Invalid `deprecated` value",
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
    loader_error_at(l, p->src, p->label_span, "Invalid variable name", detail,
                    p->name);
}

/* Room for n declarations in all, in the arena (a large module's in huge
** pages; a file's declarations are counted before it is read, so that
** the array rarely moves; when it does, it at least doubles: one file
** of a few declarations after another costs linear memory, not a copy
** of every declaration per file). */
void loader_reserve_vars(struct loader *l, size_t n) {
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
    loader_error_at(
        l, p->src, p->decl_span, "Duplicate variable declaration",
        tfr_arena_printf(l->a,
                         "A variable named \"%s\" was already declared "
                         "at %s. Variable names must be unique within "
                         "a module.",
                         p->name, where),
        p->name);
    return NULL;
  }
  if (m->nvars == l->cap)
    loader_reserve_vars(l, l->cap ? l->cap * 2 : 16);
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
      loader_error_at(
          l, p->src, p->decl_span,
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
    loader_error_at(
        l, p->src, p->dflt->span, "Invalid default value for variable",
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
    loader_error_at(
        l, p->src, p->decl_span,
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
    loader_error_at(
        l, p->src, p->validations[0].block, "Can't override validation blocks",
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
      loader_error_at(
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
    loader_error_at(
        l, p->src, p->decl_span, "Invalid default value for variable",
        "A null default value is not valid when nullable=false.", v->name);
    v->failed = true;
  }
}
/* Declare (or, in an override file, override) p. */
void loader_add_variable(struct loader *l, struct partial *p) {
  if (p->override)
    override(l, p);
  else
    declare(l, p);
}

/* "variable": {"NAME": {...}, ...} in JSON: each variable; true when one
** has validation rules. */
bool loader_json_variables(struct loader *l, struct src_file *src,
                           const struct ast *v, bool ovr) {
  if (v->kind != AST_OBJECT)
    return false;
  bool rules = false;
  for (uint32_t j = 0; j < v->n; j++) {
    struct partial p = {0};
    p.override = ovr;
    json_variable(l, src, v->items[2 * j], v->items[2 * j + 1], &p);
    loader_add_variable(l, &p);
    rules |= p.nvalidations > 0;
  }
  return rules;
}
