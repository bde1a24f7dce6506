/*
** Calling a built-in function the way cty does: arity, argument
** conversion, null/unknown/marked arguments, result type, then the
** implementation; errors become HCL's function-call diagnostics.
*/
#include "eval/engine.h"
#include "eval/funcs.h"

#include <assert.h>
#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "values/convert.h"
#include "values/number.h"
#include "base/strutil.h"
#include "base/arena_int.h"
#include "values/secret.h"

#define MARKS (TFR_V_SENSITIVE | TFR_V_EPHEMERAL)

static const struct {
  const struct func_group *g;
  bool opentofu; /* only with -engine=opentofu (OpenTofu's extras) */
  /* split out of the group before it: both tables are sorted by name and
  ** their names are listed interleaved, in the order of the one table
  ** they were (see suggest) */
  bool merged;
} groups[] = {
    {&funcs_numeric, false, false},    {&funcs_string, false, false},
    {&funcs_collection, false, false}, {&funcs_sets, false, true},
    {&funcs_encoding, false, false},   {&funcs_typeconv, false, false},
    {&funcs_time, false, false},       {&funcs_crypto, false, false},
    {&funcs_file, false, false},       {&funcs_net, false, false},
    {&funcs_net_tofu, true, false},    {&funcs_encoding_tofu, true, false},
    {&funcs_assume_tofu, true, false}, {&funcs_provider, false, false},
    {&funcs_yaml, false, false},       {&funcs_yaml_emit, false, false},
    {&funcs_json, false, false},       {&funcs_format, false, false},
};
enum { NGROUPS = sizeof groups / sizeof *groups };

/* Whether the engine in use has group g. */
static bool available(const struct eval_ctx *c, size_t g) {
  return !groups[g].opentofu || EVAL_ENGINE(c)->tofu_funcs;
}

bool funcs_impure(const char *name, size_t len) {
  static const char *const impure[] = {"bcrypt", "timestamp", "uuid"};
  if (len > 6 && !memcmp(name, "core::", 6)) {
    name += 6;
    len -= 6;
  }
  for (size_t i = 0; i < sizeof impure / sizeof *impure; i++)
    if (strlen(impure[i]) == len && !memcmp(impure[i], name, len))
      return true;
  return false;
}

/* The functions whose spec has RefineResult: refineNotNull (cty's stdlib
** and Terraform's internal/lang/funcs; templatestring's at
** internal/lang/funcs/string.go:178): an unknown result of theirs is
** known not to be null.  Sorted. */
static const char *const not_null[] = {"abs",
                                       "abspath",
                                       "alltrue",
                                       "anytrue",
                                       "base64decode",
                                       "base64encode",
                                       "base64gzip",
                                       "base64sha256",
                                       "base64sha512",
                                       "basename",
                                       "bcrypt",
                                       "ceil",
                                       "chomp",
                                       "chunklist",
                                       "cidrhost",
                                       "cidrnetmask",
                                       "cidrsubnet",
                                       "cidrsubnets",
                                       "coalesce",
                                       "coalescelist",
                                       "compact",
                                       "concat",
                                       "contains",
                                       "csvdecode",
                                       "dirname",
                                       "distinct",
                                       "endswith",
                                       "file",
                                       "filebase64",
                                       "filebase64sha256",
                                       "filebase64sha512",
                                       "fileexists",
                                       "filemd5",
                                       "fileset",
                                       "filesha1",
                                       "filesha256",
                                       "filesha512",
                                       "flatten",
                                       "floor",
                                       "format",
                                       "formatdate",
                                       "formatlist",
                                       "indent",
                                       "index",
                                       "join",
                                       "jsonencode",
                                       "keys",
                                       "length",
                                       "log",
                                       "lower",
                                       "matchkeys",
                                       "max",
                                       "md5",
                                       "merge",
                                       "min",
                                       "parseint",
                                       "pathexpand",
                                       "pow",
                                       "range",
                                       "regex",
                                       "regexall",
                                       "replace",
                                       "reverse",
                                       "rsadecrypt",
                                       "setintersection",
                                       "setproduct",
                                       "setsubtract",
                                       "setunion",
                                       "sha1",
                                       "sha256",
                                       "sha512",
                                       "signum",
                                       "slice",
                                       "sort",
                                       "split",
                                       "startswith",
                                       "strrev",
                                       "substr",
                                       "sum",
                                       "templatestring",
                                       "textdecodebase64",
                                       "textencodebase64",
                                       "timecmp",
                                       "timestamp",
                                       "title",
                                       "transpose",
                                       "trim",
                                       "trimprefix",
                                       "trimspace",
                                       "trimsuffix",
                                       "upper",
                                       "urlencode",
                                       "uuid",
                                       "uuidv5",
                                       "values",
                                       "zipmap"};

