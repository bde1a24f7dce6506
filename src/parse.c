/*
** Parsing entry points: read a file, check its encoding, and hand it to
** the native or the JSON grammar.
*/
#include <errno.h>
#include <string.h>

#include "eval.h"
#include "parse.h"
#include "tfresolve/tfresolve.h"

const char *tfr_version(void) { return TFR_VERSION; }

#ifndef HAVE_JSON_GRAMMAR
struct ast_file *parse_json(struct parse_ctx *c) {
  parse_error(c, (struct span){0, 0}, "JSON not supported",
              "This build has no JSON parser.");
  return NULL;
}
#endif

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Length of the valid UTF-8 sequence at s, or 0 (RFC 3629: no overlongs,
** no surrogates, nothing above U+10FFFF). */
static int utf8_seq(const unsigned char *s, size_t n) {
  unsigned char b = s[0];
  if (b < 0x80)
    return 1;
  int len;
  unsigned char lo = 0x80, hi = 0xBF;
  if (b >= 0xC2 && b <= 0xDF)
    len = 2;
  else if (b >= 0xE0 && b <= 0xEF) {
    len = 3;
    if (b == 0xE0)
      lo = 0xA0;
    if (b == 0xED)
      hi = 0x9F;
  } else if (b >= 0xF0 && b <= 0xF4) {
    len = 4;
    if (b == 0xF0)
      lo = 0x90;
    if (b == 0xF4)
      hi = 0x8F;
  } else
    return 0;
  if ((size_t)len > n || s[1] < lo || s[1] > hi)
    return 0;
  for (int i = 2; i < len; i++)
    if ((s[i] & 0xC0) != 0x80)
      return 0;
  return len;
}

bool parse_check_utf8(struct parse_ctx *c) {
  const unsigned char *s = (const unsigned char *)c->src->text;
  size_t n = c->src->len;
  for (size_t i = 0; i < n;) {
    /* ASCII runs, eight bytes at a time */
    while (i + 8 <= n) {
      uint64_t w;
      memcpy(&w, s + i, 8);
      if (w & 0x8080808080808080ull)
        break;
      i += 8;
    }
    if (i >= n)
      break;
    if (s[i] < 0x80) {
      i++;
      continue;
    }
    int k = utf8_seq(s + i, n - i);
    if (!k) {
      parse_error(c, (struct span){(uint32_t)i, (uint32_t)i + 1},
                  "Invalid character encoding",
                  "All input files must be UTF-8 encoded. Ensure that UTF-8 "
                  "encoding is selected in your editor.");
      return false;
    }
    i += (size_t)k;
  }
  return true;
}

static tfr_file *parse_src_mode(tfr_arena *a, tfr_diags *diags,
                                struct src_file *src, enum tfr_syntax syntax,
                                bool expr_mode) {
  tfr_diags_add_source(diags, src->name, src->text, src->len);
  struct parse_ctx c = {0};
  c.a = a;
  c.diags = diags;
  c.src = src;
  if (syntax == TFR_SYNTAX_AUTO)
    syntax = ends_with(src->name, ".json") ? TFR_SYNTAX_JSON
                                           : TFR_SYNTAX_HCL;
  c.json = syntax == TFR_SYNTAX_JSON;
  c.expr_mode = expr_mode;
  if (!parse_check_utf8(&c))
    return NULL;
  struct ast_file *f = c.json ? parse_json(&c) : parse_hcl(&c);
  if (!f || !f->body || c.failed || !ast_check_depth(&c, f->body))
    return NULL;
  return (tfr_file *)f;
}

static tfr_file *parse_src(tfr_arena *a, tfr_diags *diags,
                           struct src_file *src, enum tfr_syntax syntax) {
  return parse_src_mode(a, diags, src, syntax, false);
}

tfr_file *tfr_parse_expr(tfr_arena *a, tfr_diags *diags, const char *name,
                         const char *text, size_t len) {
  char *copy = tfr_arena_alloc_raw(a, len + 2);
  memcpy(copy, text, len);
  copy[len] = copy[len + 1] = '\0';
  return parse_src_mode(a, diags, src_new(a, name, copy, len),
                        TFR_SYNTAX_HCL, true);
}

tfr_file *tfr_parse_bytes(tfr_arena *a, tfr_diags *diags, const char *name,
                          const char *text, size_t len,
                          enum tfr_syntax syntax) {
  if (len > UINT32_MAX - 16) {
    tfr_diags_add(diags, TFR_DIAG_ERROR, NULL, "File too large",
                  "Files of 4 GiB or more are not supported.");
    return NULL;
  }
  char *copy = tfr_arena_alloc_raw(a, len + 2);
  memcpy(copy, text, len);
  copy[len] = copy[len + 1] = '\0'; /* flex scans the text in place */
  return parse_src(a, diags, src_new(a, name, copy, len), syntax);
}

tfr_file *tfr_parse_file(tfr_arena *a, tfr_diags *diags, const char *path,
                         enum tfr_syntax syntax) {
  int err = 0;
  struct src_file *src = src_read(a, path, &err);
  if (!src) {
    tfr_diags_add(diags, TFR_DIAG_ERROR, NULL, "Failed to read file",
                  tfr_arena_printf(a, "The file \"%s\" could not be read: %s.",
                                   path, strerror(err)));
    return NULL;
  }
  return parse_src(a, diags, src, syntax);
}

void tfr_file_dump_json(const tfr_file *f, FILE *out) {
  ast_dump_json((struct ast_file *)&f->f, out);
}

const struct tfr_value *tfr_eval_const(tfr_arena *a, tfr_diags *diags,
                                       const tfr_file *expr) {
  struct eval_ctx c = {0};
  c.a = a;
  c.diags = diags;
  c.src = expr->f.src;
  return eval_expr(&c, expr->f.body);
}

struct ast_file *parse_file_partial(tfr_arena *a, tfr_diags *diags,
                                    const char *path, bool *complete) {
  *complete = false;
  int err = 0;
  struct src_file *src = src_read(a, path, &err);
  if (!src) {
    tfr_diags_add(diags, TFR_DIAG_ERROR, NULL, "Failed to read file",
                  tfr_arena_printf(a, "The file \"%s\" could not be read: %s.",
                                   path, strerror(err)));
    return NULL;
  }
  tfr_diags_add_source(diags, src->name, src->text, src->len);
  struct parse_ctx c = {0};
  c.a = a;
  c.diags = diags;
  c.src = src;
  c.json = ends_with(path, ".json");
  struct ast_file *f = NULL;
  if (parse_check_utf8(&c))
    f = c.json ? parse_json(&c) : parse_hcl(&c);
  if (f && f->body && !c.failed && ast_check_depth(&c, f->body)) {
    *complete = true;
    return f;
  }
  if (f && f->partial) {
    /* items parsed before the error; bounded depth is still required */
    tfr_diags *scratch = tfr_diags_new(a);
    struct parse_ctx d = c;
    d.diags = scratch;
    if (ast_check_depth(&d, f->partial)) {
      f->body = f->partial;
      return f;
    }
  }
  return NULL;
}
