/*
** YAML rendering of values through libyaml's emitter.
*/
#include <stdbool.h>
#include <string.h>

#include <yaml.h>

#include "number.h"
#include "render.h"

/* Would this string, written as a plain scalar, be read back as something
** other than that string (YAML 1.1 and 1.2 core schema)? */
static bool ambiguous(const char *s, size_t n) {
  static const char *const words[] = {
      "",      "~",     "null",  "Null", "NULL", "true", "True",  "TRUE",
      "false", "False", "FALSE", "yes",  "Yes",  "YES",  "no",    "No",
      "NO",    "on",    "On",    "ON",   "off",  "Off",  "OFF",   "y",
      "Y",     "n",     "N",     ".inf", ".Inf", ".INF", "-.inf", "-.Inf",
      "-.INF", ".nan",  ".NaN",  ".NAN"};
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (strlen(words[i]) == n && memcmp(words[i], s, n) == 0)
      return true;
  size_t i = 0;
  if (i < n && (s[i] == '-' || s[i] == '+'))
    i++;
  bool digits = false;
  for (; i < n; i++) {
    if ((s[i] >= '0' && s[i] <= '9') || s[i] == '_')
      digits = true;
    else if (!strchr(".eExXoObBabcdefABCDEF:", s[i]))
      return false;
  }
  return digits; /* looks numeric: quote it */
}

static bool scalar(yaml_emitter_t *em, const char *s, size_t n,
                   yaml_scalar_style_t style) {
  yaml_event_t ev;
  yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)n, 1, 1,
                               style);
  return yaml_emitter_emit(em, &ev);
}

static bool string_scalar(yaml_emitter_t *em, const char *s, size_t n) {
  yaml_scalar_style_t style = YAML_ANY_SCALAR_STYLE;
  if (ambiguous(s, n))
    style = YAML_DOUBLE_QUOTED_SCALAR_STYLE;
  else if (memchr(s, '\n', n))
    style = YAML_LITERAL_SCALAR_STYLE;
  return scalar(em, s, n, style);
}

static bool emit(yaml_emitter_t *em, tfr_arena *a, const tfr_value *v) {
  yaml_event_t ev;
  if (v->flags & (TFR_V_NULL | TFR_V_UNKNOWN))
    return scalar(em, "null", 4, YAML_PLAIN_SCALAR_STYLE);
  switch (v->type->kind) {
  case TFR_BOOL:
    return scalar(em, v->b ? "true" : "false", v->b ? 4 : 5,
                  YAML_PLAIN_SCALAR_STYLE);
  case TFR_NUMBER: {
    const char *t = num_format(a, v->num);
    return scalar(em, t, strlen(t), YAML_PLAIN_SCALAR_STYLE);
  }
  case TFR_STRING:
    return string_scalar(em, v->s, v->n);
  case TFR_LIST:
  case TFR_SET:
  case TFR_TUPLE:
    yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
                                         YAML_ANY_SEQUENCE_STYLE);
    if (!yaml_emitter_emit(em, &ev))
      return false;
    for (uint32_t i = 0; i < v->n; i++)
      if (!emit(em, a, v->elems[i]))
        return false;
    yaml_sequence_end_event_initialize(&ev);
    return yaml_emitter_emit(em, &ev);
  case TFR_MAP:
  case TFR_OBJECT:
    yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
                                        YAML_ANY_MAPPING_STYLE);
    if (!yaml_emitter_emit(em, &ev))
      return false;
    for (uint32_t i = 0; i < v->n; i++) {
      bool ok =
          v->type->kind == TFR_MAP
              ? string_scalar(em, v->keys[i], v->keylens[i])
              : string_scalar(em, v->type->names[i], strlen(v->type->names[i]));
      if (!ok || !emit(em, a, v->elems[i]))
        return false;
    }
    yaml_mapping_end_event_initialize(&ev);
    return yaml_emitter_emit(em, &ev);
  default:
    return scalar(em, "null", 4, YAML_PLAIN_SCALAR_STYLE);
  }
}

bool render_yaml(FILE *out, tfr_arena *a, const tfr_value *v) {
  yaml_emitter_t em;
  yaml_event_t ev;
  if (!yaml_emitter_initialize(&em))
    return false;
  yaml_emitter_set_output_file(&em, out);
  yaml_emitter_set_unicode(&em, 1);
  yaml_emitter_set_width(&em, -1);
  bool ok = true;
  yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
  ok = ok && yaml_emitter_emit(&em, &ev);
  yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
  ok = ok && yaml_emitter_emit(&em, &ev);
  ok = ok && emit(&em, a, v);
  yaml_document_end_event_initialize(&ev, 1);
  ok = ok && yaml_emitter_emit(&em, &ev);
  yaml_stream_end_event_initialize(&ev);
  ok = ok && yaml_emitter_emit(&em, &ev);
  yaml_emitter_delete(&em);
  return ok;
}
