/*
** Type conversion functions: tobool tolist tomap tonumber toset tostring
** (Terraform's MakeToFunc, internal/lang/funcs/conversion.go) and the
** sensitivity functions sensitive nonsensitive issensitive
** (internal/lang/funcs/sensitive.go).
**
** The to* functions take any value as it is (null, unknown, marked) and
** convert it themselves, so that their errors can speak of an explicit
** conversion ("cannot convert tuple to bool") rather than of an argument
** of the wrong type.
*/
#include <stdlib.h>

#include "values/convert.h"
#include "eval/funcs.h"
#include "base/strutil.h"
#include "eval/typeexpr.h"

#define MARKS (TFR_V_SENSITIVE | TFR_V_EPHEMERAL)
#define ANY_VALUE                                                              \
  (FP_ALLOW_NULL | FP_ALLOW_UNKNOWN | FP_ALLOW_DYNAMIC | FP_ALLOW_MARKED)

/* The wanted types of tolist, tomap and toset: collections of "any". */
static const tfr_type t_list_any = {TFR_LIST, 0,    &tfr_t_dynamic,
                                    NULL,     NULL, NULL};
static const tfr_type t_map_any = {TFR_MAP, 0,    &tfr_t_dynamic,
                                   NULL,    NULL, NULL};
static const tfr_type t_set_any = {TFR_SET, 0,    &tfr_t_dynamic,
                                   NULL,    NULL, NULL};

/*
** The result type: the wanted type, if any value of the argument's type
** could convert to it (convert.GetConversionUnsafe, tried on an unknown
** value of that type); else the error.  The spec's ret is the wanted type.
*/
static const tfr_type *to_type(struct fcall *f) {
  const tfr_type *want = f->spec->ret, *got = f->args[0]->type;
  if (tfr_type_equal(got, want))
    return want;
  const char *err = NULL;
  if (!conv_convert(f->a, tfr_unknown(f->a, got), want, &err)) {
    fcall_arg_error(f, 0, "cannot convert %s to %s",
                    tfr_type_friendly(f->a, got), conv_friendly(f->a, want));
    return NULL;
  }
  return want;
}

/* Why a conversion the types allowed failed for this value. */
static void to_error(struct fcall *f, const tfr_type *want) {
  const tfr_value *v = f->args[0];
  const char *got = tfr_type_friendly(f->a, v->type);
  if (tfr_value_has_mark(v, TFR_V_SENSITIVE))
    fcall_arg_error(f, 0, "cannot convert this sensitive %s to %s", got,
                    conv_friendly(f->a, want));
  else if (v->type->kind == TFR_STRING && want->kind == TFR_BOOL)
    fcall_arg_error(f, 0,
                    "cannot convert %s to bool; only the strings \"true\" "
                    "or \"false\" are allowed",
                    str_go_quote(f->a, v->s, v->n));
  else if (v->type->kind == TFR_STRING && want->kind == TFR_NUMBER)
    fcall_arg_error(f, 0,
                    "cannot convert %s to number; given string must be a "
                    "decimal representation of a number",
                    str_go_quote(f->a, v->s, v->n));
  else
    fcall_arg_error(f, 0, "cannot convert %s to %s", got,
                    conv_friendly(f->a, want));
}

/* tobool(v), tolist(v), ...: v converted to the wanted type.  An unknown
** v gives an unknown of the wanted type with v's own marks. */
static const tfr_value *fn_to(struct fcall *f, const tfr_type *ret) {
  const tfr_value *v = f->args[0];
  if (v->flags & TFR_V_UNKNOWN)
    return tfr_value_mark(f->a, tfr_unknown(f->a, ret), v->flags & MARKS);
  const char *err = NULL;
  const tfr_value *r = conv_convert(f->a, v, ret, &err);
  if (!r)
    to_error(f, ret);
  return r;
}

/* sensitive and nonsensitive keep the argument's type. */
static const tfr_type *same_type(struct fcall *f) { return f->args[0]->type; }

/* sensitive(value): the value, marked sensitive. */
static const tfr_value *fn_sensitive(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  return tfr_value_mark(f->a, f->args[0], TFR_V_SENSITIVE);
}

/* nonsensitive(value): the value without its own sensitive mark; marks
** inside it (elements, attributes) stay, as cty's Unmark is shallow. */
static const tfr_value *fn_nonsensitive(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *v = f->args[0];
  if (!(v->flags & TFR_V_SENSITIVE))
    return v;
  tfr_value *u = tfr_arena_alloc(f->a, sizeof *u);
  *u = *v;
  u->flags = (uint8_t)(u->flags & ~TFR_V_SENSITIVE);
  return u;
}

