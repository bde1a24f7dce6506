/*
** yamlencode: go-cty-yaml's marshal through the emitter of yaml.v2 (a Go
** port of libyaml 0.1), reproduced here: the C libyaml 0.2.5 emitter
** writes some documents differently.  The group funcs_yaml_emit.
*/
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <utf8proc.h>
#include <yaml.h>

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

/* ---- yamlencode (go-cty-yaml's marshal, yaml.v2's emitter) --------------- */

/*
** The emitter of go-cty-yaml (a Go port of libyaml 0.1), reduced to what
** marshal asks of it: block collections, flow "[]" and "{}" for empty
** ones, plain numbers, bools and nulls, double-quoted strings and literal
** blocks for strings with "\n", 80 columns, indent 2.  Its state and
** helpers keep their libyaml names so that the two can be compared.
*/
struct yem {
  struct sbuf out;
  int indent, *indents;
  size_t nindents, cap;
  int column;
  bool whitespace, indention, open_ended;
  int flow_level;
  bool root_ctx, seq_ctx, map_ctx, simple_key_ctx;
  /* the scalar being written (yaml_emitter_analyze_scalar) */
  const unsigned char *value;
  size_t len;
  bool multiline, flow_plain_allowed, block_plain_allowed,
      single_quoted_allowed, block_allowed;
};

#define BEST_INDENT 2
#define BEST_WIDTH 80

enum ystyle { YS_PLAIN, YS_SINGLE, YS_DOUBLE, YS_LITERAL };

/* Byte i of the scalar, 0 past its end (Go would index the slice). */
static unsigned char yb(const struct yem *e, size_t i) {
  return i < e->len ? e->value[i] : 0;
}

static bool y_printable(const struct yem *e, size_t i) {
  unsigned char c = yb(e, i), c1 = yb(e, i + 1), c2 = yb(e, i + 2);
  return c == 0x0A || (c >= 0x20 && c <= 0x7E) || (c == 0xC2 && c1 >= 0xA0) ||
         (c > 0xC2 && c < 0xED) || (c == 0xED && c1 < 0xA0) || c == 0xEE ||
         (c == 0xEF && !(c1 == 0xBB && c2 == 0xBF) &&
          !(c1 == 0xBF && (c2 == 0xBE || c2 == 0xBF)));
}

/* yaml.v2's is_bom looks at the start of the scalar whatever i is. */
static bool y_bom(const struct yem *e) {
  return yb(e, 0) == 0xEF && yb(e, 1) == 0xBB && yb(e, 2) == 0xBF;
}

static bool y_space(const struct yem *e, size_t i) { return yb(e, i) == ' '; }

static bool y_break(const struct yem *e, size_t i) {
  unsigned char c = yb(e, i), c1 = yb(e, i + 1), c2 = yb(e, i + 2);
  return c == '\r' || c == '\n' || (c == 0xC2 && c1 == 0x85) ||
         (c == 0xE2 && c1 == 0x80 && (c2 == 0xA8 || c2 == 0xA9));
}

static bool y_blank(const struct yem *e, size_t i) {
  return yb(e, i) == ' ' || yb(e, i) == '\t';
}

static bool y_blankz(const struct yem *e, size_t i) {
  return y_blank(e, i) || y_break(e, i) || yb(e, i) == 0;
}

static void yput(struct yem *e, char c) {
  sbuf_put(&e->out, &c, 1);
  e->column++;
}

static void yput_break(struct yem *e) {
  sbuf_put(&e->out, "\n", 1);
  e->column = 0;
}

/* Copy one character of the scalar. */
static void ywrite(struct yem *e, size_t *i) {
  size_t w = ywidth(yb(e, *i));
  sbuf_put(&e->out, (const char *)e->value + *i, w ? w : 1);
  e->column++;
  *i += w ? w : 1;
}

static void ywrite_break(struct yem *e, size_t *i) {
  if (yb(e, *i) == '\n') {
    yput_break(e);
    (*i)++;
  } else {
    ywrite(e, i);
    e->column = 0;
  }
}

