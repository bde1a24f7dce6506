/*
** Types as text for people: a short one on its line, a long one folded as
** `terraform fmt` lays out a type constraint (explain, and the language
** server's hover), optional() attributes with their defaults when the
** caller can say them.
*/
#include "cli.h"
#include "cli_types.h"
#include "cli_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cli_text_head(tfr_arena *a, const char *s, size_t n, size_t keep,
                          size_t *lines) {
  n = strnlen(s, n); /* (a text ends at a NUL byte, as printed) */
  size_t newlines = 0, cut = n;
  for (const char *p = s; (p = memchr(p, '\n', n - (size_t)(p - s))); p++)
    if (++newlines == keep)
      cut = (size_t)(p - s);
  *lines = newlines + 1;
  return tfr_arena_strndup(a, s, cut);
}

/* A type expression longer than this is folded over several lines, and a
** folded type's lines are kept within it where its parts allow. */
enum { TYPE_WIDTH = 72 };

/* A tuple type whose expression is longer than this is only described
** ("tuple of N elements"): the tuple of a literal list of thousands of
** objects tells nothing more written out. */
enum { TUPLE_MAX = 200 };

/* What is being written: the defaults of optional() attributes (NULL:
** none said), and the attribute path of the type at hand (".a[0].b", as
** tfr_resolution_attr_default names it) while there are defaults. */
struct tf {
  tfr_arena *a;
  const struct cli_type_defaults *d;
};

/* The path of t's i-th part below path (NULL: no defaults to look up). */
static const char *sub(const struct tf *c, const tfr_type *t, const char *path,
                       size_t i) {
  if (!c->d || !path)
    return NULL;
  switch (t->kind) {
  case TFR_OBJECT:
    return tfr_arena_printf(c->a, "%s.%s", path, t->names[i]);
  case TFR_MAP:
    return tfr_arena_printf(c->a, "%s.key", path);
  case TFR_TUPLE:
    return tfr_arena_printf(c->a, "%s[%zu]", path, i);
  default:
    return tfr_arena_printf(c->a, "%s[0]", path);
  }
}

/* The default of object t's i-th attribute, as written after the type in
** optional(T, DEFAULT), or NULL. */
static const char *dflt(const struct tf *c, const tfr_type *t, const char *path,
                        size_t i) {
  if (!c->d || !path || !cli_attr_optional(t, i))
    return NULL;
  return c->d->text(c->d->ctx, sub(c, t, path, i));
}

/* The length of the expression of t, counted only up to just past limit
** (a type can be megabytes long); spaced as cli_type_flat when flat. */
static size_t type_len(const struct tf *c, const tfr_type *t, const char *path,
                       size_t limit, bool flat) {
  size_t n;
  switch (t->kind) {
  case TFR_LIST:
  case TFR_SET:
  case TFR_MAP:
    return strlen(cli_type_word(t)) + 2 +
           type_len(c, t->elem, sub(c, t, path, 0), limit, flat);
  case TFR_OBJECT:
  case TFR_TUPLE:
    /* "object({ " " })" (empty: "object({})"), "tuple([" "])" */
    n = t->kind == TFR_TUPLE ? 9 : !flat ? 10 : t->n ? 12 : 10;
    for (size_t i = 0; i < t->n && n <= limit; i++) {
      n += (i > 0 ? flat ? 2 : 1 : 0) +
           type_len(c, t->types[i], sub(c, t, path, i), limit - n, flat);
      if (t->kind == TFR_OBJECT) {
        const char *dv = dflt(c, t, path, i);
        n += strlen(t->names[i]) + (flat ? 3 : 1) +
             (cli_attr_optional(t, i) ? 10 : 0) + (dv ? strlen(dv) + 2 : 0);
      }
    }
    return n;
  default:
    return strlen(cli_type_word(t));
  }
}

static bool big_tuple(const tfr_type *t) {
  struct tf none = {NULL, NULL};
  return t->kind == TFR_TUPLE &&
         type_len(&none, t, NULL, TUPLE_MAX, false) > TUPLE_MAX;
}

