/*
** Attributes a variable's type drops (strict.h).
**
** Two walks: over the expression, which knows where each attribute is
** written, and, below a part that is not a constructor, over that part's
** value, which knows what it holds.  Both carry the path so far in one
** buffer, cut back after each step.
*/
#include "module/strict.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena_int.h"
#include "base/strutil.h"
#include "values/convert.h"

struct walk {
  tfr_arena *a;
  struct sbuf path;
  dropped_fn fn;
  void *ctx;
};

/* ctor: the object constructor it is written in, or NULL. */
static void report(struct walk *w, const char *name, size_t n, struct span at,
                   struct span context, const tfr_type *t,
                   const struct ast *ctor) {
  struct dropped_attr d = {
      tfr_arena_strndup(w->a, w->path.p ? w->path.p : "", w->path.n),
      tfr_arena_strndup(w->a, name, n),
      at,
      context,
      t,
      ctor != NULL,
      ctor && (ctor->flags & AST_F_JSON)};
  w->fn(w->ctx, &d);
}

/* Path steps, as OpenTofu's FormatCtyPath writes them. */
static void step_attr(struct walk *w, const char *name, size_t n) {
  sbuf_put(&w->path, ".", 1);
  sbuf_put(&w->path, name, n);
}

static void step_key(struct walk *w, const char *key, size_t n) {
  sbuf_put(&w->path, "[", 1);
  sbuf_go_quote(&w->path, key, n);
  sbuf_put(&w->path, "]", 1);
}

static void step_index(struct walk *w, size_t i) {
  char buf[32];
  int n = snprintf(buf, sizeof buf, "[%zu]", i);
  sbuf_put(&w->path, buf, (size_t)n);
}

static const char unknown_step[] = "[(not yet known)]";

/* ---- over a value ------------------------------------------------------ */

/* The i-th element's key of an object or map value. */
static const char *value_key(const tfr_value *v, uint32_t i, size_t *n) {
  if (v->type->kind == TFR_OBJECT) {
    *n = strlen(v->type->names[i]);
    return v->type->names[i];
  }
  *n = v->keylens[i];
  return v->keys[i];
}

static void value_walk(struct walk *w, const tfr_value *v, const tfr_type *t,
                       struct span at) {
  if (!v || (v->flags & (TFR_V_NULL | TFR_V_UNKNOWN)))
    return;
  int vk = v->type->kind, tk = t->kind;
  size_t mark = w->path.n;
  if ((tk == TFR_OBJECT || tk == TFR_MAP) &&
      (vk == TFR_OBJECT || vk == TFR_MAP)) {
    for (uint32_t i = 0; i < v->n; i++) {
      size_t n;
      const char *k = value_key(v, i, &n);
      const tfr_type *et = t->elem;
      if (tk == TFR_OBJECT) {
        long j = tfr_type_attr(t, k, n);
        if (j < 0) {
          report(w, k, n, at, at, t, NULL);
          continue;
        }
        et = t->types[j];
        step_attr(w, k, n);
      } else {
        step_key(w, k, n);
      }
      value_walk(w, v->elems[i], et, at);
      w->path.n = mark;
    }
  } else if ((tk == TFR_LIST || tk == TFR_SET || tk == TFR_TUPLE) &&
             (vk == TFR_LIST || vk == TFR_SET || vk == TFR_TUPLE)) {
    if (tk == TFR_TUPLE && t->n != v->n)
      return; /* conversion fails anyway */
    for (uint32_t i = 0; i < v->n; i++) {
      if (vk == TFR_SET)
        sbuf_put(&w->path, "[...]", 5); /* a set element has no index */
      else
        step_index(w, i);
      value_walk(w, v->elems[i], tk == TFR_TUPLE ? t->types[i] : t->elem, at);
      w->path.n = mark;
    }
  }
}

/* ---- over an expression ------------------------------------------------ */

/* An object constructor key that is a constant name, or NULL. */
static const char *const_key(const struct ast *k, size_t *n) {
  switch (k->kind) {
  case AST_VARIABLE:
  case AST_STRING:
    *n = k->n;
    return k->str;
  case AST_BOOL:
    *n = k->flags & AST_F_TRUE ? 4 : 5;
    return k->flags & AST_F_TRUE ? "true" : "false";
  case AST_NULL:
    *n = 4;
    return "null";
  case AST_TEMPLATE: /* "name" in a native file: one literal part */
    if (k->n == 1 && k->items[0]->kind == AST_STRING) {
      *n = k->items[0]->n;
      return k->items[0]->str;
    }
    return NULL;
  case AST_PAREN:
    return const_key(k->a, n);
  default:
    return NULL;
  }
}

