/*
** cty's JSON encodings of types and values (cty/json).
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena_int.h"
#include "base/json_out.h"
#include "values/number.h"
#include "render/render.h"
#include "tfresolve/tfresolve.h"
#include "base/heap.h"

static void put_cstr(struct json_out *o, const char *s) {
  jo_put(o, s, strlen(s));
}

/* A string literal's bytes, counted when compiled. */
#define PUT_LIT(o, lit) jo_put(o, "" lit, sizeof(lit) - 1)

static void put_type(struct json_out *o, const tfr_type *t) {
  switch (t->kind) {
  case TFR_DYNAMIC:
    put_cstr(o, "\"dynamic\"");
    return;
  case TFR_BOOL:
    put_cstr(o, "\"bool\"");
    return;
  case TFR_NUMBER:
    put_cstr(o, "\"number\"");
    return;
  case TFR_STRING:
    put_cstr(o, "\"string\"");
    return;
  case TFR_LIST:
  case TFR_SET:
  case TFR_MAP:
    put_cstr(o, t->kind == TFR_LIST  ? "[\"list\","
                : t->kind == TFR_SET ? "[\"set\","
                                     : "[\"map\",");
    put_type(o, t->elem);
    jo_put(o, "]", 1);
    return;
  case TFR_OBJECT: {
    put_cstr(o, "[\"object\",{");
    for (uint32_t i = 0; i < t->n; i++) {
      if (i)
        jo_put(o, ",", 1);
      jo_string(o, t->names[i], strlen(t->names[i]));
      jo_put(o, ":", 1);
      put_type(o, t->types[i]);
    }
    jo_put(o, "}", 1);
    bool any = false;
    for (uint32_t i = 0; t->optional && i < t->n; i++)
      if (t->optional[i]) {
        put_cstr(o, any ? "," : ",[");
        jo_string(o, t->names[i], strlen(t->names[i]));
        any = true;
      }
    put_cstr(o, any ? "]]" : "]");
    return;
  }
  default:
    put_cstr(o, "[\"tuple\",[");
    for (uint32_t i = 0; i < t->n; i++) {
      if (i)
        jo_put(o, ",", 1);
      put_type(o, t->types[i]);
    }
    put_cstr(o, "]]");
  }
}

void render_json_type(FILE *out, const tfr_type *t) {
  char b[1024];
  struct json_out o = {out, 0, sizeof b, b, NULL};
  put_type(&o, t);
  jo_flush(&o);
}

/* Writing a value: one buffer for the whole value, and the text of
** numbers shared values repeat (defaults) made once. */
struct jv {
  struct json_out o;
  tfr_arena *a;
  const struct tfr_num *num[64];
  const char *text[64];
  /* the keys of recent object types, escaped, quoted and followed by
  ** ':' (the elements of a list of objects share their type) */
  struct {
    const tfr_type *t;
    char *text; /* key i is text[end[i] .. end[i + 1]) */
    size_t *end;
  } keys[64];
  /* the last file name written as a value's source, and as a rule's
  ** range: each escaped once while the same one comes again */
  struct file_json {
    const char *file;
    char *json; /* malloc'd */
    size_t len;
  } source, range;
  struct { /* the JSON of recent variable types (malloc'd) */
    const tfr_type *t;
    char *json;
    size_t len;
  } types[16];
};

static size_t key_slot(const tfr_type *t) {
  return (size_t)(((uintptr_t)t * 0x9E3779B97F4A7C15ull) >> 58); /* 0..63 */
}

static void put_keys_of(struct jv *w, const tfr_type *t) {
  size_t h = key_slot(t);
  if (w->keys[h].t == t)
    return;
  /* the slot's buffers (malloc'd, reused): the texts one after another */
  size_t need = 0;
  for (uint32_t i = 0; i < t->n; i++)
    need += 6 * strlen(t->names[i]) + 3; /* the longest escape: \u00XX */
  struct json_out o = {NULL, 0, need, heap_realloc(w->keys[h].text, need + 1),
                       NULL};
  size_t *end = heap_realloc(w->keys[h].end, (t->n + 1) * sizeof *end);
  end[0] = 0;
  for (uint32_t i = 0; i < t->n; i++) { /* never flushed: it fits */
    jo_string(&o, t->names[i], strlen(t->names[i]));
    jo_put(&o, ":", 1);
    end[i + 1] = o.n;
  }
  w->keys[h].t = t;
  w->keys[h].text = o.b;
  w->keys[h].end = end;
}