static void yincrease_indent(struct yem *e, bool flow, bool indentless) {
  if (e->nindents == e->cap) {
    e->cap = e->cap ? e->cap * 2 : 16;
    e->indents = heap_realloc(e->indents, e->cap * sizeof *e->indents);
  }
  e->indents[e->nindents++] = e->indent;
  if (e->indent < 0)
    e->indent = flow ? BEST_INDENT : 0;
  else if (!indentless)
    e->indent += BEST_INDENT;
}

static void ypop_indent(struct yem *e) {
  e->indent = e->indents[--e->nindents];
}

static void ywrite_indent(struct yem *e) {
  int indent = e->indent < 0 ? 0 : e->indent;
  if (!e->indention || e->column > indent ||
      (e->column == indent && !e->whitespace))
    yput_break(e);
  while (e->column < indent)
    yput(e, ' ');
  e->whitespace = true;
  e->indention = true;
}

static void ywrite_indicator(struct yem *e, const char *ind, bool need_ws,
                             bool is_ws, bool is_indention) {
  if (need_ws && !e->whitespace)
    yput(e, ' ');
  for (; *ind; ind++)
    yput(e, *ind);
  e->whitespace = is_ws;
  e->indention = e->indention && is_indention;
  e->open_ended = false;
}

/* yaml_emitter_analyze_scalar */
static void yanalyze(struct yem *e, const char *s, size_t n) {
  e->value = (const unsigned char *)s;
  e->len = n;
  if (!n) {
    e->multiline = false;
    e->flow_plain_allowed = false;
    e->block_plain_allowed = true;
    e->single_quoted_allowed = true;
    e->block_allowed = false;
    return;
  }
  bool block_ind = false, flow_ind = false, line_breaks = false,
       special = false, leading_space = false, leading_break = false,
       trailing_space = false, trailing_break = false, break_space = false,
       space_break = false, preceded_ws = true, prev_space = false,
       prev_break = false;
  if (n >= 3 && ((s[0] == '-' && s[1] == '-' && s[2] == '-') ||
                 (s[0] == '.' && s[1] == '.' && s[2] == '.')))
    block_ind = flow_ind = true;
  for (size_t i = 0, w; i < n; i += w) {
    w = ywidth(yb(e, i));
    if (!w)
      w = 1;
    bool followed_ws = i + w >= n || y_blank(e, i + w);
    unsigned char c = yb(e, i);
    if (i == 0) {
      if (strchr("#,[]{}&*!|>'\"%@`", c) && c)
        flow_ind = block_ind = true;
      else if (c == '?' || c == ':') {
        flow_ind = true;
        block_ind = block_ind || followed_ws;
      } else if (c == '-' && followed_ws)
        flow_ind = block_ind = true;
    } else {
      if (c && strchr(",?[]{}", c))
        flow_ind = true;
      else if (c == ':') {
        flow_ind = true;
        block_ind = block_ind || followed_ws;
      } else if (c == '#' && preceded_ws)
        flow_ind = block_ind = true;
    }
    if (!y_printable(e, i))
      special = true;
    if (y_space(e, i)) {
      leading_space = leading_space || i == 0;
      trailing_space = trailing_space || i + w == n;
      break_space = break_space || prev_break;
      prev_space = true;
      prev_break = false;
    } else if (y_break(e, i)) {
      line_breaks = true;
      leading_break = leading_break || i == 0;
      trailing_break = trailing_break || i + w == n;
      space_break = space_break || prev_space;
      prev_space = false;
      prev_break = true;
    } else {
      prev_space = prev_break = false;
    }
    preceded_ws = y_blankz(e, i);
  }
  e->multiline = line_breaks;
  e->flow_plain_allowed = e->block_plain_allowed = true;
  e->single_quoted_allowed = e->block_allowed = true;
  if (leading_space || leading_break || trailing_space || trailing_break)
    e->flow_plain_allowed = e->block_plain_allowed = false;
  if (trailing_space)
    e->block_allowed = false;
  if (break_space)
    e->flow_plain_allowed = e->block_plain_allowed = e->single_quoted_allowed =
        false;
  if (space_break || special)
    e->flow_plain_allowed = e->block_plain_allowed = e->single_quoted_allowed =
        e->block_allowed = false;
  if (line_breaks)
    e->flow_plain_allowed = e->block_plain_allowed = false;
  if (flow_ind)
    e->flow_plain_allowed = false;
  if (block_ind)
    e->block_plain_allowed = false;
}

