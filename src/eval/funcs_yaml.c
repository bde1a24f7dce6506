/*
** yamldecode: go-cty-yaml 1.1.0's decoder over libyaml's parser, with the
** differences of go-cty-yaml's Go port of libyaml made up for (struct
** yfix).  The group funcs_yaml; yamlencode is funcs_yaml_emit.c.
*/
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <utf8proc.h>
#include <yaml.h>

#include "eval/engine.h"
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

/* ---- yamldecode (go-cty-yaml 1.1.0 over libyaml's parser) ---------------- */

#define YAML_TAG(t) "tag:yaml.org,2002:" t
#define YAML_MAX_DEPTH 10000

/* A resolved scalar (go-cty-yaml's resolveScalar). */
enum yres { YR_ERR, YR_VALUE, YR_MERGE, YR_NONE };

/* One anchor: how many definitions are open, and what it was. */
struct yanchor {
  const char *name;
  int pending;
  const tfr_type *t;
  const tfr_value *v;
  uint64_t size;
};

/* A walk over the event stream: implied type (types) or value. */
struct ywalk {
  tfr_arena *a;
  yaml_parser_t p;
  const struct yfix *fix;
  size_t nevents; /* events parsed so far */
  bool types;
  int depth;
  struct yanchor *anchors;
  size_t nanchors, cap;
  const char *err;
  bool ours;         /* err is a limit of ours (depth, -max-memory) */
  bool v120;         /* go-cty-yaml 1.2.0 (OpenTofu): a merge key is any
                        untagged "<<" or !!merge, its value a mapping or a
                        sequence of them */
  uint64_t max_size; /* the budget's worth of values */
};

/* A node's result: its type in the type walk, its value in the other, and
** its size with every alias expanded (in values; an alias shares its
** anchor's value, but whatever reads the result sees every copy). */
struct ynode {
  const tfr_type *t;
  const tfr_value *v;
  uint64_t size;
};

/* Sizes add up to at most this (no overflow, however deep the aliases). */
#define YSIZE_MAX (UINT64_MAX / 4)

static uint64_t ysize_add(uint64_t x, uint64_t y) {
  return x > YSIZE_MAX - y ? YSIZE_MAX : x + y;
}

/* The length of the UTF-8 sequence a lead byte starts (0: not a lead). */
size_t ywidth(unsigned char c) {
  return (c & 0x80) == 0      ? 1
         : (c & 0xE0) == 0xC0 ? 2
         : (c & 0xF0) == 0xE0 ? 3
         : (c & 0xF8) == 0xF0 ? 4
                              : 0;
}

/*
** libyaml 0.2.5 and the Go port of libyaml 0.1 that go-cty-yaml uses
** read a few things differently.  A first pass over the events finds them
** and both walks then behave as the Go parser would:
**   - `\'` in double quotes: an escape for Go, an error for libyaml: made
**     `\x27` in the input;
**   - ':' followed by one of ",?[]{}" in a flow plain scalar: part of the
**     scalar for Go, an error for libyaml: read through a stand-in
**     character (a private-use code point absent from the input, so that
**     lines and columns stay the same) and turned back into ':';
**   - '?' in a flow plain scalar ends it for Go (then the parser fails),
**     libyaml reads on: the scalar is cut there and the next event fails;
**   - `\/` in double quotes and a %YAML 1.2 directive are errors for Go:
**     that event fails;
**   - ',', '[' and ']' belong to a tag shorthand for Go (libyaml ends the
**     tag there): the node gets Go's tag, or fails as Go's scanner does
**     when no blank follows.
*/
struct yfix {
  const unsigned char *src; /* the input as the walks read it */
  size_t n;
  char colon[4]; /* the stand-in for ':', or "" */
  size_t poison; /* the event (1-based) whose parsing fails, or 0 */
  const char *poison_err;
  size_t cut; /* the scalar event cut at its '?', or 0 */
  size_t cut_len;
  size_t retag; /* the event whose tag Go reads longer, or 0 */
  const char *retag_as;
  /* The first error of Go's scanner that libyaml does not make, and the
  ** line of the token it is in: Go's scanner reads ahead to the end of a
  ** line, so the error comes with the first event on that line. */
  size_t scan_ord, scan_line;
  const char *scan_err;
  /* Where `\'` became `\x27` (line, column in the patched input): the
  ** columns Go reports after them are two smaller. */
  size_t (*splices)[2];
  size_t nsplices;
};

static bool ybreak_at(const unsigned char *s, size_t n, size_t i, size_t *w) {
  *w = 1;
  if (s[i] == '\r') {
    *w = i + 1 < n && s[i + 1] == '\n' ? 2 : 1;
    return true;
  }
  if (s[i] == '\n')
    return true;
  if (i + 1 < n && s[i] == 0xC2 && s[i + 1] == 0x85)
    return (*w = 2);
  if (i + 2 < n && s[i] == 0xE2 && s[i + 1] == 0x80 &&
      (s[i + 2] == 0xA8 || s[i + 2] == 0xA9))
    return (*w = 3);
  return false;
}

/* Where the last mark's line starts, per thread: events come in order,
** so the next search starts there (a search from the start for each
** event made yamldecode quadratic in the number of entries). */
static _Thread_local struct {
  const unsigned char *s;
  size_t n, line, at;
} ymark_cache;

/* The byte offset of a libyaml mark (line, column in characters). */
static size_t ymark_offset(const unsigned char *s, size_t n, yaml_mark_t m) {
  size_t i = 0, w, line = 0;
  if (ymark_cache.s == s && ymark_cache.n == n && ymark_cache.line <= m.line)
    line = ymark_cache.line, i = ymark_cache.at;
  while (line < m.line && i < n)
    if (ybreak_at(s, n, i, &w))
      i += w, line++;
    else
      i++;
  ymark_cache.s = s, ymark_cache.n = n;
  ymark_cache.line = line, ymark_cache.at = i;
  for (size_t col = 0; col < m.column && i < n; col++)
    i += ywidth(s[i]) ? ywidth(s[i]) : 1;
  return i;
}

/* The libyaml mark of a byte offset. */
static yaml_mark_t yoffset_mark(const unsigned char *s, size_t n, size_t off) {
  yaml_mark_t m = {0, 0, 0};
  size_t w;
  for (size_t i = 0; i < off && i < n;) {
    if (ybreak_at(s, n, i, &w)) {
      m.line++;
      m.column = 0;
    } else {
      w = ywidth(s[i]) ? ywidth(s[i]) : 1;
      m.column++;
    }
    i += w;
    m.index++;
  }
  return m;
}