/* issensitive(value): whether the value itself is marked sensitive;
** unknown for an unknown value that is not. */
static const tfr_value *fn_issensitive(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *v = f->args[0];
  if (v->flags & TFR_V_SENSITIVE)
    return tfr_bool(true);
  if (v->flags & TFR_V_UNKNOWN)
    return tfr_unknown(f->a, &tfr_t_bool);
  return tfr_bool(false);
}

/* The value with every ephemeral part (itself, an element, an attribute)
** replaced by a null of its type; other marks stay. */
static const tfr_value *ephemeral_null(tfr_arena *a, const tfr_value *v) {
  if (v->flags & TFR_V_EPHEMERAL) {
    /* an unknown stays unknown: its final type may be more precise */
    const tfr_value *n = v->flags & TFR_V_UNKNOWN ? tfr_unknown(a, v->type)
                                                  : tfr_null(a, v->type);
    unsigned keep = v->flags & TFR_V_SENSITIVE;
    return keep ? tfr_value_mark(a, n, keep) : n;
  }
  if ((v->flags & (TFR_V_NULL | TFR_V_UNKNOWN)) ||
      tfr_type_is_primitive(v->type) || v->type->kind == TFR_DYNAMIC ||
      !tfr_value_has_mark(v, TFR_V_EPHEMERAL))
    return v;
  const tfr_value **e = tfr_arena_alloc(a, (v->n ? v->n : 1) * sizeof *e);
  for (uint32_t i = 0; i < v->n; i++)
    e[i] = ephemeral_null(a, v->elems[i]);
  tfr_value *u = tfr_arena_alloc(a, sizeof *u);
  *u = *v;
  u->elems = e;
  return u;
}

/* ephemeralasnull(value): ephemeral parts become null. */
static const tfr_value *fn_ephemeralasnull(struct fcall *f,
                                           const tfr_type *ret) {
  (void)ret;
  return ephemeral_null(f->a, f->args[0]);
}

/* convert(value, type): the value converted to a type constraint, then
** its optional attributes' defaults applied (Terraform 1.15).  The type
** argument is a type expression, never evaluated. */
const tfr_value *funcs_convert(struct eval_ctx *c, const struct ast *x) {
  static const char *const names[] = {"value", "type"};
  int nlen = (int)x->kids[0]->n; /* as written: core::convert */
  const char *name = x->kids[0]->str;
  if (x->n < 2) {
    eval_error_span(c, eval_call_close(c, x), "Not enough function arguments",
                    tfr_arena_printf(c->a,
                                     "Function \"%.*s\" expects 2 argument(s). "
                                     "Missing value for \"%s\".",
                                     nlen, name, names[x->n]));
    tfr_diags_set_code(c->diags, TFR_CODE_MISSING_ARGUMENT);
    return eval_dynamic(c);
  }
  if (x->n > 2) {
    eval_error_span(c, eval_start_span(c, x->items[2]),
                    "Too many function arguments",
                    tfr_arena_printf(c->a,
                                     "Function \"%.*s\" expects only 2 "
                                     "argument(s).",
                                     nlen, name));
    return eval_dynamic(c);
  }
  const tfr_value *v = eval_expr(c, x->items[0]);
  const struct tfr_defaults *defs = NULL;
  const tfr_type *t =
      typeexpr_parse(c->a, c->diags, c->src, x->items[1], true, true, &defs);
  if (!t)
    return eval_dynamic(c);
  /* its value parameter takes no marks and no unknown value
  ** (internal/lang/funcs/conversion.go:211-216 in Terraform): every mark,
  ** from anywhere inside, goes to the result as a whole, and only a value
  ** unknown as a whole gives an unknown result; a value with unknowns
  ** inside is converted, those parts staying unknown
  ** (cty/function/function.go:297-311 in go-cty v1.18.1) */
  unsigned marks = 0;
  v = tfr_value_unmark(c->a, v, MARKS, &marks);
  if (v->flags & TFR_V_UNKNOWN)
    return tfr_value_mark(c->a, tfr_unknown(c->a, t), marks);
  /* as Terraform's convert: the conversion first, then the defaults */
  const char *err = NULL;
  const tfr_value *r = conv_convert(c->a, v, t, &err);
  if (r && defs)
    r = conv_apply_defaults(c->a, r, defs);
  if (!r) {
    eval_error_span(
        c, eval_start_span(c, x->items[0]), "Invalid function argument",
        tfr_arena_printf(c->a, "Invalid value for \"value\" parameter: %s.",
                         err ? err : "incorrect type"));
    return eval_dynamic(c);
  }
  return marks ? tfr_value_mark(c->a, r, marks) : r;
}

/* Whether t has an object type anywhere (attribute names). */
static bool type_has_object(const tfr_type *t) {
  if (t->kind == TFR_OBJECT)
    return true;
  if (t->elem && type_has_object(t->elem))
    return true;
  for (uint32_t i = 0; t->kind == TFR_TUPLE && i < t->n; i++)
    if (type_has_object(t->types[i]))
      return true;
  return false;
}