static void put_number(struct jv *w, const struct tfr_num *x) {
  size_t h = ((uintptr_t)x >> 4) % 64;
  if (w->num[h] != x) {
    w->num[h] = x;
    w->text[h] = num_format(w->a, x);
  }
  jo_put(&w->o, w->text[h], strlen(w->text[h]));
}

static void put_value(struct jv *w, const tfr_value *v) {
  if (v->flags & (TFR_V_NULL | TFR_V_UNKNOWN)) {
    jo_put(&w->o, "null", 4);
    return;
  }
  switch (v->type->kind) {
  case TFR_BOOL:
    if (v->b)
      jo_put(&w->o, "true", 4);
    else
      jo_put(&w->o, "false", 5);
    return;
  case TFR_NUMBER:
    put_number(w, v->num);
    return;
  case TFR_STRING:
    jo_string(&w->o, v->s, v->n);
    return;
  case TFR_LIST:
  case TFR_SET:
  case TFR_TUPLE:
    jo_put(&w->o, "[", 1);
    for (uint32_t i = 0; i < v->n; i++) {
      if (i)
        jo_put(&w->o, ",", 1);
      put_value(w, v->elems[i]);
    }
    jo_put(&w->o, "]", 1);
    return;
  case TFR_MAP:
    jo_put(&w->o, "{", 1);
    for (uint32_t i = 0; i < v->n; i++) {
      if (i)
        jo_put(&w->o, ",", 1);
      jo_string(&w->o, v->keys[i], v->keylens[i]);
      jo_put(&w->o, ":", 1);
      put_value(w, v->elems[i]);
    }
    jo_put(&w->o, "}", 1);
    return;
  case TFR_OBJECT: {
    put_keys_of(w, v->type);
    size_t h = key_slot(v->type);
    jo_put(&w->o, "{", 1);
    for (uint32_t i = 0; i < v->n; i++) {
      if (i)
        jo_put(&w->o, ",", 1);
      /* the slot may be refilled inside: look it up each time */
      if (w->keys[h].t != v->type)
        put_keys_of(w, v->type);
      const size_t *end = w->keys[h].end;
      jo_put(&w->o, w->keys[h].text + end[i], end[i + 1] - end[i]);
      put_value(w, v->elems[i]);
    }
    jo_put(&w->o, "}", 1);
    return;
  }
  default:
    jo_put(&w->o, "null", 4);
  }
}

static struct jv *jv_new(FILE *out, tfr_arena *a) {
  enum { BUF = 1 << 16 };
  struct jv *w = heap_alloc(sizeof *w + BUF);
  w->o = (struct json_out){out, 0, BUF, (char *)(w + 1), NULL};
  w->a = a;
  memset(w->num, 0, sizeof w->num);
  memset(w->keys, 0, sizeof w->keys);
  w->source = w->range = (struct file_json){NULL, NULL, 0};
  memset(w->types, 0, sizeof w->types);
  return w;
}

static void jv_done(struct jv *w) {
  jo_flush(&w->o);
  for (size_t i = 0; i < sizeof w->keys / sizeof w->keys[0]; i++) {
    free(w->keys[i].text);
    free(w->keys[i].end);
  }
  free(w->source.json);
  free(w->range.json);
  for (size_t i = 0; i < sizeof w->types / sizeof w->types[0]; i++)
    free(w->types[i].json);
  free(w);
}

void render_json_value(FILE *out, tfr_arena *a, const tfr_value *v) {
  struct jv *w = jv_new(out, a);
  put_value(w, v);
  jv_done(w);
}

static void put_int(struct json_out *o, long long x) {
  char b[24], *e = b + sizeof b, *p = e;
  unsigned long long u =
      x < 0 ? 0ull - (unsigned long long)x : (unsigned long long)x;
  do
    *--p = (char)('0' + u % 10);
  while (u /= 10);
  if (x < 0)
    *--p = '-';
  jo_put(o, p, (size_t)(e - p));
}

