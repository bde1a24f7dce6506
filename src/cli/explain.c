/*
** explain NAME: the whole story of one variable (every source in
** precedence order, which won and why, the conversion, its rules), and the
** few words about sources and previews that show's table uses too.
*/
#include "cli.h"
#include "cli_module.h"
#include "cli_types.h"
#include "cli_util.h"

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

/* What the type did to the attributes of a given value: those it left
** out that are optional (each with its value in the final one: its
** default, with the defaults below it applied), and those the type drops
** (each with the value given).  Paths from the variable: ".a[0].b". */
struct attr_item {
  const char *path;
  const tfr_value *value;
};
struct attr_story {
  struct attr_item *defaults, *dropped;
  size_t ndefaults, ndropped, cap_defaults, cap_dropped;
};

#define ATTR_STORY_MAX 20 /* items of each kind told */

static void attr_add(tfr_arena *a, struct attr_item **v, size_t *n, size_t *cap,
                     const char *path, const tfr_value *value) {
  if (*n >= ATTR_STORY_MAX)
    return;
  if (*n == *cap) {
    size_t c = *cap ? 2 * *cap : 4;
    struct attr_item *w = tfr_arena_alloc(a, c * sizeof *w);
    if (*n)
      memcpy(w, *v, *n * sizeof *w);
    *v = w;
    *cap = c;
  }
  (*v)[(*n)++] = (struct attr_item){path, value};
}

/* The attribute story of given (converted to final, of type t) below
** path, into st. */
static void attr_walk(tfr_arena *a, const tfr_type *t, const tfr_value *given,
                      const tfr_value *final, const char *path,
                      struct attr_story *st) {
  if (!given || !final || tfr_value_is_null(given) ||
      tfr_value_is_null(final) || !tfr_value_is_known(given) ||
      !tfr_value_is_known(final))
    return;
  int gk = given->type->kind, fk = final->type->kind;
  if (t->kind == TFR_OBJECT && fk == TFR_OBJECT &&
      (gk == TFR_OBJECT || gk == TFR_MAP)) {
    for (uint32_t i = 0; i < t->n; i++) {
      const char *an = t->names[i];
      size_t al = strlen(an);
      const tfr_value *sub = NULL;
      if (gk == TFR_OBJECT) {
        long j = tfr_type_attr(given->type, an, al);
        sub = j >= 0 ? given->elems[j] : NULL;
      } else {
        for (uint32_t k = 0; k < given->n && !sub; k++)
          if (given->keylens[k] == al && !memcmp(given->keys[k], an, al))
            sub = given->elems[k];
      }
      long fj = tfr_type_attr(final->type, an, al);
      const tfr_value *fsub = fj >= 0 ? final->elems[fj] : NULL;
      const char *p = tfr_arena_printf(a, "%s.%s", path, an);
      if (!sub && cli_attr_optional(t, i) && fsub)
        attr_add(a, &st->defaults, &st->ndefaults, &st->cap_defaults, p, fsub);
      else if (sub)
        attr_walk(a, t->types[i], sub, fsub, p, st);
    }
    /* what the type does not declare */
    for (uint32_t k = 0; k < given->n; k++) {
      const char *gn = gk == TFR_OBJECT ? given->type->names[k] : NULL;
      size_t gl = gn ? strlen(gn) : given->keylens[k];
      const char *g = gn ? gn : given->keys[k];
      if (tfr_type_attr(t, g, gl) < 0)
        attr_add(a, &st->dropped, &st->ndropped, &st->cap_dropped,
                 tfr_arena_printf(a, "%s.%.*s", path, (int)gl, g),
                 given->elems[k]);
    }
  } else if ((t->kind == TFR_LIST && fk == TFR_LIST &&
              (gk == TFR_LIST || gk == TFR_TUPLE)) ||
             (t->kind == TFR_MAP && fk == TFR_MAP &&
              (gk == TFR_MAP || gk == TFR_OBJECT))) {
    for (uint32_t i = 0; i < given->n && i < final->n; i++) {
      const char *p =
          gk == TFR_MAP
              ? tfr_arena_printf(a, "%s[\"%.*s\"]", path,
                                 (int)given->keylens[i], given->keys[i])
          : gk == TFR_OBJECT
              ? tfr_arena_printf(a, "%s[\"%s\"]", path, given->type->names[i])
              : tfr_arena_printf(a, "%s[%u]", path, i);
      attr_walk(a, t->elem, given->elems[i], final->elems[i], p, st);
    }
  }
}

