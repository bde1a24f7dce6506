/*
** Diagnostics: the list, and its renderers (Terraform's framed text, the
** JSON of SPEC §2, and a one-line form for tests and editors).
*/
#include "tfresolve/diag.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strutil.h"

#include "diag_int.h"
#include "json_out.h"
#include "render.h"

struct source_text {
  const char *name;
  const char *text;
  size_t len;
};

/* A top-level block of a configuration file: what "in ..." names. */
struct block_ctx {
  const char *file;
  uint32_t start, end;
};

struct tfr_diags {
  tfr_arena *a;
  struct tfr_diag *v;
  size_t n, cap;
  struct source_text *src;
  size_t nsrc, capsrc;
  struct block_ctx *blk;
  size_t nblk, capblk;
};

tfr_diags *tfr_diags_new(tfr_arena *a) {
  tfr_diags *d = tfr_arena_alloc(a, sizeof *d);
  d->a = a;
  return d;
}

size_t tfr_diags_count(const tfr_diags *d) { return d->n; }

const struct tfr_diag *tfr_diags_get(const tfr_diags *d, size_t i) {
  return i < d->n ? &d->v[i] : NULL;
}

bool tfr_diags_has_errors(const tfr_diags *d) {
  for (size_t i = 0; i < d->n; i++)
    if (d->v[i].sev == TFR_DIAG_ERROR)
      return true;
  return false;
}

/* Arena arrays grow by doubling; the old copy stays in the arena, which
** is fine for lists this small. */
static void *grow(tfr_arena *a, void *old, size_t n, size_t *cap, size_t size) {
  if (n < *cap)
    return old;
  size_t nc = *cap ? *cap * 2 : 8;
  void *p = tfr_arena_alloc(a, nc * size);
  if (n)
    memcpy(p, old, n * size);
  *cap = nc;
  return p;
}

void tfr_diags_add(tfr_diags *d, enum tfr_severity sev,
                   const struct tfr_range *subject, const char *summary,
                   const char *detail) {
  d->v = grow(d->a, d->v, d->n, &d->cap, sizeof *d->v);
  struct tfr_diag *g = &d->v[d->n++];
  memset(g, 0, sizeof *g);
  g->sev = sev;
  g->summary = tfr_arena_strdup(d->a, summary);
  g->detail = detail ? tfr_arena_strdup(d->a, detail) : NULL;
  if (subject) {
    g->subject = *subject;
    if (subject->filename)
      g->subject.filename = tfr_arena_strdup(d->a, subject->filename);
  }
}

void tfr_diags_add_source(tfr_diags *d, const char *filename, const char *text,
                          size_t len) {
  d->src = grow(d->a, d->src, d->nsrc, &d->capsrc, sizeof *d->src);
  d->src[d->nsrc++] = (struct source_text){filename, text, len};
}

void tfr_range_format(const struct tfr_range *r, char *buf, size_t size) {
  const char *f = r->filename ? r->filename : "";
  if (r->start.line == r->end.line)
    snprintf(buf, size, "%s:%d,%d-%d", f, r->start.line, r->start.column,
             r->end.column);
  else
    snprintf(buf, size, "%s:%d,%d-%d,%d", f, r->start.line, r->start.column,
             r->end.line, r->end.column);
}

static const struct source_text *find_source(const tfr_diags *d,
                                             const char *name) {
  if (!name)
    return NULL;
  for (size_t i = d->nsrc; i-- > 0;)
    if (strcmp(d->src[i].name, name) == 0)
      return &d->src[i];
  return NULL;
}

/*
** Terraform names the top-level block a diagnostic is in ("in variable
** "x""): the block whose range holds the byte before the subject.  Top-level
** blocks of a formatted file start with an identifier in column 1 and end
** with a "}" in column 1; that is what this looks for.  Files without
** blocks (tfvars) and subjects at a block's first byte get no context.
*/
void diags_add_block(tfr_diags *d, const char *file, uint32_t start,
                     uint32_t end) {
  /* the file's name once per run of blocks: the trees it comes from may
  ** be released block by block */
  const char *f = d->nblk && !strcmp(d->blk[d->nblk - 1].file, file)
                      ? d->blk[d->nblk - 1].file
                      : tfr_arena_strdup(d->a, file);
  d->blk = grow(d->a, d->blk, d->nblk, &d->capblk, sizeof *d->blk);
  d->blk[d->nblk++] = (struct block_ctx){f, start, end};
}

static bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '-' || (c & 0x80);
}

