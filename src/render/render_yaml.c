/*
** YAML rendering of values through libyaml's emitter.
*/
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include <yaml.h>

#include "base/heap.h"
#include "base/strutil.h"
#include "values/number.h"
#include "render/render.h"

/*
** ---- Plain scalars that a YAML 1.1 reader takes for another type ----
**
** A plain scalar is resolved by the regular expressions of the YAML 1.1
** type repository (yaml.org/type: bool, null, int, float, timestamp,
** merge, value); a string that one of them matches must be quoted.  Each
** matcher below is that expression, widened where a common reader
** resolves more than the repository says, since a quoted string reads
** back the same everywhere and a plain one that a reader takes for a
** date does not:
**   PyYAML: underscores after the point (685.230_15e+03), a blank before
**     a timestamp's zone (2001-12-14 21:59:43.10 -5);
**   Go's yaml.v2: underscores dropped before strconv reads the number
**     (0_x1F is 31, 1_e3 is 1000), 0o17, 1e3 (YAML 1.2 core forms),
**     one-digit month, day, minute and second in timestamps;
**   Ruby's Psych: yes/true/on/no/false/off/null in any case (yEs), commas
**     in numbers (1,000), a zone without a colon (+0530), a leading "-"
**     on a timestamp, and ":x" (a Symbol, which safe_load refuses).
*/

/* A cursor over a scalar; with skip_us, '_' is not there (yaml.v2). */
struct scan {
  const char *s;
  size_t n, i;
  bool skip_us;
};

static int peek(struct scan *c) {
  while (c->skip_us && c->i < c->n && c->s[c->i] == '_')
    c->i++;
  return c->i < c->n ? (unsigned char)c->s[c->i] : -1;
}

static bool at_end(struct scan *c) { return peek(c) < 0; }

/* Take one character of set (no NUL ever matches). */
static bool take(struct scan *c, const char *set) {
  int ch = peek(c);
  if (ch <= 0 || !strchr(set, ch))
    return false;
  c->i++;
  return true;
}

/* Take characters of set, at most max (0: any number); how many. */
static size_t take_run(struct scan *c, const char *set, size_t max) {
  size_t k = 0;
  while ((!max || k < max) && take(c, set))
    k++;
  return k;
}

#define DIGITS "0123456789"

/* Does the rest equal one of words, ignoring ASCII case? */
static bool rest_is(struct scan *c, const char *const *words, size_t nw) {
  size_t len = c->n - c->i;
  for (size_t w = 0; w < nw; w++)
    if (strlen(words[w]) == len && !strncasecmp(c->s + c->i, words[w], len))
      return true;
  return false;
}

/* bool (y|Y|yes|Yes|YES|n|N|no|...|on|On|ON|off|Off|OFF), null
** (~|null|Null|NULL|empty), merge (<<) and value (=): words, in any case
** for Psych. */
static bool is_word(const char *s, size_t n) {
  static const char *const words[] = {"y",     "n",  "yes", "no",   "true",
                                      "false", "on", "off", "null", "~",
                                      "",      "<<", "="};
  struct scan c = {s, n, 0, false};
  return rest_is(&c, words, sizeof words / sizeof *words);
}

/* The base-60 tail of an int or float: (:[0-5]?[0-9])+ */
static bool sexagesimal(struct scan *c) {
  size_t groups = 0;
  while (take(c, ":")) {
    take(c, "012345");
    if (!take(c, DIGITS))
      return false;
    groups++;
  }
  return groups > 0;
}

