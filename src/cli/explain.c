/*
** explain NAME: the whole story of one variable (every source in
** precedence order, which won and why, the conversion, its rules), and the
** few words about sources and previews that show's table uses too.
*/
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a preview would fail with, in a line: a validation rule's own
** message, else the error's summary. */
const char *cli_preview_failure(tfr_arena *a, const struct tfr_diag *e) {
  if (e->code == TFR_CODE_RULE_FAILED && e->detail) {
    const char *nl = strstr(e->detail, "\n\n"); /* before "This was..." */
    return tfr_arena_printf(
        a, "its validation rule: %.*s",
        (int)(nl ? (size_t)(nl - e->detail) : strlen(e->detail)), e->detail);
  }
  if (e->code == TFR_CODE_INVALID_INPUT && e->detail) {
    const char *colon = strrchr(e->detail, ':'); /* "...: a number is..." */
    if (colon && colon[1] == ' ')
      return tfr_arena_printf(a, "%s: %s", e->summary, colon + 2);
  }
  return e->summary;
}

/* Where a value came from, in a few words: "terraform.tfvars:2", "env
** TF_VAR_x", "-var", "default"; with " (TF_CLI_ARGS_plan)" for an option
** that came through an environment variable. */
const char *cli_source_text(tfr_arena *a, enum tfr_source_kind k,
                            const char *file, int line, const char *name,
                            const char *via) {
  const char *s;
  switch (k) {
  case TFR_SRC_AUTO_FILE:
  case TFR_SRC_NAMED_FILE:
    s = tfr_arena_printf(a, "%s:%d", file, line);
    break;
  case TFR_SRC_ENV:
    s = tfr_arena_printf(a, "env TF_VAR_%s", name);
    break;
  case TFR_SRC_CLI:
    s = "-var";
    break;
  case TFR_SRC_DEFAULT:
    s = "default";
    break;
  case TFR_SRC_CONFIG:
    s = tfr_arena_printf(a, "module argument %s:%d", file, line);
    break;
  default:
    s = "(not set)";
  }
  return via ? tfr_arena_printf(a, "%s (%s)", s, via) : s;
}

/* A multi-line value, indented to sit in the sources column. */
static const char *indent_lines(tfr_arena *a, const char *s, int col) {
  size_t extra = 0;
  for (const char *p = s; *p; p++)
    extra += *p == '\n';
  char *out = tfr_arena_alloc(a, strlen(s) + extra * (size_t)col + 1);
  char *o = out;
  for (const char *p = s; *p; p++) {
    *o++ = *p;
    if (*p == '\n')
      for (int i = 0; i < col; i++)
        *o++ = ' ';
  }
  *o = '\0';
  return out;
}

/* Lines longer than MAX_COLS bytes (a string of megabytes) cut after
** KEEP_COLS bytes, at a character boundary, saying how much is left. */
static const char *cut_long_lines(tfr_arena *a, const char *s) {
  enum { MAX_COLS = 400, KEEP_COLS = 320 };
  size_t n = strlen(s), longest = 0, run = 0;
  for (size_t i = 0; i <= n; i++) {
    run = i < n && s[i] != '\n' ? run + 1 : 0;
    if (run > longest)
      longest = run;
  }
  if (longest <= MAX_COLS)
    return s;
  char *out = tfr_arena_alloc(a, n + 1), *o = out;
  for (const char *p = s; *p;) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    if (len <= MAX_COLS) {
      memcpy(o, p, len);
      o += len;
    } else {
      size_t keep = KEEP_COLS;
      while (keep > 0 && ((unsigned char)p[keep] & 0xC0) == 0x80)
        keep--;
      memcpy(o, p, keep);
      o += keep;
      o += sprintf(o, "... (%zu more bytes: show prints it all)", len - keep);
    }
    if (nl)
      *o++ = '\n';
    p += len + (nl ? 1 : 0);
  }
  *o = '\0';
  return out;
}

