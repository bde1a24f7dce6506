/*
** Type constraint expressions (hcl's ext/typeexpr): "string",
** "list(object({a = optional(number, 1)}))", ... into a type and the
** defaults of its optional attributes, with Terraform's diagnostics.
*/
#include "eval/typeexpr.h"

#include <stdio.h>
#include <string.h>

#include "values/convert.h"
#include "eval/eval.h"

#define SUMMARY "Invalid type specification"

struct texpr {
  tfr_arena *a;
  tfr_diags *diags;
  struct src_file *src;
  bool constraint, with_defaults;
};

static void err_at(struct texpr *t, struct span s, const char *summary,
                   const char *detail) {
  struct tfr_range r = src_range(t->src, s);
  tfr_diags_add(t->diags, TFR_DIAG_ERROR, &r, summary, detail);
}

/* A bare name ("string"), as hcl.ExprAsKeyword sees it. */
static bool keyword(const struct ast *x, const char **s, size_t *n) {
  if (x->kind == AST_VARIABLE) {
    *s = x->str;
    *n = x->n;
    return true;
  }
  static const char *const lits[] = {"null", "true", "false"};
  if (x->kind == AST_NULL || x->kind == AST_BOOL) {
    *s = x->kind == AST_NULL       ? lits[0]
         : (x->flags & AST_F_TRUE) ? lits[1]
                                   : lits[2];
    *n = strlen(*s);
    return true;
  }
  return false;
}

static bool is(const char *s, size_t n, const char *kw) {
  return strlen(kw) == n && memcmp(s, kw, n) == 0;
}

/* The span of a call's parentheses and what is between them. */
static struct span args_span(struct texpr *t, const struct ast *call) {
  uint32_t i = call->kids[0]->span.end;
  while (i < call->span.end && t->src->text[i] != '(')
    i++;
  return (struct span){i, call->span.end};
}

static const tfr_type *get_type(struct texpr *t, const struct ast *x,
                                const struct tfr_defaults **defs);

static const struct tfr_defaults *
child_defaults(struct texpr *t, const tfr_type *ty, size_t nvals,
               const char **vnames, const tfr_value **vals, size_t nkids,
               const char **keys, const struct tfr_defaults **kids) {
  if (!nvals && !nkids)
    return NULL;
  struct tfr_defaults *d = tfr_arena_alloc(t->a, sizeof *d);
  d->type = ty;
  d->nvalues = (uint32_t)nvals;
  d->value_names = vnames;
  d->values = vals;
  d->nchildren = (uint32_t)nkids;
  d->child_keys = keys;
  d->children = kids;
  return d;
}

static const tfr_type *collection(struct texpr *t, const struct ast *arg,
                                  int kind, const struct tfr_defaults **defs) {
  const struct tfr_defaults *ed = NULL;
  const tfr_type *et = get_type(t, arg, &ed);
  if (!et)
    return NULL; /* reported */
  const tfr_type *ty = kind == 'l'   ? tfr_type_list(t->a, et)
                       : kind == 's' ? tfr_type_set(t->a, et)
                                     : tfr_type_map(t->a, et);
  if (ed) {
    const char **keys = tfr_arena_alloc(t->a, sizeof *keys);
    const struct tfr_defaults **kids = tfr_arena_alloc(t->a, sizeof *kids);
    keys[0] = "";
    kids[0] = ed;
    *defs = child_defaults(t, ty, 0, NULL, NULL, 1, keys, kids);
  }
  return ty;
}

