/*
** Terraform's built-in provider functions (provider::terraform::NAME):
** encode_tfvars, decode_tfvars, encode_expr
** (internal/builtin/providers/terraform/functions.go).
**
** The encoders write values as hclwrite does: TokensForValue's tokens
** (lists on one line, objects one attribute per line, keys bare when they
** are identifiers), then hclwrite's formatter (indentation by open
** brackets per line, spaces between tokens, `=` aligned over runs of
** single-line assignments).  The formatter here follows hclwrite's rules
** for the tokens a value can produce.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag_int.h"
#include "eval/funcs.h"
#include "values/number.h"
#include "syntax/parse.h"
#include "base/arena_int.h"
#include "base/strutil.h"
#include "tfresolve/value.h"

/* ---- tokens ------------------------------------------------------------ */

enum tok_kind {
  TK_IDENT,
  TK_NUMBER,
  TK_OQUOTE,
  TK_QLIT,
  TK_CQUOTE,
  TK_OBRACK,
  TK_CBRACK,
  TK_COMMA,
  TK_OBRACE,
  TK_CBRACE,
  TK_EQUAL,
  TK_NEWLINE,
};

struct tok {
  enum tok_kind kind;
  const char *s;
  size_t n;
  int spaces; /* spaces before it, set by the formatter */
};

struct toks {
  struct tok *v;
  size_t n, cap;
  tfr_arena *a;
};

static void put(struct toks *t, enum tok_kind k, const char *s, size_t n) {
  ARENA_GROW(t->a, t->v, t->n, t->cap, 64);
  t->v[t->n++] = (struct tok){k, s, n, 0};
}

static void put_c(struct toks *t, enum tok_kind k, const char *s) {
  put(t, k, s, strlen(s));
}

/* hclwrite's escapeQuotedStringLit. */
static void put_string(struct toks *t, const char *s, size_t n) {
  put_c(t, TK_OQUOTE, "\"");
  if (n) {
    struct sbuf b = {0};
    for (size_t i = 0; i < n;) {
      int32_t r;
      size_t k = str_decode_rune(s + i, n - i, &r);
      const char *esc = str_escape(r, false);
      if (esc) {
        sbuf_str(&b, esc);
      } else if (r == '$' || r == '%') {
        sbuf_put(&b, s + i, 1);
        if (i + 1 < n && s[i + 1] == '{')
          sbuf_put(&b, s + i, 1); /* $${ and %%{ escape templates */
      } else if (r < 0x80 ? (r >= 0x20 && r < 0x7f) : go_isprint(r)) {
        sbuf_put(&b, s + i, k);
      } else {
        char e[16];
        snprintf(e, sizeof e, r < 65536 ? "\\u%04x" : "\\U%08x", (unsigned)r);
        sbuf_str(&b, e);
      }
      i += k;
    }
    put(t, TK_QLIT, tfr_arena_strndup(t->a, b.p ? b.p : "", b.n), b.n);
    free(b.p);
  }
  put_c(t, TK_CQUOTE, "\"");
}

/* TokensForValue (the value is wholly known). */
static void gen(struct toks *t, const tfr_value *v) {
  if (v->flags & TFR_V_NULL) {
    put_c(t, TK_IDENT, "null");
    return;
  }
  switch (v->type->kind) {
  case TFR_BOOL:
    put_c(t, TK_IDENT, v->b ? "true" : "false");
    return;
  case TFR_NUMBER:
    put_c(t, TK_NUMBER, num_format(t->a, v->num));
    return;
  case TFR_STRING:
    put_string(t, v->s, v->n);
    return;
  case TFR_LIST:
  case TFR_SET:
  case TFR_TUPLE:
    put_c(t, TK_OBRACK, "[");
    for (uint32_t i = 0; i < v->n; i++) {
      if (i)
        put_c(t, TK_COMMA, ",");
      gen(t, v->elems[i]);
    }
    put_c(t, TK_CBRACK, "]");
    return;
  default: /* map, object */
    put_c(t, TK_OBRACE, "{");
    if (v->n)
      put_c(t, TK_NEWLINE, "\n");
    for (uint32_t i = 0; i < v->n; i++) {
      bool map = v->type->kind == TFR_MAP;
      const char *k = map ? v->keys[i] : v->type->names[i];
      size_t kn = map ? v->keylens[i] : strlen(k);
      if (str_is_identifier(k, kn))
        put(t, TK_IDENT, k, kn);
      else
        put_string(t, k, kn);
      put_c(t, TK_EQUAL, "=");
      gen(t, v->elems[i]);
      put_c(t, TK_NEWLINE, "\n");
    }
    put_c(t, TK_CBRACE, "}");
  }
}

