/*
** Parsing entry points: read a file, check its encoding, and hand it to
** the native or the JSON grammar.
*/
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "syntax/parse.h"
#include "base/diag_int.h"
#include "base/strutil.h"

#ifndef HAVE_JSON_GRAMMAR
struct ast_file *parse_json(struct parse_ctx *c) {
  parse_error(c, (struct span){0, 0}, "JSON not supported",
              "This build has no JSON parser.");
  return NULL;
}
#endif

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

/* The top-level blocks of a configuration file, for the "in TYPE
** "label"" of its framed diagnostics (HCL's ContextString: the block's
** type and its labels as Go's %q quotes them). */
static void register_block_to(struct parse_ctx *c, const struct ast *x,
                              uint32_t end) {
  if (x->kind != AST_BLOCK || c->json)
    return;
  if (end) { /* a stub: a block only if a "{" follows what was read */
    uint32_t i = x->span.end;
    while (i < c->src->len &&
           (c->src->text[i] == ' ' || c->src->text[i] == '\t'))
      i++;
    if (i < end && (i >= c->src->len || c->src->text[i] != '{'))
      return;
  }
  diags_add_block(c->diags, c->src->name, x->span.start,
                  end > x->span.end ? end : x->span.end);
}

static void register_block(struct parse_ctx *c, const struct ast *x) {
  register_block_to(c, x, 0);
}

static void broken_block(struct parse_ctx *c, uint32_t err);

static void register_blocks(struct parse_ctx *c, const struct ast *body) {
  for (uint32_t i = 0; body && i < body->n; i++)
    register_block(c, body->items[i]);
}

/* A source every diagnostic can quote, checked to be UTF-8. */
static bool src_ready(tfr_arena *a, tfr_diags *diags, struct src_file *src) {
  tfr_diags_add_source(diags, src->name, src->text, src->len);
  struct parse_ctx c = {0};
  c.a = a;
  c.diags = diags;
  c.src = src;
  return parse_check_utf8(&c);
}

static tfr_file *parse_ready(tfr_arena *a, tfr_diags *diags,
                             struct src_file *src, enum tfr_syntax syntax,
                             bool expr_mode) {
  struct parse_ctx c = {0};
  c.a = a;
  c.diags = diags;
  c.src = src;
  if (syntax == TFR_SYNTAX_AUTO)
    syntax =
        str_ends_with(src->name, ".json") ? TFR_SYNTAX_JSON : TFR_SYNTAX_HCL;
  c.json = syntax == TFR_SYNTAX_JSON;
  c.expr_mode = expr_mode;
  struct ast_file *f = c.json ? parse_json(&c) : parse_hcl(&c);
  if (f && !expr_mode && !c.json) {
    register_blocks(&c, f->body && !c.failed ? f->body : f->partial);
    if (c.failed) { /* the block the error is in reaches up to it */
      broken_block(&c, c.err_at);
      free(c.scratch); /* the stub's vectors */
      c.scratch = NULL;
    }
  }
  if (!f || !f->body || c.failed || !ast_check_depth(&c, f->body))
    return NULL;
  return (tfr_file *)f;
}

struct src_file *parse_open(tfr_arena *a, tfr_diags *diags,
                            const struct overlays *ov, const char *path,
                            const char *content, size_t len) {
  struct src_file *src;
  if (content) {
    if (len > UINT32_MAX - 16) {
      tfr_diags_add(diags, TFR_DIAG_ERROR, NULL, "File too large",
                    "Files of 4 GiB or more are not supported.");
      tfr_diags_set_ours(diags);
      return NULL;
    }
    char *copy = tfr_arena_alloc_raw(a, len + 2);
    memcpy(copy, content, len);
    copy[len] = copy[len + 1] = '\0'; /* flex scans the text in place */
    src = src_new_private(a, path, copy, len);
  } else {
    int err = 0;
    src = parse_open_quiet(a, diags, ov, path, false, &err);
    if (!src && err) {
      /* Terraform's words, which do not say why; ours where Terraform
      ** would hang on the file or run out of memory reading it */
      const char *q = str_go_quote(a, path, strlen(path));
      const char *what = src_read_problem(err);
      tfr_diags_add(
          diags, TFR_DIAG_ERROR, NULL, "Failed to read file",
          what ? tfr_arena_printf(a,
                                  "The file %s could not be read: "
                                  "it is %s.",
                                  q, what)
               : tfr_arena_printf(a, "The file %s could not be read.", q));
    }
    return src;
  }
  return src_ready(a, diags, src) ? src : NULL;
}

