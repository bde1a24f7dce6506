/*
** tfresolve lsp: quick fixes (textDocument/codeAction).  A misspelt name
** ("Did you mean"): the name it means; a required variable without a
** value: a placeholder in an open variables file; a value for an
** undeclared variable: its declaration, with the type its value has.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

/* "Did you mean \"x\"" (either wording) in a message: x, malloc'd. */
static char *suggestion(const char *msg) {
  const char *p = strstr(msg, "Did you mean ");
  if (!p)
    return NULL;
  p = strchr(p, '"');
  const char *e = p ? strchr(p + 1, '"') : NULL;
  if (!e)
    return NULL;
  char *s = cli_strndup(p + 1, (size_t)(e - p - 1));
  return s;
}

/* The first quoted name in msg after after (in the arena), or NULL. */
static const char *quoted_after(tfr_arena *a, const char *msg,
                                const char *after) {
  const char *p = strstr(msg, after);
  p = p ? strchr(p + strlen(after), '"') : NULL;
  const char *e = p ? strchr(p + 1, '"') : NULL;
  return e ? tfr_arena_strndup(a, p + 1, (size_t)(e - p - 1)) : NULL;
}

/* What a variable of type t is set to before its value is known: "" for
** a string, 0, false, [], {}, an object with its required attributes. */
static void placeholder(char **out, size_t *n, const tfr_type *t, int indent) {
  switch (t->kind) {
  case TFR_STRING:
    lsp_append(out, n, "\"\"");
    return;
  case TFR_NUMBER:
    lsp_append(out, n, "0");
    return;
  case TFR_BOOL:
    lsp_append(out, n, "false");
    return;
  case TFR_LIST:
  case TFR_SET:
  case TFR_TUPLE:
    lsp_append(out, n, "[]");
    return;
  case TFR_OBJECT: {
    bool any = false;
    for (uint32_t i = 0; i < t->n; i++) {
      if (t->optional && t->optional[i])
        continue;
      lsp_append(out, n, "%s%*s%s = ", any ? "\n" : "{\n", indent + 2, "",
                 t->names[i]);
      placeholder(out, n, t->types[i], indent + 2);
      any = true;
    }
    lsp_append(out, n, any ? "\n%*s}" : "{}", indent, "");
    return;
  }
  case TFR_MAP:
    lsp_append(out, n, "{}");
    return;
  default:
    lsp_append(out, n, "null");
  }
}

/* A type a user would write for a value (what type() says, simplified:
** a list of one type, a map of strings). */
static const char *infer_type(tfr_arena *a, const tfr_value *v) {
  const tfr_type *t = v->type;
  switch (t->kind) {
  case TFR_STRING:
  case TFR_NUMBER:
  case TFR_BOOL:
    return cli_type_word(t);
  case TFR_LIST:
  case TFR_SET:
  case TFR_TUPLE:
  case TFR_MAP:
  case TFR_OBJECT: {
    bool obj = t->kind == TFR_MAP || t->kind == TFR_OBJECT;
    const char *same = NULL;
    bool one = true;
    for (uint32_t i = 0;
         tfr_value_is_known(v) && !tfr_value_is_null(v) && i < v->n; i++) {
      const char *e = infer_type(a, v->elems[i]);
      if (!same)
        same = e;
      else if (strcmp(same, e))
        one = false;
    }
    if (t->kind == TFR_OBJECT && v->n && (!one || strchr(same, '('))) {
      char *out = NULL;
      size_t n = 0;
      lsp_append(&out, &n, "object({");
      for (uint32_t i = 0; i < v->n; i++)
        lsp_append(&out, &n, "%s%s = %s", i ? ", " : " ", t->names[i],
                   infer_type(a, v->elems[i]));
      lsp_append(&out, &n, " })");
      const char *r = tfr_arena_strdup(a, out);
      free(out);
      return r;
    }
    return tfr_arena_printf(a, "%s(%s)", obj ? "map" : "list",
                            same && one ? same : "any");
  }
  default:
    return "any";
  }
}