/* ---- hclwrite's formatter ------------------------------------------------ */

static int bracket_change(const struct tok *k) {
  switch (k->kind) {
  case TK_OBRACE:
  case TK_OBRACK:
    return 1;
  case TK_CBRACE:
  case TK_CBRACK:
    return -1;
  default:
    return 0;
  }
}

/* spaceAfterToken, for the tokens a value produces. */
static bool space_after(const struct tok *subject, const struct tok *after) {
  if (!after || after->kind == TK_NEWLINE || after->kind == TK_COMMA)
    return false;
  if (subject->kind == TK_COMMA)
    return true;
  if (subject->kind == TK_QLIT || subject->kind == TK_OQUOTE ||
      after->kind == TK_QLIT || after->kind == TK_CQUOTE)
    return false;
  if (after->kind == TK_OBRACK &&
      (subject->kind == TK_IDENT || subject->kind == TK_NUMBER ||
       bracket_change(subject) < 0))
    return false;
  if (subject->kind == TK_OBRACE || after->kind == TK_CBRACE)
    return !(subject->kind == TK_OBRACE && after->kind == TK_CBRACE);
  if (bracket_change(subject) > 0 || bracket_change(after) < 0)
    return false;
  return true;
}

/* One line: tokens [lead, assign) are the lead cell, [assign, end) the
** assign cell (assign == end when there is none). */
struct line {
  size_t lead, assign, end;
};

static size_t columns(const struct toks *t, size_t from, size_t to) {
  size_t c = 0;
  for (size_t i = from; i < to; i++)
    c += (size_t)t->v[i].spaces + str_runes(t->v[i].s, t->v[i].n);
  return c;
}

static void spaces_in(struct toks *t, size_t from, size_t to) {
  for (size_t i = from; i < to; i++)
    if (i + 1 < to)
      t->v[i + 1].spaces = space_after(&t->v[i], &t->v[i + 1]);
}