/* The type on one line, spaced as cli_type_flat, with the defaults. */
static void type_flat(const struct tf *c, struct cli_buf *b, const tfr_type *t,
                      const char *path) {
  if (big_tuple(t)) {
    char s[64];
    snprintf(s, sizeof s, "tuple of %u elements", (unsigned)t->n);
    cli_buf_puts(b, s);
    return;
  }
  switch (t->kind) {
  case TFR_LIST:
  case TFR_SET:
  case TFR_MAP:
    cli_buf_puts(b, cli_type_word(t));
    cli_buf_put(b, "(", 1);
    type_flat(c, b, t->elem, sub(c, t, path, 0));
    cli_buf_put(b, ")", 1);
    return;
  case TFR_TUPLE:
    cli_buf_puts(b, "tuple([");
    for (size_t i = 0; i < t->n; i++) {
      if (i)
        cli_buf_puts(b, ", ");
      type_flat(c, b, t->types[i], sub(c, t, path, i));
    }
    cli_buf_puts(b, "])");
    return;
  case TFR_OBJECT:
    cli_buf_puts(b, t->n ? "object({ " : "object({");
    for (size_t i = 0; i < t->n; i++) {
      bool opt = cli_attr_optional(t, i);
      const char *dv = dflt(c, t, path, i);
      if (i)
        cli_buf_puts(b, ", ");
      cli_buf_puts(b, t->names[i]);
      cli_buf_puts(b, opt ? " = optional(" : " = ");
      type_flat(c, b, t->types[i], sub(c, t, path, i));
      if (dv) {
        cli_buf_puts(b, ", ");
        cli_buf_puts(b, dv);
      }
      if (opt)
        cli_buf_put(b, ")", 1);
    }
    cli_buf_puts(b, t->n ? " })" : "})");
    return;
  default:
    cli_buf_puts(b, cli_type_word(t));
  }
}

void cli_type_flat(struct cli_buf *b, const tfr_type *t) {
  struct tf none = {NULL, NULL};
  type_flat(&none, b, t, NULL);
}

static bool flat_fits(const struct tf *c, const tfr_type *t, const char *path,
                      int room) {
  return room >= 0 && type_len(c, t, path, (size_t)room, true) <= (size_t)room;
}

static void fold_object(const struct tf *c, struct cli_buf *b,
                        const tfr_type *t, const char *path, int indent);

/*
** The type at column col of a line indented by `indent`, with `tail`
** characters after it on its last line: on that line when it fits and
** `force` is false, else folded as `terraform fmt` lays out a type: one
** object attribute or tuple element a line, two columns deeper, closed
** at the opening line's indentation.  What cannot be folded (a primitive
** type, an enormous tuple's description) stays on the line.
*/
static void fold_type(const struct tf *c, struct cli_buf *b, const tfr_type *t,
                      const char *path, int indent, int col, int tail,
                      bool force) {
  if (big_tuple(t) ||
      (!force && flat_fits(c, t, path, TYPE_WIDTH - col - tail))) {
    type_flat(c, b, t, path);
    return;
  }
  switch (t->kind) {
  case TFR_LIST:
  case TFR_SET:
  case TFR_MAP: {
    int k = (int)strlen(cli_type_word(t)) + 1;
    cli_buf_puts(b, cli_type_word(t));
    cli_buf_put(b, "(", 1);
    fold_type(c, b, t->elem, sub(c, t, path, 0), indent, col + k, tail + 1,
              force);
    cli_buf_put(b, ")", 1);
    return;
  }
  case TFR_TUPLE:
    if (!t->n)
      break;
    cli_buf_puts(b, "tuple([\n");
    for (size_t i = 0; i < t->n; i++) {
      cli_buf_indent(b, indent + 2);
      fold_type(c, b, t->types[i], sub(c, t, path, i), indent + 2, indent + 2,
                1, false);
      cli_buf_puts(b, ",\n");
    }
    cli_buf_indent(b, indent);
    cli_buf_puts(b, "])");
    return;
  case TFR_OBJECT:
    if (!t->n)
      break;
    fold_object(c, b, t, path, indent);
    return;
  default:
    break;
  }
  type_flat(c, b, t, path);
}

/* Whether fold_type(t, ..., col, tail, false) takes several lines. */
static bool folds(const struct tf *c, const tfr_type *t, const char *path,
                  int col, int tail) {
  if (big_tuple(t))
    return false;
  switch (t->kind) {
  case TFR_LIST:
  case TFR_SET:
  case TFR_MAP:
    return folds(c, t->elem, sub(c, t, path, 0),
                 col + (int)strlen(cli_type_word(t)) + 1, tail + 1);
  case TFR_OBJECT:
  case TFR_TUPLE:
    return t->n && !flat_fits(c, t, path, TYPE_WIDTH - col - tail);
  default:
    return false;
  }
}

/* The column of attribute i's type, after its name padded to width. */
static int attr_col(const tfr_type *t, size_t i, int indent, size_t width) {
  return indent + 2 + (int)width + (cli_attr_optional(t, i) ? 12 : 3);
}

/* What follows attribute i's type on its line: ")" of optional(), and
** ", DEFAULT" before it. */
static int attr_tail(const struct tf *c, const tfr_type *t, const char *path,
                     size_t i) {
  const char *dv = dflt(c, t, path, i);
  return cli_attr_optional(t, i) + (dv ? (int)strlen(dv) + 2 : 0);
}

