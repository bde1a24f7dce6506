/*
** cty's JSON encodings of types and values (cty/json).
*/
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

void render_json_value(FILE *out, tfr_arena *a, const tfr_value *v) {
  if (v->flags & (TFR_V_NULL | TFR_V_UNKNOWN)) {
    fputs("null", out);
    return;
  }
  switch (v->type->kind) {
  case TFR_BOOL:
    fputs(v->b ? "true" : "false", out);
    return;
  case TFR_NUMBER:
    fputs(num_format(a, v->num), out);
    return;
  case TFR_STRING:
    json_write_string(out, v->s, v->n);
    return;
  case TFR_LIST:
  case TFR_SET:
  case TFR_TUPLE:
    fputc('[', out);
    for (uint32_t i = 0; i < v->n; i++) {
      if (i)
        fputc(',', out);
      render_json_value(out, a, v->elems[i]);
    }
    fputc(']', out);
    return;
  case TFR_MAP:
  case TFR_OBJECT:
    fputc('{', out);
    for (uint32_t i = 0; i < v->n; i++) {
      if (i)
        fputc(',', out);
      if (v->type->kind == TFR_MAP)
        json_write_string(out, v->keys[i], v->keylens[i]);
      else
        json_write_cstr(out, v->type->names[i]);
      fputc(':', out);
      render_json_value(out, a, v->elems[i]);
    }
    fputc('}', out);
    return;
  default:
    fputs("null", out);
  }
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