/* TYPE "label"... of the block header at start: its type and labels as
** the syntax tree has them (a quoted label's text, a bare one's name),
** each label quoted as Go's %q quotes it. */
static const char *block_header(tfr_arena *a, const struct source_text *st,
                                uint32_t start) {
  const char *t = st->text;
  size_t n = st->len, i = start;
  struct sbuf h = {0};
  while (i < n && ident_char(t[i]))
    i++;
  sbuf_put(&h, t + start, i - start);
  for (;;) {
    while (i < n && (t[i] == ' ' || t[i] == '\t'))
      i++;
    size_t b = i, e;
    if (i < n && t[i] == '"') {
      b = ++i;
      while (i < n && t[i] != '"' && t[i] != '\n')
        i += t[i] == '\\' && i + 1 < n ? 2 : 1;
      e = i;
      if (i < n && t[i] == '"')
        i++;
    } else if (i < n && ident_char(t[i])) {
      while (i < n && ident_char(t[i]))
        i++;
      e = i;
    } else {
      break;
    }
    sbuf_put(&h, " ", 1);
    sbuf_go_quote(&h, t + b, e - b);
  }
  const char *r = tfr_arena_strndup(a, h.p ? h.p : "", h.n);
  free(h.p);
  return r;
}

/* "in TYPE "label"": the top-level block of the file that holds the byte
** before at (Terraform asks HCL's ContextString about the subject's start
** minus one, so a subject that starts a block is not "in" it); NULL if
** none. */
static const char *block_context(const tfr_diags *d,
                                 const struct source_text *st, const char *file,
                                 size_t at) {
  if (at == 0 || !file || !st)
    return NULL;
  at--;
  for (size_t i = 0; i < d->nblk; i++)
    if (d->blk[i].start <= at && at < d->blk[i].end &&
        (d->blk[i].file == file || !strcmp(d->blk[i].file, file)))
      return block_header(d->a, st, d->blk[i].start);
  return NULL;
}

struct frame_chars {
  const char *top, *bar, *bottom;
};

/* A line longer than SNIPPET_LINE bytes is shown around its subject only:
** SNIPPET_AROUND bytes before and after it, and at most SNIPPET_SUBJECT
** bytes of the subject itself. */
#define SNIPPET_LINE 512
#define SNIPPET_AROUND 120
#define SNIPPET_SUBJECT 240

/* Back to the start of the UTF-8 character at i. */
static size_t char_start(const char *t, size_t i, size_t lo) {
  while (i > lo && ((unsigned char)t[i] & 0xC0) == 0x80)
    i--;
  return i;
}

/* A subject over several lines: every line of it, numbered, as Terraform
** shows it (the subject underlined in colour, no marker line); past
** SNIPPET_MAX_LINES lines, how many more, and a long line cut as
** render_snippet cuts it. */
#define SNIPPET_MAX_LINES 12

static void render_lines(FILE *out, const struct frame_chars *fc,
                         const struct source_text *st, const struct tfr_diag *g,
                         bool color) {
  const char *t = st->text;
  size_t b = g->subject.start.byte, sb = b, se = g->subject.end.byte;
  if (se > st->len)
    se = st->len;
  while (b > 0 && t[b - 1] != '\n')
    b--;
  int line = g->subject.start.line, last = g->subject.end.line;
  const char *dots = fc->bar[0] == '|' ? "..." : "…";
  for (; b < st->len && line <= last; line++) {
    size_t e = b;
    while (e < st->len && t[e] != '\n')
      e++;
    size_t shown = e - b > SNIPPET_LINE ? SNIPPET_LINE : e - b;
    while (shown < e - b && shown > 0 &&
           ((unsigned char)t[b + shown] & 0xC0) == 0x80)
      shown--;
    if (shown && t[b + shown - 1] == '\r')
      shown--;
    fprintf(out, "%s %4d: ", fc->bar, line);
    for (size_t i = b; i < b + shown; i++) {
      if (color && i == sb)
        fputs("\x1b[4m", out);
      putc(t[i], out);
      if (color && i + 1 == se)
        fputs("\x1b[0m", out);
    }
    if (color && se > b + shown && sb < b + shown)
      fputs("\x1b[0m", out);
    fprintf(out, "%s\n", shown < e - b && t[b + shown] != '\r' ? dots : "");
    b = e + 1;
    if (line - g->subject.start.line + 1 == SNIPPET_MAX_LINES && line < last) {
      fprintf(out, "%s       %s (%d more lines)\n", fc->bar, dots, last - line);
      break;
    }
  }
}