/* One attribute of object({...}): its type, and whether it is optional
** (with its default, evaluated as a constant). */
static const tfr_type *attribute(struct texpr *t, const struct ast *v,
                                 bool *optional, const tfr_value **dflt,
                                 const struct ast **dflt_expr,
                                 const struct tfr_defaults **defs) {
  if (v->kind == AST_CALL && is(v->kids[0]->str, v->kids[0]->n, "optional")) {
    struct span as = args_span(t, v);
    if (v->n < 1) {
      err_at(t, as, SUMMARY,
             "Optional attribute modifier requires the attribute type as "
             "its argument.");
      return NULL;
    }
    if (!t->constraint) {
      err_at(t, v->kids[0]->span, SUMMARY,
             "Optional attribute modifier is only for type constraints, "
             "not for exact types.");
    } else if (t->with_defaults && v->n == 2) {
      struct eval_ctx ec = {0};
      ec.a = t->a;
      ec.diags = t->diags;
      ec.src = t->src;
      size_t before = tfr_diags_count(t->diags);
      const tfr_value *d = eval_expr(&ec, v->items[1]);
      if (tfr_diags_count(t->diags) == before) {
        *optional = true;
        *dflt = d;
        *dflt_expr = v->items[1];
      }
    } else if (v->n == 1) {
      *optional = true;
    } else {
      err_at(t, as, SUMMARY,
             t->with_defaults
                 ? "Optional attribute modifier expects at most two "
                   "arguments: the attribute type, and a default value."
                 : "Optional attribute modifier expects only one argument: "
                   "the attribute type.");
    }
    v = v->items[0];
  }
  return get_type(t, v, defs);
}

static const tfr_type *object_type(struct texpr *t, const struct ast *x,
                                   const struct ast *arg,
                                   const struct tfr_defaults **defs) {
  (void)x;
  if (arg->kind != AST_OBJECT) {
    err_at(t, arg->span, SUMMARY,
           "Object type constructor requires a map whose keys are attribute "
           "names and whose values are the corresponding attribute types.");
    return NULL;
  }
  size_t n = arg->n, k = 0, nv = 0, nk = 0;
  const char **names = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *names);
  const tfr_type **types = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *types);
  bool *opt = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *opt);
  const char **vnames = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *vnames);
  const tfr_value **vals = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *vals);
  const char **knames = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *knames);
  const struct tfr_defaults **kids =
      tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *kids);
  bool ok = true;
  for (size_t i = 0; i < n; i++) {
    const struct ast *key = arg->items[2 * i], *val = arg->items[2 * i + 1];
    const char *s;
    size_t len;
    if (!keyword(key, &s, &len)) {
      err_at(t, key->span, SUMMARY,
             "Object constructor map keys must be attribute names.");
      ok = false;
      continue;
    }
    const char *name = tfr_arena_strndup(t->a, s, len);
    bool dup = false;
    for (size_t j = 0; j < k; j++)
      dup |= strcmp(names[j], name) == 0;
    if (dup) {
      err_at(t, key->span, SUMMARY,
             "Object constructor map keys must be unique.");
      ok = false;
      continue;
    }
    bool optional = false;
    const tfr_value *dflt = NULL;
    const struct ast *dexpr = NULL;
    const struct tfr_defaults *ad = NULL;
    const tfr_type *aty = attribute(t, val, &optional, &dflt, &dexpr, &ad);
    if (!aty) {
      ok = false;
      continue;
    }
    if (dflt) {
      const char *err = NULL;
      const tfr_value *cv = conv_convert(t->a, dflt, aty, &err);
      if (!cv) {
        err_at(t, dexpr->span, "Invalid default value for optional attribute",
               tfr_arena_printf(t->a,
                                "This default value is not compatible with "
                                "the attribute's type constraint: %s.",
                                err ? err : "incorrect type"));
      } else {
        vnames[nv] = name;
        vals[nv++] = cv;
      }
    }
    names[k] = name;
    types[k] = aty;
    opt[k++] = optional;
    if (ad) {
      knames[nk] = name;
      kids[nk++] = ad;
    }
  }
  if (!ok)
    return NULL;
  const tfr_type *ty = tfr_type_object(t->a, k, names, types, opt);
  *defs = child_defaults(t, ty, nv, vnames, vals, nk, knames, kids);
  return ty;
}