/* A value or a source's text for explain, indented: a long one (a list
** of thousands of objects, a string of megabytes) cut after its first
** lines or bytes, which tell the story well enough: at most VALUE_LINES
** lines, else its first VALUE_KEEP lines and how many more there are. */
enum { VALUE_LINES = 30, VALUE_KEEP = 24 };

/* The text before the keep-th newline of the n bytes at s (all of them
** when they have fewer), and in *lines how many lines they have. */
static const char *text_head(tfr_arena *a, const char *s, size_t n, size_t keep,
                             size_t *lines) {
  n = strnlen(s, n); /* (a text ends at a NUL byte, as printed) */
  size_t newlines = 0, cut = n;
  for (const char *p = s; (p = memchr(p, '\n', n - (size_t)(p - s))); p++)
    if (++newlines == keep)
      cut = (size_t)(p - s);
  *lines = newlines + 1;
  return tfr_arena_strndup(a, s, cut);
}

/* A text of lines lines (head: at least its first VALUE_LINES) as explain
** shows it. */
static const char *explain_lines(tfr_arena *a, const char *head, size_t lines,
                                 int col) {
  if (lines > VALUE_LINES) {
    size_t ignored;
    head =
        tfr_arena_printf(a, "%s\n... (%zu more lines: show prints it all)",
                         text_head(a, head, strlen(head), VALUE_KEEP, &ignored),
                         lines - VALUE_KEEP);
  }
  return indent_lines(a, cut_long_lines(a, head), col);
}

/* A source's text as written. */
static const char *explain_text(tfr_arena *a, const char *s, size_t n,
                                int col) {
  size_t lines;
  const char *head = text_head(a, s, n, VALUE_LINES, &lines);
  return explain_lines(a, head, lines, col);
}

/* A value in console style: never rendered whole (it may be large). */
static const char *explain_value(tfr_arena *a, const tfr_value *v, int col) {
  size_t lines;
  const char *head = tfr_value_console_head(a, v, VALUE_LINES, &lines);
  return explain_lines(a, head, lines, col);
}

/* ---- types, folded as `terraform fmt` lays them out ------------------- */

/* A type expression longer than this is folded over several lines, and a
** folded type's lines are kept within it where its parts allow. */
enum { TYPE_WIDTH = 72 };

/* A tuple type whose expression is longer than this is only described
** ("tuple of N elements"): the tuple of a literal list of thousands of
** objects tells nothing more written out. */
enum { TUPLE_MAX = 200 };

/* The length of tfr_type_expr(t), counted only up to just past limit (a
** type can be megabytes long). */
static size_t expr_len(const tfr_type *t, size_t limit) {
  size_t n;
  switch (t->kind) {
  case TFR_LIST:
  case TFR_SET:
  case TFR_MAP:
    return strlen(cli_type_word(t)) + 2 + expr_len(t->elem, limit);
  case TFR_OBJECT:
  case TFR_TUPLE:
    n = t->kind == TFR_OBJECT ? 10 : 9; /* "object({" "})", "tuple([" "])" */
    for (size_t i = 0; i < t->n && n <= limit; i++) {
      n += (i > 0) + expr_len(t->types[i], limit - n);
      if (t->kind == TFR_OBJECT)
        n += strlen(t->names[i]) + 1 + (cli_attr_optional(t, i) ? 10 : 0);
    }
    return n;
  default:
    return strlen(cli_type_word(t));
  }
}

static bool big_tuple(const tfr_type *t) {
  return t->kind == TFR_TUPLE && expr_len(t, TUPLE_MAX) > TUPLE_MAX;
}

static void tb_big_tuple(struct cli_buf *b, const tfr_type *t) {
  char s[64];
  snprintf(s, sizeof s, "tuple of %u elements", (unsigned)t->n);
  cli_buf_puts(b, s);
}

/* cli_type_flat's abbreviation: an enormous tuple (a literal list of
** thousands of objects) as what it is. */
static bool abbreviate(struct cli_buf *b, const tfr_type *t) {
  if (!big_tuple(t))
    return false;
  tb_big_tuple(b, t);
  return true;
}

