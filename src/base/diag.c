/*
** Diagnostics: the list (its renderers are in render/render_diag.c).
*/
#include "tfresolve/diag.h"
#include "base/heap.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/strutil.h"

#include "base/diag_int.h"

tfr_diags *tfr_diags_new(tfr_arena *a) {
  tfr_diags *d = tfr_arena_alloc(a, sizeof *d);
  d->a = a;
  return d;
}

size_t tfr_diags_count(const tfr_diags *d) { return d->n; }

const struct tfr_diag *tfr_diags_get(const tfr_diags *d, size_t i) {
  return i < d->n ? &d->v[i] : NULL;
}

struct tfr_diag *diags_at(tfr_diags *d, size_t i) {
  return &d->v[i];
}

bool tfr_diags_has_errors(const tfr_diags *d) {
  for (size_t i = 0; i < d->n; i++)
    if (d->v[i].sev == TFR_DIAG_ERROR)
      return true;
  return false;
}

void diags_keep(tfr_diags *d, const bool *keep) {
  size_t k = 0;
  for (size_t i = 0; i < d->n; i++)
    if (keep[i])
      d->v[k++] = d->v[i];
  d->n = k;
}

void diags_set_strict(tfr_diags *d) {
  if (d->n)
    d->v[d->n - 1].strict = true;
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
    /* a range runs forward: renderers quote from start to end */
    assert(!subject->filename || (subject->start.byte <= subject->end.byte &&
                                  subject->start.line <= subject->end.line));
    g->subject = *subject;
    if (subject->filename)
      g->subject.filename = tfr_arena_strdup(d->a, subject->filename);
  }
}

/* A copy of s in d's arena, or NULL. */
static const char *dup_or_null(tfr_diags *d, const char *s) {
  return s ? tfr_arena_strdup(d->a, s) : NULL;
}

void tfr_diags_add_full(tfr_diags *d, const struct tfr_diag *g) {
  tfr_diags_add(d, g->sev, &g->subject, g->summary ? g->summary : "",
                g->detail);
  struct tfr_diag *c = &d->v[d->n - 1];
  c->variable = dup_or_null(d, g->variable);
  c->hide_source = g->hide_source;
  c->code = g->code;
  c->note = dup_or_null(d, g->note);
  c->ours = g->ours;
  c->strict = g->strict;
  c->third_party = g->third_party;
  c->element = g->element;
  c->element.filename = dup_or_null(d, g->element.filename);
  c->module = dup_or_null(d, g->module);
  diags_set_values(d, g->values, g->nvalues);
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

const struct source_text *diags_find_source(const tfr_diags *d,
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

void diags_share_blocks(tfr_diags *d, const tfr_diags *from) {
  for (size_t i = 0; i < from->nblk; i++) {
    d->blk = grow(d->a, d->blk, d->nblk, &d->capblk, sizeof *d->blk);
    d->blk[d->nblk++] = from->blk[i];
  }
}

void diags_append(tfr_diags *d, const tfr_diags *from) {
  if (d == from)
    return;
  for (size_t i = 0; i < from->n; i++) {
    d->v = grow(d->a, d->v, d->n, &d->cap, sizeof *d->v);
    d->v[d->n++] = from->v[i];
  }
  tfr_diags_share_sources(d, from); /* for later ones about its files */
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
  return tfr_diags_of_instance(a, d, name, NULL);
}

tfr_diags *tfr_diags_of_instance(tfr_arena *a, const tfr_diags *d,
                                 const char *name, const char *module) {
  tfr_diags *out = tfr_diags_new(a);
  out->src = d->src; /* the same sources, for the excerpts */
  out->nsrc = out->capsrc = d->nsrc;
  out->blk = d->blk; /* and the same blocks, for "in ..." */
  out->nblk = out->capblk = d->nblk;
  for (size_t i = 0; i < d->n; i++)
    if (d->v[i].variable && !strcmp(d->v[i].variable, name) &&
        !strcmp(d->v[i].module ? d->v[i].module : "", module ? module : "")) {
      out->v = grow(a, out->v, out->n, &out->cap, sizeof *out->v);
      out->v[out->n++] = d->v[i];
    }
  return out;
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
  struct tfr_diag *tmp = heap_alloc(k * sizeof *tmp);
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

bool diags_errors_since(const tfr_diags *d, size_t before) {
  for (size_t i = before; i < d->n; i++)
    if (d->v[i].sev == TFR_DIAG_ERROR && !d->v[i].strict)
      return true;
  return false;
}

void tfr_diags_set_ours(tfr_diags *d) {
  if (d->n)
    d->v[d->n - 1].ours = true;
}

void diags_set_values(tfr_diags *d, const struct tfr_diag_value *v, size_t n) {
  if (!d->n || !n)
    return;
  struct tfr_diag_value *c = tfr_arena_alloc(d->a, n * sizeof *c);
  for (size_t i = 0; i < n; i++)
    c[i] = (struct tfr_diag_value){tfr_arena_strdup(d->a, v[i].traversal),
                                   tfr_arena_strdup(d->a, v[i].statement)};
  d->v[d->n - 1].values = c;
  d->v[d->n - 1].nvalues = n;
}

void tfr_diags_set_variable_at(tfr_diags *d, size_t i, const char *name) {
  if (i < d->n)
    d->v[i].variable = name ? tfr_arena_strdup(d->a, name) : NULL;
}

void diags_set_module_since(tfr_diags *d, size_t from, const char *addr) {
  const char *copy = NULL;
  for (size_t i = from; i < d->n; i++)
    if (!d->v[i].module) {
      if (!copy)
        copy = tfr_arena_strdup(d->a, addr);
      d->v[i].module = copy;
    }
}

void diags_unset_root_module(tfr_diags *d, size_t from) {
  for (size_t i = from; i < d->n; i++)
    if (d->v[i].module && !*d->v[i].module)
      d->v[i].module = NULL;
}

void tfr_diags_hide_source(tfr_diags *d) {
  if (d->n)
    d->v[d->n - 1].hide_source = true;
}