struct src_file *parse_open_quiet(tfr_arena *a, tfr_diags *diags,
                                  const struct overlays *ov, const char *path,
                                  bool named, int *err) {
  *err = 0;
  struct src_file *src = named ? src_read_named(a, ov, path, err)
                               : src_read_private(a, ov, path, err);
  if (!src)
    return NULL;
  return src_ready(a, diags, src) ? src : NULL;
}

tfr_file *parse_opened(tfr_arena *a, tfr_diags *diags, struct src_file *src,
                       enum tfr_syntax syntax) {
  return parse_ready(a, diags, src, syntax, false);
}

tfr_file *parse_opened_expr(tfr_arena *a, tfr_diags *diags,
                            struct src_file *src) {
  return parse_ready(a, diags, src, TFR_SYNTAX_HCL, true);
}

static bool ident_start(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

/* Whether the line starting at i, before byte at, ends with "}": a
** block that opens and closes on it. */
static bool one_line_block(const struct parse_ctx *c, size_t i, size_t at) {
  const char *t = c->src->text;
  size_t e = i;
  while (e < c->src->len && t[e] != '\n')
    e++;
  if (e >= at)
    return false; /* the error is on this line */
  while (e > i && (t[e - 1] == ' ' || t[e - 1] == '\t' || t[e - 1] == '\r'))
    e--;
  return e > i && t[e - 1] == '}';
}

/* The end of the name (letters, digits, "_", "-") starting at i. */
static size_t name_end(const struct parse_ctx *c, size_t i) {
  const char *t = c->src->text;
  while (i < c->src->len &&
         (ident_start(t[i]) || (t[i] >= '0' && t[i] <= '9') || t[i] == '-'))
    i++;
  return i;
}

#define NO_BLOCK SIZE_MAX

/* Where the header line of the top-level block holding byte at starts:
** looking back, a line that starts a name comes before one that closes a
** block with "}" (and is not a block closed on its own line); NO_BLOCK
** when at is outside every block. */
static size_t block_line(const struct parse_ctx *c, size_t at) {
  const char *t = c->src->text;
  for (size_t i = at + 1; i > 0; i--) {
    bool bol = i == 1 || t[i - 2] == '\n';
    if (bol && t[i - 1] == '}' && i - 1 < at)
      return NO_BLOCK; /* that block was closed before */
    if (bol && ident_start(t[i - 1]))
      return one_line_block(c, i - 1, at) ? NO_BLOCK : i - 1;
  }
  return NO_BLOCK;
}

/* A placeholder for the top-level block an error is in, with the type and
** the labels read before the error and an empty body (HCL keeps what it
** had read of a broken block), so that a variable is still declared and
** a misspelt block type still reported.  any: of any type (the first
** error of the file); else only a variable block (an error found by a
** later parse of the rest, which may have started inside a string). */
static struct ast *stub_block(struct parse_ctx *c, size_t at, bool any) {
  const char *t = c->src->text;
  size_t n = c->src->len, i = block_line(c, at);
  if (i == NO_BLOCK)
    return NULL;
  size_t e = name_end(c, i);
  if (e > at)
    return NULL; /* the error is in the type itself */
  if (!any && !(e - i == 8 && !memcmp(t + i, "variable", 8)))
    return NULL;
  struct lexeme type = {t + i, (uint32_t)(e - i), 0};
  struct vec *labels = vec_new(c);
  size_t end = e;
  for (;;) {
    size_t q = end;
    while (q < n && (t[q] == ' ' || t[q] == '\t'))
      q++;
    size_t f = q;
    struct ast *label;
    if (q < n && t[q] == '"') {
      f = q + 1;
      while (f < n && t[f] != '"' && t[f] != '\n' && t[f] != '\\' &&
             t[f] != '$' && t[f] != '%')
        f++;
      if (any && f < n && t[f] == '\n' && f >= at) {
        /* not closed on its line: HCL keeps what it read, from after
        ** the quote (and reads no more labels) */
        label =
            ast_new(c, AST_STRING, (struct span){(uint32_t)q + 1, (uint32_t)f});
        label->str = t + q + 1;
        label->n = (uint32_t)(f - q - 1);
        labels = vec_push(c, labels, label);
        end = f;
        break;
      }
      if (f >= n || t[f] != '"' || f + 1 > at)
        break;
      f++;
      label = ast_new(c, AST_STRING, (struct span){(uint32_t)q, (uint32_t)f});
      label->str = t + q + 1;
      label->n = (uint32_t)(f - q - 2);
    } else if (q < n && ident_start(t[q])) {
      f = name_end(c, q);
      if (f > at)
        break;
      label = ast_new(c, AST_STRING, (struct span){(uint32_t)q, (uint32_t)f});
      label->str = t + q;
      label->n = (uint32_t)(f - q);
    } else {
      break;
    }
    labels = vec_push(c, labels, label);
    end = f;
  }
  if (!any && !labels->n)
    return NULL; /* a later parse: only a named variable is sure enough */
  struct ast *body = ast_list(c, AST_BODY, vec_new(c),
                              (struct span){(uint32_t)end, (uint32_t)end});
  return ast_block(c, type, labels, body,
                   (struct span){(uint32_t)i, (uint32_t)end});
}

/* The block a syntax error at err is in, for the "in ..." of its
** diagnostics: it reaches up to the error. */
static void broken_block(struct parse_ctx *c, uint32_t err) {
  struct ast *stub = stub_block(c, err, true);
  if (stub)
    register_block_to(c, stub, err + 1);
}

/*
** After a syntax error at byte err, keep what HCL's recovery would keep:
** the items before it, the block the error is in, and the items of the
** rest of the file, parsed again from the next top-level line (errors of
** those later parses are not reported).
*/
static void recover_items(struct parse_ctx *c, struct ast_file *f,
                          struct vec *items, uint32_t err) {
  for (int round = 0; round < 64; round++) {
    if (f && f->partial)
      for (uint32_t i = 0; i < f->partial->n; i++)
        vec_push(c, items, f->partial->items[i]);
    /* a stray token between the top-level items: HCL gives up on the
    ** rest of the file there */
    if (round == 0 && !ident_start(c->src->text[err]) &&
        (err == 0 || c->src->text[err - 1] == '\n') &&
        block_line(c, err) == NO_BLOCK)
      return;
    struct ast *stub = stub_block(c, err, round == 0);
    if (stub) {
      vec_push(c, items, stub);
      register_block_to(c, stub, err + 1); /* it reaches up to the error */
    }
    /* the next line that starts a top-level item */
    const char *t = c->src->text;
    size_t i = err;
    while (i < c->src->len &&
           !(t[i] == '\n' && i + 1 < c->src->len && ident_start(t[i + 1])))
      i++;
    if (i >= c->src->len)
      return;
    struct parse_ctx r = {0};
    r.a = c->a;
    r.diags = tfr_diags_new(c->a);
    r.src = c->src;
    r.start = (uint32_t)i + 1;
    f = parse_hcl(&r);
    free(r.scratch);
    if (f && f->body && !r.failed) {
      for (uint32_t k = 0; k < f->body->n; k++)
        vec_push(c, items, f->body->items[k]);
      return;
    }
    if (!f)
      return;
    err = r.err_at;
  }
}

/* A parse of src, its tree in the arena tree. */
static struct parse_ctx config_ctx(struct src_file *src, tfr_arena *tree,
                                   tfr_diags *diags) {
  struct parse_ctx c = {0};
  c.a = tree;
  c.diags = diags;
  c.src = src;
  c.json = str_ends_with(src->name, ".json");
  return c;
}

struct ast_file *parse_config(struct src_file *src, tfr_arena *tree,
                              tfr_diags *diags, bool *complete) {
  *complete = false;
  struct parse_ctx c = config_ctx(src, tree, diags);
  struct ast_file *f = c.json ? parse_json(&c) : parse_hcl(&c);
  if (f && f->body && !c.failed && ast_check_depth(&c, f->body)) {
    *complete = true;
    register_blocks(&c, f->body);
    return f;
  }
  if (!f || c.json)
    return NULL;
  struct vec *items = vec_new(&c);
  recover_items(&c, f, items, c.err_at);
  vec_close(&c, items);
  struct ast *b = ast_new(&c, AST_BODY, (struct span){0, (uint32_t)src->len});
  b->items = items->v;
  b->n = items->n;
  free(c.scratch);
  /* what was recovered must still be bounded in depth */
  tfr_diags *scratch = tfr_diags_new(tree);
  struct parse_ctx d = c;
  d.diags = scratch;
  if (!ast_check_depth(&d, b))
    return NULL;
  f->body = b;
  register_blocks(&c, b);
  return f;
}

struct stream_ctx {
  struct parse_ctx *c;
  parse_item_fn item;
  void *ctx;
};

static bool stream_register(void *ud, const struct ast *x) {
  struct stream_ctx *s = ud;
  register_block(s->c, x);
  return s->item(s->ctx, x);
}

bool parse_config_stream(struct src_file *src, tfr_arena *tree,
                         tfr_diags *diags, parse_item_fn item, void *ctx) {
  struct parse_ctx c = config_ctx(src, tree, diags);
  struct stream_ctx s = {&c, item, ctx};
  return !c.json && parse_hcl_stream(&c, stream_register, &s);
}

const struct ast *parse_config_lazy(struct src_file *src, tfr_arena *tree,
                                    tfr_diags *diags, const struct ast *x) {
  struct parse_ctx c = config_ctx(src, tree, diags);
  return parse_lazy(&c, x);
}

/* A template or expression of text, as a source of its own named name;
** within (may be NULL) is the file holding it, at a string token. */
static struct ast_file *parse_text(tfr_arena *a, tfr_diags *diags,
                                   const char *name, const char *text,
                                   size_t len, struct src_file *within,
                                   struct span token, bool template) {
  char *copy = tfr_arena_alloc_raw(a, len + 2);
  memcpy(copy, text, len);
  copy[len] = copy[len + 1] = '\0';
  struct parse_ctx c = {0};
  c.a = a;
  c.diags = diags;
  c.src = src_new(a, name, copy, len);
  c.template_mode = template;
  c.expr_mode = !template;
  if (within) /* a template's text starts after the quote, as hcl's JSON
              ** parser places it; an expression's (a type) at the quote */
    c.src->base = src_pos(within, token.start + (template ? 1 : 0));
  else /* diagnostics quote this text; an embedded one, its file's */
    tfr_diags_add_source(diags, name, copy, len);
  if (!parse_check_utf8(&c))
    return NULL;
  struct ast_file *f = parse_hcl(&c);
  if (!f || !f->body || c.failed || !ast_check_depth(&c, f->body))
    return NULL;
  return f;
}

struct ast_file *parse_template(tfr_arena *a, tfr_diags *diags,
                                const char *name, const char *text,
                                size_t len) {
  return parse_text(a, diags, name, text, len, NULL, (struct span){0, 0}, true);
}

struct ast_file *parse_embedded(tfr_arena *a, tfr_diags *diags,
                                struct src_file *src, const struct ast *s,
                                bool template) {
  return parse_text(a, diags, src->name, s->str, s->n, src, s->span, template);
}

struct tfr_file *parse_bytes(tfr_arena *a, tfr_diags *diags, const char *name,
                             const char *text, size_t len,
                             enum tfr_syntax syntax) {
  struct src_file *src = parse_open(a, diags, NULL, name, text, len);
  return src ? parse_opened(a, diags, src, syntax) : NULL;
}

struct tfr_file *parse_bytes_expr(tfr_arena *a, tfr_diags *diags,
                                  const char *name, const char *text,
                                  size_t len) {
  struct src_file *src = parse_open(a, diags, NULL, name, text, len);
  return src ? parse_opened_expr(a, diags, src) : NULL;
}