/* explain NAME: the precedence story of one variable. */
static int explain_var(tfr_arena *a, const struct tfr_resolution *res,
                       const struct tfr_variable *v, const tfr_diags *d,
                       const struct tfr_instance *in, bool show_sensitive,
                       const struct options *o);

/* Whether a TF_VAR_ or -var value is among v's sources: the parse mode
** matters to those only. */
static bool raw_source(const struct tfr_variable *v) {
  for (size_t i = 0; i < v->nattempts; i++) {
    enum tfr_source_kind k = tfr_variable_attempt(v, i)->source;
    if (k == TFR_SRC_ENV || k == TFR_SRC_CLI)
      return true;
  }
  return false;
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
                      const struct attr_item *v, size_t n) {
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

/* explain -json: one variable's whole story (doc/json-format.md). */
static void explain_json(tfr_arena *a, const struct tfr_resolution *res,
                         const struct tfr_variable *v, const tfr_diags *d,
                         const struct tfr_instance *in, bool show_sensitive) {
  bool hide = v->sensitive && !show_sensitive;
  fputs("{\"address\": ", stdout);
  tfr_json_write_cstr(stdout,
                      tfr_arena_printf(a, "%s%svar.%s", in ? in->address : "",
                                       in ? "." : "", v->name));
  json_str("module_source", in ? in->source : NULL);
  /* as written, optional() defaults in, laid out as terraform fmt does */
  json_str("type", in ? tfr_type_expr(a, v->declared)
                      : cli_var_type_text(a, res, v, v->declared, "", 0));
  fputs(", \"declared_at\": ", stdout);
  tfr_range_write_json(stdout, &v->decl);
  json_str("description", v->description);
  printf(", \"sensitive\": %s, \"nullable\": %s, \"ephemeral\": %s",
         v->sensitive ? "true" : "false", v->nullable ? "true" : "false",
         v->ephemeral ? "true" : "false");
  json_str("deprecated", v->deprecated);
  if (v->default_value) {
    fputs(", \"default\": {\"used\": ", stdout);
    fputs(v->source == TFR_SRC_DEFAULT ? "true" : "false", stdout);
    json_value(a, "value", v->default_value, hide);
    fputs("}", stdout);
  }
  fputs(", \"sources\": [", stdout);
  for (size_t i = 0; i < v->nattempts; i++) {
    const struct tfr_attempt *t = tfr_variable_attempt(v, i);
    printf("%s{\"kind\": \"%s\"", i ? ", " : "",
           tfr_source_kind_name(t->source));
    json_str("file", t->file);
    if (t->file)
      printf(", \"line\": %d", t->line);
    json_str("via", t->via);
    if (hide)
      fputs(", \"text\": null", stdout);
    else
      json_strn(a, "text", t->text, t->text_len);
    printf(", \"wins\": %s, \"failed\": %s}", t->won ? "true" : "false",
           t->failed ? "true" : "false");
  }
  fputs("]", stdout);
  if (v->from_element) {
    fputs(", \"from\": {\"element\": ", stdout);
    tfr_json_write_cstr(stdout, v->from_element);
    fputs(", \"range\": ", stdout);
    tfr_range_write_json(stdout, &v->from_range);
    fputs("}", stdout);
  }
  if (raw_source(v) && !in)
    json_str("parse_mode", v->literal_mode ? "literal" : "hcl");
  const tfr_value *final = v->value ? v->value : v->preview;
  if (v->given && final && !hide) {
    fputs(", \"conversion\": {\"from\": ", stdout);
    tfr_type_write_json(stdout, v->given->type);
    fputs(", \"to\": ", stdout);
    tfr_type_write_json(stdout, final->type);
    fputs("}", stdout);
  }
  if (v->given && final && !hide && !in) {
    struct attr_story st = {0};
    attr_walk(a, v->declared, v->given, final, "", &st);
    attr_json(a, v->name, "defaults_applied", st.defaults, st.ndefaults);
    attr_json(a, v->name, "dropped_attributes", st.dropped, st.ndropped);
  }
  fputs(", \"rules\": [", stdout);
  for (size_t i = 0; i < v->nrules; i++) {
    const struct tfr_rule *r = tfr_variable_rule(v, i);
    printf("%s{\"range\": ", i ? ", " : "");
    tfr_range_write_json(stdout, &r->range);
    json_str("result", tfr_rule_result_name(r->result));
    json_str("message", r->detail);
    fputs("}", stdout);
  }
  printf("], \"resolved\": %s", v->value ? "true" : "false");
  /* the type of a hidden value is the declared one: an any-typed
  ** secret's attribute names are its keys */
  if (final && !hide) {
    fputs(", \"value_type\": ", stdout);
    tfr_type_write_json(stdout, final->type);
  }
  json_value(a, "value", v->value, hide);
  if (!v->value) {
    json_str("reason", v->reason);
    if (v->preview)
      json_value(a, "preview", v->preview, hide);
    if (v->preview_error)
      json_str("preview_failure", cli_preview_failure(a, v->preview_error));
  }
  fputs(", \"diagnostics\": ", stdout);
  tfr_diags_render_json(
      tfr_diags_of_instance(a, d, v->name, in ? in->address : NULL), stdout);
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

/* Where a child's value comes from: each variable of the caller its
** argument reads, as the caller has it, up to the root module's sources. */
static void explain_chain(tfr_arena *a, const struct tfr_resolution *res,
                          const struct tfr_instance *in,
                          const struct tfr_variable *v, bool show_sensitive,
                          int depth) {
  if (v->from_element && depth == 1 && strpbrk(v->from_element + 4, ".[")) {
    /* taken whole from an element of a root variable: that element, cut
    ** at its key, at its own line (the other reads are not on its path) */
    char at[512];
    tfr_range_format(&v->from_range, at, sizeof at);
    printf("    <- %s = %s\n       from %s\n", v->from_element,
           v->from_value  ? explain_value(a, v->from_value, 7)
           : v->sensitive ? "(sensitive value)"
                          : "(no value)",
           at);
    return;
  }
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
        explain_json(a, res, v, d, in, show_sensitive);
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
      explain_var(a, res, v, d, in, show_sensitive, o);
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

static int explain_var(tfr_arena *a, const struct tfr_resolution *res,
                       const struct tfr_variable *v, const tfr_diags *d,
                       const struct tfr_instance *in, bool show_sensitive,
                       const struct options *o) {
  bool hide = v->sensitive && !show_sensitive;
  char where[512];
  tfr_range_format(&v->decl, where, sizeof where);
  printf("%s%svar.%s: %s%s\n  declared at %s\n", in ? in->address : "",
         in ? "." : "", v->name,
         in ? cli_type_text(a, v->declared, 0, false, NULL)
            : cli_var_type_text(a, res, v, v->declared, "", 0),
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
  if (!in && raw_source(v))
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
  if (v->given && final && !hide && !in) {
    struct attr_story st = {0};
    attr_walk(a, v->declared, v->given, final, "", &st);
    if (st.ndefaults)
      printf("Optional attributes left out, at their defaults:\n");
    for (size_t i = 0; i < st.ndefaults; i++)
      printf("  var.%s%s = %s\n", v->name, st.defaults[i].path,
             indent_lines(a, tfr_value_hcl(a, st.defaults[i].value), 4));
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