static int cmp_name(const void *k, const void *e) {
  return strcmp(k, *(const char *const *)e);
}

/* v (unknown) refined as not null. */
static const tfr_value *not_null_of(tfr_arena *a, const tfr_value *v) {
  if (v->flags & TFR_V_NOTNULL)
    return v;
  tfr_value *u = tfr_arena_alloc(a, sizeof *u);
  *u = *v;
  u->flags |= TFR_V_NOTNULL;
  return u;
}

const tfr_value *funcs_unknown_notnull(tfr_arena *a, const tfr_type *t) {
  return not_null_of(a, tfr_unknown(a, t));
}

/* An unknown result of f refined as cty's Call refines it. */
static const tfr_value *refined(struct fcall *f, const tfr_value *v) {
  if (!v || !(v->flags & TFR_V_UNKNOWN) || v->type->kind == TFR_DYNAMIC ||
      !bsearch(f->spec->name, not_null, sizeof not_null / sizeof *not_null,
               sizeof *not_null, cmp_name))
    return v;
  return not_null_of(f->a, v);
}

/* A result with a string too long to hold (TFR_V_TOO_LARGE), itself or
** one of its elements. */
static bool too_large(const tfr_value *v) {
  if (v->flags & TFR_V_TOO_LARGE)
    return true;
  if (v->flags & (TFR_V_NULL | TFR_V_UNKNOWN) || v->type->kind == TFR_STRING ||
      tfr_type_is_primitive(v->type))
    return false;
  for (uint32_t i = 0; i < v->n; i++)
    if (v->elems[i]->flags & TFR_V_TOO_LARGE)
      return true;
  return false;
}

/*
** Every function by name, built once: a table of open addressing whose
** slots hold the specs in group order (a name in several groups fills
** several slots, the first group's first), so that a call finds its
** function without scanning the groups.
*/
enum { INDEX_SLOTS = 1024 };
static struct {
  const struct func_spec *spec;
  uint32_t len;
  uint8_t group;
} fn_index[INDEX_SLOTS];
static pthread_once_t fn_index_once = PTHREAD_ONCE_INIT;

static void build_index(void) {
  for (size_t g = 0; g < NGROUPS; g++) {
    if (groups[g].merged) /* suggest() needs both tables sorted by name */
      for (size_t m = g - 1; m <= g; m++)
        for (size_t i = 1; i < groups[m].g->n; i++)
          assert(strcmp(groups[m].g->specs[i - 1].name,
                        groups[m].g->specs[i].name) < 0);
    for (size_t i = 0; i < groups[g].g->n; i++) {
      const struct func_spec *sp = &groups[g].g->specs[i];
      size_t len = strlen(sp->name);
      size_t k = (size_t)str_hash(sp->name, len) & (INDEX_SLOTS - 1);
      while (fn_index[k].spec)
        k = (k + 1) & (INDEX_SLOTS - 1);
      fn_index[k].spec = sp;
      fn_index[k].len = (uint32_t)len;
      fn_index[k].group = (uint8_t)g;
    }
  }
}

static const struct func_spec *lookup(const struct eval_ctx *c,
                                      const char *name, size_t len) {
  pthread_once(&fn_index_once, build_index);
  for (size_t k = (size_t)str_hash(name, len) & (INDEX_SLOTS - 1);
       fn_index[k].spec; k = (k + 1) & (INDEX_SLOTS - 1))
    if (fn_index[k].len == len && available(c, fn_index[k].group) &&
        !memcmp(fn_index[k].spec->name, name, len))
      return fn_index[k].spec;
  return NULL;
}