/*
** int and float, one matcher (after an optional sign):
**   int    0b[0-1_]+ | 0[0-7_]+ | (0|[1-9][0-9_]*) | 0x[0-9a-fA-F_]+
**          | [1-9][0-9_]*(:[0-5]?[0-9])+              (0o[0-7_]+ too)
**   float  ([0-9][0-9_]*)?\.[0-9.]*([eE][-+][0-9]+)?
**          | [0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]* | \.(inf|Inf|INF)
**          | \.(nan|NaN|NAN)        ([0-9]+[eE][-+]?[0-9]+ too: YAML 1.2)
** A decimal run [0-9][0-9_,]* covers the repository's decimal and octal
** forms with the readers' variants.
*/
static bool number_scan(struct scan *c) {
  static const char *const specials[] = {".inf", ".nan"};
  take(c, "+-");
  if (rest_is(c, specials, 2))
    return true;
  if (peek(c) == '0') { /* 0x, 0o, 0b and their digits */
    size_t zero = c->i++;
    int p = peek(c);
    if (p > 0 && strchr("xXoObB", p)) {
      c->i++;
      const char *set = p == 'x' || p == 'X'   ? DIGITS "abcdefABCDEF_,"
                        : p == 'o' || p == 'O' ? "01234567_,"
                                               : "01_,";
      return take_run(c, set, 0) > 0 && at_end(c);
    }
    c->i = zero;
  }
  size_t digits = take(c, DIGITS) ? 1 + take_run(c, DIGITS "_,", 0) : 0;
  if (digits && peek(c) == ':') {
    if (!sexagesimal(c))
      return false;
    if (take(c, "."))
      take_run(c, DIGITS "_", 0);
    return at_end(c);
  }
  bool point = take(c, ".");
  if (point)
    take_run(c, DIGITS "._", 0);
  if (!digits && !point)
    return false;
  if (take(c, "eE")) {
    take(c, "+-");
    if (!take_run(c, DIGITS, 0))
      return false;
    take_run(c, DIGITS "_", 0);
  }
  return at_end(c);
}

static bool is_number(const char *s, size_t n) {
  struct scan c = {s, n, 0, false};
  if (number_scan(&c))
    return true;
  /* yaml.v2 drops every '_' of a scalar that starts with a sign or a
  ** digit before it reads a number there (0_x1F) */
  struct scan go = {s, n, 0, true};
  return n && s[0] && strchr("+-" DIGITS, s[0]) && number_scan(&go);
}

/*
** timestamp:
**   [0-9]{4}-[0-9]{2}-[0-9]{2}                                  (ymd)
**   | [0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt]|[ \t]+)[0-9]{1,2}
**     :[0-9]{2}:[0-9]{2}(\.[0-9]*)?(([ \t]*)Z|[-+][0-9]{1,2}(:[0-9]{2})?)?
** with one-digit fields, a leading "-", blanks before any zone and a
** zone without its colon.
*/
static bool is_timestamp(const char *s, size_t n) {
  struct scan c = {s, n, 0, false};
  take(&c, "-");
  if (take_run(&c, DIGITS, 4) != 4 || !take(&c, "-") ||
      !take_run(&c, DIGITS, 2) || !take(&c, "-") || !take_run(&c, DIGITS, 2))
    return false;
  if (at_end(&c))
    return true;
  if (!take(&c, "Tt") && !take_run(&c, " \t", 0))
    return false;
  for (int field = 0; field < 3; field++)
    if ((field && !take(&c, ":")) || !take_run(&c, DIGITS, 2))
      return false;
  if (take(&c, "."))
    take_run(&c, DIGITS, 0);
  bool blanks = take_run(&c, " \t", 0) > 0;
  if (take(&c, "Z"))
    return at_end(&c);
  if (take(&c, "+-")) {
    if (!take_run(&c, DIGITS, 2))
      return false;
    take(&c, ":");
    take_run(&c, DIGITS, 2);
    return at_end(&c);
  }
  return !blanks && at_end(&c);
}

/* Would this string, written as a plain scalar, be read back as something
** other than that string (YAML 1.1, and YAML 1.2's core schema)? */
static bool ambiguous(const char *s, size_t n) {
  return is_word(s, n) || is_number(s, n) || is_timestamp(s, n) ||
         (n > 1 && s[0] == ':'); /* Psych: a Symbol */
}

static bool scalar(yaml_emitter_t *em, const char *s, size_t n,
                   yaml_scalar_style_t style) {
  yaml_event_t ev;
  yaml_scalar_event_initialize(&ev, NULL, NULL, UNCONST(yaml_char_t *, s),
                               (int)n, 1, 1, style);
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
    /* YAML's infinities, where cty writes +Inf and -Inf */
    const char *t = num_format(a, v->num);
    if (num_is_inf(v->num))
      t = t[0] == '-' ? "-.inf" : ".inf";
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
    tfr_oom(); /* its buffers are all it can fail on */
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
  if (!ok && em.error == YAML_MEMORY_ERROR) /* not the output's failure */
    tfr_oom();
  yaml_emitter_delete(&em);
  return ok;
}
