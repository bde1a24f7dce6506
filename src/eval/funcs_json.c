/*
** jsondecode and jsonencode: Go's encoding/json Decoder as cty's jsondecode
** drives it (its tokens, limits and error texts), and cty's json.Marshal.
** The group funcs_json.
*/
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <utf8proc.h>

#include "base/arena_int.h"
#include "values/convert.h"
#include "eval/funcs.h"
#include "eval/funcs_encoding_int.h"
#include "values/number.h"
#include "eval/gobase64.h"
#include "base/json_out.h"
#include "base/strutil.h"
#include "base/heap.h"

#define MARKS (TFR_V_SENSITIVE | TFR_V_EPHEMERAL)

/* ---- JSON: Go's encoding/json Decoder, as cty's jsondecode drives it ------
 */

enum jkind { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

/* A parsed JSON value.  Object members keep their order and duplicates. */
struct jnode {
  uint8_t kind;
  bool b;
  char deep;     /* root children: the bracket that nests too deep */
  const char *s; /* string (decoded) or number text */
  size_t n;
  struct jnode **kids;
  const char **keys; /* objects */
  size_t *keylens;
  size_t nkids, cap;
};

/* Decoder.Token's states. */
enum {
  TS_TOP,
  TS_ARR_START,
  TS_ARR_VALUE,
  TS_ARR_COMMA,
  TS_OBJ_START,
  TS_OBJ_KEY,
  TS_OBJ_COLON,
  TS_OBJ_VALUE,
  TS_OBJ_COMMA
};

struct jdec {
  tfr_arena *a;
  const char *s;
  size_t n, pos;
  int state;
  int *stack;
  size_t nstack, cap;
  const char *err; /* Go's error text */
};

/* A token: a delimiter, or a scalar in node. */
struct jtok {
  char delim;
  struct jnode *node;
};

static bool json_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* peek: the next non-space byte, or -1 at the end (io.EOF). */
static int jpeek(struct jdec *d) {
  while (d->pos < d->n && json_space(d->s[d->pos]))
    d->pos++;
  return d->pos < d->n ? (unsigned char)d->s[d->pos] : -1;
}

/* Go's quoteChar: how the scanner names a byte in its messages. */
static const char *quote_char(tfr_arena *a, unsigned char c) {
  if (c == '\'')
    return "'\\''";
  if (c == '"')
    return "'\"'";
  utf8proc_uint8_t u[4];
  utf8proc_ssize_t k = utf8proc_encode_char(c, u);
  const char *q = str_go_quote(a, (const char *)u, (size_t)k);
  return tfr_arena_printf(a, "'%.*s'", (int)strlen(q) - 2, q + 1);
}

static bool jfail(struct jdec *d, unsigned char c, const char *context) {
  d->err = tfr_arena_printf(d->a, "invalid character %s%s%s",
                            quote_char(d->a, c), *context ? " " : "", context);
  return false;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* The scanner ran out of input inside a value: Decode's io.ErrUnexpectedEOF. */
static bool jeof(struct jdec *d) {
  d->err = "unexpected EOF";
  return false;
}

/* A string literal from its opening quote; *p ends after the closing one. */
static bool scan_string(struct jdec *d, const char **p, const char *end) {
  const char *q = *p;
  for (;;) {
    if (++q == end)
      return jeof(d);
    unsigned char c = (unsigned char)*q;
    if (c == '"')
      break;
    if (c < 0x20)
      return jfail(d, c, "in string literal");
    if (c != '\\')
      continue;
    if (++q == end)
      return jeof(d);
    if (*q && strchr("bfnrt\\/\"", *q))
      continue;
    if (*q != 'u')
      return jfail(d, (unsigned char)*q, "in string escape code");
    for (int i = 0; i < 4; i++) {
      if (++q == end)
        return jeof(d);
      if (!is_hex(*q))
        return jfail(d, (unsigned char)*q,
                     "in \\u hexadecimal character escape");
    }
  }
  *p = q + 1;
  return true;
}

/* true, false or null. */
static bool scan_word(struct jdec *d, const char **p, const char *end) {
  const char *q = *p;
  const char *word = *q == 't' ? "true" : *q == 'f' ? "false" : "null";
  for (size_t i = 1; word[i]; i++) {
    if (++q == end)
      return jeof(d);
    if (*q != word[i])
      return jfail(d, (unsigned char)*q,
                   tfr_arena_printf(d->a, "in literal %s (expecting '%c')",
                                    word, word[i]));
  }
  *p = q + 1;
  return true;
}

/* A number: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static bool scan_number(struct jdec *d, const char **p, const char *end) {
  const char *q = *p;
  if (*q == '-') {
    if (++q == end)
      return jeof(d);
    if (!is_digit(*q))
      return jfail(d, (unsigned char)*q, "in numeric literal");
  }
  if (*q == '0')
    q++;
  else
    while (q < end && is_digit(*q))
      q++;
  if (q < end && *q == '.') {
    if (++q == end)
      return jeof(d);
    if (!is_digit(*q))
      return jfail(d, (unsigned char)*q,
                   "after decimal point in numeric literal");
    while (q < end && is_digit(*q))
      q++;
  }
  if (q < end && (*q == 'e' || *q == 'E')) {
    if (++q < end && (*q == '+' || *q == '-'))
      q++;
    if (q == end)
      return jeof(d);
    if (!is_digit(*q))
      return jfail(d, (unsigned char)*q, "in exponent of numeric literal");
    while (q < end && is_digit(*q))
      q++;
  }
  *p = q;
  return true;
}

/*
** Scan the scalar at d->pos as Go's scanner does (Decode's readValue for a
** value that is not an array or object) and set *len to its length.
*/
static bool scan_scalar(struct jdec *d, size_t *len) {
  const char *s = d->s + d->pos, *end = d->s + d->n, *p = s;
  bool ok;
  if (*p == '"')
    ok = scan_string(d, &p, end);
  else if (*p == 't' || *p == 'f' || *p == 'n')
    ok = scan_word(d, &p, end);
  else if (*p == '-' || is_digit(*p))
    ok = scan_number(d, &p, end);
  else
    ok = jfail(d, (unsigned char)*p, "looking for beginning of value");
  *len = (size_t)(p - s);
  return ok;
}

static int hex4(const char *p) {
  int v = 0;
  for (int i = 0; i < 4; i++) {
    char c = p[i];
    v = v * 16 + (is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10);
  }
  return v;
}

/* Go's unquote of a scanned string literal (quotes included). */
static const char *unquote(tfr_arena *a, const char *s, size_t n, size_t *len) {
  struct sbuf b = {0};
  sbuf_put(&b, "", 0);
  for (size_t i = 1; i + 1 < n;) {
    unsigned char c = (unsigned char)s[i];
    if (c != '\\') {
      utf8proc_int32_t cp;
      utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
                                            (utf8proc_ssize_t)(n - 1 - i), &cp);
      if (k <= 0) {
        put_cp(&b, 0xFFFD);
        i++;
      } else {
        sbuf_put(&b, s + i, (size_t)k);
        i += (size_t)k;
      }
      continue;
    }
    char e = s[i + 1];
    const char *simple = strchr("b\bf\fn\nr\rt\t\\\\//\"\"", e);
    if (e != 'u' && simple) {
      sbuf_put(&b, simple + 1, 1);
      i += 2;
      continue;
    }
    int32_t r = hex4(s + i + 2);
    i += 6;
    if (r >= 0xD800 && r < 0xE000) {
      int32_t r2 = i + 6 <= n - 1 && s[i] == '\\' && s[i + 1] == 'u'
                       ? hex4(s + i + 2)
                       : -1;
      if (r < 0xDC00 && r2 >= 0xDC00 && r2 < 0xE000) {
        r = 0x10000 + ((r - 0xD800) << 10) + (r2 - 0xDC00);
        i += 6;
      } else {
        r = 0xFFFD;
      }
    }
    put_cp(&b, r);
  }
  const char *r = tfr_arena_strndup(a, b.p, b.n);
  *len = b.n;
  free(b.p);
  return r;
}

/* Decode(&x) of the scalar at the cursor. */
static struct jnode *decode_scalar(struct jdec *d) {
  size_t len = 0;
  if (!scan_scalar(d, &len))
    return NULL;
  const char *s = d->s + d->pos;
  d->pos += len;
  struct jnode *j = tfr_arena_alloc(d->a, sizeof *j);
  switch (s[0]) {
  case '"':
    j->kind = J_STR;
    j->s = unquote(d->a, s, len, &j->n);
    break;
  case 't':
  case 'f':
    j->kind = J_BOOL;
    j->b = s[0] == 't';
    break;
  case 'n':
    j->kind = J_NULL;
    break;
  default:
    j->kind = J_NUM;
    j->s = tfr_arena_strndup(d->a, s, len);
    j->n = len;
  }
  return j;
}

static bool value_allowed(int st) {
  return st == TS_TOP || st == TS_ARR_START || st == TS_ARR_VALUE ||
         st == TS_OBJ_VALUE;
}

static void value_end(struct jdec *d) {
  if (d->state == TS_ARR_START || d->state == TS_ARR_VALUE)
    d->state = TS_ARR_COMMA;
  else if (d->state == TS_OBJ_VALUE)
    d->state = TS_OBJ_COMMA;
}

static bool token_error(struct jdec *d, unsigned char c) {
  static const char *const ctx[] = {
      [TS_TOP] = "looking for beginning of value",
      [TS_ARR_START] = "looking for beginning of value",
      [TS_ARR_VALUE] = "looking for beginning of value",
      [TS_ARR_COMMA] = "after array element",
      [TS_OBJ_START] = "",
      [TS_OBJ_KEY] = "looking for beginning of object key string",
      [TS_OBJ_COLON] = "after object key",
      [TS_OBJ_VALUE] = "looking for beginning of value",
      [TS_OBJ_COMMA] = "after object key:value pair"};
  return jfail(d, c, ctx[d->state]);
}

static void push_state(struct jdec *d, int next) {
  if (d->nstack == d->cap) {
    d->cap = d->cap ? d->cap * 2 : 64;
    d->stack = heap_realloc(d->stack, d->cap * sizeof *d->stack);
  }
  d->stack[d->nstack++] = d->state;
  d->state = next;
}

/* Decoder.Token. */
static bool jtoken(struct jdec *d, struct jtok *t) {
  t->delim = 0;
  t->node = NULL;
  for (;;) {
    int c = jpeek(d);
    if (c < 0) {
      d->err = "EOF";
      return false;
    }
    switch (c) {
    case '[':
    case '{':
      if (!value_allowed(d->state))
        return token_error(d, (unsigned char)c);
      d->pos++;
      push_state(d, c == '[' ? TS_ARR_START : TS_OBJ_START);
      t->delim = (char)c;
      return true;
    case ']':
    case '}':
      if (c == ']' ? d->state != TS_ARR_START && d->state != TS_ARR_COMMA
                   : d->state != TS_OBJ_START && d->state != TS_OBJ_COMMA)
        return token_error(d, (unsigned char)c);
      d->pos++;
      d->state = d->stack[--d->nstack];
      value_end(d);
      t->delim = (char)c;
      return true;
    case ':':
      if (d->state != TS_OBJ_COLON)
        return token_error(d, ':');
      d->pos++;
      d->state = TS_OBJ_VALUE;
      continue;
    case ',':
      if (d->state == TS_ARR_COMMA)
        d->state = TS_ARR_VALUE;
      else if (d->state == TS_OBJ_COMMA)
        d->state = TS_OBJ_KEY;
      else
        return token_error(d, ',');
      d->pos++;
      continue;
    default:
      if (c == '"' && (d->state == TS_OBJ_START || d->state == TS_OBJ_KEY)) {
        t->node = decode_scalar(d);
        if (!t->node)
          return false;
        d->state = TS_OBJ_COLON;
        return true;
      }
      if (!value_allowed(d->state))
        return token_error(d, (unsigned char)c);
      t->node = decode_scalar(d);
      if (!t->node)
        return false;
      value_end(d);
      return true;
    }
  }
}

static void jnode_add(tfr_arena *a, struct jnode *p, const char *key,
                      size_t keylen, struct jnode *kid) {
  size_t cap = p->cap, kcap = p->cap; /* the three arrays grow together */
  ARENA_GROW(a, p->kids, p->nkids, cap, 8);
  ARENA_GROW(a, p->keys, p->nkids, kcap, 8);
  ARENA_GROW(a, p->keylens, p->nkids, p->cap, 8);
  p->keys[p->nkids] = key;
  p->keylens[p->nkids] = keylen;
  p->kids[p->nkids++] = kid;
}

static const tfr_type *json_implied(tfr_arena *a, const struct jnode *j);

/* Up to this many members, an object's earlier keys are searched in turn;
** a larger one's are in a map. */
enum { JSON_SCAN_KEYS = 16 };

/* (o, its member i's key) as one byte string, a key of seen. */
static const char *member_key(tfr_arena *a, const struct jnode *o, size_t i,
                              size_t *len) {
  *len = sizeof o + o->keylens[i];
  char *k = tfr_arena_alloc(a, *len);
  memcpy(k, &o, sizeof o);
  memcpy(k + sizeof o, o->keys[i], o->keylens[i]);
  return k;
}

/* An earlier member of o with the key of its last member, or -1. */
static long earlier_member(tfr_arena *a, struct bytemap *seen,
                           const struct jnode *o) {
  size_t m = o->nkids - 1, len;
  if (m < JSON_SCAN_KEYS) {
    for (size_t i = 0; i < m; i++)
      if (o->keylens[i] == o->keylens[m] &&
          !memcmp(o->keys[i], o->keys[m], o->keylens[m]))
        return (long)i;
    return -1;
  }
  for (size_t i = m == JSON_SCAN_KEYS ? 0 : m; i <= m; i++) {
    const char *k = member_key(a, o, i, &len);
    uintptr_t at = (uintptr_t)bytemap_get(seen, k, len);
    if (i == m)
      return at ? (long)at - 1 : -1; /* (m is put by the caller) */
    if (!at)
      bytemap_put(seen, k, len, (void *)(uintptr_t)(i + 1));
  }
  return -1;
}

/*
** cty's ImpliedType meets an object's keys in order and refuses a key
** whose value's type is not that of the key's earlier value, before it
** reads on (cty/json/type_implied.go:130-151).  o's last member has just
** been read whole: false, with d->err, when its key is such a key.
*/
static bool member_ok(struct jdec *d, struct bytemap *seen,
                      const struct jnode *o) {
  size_t m = o->nkids - 1, len;
  long i = earlier_member(d->a, seen, o);
  if (i >= 0 && !tfr_type_equal(json_implied(d->a, o->kids[i]),
                                json_implied(d->a, o->kids[m]))) {
    d->err = tfr_arena_printf(d->a, "duplicate %s property in JSON object",
                              str_go_quote(d->a, o->keys[m], o->keylens[m]));
    return false;
  }
  if (m >= JSON_SCAN_KEYS && i < 0) {
    const char *k = member_key(d->a, o, m, &len);
    bytemap_put(seen, k, len, (void *)(uintptr_t)(m + 1));
  }
  return true;
}

/* encoding/json's scanner refuses to nest deeper than this. */
#define JSON_MAX_DEPTH 10000

/*
** Read one JSON document the way cty's ImpliedType walks it with Token
** (iteratively: documents may nest deeply), then check for extra data.
** NULL with d->err on failure.  A child of the root that nests more than
** JSON_MAX_DEPTH levels is marked (deep): cty's Unmarshal reads each
** child with Decode, whose scanner refuses it.
*/
static struct jnode *json_parse(struct jdec *d) {
  struct jtok t;
  if (!jtoken(d, &t))
    return NULL;
  struct jnode *root = NULL, *deep_owner = NULL;
  struct jnode **open = NULL; /* containers being filled */
  size_t nopen = 0, capopen = 0;
  const char *key = NULL;
  size_t keylen = 0;
  /* Once a child nests too deeply the call fails whatever follows, but the
  ** rest must still be valid JSON: it is only read, not built.  The two
  ** stand-ins for unbuilt containers are read-only: nothing is added to
  ** them. */
  static const struct jnode skip_arr = {.kind = J_ARR},
                            skip_obj = {.kind = J_OBJ};
  bool build = true;
  struct bytemap seen = {0}; /* the keys of large objects (member_ok) */
  for (;;) {
    struct jnode *v = t.node;
    if (t.delim && build) {
      v = tfr_arena_alloc(d->a, sizeof *v);
      v->kind = t.delim == '[' ? J_ARR : J_OBJ;
    } else if (t.delim) {
      v = UNCONST(struct jnode *, t.delim == '[' ? &skip_arr : &skip_obj);
    }
    if (nopen && build) {
      struct jnode *o = open[nopen - 1];
      jnode_add(d->a, o, key, keylen, v);
      if (!t.delim && o->kind == J_OBJ && !member_ok(d, &seen, o))
        goto fail;
    } else if (!nopen) {
      root = v;
    }
    if (t.delim) {
      if (nopen == 1 && build)
        deep_owner = v;
      if (nopen == JSON_MAX_DEPTH + 1 && deep_owner && build) {
        deep_owner->deep = t.delim;
        build = false;
      }
      if (nopen == capopen) {
        capopen = capopen ? capopen * 2 : 64;
        open = heap_realloc(open, capopen * sizeof *open);
      }
      open[nopen++] = v;
    }
    /* Close finished containers, then read the next member. */
    for (;;) {
      if (!nopen)
        goto done;
      struct jnode *c = open[nopen - 1];
      if (!jtoken(d, &t))
        goto fail;
      if (t.delim == ']' || t.delim == '}') {
        nopen--; /* a container member is read whole when it closes */
        if (nopen && build && open[nopen - 1]->kind == J_OBJ &&
            !member_ok(d, &seen, open[nopen - 1]))
          goto fail;
        continue;
      }
      if (c->kind == J_OBJ) {
        key = t.node->s;
        keylen = t.node->n;
        if (!jtoken(d, &t))
          goto fail;
      }
      break;
    }
  }
done:
  free(open);
  bytemap_free(&seen);
  if (jpeek(d) >= 0 && d->s[d->pos] != ']' && d->s[d->pos] != '}') {
    d->err = "extraneous data after JSON object";
    return NULL;
  }
  return root;
fail:
  free(open);
  bytemap_free(&seen);
  return NULL;
}

/* An attribute name as cty.Object and cty.ObjectVal keep it: NFC. */
const char *nfc_name(tfr_arena *a, const char *s, size_t n) {
  return tfr_string(a, s, n)->s;
}

/*
** The distinct keys of an object node (NFC, as cty.Object normalises
** them), each with its last member.
*/
static size_t last_members(tfr_arena *a, const struct jnode *j,
                           const char ***names, const struct jnode ***vals) {
  struct named *v = tfr_arena_alloc(a, (j->nkids + 1) * sizeof *v);
  for (size_t i = 0; i < j->nkids; i++)
    v[i] = (struct named){nfc_name(a, j->keys[i], j->keylens[i]), i};
  size_t n = keep_last(v, j->nkids);
  *names = tfr_arena_alloc(a, (n + 1) * sizeof **names);
  *vals = tfr_arena_alloc(a, (n + 1) * sizeof **vals);
  for (size_t i = 0; i < n; i++) {
    (*names)[i] = v[i].name;
    (*vals)[i] = j->kids[v[i].idx];
  }
  return n;
}

/* cty's json.ImpliedType of a parsed document. */
static const tfr_type *json_implied(tfr_arena *a, const struct jnode *j) {
  switch (j->kind) {
  case J_NULL:
    return &tfr_t_dynamic;
  case J_BOOL:
    return &tfr_t_bool;
  case J_NUM:
    return &tfr_t_number;
  case J_STR:
    return &tfr_t_string;
  case J_ARR: {
    const tfr_type **ts = tfr_arena_alloc(a, (j->nkids + 1) * sizeof *ts);
    for (size_t i = 0; i < j->nkids; i++)
      ts[i] = json_implied(a, j->kids[i]);
    return tfr_type_tuple(a, j->nkids, ts);
  }
  default: {
    const char **names;
    const struct jnode **vals;
    size_t n = last_members(a, j, &names, &vals);
    const tfr_type **ts = tfr_arena_alloc(a, (n + 1) * sizeof *ts);
    for (size_t i = 0; i < n; i++)
      ts[i] = json_implied(a, vals[i]);
    return tfr_type_object(a, n, names, ts, NULL);
  }
  }
}

static const tfr_value *json_unmarshal(tfr_arena *a, const struct jnode *j,
                                       const tfr_type *t, const char **err);

/* cty's unmarshalPrimitive. */
static const tfr_value *json_primitive(tfr_arena *a, const struct jnode *j,
                                       const tfr_type *t, const char **err) {
  switch (t->kind) {
  case TFR_BOOL:
    if (j->kind == J_BOOL)
      return tfr_bool(j->b);
    if (j->kind == J_STR) {
      const tfr_value *v = conv_convert(a, tfr_string(a, j->s, j->n), t, err);
      return v;
    }
    *err = "bool is required";
    return NULL;
  case TFR_NUMBER:
    if (j->kind == J_NUM || j->kind == J_STR) {
      const struct tfr_num *n = num_parse(a, j->s, j->n);
      if (!n)
        *err = "a number is required";
      return n ? number_value(a, n) : NULL;
    }
    *err = "number is required";
    return NULL;
  default:
    if (j->kind == J_STR || j->kind == J_NUM)
      return tfr_string(a, j->s, j->n);
    if (j->kind == J_BOOL)
      return tfr_string(a, j->b ? "true" : "false", j->b ? 4 : 5);
    *err = "string is required";
    return NULL;
  }
}

/* The elements of an array node against one element type. */
static const tfr_value **json_elems(tfr_arena *a, const struct jnode *j,
                                    const tfr_type *ety, const char **err) {
  const tfr_value **vs = tfr_arena_alloc(a, (j->nkids + 1) * sizeof *vs);
  for (size_t i = 0; i < j->nkids; i++) {
    vs[i] = json_unmarshal(a, j->kids[i], ety, err);
    if (!vs[i])
      return NULL;
  }
  return vs;
}

/* cty's unmarshalObject. */
static const tfr_value *json_object(tfr_arena *a, const struct jnode *j,
                                    const tfr_type *t, const char **err) {
  const tfr_value **vals = tfr_arena_alloc(a, (t->n + 1) * sizeof *vals);
  for (size_t i = 0; i < j->nkids; i++) {
    long k = tfr_type_attr(t, j->keys[i], j->keylens[i]);
    if (k < 0) {
      *err = tfr_arena_printf(a, "unsupported attribute %s",
                              str_go_quote(a, j->keys[i], j->keylens[i]));
      return NULL;
    }
    vals[k] = json_unmarshal(a, j->kids[i], t->types[k], err);
    if (!vals[k])
      return NULL;
  }
  for (uint32_t k = 0; k < t->n; k++)
    if (!vals[k])
      vals[k] = tfr_null(a, t->types[k]);
  return tfr_object(a, t->n, (const char *const *)t->names, vals);
}

/* cty's unmarshalMap. */
static const tfr_value *json_map(tfr_arena *a, const struct jnode *j,
                                 const tfr_type *t, const char **err) {
  const char **names;
  const struct jnode **members;
  for (size_t i = 0; i < j->nkids; i++)
    if (!json_unmarshal(a, j->kids[i], t->elem, err))
      return NULL;
  size_t n = last_members(a, j, &names, &members);
  const tfr_value **vals = tfr_arena_alloc(a, (n + 1) * sizeof *vals);
  uint32_t *lens = tfr_arena_alloc(a, (n + 1) * sizeof *lens);
  for (size_t i = 0; i < n; i++) {
    vals[i] = json_unmarshal(a, members[i], t->elem, err);
    lens[i] = (uint32_t)strlen(names[i]);
  }
  return tfr_map(a, t->elem, n, names, lens, vals);
}

/* cty's Type.UnmarshalJSON on a parsed type description; NULL with *err
** (nested errors are worded approximately). */
static const tfr_type *json_type_spec(tfr_arena *a, const struct jnode *j,
                                      const char **err) {
  static const struct {
    const char *name;
    const tfr_type *t;
  } prims[] = {{"string", &tfr_t_string},
               {"number", &tfr_t_number},
               {"bool", &tfr_t_bool},
               {"dynamic", &tfr_t_dynamic}};
  if (j->kind == J_STR) {
    for (size_t i = 0; i < 4; i++)
      if (!strcmp(j->s, prims[i].name))
        return prims[i].t;
    *err = tfr_arena_printf(a, "invalid primitive type name %s",
                            str_go_quote(a, j->s, j->n));
    return NULL;
  }
  if (j->kind != J_ARR) {
    *err = "invalid type description";
    return NULL;
  }
  const char *k = j->nkids && j->kids[0]->kind == J_STR ? j->kids[0]->s : "";
  bool coll = !strcmp(k, "list") || !strcmp(k, "set") || !strcmp(k, "map");
  bool obj = !strcmp(k, "object"), tup = !strcmp(k, "tuple");
  if (!coll && !obj && !tup) {
    *err = "invalid complex type kind name";
    return NULL;
  }
  if (j->nkids < 2 || j->nkids > (obj ? 3u : 2u)) {
    *err = "unexpected extra data in type description";
    return NULL;
  }
  const struct jnode *arg = j->kids[1];
  if (coll) {
    const tfr_type *e = json_type_spec(a, arg, err);
    if (!e)
      return NULL;
    return k[0] == 'l'   ? tfr_type_list(a, e)
           : k[0] == 's' ? tfr_type_set(a, e)
                         : tfr_type_map(a, e);
  }
  if (arg->kind != (obj ? J_OBJ : J_ARR)) {
    *err = obj ? "json: cannot unmarshal into map[string]cty.Type"
               : "json: cannot unmarshal into []cty.Type";
    return NULL;
  }
  const char **names = arg->keys;
  const struct jnode **kids = UNCONST(const struct jnode **, arg->kids);
  size_t n = obj ? last_members(a, arg, &names, &kids) : arg->nkids;
  const tfr_type **ts = tfr_arena_alloc(a, (n + 1) * sizeof *ts);
  for (size_t i = 0; i < n; i++) {
    ts[i] = json_type_spec(a, kids[i], err);
    if (!ts[i])
      return NULL;
  }
  return obj ? tfr_type_object(a, n, names, ts, NULL)
             : tfr_type_tuple(a, n, ts);
}

/* cty's unmarshalDynamic: {"value": ..., "type": ...}. */
static const tfr_value *json_dynamic(tfr_arena *a, const struct jnode *j,
                                     const char **err) {
  if (j->kind != J_OBJ) {
    *err = "missing expected {";
    return NULL;
  }
  const tfr_type *t = NULL;
  const struct jnode *body = NULL;
  for (size_t i = 0; i < j->nkids; i++) {
    if (!strcmp(j->keys[i], "type")) {
      const char *why = NULL;
      t = json_type_spec(a, j->kids[i], &why);
      if (!t) {
        *err = tfr_arena_printf(a,
                                "failed to decode type for dynamic "
                                "value: %s",
                                why);
        return NULL;
      }
    } else if (!strcmp(j->keys[i], "value")) {
      body = j->kids[i];
    } else {
      *err = tfr_arena_printf(a, "invalid key %s in dynamically-typed value",
                              str_go_quote(a, j->keys[i], j->keylens[i]));
      return NULL;
    }
  }
  if (!t || !body) {
    *err = !t ? "missing type in dynamically-typed value"
              : "missing value in dynamically-typed value";
    return NULL;
  }
  return json_unmarshal(a, body, t, err);
}

/* cty's json.Unmarshal of a parsed document into type t. */
static const tfr_value *json_unmarshal(tfr_arena *a, const struct jnode *j,
                                       const tfr_type *t, const char **err) {
  if (j->kind == J_NULL)
    return tfr_null(a, t);
  if (t->kind == TFR_DYNAMIC)
    return json_dynamic(a, j, err);
  if (tfr_type_is_primitive(t))
    return json_primitive(a, j, t, err);
  bool arr = t->kind == TFR_LIST || t->kind == TFR_SET || t->kind == TFR_TUPLE;
  if (j->kind != (arr ? J_ARR : J_OBJ)) {
    *err = arr ? "missing expected [" : "missing expected {";
    return NULL;
  }
  const tfr_value **vs;
  switch (t->kind) {
  case TFR_LIST:
  case TFR_SET:
    vs = json_elems(a, j, t->elem, err);
    if (!vs)
      return NULL;
    return t->kind == TFR_LIST ? tfr_list(a, t->elem, j->nkids, vs)
                               : tfr_set(a, t->elem, j->nkids, vs);
  case TFR_TUPLE:
    vs = tfr_arena_alloc(a, (t->n + 1) * sizeof *vs);
    for (size_t i = 0; i < t->n && i < j->nkids; i++) {
      vs[i] = json_unmarshal(a, j->kids[i], t->types[i], err);
      if (!vs[i])
        return NULL;
    }
    if (j->nkids != t->n) {
      *err =
          tfr_arena_printf(a, "%s tuple elements (need %u)",
                           j->nkids > t->n ? "too many" : "not enough", t->n);
      return NULL;
    }
    return tfr_tuple(a, t->n, vs);
  case TFR_MAP:
    return json_map(a, j, t, err);
  default:
    return json_object(a, j, t, err);
  }
}

/* The first root child nested too deeply for Go's scanner, or NULL. */
static const struct jnode *json_too_deep(const struct jnode *root) {
  if (root->kind != J_ARR && root->kind != J_OBJ)
    return NULL;
  for (size_t i = 0; i < root->nkids; i++)
    if (root->kids[i]->deep)
      return root->kids[i];
  return NULL;
}

/* Parse the jsondecode argument; NULL after reporting the error. */
static const struct jnode *json_read(struct fcall *f, const tfr_value *s) {
  struct jdec d = {f->a, s->s, s->n, 0, TS_TOP, NULL, 0, 0, NULL};
  const struct jnode *j = json_parse(&d);
  free(d.stack);
  if (!j)
    fcall_error(f, "%s", d.err);
  return j;
}

/* jsondecode's result type: the document's implied type. */
static const tfr_type *jsondecode_type(struct fcall *f) {
  const tfr_value *s = f->args[0];
  if (s->flags & TFR_V_UNKNOWN)
    return &tfr_t_dynamic;
  const struct jnode *j = json_read(f, s);
  if (!j)
    return NULL;
  if (json_too_deep(j))
    return &tfr_t_dynamic; /* the call fails; see fn_jsondecode */
  return json_implied(f->a, j);
}

/* jsondecode(str) */
static const tfr_value *fn_jsondecode(struct fcall *f, const tfr_type *ret) {
  const struct jnode *j = json_read(f, f->args[0]);
  if (!j)
    return NULL;
  const struct jnode *deep = json_too_deep(j);
  if (deep) {
    fcall_error(f,
                "failed to read %s value: invalid character '%c' "
                "exceeded max depth",
                j->kind == J_ARR ? "tuple" : "object", deep->deep);
    return NULL;
  }
  const char *err = NULL;
  const tfr_value *v = json_unmarshal(f->a, j, ret, &err);
  if (!v)
    fcall_error(f, "%s", err ? err : "invalid JSON");
  return v;
}

/* ---- jsonencode (cty's json.Marshal) ------------------------------------- */

/* A string as Go's encoding/json writes it (HTML-safe escaping). */
static void go_json_string(struct sbuf *b, const char *s, size_t n) {
  json_sbuf_string(b, s, n);
}

/* An object attribute name: cty.StringVal(name), so NFC. */
static void json_name(struct sbuf *b, tfr_arena *a, const char *name) {
  const tfr_value *v = tfr_string(a, name, strlen(name));
  go_json_string(b, v->s, v->n);
}

/* cty's marshal; false (with *err) for an infinity. */
static bool json_marshal(struct sbuf *b, tfr_arena *a, const tfr_value *v,
                         const char **err) {
  if (v->flags & TFR_V_NULL) {
    sbuf_str(b, "null");
    return true;
  }
  switch (v->type->kind) {
  case TFR_BOOL:
    sbuf_str(b, v->b ? "true" : "false");
    return true;
  case TFR_NUMBER:
    if (num_is_inf(v->num)) {
      *err = "cannot serialize infinity as JSON";
      return false;
    }
    sbuf_str(b, num_format(a, v->num));
    return true;
  case TFR_STRING:
    go_json_string(b, v->s, v->n);
    return true;
  case TFR_MAP:
  case TFR_OBJECT:
    sbuf_put(b, "{", 1);
    for (uint32_t i = 0; i < v->n; i++) {
      if (i)
        sbuf_put(b, ",", 1);
      if (v->type->kind == TFR_MAP)
        go_json_string(b, v->keys[i], v->keylens[i]);
      else
        json_name(b, a, v->type->names[i]);
      sbuf_put(b, ":", 1);
      if (!json_marshal(b, a, v->elems[i], err))
        return false;
    }
    sbuf_put(b, "}", 1);
    return true;
  default: /* list, set, tuple */
    sbuf_put(b, "[", 1);
    for (uint32_t i = 0; i < v->n; i++) {
      if (i)
        sbuf_put(b, ",", 1);
      if (!json_marshal(b, a, v->elems[i], err))
        return false;
    }
    sbuf_put(b, "]", 1);
    return true;
  }
}

/* jsonencode(val) */
static const tfr_value *fn_jsonencode(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *v = f->args[0];
  if (!tfr_value_is_wholly_known(v)) {
    /* cty's: unknown, but for a value that cannot be null, starting as
    ** its JSON must ("\"", "{", "["), which a comparison can decide */
    if ((v->flags & TFR_V_UNKNOWN) && !(v->flags & TFR_V_NOTNULL))
      return tfr_unknown(f->a, &tfr_t_string);
    switch (v->type->kind) {
    case TFR_STRING:
      return tfr_unknown_string_prefix(f->a, "\"", 1);
    case TFR_OBJECT:
    case TFR_MAP:
      return tfr_unknown_string_prefix(f->a, "{", 1);
    case TFR_TUPLE:
    case TFR_LIST:
    case TFR_SET:
      return tfr_unknown_string_prefix(f->a, "[", 1);
    default:
      return tfr_unknown_string_prefix(f->a, "", 0);
    }
  }
  struct sbuf b = {0};
  const char *err = NULL;
  if (!json_marshal(&b, f->a, f->args[0], &err)) {
    free(b.p);
    fcall_error(f, "%s", err);
    return NULL;
  }
  return sbuf_value(f->a, &b);
}

static const struct func_spec specs[] = {
    {"jsondecode", 1, {STR("str")}, NULL, NULL, jsondecode_type, fn_jsondecode},
    {"jsonencode",
     1,
     {{"val", NULL, FP_ALLOW_NULL | FP_ALLOW_DYNAMIC | FP_ALLOW_UNKNOWN}},
     NULL,
     &tfr_t_string,
     NULL,
     fn_jsonencode},
};

const struct func_group funcs_json = {specs, sizeof specs / sizeof *specs};