/* The length of cli_type_flat's text of t (abbreviated), counted only up
** to just past limit. */
static size_t flat_len(const tfr_type *t, size_t limit) {
  if (big_tuple(t))
    return (size_t)snprintf(NULL, 0, "tuple of %u elements", (unsigned)t->n);
  size_t n;
  switch (t->kind) {
  case TFR_LIST:
  case TFR_SET:
  case TFR_MAP:
    return strlen(cli_type_word(t)) + 2 + flat_len(t->elem, limit);
  case TFR_OBJECT:
  case TFR_TUPLE:
    /* "object({ " " })" (empty: "object({})"), "tuple([" "])" */
    n = t->kind == TFR_TUPLE ? 9 : t->n ? 12 : 10;
    for (size_t i = 0; i < t->n && n <= limit; i++) {
      n += (i > 0 ? 2 : 0) + flat_len(t->types[i], limit - n);
      if (t->kind == TFR_OBJECT)
        n += strlen(t->names[i]) + 3 + (cli_attr_optional(t, i) ? 10 : 0);
    }
    return n;
  default:
    return strlen(cli_type_word(t));
  }
}

static bool flat_fits(const tfr_type *t, int room) {
  return room >= 0 && flat_len(t, (size_t)room) <= (size_t)room;
}

static void fold_object(struct cli_buf *b, const tfr_type *t, int indent);

/*
** The type at column col of a line indented by `indent`, with `tail`
** characters after it on its last line: on that line when it fits and
** `force` is false, else folded as `terraform fmt` lays out a type: one
** object attribute or tuple element a line, two columns deeper, closed
** at the opening line's indentation.  What cannot be folded (a primitive
** type, an enormous tuple's description) stays on the line.
*/
static void fold_type(struct cli_buf *b, const tfr_type *t, int indent, int col,
                      int tail, bool force) {
  if (big_tuple(t) || (!force && flat_fits(t, TYPE_WIDTH - col - tail))) {
    cli_type_flat(b, t, abbreviate);
    return;
  }
  switch (t->kind) {
  case TFR_LIST:
  case TFR_SET:
  case TFR_MAP: {
    int k = (int)strlen(cli_type_word(t)) + 1;
    cli_buf_puts(b, cli_type_word(t));
    cli_buf_put(b, "(", 1);
    fold_type(b, t->elem, indent, col + k, tail + 1, force);
    cli_buf_put(b, ")", 1);
    return;
  }
  case TFR_TUPLE:
    if (!t->n)
      break;
    cli_buf_puts(b, "tuple([\n");
    for (size_t i = 0; i < t->n; i++) {
      cli_buf_indent(b, indent + 2);
      fold_type(b, t->types[i], indent + 2, indent + 2, 1, false);
      cli_buf_puts(b, ",\n");
    }
    cli_buf_indent(b, indent);
    cli_buf_puts(b, "])");
    return;
  case TFR_OBJECT:
    if (!t->n)
      break;
    fold_object(b, t, indent);
    return;
  default:
    break;
  }
  cli_type_flat(b, t, abbreviate);
}

/* Whether fold_type(t, ..., col, tail, false) takes several lines. */
static bool folds(const tfr_type *t, int col, int tail) {
  if (big_tuple(t))
    return false;
  switch (t->kind) {
  case TFR_LIST:
  case TFR_SET:
  case TFR_MAP:
    return folds(t->elem, col + (int)strlen(cli_type_word(t)) + 1, tail + 1);
  case TFR_OBJECT:
  case TFR_TUPLE:
    return t->n && !flat_fits(t, TYPE_WIDTH - col - tail);
  default:
    return false;
  }
}

/* The column of attribute i's type, after its name padded to width. */
static int attr_col(const tfr_type *t, size_t i, int indent, size_t width) {
  return indent + 2 + (int)width + (cli_attr_optional(t, i) ? 12 : 3);
}

