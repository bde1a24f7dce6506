/*
** Unit tests: type conversion (go-cty's convert) and optional-attribute
** defaults (hcl's typeexpr Defaults.Apply).
**
** Values and types are written in a small literal syntax read by the
** helpers below, which build them with the value.h API only (so these
** tests do not depend on the HCL parser or evaluator):
**   values  "s"  15  -1.5e3  true  null  [v, ...] (tuple)  {a = v, ...}
**           (object)  list(T)[...]  set(T)[...]  map(T){k = v, ...}
**           null(T)  unknown(T)  sensitive(v)  ephemeral(v)
**   types   string number bool any list(T) set(T) map(T) tuple([T, ...])
**           object({a = T, b = optional(T), c = optional(T, value)})
** optional(T, value) builds the defaults as typeexpr does (the value is
** converted to T).  Results are printed as "TYPE VALUE", with the type
** in Terraform's syntax (tfr_type_expr) and the value as
**   "s"  15  true  null  ?  [a,b]  {k:v}  and a !/~ prefix for marks.
** The oracle cases (../shared/oracle/cases/NNN-*) are named by number.
*/
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "unit.h"

#include "values/convert.h"
#include "values/number.h"

/* In convert.c; see the report (convert.h should declare it). */
const tfr_value *conv_convert_path(tfr_arena *a, const tfr_value *v,
                                   const tfr_type *want, const char **err,
                                   const char **path);

static tfr_arena *A;

/* ---- reading literals ---------------------------------------------------- */

struct rd {
  const char *p;
};

static void ws(struct rd *r) {
  while (*r->p == ' ' || *r->p == '\n' || *r->p == ',')
    r->p++;
}

static bool eat(struct rd *r, const char *tok) {
  ws(r);
  size_t n = strlen(tok);
  if (strncmp(r->p, tok, n) != 0)
    return false;
  r->p += n;
  return true;
}

static void need(struct rd *r, const char *tok) {
  if (!eat(r, tok))
    fail_msg("expected %s at: %s", tok, r->p);
}

/* The text of a quoted string, with \n and \" decoded. */
static size_t quoted(struct rd *r, char *buf, size_t size) {
  size_t n = 0;
  r->p++;
  while (*r->p != '"') {
    char ch = *r->p++;
    if (ch == '\\') {
      ch = *r->p++;
      if (ch == 'n')
        ch = '\n';
    }
    assert_true(n < size);
    buf[n++] = ch;
  }
  r->p++;
  return n;
}

/* A name or a quoted key. */
static const char *key(struct rd *r) {
  ws(r);
  const char *s = r->p;
  if (*s == '"') {
    char buf[256];
    size_t n = quoted(r, buf, sizeof buf);
    return tfr_arena_strndup(A, buf, n);
  }
  while (*r->p && strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                         "0123456789_-",
                         *r->p))
    r->p++;
  return tfr_arena_strndup(A, s, (size_t)(r->p - s));
}

static const tfr_type *rd_type(struct rd *r, const struct tfr_defaults **d);
static const tfr_value *rd_value(struct rd *r);

static struct tfr_defaults *new_defaults(const tfr_type *t) {
  struct tfr_defaults *d = tfr_arena_alloc(A, sizeof *d);
  d->type = t;
  return d;
}

/* Defaults of a collection: its element's, under the key "". */
static const struct tfr_defaults *coll_defaults(const tfr_type *t,
                                                const struct tfr_defaults *e) {
  if (!e)
    return NULL;
  struct tfr_defaults *d = new_defaults(t);
  const char **k = tfr_arena_alloc(A, sizeof *k);
  const struct tfr_defaults **c = tfr_arena_alloc(A, sizeof *c);
  k[0] = "";
  c[0] = e;
  d->nchildren = 1;
  d->child_keys = k;
  d->children = c;
  return d;
}

#define MAXN 16

/* object({...}): attributes, optional markers, defaults and children. */
static const tfr_type *rd_object_type(struct rd *r,
                                      const struct tfr_defaults **out) {
  const char *names[MAXN], *vnames[MAXN], *cnames[MAXN];
  const tfr_type *types[MAXN];
  const tfr_value *vals[MAXN];
  const struct tfr_defaults *kids[MAXN];
  bool opt[MAXN];
  size_t n = 0, nv = 0, nc = 0;
  need(r, "({");
  while (!eat(r, "})")) {
    assert_true(n < MAXN);
    names[n] = key(r);
    need(r, "=");
    opt[n] = eat(r, "optional(");
    const struct tfr_defaults *cd = NULL;
    types[n] = rd_type(r, &cd);
    if (cd) {
      cnames[nc] = names[n];
      kids[nc++] = cd;
    }
    if (opt[n] && !eat(r, ")")) {
      const char *err = NULL;
      const tfr_value *dv = rd_value(r);
      vals[nv] = conv_convert(A, dv, types[n], &err);
      if (!vals[nv])
        fail_msg("bad default: %s", err);
      vnames[nv++] = names[n];
      need(r, ")");
    }
    n++;
  }
  const tfr_type *t = tfr_type_object(A, n, names, types, opt);
  if (nv || nc) {
    struct tfr_defaults *d = new_defaults(t);
    d->nvalues = (uint32_t)nv;
    d->value_names = tfr_arena_alloc(A, MAXN * sizeof(char *));
    memcpy((void *)d->value_names, vnames, nv * sizeof(char *));
    d->values = tfr_arena_alloc(A, MAXN * sizeof(void *));
    memcpy((void *)d->values, vals, nv * sizeof(void *));
    d->nchildren = (uint32_t)nc;
    d->child_keys = tfr_arena_alloc(A, MAXN * sizeof(char *));
    memcpy((void *)d->child_keys, cnames, nc * sizeof(char *));
    d->children = tfr_arena_alloc(A, MAXN * sizeof(void *));
    memcpy((void *)d->children, kids, nc * sizeof(void *));
    *out = d;
  }
  return t;
}