/* Whether the function exists where c evaluates: Terraform's console has
** no plantimestamp (internal/lang/functions.go:106-110: it is registered
** only outside console mode). */
static bool in_scope(const struct eval_ctx *c, const struct func_spec *sp) {
  if (c->providers && !c->providers->builtin_terraform &&
      !strncmp(sp->name, "provider::terraform::", 21))
    return false; /* only where the module requires the provider */
  return !(c->console && !strcmp(sp->name, "plantimestamp"));
}

/* The length of a function name's namespace ("core::" of core::upper;
** up to its last "::", as hclsyntax's FunctionCallExpr splits it), 0 for
** none. */
static size_t namespace_len(const char *name, size_t len) {
  for (size_t i = len; i >= 2; i--)
    if (name[i - 1] == ':' && name[i - 2] == ':')
      return i;
  return 0;
}

/*
** The function a call's name (as written) names, as Terraform's table has
** them: every built-in also as core::NAME (internal/lang/functions.go:
** 117-124), the provider::terraform:: ones by their full names.
*/
static const struct func_spec *lookup_name(const struct eval_ctx *c,
                                           const char *name, size_t len) {
  if (len > 6 && !memcmp(name, "core::", 6) && namespace_len(name, len) == 6) {
    name += 6;
    len -= 6;
  }
  const struct func_spec *sp = lookup(c, name, len);
  return sp && in_scope(c, sp) ? sp : NULL;
}

/* Whether any function's name starts with namespace ns ("x::"). */
static bool namespace_used(const struct eval_ctx *c, const char *ns,
                           size_t len) {
  if (len == 6 && !memcmp(ns, "core::", 6))
    return true;
  for (size_t g = 0; g < NGROUPS; g++)
    for (size_t i = 0; available(c, g) && i < groups[g].g->n; i++) {
      const struct func_spec *sp = &groups[g].g->specs[i];
      if (!strncmp(sp->name, ns, len) && in_scope(c, sp))
        return true;
    }
  return false;
}

/*
** The first function, in the order of the groups, whose name is near
** name.  A merged group's names are interleaved by name with those of the
** group before it, so that the order stays that of the one table they
** were (funcs_collection and funcs_sets).
*/
static const char *suggest(const struct eval_ctx *c, tfr_arena *a,
                           const char *name, size_t len) {
  for (size_t g = 0; g < NGROUPS; g++) {
    if (groups[g].merged)
      continue; /* walked with the group before it */
    size_t h = g + 1 < NGROUPS && groups[g + 1].merged ? g + 1 : g;
    const struct func_group *x = groups[g].g, *y = groups[h].g;
    size_t i = 0, j = h == g ? y->n : 0;
    while (i < x->n || j < y->n) {
      bool from_x = j == y->n || (i < x->n && strcmp(x->specs[i].name,
                                                     y->specs[j].name) < 0);
      size_t k = from_x ? g : h;
      const struct func_spec *sp = from_x ? &x->specs[i++] : &y->specs[j++];
      const char *n = sp->name;
      if (available(c, k) && in_scope(c, sp) &&
          str_distance(name, len, n, strlen(n)) < 3)
        return tfr_arena_printf(a, " Did you mean \"%s\"?", n);
    }
  }
  return "";
}

/* The texts inside a sensitive argument v, added to f->secrets. */
static void collect_secrets(struct fcall *f, const tfr_value *v, size_t *cap) {
  if (v->flags & (TFR_V_NULL | TFR_V_UNKNOWN))
    return;
  const char *text = NULL;
  if (v->type->kind == TFR_STRING)
    text = tfr_arena_strndup(f->a, v->s, v->n);
  else if (v->type->kind == TFR_NUMBER)
    text = num_format(f->a, v->num);
  if (text && *text) {
    ARENA_GROW(f->a, f->secrets, f->nsecrets, *cap, 8);
    f->secrets[f->nsecrets++] = text;
  }
  if (tfr_type_is_primitive(v->type) || v->type->kind == TFR_DYNAMIC)
    return;
  if (v->type->kind == TFR_MAP)
    for (uint32_t i = 0; i < v->n; i++)
      collect_secrets(f, tfr_string_nocopy(f->a, v->keys[i], v->keylens[i]),
                      cap);
  for (uint32_t i = 0; i < v->n; i++)
    collect_secrets(f, v->elems[i], cap);
}

