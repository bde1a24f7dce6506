/*
** Diagnostics rendered: Terraform's framed text, the JSON of
*doc/json-format.md, and
** a one-line form for tests and editors (the list is base/diag.c's).
*/
#include "tfresolve/diag.h"
#include "base/heap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag_int.h"
#include "base/gowrap.h"
#include "base/json_out.h"
#include "base/strutil.h"
#include "render/render.h"
#include "values/secret.h"

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

/* The blocks of d sorted by file and start, for block_context's binary
** search (a file of 40,000 blocks and as many diagnostics took seconds
** to render, each diagnostic looking through every block); linear: some
** file has blocks that overlap, and they are searched in d's order, the
** first that holds the byte, as they always were. */
struct blocks {
  const struct block_ctx **v;
  size_t n;
  bool linear;
};

static int cmp_block(const void *x, const void *y) {
  const struct block_ctx *a = *(const struct block_ctx *const *)x,
                         *b = *(const struct block_ctx *const *)y;
  int c = a->file == b->file ? 0 : strcmp(a->file, b->file);
  if (c)
    return c;
  if (a->start != b->start)
    return a->start < b->start ? -1 : 1;
  return a->end < b->end ? -1 : a->end > b->end;
}

static void blocks_init(struct blocks *bx, const tfr_diags *d) {
  bx->n = d->nblk;
  bx->v = heap_alloc((bx->n ? bx->n : 1) * sizeof *bx->v);
  for (size_t i = 0; i < bx->n; i++)
    bx->v[i] = &d->blk[i];
  qsort(bx->v, bx->n, sizeof *bx->v, cmp_block);
  bx->linear = false;
  for (size_t i = 1; i < bx->n && !bx->linear; i++) {
    const struct block_ctx *p = bx->v[i - 1], *c = bx->v[i];
    bool same_file = p->file == c->file || !strcmp(p->file, c->file);
    bool same = same_file && p->start == c->start && p->end == c->end;
    bx->linear = same_file && !same && c->start < p->end;
  }
}

/* The block of file that holds byte at, or NULL. */
static const struct block_ctx *block_at(const tfr_diags *d,
                                        const struct blocks *bx,
                                        const char *file, size_t at) {
  if (bx->linear) {
    for (size_t i = 0; i < d->nblk; i++)
      if (d->blk[i].start <= at && at < d->blk[i].end &&
          (d->blk[i].file == file || !strcmp(d->blk[i].file, file)))
        return &d->blk[i];
    return NULL;
  }
  size_t lo = 0, hi = bx->n; /* the last block at or before (file, at) */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(bx->v[mid]->file, file);
    if (c < 0 || (c == 0 && bx->v[mid]->start <= at))
      lo = mid + 1;
    else
      hi = mid;
  }
  const struct block_ctx *b = lo ? bx->v[lo - 1] : NULL;
  return b && at < b->end && !strcmp(b->file, file) ? b : NULL;
}

/* "in TYPE "label"": the top-level block of the file that holds the byte
** before at (Terraform asks HCL's ContextString about the subject's start
** minus one, so a subject that starts a block is not "in" it); NULL if
** none. */
static const char *block_context(const tfr_diags *d, const struct blocks *bx,
                                 const struct source_text *st, const char *file,
                                 size_t at) {
  if (at == 0 || !file || !st)
    return NULL;
  const struct block_ctx *b = block_at(d, bx, file, at - 1);
  return b ? block_header(d->a, st, b->start) : NULL;
}

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
** shows it (the subject underlined in colour); past SNIPPET_MAX_LINES
** lines, how many more, and a long line cut as render_snippet cuts it. */
#define SNIPPET_MAX_LINES 12

static void render_lines(FILE *out, const char *dots,
                         const struct source_text *st, const struct tfr_diag *g,
                         bool color) {
  const char *t = st->text;
  size_t b = g->subject.start.byte, sb = b, se = g->subject.end.byte;
  if (se > st->len)
    se = st->len;
  while (b > 0 && t[b - 1] != '\n')
    b--;
  int line = g->subject.start.line, last = g->subject.end.line;
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
    fprintf(out, "%4d: ", line);
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
      fprintf(out, "      %s (%d more lines)\n", dots, last - line);
      break;
    }
  }
}