/* The element of v (an object or map value) named key, or NULL. */
static const tfr_value *value_elem(const tfr_value *v, const char *key,
                                   size_t n) {
  if (!v || (v->flags & (TFR_V_NULL | TFR_V_UNKNOWN)))
    return NULL;
  if (v->type->kind == TFR_OBJECT) {
    long j = tfr_type_attr(v->type, key, n);
    return j < 0 ? NULL : v->elems[j];
  }
  if (v->type->kind != TFR_MAP)
    return NULL;
  for (uint32_t i = 0; i < v->n; i++)
    if (v->keylens[i] == n && !memcmp(v->keys[i], key, n))
      return v->elems[i];
  return NULL;
}

/* The i-th element of a list or tuple value (not a set: its order is not
** the constructor's), or NULL. */
static const tfr_value *value_index(const tfr_value *v, uint32_t i) {
  if (!v || (v->flags & (TFR_V_NULL | TFR_V_UNKNOWN)) || i >= v->n)
    return NULL;
  int k = v->type->kind;
  return k == TFR_LIST || k == TFR_TUPLE ? v->elems[i] : NULL;
}

static void expr_walk(struct walk *w, const struct ast *x, const tfr_value *v,
                      const tfr_type *t);

static void object_items(struct walk *w, const struct ast *x,
                         const tfr_value *v, const tfr_type *t) {
  size_t mark = w->path.n;
  for (uint32_t i = 0; i < x->n; i++) {
    const struct ast *kx = x->items[2 * i], *vx = x->items[2 * i + 1];
    size_t n;
    const char *k = const_key(kx, &n);
    if (!k)
      continue;
    const tfr_type *et = t->elem;
    if (t->kind == TFR_OBJECT) {
      long j = tfr_type_attr(t, k, n);
      if (j < 0) {
        report(w, k, n, kx->span, x->span, t, x);
        continue;
      }
      et = t->types[j];
      step_attr(w, k, n);
    } else {
      step_key(w, k, n);
    }
    expr_walk(w, vx, value_elem(v, k, n), et);
    w->path.n = mark;
  }
}

static void expr_walk(struct walk *w, const struct ast *x, const tfr_value *v,
                      const tfr_type *t) {
  while (x->kind == AST_PAREN)
    x = x->a;
  int tk = t->kind;
  if (tk == TFR_DYNAMIC || tfr_type_is_primitive(t))
    return;
  size_t mark = w->path.n;
  bool list_like = tk == TFR_LIST || tk == TFR_SET;
  if (x->kind == AST_OBJECT && (tk == TFR_OBJECT || tk == TFR_MAP)) {
    object_items(w, x, v, t);
  } else if (x->kind == AST_TUPLE &&
             (list_like || (tk == TFR_TUPLE && t->n == x->n))) {
    for (uint32_t i = 0; i < x->n; i++) {
      step_index(w, i);
      expr_walk(w, x->items[i], value_index(v, i),
                tk == TFR_TUPLE ? t->types[i] : t->elem);
      w->path.n = mark;
    }
  } else if (x->kind == AST_FOR &&
             ((list_like && !x->kids[3]) || (tk == TFR_MAP && x->kids[3]))) {
    /* every element at once, at a key not yet known */
    sbuf_put(&w->path, unknown_step, sizeof unknown_step - 1);
    expr_walk(w, x->kids[4], NULL, t->elem);
    w->path.n = mark;
  } else if (x->kind != AST_OBJECT && x->kind != AST_TUPLE &&
             x->kind != AST_FOR) {
    value_walk(w, v, t, x->span);
  }
}

void strict_dropped(tfr_arena *a, const struct ast *x, const tfr_value *v,
                    const tfr_type *t, dropped_fn fn, void *ctx) {
  struct walk w = {a, {0}, fn, ctx};
  if (x)
    expr_walk(&w, x, v, t);
  free(w.path.p);
}