/*
** An error message that would show a sensitive argument: each of its
** texts, and each quoted part of one, becomes "(sensitive value)", as
** Terraform's own functions write a sensitive value in their messages.
*/
static const char *redact(struct fcall *f, const char *msg) {
  if (!f->nsecrets)
    return msg;
  static const char hidden[] = SECRET_TEXT;
  struct sbuf b = {0};
  bool changed = false;
  for (const char *p = msg; *p;) {
    /* a quoted part: Go's %q ("...") or a regexp error's `...` */
    if (*p == '"' || *p == '`') {
      const char *q = p + 1;
      while (*q && *q != *p)
        q += q[0] == '\\' && q[1] && *p == '"' ? 2 : 1;
      size_t n = (size_t)(q - p - 1);
      bool secret = false;
      for (size_t i = 0; n && *q && !secret && i < f->nsecrets; i++) {
        const char *s = f->secrets[i];
        for (const char *at = strchr(s, p[1]); at && !secret;
             at = strchr(at + 1, p[1]))
          secret = !strncmp(at, p + 1, n);
      }
      if (secret) {
        sbuf_str(&b, hidden);
        p = q + 1;
        changed = true;
        continue;
      }
    }
    /* a text of three bytes or more anywhere; a shorter one (a number
    ** such as 16) only as a word of its own */
    size_t i = 0, len = 0;
    for (; i < f->nsecrets; i++) {
      len = strlen(f->secrets[i]);
      if (strncmp(p, f->secrets[i], len) != 0)
        continue;
      if (len >= 3 || ((p == msg || !isalnum((unsigned char)p[-1])) &&
                       !isalnum((unsigned char)p[len])))
        break;
    }
    if (i < f->nsecrets) {
      sbuf_str(&b, hidden);
      p += len;
      changed = true;
    } else {
      sbuf_put(&b, p++, 1);
    }
  }
  const char *out = changed ? tfr_arena_strndup(f->a, b.p, b.n) : msg;
  free(b.p);
  return out;
}

static void vreport(struct fcall *f, struct span at, const char *summary,
                    const char *prefix, const char *fmt, va_list ap) {
  if (!fmt) /* (gcc 12 -O2 with sanitizers warns of a null format else) */
    fmt = "";
  va_list again;
  va_copy(again, ap);
  char probe[1];
  int n = vsnprintf(probe, 0, fmt, ap); /* messages may quote long input */
  char *msg = tfr_arena_alloc(f->a, n > 0 ? (size_t)n + 1 : 1);
  vsnprintf(msg, n > 0 ? (size_t)n + 1 : 1, fmt, again);
  va_end(again);
  eval_error_span(f->c, at, summary,
                  tfr_arena_printf(f->a, "%s%s.", prefix, redact(f, msg)));
  f->failed = true;
}

const char *fcall_name(const struct fcall *f) {
  const struct ast *name = f->call->kids[0];
  return tfr_arena_strndup(f->a, name->str, name->n);
}

void fcall_error(struct fcall *f, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport(
      f, eval_call_start(f->c, f->call), "Error in function call",
      tfr_arena_printf(f->a, "Call to function \"%s\" failed: ", fcall_name(f)),
      fmt, ap);
  va_end(ap);
  tfr_diags_set_code(f->c->diags, TFR_CODE_FUNCTION_FAILED);
}

void fcall_ours(struct fcall *f) { tfr_diags_set_ours(f->c->diags); }

static const struct func_param *param_of(const struct func_spec *s, size_t i) {
  return i < (size_t)s->nparams ? &s->params[i] : s->variadic;
}