/*
** The source line of the subject, and a marker under the subject.  A long
** line (minified JSON, a line of junk) is shown around the subject only,
** with an ellipsis where it is cut, so that each diagnostic costs the same
** whatever the length of its line.
*/
static void render_snippet(FILE *out, const struct frame_chars *fc,
                           const struct source_text *st,
                           const struct tfr_diag *g, bool color) {
  size_t at = g->subject.start.byte;
  if (at > st->len)
    return;
  if (g->subject.end.line > g->subject.start.line && g->subject.end.byte > at) {
    render_lines(out, fc, st, g, color);
    return;
  }
  const char *t = st->text;
  size_t b = at, e = at;
  while (b > 0 && t[b - 1] != '\n' && at - b <= SNIPPET_LINE)
    b--;
  while (e < st->len && t[e] != '\n' && t[e] != '\r' && e - b <= SNIPPET_LINE)
    e++;
  size_t sb = at, se = g->subject.end.byte;
  if (g->subject.end.line != g->subject.start.line || se < sb)
    se = sb;
  bool cut_b = false, cut_e = false;
  if (e - b > SNIPPET_LINE) { /* a long line: around the subject */
    if (se - sb > SNIPPET_SUBJECT)
      se = sb + SNIPPET_SUBJECT;
    if (at - b > SNIPPET_AROUND) {
      b = char_start(t, at - SNIPPET_AROUND, 0);
      cut_b = true;
    }
    e = se > sb ? se : sb;
    while (e < st->len && t[e] != '\n' && t[e] != '\r' &&
           e - (se > sb ? se : sb) < SNIPPET_AROUND)
      e++;
    cut_e = e < st->len && t[e] != '\n' && t[e] != '\r';
    if (cut_e)
      e = char_start(t, e, sb);
  }
  if (se > e)
    se = e;
  if (se <= sb)
    se = sb + 1;
  const char *dots = fc->bar[0] == '|' ? "..." : "…";
  fprintf(out, "%s %4d: %s", fc->bar, g->subject.start.line, cut_b ? dots : "");
  fwrite(t + b, 1, sb - b, out);
  if (color && sb < e)
    fputs("\x1b[4m", out);
  fwrite(t + sb, 1, (se < e ? se : e) - sb, out);
  if (color && sb < e)
    fputs("\x1b[0m", out);
  if (se < e)
    fwrite(t + se, 1, e - se, out);
  fprintf(out, "%s\n%s       ", cut_e ? dots : "", fc->bar);
  if (cut_b)
    fputs(fc->bar[0] == '|' ? "   " : " ", out);
  for (size_t i = b; i < sb; i++) {
    unsigned char ch = (unsigned char)t[i];
    if ((ch & 0xC0) == 0x80)
      continue; /* one column per character */
    putc(ch == '\t' ? '\t' : ' ', out);
  }
  size_t width = 0;
  for (size_t i = sb; i < se; i++)
    if (((unsigned char)t[i] & 0xC0) != 0x80 || i >= e)
      width++;
  for (size_t i = 0; i < (width ? width : 1); i++)
    putc('^', out);
  putc('\n', out);
}

/* Whether diagnostics x and y say the same thing on the same line. */
static bool same_kind_and_line(const struct tfr_diag *x,
                               const struct tfr_diag *y) {
  return x->sev == y->sev && x->subject.filename && y->subject.filename &&
         !strcmp(x->subject.filename, y->subject.filename) &&
         x->subject.start.line == y->subject.start.line &&
         !strcmp(x->summary, y->summary);
}

/* Diagnostics alike on one line shown in full before the rest fold. */
#define MAX_LIKE_THIS 5

/*
** The caller's render options as this library's struct (resolution.h
** says how it grows).  NULL, or a size below the first sized layout,
** gives the defaults (zero: no colour, ASCII): there is no list to report
** to, and plain output still shows every diagnostic.
*/
static struct tfr_render_opts
read_render_opts(const struct tfr_render_opts *o) {
  static const size_t v1 = STRUCT_END(struct tfr_render_opts, unicode);
  struct tfr_render_opts r;
  if (!o || !mem_read_sized(&r, sizeof r, o, o->size, v1))
    r = (struct tfr_render_opts)TFR_RENDER_OPTS_INIT;
  return r;
}