/* A mark in the patched input as a mark in the original one. */
static yaml_mark_t yunpatch(const struct yfix *f, yaml_mark_t m) {
  size_t col = m.column;
  for (size_t i = 0; f && i < f->nsplices; i++)
    if (f->splices[i][0] == m.line && f->splices[i][1] < col)
      m.column -= 2;
  return m;
}

/* go-cty-yaml's parserErrorWrap for given marks. */
static const char *ymark_error(tfr_arena *a, const struct yfix *f, bool scanner,
                               yaml_mark_t problem, yaml_mark_t context,
                               const char *cause) {
  problem = yunpatch(f, problem);
  context = yunpatch(f, context);
  if (problem.line != 0) {
    size_t line = problem.line, col = problem.column;
    if (scanner)
      line++, col = 0;
    return tfr_arena_printf(a, "on line %zu, column %zu: %s", line, col + 1,
                            cause);
  }
  if (context.line != 0)
    return tfr_arena_printf(a, "on line %zu, column %zu: %s", context.line,
                            context.column + 1, cause);
  return cause;
}

/* The offset of a node's content: past its anchor and tag. */
static size_t ycontent_offset(const struct yfix *f, yaml_mark_t start) {
  const unsigned char *s = f->src;
  size_t i = ymark_offset(s, f->n, start);
  while (i < f->n && (s[i] == '&' || s[i] == '!')) {
    if (s[i] == '&') {
      for (i++; i < f->n && (isalnum(s[i]) || s[i] == '-' || s[i] == '_');)
        i++;
    } else if (i + 1 < f->n && s[i + 1] == '<') {
      while (i < f->n && s[i] != '>')
        i++;
      i++;
    } else {
      while (i < f->n && !strchr(" \t\r\n,[]{}", s[i]))
        i++;
    }
    while (i < f->n && strchr(" \t\r\n", s[i]))
      i++;
  }
  return i;
}

/* Replace n bytes at off by the string rep, in a copy in the arena. */
static void ysplice(tfr_arena *a, struct yfix *f, size_t off, size_t n,
                    const char *rep) {
  size_t k = strlen(rep);
  unsigned char *b = tfr_arena_alloc(a, f->n - n + k + 1);
  memcpy(b, f->src, off);
  memcpy(b + off, rep, k);
  memcpy(b + off + k, f->src + off + n, f->n - off - n);
  f->src = b;
  f->n = f->n - n + k;
}

/* A private-use character that the input does not contain. */
static void ypick_standin(struct yfix *f) {
  for (int32_t cp = 0xE000; cp < 0xF8FF; cp++) {
    utf8proc_uint8_t u[4];
    utf8proc_ssize_t k = utf8proc_encode_char(cp, u);
    bool used = false;
    for (size_t i = 0; i + (size_t)k <= f->n && !used; i++)
      used = !memcmp(f->src + i, u, (size_t)k);
    if (!used) {
      memcpy(f->colon, u, (size_t)k);
      f->colon[k] = 0;
      return;
    }
  }
}

/* A parse error of the first pass that the Go parser would not have:
** patch the input and tell the caller to start over. */
static bool yfix_input(tfr_arena *a, struct yfix *f, yaml_parser_t *p) {
  if (!p->problem)
    return false;
  size_t off = ymark_offset(f->src, f->n, p->problem_mark);
  if (!strcmp(p->problem, "found unknown escape character") && off + 1 < f->n &&
      f->src[off] == '\\' && f->src[off + 1] == '\'') {
    size_t(*sp)[2] = tfr_arena_alloc(a, (f->nsplices + 1) * sizeof *sp);
    if (f->nsplices)
      memcpy(sp, f->splices, f->nsplices * sizeof *sp);
    sp[f->nsplices][0] = p->problem_mark.line;
    sp[f->nsplices++][1] = p->problem_mark.column;
    f->splices = sp;
    ysplice(a, f, off, 2, "\\x27");
    return true;
  }
  if (!strcmp(p->problem, "found unexpected ':'") && off < f->n &&
      f->src[off] == ':') {
    if (!f->colon[0])
      ypick_standin(f);
    if (!f->colon[0])
      return false;
    ysplice(a, f, off, 1, f->colon);
    return true;
  }
  return false;
}

/* The open collections of the first pass: flow ones and their kind. */
struct yflow {
  size_t depth, nflow;
  char kind[YAML_MAX_DEPTH + 2]; /* 0 block, '[' or '{' (explicit) */
  size_t at[YAML_MAX_DEPTH + 2]; /* offset of the bracket */
};

static void yflow_push(const struct yfix *f, struct yflow *st,
                       const yaml_event_t *e) {
  bool flow = e->type == YAML_SEQUENCE_START_EVENT
                  ? e->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
                  : e->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE;
  char k = 0;
  size_t off = 0;
  if (flow) {
    off = ycontent_offset(f, e->start_mark);
    char want = e->type == YAML_SEQUENCE_START_EVENT ? '[' : '{';
    k = off < f->n && f->src[off] == want ? want : 'i'; /* i: a pair */
    st->nflow++;
  }
  if (st->depth <= YAML_MAX_DEPTH) {
    st->kind[st->depth] = k;
    st->at[st->depth] = off;
  }
  st->depth++;
}

static void yflow_pop(struct yflow *st) {
  if (!st->depth)
    return;
  st->depth--;
  if (st->depth <= YAML_MAX_DEPTH && st->kind[st->depth])
    st->nflow--;
}

/* Whether a difference that the Go parser reports is already known. */
static bool yparser_issue(const struct yfix *f) {
  return f->poison || f->cut || f->retag;
}