void fcall_arg_error(struct fcall *f, size_t i, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  struct span at = i < f->call->n ? eval_start_span(f->c, f->call->items[i])
                                  : eval_call_start(f->c, f->call);
  vreport(f, at, "Invalid function argument",
          tfr_arena_printf(f->a, "Invalid value for \"%s\" parameter: ",
                           param_of(f->spec, i)->name),
          fmt, ap);
  va_end(ap);
}

/* Spread `f(a, list...)`: the last argument's elements become arguments. */
static bool expand(struct fcall *f, const struct ast *x,
                   const tfr_value ***args, size_t *n, bool *unknown) {
  const tfr_value *last = (*args)[*n - 1];
  const struct ast *at = x->items[x->n - 1];
  if (last->flags & TFR_V_NULL) {
    eval_error(f->c, at, "Invalid expanding argument value",
               "The expanding argument (indicated by ...) must not be null.");
    return false;
  }
  int k = last->type->kind;
  if (k == TFR_DYNAMIC || (last->flags & TFR_V_UNKNOWN)) {
    *unknown = true;
    return true;
  }
  if (k != TFR_LIST && k != TFR_SET && k != TFR_TUPLE) {
    eval_error(f->c, at, "Invalid expanding argument value",
               "The expanding argument (indicated by ...) must be of a "
               "tuple, list, or set type.");
    return false;
  }
  size_t total = *n - 1 + last->n;
  const tfr_value **all =
      tfr_arena_alloc(f->a, (total ? total : 1) * sizeof *all);
  memcpy(all, *args, (*n - 1) * sizeof *all);
  /* the collection's own marks go to each of its elements, as in HCL */
  unsigned marks = last->flags & MARKS;
  for (uint32_t i = 0; i < last->n; i++)
    all[*n - 1 + i] =
        marks ? tfr_value_mark(f->a, last->elems[i], marks) : last->elems[i];
  *args = all;
  *n = total;
  return true;
}

static bool arity(struct fcall *f, const struct ast *x, size_t n) {
  const struct func_spec *s = f->spec;
  if (n < (size_t)s->nparams) {
    eval_error_span(
        f->c, eval_call_close(f->c, x), "Not enough function arguments",
        tfr_arena_printf(f->a,
                         "Function \"%s\" expects%s %d argument(s). "
                         "Missing value for \"%s\".",
                         fcall_name(f), s->variadic ? " at least" : "",
                         s->nparams, s->params[n].name));
    tfr_diags_set_code(f->c->diags, TFR_CODE_MISSING_ARGUMENT);
    return false;
  }
  if (!s->variadic && n > (size_t)s->nparams) {
    struct span at = (size_t)s->nparams < x->n
                         ? eval_start_span(f->c, x->items[s->nparams])
                         : x->span;
    eval_error_span(f->c, at, "Too many function arguments",
                    tfr_arena_printf(f->a,
                                     "Function \"%s\" expects only %d "
                                     "argument(s).",
                                     fcall_name(f), s->nparams));
    return false;
  }
  return true;
}

/*
** The arguments as cty's returnTypeForValues checks them, in order: a null
** argument is an error unless its parameter allows null, and an argument
** of type any whose parameter does not allow that type ends the check:
** *dynamic is set, and the call's result is an unknown value of type any,
** without the later arguments' checks or the function (a literal null is
** such an argument: contains(list, null); cty/function/function.go:169-181,
** 204-211 and 261-267).  False after reporting an error.
*/
static bool check_args(struct fcall *f, const tfr_value *const *args, size_t n,
                       bool *dynamic) {
  for (size_t i = 0; i < n; i++) {
    const struct func_param *p = param_of(f->spec, i);
    if ((args[i]->flags & TFR_V_NULL) && !(p->flags & FP_ALLOW_NULL)) {
      fcall_arg_error(f, i, "argument must not be null");
      return false;
    }
    if (args[i]->type->kind == TFR_DYNAMIC && !(p->flags & FP_ALLOW_DYNAMIC)) {
      *dynamic = true;
      return true;
    }
  }
  return true;
}