/* levels of the console's four-space indent */
static void pad(struct sbuf *b, int levels) {
  for (int k = 0; k < levels; k++)
    sbuf_str(b, "    ");
}

/* The console's rendering of a type (Terraform's repl typeString: four
** spaces per level, objects and tuples one element per line). */
static void type_string(struct sbuf *b, const tfr_type *t, int indent) {
  switch (t->kind) {
  case TFR_OBJECT:
  case TFR_TUPLE: {
    bool obj = t->kind == TFR_OBJECT;
    if (!t->n) {
      sbuf_str(b, obj ? "object({})" : "tuple([])");
      return;
    }
    sbuf_str(b, obj ? "object({\n" : "tuple([\n");
    for (uint32_t i = 0; i < t->n; i++) {
      pad(b, indent + 1);
      if (obj) {
        sbuf_str(b, t->names[i]);
        sbuf_str(b, ": ");
      }
      type_string(b, t->types[i], indent + 1);
      sbuf_str(b, ",\n");
    }
    pad(b, indent);
    sbuf_str(b, obj ? "})" : "])");
    return;
  }
  case TFR_LIST:
  case TFR_MAP:
  case TFR_SET: {
    sbuf_str(b, t->kind == TFR_LIST  ? "list("
                : t->kind == TFR_MAP ? "map("
                                     : "set(");
    bool complex = t->elem->kind == TFR_OBJECT || t->elem->kind == TFR_TUPLE;
    if (complex) {
      sbuf_str(b, "\n");
      pad(b, indent + 1);
    }
    type_string(b, t->elem, indent + complex);
    if (complex) {
      sbuf_str(b, ",\n");
      pad(b, indent);
    }
    sbuf_str(b, ")");
    return;
  }
  case TFR_DYNAMIC:
    sbuf_str(b, "dynamic");
    return;
  default:
    sbuf_str(b, t->kind == TFR_BOOL     ? "bool"
                : t->kind == TFR_NUMBER ? "number"
                                        : "string");
  }
}

const tfr_value *funcs_type(struct eval_ctx *c, const struct ast *x) {
  if (x->n != 1) {
    eval_error_span(
        c, x->n ? eval_start_span(c, x->items[1]) : eval_call_close(c, x),
        x->n ? "Too many function arguments" : "Not enough function arguments",
        tfr_arena_printf(c->a,
                         x->n ? "Function \"%.*s\" expects only 1 "
                                "argument(s)."
                              : "Function \"%.*s\" expects 1 argument(s). "
                                "Missing value for \"value\".",
                         (int)x->kids[0]->n, x->kids[0]->str));
    if (!x->n)
      tfr_diags_set_code(c->diags, TFR_CODE_MISSING_ARGUMENT);
    return eval_dynamic(c);
  }
  const tfr_value *v = eval_expr(c, x->items[0]);
  struct sbuf b = {0};
  type_string(&b, v->type, 0);
  tfr_value *r = UNCONST(tfr_value *, tfr_string(c->a, b.p ? b.p : "", b.n));
  free(b.p);
  r->flags |= TFR_V_TYPE;
  /* the type of a sensitive value with an object in it spells the
  ** value's keys: sensitive too (the console hides it unless
  ** -show-sensitive; Terraform shows it) */
  if (tfr_value_has_mark(v, TFR_V_SENSITIVE) && type_has_object(v->type)) {
    r = UNCONST(tfr_value *, tfr_value_mark(c->a, r, TFR_V_SENSITIVE));
    r->flags |= TFR_V_TYPE;
  }
  return r;
}

#define TO(name, want)                                                         \
  { name, 1, {{"v", NULL, ANY_VALUE}}, NULL, want, to_type, fn_to }
#define MARKFN(name, ret, type, impl)                                          \
  { name, 1, {{"value", NULL, ANY_VALUE}}, NULL, ret, type, impl }

static const struct func_spec specs[] = {
    TO("tobool", &tfr_t_bool),
    TO("tolist", &t_list_any),
    TO("tomap", &t_map_any),
    TO("tonumber", &tfr_t_number),
    TO("toset", &t_set_any),
    TO("tostring", &tfr_t_string),
    MARKFN("sensitive", NULL, same_type, fn_sensitive),
    MARKFN("nonsensitive", NULL, same_type, fn_nonsensitive),
    MARKFN("issensitive", &tfr_t_bool, NULL, fn_issensitive),
    MARKFN("ephemeralasnull", NULL, same_type, fn_ephemeralasnull),
};

const struct func_group funcs_typeconv = {specs, sizeof specs / sizeof *specs};