/* A '?' in a flow plain scalar: cut it there, fail the next event. */
static bool ycheck_question(tfr_arena *a, struct yfix *f,
                            const struct yflow *st, const yaml_event_t *e,
                            size_t ord) {
  const char *v = (const char *)e->data.scalar.value;
  size_t n = e->data.scalar.length, q;
  for (q = 0; q < n && v[q] != '?'; q++)
    ;
  if (!st->nflow || e->data.scalar.style != YAML_PLAIN_SCALAR_STYLE || q == n ||
      yparser_issue(f))
    return false;
  while (q && strchr(" \t\n", v[q - 1]))
    q--;
  f->cut = ord;
  f->cut_len = q;
  size_t i = ycontent_offset(f, e->start_mark);
  size_t end = ymark_offset(f->src, f->n, e->end_mark);
  while (i < end && f->src[i] != '?')
    i++;
  size_t d = st->depth;
  while (d > 0 && !(st->kind[d - 1] == '[' || st->kind[d - 1] == '{'))
    d--;
  char kind = d ? st->kind[d - 1] : '[';
  yaml_mark_t ctx =
      d ? yoffset_mark(f->src, f->n, st->at[d - 1]) : (yaml_mark_t){0, 0, 0};
  f->poison = ord + 1;
  f->poison_err = ymark_error(a, f, false, yoffset_mark(f->src, f->n, i), ctx,
                              kind == '[' ? "did not find expected ',' or ']'"
                                          : "did not find expected ',' or '}'");
  return true;
}

/* `\/` in a double-quoted scalar: that event fails as Go's scanner does. */
static bool ycheck_slash(tfr_arena *a, struct yfix *f, const yaml_event_t *e,
                         size_t ord) {
  if (e->data.scalar.style != YAML_DOUBLE_QUOTED_SCALAR_STYLE)
    return false;
  size_t i = ycontent_offset(f, e->start_mark);
  size_t end = ymark_offset(f->src, f->n, e->end_mark);
  yaml_mark_t start = yoffset_mark(f->src, f->n, i);
  for (i++; i + 1 < end; i++) {
    if (f->src[i] != '\\')
      continue;
    if (f->src[i + 1] == '/') {
      if (!f->scan_ord) {
        f->scan_ord = ord;
        f->scan_line = start.line;
        f->scan_err = ymark_error(a, f, true, yoffset_mark(f->src, f->n, i),
                                  start, "found unknown escape character");
      }
      return true;
    }
    i++;
  }
  return false;
}

/* Turn the stand-in back into ':' in a scalar, in place. */
static void yrestore_colons(const struct yfix *f, yaml_event_t *e) {
  size_t sl = strlen(f->colon), k = 0;
  char *v = (char *)e->data.scalar.value;
  for (size_t i = 0; i < e->data.scalar.length;) {
    if (sl && i + sl <= e->data.scalar.length && !memcmp(v + i, f->colon, sl)) {
      v[k++] = ':';
      i += sl;
    } else {
      v[k++] = v[i++];
    }
  }
  e->data.scalar.length = k;
}

/* Whether a byte may be in a tag for Go's scanner (scan_tag_uri). */
static bool ygo_tag_char(unsigned char c) {
  return isalnum(c) || (c && strchr("-_;/?:@&=+$,.!~*'()[]%", c));
}

/* A tag shorthand that Go reads further than libyaml (through ',', '['
** or ']'): give the node Go's tag, or fail it as Go's scanner would. */
static bool ycheck_tag(tfr_arena *a, struct yfix *f, const yaml_event_t *e,
                       size_t ord) {
  const yaml_char_t *tag = e->type == YAML_SCALAR_EVENT ? e->data.scalar.tag
                           : e->type == YAML_SEQUENCE_START_EVENT
                               ? e->data.sequence_start.tag
                               : e->data.mapping_start.tag;
  const unsigned char *s = f->src;
  size_t i = ymark_offset(s, f->n, e->start_mark);
  while (tag && i < f->n && s[i] == '&') { /* the anchor comes first */
    for (i++; i < f->n && (isalnum(s[i]) || s[i] == '-' || s[i] == '_');)
      i++;
    while (i < f->n && (s[i] == ' ' || s[i] == '\t'))
      i++;
  }
  if (!tag || i + 1 >= f->n || s[i] != '!' || s[i + 1] == '<')
    return false;
  size_t start = i, cend = 0, w;
  for (i++; i < f->n && ygo_tag_char(s[i]); i++)
    if (!cend && strchr(",[]", s[i]))
      cend = i;
  if (!cend)
    return false;
  if (i < f->n && s[i] != ' ' && s[i] != '\t' && !ybreak_at(s, f->n, i, &w)) {
    if (!f->scan_ord) {
      f->scan_ord = ord;
      f->scan_line = yoffset_mark(s, f->n, start).line;
      f->scan_err = ymark_error(a, f, true, yoffset_mark(s, f->n, i),
                                yoffset_mark(s, f->n, start),
                                "did not find expected whitespace or line "
                                "break");
    }
    return true;
  }
  if (yparser_issue(f))
    return true;
  f->retag = ord;
  f->retag_as = tfr_arena_printf(a, "%s%.*s", (const char *)tag,
                                 (int)(i - cend), (const char *)s + cend);
  return true;
}

/* The offset of the %YAML directive of a document that starts at off. */
static size_t ydirective_offset(const struct yfix *f, size_t off) {
  for (size_t i = off; i + 5 <= f->n; i++)
    if ((i == 0 || f->src[i - 1] == '\n' || f->src[i - 1] == '\r') &&
        !memcmp(f->src + i, "%YAML", 5))
      return i;
  return off;
}

/* Check one event of the first pass; true when it has a difference. */
static bool ycheck_event(tfr_arena *a, struct yfix *f, struct yflow *st,
                         const yaml_event_t *e, size_t ord) {
  switch (e->type) {
  case YAML_DOCUMENT_START_EVENT:
    if (e->data.document_start.version_directive &&
        e->data.document_start.version_directive->minor == 2 &&
        !yparser_issue(f)) {
      size_t at =
          ydirective_offset(f, ymark_offset(f->src, f->n, e->start_mark));
      f->poison = ord;
      f->poison_err = ymark_error(a, f, false, yoffset_mark(f->src, f->n, at),
                                  (yaml_mark_t){0, 0, 0},
                                  "found incompatible YAML document");
      return true;
    }
    return false;
  case YAML_SEQUENCE_START_EVENT:
  case YAML_MAPPING_START_EVENT:
    yflow_push(f, st, e);
    return ycheck_tag(a, f, e, ord);
  case YAML_SEQUENCE_END_EVENT:
  case YAML_MAPPING_END_EVENT:
    yflow_pop(st);
    return false;
  case YAML_SCALAR_EVENT:
    return ycheck_tag(a, f, e, ord) || ycheck_slash(a, f, e, ord) ||
           ycheck_question(a, f, st, e, ord);
  default:
    return false;
  }
}

