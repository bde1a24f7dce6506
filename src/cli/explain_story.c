/*
** explain's story of one variable as data (explain.h): every source in
** precedence order and which won, a child's chain up its callers, the
** parse mode, the conversion and what the type did to the attributes,
** the rules, the child variables a root variable reaches, the value.
** explain.c prints it as text and JSON; the language server's hover
** renders it as Markdown.
*/
#include "explain.h"
#include "cli_types.h"

#include <string.h>

/* A growing array in the arena: room for one more of size sz in *v
** (*n used, *cap allocated). */
static void *grow(tfr_arena *a, void *v, size_t n, size_t *cap, size_t sz) {
  if (n < *cap)
    return v;
  size_t c = *cap ? 2 * *cap : 4;
  void *w = tfr_arena_alloc(a, c * sz);
  if (n)
    memcpy(w, v, n * sz);
  *cap = c;
  return w;
}

/* ---- what the type did to the attributes ------------------------------- */

#define ATTR_STORY_MAX 20 /* items of each kind told */

struct attr_list {
  struct cli_story_attr *v;
  size_t n, cap;
};

static void attr_add(tfr_arena *a, struct attr_list *l, const char *path,
                     const tfr_value *value) {
  if (l->n >= ATTR_STORY_MAX)
    return;
  l->v = grow(a, l->v, l->n, &l->cap, sizeof *l->v);
  l->v[l->n++] = (struct cli_story_attr){path, value};
}

static void attr_walk(tfr_arena *a, const tfr_type *t, const tfr_value *given,
                      const tfr_value *final, const char *path,
                      struct attr_list *defaults, struct attr_list *dropped);

/* The attribute story of an object value given (converted to final, of
** object type t) below path. */
static void attr_object(tfr_arena *a, const tfr_type *t, const tfr_value *given,
                        const tfr_value *final, const char *path,
                        struct attr_list *defaults, struct attr_list *dropped) {
  int gk = given->type->kind;
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
      attr_add(a, defaults, p, fsub);
    else if (sub)
      attr_walk(a, t->types[i], sub, fsub, p, defaults, dropped);
  }
  /* what the type does not declare */
  for (uint32_t k = 0; k < given->n; k++) {
    const char *gn = gk == TFR_OBJECT ? given->type->names[k] : NULL;
    size_t gl = gn ? strlen(gn) : given->keylens[k];
    const char *g = gn ? gn : given->keys[k];
    if (tfr_type_attr(t, g, gl) < 0)
      attr_add(a, dropped, tfr_arena_printf(a, "%s.%.*s", path, (int)gl, g),
               given->elems[k]);
  }
}

/* What the type did to the attributes of a given value: those it left
** out that are optional (each with its value in the final one: its
** default, with the defaults below it applied), and those the type drops
** (each with the value given).  Paths from the variable: ".a[0].b". */
static void attr_walk(tfr_arena *a, const tfr_type *t, const tfr_value *given,
                      const tfr_value *final, const char *path,
                      struct attr_list *defaults, struct attr_list *dropped) {
  if (!given || !final || tfr_value_is_null(given) ||
      tfr_value_is_null(final) || !tfr_value_is_known(given) ||
      !tfr_value_is_known(final))
    return;
  int gk = given->type->kind, fk = final->type->kind;
  if (t->kind == TFR_OBJECT && fk == TFR_OBJECT &&
      (gk == TFR_OBJECT || gk == TFR_MAP)) {
    attr_object(a, t, given, final, path, defaults, dropped);
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
      attr_walk(a, t->elem, given->elems[i], final->elems[i], p, defaults,
                dropped);
    }
  }
}

/* ---- a child's chain up its callers ------------------------------------ */

struct chain {
  struct cli_story_link *v;
  size_t n, cap;
};

static void link_add(tfr_arena *a, struct chain *c, struct cli_story_link l) {
  c->v = grow(a, c->v, c->n, &c->cap, sizeof *c->v);
  c->v[c->n++] = l;
}

/* Where a child's value comes from: each variable of the caller its
** argument reads, as the caller has it, up to the root module's sources. */
static void chain_walk(tfr_arena *a, const struct tfr_resolution *res,
                       const struct tfr_instance *in,
                       const struct tfr_variable *v, bool show_sensitive,
                       int depth, struct chain *c) {
  if (v->from_element && depth == 1 && strpbrk(v->from_element + 4, ".[")) {
    /* taken whole from an element of a root variable: that element, cut
    ** at its key, at its own line (the other reads are not on its path) */
    char at[512];
    tfr_range_format(&v->from_range, at, sizeof at);
    link_add(a, c,
             (struct cli_story_link){depth, v->from_element, v->from_value,
                                     !v->from_value && v->sensitive, true,
                                     tfr_arena_strdup(a, at)});
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
    link_add(
        a, c,
        (struct cli_story_link){
            depth,
            tfr_arena_printf(a, "%s%svar.%s", caller ? caller->address : "",
                             caller ? "." : "", pv->name),
            hide        ? NULL
            : pv->value ? pv->value
                        : pv->preview,
            hide, false,
            cli_source_text(a, pv->source, pv->source_file, pv->source_line,
                            pv->name, pv->source_via)});
    if (caller)
      chain_walk(a, res, caller, pv, show_sensitive, depth + 1, c);
  }
}

/* ---- the story ---------------------------------------------------------- */

const char *cli_source_state_text(enum cli_source_state s) {
  switch (s) {
  case CLI_SOURCE_USED:
    return "   <- used: nothing else sets it";
  case CLI_SOURCE_OVERRIDDEN:
    return "   (overridden)";
  case CLI_SOURCE_WINS:
    return "   <- wins: the last source to set it";
  case CLI_SOURCE_INVALID:
    return "   <- last, but invalid (see below)";
  default:
    return "   (overridden by a later source)";
  }
}