/*
** An argument, converted: marks taken off deeply (into *marks, which the
** result gets back) unless the parameter takes them, and *unknown set
** when it is unknown as a whole and the parameter does not take that.
** An argument that only holds unknowns reaches the function, which
** decides what they make of its result (cty/function/function.go:
** 297-316 in go-cty v1.18.1: Call tests val.IsKnown(), not
** IsWhollyKnown).  As cty's Function.Call, for every argument, even
** when the result is already known to be unknown.
*/
static void prepare_arg(struct fcall *f, size_t i, const tfr_value **v,
                        unsigned *marks, bool *unknown) {
  const struct func_param *p = param_of(f->spec, i);
  if (!(p->flags & FP_ALLOW_MARKED))
    *v = tfr_value_unmark(f->a, *v, MARKS, marks);
  if (((*v)->flags & TFR_V_UNKNOWN) && !(p->flags & FP_ALLOW_UNKNOWN))
    *unknown = true;
}

/* Whether name is "provider::NAME::f" of a provider the module requires
** (not the built-in one, whose functions are in the table). */
static bool required_provider_fn(const struct eval_ctx *c, const char *name,
                                 size_t len) {
  size_t ns = namespace_len(name, len);
  if (ns < 13 || memcmp(name, "provider::", 10))
    return false;
  const char *p = name + 10;
  size_t n = ns - 12;
  if (memchr(p, ':', n))
    return false; /* provider::a::b::f: no provider's */
  for (size_t i = 0; i < c->providers->n; i++)
    if (strlen(c->providers->names[i]) == n &&
        !memcmp(c->providers->names[i], p, n))
      return !(n == 9 && !memcmp(p, "terraform", 9) &&
               c->providers->builtin_terraform);
  return false;
}

/* Whether a call of name, no function of the table, is a function of
** another provider, whose result plan asks that provider for: unknown
** here. */
static bool provider_fn_unknown(const struct eval_ctx *c, const char *name,
                                size_t len) {
  if (!c->providers) /* every provider's but the built-in one's */
    return c->plan && len > 10 && !memcmp(name, "provider::", 10);
  if (c->unknown_funcs == EVAL_FUNCS_INIT && namespace_len(name, len))
    return true;
  return required_provider_fn(c, name, len);
}

/*
** Terraform's text for a call of a function that does not exist in a
** namespace (lang/eval.go:599-650): the namespace is not provider::, the
** provider name is missing, the provider has no such function, or the
** module does not require the provider.  name + ns is the bare name.
*/
static const char *provider_fn_detail(struct eval_ctx *c, const char *name,
                                      size_t len, size_t ns) {
  /* the namespace's parts: the parser makes it identifiers and "::" */
  size_t n0 = 0;
  while (name[n0] != ':')
    n0++;
  if (n0 != 8 || memcmp(name, "provider", 8))
    return tfr_arena_printf(c->a,
                            "The function namespace %s is not valid. Provider "
                            "function calls must use the \"provider::\" "
                            "namespace prefix.",
                            str_go_quote(c->a, name, n0));
  const char *part1 = name + 10;
  size_t n1 = 0;
  while (part1 + n1 < name + ns && part1[n1] != ':')
    n1++;
  if (!n1)
    return "The function call must include the provider name after the "
           "\"provider::\" prefix.";
  if (namespace_used(c, name, ns))
    return tfr_arena_printf(c->a,
                            "The function %s is not available from the "
                            "provider %s.",
                            str_go_quote(c->a, name + ns, len - ns),
                            str_go_quote(c->a, part1, n1));
  return tfr_arena_printf(
      c->a,
      "There is no function named \"%.*s\". Ensure that provider name %s is "
      "declared in this module's required_providers block, and that this "
      "provider offers a function named %s.",
      (int)len, name, str_go_quote(c->a, part1, n1),
      str_go_quote(c->a, name + ns, len - ns));
}