/* yaml_emitter_select_scalar_style */
static enum ystyle yselect_style(const struct yem *e, enum ystyle style) {
  if (e->simple_key_ctx && e->multiline)
    style = YS_DOUBLE;
  if (style == YS_PLAIN) {
    if ((e->flow_level && !e->flow_plain_allowed) ||
        (!e->flow_level && !e->block_plain_allowed))
      style = YS_SINGLE;
    if (!e->len && (e->flow_level || e->simple_key_ctx))
      style = YS_SINGLE;
  }
  if (style == YS_SINGLE && !e->single_quoted_allowed)
    style = YS_DOUBLE;
  if (style == YS_LITERAL &&
      (!e->block_allowed || e->flow_level || e->simple_key_ctx))
    style = YS_DOUBLE;
  return style;
}

/* The text of a plain or (single) a single-quoted scalar, its spaces
** folded past the best width where allow_breaks (go-yaml's
** yaml_emitter_write_plain_scalar and _single_quoted_scalar: the same
** loop, the quoted one keeping its first and last space and doubling its
** quotes). */
static void ywrite_folded(struct yem *e, bool allow_breaks, bool single) {
  bool spaces = false, breaks = false;
  for (size_t i = 0; i < e->len;) {
    if (y_space(e, i)) {
      if (allow_breaks && !spaces && e->column > BEST_WIDTH &&
          (!single || (i > 0 && i < e->len - 1)) && !y_space(e, i + 1)) {
        ywrite_indent(e);
        i++;
      } else {
        ywrite(e, &i);
      }
      spaces = true;
    } else if (y_break(e, i)) {
      if (!breaks && yb(e, i) == '\n')
        yput_break(e);
      ywrite_break(e, &i);
      e->indention = true;
      breaks = true;
    } else {
      if (breaks)
        ywrite_indent(e);
      if (single && yb(e, i) == '\'')
        yput(e, '\'');
      ywrite(e, &i);
      e->indention = false;
      spaces = breaks = false;
    }
  }
}

static void ywrite_plain(struct yem *e, bool allow_breaks) {
  if (!e->whitespace)
    yput(e, ' ');
  ywrite_folded(e, allow_breaks, false);
  e->whitespace = e->indention = false;
  if (e->root_ctx)
    e->open_ended = true;
}

static void ywrite_single(struct yem *e, bool allow_breaks) {
  ywrite_indicator(e, "'", true, false, false);
  ywrite_folded(e, allow_breaks, true);
  ywrite_indicator(e, "'", false, false, false);
  e->whitespace = e->indention = false;
}

/* One escaped character of a double-quoted scalar. */
static void ywrite_escape(struct yem *e, size_t *i) {
  static const char hex[] = "0123456789ABCDEF";
  unsigned char c = yb(e, *i);
  size_t w = ywidth(c);
  int32_t v = (c & 0x80) == 0      ? c & 0x7F
              : (c & 0xE0) == 0xC0 ? c & 0x1F
              : (c & 0xF0) == 0xE0 ? c & 0x0F
                                   : c & 0x07;
  for (size_t k = 1; k < w; k++)
    v = (v << 6) + (yb(e, *i + k) & 0x3F);
  *i += w ? w : 1;
  yput(e, '\\');
  static const struct {
    int32_t cp;
    char c;
  } named[] = {{0, '0'},    {7, 'a'},      {8, 'b'},     {9, 't'},
               {10, 'n'},   {11, 'v'},     {12, 'f'},    {13, 'r'},
               {27, 'e'},   {'"', '"'},    {'\\', '\\'}, {0x85, 'N'},
               {0xA0, '_'}, {0x2028, 'L'}, {0x2029, 'P'}};
  for (size_t k = 0; k < sizeof named / sizeof *named; k++)
    if (named[k].cp == v) {
      yput(e, named[k].c);
      return;
    }
  int digits = v <= 0xFF ? 2 : v <= 0xFFFF ? 4 : 8;
  yput(e, digits == 2 ? 'x' : digits == 4 ? 'u' : 'U');
  for (int k = (digits - 1) * 4; k >= 0; k -= 4)
    yput(e, hex[(v >> k) & 15]);
}