/*
** The source line of the subject, numbered as Terraform numbers it; the
** subject is underlined in colour, and marked by nothing else (Terraform
** draws no marker line).  A long line (minified JSON, a line of junk) is
** shown around the subject only, with an ellipsis where it is cut, so
** that each diagnostic costs the same whatever the length of its line.
*/
static void render_snippet(FILE *out, const char *dots,
                           const struct source_text *st,
                           const struct tfr_diag *g, bool color) {
  size_t at = g->subject.start.byte;
  if (at > st->len)
    return;
  if (g->subject.end.line > g->subject.start.line && g->subject.end.byte > at) {
    render_lines(out, dots, st, g, color);
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
  fprintf(out, "%4d: %s", g->subject.start.line, cut_b ? dots : "");
  fwrite(t + b, 1, sb - b, out);
  if (color && sb < e)
    fputs("\x1b[4m", out);
  fwrite(t + sb, 1, (se < e ? se : e) - sb, out);
  if (color && sb < e)
    fputs("\x1b[0m", out);
  if (se < e)
    fwrite(t + se, 1, e - se, out);
  fprintf(out, "%s\n", cut_e ? dots : "");
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

static size_t count_slashes(const char *s) {
  size_t n = 0;
  for (; *s; s++)
    n += *s == '/';
  return n;
}

/*
** Terraform's order of diagnostics (tfdiags' sortDiagnostics.Less, which
** View.Diagnostics applies with sort.Stable before printing): warnings
** before errors, sourceless before sourced, then by file (fewer path
** separators first, then by name), then by the subject's start byte and
** its end byte.  Anything else keeps the order of the list.
*/
static bool diag_before(const struct tfr_diag *x, const struct tfr_diag *y) {
  if (x->sev != y->sev)
    return x->sev == TFR_DIAG_WARNING;
  const char *xf = x->subject.filename, *yf = y->subject.filename;
  if (!xf || !yf)
    return !xf && yf;
  int c = strcmp(xf, yf);
  if (c) {
    size_t xs = count_slashes(xf), ys = count_slashes(yf);
    return xs != ys ? xs < ys : c < 0;
  }
  if (x->subject.start.byte != y->subject.start.byte)
    return x->subject.start.byte < y->subject.start.byte;
  return x->subject.end.byte < y->subject.end.byte;
}

/* A stable merge sort of the indexes ix[0..n) of d's diagnostics, in
** diag_before's order; tmp has room for n. */
static void sort_diags(const tfr_diags *d, size_t *ix, size_t *tmp, size_t n) {
  for (size_t w = 1; w < n; w *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * w) {
      size_t mid = lo + w < n ? lo + w : n,
             hi = lo + 2 * w < n ? lo + 2 * w : n;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        tmp[k++] = diag_before(&d->v[ix[j]], &d->v[ix[i]]) ? ix[j++] : ix[i++];
      while (i < mid)
        tmp[k++] = ix[i++];
      while (j < hi)
        tmp[k++] = ix[j++];
    }
    memcpy(ix, tmp, n * sizeof *ix);
  }
}

/*
** Terraform's ConsolidateWarnings(1), which View.Diagnostics applies to
** the sorted list: every warning of Terraform's (not ours) with a source
** range whose summary an earlier one had is folded into that first one, which
*says how many it
** stands for (more[i]).  Errors and sourceless warnings stay as they are.
** ix keeps the diagnostics shown; the count of them is returned.
*/
static size_t consolidate_warnings(const tfr_diags *d, size_t *ix, size_t *more,
                                   size_t n) {
  struct strmap first = {0};
  size_t kept = 0;
  for (size_t i = 0; i < n; i++) {
    const struct tfr_diag *g = &d->v[ix[i]];
    size_t at;
    /* Terraform's warnings only: ours are each worth reading (a misspelt
    ** attribute is shown by name, issue 37) */
    if (g->sev == TFR_DIAG_WARNING && g->subject.filename && !g->ours &&
        !strmap_add(&first, g->summary, kept, &at)) {
      more[at]++;
      continue;
    }
    more[kept] = 0;
    ix[kept++] = ix[i];
  }
  strmap_free(&first);
  return kept;
}

/* What warningGroup.Description appends to the first warning's detail. */
static const char *similar_text(size_t more, char *buf, size_t size) {
  if (more == 1)
    return "(and one more similar warning elsewhere)";
  snprintf(buf, size, "(and %zu more similar warnings elsewhere)", more);
  return buf;
}

struct frame {
  const char *top, *bar, *bottom, *dots;
  const char *col, *reset; /* the severity's colour, or "" */
};

/*
** The values of the expression's references, under the source line as
** format.Diagnostic's writeSnippet lists them: a rule, then one line per
** traversal (already sorted).
*/
static void render_values(FILE *out, const struct tfr_diag *g,
                          const struct frame *fr, bool color) {
  if (!g->nvalues)
    return;
  bool u = fr->bar[0] != '|';
  const char *gray = color ? "\x1b[90m" : "", *bold = color ? "\x1b[1m" : "",
             *reset = color ? "\x1b[0m" : "";
  fprintf(out, "    %s%s%s\n", gray,
          u ? "├────────────────" : "|----------------", reset);
  for (size_t i = 0; i < g->nvalues; i++)
    fprintf(out, "    %s%s%s %s%s%s %s\n", gray, u ? "│" : "|", reset, bold,
            g->values[i].traversal, reset, g->values[i].statement);
}

/*
** The detail as DiagnosticPlain writes it: line by line, a line that does
** not start with a space without colorstring's tags and word-wrapped at
** width - 1 columns (only when width > 1: else as it is).  (Framed, it is
** written as it is: render_one.)
*/
static void write_plain_detail(FILE *out, const char *detail, unsigned width) {
  if (width <= 1) {
    fprintf(out, "%s\n", detail);
    return;
  }
  struct sbuf line = {0}, wrapped = {0};
  for (const char *p = detail;;) {
    const char *nl = strchr(p, '\n');
    size_t k = nl ? (size_t)(nl - p) : strlen(p);
    if (*p == ' ' || !k) {
      fwrite(p, 1, k, out);
    } else {
      line.n = wrapped.n = 0;
      go_colorstring_plain(&line, p, k);
      go_wrap_string(&wrapped, line.p ? line.p : "", line.n, width - 1);
      if (wrapped.n)
        fwrite(wrapped.p, 1, wrapped.n, out);
    }
    putc('\n', out);
    if (!nl)
      break;
    p = nl + 1;
  }
  free(line.p);
  free(wrapped.p);
}

/*
** The text of one diagnostic up to its detail, as format.Diagnostic builds
** it inside its frame and DiagnosticPlain without one: "Error: " and the
** summary, a blank line, then for a source range "  on FILE line N, in
** BLOCK:" with the source lines and a blank line.  No frame: the framer
** adds it.
*/
static void diag_head(FILE *out, const tfr_diags *d, const struct blocks *bx,
                      const struct tfr_diag *g, const struct frame *fr,
                      const struct tfr_render_opts *o) {
  bool err = g->sev == TFR_DIAG_ERROR;
  const char *bold = o->color ? "\x1b[1m" : "";
  fprintf(out, "%s%s%s: %s%s%s%s\n\n", bold, fr->col, err ? "Error" : "Warning",
          fr->reset, bold, g->summary, fr->reset);
  const struct source_text *st =
      g->subject.filename ? diags_find_source(d, g->subject.filename) : NULL;
  if (g->subject.filename && !st) {
    /* no snippet, hence no values either: an empty range (a child's
    ** variable no argument sets) or a file that was not read
    ** (command/format/diagnostic.go:255-261) */
    fprintf(out, "  on %s line %d:\n  (source code not available)\n\n",
            g->subject.filename, g->subject.start.line);
  } else if (g->subject.filename) {
    const char *ctx =
        block_context(d, bx, st, g->subject.filename, g->subject.start.byte);
    fprintf(out, "  on %s line %d%s%s:\n", g->subject.filename,
            g->subject.start.line, ctx ? ", in " : "", ctx ? ctx : "");
    if (!g->hide_source)
      render_snippet(out, fr->dots, st, g, o->color);
    render_values(out, g, fr, o->color);
    fputc('\n', out);
  }
}

/* The detail, with what a consolidated warning stands for
** (warningGroup.Description's addition; built in *buf, which the caller
** frees).  The detail itself is not copied: a detail of many megabytes (a
** path read from the manifest) is written as it is. */
static const char *full_detail(const struct tfr_diag *g, size_t more,
                               struct sbuf *buf) {
  const char *detail = g->detail ? g->detail : "";
  if (!more)
    return detail;
  char text[80];
  sbuf_str(buf, detail);
  sbuf_str(buf, *detail ? "\n\n" : "");
  sbuf_str(buf, similar_text(more, text, sizeof text));
  return buf->p;
}

/* Lines written behind a frame's bar as they come, a piece at a time (a
** line with nothing after the bar has no space either); mid: a line is
** begun and not yet ended. */
struct framer {
  FILE *out;
  const struct frame *fr;
  bool mid;
};

static void frame_feed(struct framer *f, const char *text, size_t len) {
  for (size_t i = 0; i < len;) {
    const char *nl = memchr(text + i, '\n', len - i);
    size_t k = nl ? (size_t)(nl - (text + i)) : len - i;
    if (!f->mid)
      fprintf(f->out, "%s%s%s%s", f->fr->col, f->fr->bar, f->fr->reset,
              k ? " " : "");
    fwrite(text + i, 1, k, f->out);
    f->mid = !nl;
    if (nl)
      putc('\n', f->out);
    i += k + (nl != NULL);
  }
}

/* What tfresolve says beyond Terraform's words, on lines of its own after
** the diagnostic: a source line not quoted, and the diagnostic's note. */
static void after_frame(FILE *out, const struct tfr_diag *g, bool plain) {
  bool hidden = g->subject.filename && g->hide_source;
  bool child = g->module && *g->module; /* Terraform does not say which */
  if (plain && (hidden || child || (g->note && *g->note)))
    putc('\n', out); /* apart from Terraform's detail, with no frame */
  if (hidden)
    fprintf(out, "%s\n", SECRET_SOURCE_NOTE);
  if (child)
    fprintf(out, "(in %s)\n", g->module);
  if (g->note && *g->note)
    fprintf(out, "%s\n", g->note);
}

/*
** One diagnostic and what follows it.  Plain, as DiagnosticPlain: a blank
** line, then the text with no frame (and no colour).  Framed, as
** format.Diagnostic: the text behind the frame's bar, the part before the
** detail built first, the detail framed as it is.
*/
static void render_one(FILE *out, const tfr_diags *d, const struct blocks *bx,
                       const struct tfr_diag *g, size_t more, struct frame fr,
                       const struct tfr_render_opts *o) {
  bool err = g->sev == TFR_DIAG_ERROR;
  fr.col = o->color ? (err ? "\x1b[31m" : "\x1b[33m") : "";
  fr.reset = o->color ? "\x1b[0m" : "";
  struct sbuf buf = {0};
  const char *detail = full_detail(g, more, &buf);
  if (o->plain) {
    putc('\n', out);
    diag_head(out, d, bx, g, &fr, o);
    if (*detail)
      write_plain_detail(out, detail, o->width);
    free(buf.p);
    after_frame(out, g, true);
    return;
  }
  char *head = NULL;
  size_t len = 0;
  FILE *m = heap_memstream(&head, &len);
  diag_head(m, d, bx, g, &fr, o);
  heap_memstream_close(m);
  fprintf(out, "%s%s%s\n", fr.col, fr.top, fr.reset);
  struct framer f = {out, &fr, false};
  frame_feed(&f, head, len);
  if (*detail) {
    frame_feed(&f, detail, strlen(detail));
    frame_feed(&f, "\n", 1);
  }
  fprintf(out, "%s%s%s\n", fr.col, fr.bottom, fr.reset);
  free(head);
  free(buf.p);
  after_frame(out, g, false);
}

void tfr_diags_render_text(const tfr_diags *d, FILE *out,
                           const struct tfr_render_opts *given) {
  struct tfr_render_opts opts = read_render_opts(given);
  if (opts.plain)
    opts.color = false; /* DiagnosticPlain: disabledColorize */
  struct frame fr = opts.unicode ? (struct frame){"╷", "│", "╵", "…", "", ""}
                                 : (struct frame){",", "|", "'", "...", "", ""};
  size_t n = d->n;
  size_t *ix = heap_alloc((3 * n + 1) * sizeof *ix);
  size_t *tmp = ix + n, *more = ix + 2 * n;
  for (size_t i = 0; i < n; i++)
    ix[i] = i;
  sort_diags(d, ix, tmp, n);
  n = consolidate_warnings(d, ix, more, n);
  struct blocks bx;
  blocks_init(&bx, d);
  size_t run = 0; /* diagnostics like the previous one, in a row */
  for (size_t i = 0; i < n; i++) {
    const struct tfr_diag *g = &d->v[ix[i]];
    run = i && same_kind_and_line(g, &d->v[ix[i - 1]]) ? run + 1 : 0;
    if (run == MAX_LIKE_THIS) {
      /* the rest of a run on one line (a line of junk): one line */
      size_t j = i;
      while (j + 1 < n && same_kind_and_line(&d->v[ix[j + 1]], g))
        j++;
      fprintf(out,
              "%zu more like this on %s line %d, not shown (-json lists "
              "every one).\n",
              j - i + 1, g->subject.filename, g->subject.start.line);
      i = j;
      continue;
    }
    render_one(out, d, &bx, g, more[i], fr, &opts);
  }
  free(bx.v);
  free(ix);
}

void tfr_range_write_json(FILE *out, const struct tfr_range *r) {
  char b[512];
  struct json_out o = {out, 0, sizeof b, b, NULL};
  render_json_range(&o, r);
  jo_flush(&o);
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
    if (g->module) {
      fputs(", \"module\": ", out);
      json_write_cstr(out, g->module);
    }
    if (g->subject.filename) {
      fputs(", \"range\": ", out);
      tfr_range_write_json(out, &g->subject);
    }
    if (g->element.filename) { /* format 1.4: where the element is written */
      fputs(", \"element\": ", out);
      tfr_range_write_json(out, &g->element);
    }
    if (g->note) {
      fputs(", \"note\": ", out);
      json_write_cstr(out, g->note);
    }
    if (g->ours)
      fputs(", \"origin\": \"tfresolve\"", out);
    if (g->strict)
      fputs(", \"strict\": true", out);
    if (g->third_party)
      fputs(", \"third_party\": true", out);
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