void tfr_diags_render_text(const tfr_diags *d, FILE *out,
                           const struct tfr_render_opts *given) {
  const struct tfr_render_opts opts = read_render_opts(given);
  struct frame_chars fc = opts.unicode ? (struct frame_chars){"╷", "│", "╵"}
                                       : (struct frame_chars){",", "|", "'"};
  size_t run = 0; /* diagnostics like the previous one, in a row */
  for (size_t i = 0; i < d->n; i++) {
    const struct tfr_diag *g = &d->v[i];
    bool err = g->sev == TFR_DIAG_ERROR;
    const char *col = opts.color ? (err ? "\x1b[31m" : "\x1b[33m") : "";
    const char *bold = opts.color ? "\x1b[1m" : "";
    const char *reset = opts.color ? "\x1b[0m" : "";
    run = i && same_kind_and_line(g, &d->v[i - 1]) ? run + 1 : 0;
    fprintf(out, "%s%s%s\n", col, fc.top, reset);
    fprintf(out, "%s%s%s %s%s%s: %s%s%s\n", col, fc.bar, reset, bold, col,
            err ? "Error" : "Warning", reset, bold, g->summary);
    if (*reset)
      fputs(reset, out);
    if (run == MAX_LIKE_THIS) {
      /* the rest of a run on one line (a line of junk) in one frame */
      size_t j = i;
      while (j + 1 < d->n && same_kind_and_line(&d->v[j + 1], g))
        j++;
      fprintf(out,
              "%s%s%s\n%s%s%s %zu more like this on %s line %d, not "
              "shown (-json lists every one).\n%s%s%s\n",
              col, fc.bar, reset, col, fc.bar, reset, j - i + 1,
              g->subject.filename, g->subject.start.line, col, fc.bottom,
              reset);
      i = j;
      continue;
    }
    const struct source_text *st = find_source(d, g->subject.filename);
    if (g->subject.filename) {
      fprintf(out, "%s%s%s\n", col, fc.bar, reset);
      const char *ctx =
          block_context(d, st, g->subject.filename, g->subject.start.byte);
      fprintf(out, "%s%s%s   on %s line %d%s%s:\n", col, fc.bar, reset,
              g->subject.filename, g->subject.start.line, ctx ? ", in " : "",
              ctx ? ctx : "");
      if (st && !g->hide_source) {
        struct frame_chars bar = fc;
        render_snippet(out, &bar, st, g, opts.color);
      } else if (g->hide_source) {
        fprintf(out,
                "%s%s%s   (source not shown: it may hold a sensitive "
                "value)\n",
                col, fc.bar, reset);
      }
    }
    for (int part = 0; part < 2; part++) {
      const char *p = part ? g->note : g->detail;
      if (!p || !*p)
        continue;
      fprintf(out, "%s%s%s\n", col, fc.bar, reset);
      while (*p) {
        const char *nl = strchr(p, '\n');
        size_t k = nl ? (size_t)(nl - p) : strlen(p);
        if (k)
          fprintf(out, "%s%s%s %.*s\n", col, fc.bar, reset, (int)k, p);
        else
          fprintf(out, "%s%s%s\n", col, fc.bar, reset);
        p += k + (nl ? 1 : 0);
      }
    }
    fprintf(out, "%s%s%s\n", col, fc.bottom, reset);
  }
}

const char *diags_error_text(tfr_arena *a, const tfr_diags *d, size_t at) {
  const struct tfr_diag *g = tfr_diags_get(d, at);
  if (!g)
    return "";
  char where[512] = "";
  if (g->subject.filename)
    tfr_range_format(&g->subject, where, sizeof where);
  const char *text = tfr_arena_printf(a, "%s: %s; %s", where, g->summary,
                                      g->detail ? g->detail : "");
  size_t more = tfr_diags_count(d) - at;
  if (more > 1)
    text =
        tfr_arena_printf(a, "%s, and %zu other diagnostic(s)", text, more - 1);
  return text;
}

void tfr_range_write_json(FILE *out, const struct tfr_range *r) {
  char b[512];
  struct json_out o = {out, 0, sizeof b, b, NULL};
  render_json_range(&o, r);
  jo_flush(&o);
}

void diags_share_blocks(tfr_diags *d, const tfr_diags *from) {
  for (size_t i = 0; i < from->nblk; i++) {
    d->blk = grow(d->a, d->blk, d->nblk, &d->capblk, sizeof *d->blk);
    d->blk[d->nblk++] = from->blk[i];
  }
}