/* An edit inserting insert at the end of a text, its line breaks the
** text's ("\r\n" in a CRLF file: an editor keeps a file's). */
static json_t *edit_at_end(tfr_arena *a, const char *text, size_t len,
                           const char *insert) {
  struct tfr_range r = {0};
  r.start.byte = r.end.byte = len;
  if (!strcmp(lsp_newline(text, len), "\r\n")) {
    size_t n = 0;
    for (const char *p = insert; *p; p++)
      n += *p == '\n';
    char *crlf = tfr_arena_alloc(a, strlen(insert) + n + 1), *o = crlf;
    for (const char *p = insert; *p; p++) {
      if (*p == '\n' && (p == insert || p[-1] != '\r'))
        *o++ = '\r';
      *o++ = *p;
    }
    *o = '\0';
    insert = crlf;
  }
  return json_pack("{s:o, s:s}", "range", lsp_range_of(text, len, &r),
                   "newText", insert);
}

/* Whether the object holding the key at byte b of d (or the file's top
** level) sets name with another key: a fix renaming that key to name
** would set it twice ("Attribute redefined"). */
static bool set_already(tfr_arena *a, const struct doc *d, size_t b,
                        const char *name) {
  tfr_text *x = tfr_text_new(a, d->path, d->text, d->len);
  size_t open = tfr_text_enclosing(x, b), n;
  const struct tfr_text_item *it =
      open == SIZE_MAX
          ? tfr_text_top(x, &n)
          : tfr_text_items(x, open + 1, tfr_text_closing(x, open, d->len), &n);
  for (size_t i = 0; i < n; i++)
    if (!strcmp(it[i].name, name) && it[i].key.start.byte != b)
      return true;
  return false;
}

/* An open variables file of d's module to add a value to: d itself, else
** terraform.tfvars, else the first open one. */
static struct doc *tfvars_for(struct server *s, struct doc *d) {
  if (lsp_is_tfvars(d->path))
    return d;
  struct doc *best = NULL;
  for (size_t i = 0; i < s->ndocs; i++) {
    struct doc *x = &s->docs[i];
    if (!lsp_is_tfvars(x->path) || !x->mod_dir || !d->mod_dir ||
        strcmp(x->mod_dir, d->mod_dir) || x->var_file)
      continue;
    if (!best || cli_has_suffix(x->path, "/terraform.tfvars"))
      best = x;
  }
  return best;
}

/* A quick fix adding a value for the required variable name. */
static json_t *add_required(struct server *s, struct doc *d, tfr_arena *a,
                            const char *name, json_t *g) {
  struct module *m = lsp_fresh_module(s, d);
  const struct tfr_variable *v = lsp_variable(m, name);
  struct doc *t = v ? tfvars_for(s, d) : NULL;
  if (!t || cli_has_suffix(t->path, ".json"))
    return NULL;
  char *text = NULL;
  size_t n = 0;
  lsp_append(&text, &n,
             "%s%s = ", t->len && t->text[t->len - 1] != '\n' ? "\n" : "",
             name);
  placeholder(&text, &n, v->declared, 0);
  lsp_append(&text, &n, "\n");
  json_t *changes = json_object();
  json_object_set_new(changes, t->uri,
                      json_pack("[o]", edit_at_end(a, t->text, t->len, text)));
  const char *base = strrchr(t->path, '/');
  json_t *act = json_pack(
      "{s:s, s:s, s:[O], s:{s:o}}", "title",
      tfr_arena_printf(a, "Add %s to %s", name, base ? base + 1 : t->path),
      "kind", "quickfix", "diagnostics", g, "edit", "changes", changes);
  free(text);
  return act;
}

