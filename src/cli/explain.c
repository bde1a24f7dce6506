/*
** explain NAME: the whole story of one variable (every source in
** precedence order, which won and why, the conversion, its rules), and the
** few words about sources and previews that show's table uses too.
*/
#include "cli.h"
#include "cli_module.h"
#include "cli_types.h"
#include "cli_util.h"
#include "explain.h"

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

/* A text of lines lines (head: at least its first VALUE_LINES) as explain
** shows it. */
static const char *explain_lines(tfr_arena *a, const char *head, size_t lines,
                                 int col) {
  if (lines > VALUE_LINES) {
    size_t ignored;
    head = tfr_arena_printf(
        a, "%s\n... (%zu more lines: show prints it all)",
        cli_text_head(a, head, strlen(head), VALUE_KEEP, &ignored),
        lines - VALUE_KEEP);
  }
  return indent_lines(a, cut_long_lines(a, head), col);
}

/* A source's text as written. */
static const char *explain_text(tfr_arena *a, const char *s, size_t n,
                                int col) {
  size_t lines;
  const char *head = cli_text_head(a, s, n, VALUE_LINES, &lines);
  return explain_lines(a, head, lines, col);
}

/* A value in console style: never rendered whole (it may be large). */
static const char *explain_value(tfr_arena *a, const tfr_value *v, int col) {
  size_t lines;
  const char *head = tfr_value_console_head(a, v, VALUE_LINES, &lines);
  return explain_lines(a, head, lines, col);
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

/* "Conversion:" and the types, from the given value's to the final one;
** folded types each under a label of their own. */
static void explain_conversion(tfr_arena *a, const tfr_type *from_t,
                               const tfr_type *to_t) {
  const char *from = cli_type_text(a, from_t, 0, false, NULL);
  const char *to = cli_type_text(a, to_t, 0, false, NULL);
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
           cli_type_text(a, to_t, 2, true, NULL));
    return;
  }
  printf("Conversion:\n  from: %s\n  to:   %s\n",
         cli_type_text(a, from_t, 2, true, NULL),
         cli_type_text(a, to_t, 2, true, NULL));
}

/* The lines under "declared at". */
static void explain_notes(tfr_arena *a, const struct cli_story *s) {
  for (size_t i = 0; i < s->nnotes; i++) {
    const struct cli_story_note *n = &s->notes[i];
    if (n->label)
      printf("  %s: %s\n", n->label,
             label_lines(a, n->text, 4 + (int)strlen(n->label)));
    else
      printf("  %s\n", n->text);
  }
}

/* Every source, lowest precedence first, and a child's chain. */
static void explain_sources(tfr_arena *a, const struct cli_story *s) {
  printf("\nSources, lowest precedence first:\n");
  for (size_t i = 0; i < s->nsources; i++) {
    const struct cli_story_source *x = &s->sources[i];
    printf("  %zu. %-24s %s%s\n", i + 1, x->where,
           s->hide      ? "(sensitive value)"
           : x->attempt ? explain_text(a, x->text, x->len, 30)
                        : explain_value(a, x->value, 30),
           cli_source_state_text(x->state));
  }
  if (!s->nsources)
    printf("  (none: no default and no value from any source)\n");
  for (size_t i = 0; i < s->nchain; i++) {
    const struct cli_story_link *l = &s->chain[i];
    int ind = 2 + 2 * l->depth;
    printf("%*s<- %s = %s\n%*s   from %s\n", ind, "", l->name,
           l->value    ? explain_value(a, l->value, ind + 3)
           : l->hidden ? "(sensitive value)"
                       : "(no value)",
           ind, "", l->from);
  }
}