static const tfr_type *tuple_type(struct texpr *t, const struct ast *arg,
                                  const struct tfr_defaults **defs) {
  if (arg->kind != AST_TUPLE) {
    err_at(t, arg->span, SUMMARY,
           "Tuple type constructor requires a list of element types.");
    return NULL;
  }
  size_t n = arg->n, nk = 0;
  const tfr_type **types = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *types);
  const char **keys = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *keys);
  const struct tfr_defaults **kids =
      tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *kids);
  bool ok = true;
  for (size_t i = 0; i < n; i++) {
    const struct tfr_defaults *ed = NULL;
    types[i] = get_type(t, arg->items[i], &ed);
    if (!types[i])
      ok = false;
    if (ed) {
      keys[nk] = tfr_arena_printf(t->a, "%zu", i);
      kids[nk++] = ed;
    }
  }
  if (!ok)
    return NULL;
  const tfr_type *ty = tfr_type_tuple(t->a, n, types);
  *defs = child_defaults(t, ty, 0, NULL, NULL, nk, keys, kids);
  return ty;
}

static const tfr_type *keyword_type(struct texpr *t, const struct ast *x,
                                    const char *s, size_t n) {
  if (is(s, n, "bool"))
    return &tfr_t_bool;
  if (is(s, n, "string"))
    return &tfr_t_string;
  if (is(s, n, "number"))
    return &tfr_t_number;
  if (is(s, n, "any")) {
    if (t->constraint)
      return &tfr_t_dynamic;
    err_at(t, x->span, SUMMARY,
           "The keyword \"any\" cannot be used in this type specification: "
           "an exact type is required.");
    return NULL;
  }
  const char *detail;
  if (is(s, n, "list") || is(s, n, "map") || is(s, n, "set"))
    detail = tfr_arena_printf(t->a,
                              "The %.*s type constructor requires one "
                              "argument specifying the element type.",
                              (int)n, s);
  else if (is(s, n, "object"))
    detail = "The object type constructor requires one argument specifying "
             "the attribute types and values as a map.";
  else if (is(s, n, "tuple"))
    detail = "The tuple type constructor requires one argument specifying "
             "the element types as a list.";
  else
    detail = tfr_arena_printf(t->a,
                              "The keyword \"%.*s\" is not a valid type "
                              "specification.",
                              (int)n, s);
  err_at(t, x->span, SUMMARY, detail);
  return NULL;
}

static const tfr_type *call_type(struct texpr *t, const struct ast *x,
                                 const struct tfr_defaults **defs) {
  const char *s = x->kids[0]->str;
  size_t n = x->kids[0]->n;
  struct span as = args_span(t, x);
  if (is(s, n, "bool") || is(s, n, "string") || is(s, n, "number") ||
      is(s, n, "any")) {
    err_at(t, as, SUMMARY,
           tfr_arena_printf(t->a,
                            is(s, n, "any")
                                ? "Type constraint keyword \"%.*s\" "
                                  "does not expect arguments."
                                : "Primitive type keyword \"%.*s\" "
                                  "does not expect arguments.",
                            (int)n, s));
    return NULL;
  }
  bool coll = is(s, n, "list") || is(s, n, "set") || is(s, n, "map");
  if ((coll || is(s, n, "object") || is(s, n, "tuple")) && x->n != 1) {
    struct span sub = as;
    if (x->n > 1)
      sub =
          (struct span){x->items[1]->span.start, x->items[x->n - 1]->span.end};
    const char *detail =
        coll ? tfr_arena_printf(t->a,
                                "The %.*s type constructor requires one "
                                "argument specifying the element type.",
                                (int)n, s)
        : is(s, n, "object")
            ? "The object type constructor requires one argument specifying "
              "the attribute types and values as a map."
            : "The tuple type constructor requires one argument specifying "
              "the element types as a list.";
    err_at(t, sub, SUMMARY, detail);
    return NULL;
  }
  if (coll)
    return collection(t, x->items[0], s[0], defs);
  if (is(s, n, "object"))
    return object_type(t, x, x->items[0], defs);
  if (is(s, n, "tuple"))
    return tuple_type(t, x->items[0], defs);
  if (is(s, n, "optional")) {
    err_at(t, x->kids[0]->span, SUMMARY,
           "Keyword \"optional\" is valid only as a modifier for object type "
           "attributes.");
    return NULL;
  }
  err_at(t, x->span, SUMMARY,
         tfr_arena_printf(t->a,
                          "Keyword \"%.*s\" is not a valid type constructor.",
                          (int)n, s));
  return NULL;
}