/* The next step of path p: an attribute or key name (*n bytes, in buf,
** with *is_key) or an index; NULL at the end or on what cannot be read. */
static const char *next_step(const char *p, char *buf, size_t size, size_t *n,
                             long *index) {
  *index = -1;
  if (*p == '.') {
    size_t k = strcspn(p + 1, ".[");
    if (!k || k >= size)
      return NULL;
    memcpy(buf, p + 1, k);
    *n = k;
    return p + 1 + k;
  }
  if (p[0] != '[')
    return NULL;
  if (p[1] == '"') { /* a Go-quoted key: \" and \\ are enough here */
    size_t k = 0;
    const char *q = p + 2;
    for (; *q && *q != '"'; q++) {
      if (*q == '\\' && (q[1] == '"' || q[1] == '\\'))
        q++;
      else if (*q == '\\')
        return NULL;
      if (k + 1 >= size)
        return NULL;
      buf[k++] = *q;
    }
    if (q[0] != '"' || q[1] != ']')
      return NULL;
    *n = k;
    return q + 2;
  }
  char *end;
  long i = strtol(p + 1, &end, 10);
  if (end == p + 1 || *end != ']' || i < 0)
    return NULL;
  *index = i;
  return end + 1;
}

const struct ast *strict_locate(const struct ast *x, const char *path) {
  return strict_locate_rest(x, path, NULL);
}

const struct ast *strict_locate_rest(const struct ast *x, const char *path,
                                     const char **rest_out) {
  char buf[256];
  if (rest_out)
    *rest_out = path;
  while (x && path && *path) {
    while (x->kind == AST_PAREN)
      x = x->a;
    size_t n = 0;
    long index;
    const char *rest = next_step(path, buf, sizeof buf, &n, &index);
    if (!rest)
      return x;
    const struct ast *next = NULL;
    if (index >= 0 && x->kind == AST_TUPLE && (uint32_t)index < x->n)
      next = x->items[index];
    for (uint32_t i = 0; index < 0 && x->kind == AST_OBJECT && i < x->n; i++) {
      size_t kn;
      const char *k = const_key(x->items[2 * i], &kn);
      if (k && kn == n && !memcmp(k, buf, n))
        next = x->items[2 * i + 1]; /* the last of a repeated key wins */
    }
    if (!next)
      return x;
    x = next;
    path = rest;
    if (rest_out)
      *rest_out = rest;
  }
  return x;
}

/* The path a type mismatch message spells out ("element \"b\": attribute
** \"x\": string required" -> `["b"].x`; "element 2: ..." -> `[2]`). */
static const char *mismatch_path(tfr_arena *a, const char *msg) {
  struct sbuf b = {0};
  sbuf_put(&b, "", 0);
  for (const char *p = msg;;) {
    bool attr = !strncmp(p, "attribute \"", 11);
    bool key = !strncmp(p, "element \"", 9);
    if (attr || key) {
      const char *q = p + (attr ? 11 : 9), *s = q;
      while (*q && *q != '"')
        q += *q == '\\' && q[1] ? 2 : 1;
      if (q[0] != '"' || q[1] != ':')
        break;
      sbuf_str(&b, attr ? "." : "[\"");
      sbuf_put(&b, s, (size_t)(q - s)); /* still Go-quoted, as the path */
      sbuf_str(&b, attr ? "" : "\"]");
      p = q + 2 + (q[2] == ' ');
    } else if (!strncmp(p, "element ", 8) && p[8] >= '0' && p[8] <= '9') {
      const char *q = p + 8;
      while (*q >= '0' && *q <= '9')
        q++;
      if (*q != ':')
        break;
      sbuf_put(&b, "[", 1);
      sbuf_put(&b, p + 8, (size_t)(q - p - 8));
      sbuf_put(&b, "]", 1);
      p = q + 1 + (q[1] == ' ');
    } else {
      break;
    }
  }
  const char *out = tfr_arena_strndup(a, b.p, b.n);
  free(b.p);
  return out;
}

const char *strict_failing_path(tfr_arena *a, const tfr_value *given,
                                const tfr_type *t) {
  const char *err = NULL, *path = NULL;
  if (conv_convert_path(a, given, t, &err, &path) || !err)
    return NULL;
  if (!path || !*path)
    path = mismatch_path(a, err);
  return *path ? path : NULL;
}

void strict_dropped_value(tfr_arena *a, const tfr_value *v, const tfr_type *t,
                          dropped_fn fn, void *ctx) {
  struct walk w = {a, {0}, fn, ctx};
  value_walk(&w, v, t, (struct span){0, 0});
  free(w.path.p);
}

const char *strict_suggest(const tfr_type *t, const char *name) {
  size_t n = strlen(name), best = 3;
  const char *near = NULL;
  for (uint32_t i = 0; t->kind == TFR_OBJECT && i < t->n; i++) {
    size_t d = str_distance(name, n, t->names[i], strlen(t->names[i]));
    if (d < best)
      best = d, near = t->names[i];
  }
  return near;
}