static void put_pos(struct json_out *o, const struct tfr_pos *p) {
  put_cstr(o, "{\"line\": ");
  put_int(o, p->line);
  put_cstr(o, ", \"column\": ");
  put_int(o, p->column);
  put_cstr(o, ", \"byte\": ");
  put_int(o, (long long)p->byte);
  jo_put(o, "}", 1);
}

void render_json_range(struct json_out *o, const struct tfr_range *r) {
  put_cstr(o, "{\"filename\": ");
  const char *f = r->filename ? r->filename : "";
  jo_string(o, f, strlen(f));
  put_cstr(o, ", \"start\": ");
  put_pos(o, &r->start);
  put_cstr(o, ", \"end\": ");
  put_pos(o, &r->end);
  jo_put(o, "}", 1);
}

static const char *const source_kinds[] = {
    [TFR_SRC_NONE] = "none",
    [TFR_SRC_DEFAULT] = "default",
    [TFR_SRC_ENV] = "env",
    [TFR_SRC_AUTO_FILE] = "auto_file",
    [TFR_SRC_NAMED_FILE] = "named_file",
    [TFR_SRC_CLI] = "cli",
    [TFR_SRC_CONFIG] = "config",
};

static const char *const rule_results[] = {
    [TFR_RULE_SKIPPED] = "skipped", [TFR_RULE_PASSED] = "passed",
    [TFR_RULE_FAILED] = "failed",   [TFR_RULE_DEFERRED] = "deferred",
    [TFR_RULE_INVALID] = "invalid",
};

const char *tfr_unchecked_reason_name(enum tfr_unchecked_reason r) {
  static const char *const names[] = {"not_installed", "no_directory",
                                      "data_sources", "not_set"};
  return (size_t)r < sizeof names / sizeof *names ? names[r] : "";
}

const char *tfr_rule_result_name(enum tfr_rule_result r) {
  return rule_results[r];
}

const char *tfr_source_kind_name(enum tfr_source_kind k) {
  return (unsigned)k < sizeof source_kinds / sizeof *source_kinds
             ? source_kinds[k]
             : "none";
}

/* A variable's type: variables of one type share it (module_index.c's type
** ids), so its JSON is written once and copied after. */
static void put_var_type(struct jv *w, const tfr_type *t) {
  if (tfr_type_is_primitive(t) || t->kind == TFR_DYNAMIC) {
    put_type(&w->o, t);
    return;
  }
  size_t h = (size_t)(((uintptr_t)t * 0x9E3779B97F4A7C15ull) >> 60);
  if (w->types[h].t != t) {
    char *buf = NULL, chunk[4096];
    size_t len = 0;
    FILE *mem = heap_memstream(&buf, &len);
    struct json_out o = {mem, 0, sizeof chunk, chunk, NULL};
    put_type(&o, t);
    jo_flush(&o);
    heap_memstream_close(mem);
    free(w->types[h].json);
    w->types[h].t = t;
    w->types[h].json = buf;
    w->types[h].len = len;
  }
  jo_put(&w->o, w->types[h].json, w->types[h].len);
}

/* A variable's source file: the same for many variables in a row. */
static void put_file(struct jv *w, struct file_json *c, const char *file) {
  if (file != c->file) {
    size_t need = 6 * strlen(file) + 2; /* the longest escape: \u00XX */
    struct json_out o = {NULL, 0, need, heap_realloc(c->json, need + 1), NULL};
    jo_string(&o, file, strlen(file)); /* never flushed: it fits */
    c->file = file;
    c->json = o.b;
    c->len = o.n;
  }
  jo_put(&w->o, c->json, c->len);
}

/* A rule's range: render_json_range, its file name through put_file. */
static void put_range(struct jv *w, const struct tfr_range *r) {
  struct json_out *o = &w->o;
  PUT_LIT(o, "{\"filename\": ");
  put_file(w, &w->range, r->filename ? r->filename : "");
  PUT_LIT(o, ", \"start\": ");
  put_pos(o, &r->start);
  PUT_LIT(o, ", \"end\": ");
  put_pos(o, &r->end);
  jo_put(o, "}", 1);
}