/*
** An object type, one attribute a line, as `terraform fmt` aligns them:
** the "=" of a run of one-line attributes in one column; an attribute
** whose type takes several lines ends the run and keeps one space.  An
** attribute that does not fit at the run's column takes several lines
** too (that only narrows the runs, so the others still fit).
*/
static void fold_object(struct cli_buf *b, const tfr_type *t, int indent) {
  bool *multi = calloc(t->n, sizeof *multi);
  size_t *len = malloc(t->n * sizeof *len); /* each name's, read once */
  if (!multi || !len)
    cli_oom();
  for (size_t i = 0; i < t->n; i++) {
    len[i] = strlen(t->names[i]);
    multi[i] = folds(t->types[i], attr_col(t, i, indent, len[i]),
                     cli_attr_optional(t, i));
  }
  cli_buf_puts(b, "object({\n");
  for (size_t i = 0; i < t->n;) {
    size_t j = i, width = 0;
    for (; j < t->n && !multi[j]; j++)
      if (len[j] > width)
        width = len[j];
    for (size_t k = i; k < j; k++)
      multi[k] = folds(t->types[k], attr_col(t, k, indent, width),
                       cli_attr_optional(t, k));
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
      size_t w = multi[k] ? len[k] : width;
      cli_buf_indent(b, indent + 2);
      cli_buf_put(b, t->names[k], len[k]);
      cli_buf_indent(b, (int)(w - len[k]));
      cli_buf_puts(b, opt ? " = optional(" : " = ");
      if (multi[k])
        fold_type(b, t->types[k], indent + 2, attr_col(t, k, indent, w), opt,
                  true);
      else
        cli_type_flat(b, t->types[k], abbreviate);
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
** keeps no more than MAX_LINES lines (fold_buf), counting the others. */
enum { MAX_LINES = 120, KEEP = 100 };

static struct cli_buf fold_buf(void) {
  return (struct cli_buf){.max_lines = MAX_LINES};
}

static const char *cut_type_lines(tfr_arena *a, const struct cli_buf *b,
                                  int indent) {
  const char *s = b->p ? b->p : "";
  size_t lines;
  const char *head = text_head(a, s, b->n, KEEP, &lines);
  lines += b->more;
  if (lines <= MAX_LINES) /* (then the buffer kept every line) */
    return tfr_arena_strndup(a, s, b->n);
  return tfr_arena_printf(a, "%s\n%*s... (%zu more lines)", head, indent + 2,
                          "", lines - KEEP);
}

/*
** A type for explain: its expression (tfr_type_expr; spaced as in a
** folded type when `spaced`, to sit beside one) when it is short; a
** longer one folded over lines indented by `indent` (cut after its first
** lines when there are many); an enormous tuple type (of a literal list
** of thousands of objects) only described.  In the arena.
*/
static const char *explain_type(tfr_arena *a, const tfr_type *t, int indent,
                                bool spaced) {
  if (big_tuple(t))
    return tfr_arena_printf(a, "tuple of %u elements", (unsigned)t->n);
  bool fold = expr_len(t, TYPE_WIDTH) > TYPE_WIDTH;
  if (!fold && !spaced)
    return tfr_type_expr(a, t);
  struct cli_buf b = fold_buf();
  if (fold)
    fold_type(&b, t, indent, indent, 0, true);
  else
    cli_type_flat(&b, t, abbreviate);
  const char *s = cut_type_lines(a, &b, indent);
  free(b.p);
  return s;
}

/* ---- the rest of the story --------------------------------------------- */

/* Text after a label ("  description: "), every line after the first
** aligned with the first one's text; trailing blank lines dropped, and
** empty lines left empty (no trailing blanks). */
static const char *label_lines(tfr_arena *a, const char *s, int col) {
  size_t len = strlen(s);
  while (len && (s[len - 1] == '\n' || s[len - 1] == '\r' ||
                 s[len - 1] == ' ' || s[len - 1] == '\t'))
    len--;
  size_t extra = 0;
  for (size_t i = 0; i < len; i++)
    extra += s[i] == '\n';
  char *out = tfr_arena_alloc(a, len + extra * (size_t)col + 1), *o = out;
  for (size_t i = 0; i < len; i++) {
    *o++ = s[i];
    if (s[i] == '\n' && i + 1 < len && s[i + 1] != '\n' && s[i + 1] != '\r')
      for (int k = 0; k < col; k++)
        *o++ = ' ';
  }
  *o = '\0';
  return out;
}

/* The lines under "declared at": an override file's type, the
** description, and what the declaration sets that is not the default. */
static void explain_declaration(tfr_arena *a, const struct tfr_variable *v) {
  if (v->type_overridden && v->type_range.filename) {
    char at[512];
    tfr_range_format(&v->type_range, at, sizeof at);
    printf("  type from %s (an override file replaced the declared type)\n",
           at);
  }
  if (v->description)
    printf("  description: %s\n", label_lines(a, v->description, 15));
  if (v->ephemeral)
    printf("  ephemeral: yes\n");
  if (v->is_const)
    printf("  const: yes\n");
  if (v->deprecated)
    printf("  deprecated: %s\n", label_lines(a, v->deprecated, 14));
  if (!v->nullable)
    printf("  nullable: false (null is not a valid value)\n");
}

/* "Conversion:" and the types, from the given value's to the final one;
** folded types each under a label of their own. */
static void explain_conversion(tfr_arena *a, const tfr_type *from_t,
                               const tfr_type *to_t) {
  const char *from = explain_type(a, from_t, 0, false);
  const char *to = explain_type(a, to_t, 0, false);
  bool same = !strcmp(from, to);
  if (!strchr(from, '\n') && !strchr(to, '\n')) {
    if (same)
      printf("Conversion: none needed (%s)\n", to);
    else
      printf("Conversion: %s -> %s\n", from, to);
    return;
  }
  if (same) {
    printf("Conversion: none needed, the type is\n  %s\n",
           explain_type(a, to_t, 2, true));
    return;
  }
  printf("Conversion:\n  from: %s\n  to:   %s\n",
         explain_type(a, from_t, 2, true), explain_type(a, to_t, 2, true));
}

/* explain NAME: the precedence story of one variable. */
static int explain_var(tfr_arena *a, const struct tfr_resolution *res,
                       const struct tfr_variable *v, const tfr_diags *d,
                       const struct tfr_instance *in, bool show_sensitive,
                       const struct options *o);

/* A child instance's variable: `module.a["k"].module.b.var.NAME`. */
static int explain_child(tfr_arena *a, const struct tfr_resolution *res,
                         const tfr_diags *d, const char *name,
                         bool show_sensitive, const struct options *o) {
  const char *dot = NULL;
  for (const char *p = strstr(name, ".var."); p; p = strstr(p + 1, ".var."))
    dot = p;
  size_t alen = dot ? (size_t)(dot - name) : 0;
  const struct tfr_instance *in = NULL;
  for (size_t i = 0; dot && i < res->ninstances && !in; i++) {
    const struct tfr_instance *x = tfr_resolution_instance(res, i);
    if (strlen(x->address) == alen && !strncmp(x->address, name, alen))
      in = x;
  }
  if (!in) {
    fprintf(stderr,
            "tfresolve explain: no module instance %.*s%s (write "
            "module.NAME.var.VARIABLE; show lists the instances)\n",
            (int)(dot ? alen : strlen(name)), name,
            res->tree ? "" : " (the module tree is not followed here)");
    return EXIT_INVALID;
  }
  const char *var = dot + 5;
  for (size_t k = 0; k < in->n; k++)
    if (!strcmp(tfr_instance_variable(in, k)->name, var))
      return explain_var(a, res, tfr_instance_variable(in, k), d, in,
                         show_sensitive, o);
  fprintf(stderr, "tfresolve explain: %s declares no variable named \"%s\"\n",
          in->address, var);
  return EXIT_INVALID;
}

/* Where a child's value comes from: each variable of the caller its
** argument reads, as the caller has it, up to the root module's sources. */
static void explain_chain(tfr_arena *a, const struct tfr_resolution *res,
                          const struct tfr_instance *in,
                          const struct tfr_variable *v, bool show_sensitive,
                          int depth) {
  const struct tfr_instance *caller = NULL;
  for (size_t i = 0; in && *in->parent && i < res->ninstances && !caller; i++)
    if (!strcmp(tfr_resolution_instance(res, i)->address, in->parent))
      caller = tfr_resolution_instance(res, i);
  for (size_t r = 0; r < v->nreads && depth < 32; r++) {
    const struct tfr_variable *pv = NULL;
    if (caller) {
      for (size_t k = 0; k < caller->n && !pv; k++)
        if (!strcmp(tfr_instance_variable(caller, k)->name, v->reads[r]))
          pv = tfr_instance_variable(caller, k);
    } else
      pv = tfr_resolution_find(res, v->reads[r]);
    if (!pv)
      continue;
    bool hide = pv->sensitive && !show_sensitive;
    const tfr_value *val = pv->value ? pv->value : pv->preview;
    printf("%*s<- %s%svar.%s = %s\n%*s   from %s\n", 2 + 2 * depth, "",
           caller ? caller->address : "", caller ? "." : "", pv->name,
           hide  ? "(sensitive value)"
           : val ? explain_value(a, val, 5 + 2 * depth)
                 : "(no value)",
           2 + 2 * depth, "",
           cli_source_text(a, pv->source, pv->source_file, pv->source_line,
                           pv->name, pv->source_via));
    if (caller)
      explain_chain(a, res, caller, pv, show_sensitive, depth + 1);
  }
}

/* The child module variables a root variable's value reaches, each with
** its value (never a secret) and its rules' outcomes. */
static void explain_reaches(tfr_arena *a, const struct tfr_resolution *res,
                            const struct tfr_variable *v, bool show_sensitive) {
  struct cli_reach *r;
  size_t n = cli_reaches(a, res, v->name, &r);
  if (!n)
    return;
  printf("\nReaches, through module calls:\n");
  for (size_t i = 0; i < n; i++) {
    const struct tfr_variable *c = r[i].v;
    bool hide = r[i].secret && !show_sensitive;
    printf("  %s.var.%s = %s\n", r[i].in->address, c->name,
           !c->value ? tfr_arena_printf(a, "(not resolved: %s)",
                                        c->reason ? c->reason : "errors")
           : hide    ? "(sensitive value)"
                     : explain_value(a, c->value, 4));
    for (size_t k = 0; k < c->nrules; k++) {
      const struct tfr_rule *rule = tfr_variable_rule(c, k);
      printf("    rule %zu %s%s%s\n", k + 1, tfr_rule_result_name(rule->result),
             rule->detail && !hide ? ": " : "",
             rule->detail && !hide ? indent_lines(a, rule->detail, 6) : "");
    }
  }
}

int cli_explain(tfr_arena *a, const struct tfr_resolution *res,
                const tfr_diags *d, const char *name, bool show_sensitive,
                const struct options *o) {
  if (!strncmp(name, "module.", 7))
    return explain_child(a, res, d, name, show_sensitive, o);
  const struct tfr_variable *v = tfr_resolution_find(res, name);
  if (!v) {
    const char *near = tfr_resolution_suggest(res, name);
    fprintf(stderr,
            "tfresolve explain: the module declares no variable "
            "named \"%s\"%s%s%s\n",
            name, near ? ". Did you mean \"" : "", near ? near : "",
            near ? "\"?" : "");
    return EXIT_INVALID;
  }
  return explain_var(a, res, v, d, NULL, show_sensitive, o);
}

static int explain_var(tfr_arena *a, const struct tfr_resolution *res,
                       const struct tfr_variable *v, const tfr_diags *d,
                       const struct tfr_instance *in, bool show_sensitive,
                       const struct options *o) {
  bool hide = v->sensitive && !show_sensitive;
  char where[512];
  tfr_range_format(&v->decl, where, sizeof where);
  printf("%s%svar.%s: %s%s\n  declared at %s\n", in ? in->address : "",
         in ? "." : "", v->name, explain_type(a, v->declared, 0, false),
         v->sensitive ? ", sensitive" : "", where);
  if (in)
    printf("  in %s (source %s, directory %s)\n", in->address, in->source,
           in->dir);
  explain_declaration(a, v);
  printf("\nSources, lowest precedence first:\n");
  int n = 0;
  if (v->default_value)
    printf("  %d. %-24s %s%s\n", ++n, "default",
           hide ? "(sensitive value)" : explain_value(a, v->default_value, 30),
           v->source == TFR_SRC_DEFAULT ? "   <- used: nothing else sets it"
                                        : "   (overridden)");
  for (size_t i = 0; i < v->nattempts; i++) {
    const struct tfr_attempt *t = tfr_variable_attempt(v, i);
    const char *state = t->won      ? "   <- wins: the last source to set it"
                        : t->failed ? "   <- last, but invalid (see below)"
                                    : "   (overridden by a later source)";
    printf("  %d. %-24s %s%s\n", ++n,
           cli_source_text(a, t->source, t->file, t->line, v->name, t->via),
           hide ? "(sensitive value)"
                : explain_text(a, t->text, t->text_len, 30),
           state);
  }
  if (!n)
    printf("  (none: no default and no value from any source)\n");
  if (in && v->nreads)
    explain_chain(a, res, in, v, show_sensitive, 1);
  if (!in)
    printf("\nParse mode: %s\n",
           v->literal_mode
               ? (v->typed ? "literal: TF_VAR_ and -var values are taken as "
                             "strings, because the type is primitive"
                           : "literal: TF_VAR_ and -var values are taken as "
                             "strings, because the variable has no type")
               : "HCL: TF_VAR_ and -var values are parsed as expressions, "
                 "because the type is not primitive");
  const tfr_value *final = v->value ? v->value : v->preview;
  if (v->given && final && !hide)
    explain_conversion(a, v->given->type, final->type);
  if (v->nrules) {
    printf("\nValidation rules:\n");
    for (size_t i = 0; i < v->nrules; i++) {
      const struct tfr_rule *r = tfr_variable_rule(v, i);
      char at[512];
      tfr_range_format(&r->range, at, sizeof at);
      printf("  %zu. %-24s %s%s%s\n", i + 1, at,
             tfr_rule_result_name(r->result), r->detail ? ": " : "",
             r->detail ? indent_lines(a, r->detail, 30) : "");
    }
  }
  if (!in)
    explain_reaches(a, res, v, show_sensitive);
  if (v->value)
    printf("\nValue: %s\n",
           hide ? "(sensitive value)" : explain_value(a, v->value, 7));
  else if (v->preview || v->preview_error) {
    printf("\nValue: none: %s\n", v->reason);
    if (v->preview)
      printf("Preview (its value once that is fixed): %s\n",
             hide ? "(sensitive value)" : explain_value(a, v->preview, 7));
    else
      printf("Preview: once that is fixed, it fails too: %s\n",
             indent_lines(a, cli_preview_failure(a, v->preview_error), 7));
  } else {
    bool rule_failed = false;
    for (size_t i = 0; i < v->nrules; i++)
      rule_failed |= tfr_variable_rule(v, i)->result == TFR_RULE_FAILED;
    printf("\nValue: none (%s)\n", rule_failed
                                       ? "a validation rule failed: see below"
                                       : "it could not be resolved");
  }
  /* the diagnostics about this variable; when it is unresolved for
  ** another variable's sake (Terraform stops at the first failing stage),
  ** all of them */
  tfr_diags *mine =
      tfr_diags_of_instance(a, d, v->name, in ? in->address : NULL);
  if (tfr_diags_count(mine)) {
    putchar('\n');
    cli_print_diags(mine, o);
  } else if (v->error && tfr_diags_count(d)) {
    printf("\n%s, at these errors:\n",
           v->preview || v->preview_error
               ? "Plan stops before this variable"
               : "No variable is resolved, because resolving stopped");
    fflush(stdout); /* before the diagnostics, on stderr */
    cli_print_diags(d, o);
  }
  return v->error ? EXIT_INVALID : EXIT_OK;
}