static const tfr_type *get_type(struct texpr *t, const struct ast *x,
                                const struct tfr_defaults **defs) {
  const char *s;
  size_t n;
  *defs = NULL;
  if (keyword(x, &s, &n))
    return keyword_type(t, x, s, n);
  if (x->kind == AST_CALL && !(x->flags & AST_F_EXPAND))
    return call_type(t, x, defs);
  err_at(t, x->span, SUMMARY,
         "A type specification is either a primitive type keyword (bool, "
         "number, string) or a complex type constructor call, like "
         "list(string).");
  return NULL;
}

const tfr_type *typeexpr_parse(tfr_arena *a, tfr_diags *diags,
                               struct src_file *src, const struct ast *x,
                               bool constraint, bool with_defaults,
                               const struct tfr_defaults **defaults) {
  struct texpr t = {a, diags, src, constraint, with_defaults};
  const struct tfr_defaults *d = NULL;
  size_t before = tfr_diags_count(diags);
  const tfr_type *ty = get_type(&t, x, &d);
  if (defaults)
    *defaults = d;
  if (tfr_diags_count(diags) > before)
    return NULL;
  return ty;
}

/* A quoted type from Terraform 0.11 and earlier: `type = "string"`. */
static bool legacy_quoted(tfr_arena *a, tfr_diags *diags, struct src_file *src,
                          const struct ast *x, const char *product) {
  struct texpr t = {a, diags, src, true, true};
  if (x->kind != AST_STRING && x->kind != AST_TEMPLATE)
    return false;
  if (x->kind == AST_STRING &&
      (is(x->str, x->n, "string") || is(x->str, x->n, "list") ||
       is(x->str, x->n, "map")))
    err_at(&t, x->span, "Invalid quoted type constraints",
           tfr_arena_printf(
               a,
               "%s 0.11 and earlier required type "
               "constraints to be given in quotes, but that "
               "form is now deprecated and will be removed in "
               "a future version of %s. Remove the "
               "quotes around \"%.*s\"%s.",
               product, product, (int)x->n, x->str,
               is(x->str, x->n, "list")  ? " and write list(string) instead to "
                                           "explicitly indicate that the list "
                                           "elements are strings"
               : is(x->str, x->n, "map") ? " and write map(string) instead to "
                                           "explicitly indicate that the map "
                                           "elements are strings"
                                         : ""));
  else
    err_at(&t, x->span, "Invalid legacy variable type hint",
           "To provide a full type expression, remove the surrounding "
           "quotes and give the type expression directly.");
  return true;
}

const tfr_type *typeexpr_variable(tfr_arena *a, tfr_diags *diags,
                                  struct src_file *src, const struct ast *x,
                                  const char *product,
                                  const struct tfr_defaults **defaults) {
  if (legacy_quoted(a, diags, src, x, product))
    return NULL;
  if (x->kind == AST_VARIABLE &&
      (is(x->str, x->n, "list") || is(x->str, x->n, "map"))) {
    if (defaults)
      *defaults = NULL;
    return x->n == 4 ? tfr_type_list(a, &tfr_t_dynamic)
                     : tfr_type_map(a, &tfr_t_dynamic);
  }
  return typeexpr_parse(a, diags, src, x, true, true, defaults);
}