/*
** Which comes first: Go's parser error (poison, cut or retag), or its
** scanner error, which shows with the first event on the line it is in
** (lines[ord] is the line of event ord).
*/
static void yresolve_issues(struct yfix *f, const size_t *lines,
                            size_t nlines) {
  if (!f->scan_ord)
    return;
  size_t eff = f->scan_ord;
  for (size_t o = 1; o < nlines && o < eff; o++)
    if (lines[o] >= f->scan_line) {
      eff = o;
      break;
    }
  size_t t = f->poison ? f->poison : f->cut ? f->cut + 1 : f->retag;
  if (t && t < eff)
    return;
  f->poison = eff;
  f->poison_err = f->scan_err;
  f->cut = f->retag = 0;
}

/* libyaml's allocation failing (its error YAML_MEMORY_ERROR) is the
** library's out-of-memory path, not a syntax error of the document. */
static void ymemory(const yaml_parser_t *p) {
  if (p->error == YAML_MEMORY_ERROR)
    tfr_oom();
}

/* The first pass over the input (see struct yfix). */
static void yaml_preflight(tfr_arena *a, const unsigned char *s, size_t n,
                           struct yfix *f) {
  memset(f, 0, sizeof *f);
  f->src = s;
  f->n = n;
  struct yflow *st = heap_alloc(sizeof *st);
  size_t *lines = NULL, nlines = 0, cap = 0;
  for (bool again = true; again;) {
    again = false;
    f->poison = f->cut = f->retag = f->scan_ord = 0;
    nlines = 1; /* events count from 1 */
    memset(st, 0, sizeof *st);
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p))
      tfr_oom(); /* its buffers are all it can fail on */
    yaml_parser_set_input_string(&p, f->src, f->n);
    for (size_t ord = 1;; ord++) {
      yaml_event_t e;
      if (!yaml_parser_parse(&p, &e)) {
        ymemory(&p);
        again = yfix_input(a, f, &p);
        break;
      }
      if (nlines >= cap) {
        cap = cap ? 2 * cap : 256;
        lines = heap_realloc(lines, cap * sizeof *lines);
      }
      lines[nlines++] = e.start_mark.line;
      if (e.type == YAML_SCALAR_EVENT) /* check Go's value */
        yrestore_colons(f, &e);
      ycheck_event(a, f, st, &e, ord);
      bool end = e.type == YAML_STREAM_END_EVENT;
      yaml_event_delete(&e);
      if (end)
        break;
    }
    yaml_parser_delete(&p);
  }
  yresolve_issues(f, lines, nlines);
  free(lines);
  free(st);
}

/* go-cty-yaml's Error for a parser failure (parserError). */
static bool yparser_error(struct ywalk *w) {
  yaml_parser_t *p = &w->p;
  ymemory(p);
  w->err = ymark_error(w->a, w->fix, p->error == YAML_SCANNER_ERROR,
                       p->problem_mark, p->context_mark,
                       p->problem ? p->problem : "invalid YAML syntax");
  return false;
}

/* parseEventErrorWrap: the event's position unless it is on line 0. */
static bool yevent_error(struct ywalk *w, const yaml_event_t *e,
                         const char *cause) {
  yaml_mark_t m = yunpatch(w->fix, e->start_mark);
  if (m.line == 0)
    w->err = cause;
  else
    w->err = tfr_arena_printf(w->a, "on line %zu, column %zu: %s", m.line,
                              m.column + 1, cause);
  return false;
}

/* The next event, as the Go parser would have given it. */
static bool ynext(struct ywalk *w, yaml_event_t *e) {
  const struct yfix *f = w->fix;
  if (++w->nevents == f->poison) {
    w->err = f->poison_err;
    return false;
  }
  if (!yaml_parser_parse(&w->p, e))
    return yparser_error(w);
  if (e->type == YAML_SCALAR_EVENT) {
    yrestore_colons(f, e);
    if (w->nevents == f->cut)
      e->data.scalar.length = f->cut_len;
  }
  return true;
}

static const char *ystr(const yaml_char_t *s) {
  return s ? (const char *)s : "";
}

/* The tag of the event just parsed, as Go's scanner read it. */
static const char *ytag(const struct ywalk *w, const yaml_char_t *tag) {
  return w->nevents == w->fix->retag ? w->fix->retag_as : ystr(tag);
}

/* go-cty-yaml 1.1.0's integerLiteralRegexp (resolve.go), the YAML 1.2
** core schema's: `\A([-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)\z` (1.0.2 took
** "_" and a sign before 0o and 0x too). */
static bool yaml_int_like(const char *s, size_t n) {
  size_t i = 0;
  if (n > 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'x')) {
    bool oct = s[1] == 'o';
    for (i = 2; i < n; i++)
      if (!(oct ? s[i] >= '0' && s[i] <= '7' : is_hex(s[i])))
        break;
    if (i == n)
      return true;
    i = 0;
  }
  i = n && (s[0] == '-' || s[0] == '+');
  if (i == n)
    return false;
  for (; i < n; i++)
    if (!is_digit(s[i]))
      return false;
  return true;
}

/* Go's regexp `\A[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\z`. */
static bool yaml_float_like(const char *s, size_t n) {
  size_t i = n && (s[0] == '-' || s[0] == '+'), d = 0;
  if (i < n && s[i] == '.') {
    for (i++; i < n && is_digit(s[i]); i++)
      d++;
    if (!d)
      return false;
  } else {
    for (; i < n && is_digit(s[i]); i++)
      d++;
    if (!d)
      return false;
    if (i < n && s[i] == '.')
      for (i++; i < n && is_digit(s[i]); i++)
        ;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < n && (s[i] == '-' || s[i] == '+'))
      i++;
    for (d = 0; i < n && is_digit(s[i]); i++)
      d++;
    if (!d)
      return false;
  }
  return i == n;
}