static const tfr_type *rd_tuple_type(struct rd *r,
                                     const struct tfr_defaults **out) {
  const tfr_type *types[MAXN];
  const char *cnames[MAXN];
  const struct tfr_defaults *kids[MAXN];
  size_t n = 0, nc = 0;
  need(r, "([");
  while (!eat(r, "])")) {
    assert_true(n < MAXN);
    const struct tfr_defaults *cd = NULL;
    types[n] = rd_type(r, &cd);
    if (cd) {
      cnames[nc] = tfr_arena_printf(A, "%zu", n);
      kids[nc++] = cd;
    }
    n++;
  }
  const tfr_type *t = tfr_type_tuple(A, n, types);
  if (nc) {
    struct tfr_defaults *d = new_defaults(t);
    d->nchildren = (uint32_t)nc;
    d->child_keys = tfr_arena_alloc(A, MAXN * sizeof(char *));
    memcpy((void *)d->child_keys, cnames, nc * sizeof(char *));
    d->children = tfr_arena_alloc(A, MAXN * sizeof(void *));
    memcpy((void *)d->children, kids, nc * sizeof(void *));
    *out = d;
  }
  return t;
}

static const tfr_type *rd_type(struct rd *r, const struct tfr_defaults **d) {
  static const struct {
    const char *kw;
    int kind;
  } colls[] = {{"list(", TFR_LIST}, {"set(", TFR_SET}, {"map(", TFR_MAP}};
  if (eat(r, "string"))
    return &tfr_t_string;
  if (eat(r, "number"))
    return &tfr_t_number;
  if (eat(r, "bool"))
    return &tfr_t_bool;
  if (eat(r, "any"))
    return &tfr_t_dynamic;
  if (eat(r, "object"))
    return rd_object_type(r, d);
  if (eat(r, "tuple"))
    return rd_tuple_type(r, d);
  for (size_t i = 0; i < 3; i++) {
    if (!eat(r, colls[i].kw))
      continue;
    const struct tfr_defaults *ed = NULL;
    const tfr_type *e = rd_type(r, &ed);
    need(r, ")");
    const tfr_type *t = colls[i].kind == TFR_LIST  ? tfr_type_list(A, e)
                        : colls[i].kind == TFR_SET ? tfr_type_set(A, e)
                                                   : tfr_type_map(A, e);
    *d = coll_defaults(t, ed);
    return t;
  }
  fail_msg("bad type at: %s", r->p);
  return NULL;
}

static const tfr_value *rd_number(struct rd *r) {
  const char *s = r->p;
  while (*r->p && strchr("+-0123456789.eE", *r->p))
    r->p++;
  const struct tfr_num *n = num_parse(A, s, (size_t)(r->p - s));
  assert_non_null(n);
  tfr_value *v = tfr_arena_alloc(A, sizeof *v);
  v->type = &tfr_t_number;
  v->num = n;
  return v;
}

static const tfr_value *rd_string(struct rd *r) {
  char buf[256];
  size_t n = quoted(r, buf, sizeof buf);
  return tfr_string(A, buf, n);
}

/* [...] or, for a collection, its elements. */
static size_t rd_elems(struct rd *r, const tfr_value **out) {
  size_t n = 0;
  need(r, "[");
  while (!eat(r, "]")) {
    assert_true(n < MAXN);
    out[n++] = rd_value(r);
  }
  return n;
}

static size_t rd_attrs(struct rd *r, const char **names,
                       const tfr_value **out) {
  size_t n = 0;
  need(r, "{");
  while (!eat(r, "}")) {
    assert_true(n < MAXN);
    names[n] = key(r);
    need(r, "=");
    out[n++] = rd_value(r);
  }
  return n;
}

static const tfr_value *rd_collection(struct rd *r, int kind) {
  const struct tfr_defaults *d = NULL;
  const tfr_type *e = rd_type(r, &d);
  need(r, ")");
  const tfr_value *v[MAXN];
  if (kind == TFR_MAP) {
    const char *k[MAXN];
    uint32_t l[MAXN];
    size_t n = rd_attrs(r, k, v);
    for (size_t i = 0; i < n; i++)
      l[i] = (uint32_t)strlen(k[i]);
    return tfr_map(A, e, n, k, l, v);
  }
  size_t n = rd_elems(r, v);
  return kind == TFR_LIST ? tfr_list(A, e, n, v) : tfr_set(A, e, n, v);
}

static const tfr_value *rd_value(struct rd *r) {
  const struct tfr_defaults *d = NULL;
  ws(r);
  if (*r->p == '"')
    return rd_string(r);
  if (strchr("+-0123456789", *r->p))
    return rd_number(r);
  if (eat(r, "true"))
    return tfr_bool(true);
  if (eat(r, "false"))
    return tfr_bool(false);
  bool unknown = eat(r, "unknown(");
  if (unknown || eat(r, "null(")) {
    const tfr_type *t = rd_type(r, &d);
    need(r, ")");
    return unknown ? tfr_unknown(A, t) : tfr_null(A, t);
  }
  if (eat(r, "null"))
    return tfr_null(A, &tfr_t_dynamic);
  bool sensitive = eat(r, "sensitive(");
  if (sensitive || eat(r, "ephemeral(")) {
    const tfr_value *v = rd_value(r);
    need(r, ")");
    return tfr_value_mark(A, v, sensitive ? TFR_V_SENSITIVE : TFR_V_EPHEMERAL);
  }
  if (eat(r, "list("))
    return rd_collection(r, TFR_LIST);
  if (eat(r, "set("))
    return rd_collection(r, TFR_SET);
  if (eat(r, "map("))
    return rd_collection(r, TFR_MAP);
  const tfr_value *v[MAXN];
  if (*r->p == '[')
    return tfr_tuple(A, rd_elems(r, v), v);
  const char *k[MAXN];
  size_t n = rd_attrs(r, k, v);
  return tfr_object(A, n, k, v);
}

static const tfr_value *V(const char *s) {
  struct rd r = {s};
  const tfr_value *v = rd_value(&r);
  ws(&r);
  if (*r.p)
    fail_msg("trailing text: %s", r.p);
  return v;
}

static const tfr_type *T(const char *s, const struct tfr_defaults **d) {
  struct rd r = {s};
  const struct tfr_defaults *dd = NULL;
  const tfr_type *t = rd_type(&r, &dd);
  if (d)
    *d = dd;
  return t;
}

/* ---- printing results --------------------------------------------------- */

struct out {
  char buf[4096];
  size_t n;
};

static void put(struct out *o, const char *s, size_t n) {
  assert_true(o->n + n < sizeof o->buf);
  memcpy(o->buf + o->n, s, n);
  o->n += n;
  o->buf[o->n] = '\0';
}

static void puts_(struct out *o, const char *s) { put(o, s, strlen(s)); }