static void ywrite_double(struct yem *e, bool allow_breaks) {
  bool spaces = false;
  ywrite_indicator(e, "\"", true, false, false);
  for (size_t i = 0; i < e->len;) {
    unsigned char c = yb(e, i);
    if (!y_printable(e, i) || y_bom(e) || y_break(e, i) || c == '"' ||
        c == '\\') {
      ywrite_escape(e, &i);
      spaces = false;
    } else if (y_space(e, i)) {
      if (allow_breaks && !spaces && e->column > BEST_WIDTH && i > 0 &&
          i < e->len - 1) {
        ywrite_indent(e);
        if (y_space(e, i + 1))
          yput(e, '\\');
        i++;
      } else {
        ywrite(e, &i);
      }
      spaces = true;
    } else {
      ywrite(e, &i);
      spaces = false;
    }
  }
  ywrite_indicator(e, "\"", false, false, false);
  e->whitespace = e->indention = false;
}

/* The indentation and chomping indicators of a block scalar. */
static void yblock_hints(struct yem *e) {
  if (y_space(e, 0) || y_break(e, 0)) {
    char hint[2] = {'0' + BEST_INDENT, 0};
    ywrite_indicator(e, hint, false, false, false);
  }
  e->open_ended = false;
  const char *chomp = NULL;
  if (!e->len) {
    chomp = "-";
  } else {
    size_t i = e->len - 1;
    while (i > 0 && (yb(e, i) & 0xC0) == 0x80)
      i--;
    if (!y_break(e, i)) {
      chomp = "-";
    } else if (i == 0) {
      chomp = "+";
    } else {
      i--;
      while (i > 0 && (yb(e, i) & 0xC0) == 0x80)
        i--;
      if (y_break(e, i))
        chomp = "+";
    }
  }
  if (chomp)
    ywrite_indicator(e, chomp, false, false, false);
}

static void ywrite_literal(struct yem *e) {
  ywrite_indicator(e, "|", true, false, false);
  yblock_hints(e);
  yput_break(e);
  e->indention = e->whitespace = true;
  bool breaks = true;
  for (size_t i = 0; i < e->len;) {
    if (y_break(e, i)) {
      ywrite_break(e, &i);
      e->indention = true;
      breaks = true;
    } else {
      if (breaks)
        ywrite_indent(e);
      ywrite(e, &i);
      e->indention = false;
      breaks = false;
    }
  }
}

/* A scalar node (already analysed). */
static void yemit_scalar(struct yem *e, enum ystyle want) {
  enum ystyle style = yselect_style(e, want);
  yincrease_indent(e, true, false);
  switch (style) {
  case YS_PLAIN:
    ywrite_plain(e, !e->simple_key_ctx);
    break;
  case YS_SINGLE:
    ywrite_single(e, !e->simple_key_ctx);
    break;
  case YS_DOUBLE:
    ywrite_double(e, !e->simple_key_ctx);
    break;
  default:
    ywrite_literal(e);
  }
  ypop_indent(e);
}

/* Analyse the scalar of a primitive value; its requested style. */
static enum ystyle yscalar_of(struct yem *e, tfr_arena *a, const tfr_value *v) {
  if (v->flags & TFR_V_NULL) {
    yanalyze(e, "null", 4);
    return YS_PLAIN;
  }
  if (v->type->kind == TFR_STRING) {
    yanalyze(e, v->s, v->n);
    return memchr(v->s, '\n', v->n) ? YS_LITERAL : YS_DOUBLE;
  }
  const char *t = v->type->kind == TFR_BOOL ? (v->b ? "true" : "false")
                                            : num_format(a, v->num);
  yanalyze(e, t, strlen(t));
  return YS_PLAIN;
}