/* Terraform's hint after hcl's text for a bare name that a required
** provider has a function of (lang/eval.go:580-592): the built-in
** provider's, the only ones known here. */
static const char *provider_fn_hint(struct eval_ctx *c, const char *name,
                                    size_t len) {
  if (!c->providers || c->unknown_funcs == EVAL_FUNCS_HCL)
    return "";
  const char *full =
      tfr_arena_printf(c->a, "provider::terraform::%.*s", (int)len, name);
  const struct func_spec *sp = lookup(c, full, len + 21);
  if (!sp || !in_scope(c, sp))
    return "";
  return tfr_arena_printf(c->a, " Did you mean %s?",
                          str_go_quote(c->a, full, len + 21));
}

/*
** HCL's error for a name that is no function (hclsyntax/expression.go:
** 270-345): in a namespace, whether it has no functions at all or not
** that one (HCL's suggestion there compares the bare name with the full
** names, so it never finds one); else with the nearest name.
*/
static void unknown_function(struct eval_ctx *c, const struct ast *x,
                             const char *name, size_t len) {
  size_t ns = namespace_len(name, len);
  const char *detail;
  if (ns && c->providers && c->unknown_funcs != EVAL_FUNCS_HCL) {
    eval_error(c, x->kids[0], "Unknown provider function",
               provider_fn_detail(c, name, len, ns));
    return;
  }
  if (ns && !namespace_used(c, name, ns))
    detail = tfr_arena_printf(c->a, "There are no functions in namespace %s.",
                              str_go_quote(c->a, name, ns));
  else if (ns)
    detail = tfr_arena_printf(c->a,
                              "There is no function named %s in namespace "
                              "%.*s.",
                              str_go_quote(c->a, name + ns, len - ns), (int)ns,
                              name);
  else
    detail = tfr_arena_printf(c->a, "There is no function named %s.%s%s",
                              str_go_quote(c->a, name, len),
                              suggest(c, c->a, name, len),
                              provider_fn_hint(c, name, len));
  eval_error(c, x->kids[0], "Call to unknown function", detail);
}