static void show(struct out *o, const tfr_value *v) {
  if (v->flags & TFR_V_SENSITIVE)
    puts_(o, "!");
  if (v->flags & TFR_V_EPHEMERAL)
    puts_(o, "~");
  if (v->flags & TFR_V_UNKNOWN) {
    puts_(o, "?");
    return;
  }
  if (v->flags & TFR_V_NULL) {
    puts_(o, "null");
    return;
  }
  switch (v->type->kind) {
  case TFR_STRING:
    puts_(o, "\"");
    put(o, v->s, v->n);
    puts_(o, "\"");
    return;
  case TFR_NUMBER:
    puts_(o, num_format(A, v->num));
    return;
  case TFR_BOOL:
    puts_(o, v->b ? "true" : "false");
    return;
  default:
    break;
  }
  bool keyed = v->type->kind == TFR_MAP || v->type->kind == TFR_OBJECT;
  puts_(o, keyed ? "{" : "[");
  for (uint32_t i = 0; i < v->n; i++) {
    if (i)
      puts_(o, ",");
    if (v->type->kind == TFR_MAP) {
      put(o, v->keys[i], v->keylens[i]);
      puts_(o, ":");
    } else if (keyed) {
      puts_(o, v->type->names[i]);
      puts_(o, ":");
    }
    show(o, v->elems[i]);
  }
  puts_(o, keyed ? "}" : "]");
}

/* "TYPE VALUE" of a converted value, or "error: MESSAGE". */
static const char *run(const char *type, const char *value) {
  const struct tfr_defaults *d = NULL;
  const tfr_type *t = T(type, &d);
  const tfr_value *v = V(value);
  if (d && !(v->flags & TFR_V_NULL))
    v = conv_apply_defaults(A, v, d);
  const char *err = NULL;
  const tfr_value *r = conv_convert(A, v, t, &err);
  if (!r)
    return tfr_arena_printf(A, "error: %s", err);
  struct out o = {.n = 0};
  o.buf[0] = '\0';
  show(&o, r);
  return tfr_arena_printf(A, "%s %s", tfr_type_expr(A, r->type), o.buf);
}

#define CHECK(type, value, want) assert_string_equal(run(type, value), want)

static int setup(void **state) {
  (void)state;
  A = tfr_arena_new();
  return 0;
}

static int teardown(void **state) {
  (void)state;
  tfr_arena_free(A);
  return 0;
}

/* ---- primitives --------------------------------------------------------- */

static void primitives_from_strings(void **state) {
  (void)state;
  CHECK("number", "\"15\"", "number 15");                    /* 001 */
  CHECK("number", "\"abc\"", "error: a number is required"); /* 005 */
  CHECK("bool", "\"yes\"", "error: a bool is required");     /* 009 */
  CHECK("bool", "\"1\"", "bool true");                       /* 010 */
  CHECK("bool", "\"0\"", "bool false");
  CHECK("bool", "\"true\"", "bool true");
  CHECK("bool", "\"false\"", "bool false");
  CHECK("bool", "\"TRUE\"",
        "error: a bool is required; to convert from "
        "string, use lowercase \"true\""); /* 011 */
  CHECK("bool", "\"False\"",
        "error: a bool is required; to convert from "
        "string, use lowercase \"false\"");
  CHECK("number", "\" 15\"", "error: a number is required");  /* 021 */
  CHECK("number", "\"0x10\"", "error: a number is required"); /* 022 */
  CHECK("number", "\"1e3\"", "number 1000");                  /* 023 */
  CHECK("number", "\"+5\"", "number 5");                      /* 025 */
  CHECK("number", "\"12345678901234567890123\"",
        "number 12345678901234567890123");                /* 027 */
  CHECK("number", "\"0.000001\"", "number 0.000001");     /* 033 */
  CHECK("number", "\"\"", "error: a number is required"); /* 035 */
  CHECK("string", "\"\"", "string \"\"");                 /* 034 */
}

static void primitives_to_strings(void **state) {
  (void)state;
  CHECK("string", "true", "string \"true\""); /* 013 */
  CHECK("string", "false", "string \"false\"");
  CHECK("string", "1.50", "string \"1.5\""); /* 014 */
  CHECK("string", "12345678901234567890123",
        "string \"12345678901234567890123\""); /* 015 */
  CHECK("number", "12345678901234567890123",
        "number 12345678901234567890123"); /* 026 */
  CHECK("number", "1.5e3", "number 1500"); /* 029 */
  CHECK("number", "25e-2", "number 0.25"); /* 030 */
  CHECK("number", "-42", "number -42");    /* 031 */
  CHECK("list(number)", "[\"1.0\", \"1e2\", \"-0\"]",
        "list(number) [1,100,-0]"); /* 333 */
  CHECK("list(string)", "[1.0, 1e2, -0, 0.5]",
        "list(string) [\"1\",\"100\",\"-0\",\"0.5\"]"); /* 333 */
}

static void primitive_mismatches(void **state) {
  (void)state;
  CHECK("bool", "1", "error: bool required, but have number"); /* 017 */
  CHECK("number", "true", "error: number required, but have bool");
  CHECK("string", "[\"a\"]",
        "error: string required, but have tuple"); /* 018 */
  CHECK("string", "{a = 1}",
        "error: string required, but have object"); /* 019 */
  CHECK("number", "{}", "error: number required, but have object");
  CHECK("list(string)", "\"a\"",
        "error: list of string required, but have string");
  CHECK("list(any)", "\"a\"",
        "error: list of dynamic required, but have string");
  CHECK("map(list(any))", "1",
        "error: map of list of dynamic required, but have number");
  CHECK("object({a = string})", "\"a\"",
        "error: object required, but have string");
  CHECK("tuple([string])", "{}", "error: tuple required");
}

/* ---- any ---------------------------------------------------------------- */

static void any_keeps_the_value(void **state) {
  (void)state;
  CHECK("any", "[\"a\", 1]", "tuple([string,number]) [\"a\",1]"); /* 045 */
  CHECK("any", "{a = 1, b = \"two\"}",
        "object({a=number,b=string}) {a:1,b:\"two\"}"); /* 046 */
  CHECK("any", "null", "any null");                     /* 049 */
  CHECK("any", "{a = [1, \"x\"], b = {c = null}}",
        "object({a=tuple([number,string]),b=object({c=any})}) "
        "{a:[1,\"x\"],b:{c:null}}");                   /* 050 */
  CHECK("any", "{a = 1}", "object({a=number}) {a:1}"); /* 141 */
}

