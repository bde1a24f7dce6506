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

/* A value for explain, indented: a long one (a list of thousands of
** objects, a string of megabytes) cut after its first lines or bytes,
** which tell the story well enough. */
static const char *explain_text(tfr_arena *a, const char *s, int col) {
  enum { MAX_LINES = 30, KEEP = 24 };
  size_t lines = 1;
  const char *cut = NULL;
  for (const char *p = s; *p; p++)
    if (*p == '\n' && ++lines == KEEP + 1)
      cut = p;
  if (lines > MAX_LINES)
    s = tfr_arena_printf(a, "%.*s\n... (%zu more lines: show prints it all)",
                         (int)(cut - s), s, lines - KEEP);
  return indent_lines(a, cut_long_lines(a, s), col);
}

/* A type for explain: its expression, or for a very long one (the tuple
** of a literal list of thousands of objects) what it is. */
static const char *explain_type(tfr_arena *a, const tfr_type *t) {
  const char *e = tfr_type_expr(a, t);
  if (strlen(e) <= 200)
    return e;
  if (t->kind == TFR_TUPLE)
    return tfr_arena_printf(a, "tuple of %u elements", t->n);
  return tfr_arena_printf(a, "%.160s...", e);
}

/* explain NAME: the precedence story of one variable. */
int cli_explain(tfr_arena *a, const struct tfr_resolution *res,
                const tfr_diags *d, const char *name, bool show_sensitive,
                const struct options *o) {
  const struct tfr_variable *v = NULL;
  for (size_t i = 0; i < res->n; i++)
    if (!strcmp(tfr_resolution_variable(res, i)->name, name))
      v = tfr_resolution_variable(res, i);
  if (!v) {
    const char *near = tfr_resolution_suggest(res, name);
    fprintf(stderr,
            "tfresolve explain: the module declares no variable "
            "named \"%s\"%s%s%s\n",
            name, near ? ". Did you mean \"" : "", near ? near : "",
            near ? "\"?" : "");
    return EXIT_INVALID;
  }
  bool hide = v->sensitive && !show_sensitive;
  char where[512];
  tfr_range_format(&v->decl, where, sizeof where);
  printf("var.%s: %s%s\n  declared at %s\n", v->name,
         tfr_type_expr(a, v->declared), v->sensitive ? ", sensitive" : "",
         where);
  if (v->description)
    printf("  description: %s\n", v->description);
  printf("\nSources, lowest precedence first:\n");
  int n = 0;
  if (v->default_value)
    printf("  %d. %-24s %s%s\n", ++n, "default",
           hide ? "(sensitive value)"
                : explain_text(a, tfr_value_console(a, v->default_value), 30),
           v->source == TFR_SRC_DEFAULT ? "   <- used: nothing else sets it"
                                        : "   (overridden)");
  for (size_t i = 0; i < v->nattempts; i++) {
    const struct tfr_attempt *t = tfr_variable_attempt(v, i);
    const char *state = t->won      ? "   <- wins: the last source to set it"
                        : t->failed ? "   <- last, but invalid (see below)"
                                    : "   (overridden by a later source)";
    printf(
        "  %d. %-24s %s%s\n", ++n,
        cli_source_text(a, t->source, t->file, t->line, v->name, t->via),
        hide ? "(sensitive value)"
             : explain_text(a, tfr_arena_strndup(a, t->text, t->text_len), 30),
        state);
  }
  if (!n)
    printf("  (none: no default and no value from any source)\n");
  printf("\nParse mode: %s\n",
         v->literal_mode
             ? (v->typed ? "literal: TF_VAR_ and -var values are taken as "
                           "strings, because the type is primitive"
                         : "literal: TF_VAR_ and -var values are taken as "
                           "strings, because the variable has no type")
             : "HCL: TF_VAR_ and -var values are parsed as expressions, "
               "because the type is not primitive");
  const tfr_value *final = v->value ? v->value : v->preview;
  if (v->given && final && !hide) {
    const char *from = explain_type(a, v->given->type);
    const char *to = explain_type(a, final->type);
    if (strcmp(from, to))
      printf("Conversion: %s -> %s\n", from, to);
    else
      printf("Conversion: none needed (%s)\n", to);
  }
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
  if (v->value)
    printf("\nValue: %s\n",
           hide ? "(sensitive value)"
                : explain_text(a, tfr_value_console(a, v->value), 7));
  else if (v->preview || v->preview_error) {
    printf("\nValue: none: %s\n", v->reason);
    if (v->preview)
      printf("Preview (its value once that is fixed): %s\n",
             hide ? "(sensitive value)"
                  : explain_text(a, tfr_value_console(a, v->preview), 7));
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
  tfr_diags *mine = tfr_diags_of_variable(a, d, v->name);
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