/* Go's strconv.ParseInt(s, 0, 64), then ParseUint(s, 0, 64). */
static const struct tfr_num *go_parse_int(tfr_arena *a, const char *s,
                                          size_t n) {
  size_t i = 0;
  bool neg = false, sign = n && (s[0] == '-' || s[0] == '+');
  if (sign) {
    neg = s[0] == '-';
    i++;
  }
  unsigned base = 10;
  if (n - i >= 1 && s[i] == '0') {
    char c = n - i >= 3 ? (char)(s[i + 1] | 0x20) : 0;
    base = c == 'b' ? 2 : c == 'o' ? 8 : c == 'x' ? 16 : 8;
    i += base == 8 && c != 'o' ? 1 : 2;
  }
  if (i == n && !(base == 8 && s[i - 1] == '0'))
    return NULL;
  uint64_t u = 0;
  for (; i < n; i++) {
    int dv = is_digit(s[i]) ? s[i] - '0'
             : ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'z')
                 ? (s[i] | 0x20) - 'a' + 10
                 : 99;
    if (dv >= (int)base)
      return NULL;
    if (u > (UINT64_MAX - (uint64_t)dv) / base)
      return NULL;
    u = u * base + (uint64_t)dv;
  }
  if (!sign || !neg) {
    if (u <= INT64_MAX)
      return num_from_int(a, (int64_t)u);
    if (sign) /* ParseUint takes no sign */
      return NULL;
    mpfr_t x;
    mpfr_init2(x, 64);
    mpfr_set_ui(x, (unsigned long)u, MPFR_RNDN);
    const struct tfr_num *r = num_from_mpfr_prec(a, x, 64);
    mpfr_clear(x);
    return r;
  }
  if (u > (uint64_t)INT64_MAX + 1)
    return NULL;
  return num_from_int(a,
                      u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u);
}

static const struct {
  const char *s;
  int kind; /* 1 true, 0 false, 2 null, 3 +inf, 4 -inf */
} yaml_words[] = {{"y", 1},     {"Y", 1},     {"yes", 1},   {"Yes", 1},
                  {"YES", 1},   {"true", 1},  {"True", 1},  {"TRUE", 1},
                  {"on", 1},    {"On", 1},    {"ON", 1},    {"n", 0},
                  {"N", 0},     {"no", 0},    {"No", 0},    {"NO", 0},
                  {"false", 0}, {"False", 0}, {"FALSE", 0}, {"off", 0},
                  {"Off", 0},   {"OFF", 0},   {"", 2},      {"~", 2},
                  {"null", 2},  {"Null", 2},  {"NULL", 2},  {".inf", 3},
                  {".Inf", 3},  {".INF", 3},  {"+.inf", 3}, {"+.Inf", 3},
                  {"+.INF", 3}, {"-.inf", 4}, {"-.Inf", 4}, {"-.INF", 4}};

/* resolveMap: -1 when s is not one of its words. */
static int yaml_word(const char *s, size_t n) {
  for (size_t i = 0; i < sizeof yaml_words / sizeof *yaml_words; i++)
    if (strlen(yaml_words[i].s) == n && !memcmp(yaml_words[i].s, s, n))
      return yaml_words[i].kind;
  return -1;
}

static const tfr_value *yaml_word_value(tfr_arena *a, int kind) {
  if (kind <= 1)
    return tfr_bool(kind == 1);
  if (kind == 2)
    return tfr_null(a, &tfr_t_dynamic);
  return number_value(a, num_parse(a, kind == 3 ? "+Inf" : "-Inf", 4));
}

static bool resolvable_tag(const char *tag) {
  static const char *const tags[] = {"",
                                     YAML_TAG("str"),
                                     YAML_TAG("bool"),
                                     YAML_TAG("int"),
                                     YAML_TAG("float"),
                                     YAML_TAG("null"),
                                     YAML_TAG("timestamp"),
                                     YAML_TAG("binary")};
  for (size_t i = 0; i < sizeof tags / sizeof *tags; i++)
    if (!strcmp(tag, tags[i]))
      return true;
  return false;
}

static char yaml_hint(const char *s, size_t n) {
  if (!n)
    return 'N';
  char c = s[0];
  if (c == '+' || c == '-')
    return 'S';
  if (is_digit(c))
    return 'D';
  if (c && strchr("yYnNtTfFoO~", c))
    return 'M';
  return c == '.' ? '.' : 0;
}

/* resolveScalar's first part: what the first character hints at, for
** untagged or number-like tags.  YR_NONE: go on by the tag, which may
** have become !!int or !!float. */
static enum yres yaml_guess(struct ywalk *w, const char **tag, const char *s,
                            size_t n, yaml_scalar_style_t style,
                            const tfr_value **out) {
  tfr_arena *a = w->a;
  char hint = yaml_hint(s, n);
  if (!hint || !strcmp(*tag, YAML_TAG("str")) ||
      !strcmp(*tag, YAML_TAG("binary")))
    return YR_NONE;
  if (style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
      style == YAML_DOUBLE_QUOTED_SCALAR_STYLE) {
    *out = tfr_string(a, s, n);
    return YR_VALUE;
  }
  int word = yaml_word(s, n);
  if (word >= 0) {
    *out = yaml_word_value(a, word);
    return YR_VALUE;
  }
  if (!**tag && n == 4 &&
      (!memcmp(s, ".nan", 4) || !memcmp(s, ".NaN", 4) ||
       !memcmp(s, ".NAN", 4))) {
    w->err = "floating point NaN is not supported";
    return YR_ERR;
  }
  const struct tfr_num *num = hint == '.' ? num_parse(a, s, n) : NULL;
  const char *ts = NULL;
  if ((hint == 'D' || hint == 'S') &&
      (!**tag || !strcmp(*tag, YAML_TAG("timestamp"))))
    ts = time_yaml_stamp(a, s, n);
  if (num || ts) {
    *out = num ? number_value(a, num) : tfr_string(a, ts, strlen(ts));
    return YR_VALUE;
  }
  if ((hint == 'D' || hint == 'S') && yaml_int_like(s, n))
    *tag = YAML_TAG("int");
  else if ((hint == 'D' || hint == 'S') && yaml_float_like(s, n))
    *tag = YAML_TAG("float");
  return YR_NONE;
}