static void any_unifies_elements(void **state) {
  (void)state;
  CHECK("list(any)", "[\"a\", 1, \"b\"]",
        "list(string) [\"a\",\"1\",\"b\"]"); /* 062 */
  CHECK("list(any)", "[\"a\", [], \"b\"]",
        "error: all list elements must have the same type"); /* 063 */
  CHECK("list(any)", "[]", "list(any) []");                  /* 065 */
  CHECK("list(any)", "[true, 1]",
        "error: all list elements must have the same type"); /* 066 */
  CHECK("list(any)", "[{a = 1}, {a = \"x\"}]",
        "list(object({a=string})) [{a:\"1\"},{a:\"x\"}]"); /* 067 */
  CHECK("map(any)", "{a = 1, b = \"x\"}",
        "map(string) {a:\"1\",b:\"x\"}"); /* 069 */
  CHECK("map(any)", "{a = 1, b = [1]}",
        "error: all map elements must have the same type"); /* 070 */
  CHECK("map(list(any))", "{a = [1], b = [\"x\"]}",
        "map(list(string)) {a:[\"1\"],b:[\"x\"]}"); /* 071 */
  CHECK("map(any)", "{a = \"b\", c = 1}",
        "map(string) {a:\"b\",c:\"1\"}");             /* 073 */
  CHECK("list(any)", "[1, 2]", "list(number) [1,2]"); /* 074 */
  CHECK("set(any)", "[1, \"1\", true]", "set(string) [\"1\",\"true\"]");
  CHECK("set(any)", "[[], {}]",
        "error: all set elements must have the same type");
  CHECK("object({a = any, b = list(any)})", "{a = {q = 1}, b = [1, \"2\"]}",
        "object({a=object({q=number}),b=list(string)}) "
        "{a:{q:1},b:[\"1\",\"2\"]}"); /* 094 */
}

static void any_unification_details(void **state) {
  (void)state;
  /* objects with different attributes unify to a map */
  CHECK("list(any)", "[{a = 1}, {b = \"x\"}]",
        "list(map(string)) [{a:\"1\"},{b:\"x\"}]");
  CHECK("list(any)", "[{}, {a = 1}]", "list(map(number)) [{},{a:1}]");
  /* nulls take the type of the others */
  CHECK("list(any)", "[null, \"a\"]", "list(string) [null,\"a\"]");
  CHECK("list(any)", "[null]", "list(any) [null]");
  /* null beside a primitive and a non-primitive: only "any" fits them */
  CHECK("list(any)", "[null, [], \"a\"]",
        "error: all list elements must have the same type");
  /* tuples of different lengths unify to lists */
  CHECK("list(any)", "[[], [\"a\"]]", "list(list(string)) [[],[\"a\"]]");
  CHECK("list(list(any))", "[[1], [\"x\"]]",
        "list(list(string)) [[\"1\"],[\"x\"]]");
  /* converted elements are unified again (cty's second pass) */
  CHECK("list(object({a = any}))", "[{a = 1}, {a = \"x\"}]",
        "list(object({a=string})) [{a:\"1\"},{a:\"x\"}]");
  CHECK("list(object({a = any}))", "[{a = 1}, {a = []}]",
        "error: cannot find a common base type for all elements");
  CHECK("set(object({a = any}))", "[{a = 1}, {a = \"x\"}]",
        "error: element types must all match for conversion to set");
  CHECK("map(object({a = any}))", "{x = {a = 1}, y = {a = \"x\"}}",
        "map(object({a=string})) {x:{a:\"1\"},y:{a:\"x\"}}");
  CHECK("map(any)", "{a = null, b = \"x\"}", "map(string) {a:null,b:\"x\"}");
  CHECK("tuple([any, any])", "[1, \"x\"]", "tuple([number,string]) [1,\"x\"]");
}

/* ---- collections -------------------------------------------------------- */

static void lists(void **state) {
  (void)state;
  CHECK("list(string)", "[\"a\", \"b\"]",
        "list(string) [\"a\",\"b\"]"); /* 053 */
  CHECK("list(string)", "[\"a\", 1, true]",
        "list(string) [\"a\",\"1\",\"true\"]"); /* 061 */
  CHECK("list(number)", "[\"1\", \"a\"]",
        "error: a number is required"); /* 087 */
  CHECK("list(string)", "{a = \"b\"}",
        "error: list of string required"); /* 089 */
  CHECK("list(list(number))", "[[1, \"2\"], [], [3]]",
        "list(list(number)) [[1,2],[],[3]]"); /* 097 */
  CHECK("list(string)", "[\"a\\n\", \"b\"]",
        "list(string) [\"a\n\",\"b\"]"); /* 206 */
  CHECK("list(string)", "[\"a\", []]",
        "error: element 1: string required, but have tuple");
  CHECK("list(number)", "[]", "list(number) []");
  CHECK("list(string)", "[null]", "list(string) [null]");
}

static void sets(void **state) {
  (void)state;
  CHECK("set(string)", "[\"c\", \"a\", \"b\", \"a\"]",
        "set(string) [\"a\",\"b\",\"c\"]"); /* 078 */
  CHECK("set(number)", "[10, 2, 33, 2, -1.5]",
        "set(number) [-1.5,2,10,33]"); /* 079 */
  CHECK("set(string)", "[\"b\", \"a\"]", "set(string) [\"a\",\"b\"]");
  CHECK("set(bool)", "[true, false, true]", "set(bool) [false,true]");
  CHECK("set(object({a = string}))", "[{a = \"z\"}, {a = \"y\"}, {a = \"z\"}]",
        "set(object({a=string})) [{a:\"y\"},{a:\"z\"}]"); /* 083 */
  CHECK("set(number)", "[]", "set(number) []");
  CHECK("set(number)", "[\"x\"]", "error: a number is required");
  CHECK("set(string)", "\"x\"",
        "error: set of string required, but have string");
}