static void format(struct toks *t) {
  size_t nlines = 1;
  for (size_t i = 0; i < t->n; i++)
    nlines += t->v[i].kind == TK_NEWLINE;
  struct line *lines = tfr_arena_alloc(t->a, nlines * sizeof *lines);
  size_t li = 0, start = 0;
  for (size_t i = 0; i < t->n; i++)
    if (t->v[i].kind == TK_NEWLINE) {
      lines[li++] = (struct line){start, i + 1, i + 1};
      start = i + 1;
    }
  lines[li++] = (struct line){start, t->n, t->n};
  /* an assignment whose value ends on the same line gets an assign cell */
  for (size_t l = 0; l < li; l++) {
    struct line *ln = &lines[l];
    for (size_t i = ln->lead + 1; i < ln->end; i++)
      if (t->v[i].kind == TK_EQUAL) {
        int net = 0;
        for (size_t j = i; j < ln->end; j++)
          net += bracket_change(&t->v[j]);
        if (net == 0)
          ln->assign = i;
        break;
      }
  }
  /* indentation */
  int stack[AST_MAX_DEPTH * 2 + 8];
  size_t depth = 0;
  for (size_t l = 0; l < li; l++) {
    struct line *ln = &lines[l];
    if (ln->lead == ln->end)
      continue;
    if (t->v[ln->lead].kind == TK_NEWLINE) {
      t->v[ln->lead].spaces = 0;
      continue;
    }
    int net = 0;
    for (size_t i = ln->lead; i < ln->end; i++)
      net += bracket_change(&t->v[i]);
    if (net > 0) {
      t->v[ln->lead].spaces = 2 * (int)depth;
      if (depth < sizeof stack / sizeof *stack)
        stack[depth++] = net;
    } else {
      int closed = -net;
      while (closed > 0 && depth > 0) {
        if (closed > stack[depth - 1]) {
          closed -= stack[--depth];
        } else if (closed < stack[depth - 1]) {
          stack[depth - 1] -= closed;
          closed = 0;
        } else {
          depth--;
          closed = 0;
        }
      }
      t->v[ln->lead].spaces = 2 * (int)depth;
    }
  }
  /* spaces between tokens */
  for (size_t l = 0; l < li; l++) {
    struct line *ln = &lines[l];
    spaces_in(t, ln->lead, ln->assign);
    if (ln->assign < ln->end) {
      t->v[ln->assign].spaces = 1;
      spaces_in(t, ln->assign, ln->end);
    }
  }
  /* `=` aligned over runs of lines with an assign cell */
  size_t chain = SIZE_MAX, width = 0;
  for (size_t l = 0; l <= li; l++) {
    bool has = l < li && lines[l].assign < lines[l].end;
    if (has) {
      if (chain == SIZE_MAX)
        chain = l;
      size_t c = columns(t, lines[l].lead, lines[l].assign);
      if (c > width)
        width = c;
    } else if (chain != SIZE_MAX) {
      for (size_t k = chain; k < l; k++)
        t->v[lines[k].assign].spaces =
            (int)(width - columns(t, lines[k].lead, lines[k].assign)) + 1;
      chain = SIZE_MAX;
      width = 0;
    }
  }
}

static const tfr_value *render(struct toks *t, bool trim) {
  format(t);
  struct sbuf b = {0};
  for (size_t i = 0; i < t->n; i++) {
    for (int s = 0; s < t->v[i].spaces; s++)
      sbuf_put(&b, " ", 1);
    sbuf_put(&b, t->v[i].s, t->v[i].n);
  }
  const char *p = b.p ? b.p : "";
  size_t n = b.n;
  if (trim) {
    while (n && (*p == ' ' || *p == '\n')) {
      p++;
      n--;
    }
    while (n && (p[n - 1] == ' ' || p[n - 1] == '\n'))
      n--;
  }
  const tfr_value *v = tfr_string(t->a, p, n);
  free(b.p);
  return v;
}

/* ---- the functions ------------------------------------------------------ */

static const tfr_value *fn_encode_tfvars(struct fcall *f, const tfr_type *ret) {
  const tfr_value *v = f->args[0];
  if (!tfr_value_is_wholly_known(v))
    return tfr_unknown(f->a, ret);
  int k = v->type->kind;
  if (k != TFR_OBJECT && k != TFR_MAP) {
    fcall_arg_error(f, 0,
                    "invalid value to encode: must be an object whose "
                    "attribute names will become the encoded variable "
                    "names");
    return NULL;
  }
  struct toks t = {NULL, 0, 0, f->a};
  for (uint32_t i = 0; i < v->n; i++) {
    const char *key = k == TFR_MAP ? v->keys[i] : v->type->names[i];
    size_t kn = k == TFR_MAP ? v->keylens[i] : strlen(key);
    if (!str_is_identifier(key, kn)) {
      struct sbuf q = {0};
      sbuf_go_quote(&q, key, kn);
      fcall_arg_error(f, 0,
                      "invalid variable name %s: must be a valid "
                      "identifier, per Terraform's rules for input variable "
                      "declarations",
                      q.p ? q.p : "\"\"");
      free(q.p);
      return NULL;
    }
    put(&t, TK_IDENT, key, kn);
    put_c(&t, TK_EQUAL, "=");
    gen(&t, v->elems[i]);
    put_c(&t, TK_NEWLINE, "\n");
  }
  return render(&t, false);
}