/* resolveScalar's second part: the value by its tag; NULL if the text
** is not one (the message's suffix in *bad). */
static const tfr_value *yaml_by_tag(tfr_arena *a, const char *tag,
                                    const char *s, size_t n, const char **bad) {
  *bad = "";
  if (!*tag || !strcmp(tag, YAML_TAG("str")))
    return tfr_string(a, s, n);
  if (!strcmp(tag, YAML_TAG("binary"))) {
    struct sbuf junk = {0};
    size_t off;
    bool ok = go_b64_decode(&junk, s, n, &off);
    free(junk.p);
    *bad = ": not valid base64";
    return ok ? tfr_string(a, s, n) : NULL;
  }
  if (!strcmp(tag, YAML_TAG("bool"))) {
    int word = yaml_word(s, n);
    return word == 0 || word == 1 ? tfr_bool(word == 1) : NULL;
  }
  if (!strcmp(tag, YAML_TAG("int")) || !strcmp(tag, YAML_TAG("float"))) {
    char *plain = tfr_arena_alloc(a, n + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
      if (s[i] != '_')
        plain[k++] = s[i];
    const struct tfr_num *num = num_parse(a, plain, k);
    if (!num)
      num = go_parse_int(a, plain, k);
    return num ? number_value(a, num) : NULL;
  }
  if (!strcmp(tag, YAML_TAG("timestamp"))) {
    const char *ts = time_yaml_stamp(a, s, n);
    return ts ? tfr_string(a, ts, strlen(ts)) : NULL;
  }
  return tfr_null(a, &tfr_t_dynamic); /* !!null */
}

/* go-cty-yaml's resolveScalar: a scalar's value (style matters: quoted
** scalars are strings), "<<" for a merge key, or an error. */
static enum yres yaml_resolve(struct ywalk *w, const char *tag, const char *s,
                              size_t n, yaml_scalar_style_t style,
                              const tfr_value **out) {
  tfr_arena *a = w->a;
  if (!resolvable_tag(tag)) {
    w->err = tfr_arena_printf(a, "unsupported tag %s",
                              str_go_quote(a, tag, strlen(tag)));
    return YR_ERR;
  }
  enum yres r = yaml_guess(w, &tag, s, n, style, out);
  if (r != YR_NONE)
    return r;
  if (!*tag && n == 2 && !memcmp(s, "<<", 2))
    return YR_MERGE;
  const char *bad;
  *out = yaml_by_tag(a, tag, s, n, &bad);
  if (*out)
    return YR_VALUE;
  w->err = tfr_arena_printf(a, "cannot parse %s as %s%s", str_go_quote(a, s, n),
                            tag, bad);
  return YR_ERR;
}

static struct yanchor *yanchor_find(struct ywalk *w, const char *name) {
  for (size_t i = 0; i < w->nanchors; i++)
    if (!strcmp(w->anchors[i].name, name))
      return &w->anchors[i];
  return NULL;
}

static void yanchor_begin(struct ywalk *w, const char *name) {
  if (!*name)
    return;
  struct yanchor *an = yanchor_find(w, name);
  if (!an) {
    ARENA_GROW(w->a, w->anchors, w->nanchors, w->cap, 8);
    an = &w->anchors[w->nanchors++];
    an->name = tfr_arena_strdup(w->a, name);
  }
  an->pending++;
}

static void yanchor_complete(struct ywalk *w, const char *name,
                             struct ynode r) {
  if (!*name)
    return;
  struct yanchor *an = yanchor_find(w, name);
  an->pending--;
  an->t = r.t;
  an->v = r.v;
  an->size = r.size;
}

static bool ywalk_node(struct ywalk *w, yaml_event_t *e, struct ynode *r);

/* Parse the next event as a node. */
static bool ywalk_next(struct ywalk *w, struct ynode *r) {
  yaml_event_t e;
  if (!ynext(w, &e))
    return false;
  bool ok = ywalk_node(w, &e, r);
  yaml_event_delete(&e);
  return ok;
}

static bool ywalk_scalar(struct ywalk *w, yaml_event_t *e, struct ynode *r) {
  const char *anchor = ystr(e->data.scalar.anchor);
  const char *tag = ytag(w, e->data.scalar.tag);
  const char *s = (const char *)e->data.scalar.value;
  size_t n = e->data.scalar.length;
  yanchor_begin(w, anchor);
  if (w->types && !*tag && !e->data.scalar.plain_implicit) {
    r->t = &tfr_t_string;
  } else {
    const tfr_value *v = NULL;
    enum yres k = yaml_resolve(w, tag, s, n, e->data.scalar.style, &v);
    if (k == YR_ERR)
      return yevent_error(w, e, w->err);
    if (k == YR_MERGE)
      v = tfr_string(w->a, "<<", 2);
    r->t = v->type;
    r->v = v;
  }
  r->size = 1;
  yanchor_complete(w, anchor, *r);
  return true;
}

static bool ywalk_alias(struct ywalk *w, yaml_event_t *e, struct ynode *r) {
  const char *name = ystr(e->data.alias.anchor);
  struct yanchor *an = yanchor_find(w, name);
  if (an && an->pending > 0)
    return yevent_error(
        w, e,
        tfr_arena_printf(
            w->a, "cannot refer to anchor %s from inside its own definition",
            str_go_quote(w->a, name, strlen(name))));
  if (!an)
    return yevent_error(
        w, e,
        tfr_arena_printf(w->a, "reference to undefined anchor %s",
                         str_go_quote(w->a, name, strlen(name))));
  r->t = an->t;
  r->v = an->v;
  r->size = an->size;
  return true;
}

/* Members of a mapping being read, in order, duplicates included. */
struct ymembers {
  const char **names;
  struct ynode *vals;
  size_t n, cap;
};

static void ymembers_add(tfr_arena *a, struct ymembers *m, const char *name,
                         struct ynode v) {
  size_t cap = m->cap; /* the two arrays grow together */
  ARENA_GROW(a, m->names, m->n, cap, 8);
  ARENA_GROW(a, m->vals, m->n, m->cap, 8);
  m->names[m->n] = name;
  m->vals[m->n++] = v;
}

/* The object type or value of the members: names made NFC, the last
** member of each name kept. */
static struct ynode ymembers_object(struct ywalk *w, struct ymembers *m) {
  struct named *v = tfr_arena_alloc(w->a, (m->n + 1) * sizeof *v);
  for (size_t i = 0; i < m->n; i++)
    v[i] = (struct named){nfc_name(w->a, m->names[i], strlen(m->names[i])), i};
  size_t n = keep_last(v, m->n);
  const char **names = tfr_arena_alloc(w->a, (n + 1) * sizeof *names);
  for (size_t i = 0; i < n; i++)
    names[i] = v[i].name;
  struct ynode r = {0};
  if (w->types) {
    const tfr_type **ts = tfr_arena_alloc(w->a, (n + 1) * sizeof *ts);
    for (size_t i = 0; i < n; i++)
      ts[i] = m->vals[v[i].idx].t;
    r.t = tfr_type_object(w->a, n, names, ts, NULL);
  } else {
    const tfr_value **vs = tfr_arena_alloc(w->a, (n + 1) * sizeof *vs);
    for (size_t i = 0; i < n; i++)
      vs[i] = m->vals[v[i].idx].v;
    r.v = tfr_object(w->a, n, names, vs);
    r.t = r.v->type;
  }
  return r;
}

/* The attributes of an object node v (type t, value x) added to m. */
static void ymerge_object(struct ywalk *w, struct ymembers *m,
                          const tfr_type *t, const tfr_value *x,
                          uint64_t size) {
  for (uint32_t i = 0; i < t->n; i++) {
    struct ynode el = {t->types[i], w->types ? NULL : x->elems[i],
                       size / t->n + 1};
    ymembers_add(w->a, m, t->names[i], el);
  }
}

/* A `<<` key: merge the next node's attributes into m.  1.2.0 also takes
** a sequence of mappings, each merged in turn, a later one's attribute
** replacing an earlier one's (decode.go and implied_type.go's loops). */
static bool ywalk_merge(struct ywalk *w, yaml_event_t *key,
                        struct ymembers *m) {
  struct ynode v;
  if (!ywalk_next(w, &v))
    return false;
  /* Merged values are objects or nulls: YAML decodes to no maps. */
  if (v.t->kind == TFR_OBJECT) {
    ymerge_object(w, m, v.t, v.v, v.size);
    return true;
  }
  if (!w->v120 || v.t->kind != TFR_TUPLE)
    return yevent_error(w, key,
                        tfr_arena_printf(w->a, "cannot merge %s into mapping",
                                         tfr_type_friendly(w->a, v.t)));
  for (uint32_t j = 0; j < v.t->n; j++)
    if (v.t->types[j]->kind != TFR_OBJECT)
      return yevent_error(
          w, key,
          tfr_arena_printf(w->a, "cannot merge %s (from sequence) into mapping",
                           tfr_type_friendly(w->a, v.t->types[j])));
  for (uint32_t j = 0; j < v.t->n; j++)
    ymerge_object(w, m, v.t->types[j], w->types ? NULL : v.v->elems[j],
                  v.size / v.t->n + 1);
  return true;
}

/* 1.2.0's isMergeKey (resolve.go): an untagged "<<" whatever its style,
** or a scalar tagged !!merge. */
static bool ymerge_key(const struct ywalk *w, const yaml_event_t *e) {
  const char *tag = ytag(w, e->data.scalar.tag);
  return (!*tag && e->data.scalar.length == 2 &&
          !memcmp(e->data.scalar.value, "<<", 2)) ||
         !strcmp(tag, "tag:yaml.org,2002:merge");
}

/* One key of a mapping: false on error, *done at MAPPING-END. */
static bool ywalk_member(struct ywalk *w, struct ymembers *m, bool *done) {
  yaml_event_t e;
  if (!ynext(w, &e))
    return false;
  bool ok = false;
  *done = e.type == YAML_MAPPING_END_EVENT;
  if (*done) {
    ok = true;
  } else if (w->v120 && e.type == YAML_SCALAR_EVENT && ymerge_key(w, &e)) {
    ok = ywalk_merge(w, &e, m);
  } else if (e.type != YAML_SCALAR_EVENT) {
    yevent_error(w, &e, "only strings are allowed as mapping keys");
  } else {
    const tfr_value *k = NULL;
    enum yres res = yaml_resolve(w, ytag(w, e.data.scalar.tag),
                                 (const char *)e.data.scalar.value,
                                 e.data.scalar.length, e.data.scalar.style, &k);
    if (res == YR_MERGE) {
      ok = ywalk_merge(w, &e, m);
    } else if (res == YR_VALUE) {
      const char *cerr = NULL;
      k = conv_convert(w->a, k, &tfr_t_string, &cerr);
      struct ynode v;
      if (!k)
        yevent_error(w, &e, "only strings are allowed as mapping keys");
      else if (k->flags & TFR_V_NULL)
        yevent_error(w, &e, "mapping key cannot be null");
      else
        ok = ywalk_next(w, &v);
      if (ok)
        ymembers_add(w->a, m, tfr_arena_strndup(w->a, k->s, k->n), v);
    }
  }
  yaml_event_delete(&e);
  return ok;
}

/* The start of a mapping or sequence (what): its tag, none or want, else
** the error; its anchor (*anchor) begins. */
static bool ystart(struct ywalk *w, yaml_event_t *e, const yaml_char_t *tag,
                   const yaml_char_t *name, const char *want, const char *what,
                   const char **anchor) {
  const char *t = ytag(w, tag);
  *anchor = ystr(name);
  if (*t && strcmp(t, want))
    return yevent_error(
        w, e, tfr_arena_printf(w->a, "can't interpret %s as %s", what, t));
  yanchor_begin(w, *anchor);
  return true;
}

/* The end of a mapping or sequence r of the n kids: its size counts them,
** and its anchor is complete. */
static bool yend(struct ywalk *w, const char *anchor, struct ynode *r,
                 const struct ynode *kids, size_t n) {
  r->size = 1;
  for (size_t i = 0; i < n; i++)
    r->size = ysize_add(r->size, kids[i].size);
  yanchor_complete(w, anchor, *r);
  return true;
}

static bool ywalk_mapping(struct ywalk *w, yaml_event_t *e, struct ynode *r) {
  const char *anchor;
  if (!ystart(w, e, e->data.mapping_start.tag, e->data.mapping_start.anchor,
              YAML_TAG("map"), "mapping", &anchor))
    return false;
  struct ymembers m = {0};
  for (bool done = false; !done;)
    if (!ywalk_member(w, &m, &done))
      return false;
  *r = ymembers_object(w, &m);
  return yend(w, anchor, r, m.vals, m.n);
}

static bool ywalk_sequence(struct ywalk *w, yaml_event_t *e, struct ynode *r) {
  const char *anchor;
  if (!ystart(w, e, e->data.sequence_start.tag, e->data.sequence_start.anchor,
              YAML_TAG("seq"), "sequence", &anchor))
    return false;
  size_t n = 0, cap = 8;
  struct ynode *items = tfr_arena_alloc(w->a, cap * sizeof *items);
  for (;;) {
    yaml_event_t ev;
    if (!ynext(w, &ev))
      return false;
    if (ev.type == YAML_SEQUENCE_END_EVENT) {
      yaml_event_delete(&ev);
      break;
    }
    if (n == cap) {
      struct ynode *ni = tfr_arena_alloc(w->a, 2 * cap * sizeof *ni);
      memcpy(ni, items, n * sizeof *ni);
      items = ni, cap *= 2;
    }
    bool ok = ywalk_node(w, &ev, &items[n++]);
    yaml_event_delete(&ev);
    if (!ok)
      return false;
  }
  if (w->types) {
    const tfr_type **ts = tfr_arena_alloc(w->a, (n + 1) * sizeof *ts);
    for (size_t i = 0; i < n; i++)
      ts[i] = items[i].t;
    r->t = tfr_type_tuple(w->a, n, ts);
  } else {
    const tfr_value **vs = tfr_arena_alloc(w->a, (n + 1) * sizeof *vs);
    for (size_t i = 0; i < n; i++)
      vs[i] = items[i].v;
    r->v = tfr_tuple(w->a, n, vs);
    r->t = r->v->type;
  }
  return yend(w, anchor, r, items, n);
}

/* impliedTypeParseRemainder / unmarshalParseRemainder. */
static bool ywalk_node(struct ywalk *w, yaml_event_t *e, struct ynode *r) {
  r->t = NULL;
  r->v = NULL;
  if (w->depth >= YAML_MAX_DEPTH) {
    w->ours = true; /* go-cty-yaml recurses until Go's stack runs out */
    return yevent_error(w, e, "nesting too deep");
  }
  w->depth++;
  bool ok;
  switch (e->type) {
  case YAML_SCALAR_EVENT:
    ok = ywalk_scalar(w, e, r);
    break;
  case YAML_ALIAS_EVENT:
    ok = ywalk_alias(w, e, r);
    break;
  case YAML_MAPPING_START_EVENT:
    ok = ywalk_mapping(w, e, r);
    break;
  case YAML_SEQUENCE_START_EVENT:
    ok = ywalk_sequence(w, e, r);
    break;
  case YAML_DOCUMENT_START_EVENT:
    ok = yevent_error(w, e, "only a single document is allowed");
    break;
  case YAML_STREAM_END_EVENT:
    ok = yevent_error(w, e, "expecting value but found end of stream");
    break;
  default:
    ok = yevent_error(w, e, "unexpected parser event");
  }
  w->depth--;
  w->ours |= ok && r->size > w->max_size;
  if (ok && r->size > w->max_size)
    ok = yevent_error(
        w, e,
        "value too large: with its aliases expanded the document holds "
        "more values than this run's memory budget (-max-memory)");
  return ok;
}

/* Expect one event of type t, else fail with message msg. */
static bool yexpect(struct ywalk *w, yaml_event_type_t t, const char *msg) {
  yaml_event_t e;
  if (!ynext(w, &e))
    return false;
  bool ok = e.type == t || yevent_error(w, &e, msg);
  yaml_event_delete(&e);
  return ok;
}

/* One walk over the whole stream (impliedType or unmarshal). */
static bool ywalk_doc(struct ywalk *w, const tfr_value *src, struct ynode *r) {
  const unsigned char *s = (const unsigned char *)src->s;
  size_t n = src->n;
  if (!n)
    s = (const unsigned char *)"\n", n = 1;
  struct yfix fix;
  ymark_cache.s = NULL; /* a new text, perhaps where an old one was */
  yaml_preflight(w->a, s, n, &fix);
  w->fix = &fix;
  w->max_size = arena_value_budget() / sizeof(tfr_value);
  s = fix.src;
  n = fix.n;
  if (!yaml_parser_initialize(&w->p))
    tfr_oom(); /* its buffers are all it can fail on */
  yaml_parser_set_input_string(&w->p, s, n);
  bool ok =
      yexpect(w, YAML_STREAM_START_EVENT, "missing stream start token") &&
      yexpect(w, YAML_DOCUMENT_START_EVENT, "missing start of document") &&
      ywalk_next(w, r);
  yaml_event_t e;
  if (ok && ynext(w, &e)) {
    if (e.type != YAML_DOCUMENT_END_EVENT)
      ok = yevent_error(w, &e,
                        e.type == YAML_DOCUMENT_START_EVENT
                            ? "only a single document is allowed"
                            : "unexpected extra content after value");
    yaml_event_delete(&e);
  } else {
    ok = false;
  }
  ok = ok && yexpect(w, YAML_STREAM_END_EVENT,
                     "unexpected extra content after value");
  yaml_parser_delete(&w->p);
  return ok;
}

/* yamldecode's result type: the document's implied type. */
static const tfr_type *yamldecode_type(struct fcall *f) {
  const tfr_value *s = f->args[0];
  if (s->flags & TFR_V_UNKNOWN)
    return &tfr_t_dynamic;
  struct ywalk w;
  memset(&w, 0, sizeof w);
  w.a = f->a;
  w.types = true;
  w.v120 = EVAL_ENGINE(f->c)->yaml_v120;
  struct ynode r;
  if (!ywalk_doc(&w, s, &r)) {
    fcall_error(f, "%s", w.err);
    if (w.ours)
      fcall_ours(f);
    return NULL;
  }
  return r.t;
}

/* yamldecode(src) */
static const tfr_value *fn_yamldecode(struct fcall *f, const tfr_type *ret) {
  /* a null document (type any) is a known null too: go-cty-yaml 1.0.3
  ** dropped 1.0.2's early cty.DynamicVal (cty_funcs.go) */
  struct ywalk w;
  memset(&w, 0, sizeof w);
  w.a = f->a;
  w.v120 = EVAL_ENGINE(f->c)->yaml_v120;
  struct ynode r;
  if (!ywalk_doc(&w, f->args[0], &r)) {
    fcall_error(f, "%s", w.err);
    if (w.ours)
      fcall_ours(f);
    return NULL;
  }
  const char *err = NULL;
  const tfr_value *v = conv_convert(f->a, r.v, ret, &err);
  if (!v)
    fcall_error(f, "%s", err ? err : "conversion failed");
  return v;
}

static const struct func_spec specs[] = {
    {"yamldecode", 1, {STR("src")}, NULL, NULL, yamldecode_type, fn_yamldecode},
};

const struct func_group funcs_yaml = {specs, sizeof specs / sizeof *specs};