static void maps(void **state) {
  (void)state;
  CHECK("map(number)", "{a = 1, \"b\" = \"2\"}",
        "map(number) {a:1,b:2}"); /* 058 */
  CHECK("map(string)", "{a = 1, b = true}",
        "map(string) {a:\"1\",b:\"true\"}"); /* 075 */
  CHECK("map(string)", "{\"1\" = \"one\", \"two words\" = \"2\"}",
        "map(string) {1:\"one\",two words:\"2\"}"); /* 077 */
  CHECK("map(string)", "{env = \"dev\", owner = 42}",
        "map(string) {env:\"dev\",owner:\"42\"}"); /* 322 */
  CHECK("map(list(string))", "{a = [1, \"two\"], b = []}",
        "map(list(string)) {a:[\"1\",\"two\"],b:[]}"); /* 193 */
  CHECK("map(number)", "{a = []}",
        "error: element \"a\": number required, but have tuple");
  CHECK("map(number)", "{a = \"x\"}", "error: a number is required");
  CHECK("map(string)", "{}", "map(string) {}");
  CHECK("map(string)", "[]", "error: map of string required");
}

static void tuples(void **state) {
  (void)state;
  CHECK("tuple([string, number])", "[\"a\", \"2\"]",
        "tuple([string,number]) [\"a\",2]");                           /* 085 */
  CHECK("tuple([string])", "[\"a\", \"b\"]", "error: tuple required"); /* 086 */
  CHECK("tuple([number])", "[\"x\"]", "error: a number is required");
  CHECK("tuple([])", "[]", "tuple([]) []");
}

/* ---- objects ------------------------------------------------------------ */

static void objects(void **state) {
  (void)state;
  CHECK("object({name = string, port = number})",
        "{name = \"web\", port = \"8080\"}",
        "object({name=string,port=number}) {name:\"web\",port:8080}"); /* 059 */
  CHECK("object({a = string})", "{a = \"x\", b = 1}",
        "object({a=string}) {a:\"x\"}"); /* 090 */
  CHECK("object({a = string, b = string})", "{a = \"x\"}",
        "error: attribute \"b\" is required"); /* 091 */
  CHECK("object({a = list(number), b = map(bool)})",
        "{a = [\"1\", 2], b = {k = \"true\"}}",
        "object({a=list(number),b=map(bool)}) {a:[1,2],b:{k:true}}"); /* 093 */
  CHECK("list(object({n = string, p = number}))",
        "[{n = \"a\", p = 1}, {n = \"b\", p = \"2\", extra = true}]",
        "list(object({n=string,p=number})) [{n:\"a\",p:1},{n:\"b\",p:2}]");
  CHECK("object({a = number})", "{a = 1}",
        "object({a=number}) {a:1}"); /* 325 */
  CHECK("object({a = string})", "{}",
        "error: attribute \"a\" is required"); /* 142 */
}

static void object_mismatch_messages(void **state) {
  (void)state;
  CHECK("object({a = string, b = string, c = string})", "{}",
        "error: attributes \"a\", \"b\", and \"c\" are required");
  CHECK("object({a = string, b = string})", "{}",
        "error: attributes \"a\" and \"b\" are required");
  CHECK("object({a = string, b = number})", "{a = [], b = true}",
        "error: attribute \"a\": string required, but have tuple");
  CHECK(
      "list(object({name = string}))", "[{name = \"a\"}, {name = []}]",
      "error: element 1: attribute \"name\": string required, but have tuple");
  CHECK("object({a = list(string)})", "{a = {}}",
        "error: attribute \"a\": list of string required");
  CHECK("object({a = object({b = number})})", "{a = {b = {}}}",
        "error: attribute \"a\": attribute \"b\": number required, but have "
        "object");
  CHECK("map(object({a = string}))", "{k = {}}",
        "error: element \"k\": attribute \"a\" is required");
  CHECK("object({\"a b\" = string})", "{}",
        "error: attribute \"a b\" is required");
}

/* ---- optional attributes and defaults ----------------------------------- */

#define BUCKETS                                                                \
  "list(object({name = string, enabled = optional(bool, true),"                \
  " website = optional(object({"                                               \
  " index_document = optional(string, \"index.html\"),"                        \
  " error_document = optional(string, \"error.html\"),"                        \
  " routing_rules = optional(string)}), {})}))"
#define BUCKETS_TYPE                                                           \
  "list(object({enabled=bool,name=string,website=object({"                     \
  "error_document=string,index_document=string,routing_rules=string})}))"

static void buckets(void **state) {
  (void)state;
  CHECK(BUCKETS,
        "[{name = \"production\", website = {routing_rules = \"[]\\n\"}},"
        " {name = \"archived\", enabled = false},"
        " {name = \"docs\", website = {index_document = \"index.txt\","
        " error_document = \"error.txt\"}}]",
        BUCKETS_TYPE " [{enabled:true,name:\"production\",website:{"
                     "error_document:\"error.html\",index_document:"
                     "\"index.html\",routing_rules:\"[]\n\"}},"
                     "{enabled:false,name:\"archived\",website:{"
                     "error_document:\"error.html\",index_document:"
                     "\"index.html\",routing_rules:null}},"
                     "{enabled:true,name:\"docs\",website:{"
                     "error_document:\"error.txt\",index_document:"
                     "\"index.txt\",routing_rules:null}}]"); /* 098 */
  CHECK(BUCKETS, "[{name = \"a\", website = null, enabled = null}]",
        BUCKETS_TYPE " [{enabled:true,name:\"a\",website:{"
                     "error_document:\"error.html\",index_document:"
                     "\"index.html\",routing_rules:null}}]"); /* 099 */
  CHECK(BUCKETS, "[{enabled = true}]",
        "error: element 0: attribute \"name\" is required"); /* 101 */
  CHECK(BUCKETS, "[]", BUCKETS_TYPE " []");                  /* 102 */
}