/* "preview": what the variable would be if plan did not stop before it:
** {"type", "value"} (value null when sensitive and not shown), or
** {"error": {"summary", "detail", "range"}}. */
static void put_preview(struct jv *w, const struct tfr_variable *v,
                        bool show_sensitive) {
  struct json_out *o = &w->o;
  if (!v->preview) {
    const struct tfr_diag *e = v->preview_error;
    PUT_LIT(o, ", \"preview\": {\"error\": {\"summary\": ");
    jo_string(o, e->summary, strlen(e->summary));
    if (e->detail) {
      PUT_LIT(o, ", \"detail\": ");
      jo_string(o, e->detail, strlen(e->detail));
    }
    if (e->subject.filename) {
      PUT_LIT(o, ", \"range\": ");
      render_json_range(o, &e->subject);
    }
    PUT_LIT(o, "}}");
    return;
  }
  PUT_LIT(o, ", \"preview\": {\"type\": ");
  put_var_type(w, v->sensitive && !show_sensitive && v->declared &&
                          tfr_type_has_dynamic(v->declared)
                      ? v->declared
                      : v->preview->type);
  PUT_LIT(o, ", \"value\": ");
  if ((!v->sensitive || show_sensitive) && render_json_encodable(v->preview))
    put_value(w, v->preview);
  else
    PUT_LIT(o, "null");
  PUT_LIT(o, "}");
}

/* What the declaration sets that is not the default ("ephemeral": true,
** "const": true, "deprecated": message, "nullable": false), each only when
** set, so that an ordinary variable's object is as in format 1.0. */
static void put_decl_flags(struct json_out *o, const struct tfr_variable *v) {
  if (v->ephemeral)
    PUT_LIT(o, ", \"ephemeral\": true");
  if (v->is_const)
    PUT_LIT(o, ", \"const\": true");
  if (v->deprecated) {
    PUT_LIT(o, ", \"deprecated\": ");
    jo_string(o, v->deprecated, strlen(v->deprecated));
  }
  if (!v->nullable)
    PUT_LIT(o, ", \"nullable\": false");
}

static void put_variable(struct jv *w, const struct tfr_variable *v,
                         bool show_sensitive) {
  struct json_out *o = &w->o;
  jo_string(o, v->name, strlen(v->name));
  PUT_LIT(o, ": {\"type\": ");
  /* a hidden value's type where its declared one has `any`: the
  ** declared type (the value's could spell a secret's keys) */
  bool secret_type = v->sensitive && !show_sensitive && v->declared &&
                     tfr_type_has_dynamic(v->declared);
  put_var_type(w, secret_type ? v->declared : v->type);
  PUT_LIT(o, ", \"value\": ");
  bool unknown = v->value && !tfr_value_is_wholly_known(v->value);
  bool shown = v->value && !unknown && (!v->sensitive || show_sensitive);
  bool encodable = !shown || render_json_encodable(v->value);
  if (shown && encodable)
    put_value(w, v->value);
  else
    PUT_LIT(o, "null");
  if (unknown) /* a child's, from what only apply knows */
    PUT_LIT(o, ", \"unknown\": true");
  if (!encodable) /* cty's JSON has no infinity: say why it is null */
    PUT_LIT(o, ", \"value_unencodable\": \"the value holds an infinite "
               "number, which JSON cannot represent\"");
  if (v->sensitive)
    PUT_LIT(o, ", \"sensitive\": true");
  else
    PUT_LIT(o, ", \"sensitive\": false");
  put_decl_flags(o, v);
  PUT_LIT(o, ", \"source\": {\"kind\": \"");
  put_cstr(o, source_kinds[v->source]);
  PUT_LIT(o, "\"");
  if (v->source_file) {
    PUT_LIT(o, ", \"file\": ");
    put_file(w, &w->source, v->source_file);
  }
  if (v->source_line) {
    PUT_LIT(o, ", \"line\": ");
    put_int(o, v->source_line);
  }
  if (v->source_via) {
    PUT_LIT(o, ", \"via\": ");
    jo_string(o, v->source_via, strlen(v->source_via));
  }
  PUT_LIT(o, "}");
  if (v->error)
    PUT_LIT(o, ", \"error\": true");
  if (v->reason) {
    PUT_LIT(o, ", \"reason\": ");
    jo_string(o, v->reason, strlen(v->reason));
  }
  if (v->preview || v->preview_error)
    put_preview(w, v, show_sensitive);
  if (v->nrules) {
    PUT_LIT(o, ", \"rules\": [");
    for (size_t r = 0; r < v->nrules; r++) {
      const struct tfr_rule *rule = &v->rules[r];
      if (r)
        PUT_LIT(o, ", ");
      PUT_LIT(o, "{\"result\": \"");
      put_cstr(o, rule_results[rule->result]);
      PUT_LIT(o, "\"");
      if (rule->detail) {
        PUT_LIT(o, ", \"detail\": ");
        jo_string(o, rule->detail, strlen(rule->detail));
      }
      PUT_LIT(o, ", \"range\": ");
      put_range(w, &rule->range);
      PUT_LIT(o, "}");
    }
    PUT_LIT(o, "]");
  }
  PUT_LIT(o, "}");
}