/*
** An object type, one attribute a line, as `terraform fmt` aligns them:
** the "=" of a run of one-line attributes in one column; an attribute
** whose type takes several lines ends the run and keeps one space.  An
** attribute that does not fit at the run's column takes several lines
** too (that only narrows the runs, so the others still fit).
*/
static void fold_object(const struct tf *c, struct cli_buf *b,
                        const tfr_type *t, const char *path, int indent) {
  bool *multi = cli_calloc(t->n, sizeof *multi);
  size_t *len = cli_alloc(t->n * sizeof *len); /* each name's, read once */
  for (size_t i = 0; i < t->n; i++) {
    len[i] = strlen(t->names[i]);
    multi[i] = folds(c, t->types[i], sub(c, t, path, i),
                     attr_col(t, i, indent, len[i]), attr_tail(c, t, path, i));
  }
  cli_buf_puts(b, "object({\n");
  for (size_t i = 0; i < t->n;) {
    size_t j = i, width = 0;
    for (; j < t->n && !multi[j]; j++)
      if (len[j] > width)
        width = len[j];
    for (size_t k = i; k < j; k++)
      multi[k] = folds(c, t->types[k], sub(c, t, path, k),
                       attr_col(t, k, indent, width), attr_tail(c, t, path, k));
    for (j = i; j < t->n && !multi[j]; j++) /* the run, narrowed */
      ;
    width = 0;
    for (size_t k = i; k < j; k++)
      if (len[k] > width)
        width = len[k];
    size_t end = j < t->n ? j + 1 : j; /* the run and the next attribute */
    for (size_t k = i; k < end; k++) {
      if (!multi[k] && cli_buf_full(b)) {
        b->more++; /* its one line, counted: no longer kept */
        continue;
      }
      bool opt = cli_attr_optional(t, k);
      const char *dv = dflt(c, t, path, k);
      size_t w = multi[k] ? len[k] : width;
      cli_buf_indent(b, indent + 2);
      cli_buf_put(b, t->names[k], len[k]);
      cli_buf_indent(b, (int)(w - len[k]));
      cli_buf_puts(b, opt ? " = optional(" : " = ");
      if (multi[k])
        fold_type(c, b, t->types[k], sub(c, t, path, k), indent + 2,
                  attr_col(t, k, indent, w), attr_tail(c, t, path, k), true);
      else
        type_flat(c, b, t->types[k], sub(c, t, path, k));
      if (dv) {
        cli_buf_puts(b, ", ");
        cli_buf_puts(b, dv);
      }
      cli_buf_puts(b, opt ? ")\n" : "\n");
    }
    i = end;
  }
  free(multi);
  free(len);
  cli_buf_indent(b, indent);
  cli_buf_puts(b, "})");
}

/* At most MAX_LINES lines of a folded type: the first KEEP ones, then how
** many more there are (an object of thousands of attributes).  The buffer
** keeps no more than MAX_LINES lines, counting the others. */
enum { MAX_LINES = 120, KEEP = 100 };

static const char *cut_type_lines(tfr_arena *a, const struct cli_buf *b,
                                  int indent) {
  const char *s = b->p ? b->p : "";
  size_t lines;
  const char *head = cli_text_head(a, s, b->n, KEEP, &lines);
  lines += b->more;
  if (lines <= MAX_LINES) /* (then the buffer kept every line) */
    return tfr_arena_strndup(a, s, b->n);
  return tfr_arena_printf(a, "%s\n%*s... (%zu more lines)", head, indent + 2,
                          "", lines - KEEP);
}

const char *cli_type_text(tfr_arena *a, const tfr_type *t, int indent,
                          bool spaced, const struct cli_type_defaults *d) {
  struct tf c = {a, d && d->text ? d : NULL};
  const char *path = c.d ? "" : NULL;
  if (big_tuple(t))
    return tfr_arena_printf(a, "tuple of %u elements", (unsigned)t->n);
  bool fold = type_len(&c, t, path, TYPE_WIDTH, false) > TYPE_WIDTH;
  if (!fold && !spaced && !c.d)
    return tfr_type_expr(a, t);
  struct cli_buf b = {.max_lines = MAX_LINES};
  if (fold)
    fold_type(&c, &b, t, path, indent, indent, 0, true);
  else
    type_flat(&c, &b, t, path);
  const char *s = cut_type_lines(a, &b, indent);
  free(b.p);
  return s;
}

/* The default of the attribute at base + path of the root variable in
** ctx. */
struct var_defaults {
  tfr_arena *a;
  const struct tfr_resolution *res;
  const char *name, *base;
};

static const char *var_default(void *ctx, const char *path) {
  struct var_defaults *d = ctx;
  const tfr_value *dv = tfr_resolution_attr_default(
      d->res, d->name,
      *d->base ? tfr_arena_printf(d->a, "%s%s", d->base, path) : path);
  return dv ? tfr_value_hcl(d->a, dv) : NULL;
}

const char *cli_var_type_text(tfr_arena *a, const struct tfr_resolution *res,
                              const struct tfr_variable *v, const tfr_type *t,
                              const char *base, int indent) {
  struct var_defaults vd = {a, res, v->name, base ? base : ""};
  struct cli_type_defaults d = {var_default, &vd};
  /* a sensitive variable's defaults are its secrets too */
  return cli_type_text(a, t, indent, false, res && !v->sensitive ? &d : NULL);
}