static void optional_attributes(void **state) {
  (void)state;
  CHECK("object({a = string, b = optional(string)})", "{a = \"x\"}",
        "object({a=string,b=string}) {a:\"x\",b:null}"); /* 103 */
  CHECK("object({a = string, b = optional(string, \"dflt\")})",
        "{a = \"x\", b = null}",
        "object({a=string,b=string}) {a:\"x\",b:\"dflt\"}"); /* 105 */
  CHECK("object({n = optional(number, 5)})", "{}",
        "object({n=number}) {n:5}"); /* 106 */
  CHECK("object({n = optional(number, \"7\")})", "{}",
        "object({n=number}) {n:7}"); /* 107 */
  CHECK("set(object({a = string, b = optional(number, 1)}))",
        "[{a = \"p\"}, {a = \"q\", b = 2}, {a = \"p\", b = 1}]",
        "set(object({a=string,b=number})) [{a:\"p\",b:1},{a:\"q\",b:2}]");
  CHECK("tuple([object({a = optional(string, \"t\")}), string])", "[{}, \"s\"]",
        "tuple([object({a=string}),string]) [{a:\"t\"},\"s\"]");
  CHECK("object({a = optional(string, \"d\")})", "null",
        "object({a=string}) null"); /* 111 */
  CHECK("object({a = string, b = optional(string, \"d\")})", "{a = \"x\"}",
        "object({a=string,b=string}) {a:\"x\",b:\"d\"}"); /* 113 */
  CHECK("object({o = optional(object({p = optional(string, \"q\")}))})",
        "{o = null}", "object({o=object({p=string})}) {o:null}"); /* 114 */
  CHECK("object({o = optional(object({p = optional(string, \"q\")}))})", "{}",
        "object({o=object({p=string})}) {o:null}"); /* 115 */
  CHECK("object({l = optional(list(object({n = optional(number, 0)})),"
        " [{}])})",
        "{}", "object({l=list(object({n=number}))}) {l:[{n:0}]}"); /* 117 */
  CHECK("object({a = optional(any)})", "{}",
        "object({a=any}) {a:null}"); /* 121 */
  CHECK("map(object({a = optional(string, \"z\")}))", "{k1 = null, k2 = {}}",
        "map(object({a=string})) {k1:null,k2:{a:\"z\"}}"); /* 122 */
  CHECK("list(object({a = optional(string, \"A\"), b = optional(number)}))",
        "[{b = 1}, {a = \"x\"}, {}]",
        "list(object({a=string,b=number})) "
        "[{a:\"A\",b:1},{a:\"x\",b:null},{a:\"A\",b:null}]"); /* 123 */
  CHECK("object({a = string, b = optional(number, 3)})", "{a = \"q\"}",
        "object({a=string,b=number}) {a:\"q\",b:3}"); /* 222 */
  CHECK("set(object({a = number, b = optional(string)}))",
        "[{a = 1}, {a = 1, b = null}]",
        "set(object({a=number,b=string})) [{a:1,b:null}]"); /* 330 */
  CHECK("object({a = optional(string, \"d\")})", "{a = null}",
        "object({a=string}) {a:\"d\"}"); /* 331 */
}

/* The result of a conversion to a constraint with optional attributes has
** no optional markers left, nested or not, null or not. */
static void no_optional_markers_left(void **state) {
  (void)state;
  CHECK("list(object({a = optional(object({b = optional(string)}))}))",
        "[{}, {a = {}}, {a = null}]",
        "list(object({a=object({b=string})})) [{a:null},{a:{b:null}},"
        "{a:null}]");
  CHECK("object({a = optional(object({b = optional(string)}))})", "null",
        "object({a=object({b=string})}) null");
  CHECK("list(object({a = optional(string)}))", "[]",
        "list(object({a=string})) []");
  CHECK("set(object({a = optional(string)}))", "[]",
        "set(object({a=string})) []");
  CHECK("map(object({a = optional(string)}))", "{}",
        "map(object({a=string})) {}");
  CHECK("list(object({a = optional(string)}))", "[null]",
        "list(object({a=string})) [null]");
}

static void defaults_on_collections(void **state) {
  (void)state;
  /* values that already are lists, sets and maps (converted defaults) */
  CHECK("list(object({a = string, b = optional(string, \"B\")}))",
        "list(object({a = string, b = string}))[{a = \"x\", b = null(string)}]",
        "list(object({a=string,b=string})) [{a:\"x\",b:\"B\"}]");
  CHECK("set(object({a = string, b = optional(string, \"B\")}))",
        "set(object({a = string, b = string}))[{a = \"x\", b = null(string)},"
        " {a = \"x\", b = \"B\"}]",
        "set(object({a=string,b=string})) [{a:\"x\",b:\"B\"}]");
  CHECK("map(object({a = string, b = optional(string, \"B\")}))",
        "map(object({a = string, b = string})){k = {a = \"x\", b = "
        "null(string)}}",
        "map(object({a=string,b=string})) {k:{a:\"x\",b:\"B\"}}");
  CHECK("object({a = optional(map(object({b = optional(number, 7)})),"
        " {k = {}})})",
        "{}", "object({a=map(object({b=number}))}) {a:{k:{b:7}}}");
  CHECK("object({a = optional(set(object({b = optional(number, 7)})),"
        " [{}])})",
        "{}", "object({a=set(object({b=number}))}) {a:[{b:7}]}");
  CHECK("tuple([object({b = optional(number, 7)}),"
        " object({c = optional(string, \"C\")})])",
        "[{}, {}]",
        "tuple([object({b=number}),object({c=string})]) [{b:7},{c:\"C\"}]");
}

/* Defaults.Apply on its own: top-down, the value may stay a tuple or an
** object, a map whose values no longer unify becomes an object. */
static void apply_defaults_alone(void **state) {
  (void)state;
  const struct tfr_defaults *d = NULL;
  T("map(object({a = optional(string, \"z\")}))", &d);
  const tfr_value *r = conv_apply_defaults(A, V("{k = {}, j = {a = 1}}"), d);
  assert_string_equal(tfr_type_expr(A, r->type),
                      "object({j=object({a=number}),k=object({a=string})})");
  T("list(object({a = optional(string, \"z\")}))", &d);
  r = conv_apply_defaults(A, V("[{}, {a = 1}]"), d);
  assert_string_equal(tfr_type_expr(A, r->type),
                      "tuple([object({a=string}),object({a=number})])");
  /* a list whose elements do unify stays a list, converted */
  T("list(object({a = optional(number, 1)}))", &d);
  r = conv_apply_defaults(
      A, V("list(object({a = number}))[{a = null(number)}, {a = 2}]"), d);
  assert_string_equal(tfr_type_expr(A, r->type), "list(object({a=number}))");
  /* null and unknown values are left alone */
  const tfr_value *n = V("null(object({a = string}))");
  assert_ptr_equal(conv_apply_defaults(A, n, d), n);
  const tfr_value *u = V("unknown(list(object({a = number})))");
  assert_ptr_equal(conv_apply_defaults(A, u, d), u);
  /* no defaults: nothing changes */
  const tfr_value *x = V("[{}]");
  assert_ptr_equal(conv_apply_defaults(A, x, NULL), x);
}