/* The child module variables a root variable's value reaches, each with
** its value (never a secret) and its rules' outcomes. */
static void explain_reaches(tfr_arena *a, const struct cli_story *s,
                            bool show_sensitive) {
  if (!s->nreaches)
    return;
  printf("\nReaches, through module calls:\n");
  for (size_t i = 0; i < s->nreaches; i++) {
    const struct tfr_variable *c = s->reaches[i].v;
    bool hide = s->reaches[i].secret && !show_sensitive;
    printf("  %s.var.%s = %s\n", s->reaches[i].in->address, c->name,
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

/* "Value:" and a preview. */
static void explain_final(tfr_arena *a, const struct cli_story *s) {
  const struct tfr_variable *v = s->v;
  if (v->value)
    printf("\nValue: %s\n",
           s->hide ? "(sensitive value)" : explain_value(a, s->value, 7));
  else if (v->preview || v->preview_error) {
    printf("\nValue: none: %s\n", s->reason);
    if (v->preview)
      printf("Preview (its value once that is fixed): %s\n",
             s->hide ? "(sensitive value)" : explain_value(a, s->preview, 7));
    else
      printf("Preview: once that is fixed, it fails too: %s\n",
             indent_lines(a, s->preview_failure, 7));
  } else {
    printf("\nValue: none (%s)\n", s->rule_failed
                                       ? "a validation rule failed: see below"
                                       : "it could not be resolved");
  }
}

/* explain NAME: the story s printed, then its diagnostics. */
static int explain_var(tfr_arena *a, const struct cli_story *s,
                       const tfr_diags *d, bool show_sensitive,
                       const struct options *o) {
  const struct tfr_variable *v = s->v;
  const struct tfr_instance *in = s->in;
  printf("%s: %s%s\n  declared at %s\n", s->name, s->type,
         v->sensitive ? ", sensitive" : "", s->declared_at);
  if (in)
    printf("  in %s (source %s, directory %s)\n", in->address, in->source,
           in->dir);
  explain_notes(a, s);
  explain_sources(a, s);
  if (s->parse_why)
    printf("\nParse mode: %s\n", s->parse_why);
  if (s->conv_from)
    explain_conversion(a, s->conv_from, s->conv_to);
  if (s->ndefaults)
    printf("Optional attributes left out, at their defaults:\n");
  for (size_t i = 0; i < s->ndefaults; i++)
    printf("  var.%s%s = %s\n", v->name, s->defaults[i].path,
           indent_lines(a, tfr_value_hcl(a, s->defaults[i].value), 4));
  if (s->nrules)
    printf("\nValidation rules:\n");
  for (size_t i = 0; i < s->nrules; i++) {
    const struct tfr_rule *r = s->rules[i].rule;
    printf("  %zu. %-24s %s%s%s\n", i + 1, s->rules[i].at,
           tfr_rule_result_name(r->result), r->detail ? ": " : "",
           r->detail ? indent_lines(a, r->detail, 30) : "");
  }
  explain_reaches(a, s, show_sensitive);
  explain_final(a, s);
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

/* A value in JSON, or null with "sensitive" when it is hidden. */
static void json_value(tfr_arena *a, const char *key, const tfr_value *v,
                       bool hide) {
  printf(", \"%s\": ", key);
  if (v && !hide && tfr_value_json_encodable(v))
    tfr_value_write_json(stdout, a, v);
  else
    fputs("null", stdout);
}

static void json_str(const char *key, const char *s) {
  if (!s)
    return;
  printf(", \"%s\": ", key);
  tfr_json_write_cstr(stdout, s);
}

static void json_strn(tfr_arena *a, const char *key, const char *s, size_t n) {
  printf(", \"%s\": ", key);
  tfr_json_write_cstr(stdout, tfr_arena_strndup(a, s ? s : "", s ? n : 0));
}

/* A list of attributes as JSON: [{"path": "var.NAME.a.b", "value": V}]. */
static void attr_json(tfr_arena *a, const char *name, const char *key,
                      const struct cli_story_attr *v, size_t n) {
  printf(", \"%s\": [", key);
  for (size_t i = 0; i < n; i++) {
    fputs(i ? ", {\"path\": " : "{\"path\": ", stdout);
    tfr_json_write_cstr(stdout,
                        tfr_arena_printf(a, "var.%s%s", name, v[i].path));
    json_value(a, "value", v[i].value, false);
    fputs("}", stdout);
  }
  fputs("]", stdout);
}

/* explain -json: the head of a story: the declaration and the sources. */
static void json_head(tfr_arena *a, const struct cli_story *s) {
  const struct tfr_variable *v = s->v;
  fputs("{\"address\": ", stdout);
  tfr_json_write_cstr(stdout, s->name);
  json_str("module_source", s->in ? s->in->source : NULL);
  /* as written, optional() defaults in, laid out as terraform fmt does */
  json_str("type", s->type_expr);
  fputs(", \"declared_at\": ", stdout);
  tfr_range_write_json(stdout, &v->decl);
  json_str("description", v->description);
  printf(", \"sensitive\": %s, \"nullable\": %s, \"ephemeral\": %s",
         v->sensitive ? "true" : "false", v->nullable ? "true" : "false",
         v->ephemeral ? "true" : "false");
  json_str("deprecated", v->deprecated);
  size_t i = 0;
  if (s->nsources && !s->sources[0].attempt) {
    fputs(", \"default\": {\"used\": ", stdout);
    fputs(s->sources[0].state == CLI_SOURCE_USED ? "true" : "false", stdout);
    json_value(a, "value", s->sources[0].value, false);
    fputs("}", stdout);
    i = 1;
  }
  fputs(", \"sources\": [", stdout);
  for (size_t k = i; k < s->nsources; k++) {
    const struct cli_story_source *x = &s->sources[k];
    const struct tfr_attempt *t = x->attempt;
    printf("%s{\"kind\": \"%s\"", k > i ? ", " : "",
           tfr_source_kind_name(t->source));
    json_str("file", t->file);
    if (t->file)
      printf(", \"line\": %d", t->line);
    json_str("via", t->via);
    if (!x->text)
      fputs(", \"text\": null", stdout);
    else
      json_strn(a, "text", x->text, x->len);
    printf(", \"wins\": %s, \"failed\": %s}",
           x->state == CLI_SOURCE_WINS ? "true" : "false",
           x->state == CLI_SOURCE_INVALID ? "true" : "false");
  }
  fputs("]", stdout);
}

/* explain -json: one variable's whole story (doc/json-format.md). */
static void explain_json(tfr_arena *a, const struct cli_story *s,
                         const tfr_diags *d) {
  const struct tfr_variable *v = s->v;
  json_head(a, s);
  if (v->from_element) {
    fputs(", \"from\": {\"element\": ", stdout);
    tfr_json_write_cstr(stdout, v->from_element);
    fputs(", \"range\": ", stdout);
    tfr_range_write_json(stdout, &v->from_range);
    fputs("}", stdout);
  }
  json_str("parse_mode", s->parse_mode);
  if (s->conv_from) {
    fputs(", \"conversion\": {\"from\": ", stdout);
    tfr_type_write_json(stdout, s->conv_from);
    fputs(", \"to\": ", stdout);
    tfr_type_write_json(stdout, s->conv_to);
    fputs("}", stdout);
  }
  if (s->attrs_told) {
    attr_json(a, v->name, "defaults_applied", s->defaults, s->ndefaults);
    attr_json(a, v->name, "dropped_attributes", s->dropped, s->ndropped);
  }
  fputs(", \"rules\": [", stdout);
  for (size_t i = 0; i < s->nrules; i++) {
    const struct tfr_rule *r = s->rules[i].rule;
    printf("%s{\"range\": ", i ? ", " : "");
    tfr_range_write_json(stdout, &r->range);
    json_str("result", tfr_rule_result_name(r->result));
    json_str("message", r->detail);
    fputs("}", stdout);
  }
  printf("], \"resolved\": %s", v->value ? "true" : "false");
  /* the type of a hidden value is the declared one: an any-typed
  ** secret's attribute names are its keys */
  const tfr_value *final = s->value ? s->value : s->preview;
  if (final) {
    fputs(", \"value_type\": ", stdout);
    tfr_type_write_json(stdout, final->type);
  }
  json_value(a, "value", s->value, false);
  if (!v->value) {
    json_str("reason", s->reason);
    if (v->preview)
      json_value(a, "preview", s->preview, false);
    json_str("preview_failure", s->preview_failure);
  }
  fputs(", \"diagnostics\": ", stdout);
  tfr_diags_render_json(
      tfr_diags_of_instance(a, d, v->name, s->in ? s->in->address : NULL),
      stdout);
  fputs("}", stdout);
}

/* What to say after "no module instance ADDR": the instances of that
** call that exist, else the closest instance address. */
static const char *instance_hint(tfr_arena *a, const struct tfr_resolution *res,
                                 const char *given) {
  const char *want = cli_call_path(a, given), *list = NULL;
  const char **all =
      tfr_arena_alloc(a, (res->ninstances ? res->ninstances : 1) * sizeof *all);
  size_t n = 0;
  for (size_t i = 0; i < res->ninstances; i++) {
    const char *addr = tfr_resolution_instance(res, i)->address;
    all[n++] = addr;
    if (!strcmp(cli_call_path(a, addr), want))
      list = list ? tfr_arena_printf(a, "%s, %s", list, addr) : addr;
  }
  if (list)
    return tfr_arena_printf(a, "; its instances are %s", list);
  const char *near = tfr_suggest_name(given, all, n);
  if (near)
    return tfr_arena_printf(a, ". Did you mean %s?", near);
  return " (write module.NAME.var.VARIABLE; show lists the instances)";
}

/* The module call not checked that instance address addr (n bytes) is
** in or below, or NULL. */
static const struct tfr_unchecked *
unchecked_at(const struct tfr_resolution *res, const char *addr, size_t n) {
  for (size_t i = 0; i < res->nunchecked; i++) {
    const struct tfr_unchecked *u = tfr_resolution_unchecked(res, i);
    size_t k = strlen(u->address);
    if (k <= n && !strncmp(addr, u->address, k) &&
        (k == n || addr[k] == '[' || addr[k] == '.'))
      return u;
  }
  return NULL;
}

/* The variable NAME names (var NAME of the root, or
** module.ADDRESS.var.NAME of a child instance, *in set), or NULL with a
** message of why in *why. */
static const struct tfr_variable *
locate(tfr_arena *a, const struct tfr_resolution *res, const char *name,
       const struct tfr_instance **in, const char **why) {
  *in = NULL;
  if (strncmp(name, "module.", 7)) {
    const struct tfr_variable *v = tfr_resolution_find(res, name);
    const char *near = v ? NULL : tfr_resolution_suggest(res, name);
    if (!v)
      *why = tfr_arena_printf(
          a, "the module declares no variable named \"%s\"%s%s%s", name,
          near ? ". Did you mean \"" : "", near ? near : "", near ? "\"?" : "");
    return v;
  }
  const char *dot = NULL;
  for (const char *p = strstr(name, ".var."); p; p = strstr(p + 1, ".var."))
    dot = p;
  size_t alen = dot ? (size_t)(dot - name) : 0;
  for (size_t i = 0; dot && i < res->ninstances && !*in; i++) {
    const struct tfr_instance *x = tfr_resolution_instance(res, i);
    if (strlen(x->address) == alen && !strncmp(x->address, name, alen))
      *in = x;
  }
  const struct tfr_unchecked *u =
      *in ? NULL : unchecked_at(res, name, dot ? alen : strlen(name));
  if (u) {
    *why = tfr_arena_printf(a, "%s is not checked: %s", u->address, u->why);
    return NULL;
  }
  if (!*in) {
    const char *given = tfr_arena_strndup(a, name, dot ? alen : strlen(name));
    *why = tfr_arena_printf(
        a, "no module instance %s%s%s", given,
        res->tree ? "" : " (the module tree is not followed here)",
        res->tree ? instance_hint(a, res, given)
                  : " (write module.NAME.var.VARIABLE; show lists the "
                    "instances)");
    return NULL;
  }
  const char *var = dot + 5;
  const char **names =
      tfr_arena_alloc(a, ((*in)->n ? (*in)->n : 1) * sizeof *names);
  for (size_t k = 0; k < (*in)->n; k++) {
    names[k] = tfr_instance_variable(*in, k)->name;
    if (!strcmp(names[k], var))
      return tfr_instance_variable(*in, k);
  }
  const char *near = tfr_suggest_name(var, names, (*in)->n);
  *why = tfr_arena_printf(a, "%s declares no variable named \"%s\"%s%s%s",
                          (*in)->address, var, near ? ". Did you mean \"" : "",
                          near ? near : "", near ? "\"?" : "");
  return NULL;
}

int cli_explain(tfr_arena *a, const struct tfr_resolution *res,
                const tfr_diags *d, const char *const *names, size_t n,
                bool all, bool show_sensitive, const struct options *o) {
  /* -all: the root's variables, then each instance's */
  size_t total = all ? res->n : n;
  for (size_t i = 0; all && res->tree && i < res->ninstances; i++)
    total += tfr_resolution_instance(res, i)->n;
  bool json = o->format == FMT_JSON;
  int rc = EXIT_OK;
  if (json)
    fputs("{\"format_version\": \"1.1\",\n \"variables\": [", stdout);
  for (size_t i = 0, inst = 0, k = 0; i < total; i++) {
    const struct tfr_instance *in = NULL;
    const struct tfr_variable *v;
    const char *why = NULL, *name = all ? NULL : names[i];
    if (!all) {
      v = locate(a, res, name, &in, &why);
    } else if (i < res->n) {
      v = tfr_resolution_variable(res, i);
    } else {
      while ((in = tfr_resolution_instance(res, inst)) && k >= in->n)
        inst++, k = 0;
      v = tfr_instance_variable(in, k++);
    }
    if (json) {
      fputs(i ? ",\n  " : "\n  ", stdout);
      if (v) {
        explain_json(a, cli_explain_story(a, res, v, in, show_sensitive), d);
      } else {
        fputs("{\"address\": ", stdout);
        tfr_json_write_cstr(stdout, name);
        fputs(", \"error\": ", stdout);
        tfr_json_write_cstr(stdout, why);
        fputs("}", stdout);
      }
    } else if (!v) {
      fprintf(stderr, "tfresolve explain: %s\n", why);
    } else {
      if (i)
        fputs("\n", stdout);
      explain_var(a, cli_explain_story(a, res, v, in, show_sensitive), d,
                  show_sensitive, o);
    }
    if (!v || v->error)
      rc = EXIT_INVALID;
  }
  if (json) {
    printf("%s],\n \"valid\": %s,\n \"diagnostics\": ", total ? "\n " : "",
           res->valid ? "true" : "false");
    tfr_diags_render_json(d, stdout);
    fputs("}\n", stdout);
  }
  return rc;
}