/* "unchecked", when there are any: the module calls whose instances were
** not checked, each {"module", "reason", "why", "range"}, by address. */
static void put_unchecked(struct jv *w, const struct tfr_resolution *res) {
  struct json_out *o = &w->o;
  if (!res->nunchecked)
    return;
  PUT_LIT(o, "\n \"unchecked\": [");
  for (size_t i = 0; i < res->nunchecked; i++) {
    const struct tfr_unchecked *u = &res->unchecked[i];
    put_cstr(o, i ? ",\n  {\"module\": " : "\n  {\"module\": ");
    jo_string(o, u->address, strlen(u->address));
    PUT_LIT(o, ", \"reason\": \"");
    put_cstr(o, tfr_unchecked_reason_name(u->reason));
    PUT_LIT(o, "\", \"why\": ");
    jo_string(o, u->why, strlen(u->why));
    PUT_LIT(o, ", \"range\": ");
    put_range(w, &u->range);
    PUT_LIT(o, "}");
  }
  PUT_LIT(o, "\n ],");
}

void tfr_resolution_write_json(FILE *out, tfr_arena *a,
                               const struct tfr_resolution *res,
                               const tfr_diags *d, bool show_sensitive) {
  struct jv *w = jv_new(out, a);
  put_cstr(&w->o, res->valid
                      ? "{\"format_version\": \"1.4\",\n \"valid\": true,"
                      : "{\"format_version\": \"1.4\",\n \"valid\": false,");
  put_cstr(&w->o, "\n \"variables\": {");
  for (size_t i = 0; i < res->n; i++) {
    put_cstr(&w->o, i ? ",\n  " : "\n  ");
    put_variable(w, &res->vars[i], show_sensitive);
  }
  put_cstr(&w->o, res->n ? "\n }," : "},");
  if (res->tree) {
    put_cstr(&w->o, "\n \"modules\": {");
    for (size_t i = 0; i < res->ninstances; i++) {
      const struct tfr_instance *in = &res->instances[i];
      put_cstr(&w->o, i ? ",\n  " : "\n  ");
      jo_string(&w->o, in->address, strlen(in->address));
      put_cstr(&w->o, ": {\"source\": ");
      jo_string(&w->o, in->source, strlen(in->source));
      put_cstr(&w->o, ", \"dir\": ");
      jo_string(&w->o, in->dir, strlen(in->dir));
      put_cstr(&w->o, ", \"variables\": {");
      for (size_t k = 0; k < in->n; k++) {
        put_cstr(&w->o, k ? ",\n    " : "\n    ");
        put_variable(w, &in->vars[k], show_sensitive);
      }
      put_cstr(&w->o, in->n ? "\n  }}" : "}}");
    }
    put_cstr(&w->o, res->ninstances ? "\n }," : "},");
    put_unchecked(w, res);
  }
  put_cstr(&w->o, "\n \"diagnostics\": ");
  jv_done(w);
  tfr_diags_render_json(d, out);
  fputs("}\n", out);
}

bool render_json_encodable(const tfr_value *v) {
  if (v->flags & (TFR_V_NULL | TFR_V_UNKNOWN))
    return true;
  switch (v->type->kind) {
  case TFR_NUMBER:
    return !num_is_inf(v->num);
  case TFR_LIST:
  case TFR_SET:
  case TFR_TUPLE:
  case TFR_MAP:
  case TFR_OBJECT:
    for (uint32_t i = 0; i < v->n; i++)
      if (!render_json_encodable(v->elems[i]))
        return false;
    return true;
  default:
    return true;
  }
}