static void defaults_nested_top_down(void **state) {
  (void)state;
  /* the inserted default gets its own nested defaults */
  CHECK("object({w = optional(object({a = optional(string, \"A\"),"
        " b = optional(string)}), {})})",
        "{}", "object({w=object({a=string,b=string})}) {w:{a:\"A\",b:null}}");
  /* a given nested object gets them too */
  CHECK("object({w = optional(object({a = optional(string, \"A\"),"
        " b = optional(string)}), {})})",
        "{w = {b = \"x\"}}",
        "object({w=object({a=string,b=string})}) {w:{a:\"A\",b:\"x\"}}");
  /* an explicit null for an optional object with a default */
  CHECK("object({w = optional(object({a = optional(string, \"A\")}),"
        " {a = \"D\"})})",
        "{w = null}", "object({w=object({a=string})}) {w:{a:\"D\"}}");
  /* tuple constraints take defaults by position */
  CHECK("object({t = tuple([object({a = optional(number, 1)}),"
        " object({b = optional(number, 2)})])})",
        "{t = [{}, {}]}",
        "object({t=tuple([object({a=number}),object({b=number})])}) "
        "{t:[{a:1},{b:2}]}");
}

/* ---- null, unknown and marks -------------------------------------------- */

static void nulls_and_unknowns(void **state) {
  (void)state;
  CHECK("string", "null", "string null");
  CHECK("list(string)", "null", "list(string) null");
  CHECK("list(any)", "null", "list(any) null");
  CHECK("string", "unknown(any)", "string ?");
  CHECK("list(any)", "unknown(list(string))", "list(string) ?");
  CHECK("map(any)", "unknown(object({a = number, b = number}))",
        "map(number) ?");
  CHECK("list(any)", "null(tuple([string, list(string)]))",
        "error: all list elements must have the same type");
  CHECK("list(any)", "null(tuple([string, number]))", "list(string) null");
  CHECK("object({a = any, b = optional(string)})",
        "unknown(object({a = number}))", "object({a=number,b=string}) ?");
  CHECK("object({a = any})", "null(map(bool))", "object({a=bool}) null");
  CHECK("string", "unknown(number)", "string ?");
  CHECK("list(string)", "[unknown(number), \"a\"]", "list(string) [?,\"a\"]");
  /* a set with unknowns may shrink: its length, and so the list, is
  ** unknown (of the set's element type, as in cty) */
  CHECK("list(string)", "set(number)[unknown(number), 1]", "list(number) ?");
  CHECK("list(string)", "set(number)[unknown(number)]", "list(string) [?]");
}

static void marks_survive(void **state) {
  (void)state;
  CHECK("number", "sensitive(\"5\")", "number !5");
  CHECK("string", "ephemeral(true)", "string ~\"true\"");
  CHECK("list(string)", "sensitive([1, \"a\"])", "list(string) ![\"1\",\"a\"]");
  CHECK("list(string)", "[sensitive(1), \"a\"]", "list(string) [!\"1\",\"a\"]");
  CHECK("string", "sensitive(null)", "string !null");
  CHECK("any", "sensitive({a = 1})", "object({a=number}) !{a:1}");
  CHECK("object({a = string})", "sensitive({a = 1, b = 2})",
        "object({a=string}) !{a:\"1\"}");
  /* a set carries the marks of its elements (cty.SetVal) */
  CHECK("set(string)", "[sensitive(\"b\"), \"a\"]",
        "set(string) ![\"a\",\"b\"]");
  /* the value itself when nothing changes */
  const tfr_value *v = V("sensitive(\"x\")");
  const char *err = NULL;
  assert_ptr_equal(conv_convert(A, v, &tfr_t_string, &err), v);
  const struct tfr_defaults *d = NULL;
  const tfr_type *t = T("object({a = optional(string, \"z\")})", &d);
  const tfr_value *r = conv_apply_defaults(A, V("sensitive({})"), d);
  assert_true(r->flags & TFR_V_SENSITIVE);
  r = conv_convert(A, r, t, &err);
  assert_true(r->flags & TFR_V_SENSITIVE);
}

/* ---- collections as input ----------------------------------------------- */

static void collection_inputs(void **state) {
  (void)state;
  CHECK("list(string)", "set(string)[\"b\", \"a\", \"b\"]",
        "list(string) [\"a\",\"b\"]");
  CHECK("set(string)", "list(string)[\"b\", \"a\", \"b\"]",
        "set(string) [\"a\",\"b\"]");
  CHECK("set(number)", "list(string)[\"1\", \"x\"]",
        "error: a number is required");
  CHECK("list(number)", "list(string)[\"1\"]", "list(number) [1]");
  CHECK("list(any)", "set(string)[]", "list(string) []");
  CHECK("list(any)", "list(string)[]", "list(string) []");
  CHECK("map(any)", "map(string){}", "map(string) {}");
  CHECK("map(number)", "map(string){a = \"1\", b = \"z\"}",
        "error: a number is required");
  CHECK("map(list(any))",
        "map(list(string)){a = list(string)[\"1\"],"
        " b = list(string)[]}",
        "map(list(string)) {a:[\"1\"],b:[]}");
  CHECK("list(string)", "map(string){}", "error: list of string required");
  CHECK("tuple([string])", "list(string)[\"a\"]", "error: tuple required");
  CHECK("list(object({a = string, b = string}))",
        "list(object({a = string}))[{a = \"x\"}]",
        "error: incorrect list element type: attribute \"b\" is required");
  CHECK("set(object({a = number}))", "list(object({a = string}))[{a = \"x\"}]",
        "error: a number is required");
  CHECK("map(object({b = number}))",
        "map(object({a = string})){k = {a = \"x\"}}",
        "error: incorrect map element type: attribute \"b\" is required");
  CHECK("list(string)", "set(bool)[true, false]",
        "list(string) [\"false\",\"true\"]");
}

static void maps_to_objects(void **state) {
  (void)state;
  CHECK("object({a = number, b = string})", "map(string){a = \"1\", b = \"2\"}",
        "object({a=number,b=string}) {a:1,b:\"2\"}");
  CHECK("object({a = number, c = string})", "map(string){a = \"1\", b = \"2\"}",
        "error: map has no element for required attribute \"c\"");
  CHECK("object({a = number, c = optional(string)})",
        "map(string){a = \"1\", b = \"2\"}",
        "object({a=number,c=string}) {a:1,c:null}");
  CHECK("object({a = number, b = number})", "map(string){a = \"1\", b = \"x\"}",
        "error: a number is required");
  CHECK("object({a = number, b = optional(list(string))})",
        "map(string){a = \"1\"}",
        "object({a=number,b=list(string)}) {a:1,b:null}");
  CHECK("object({a = number, b = optional(list(string))})",
        "map(string){a = \"1\", b = \"x\"}",
        "error: map element type is incompatible with attribute \"b\": "
        "list of string required, but have string");
  CHECK("object({a = list(string)})", "map(string){a = \"x\"}",
        "error: object required");
  CHECK("list(object({x = number}))",
        "list(map(string))[map(string){x = \"1\"}, map(string){y = \"2\"}]",
        "error: map has no element for required attribute \"x\"");
}