/* A quick fix declaring variable name, set by tfvars document d at the
** diagnostic g, in the module's variables.tf (created when missing and
** the client can create files; else in the file declaring the module's
** first variable). */
static json_t *declare(struct server *s, struct doc *d, tfr_arena *a,
                       const char *name, json_t *g) {
  json_t *st = json_object_get(json_object_get(g, "range"), "start");
  size_t b = lsp_byte_at(d->text, d->len, st);
  tfr_text *x = tfr_text_new(a, d->path, d->text, d->len);
  struct tfr_locus at;
  if (!d->mod_dir || !tfr_text_locate(x, 0, d->len, b, &at) ||
      strcmp(at.variable, name))
    return NULL;
  /* its value, as written: after the name's "=" or ":" */
  size_t vs = at.name.end.byte, ve = at.value.end.byte;
  while (vs < ve && d->text[vs] != '=' && d->text[vs] != ':')
    vs++;
  tfr_diags *dg = tfr_diags_new(a);
  tfr_file *e =
      vs < ve ? tfr_parse_expr(a, dg, "<value>", d->text + vs + 1, ve - vs - 1)
              : NULL;
  const tfr_value *val = e ? tfr_eval_const(a, dg, e) : NULL;
  const char *type = val ? infer_type(a, val) : "any";
  const char *decl =
      tfr_arena_printf(a, "variable \"%s\" {\n  type = %s\n}\n", name, type);
  const char *path = tfr_arena_printf(a, "%s/variables.tf", d->mod_dir);
  size_t len;
  char *owned;
  const char *text = lsp_file_text(s, path, &len, &owned);
  if (!text && !s->create_files) { /* the first variable's file */
    struct module *m = lsp_fresh_module(s, d);
    for (size_t i = 0; m->res && i < m->res->n && !text; i++) {
      const struct tfr_variable *x = tfr_resolution_variable(m->res, i);
      if (x->decl.filename && cli_has_suffix(x->decl.filename, ".tf")) {
        path = tfr_arena_strdup(a, x->decl.filename);
        text = lsp_file_text(s, path, &len, &owned);
      }
    }
    if (!text)
      return NULL;
  }
  char *uri = lsp_path_uri(path);
  json_t *edit;
  if (text) {
    const char *sep = !len ? "" : text[len - 1] == '\n' ? "\n" : "\n\n";
    json_t *changes = json_object();
    json_object_set_new(
        changes, uri,
        json_pack("[o]", edit_at_end(a, text, len,
                                     tfr_arena_printf(a, "%s%s", sep, decl))));
    edit = json_pack("{s:o}", "changes", changes);
  } else {
    struct tfr_range r0 = {0};
    json_t *te = json_pack("{s:{s:s, s:n}, s:[{s:o, s:s}]}", "textDocument",
                           "uri", uri, "version", "edits", "range",
                           lsp_range_of("", 0, &r0), "newText", decl);
    edit = json_pack("{s:[{s:s, s:s}, o]}", "documentChanges", "kind", "create",
                     "uri", uri, te);
  }
  free(owned);
  free(uri);
  const char *base = strrchr(path, '/');
  return json_pack("{s:s, s:s, s:[O], s:o}", "title",
                   tfr_arena_printf(a, "Declare variable %s in %s", name,
                                    base ? base + 1 : path),
                   "kind", "quickfix", "diagnostics", g, "edit", edit);
}

json_t *lsp_code_actions(struct server *s, struct doc *d, json_t *params) {
  json_t *out = json_array();
  json_t *diags =
      json_object_get(json_object_get(params, "context"), "diagnostics");
  tfr_arena *a = tfr_arena_new();
  size_t i;
  json_t *g;
  json_array_foreach(diags, i, g) {
    const char *msg = json_string_value(json_object_get(g, "message"));
    json_t *declared = NULL;
    if (msg && !strncmp(msg, "No value for required variable", 30)) {
      const char *name = quoted_after(a, msg, "variable ");
      json_t *act = name ? add_required(s, d, a, name, g) : NULL;
      if (act)
        json_array_append_new(out, act);
      continue;
    }
    if (msg && !strncmp(msg, "Value for undeclared variable", 29) &&
        lsp_is_tfvars(d->path)) {
      const char *name = quoted_after(a, msg, "variable named ");
      declared = name ? declare(s, d, a, name, g) : NULL;
    }
    char *name = msg ? suggestion(msg) : NULL;
    if (!name) {
      if (declared)
        json_array_append_new(out, declared);
      continue;
    }
    json_t *range = json_object_get(g, "range");
    size_t b = lsp_byte_at(d->text, d->len, json_object_get(range, "start"));
    if (set_already(a, d, b, name)) { /* no fix that sets it twice */
      free(name);
      if (declared)
        json_array_append_new(out, declared);
      continue;
    }
    bool quoted = b < d->len && d->text[b] == '"';
    char *text = cli_alloc(strlen(name) + 3);
    sprintf(text, quoted ? "\"%s\"" : "%s", name);
    json_t *edit = json_pack("{s:O, s:s}", "range", range, "newText", text);
    json_t *changes = json_object();
    json_object_set_new(changes, d->uri, json_pack("[o]", edit));
    char title[512];
    snprintf(title, sizeof title, "Change to \"%s\"", name);
    json_array_append_new(out, json_pack("{s:s, s:s, s:[O], s:b, s:{s:o}}",
                                         "title", title, "kind", "quickfix",
                                         "diagnostics", g, "isPreferred", 1,
                                         "edit", "changes", changes));
    free(text);
    free(name);
    if (declared) /* after "did you mean" */
      json_array_append_new(out, declared);
  }
  tfr_arena_free(a);
  return out;
}