static const tfr_value *fn_encode_expr(struct fcall *f, const tfr_type *ret) {
  const tfr_value *v = f->args[0];
  if (!tfr_value_is_wholly_known(v))
    return tfr_unknown(f->a, ret);
  struct toks t = {NULL, 0, 0, f->a};
  gen(&t, v);
  return render(&t, true);
}

static const tfr_value *fn_decode_tfvars(struct fcall *f, const tfr_type *ret) {
  (void)ret;
  const tfr_value *src = f->args[0];
  tfr_diags *d = tfr_diags_new(f->a);
  tfr_file *file = parse_bytes(f->a, d, "<decode_tfvars argument>", src->s,
                               src->n, TFR_SYNTAX_HCL);
  if (!file || tfr_diags_has_errors(d)) {
    fcall_error(f, "invalid tfvars syntax: %s", diags_error_text(f->a, d, 0));
    return NULL;
  }
  const struct ast *body = file->f.body;
  for (uint32_t i = 0; i < body->n; i++) {
    const struct ast *it = body->items[i];
    if (it->kind == AST_BLOCK) {
      struct tfr_range r = src_range(
          file->f.src, (struct span){it->span.start, it->span.start + it->n});
      tfr_diags_add(d, TFR_DIAG_ERROR, &r,
                    tfr_arena_printf(f->a, "Unexpected \"%.*s\" block",
                                     (int)it->n, it->str),
                    "Blocks are not allowed here.");
    }
  }
  if (tfr_diags_has_errors(d)) {
    fcall_error(f, "invalid tfvars content: %s", diags_error_text(f->a, d, 0));
    return NULL;
  }
  size_t n = body->n;
  const char **names = tfr_arena_alloc(f->a, (n ? n : 1) * sizeof *names);
  const tfr_value **vals = tfr_arena_alloc(f->a, (n ? n : 1) * sizeof *vals);
  for (uint32_t i = 0; i < n; i++) {
    const struct ast *it = body->items[i];
    names[i] = tfr_arena_strndup(f->a, it->str, it->n);
    struct eval_ctx c = {0};
    c.a = f->a;
    c.diags = tfr_diags_new(f->a);
    c.src = file->f.src;
    vals[i] = eval_expr(&c, it->kids[0]);
    if (tfr_diags_has_errors(c.diags)) {
      struct sbuf q = {0};
      sbuf_go_quote(&q, names[i], strlen(names[i]));
      fcall_error(f, "invalid expression for variable %s: %s",
                  q.p ? q.p : "\"\"", diags_error_text(f->a, c.diags, 0));
      free(q.p);
      return NULL;
    }
  }
  return tfr_object(f->a, n, names, vals);
}

static const struct func_spec specs[] = {
    {"provider::terraform::encode_tfvars",
     1,
     {{"value", NULL, FP_ALLOW_UNKNOWN | FP_ALLOW_DYNAMIC}},
     NULL,
     &tfr_t_string,
     NULL,
     fn_encode_tfvars},
    {"provider::terraform::decode_tfvars",
     1,
     {{"src", &tfr_t_string, 0}},
     NULL,
     &tfr_t_dynamic,
     NULL,
     fn_decode_tfvars},
    {"provider::terraform::encode_expr",
     1,
     {{"value", NULL, FP_ALLOW_UNKNOWN | FP_ALLOW_DYNAMIC}},
     NULL,
     &tfr_t_string,
     NULL,
     fn_encode_expr},
};

const struct func_group funcs_provider = {specs, sizeof specs / sizeof *specs};