/*
** A call, in HCL's order: the function looked up, an expanded last
** argument (f(x...)) evaluated first, the number of arguments checked,
** then each argument evaluated and converted to its parameter's type in
** turn (every error reported), and only then the call itself (null,
** unknown and marked arguments, the result).  given, when not NULL, holds
** the arguments already evaluated.
*/
static const tfr_value *call(void *ud, struct eval_ctx *c, const struct ast *x,
                             const char *name, size_t len, size_t nargs,
                             const tfr_value *const *given) {
  (void)ud;
  struct fcall f = {0};
  f.c = c;
  f.a = c->a;
  f.call = x;
  f.spec = lookup_name(c, name, len);
  if (!f.spec && provider_fn_unknown(c, name, len)) {
    /* another provider's function: plan asks the provider, which is not
    ** here, so its result is unknown (its arguments still evaluated, for
    ** their errors and marks) */
    unsigned marks = 0;
    for (size_t i = 0; i < nargs; i++) {
      const tfr_value *v = given ? given[i] : eval_expr(c, x->items[i]);
      marks |= tfr_value_marks(v) & MARKS;
    }
    const tfr_value *u = tfr_unknown(c->a, &tfr_t_dynamic);
    return marks ? tfr_value_mark(c->a, u, marks) : u;
  }
  if (!f.spec) {
    unknown_function(c, x, name, len);
    return eval_dynamic(c);
  }

  /* args[i] is evaluated from x->items[i] when it is NULL */
  const tfr_value **args =
      tfr_arena_alloc(c->a, (nargs ? nargs : 1) * sizeof *args);
  if (given)
    memcpy(args, given, nargs * sizeof *args);
  size_t before = tfr_diags_count(c->diags);
  bool unknown = false;
  if ((x->flags & AST_F_EXPAND) && nargs) {
    if (!args[nargs - 1])
      args[nargs - 1] = eval_expr(c, x->items[nargs - 1]);
    if (tfr_diags_count(c->diags) > before ||
        !expand(&f, x, &args, &nargs, &unknown) || unknown)
      return eval_dynamic(c);
  }
  if (!arity(&f, x, nargs))
    return eval_dynamic(c);
  for (size_t i = 0; i < nargs; i++) {
    if (!args[i])
      args[i] = eval_expr(c, x->items[i]);
    const struct func_param *p = param_of(f.spec, i);
    const char *err = NULL;
    const tfr_value *cv =
        p->type ? conv_convert(c->a, args[i], p->type, &err) : args[i];
    if (!cv)
      fcall_arg_error(&f, i, "%s", err ? err : "incorrect type");
    else
      args[i] = cv;
  }
  if (f.failed || tfr_diags_count(c->diags) > before)
    return eval_dynamic(c);
  size_t cap = 0;
  for (size_t i = 0; i < nargs; i++)
    if (tfr_value_has_mark(args[i], TFR_V_SENSITIVE))
      collect_secrets(&f, tfr_value_unmark(c->a, args[i], MARKS, NULL), &cap);
  bool dynamic = false;
  if (!check_args(&f, args, nargs, &dynamic))
    return eval_dynamic(c);
  unsigned marks = 0;
  for (size_t i = 0; i < nargs; i++)
    prepare_arg(&f, i, &args[i], &marks, &unknown);
  f.args = args;
  f.nargs = nargs;
  if (dynamic) {
    const tfr_value *v = tfr_unknown(c->a, &tfr_t_dynamic);
    return marks ? tfr_value_mark(c->a, v, marks) : v;
  }
  const tfr_type *ret = f.spec->type ? f.spec->type(&f) : f.spec->ret;
  if (f.failed)
    return eval_dynamic(c);
  if (!ret)
    ret = &tfr_t_dynamic;
  /* impure functions are known only when applying */
  unknown |= c->plan && funcs_impure(f.spec->name, strlen(f.spec->name));
  struct sbuf_limit outer = sbuf_limit_push(arena_value_budget());
  const tfr_value *v = unknown ? tfr_unknown(c->a, ret) : f.spec->impl(&f, ret);
  bool over_budget = sbuf_limit_pop(outer);
  if (!f.failed && over_budget) {
    fcall_error(&f, "value too large: the result takes more than this "
                    "run's memory budget (-max-memory)");
    fcall_ours(&f);
    return eval_dynamic(c);
  }
  if (v && !f.failed && too_large(v)) {
    fcall_error(&f, "value too large: the result holds a string of more "
                    "than 4 GiB, the longest this program holds");
    fcall_ours(&f);
    return eval_dynamic(c);
  }
  if (!v || f.failed)
    return eval_dynamic(c);
  v = refined(&f, v);
  return marks ? tfr_value_mark(c->a, v, marks) : v;
}

/* Calls whose arguments are not all values. */
static const tfr_value *special(void *ud, struct eval_ctx *c,
                                const struct ast *x, const char *name,
                                size_t len) {
  (void)ud;
  if (len > 6 && !memcmp(name, "core::", 6)) {
    name += 6;
    len -= 6;
  }
  if (len == 7 && !memcmp(name, "convert", 7))
    return funcs_convert(c, x);
  if (len == 4 && !memcmp(name, "type", 4) && c->console) {
    /* the console shows a type() result only as the whole expression */
    if (x != c->top) {
      static const char summary[] = "Invalid use of type function";
      bool said = false; /* one error for the whole expression */
      for (size_t i = 0; i < tfr_diags_count(c->diags) && !said; i++)
        said = !strcmp(tfr_diags_get(c->diags, i)->summary, summary);
      if (!said)
        tfr_diags_add(c->diags, TFR_DIAG_ERROR, NULL, summary,
                      "The console-only \"type\" function cannot be used "
                      "as part of an expression.");
      return eval_dynamic(c);
    }
    return funcs_type(c, x);
  }
  return NULL;
}

const struct eval_funcs funcs_table = {call, NULL, special};

const tfr_value *sbuf_value(tfr_arena *a, struct sbuf *b) {
  const tfr_value *v = tfr_string(a, b->p ? b->p : "", b->n);
  free(b->p);
  b->p = NULL;
  return v;
}
