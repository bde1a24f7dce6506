/*
** cty's JSON encodings of types and values (cty/json).
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json_out.h"
#include "number.h"
#include "render.h"

void render_json_type(FILE *out, const tfr_type *t) {
  switch (t->kind) {
  case TFR_DYNAMIC:
    fputs("\"dynamic\"", out);
    return;
  case TFR_BOOL:
    fputs("\"bool\"", out);
    return;
  case TFR_NUMBER:
    fputs("\"number\"", out);
    return;
  case TFR_STRING:
    fputs("\"string\"", out);
    return;
  case TFR_LIST:
  case TFR_SET:
  case TFR_MAP:
    fprintf(out, "[\"%s\",", t->kind == TFR_LIST  ? "list"
                             : t->kind == TFR_SET ? "set"
                                                  : "map");
    render_json_type(out, t->elem);
    fputc(']', out);
    return;
  case TFR_OBJECT: {
    fputs("[\"object\",{", out);
    for (uint32_t i = 0; i < t->n; i++) {
      if (i)
        fputc(',', out);
      json_write_cstr(out, t->names[i]);
      fputc(':', out);
      render_json_type(out, t->types[i]);
    }
    fputc('}', out);
    bool any = false;
    for (uint32_t i = 0; t->optional && i < t->n; i++)
      if (t->optional[i]) {
        fputs(any ? "," : ",[", out);
        json_write_cstr(out, t->names[i]);
        any = true;
      }
    fputs(any ? "]]" : "]", out);
    return;
  }
  default:
    fputs("[\"tuple\",[", out);
    for (uint32_t i = 0; i < t->n; i++) {
      if (i)
        fputc(',', out);
      render_json_type(out, t->types[i]);
    }
    fputs("]]", out);
  }
}

/* Writing a value: one buffer for the whole value, and the text of
** numbers shared values repeat (defaults) made once. */
struct jv {
  struct json_out o;
  tfr_arena *a;
  const struct tfr_num *num[64];
  const char *text[64];
};

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
  case TFR_OBJECT:
    jo_put(&w->o, "{", 1);
    for (uint32_t i = 0; i < v->n; i++) {
      if (i)
        jo_put(&w->o, ",", 1);
      if (v->type->kind == TFR_MAP)
        jo_string(&w->o, v->keys[i], v->keylens[i]);
      else
        jo_string(&w->o, v->type->names[i], strlen(v->type->names[i]));
      jo_put(&w->o, ":", 1);
      put_value(w, v->elems[i]);
    }
    jo_put(&w->o, "}", 1);
    return;
  default:
    jo_put(&w->o, "null", 4);
  }
}

void render_json_value(FILE *out, tfr_arena *a, const tfr_value *v) {
  enum { BUF = 1 << 16 };
  struct jv *w = malloc(sizeof *w + BUF);
  if (!w)
    abort();
  w->o = (struct json_out){out, 0, BUF, (char *)(w + 1)};
  w->a = a;
  memset(w->num, 0, sizeof w->num);
  put_value(w, v);
  jo_flush(&w->o);
  free(w);
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