/* ---- error paths (for "Invalid default value for variable") ------------ */

static const char *with_path(const char *type, const char *value) {
  const char *err = NULL, *path = NULL;
  const tfr_value *r =
      conv_convert_path(A, V(value), T(type, NULL), &err, &path);
  assert_null(r);
  return *path ? tfr_arena_printf(A, "%s: %s", path, err) : err;
}

static void error_paths(void **state) {
  (void)state;
  assert_string_equal(with_path("list(number)", "[\"1\", \"a\"]"),
                      "[1]: a number is required");
  assert_string_equal(with_path("object({a = list(object({b = number}))})",
                                "{a = [{b = 1}, {b = \"z\"}]}"),
                      ".a[1].b: a number is required");
  assert_string_equal(with_path("map(number)", "{k = \"q\"}"),
                      "[\"k\"]: a number is required");
  assert_string_equal(with_path("list(any)", "[{a = 1}, {a = []}]"),
                      "all list elements must have the same type");
  assert_string_equal(with_path("number", "\"abc\""), "a number is required");
  /* cty reports the second unification pass at the last element */
  assert_string_equal(
      with_path("list(object({a = any}))", "[{a = 1}, {a = []}, {a = 2}]"),
      "[2]: cannot find a common base type for all elements");
  assert_string_equal(with_path("map(string)", "{\"a\\nb\" = []}"),
                      "element \"a\\nb\": string required, but have tuple");
}

/* ---- unify -------------------------------------------------------------- */

static const char *unify_of(const char *a, const char *b) {
  const tfr_type *t[2] = {T(a, NULL), T(b, NULL)};
  const tfr_type *r = conv_unify(A, 2, t);
  return r ? tfr_type_expr(A, r) : "none";
}

static void unify(void **state) {
  (void)state;
  assert_string_equal(unify_of("string", "number"), "string");
  assert_string_equal(unify_of("bool", "number"), "none");
  assert_string_equal(unify_of("number", "any"), "number");
  assert_string_equal(unify_of("object({a=number})", "object({a=string})"),
                      "object({a=string})");
  assert_string_equal(unify_of("object({a=number})", "object({b=string})"),
                      "map(string)");
  assert_string_equal(unify_of("tuple([number])", "tuple([string, bool])"),
                      "list(string)");
  assert_string_equal(unify_of("list(number)", "tuple([string])"),
                      "list(string)");
  assert_string_equal(unify_of("map(number)", "object({a=bool})"), "none");
  assert_string_equal(unify_of("map(number)", "object({a=string})"),
                      "map(string)");
  assert_string_equal(unify_of("list(string)", "any"), "any");
  assert_string_equal(unify_of("object({})", "tuple([])"), "none");
  assert_string_equal(unify_of("set(number)", "set(string)"), "set(string)");
  /* cty prefers a list to a set */
  assert_string_equal(unify_of("list(number)", "set(number)"), "list(number)");
  assert_null(conv_unify(A, 0, NULL));
}

/* ---- size --------------------------------------------------------------- */

/* Large inputs are linear: 200,000 strings as list(any) (cty compares
** every pair of element types here), and 200,000 objects with defaults. */
static void large_inputs_are_linear(void **state) {
  (void)state;
  enum { N = 200000 };
  const tfr_value **e = malloc(N * sizeof *e);
  for (size_t i = 0; i < N; i++)
    e[i] = i % 2 ? tfr_string(A, "x", 1) : V("1");
  const char *err = NULL;
  clock_t t0 = clock();
  const tfr_value *r =
      conv_convert(A, tfr_tuple(A, N, e), T("list(any)", NULL), &err);
  assert_non_null(r);
  assert_string_equal(tfr_type_expr(A, r->type), "list(string)");
  const struct tfr_defaults *d = NULL;
  const tfr_type *t = T(BUCKETS, &d);
  for (size_t i = 0; i < N; i++)
    e[i] = i % 2 ? V("{name = \"b\"}") : V("{name = \"a\", enabled = false}");
  r = conv_convert(A, conv_apply_defaults(A, tfr_tuple(A, N, e), d), t, &err);
  assert_non_null(r);
  assert_int_equal(r->n, N);
  assert_string_equal(tfr_type_expr(A, r->type), BUCKETS_TYPE);
  double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  assert_true(secs < 10); /* a quadratic pass would take hours */
  free(e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(primitives_from_strings),
      cmocka_unit_test(primitives_to_strings),
      cmocka_unit_test(primitive_mismatches),
      cmocka_unit_test(any_keeps_the_value),
      cmocka_unit_test(any_unifies_elements),
      cmocka_unit_test(any_unification_details),
      cmocka_unit_test(lists),
      cmocka_unit_test(sets),
      cmocka_unit_test(maps),
      cmocka_unit_test(tuples),
      cmocka_unit_test(objects),
      cmocka_unit_test(object_mismatch_messages),
      cmocka_unit_test(buckets),
      cmocka_unit_test(optional_attributes),
      cmocka_unit_test(no_optional_markers_left),
      cmocka_unit_test(defaults_on_collections),
      cmocka_unit_test(apply_defaults_alone),
      cmocka_unit_test(defaults_nested_top_down),
      cmocka_unit_test(nulls_and_unknowns),
      cmocka_unit_test(marks_survive),
      cmocka_unit_test(collection_inputs),
      cmocka_unit_test(maps_to_objects),
      cmocka_unit_test(error_paths),
      cmocka_unit_test(unify),
      cmocka_unit_test(large_inputs_are_linear),
  };
  int failed = cmocka_run_group_tests(tests, setup, teardown);
  int total = (int)(sizeof tests / sizeof tests[0]);
  printf("%d passed, %d failed\n", total - failed, failed);
  return failed ? 1 : 0;
}