/* The lines under "declared at": an override file's type, the
** description, and what the declaration sets that is not the default. */
static void story_notes(tfr_arena *a, struct cli_story *s) {
  const struct tfr_variable *v = s->v;
  s->notes = tfr_arena_alloc(a, 6 * sizeof *s->notes);
  struct cli_story_note *n = s->notes;
  if (v->type_overridden && v->type_range.filename) {
    char at[512];
    tfr_range_format(&v->type_range, at, sizeof at);
    *n++ = (struct cli_story_note){
        NULL, tfr_arena_printf(a,
                               "type from %s (an override file replaced the "
                               "declared type)",
                               at)};
  }
  if (v->description)
    *n++ = (struct cli_story_note){"description", v->description};
  if (v->ephemeral)
    *n++ = (struct cli_story_note){"ephemeral", "yes"};
  if (v->is_const)
    *n++ = (struct cli_story_note){"const", "yes"};
  if (v->deprecated)
    *n++ = (struct cli_story_note){"deprecated", v->deprecated};
  if (!v->nullable)
    *n++ = (struct cli_story_note){"nullable",
                                   "false (null is not a valid value)"};
  s->nnotes = (size_t)(n - s->notes);
}

/* Every source in precedence order: the default, then each attempt. */
static void story_sources(tfr_arena *a, struct cli_story *s) {
  const struct tfr_variable *v = s->v;
  s->sources = tfr_arena_alloc(a, (v->nattempts + 1) * sizeof *s->sources);
  if (v->default_value)
    s->sources[s->nsources++] = (struct cli_story_source){
        "default",
        s->hide ? NULL : v->default_value,
        NULL,
        0,
        v->source == TFR_SRC_DEFAULT ? CLI_SOURCE_USED : CLI_SOURCE_OVERRIDDEN,
        NULL};
  for (size_t i = 0; i < v->nattempts; i++) {
    const struct tfr_attempt *t = tfr_variable_attempt(v, i);
    s->sources[s->nsources++] = (struct cli_story_source){
        cli_source_text(a, t->source, t->file, t->line, v->name, t->via),
        NULL,
        s->hide ? NULL : t->text,
        s->hide ? 0 : t->text_len,
        t->won      ? CLI_SOURCE_WINS
        : t->failed ? CLI_SOURCE_INVALID
                    : CLI_SOURCE_LATER,
        t};
  }
}

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

/* The parse mode, the conversion and the attributes' story. */
static void story_conversion(tfr_arena *a, struct cli_story *s) {
  const struct tfr_variable *v = s->v;
  if (!s->in && raw_source(v)) {
    s->parse_mode = v->literal_mode ? "literal" : "hcl";
    s->parse_why =
        v->literal_mode
            ? (v->typed ? "literal: TF_VAR_ and -var values are taken as "
                          "strings, because the type is primitive"
                        : "literal: TF_VAR_ and -var values are taken as "
                          "strings, because the variable has no type")
            : "HCL: TF_VAR_ and -var values are parsed as expressions, "
              "because the type is not primitive";
  }
  const tfr_value *final = v->value ? v->value : v->preview;
  if (!v->given || !final || s->hide)
    return;
  s->conv_from = v->given->type;
  s->conv_to = final->type;
  if (s->in)
    return;
  struct attr_list defaults = {0}, dropped = {0};
  attr_walk(a, v->declared, v->given, final, "", &defaults, &dropped);
  s->attrs_told = true;
  s->defaults = defaults.v;
  s->ndefaults = defaults.n;
  s->dropped = dropped.v;
  s->ndropped = dropped.n;
}

struct cli_story *cli_explain_story(tfr_arena *a,
                                    const struct tfr_resolution *res,
                                    const struct tfr_variable *v,
                                    const struct tfr_instance *in,
                                    bool show_sensitive) {
  struct cli_story *s = tfr_arena_alloc(a, sizeof *s);
  memset(s, 0, sizeof *s);
  s->v = v;
  s->in = in;
  s->hide = v->sensitive && !show_sensitive;
  s->name = tfr_arena_printf(a, "%s%svar.%s", in ? in->address : "",
                             in ? "." : "", v->name);
  s->type = in ? cli_type_text(a, v->declared, 0, false, NULL)
               : cli_var_type_text(a, res, v, v->declared, "", 0);
  s->type_expr = in ? tfr_type_expr(a, v->declared) : s->type;
  char at[512];
  tfr_range_format(&v->decl, at, sizeof at);
  s->declared_at = tfr_arena_strdup(a, at);
  story_notes(a, s);
  story_sources(a, s);
  if (in && v->nreads) {
    struct chain c = {0};
    chain_walk(a, res, in, v, show_sensitive, 1, &c);
    s->chain = c.v;
    s->nchain = c.n;
  }
  story_conversion(a, s);
  s->rules = tfr_arena_alloc(a, (v->nrules ? v->nrules : 1) * sizeof *s->rules);
  for (size_t i = 0; i < v->nrules; i++) {
    const struct tfr_rule *r = tfr_variable_rule(v, i);
    tfr_range_format(&r->range, at, sizeof at);
    s->rules[s->nrules++] = (struct cli_story_rule){r, tfr_arena_strdup(a, at)};
    s->rule_failed |= r->result == TFR_RULE_FAILED;
  }
  if (!in)
    s->nreaches = cli_reaches(a, res, v->name, &s->reaches);
  s->value = s->hide ? NULL : v->value;
  s->preview = s->hide ? NULL : v->preview;
  s->reason = v->reason;
  if (v->preview_error)
    s->preview_failure = cli_preview_failure(a, v->preview_error);
  return s;
}