void tfr_diags_share_sources(tfr_diags *d, const tfr_diags *from) {
  for (size_t i = 0; i < from->nsrc; i++) {
    d->src = grow(d->a, d->src, d->nsrc, &d->capsrc, sizeof *d->src);
    d->src[d->nsrc++] = from->src[i];
  }
  diags_share_blocks(d, from);
}

tfr_diags *tfr_diags_of_variable(tfr_arena *a, const tfr_diags *d,
                                 const char *name) {
  tfr_diags *out = tfr_diags_new(a);
  out->src = d->src; /* the same sources, for the excerpts */
  out->nsrc = out->capsrc = d->nsrc;
  out->blk = d->blk; /* and the same blocks, for "in ..." */
  out->nblk = out->capblk = d->nblk;
  for (size_t i = 0; i < d->n; i++)
    if (d->v[i].variable && !strcmp(d->v[i].variable, name)) {
      out->v = grow(a, out->v, out->n, &out->cap, sizeof *out->v);
      out->v[out->n++] = d->v[i];
    }
  return out;
}

void tfr_diags_render_json(const tfr_diags *d, FILE *out) {
  fputc('[', out);
  for (size_t i = 0; i < d->n; i++) {
    const struct tfr_diag *g = &d->v[i];
    fputs(i ? ",\n  {" : "\n  {", out);
    fprintf(out, "\"severity\": \"%s\", \"summary\": ",
            g->sev == TFR_DIAG_ERROR ? "error" : "warning");
    json_write_cstr(out, g->summary);
    fputs(", \"detail\": ", out);
    json_write_cstr(out, g->detail ? g->detail : "");
    if (g->variable) {
      fputs(", \"variable\": ", out);
      json_write_cstr(out, g->variable);
    }
    if (g->subject.filename) {
      fputs(", \"range\": ", out);
      tfr_range_write_json(out, &g->subject);
    }
    if (g->note) {
      fputs(", \"note\": ", out);
      json_write_cstr(out, g->note);
    }
    if (g->ours)
      fputs(", \"origin\": \"tfresolve\"", out);
    fputc('}', out);
  }
  fputs(d->n ? "\n]" : "]", out);
}

void tfr_diags_render_short(const tfr_diags *d, FILE *out) {
  for (size_t i = 0; i < d->n; i++) {
    const struct tfr_diag *g = &d->v[i];
    const char *sev = g->sev == TFR_DIAG_ERROR ? "error" : "warning";
    if (g->subject.filename)
      fprintf(out, "%s:%d:%d: %s: %s\n", g->subject.filename,
              g->subject.start.line, g->subject.start.column, sev, g->summary);
    else
      fprintf(out, "%s: %s\n", sev, g->summary);
  }
}

void diags_remove(tfr_diags *d, size_t from, size_t to) {
  if (to > d->n)
    to = d->n;
  if (from >= to)
    return;
  memmove(d->v + from, d->v + to, (d->n - to) * sizeof *d->v);
  d->n -= to - from;
}

void diags_move_to_end(tfr_diags *d, size_t from, size_t to) {
  if (to > d->n)
    to = d->n;
  if (from >= to || to == d->n)
    return;
  size_t k = to - from;
  struct tfr_diag *tmp = malloc(k * sizeof *tmp);
  if (!tmp)
    return; /* the order only: keep it as it is */
  memcpy(tmp, d->v + from, k * sizeof *tmp);
  memmove(d->v + from, d->v + to, (d->n - to) * sizeof *d->v);
  memcpy(d->v + d->n - k, tmp, k * sizeof *tmp);
  free(tmp);
}

void tfr_diags_set_variable(tfr_diags *d, const char *name) {
  if (d->n)
    d->v[d->n - 1].variable = name ? tfr_arena_strdup(d->a, name) : NULL;
}

void tfr_diags_set_code(tfr_diags *d, enum tfr_diag_code code) {
  if (d->n)
    d->v[d->n - 1].code = code;
}

void tfr_diags_set_note(tfr_diags *d, const char *note) {
  if (d->n)
    d->v[d->n - 1].note = note ? tfr_arena_strdup(d->a, note) : NULL;
}

void tfr_diags_set_ours(tfr_diags *d) {
  if (d->n)
    d->v[d->n - 1].ours = true;
}

void tfr_diags_set_variable_at(tfr_diags *d, size_t i, const char *name) {
  if (i < d->n)
    d->v[i].variable = name ? tfr_arena_strdup(d->a, name) : NULL;
}

void tfr_diags_hide_source(tfr_diags *d) {
  if (d->n)
    d->v[d->n - 1].hide_source = true;
}