static void yemit_node(struct yem *e, tfr_arena *a, const tfr_value *v,
                       bool root, bool seq, bool map, bool simple_key);

/* A block mapping's key and value. */
static void yemit_pair(struct yem *e, tfr_arena *a, const tfr_value *k,
                       const tfr_value *v) {
  ywrite_indent(e);
  enum ystyle ks = yscalar_of(e, a, k);
  if (!e->multiline && e->len <= 128) {
    e->root_ctx = e->seq_ctx = false;
    e->map_ctx = e->simple_key_ctx = true;
    yemit_scalar(e, ks);
    ywrite_indicator(e, ":", false, false, false);
  } else {
    ywrite_indicator(e, "?", true, false, true);
    yscalar_of(e, a, k);
    e->root_ctx = e->seq_ctx = e->simple_key_ctx = false;
    e->map_ctx = true;
    yemit_scalar(e, ks);
    ywrite_indent(e);
    ywrite_indicator(e, ":", true, false, true);
  }
  yemit_node(e, a, v, false, false, true, false);
}

static void yemit_node(struct yem *e, tfr_arena *a, const tfr_value *v,
                       bool root, bool seq, bool map, bool simple_key) {
  e->root_ctx = root;
  e->seq_ctx = seq;
  e->map_ctx = map;
  e->simple_key_ctx = simple_key;
  int k = v->type->kind;
  if ((v->flags & TFR_V_NULL) || tfr_type_is_primitive(v->type)) {
    yemit_scalar(e, yscalar_of(e, a, v));
    return;
  }
  bool mapping = k == TFR_MAP || k == TFR_OBJECT;
  if (e->flow_level || !v->n) { /* an empty collection: [] or {} */
    ywrite_indicator(e, mapping ? "{" : "[", true, true, false);
    yincrease_indent(e, true, false);
    ywrite_indicator(e, mapping ? "}" : "]", false, false, false);
    ypop_indent(e);
    return;
  }
  yincrease_indent(e, false, !mapping && e->map_ctx && !e->indention);
  for (uint32_t i = 0; i < v->n; i++) {
    if (!mapping) {
      ywrite_indent(e);
      ywrite_indicator(e, "-", true, false, true);
      yemit_node(e, a, v->elems[i], false, true, false, false);
      continue;
    }
    const tfr_value *key = k == TFR_MAP
                               ? tfr_string_nocopy(a, v->keys[i], v->keylens[i])
                               : tfr_string_nocopy(a, v->type->names[i],
                                                   strlen(v->type->names[i]));
    yemit_pair(e, a, key, v->elems[i]);
  }
  ypop_indent(e);
}

/* yamlencode(value) */
static const tfr_value *fn_yamlencode(struct fcall *f, const tfr_type *ret) {
  /* unknown when any part is (go-cty-yaml v1.1.0 cty_funcs.go:45-47;
  ** no refinement: its spec has no RefineResult) */
  if (!tfr_value_is_wholly_known(f->args[0]))
    return tfr_unknown(f->a, ret);
  struct yem e;
  memset(&e, 0, sizeof e);
  e.indent = -1;
  e.whitespace = e.indention = true;
  sbuf_put(&e.out, "", 0);
  yemit_node(&e, f->a, f->args[0], true, false, false, false);
  ywrite_indent(&e);  /* document end */
  if (e.open_ended) { /* stream end */
    ywrite_indicator(&e, "...", true, false, false);
    ywrite_indent(&e);
  }
  free(e.indents);
  return sbuf_value(f->a, &e.out);
}

static const struct func_spec specs[] = {
    {"yamlencode",
     1,
     {{"value", NULL, FP_ALLOW_NULL | FP_ALLOW_DYNAMIC}},
     NULL,
     &tfr_t_string,
     NULL,
     fn_yamlencode},
};

const struct func_group funcs_yaml_emit = {specs, sizeof specs / sizeof *specs};
