/*
** tfresolve lsp: hover.  On a variable (a tfvars key, a `variable "x"`
** header, an attribute inside a value): its type, description, the value
** that wins and where it comes from, what it overrides, its rules'
** outcomes as the diagnostics tell them, and the child module variables
** its value reaches.  A sensitive value is never shown.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../cli/explain.h"
#include "lsp.h"

/* A value in a hover longer than HOVER_LINES lines shows its first
** HOVER_KEEP; one longer than HOVER_CHARS bytes its first HOVER_CUT; each
** says how much more there is. */
enum { HOVER_LINES = 30, HOVER_KEEP = 24, HOVER_CHARS = 1000, HOVER_CUT = 800 };

/* s cut to at most max bytes, at a character's start (arena copy). */
static const char *cut_utf8(tfr_arena *a, const char *s, size_t max,
                            bool *cut) {
  size_t n = strlen(s);
  *cut = n > max;
  if (!*cut)
    return s;
  while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
    max--;
  return tfr_arena_strndup(a, s, max);
}

/* A text on lines of its own, indented by indent: in a fence (markdown),
** and what was cut from it (more, or NULL) after it. */
static void put_block(char **out, size_t *n, bool md, const char *indent,
                      const char *text, const char *more) {
  lsp_append(out, n, md ? "%s```hcl\n%s" : "%s%s", indent, indent);
  for (const char *p = text; *p; p++)
    if (*p == '\n')
      lsp_append(out, n, "\n%s", indent);
    else
      lsp_append(out, n, "%c", *p);
  lsp_append(out, n, md ? "\n%s```\n" : "\n", indent);
  if (more)
    lsp_append(out, n, "%s%s\n", indent, more);
}

/* A value (console style) as a hover shows it, cut when long. */
static void put_value(char **out, size_t *n, bool md, tfr_arena *a,
                      const char *indent, const tfr_value *val,
                      const char *written) {
  size_t lines = 1;
  const char *text = written;
  if (val)
    text = tfr_value_console_head(a, val, HOVER_LINES + 1, &lines);
  else
    for (const char *p = text; *p; p++)
      lines += *p == '\n';
  size_t more_lines = 0, more_chars = 0;
  if (lines > HOVER_LINES) {
    size_t ignored;
    text = cli_text_head(a, text, strlen(text), HOVER_KEEP, &ignored);
    more_lines = lines - HOVER_KEEP;
  }
  bool cut;
  const char *head =
      strlen(text) > HOVER_CHARS ? cut_utf8(a, text, HOVER_CUT, &cut) : text;
  for (const char *p = text + strlen(head); *p; p++)
    more_chars += ((unsigned char)*p & 0xC0) != 0x80;
  const char *more =
      more_chars && more_lines
          ? tfr_arena_printf(a, "… (%zu more characters, then %zu more lines)",
                             more_chars, more_lines)
      : more_chars ? tfr_arena_printf(a, "… (%zu more characters)", more_chars)
      : more_lines ? tfr_arena_printf(a, "… (%zu more lines)", more_lines)
                   : NULL;
  put_block(out, n, md, indent, head, more);
}

/* The child variables a hover lists at most (groups of instances of one
** call alike), and the failures it leads with; the rest is explain's. */
enum { HOVER_GROUPS = 6, HOVER_FAILS = 8 };

/* The variables of the instances of one module call that a root
** variable reaches, told as one: "module.a.var.x" over its instances. */
struct reach_group {
  const char *call; /* module.a (cli_call_path of the instances) */
  const struct cli_reach **r;
  size_t n;
};

/* The reaches r (nr) grouped by call and variable, in first-seen order. */
static struct reach_group *group_reaches(tfr_arena *a, struct cli_reach *r,
                                         size_t nr, size_t *ng) {
  struct reach_group *g = tfr_arena_alloc(a, (nr ? nr : 1) * sizeof *g);
  *ng = 0;
  for (size_t i = 0; i < nr; i++) {
    const char *call = cli_call_path(a, r[i].in->address);
    struct reach_group *x = NULL;
    for (size_t k = 0; k < *ng && !x; k++)
      if (!strcmp(g[k].call, call) && !strcmp(g[k].r[0]->v->name, r[i].v->name))
        x = &g[k];
    if (!x) {
      x = &g[(*ng)++];
      x->call = call;
      x->r = tfr_arena_alloc(a, nr * sizeof *x->r);
      x->n = 0;
    }
    x->r[x->n++] = &r[i];
  }
  return g;
}

/* A child variable's value in a line ("= `v`"), or its reason when it is
** not resolved; a sensitive one never (secret). */
static void put_child_value(char **md, size_t *n, tfr_arena *a, bool mark,
                            const struct tfr_variable *v, bool secret) {
  const char *q = mark ? "`" : "";
  if (!v->value) {
    lsp_append(md, n, ": not resolved%s%s%s\n", v->reason ? " (" : "",
               v->reason ? v->reason : "", v->reason ? ")" : "");
    return;
  }
  if (secret) {
    lsp_append(md, n, " = (sensitive value)\n");
    return;
  }
  bool cut;
  const char *text = cut_utf8(a, tfr_value_console(a, v->value), 400, &cut);
  if (!cut && !strchr(text, '\n') && !strchr(text, '`')) {
    lsp_append(md, n, " = %s%s%s\n", q, text, q);
    return;
  }
  /* a long value: its first line (explain shows it all) */
  size_t nl = strcspn(text, "\n");
  if (nl > 120)
    text = cut_utf8(a, text, 120, &cut), nl = strlen(text);
  const char *first = tfr_arena_strndup(a, text, nl);
  if (strchr(first, '`'))
    lsp_append(md, n, " = (%zu bytes)\n", strlen(text));
  else
    lsp_append(md, n, " = %s%s …%s\n", q, first, q);
}

/* The failed rules of the child variables a root variable reaches, first
** in its hover: each rule's message once with how many instances of the
** call it fails in (a secret's message never). */
static void hover_child_fails(char **md, size_t *n, bool mark,
                              struct reach_group *g, size_t ng) {
  const char *q = mark ? "`" : "";
  size_t said = 0, more = 0;
  for (size_t k = 0; k < ng; k++) {
    const struct tfr_variable *v0 = g[k].r[0]->v;
    for (size_t j = 0; j < v0->nrules; j++) {
      /* the distinct messages of rule j failing over the instances */
      for (size_t i = 0; i < g[k].n; i++) {
        const struct tfr_variable *v = g[k].r[i]->v;
        const struct tfr_rule *r =
            j < v->nrules ? tfr_variable_rule(v, j) : NULL;
        if (!r || r->result != TFR_RULE_FAILED)
          continue;
        bool x = g[k].r[i]->secret, seen = false;
        const char *d = r->detail && !x ? r->detail : "";
        size_t count = 0;
        for (size_t e = 0; e < g[k].n; e++) {
          const struct tfr_variable *w = g[k].r[e]->v;
          const struct tfr_rule *re =
              j < w->nrules ? tfr_variable_rule(w, j) : NULL;
          bool same =
              re && re->result == TFR_RULE_FAILED &&
              !strcmp(re->detail && !g[k].r[e]->secret ? re->detail : "", d);
          seen |= same && e < i;
          count += same;
        }
        if (seen)
          continue;
        if (said++ >= HOVER_FAILS) {
          more++;
          continue;
        }
        if (said == 1)
          lsp_append(md, n, "\nFails in the modules it reaches:\n");
        if (g[k].n == 1)
          lsp_append(md, n, "- %s%s.var.%s%s rule %zu failed", q,
                     g[k].r[0]->in->address, v0->name, q, j + 1);
        else
          lsp_append(md, n,
                     "- %s%s.var.%s%s rule %zu failed in %zu of %zu "
                     "instances",
                     q, g[k].call, v0->name, q, j + 1, count, g[k].n);
        lsp_append(md, n, "%s", *d ? ": " : "");
        for (const char *p = d; *p; p++)
          lsp_append(md, n, "%c", *p == '\n' ? ' ' : *p); /* on its line */
        lsp_append(md, n, "\n");
      }
    }
  }
  if (more)
    lsp_append(md, n, "- and %zu more\n", more);
}

/* The child module instances' variables whose arguments read root
** variable root (directly, through local values, for_each or count, or
** through their callers' variables), each with its value and the outcome
** of its rules: a hover's last part, the instances of one call told as
** one, at most HOVER_GROUPS of them (explain lists them all).  A variable
** that reads a sensitive one anywhere up its chain, is sensitive, or
** holds a sensitive value, shows neither its value nor its rules'
** messages. */
static void hover_children(char **md, size_t *n, tfr_arena *a, bool mark,
                           struct reach_group *g, size_t ng, const char *root) {
  const char *q = mark ? "`" : "";
  for (size_t k = 0; k < ng && k < HOVER_GROUPS; k++) {
    const struct cli_reach *r0 = g[k].r[0];
    const struct tfr_variable *v = r0->v;
    if (!k)
      lsp_append(md, n, "\nModule variables it reaches:\n");
    if (g[k].n == 1)
      lsp_append(md, n, "- %s%s.var.%s%s", q, r0->in->address, v->name, q);
    else
      lsp_append(md, n, "- %s%s.var.%s%s (%zu instances, the first)", q,
                 g[k].call, v->name, q, g[k].n);
    put_child_value(md, n, a, mark, v, r0->secret);
    for (size_t j = 0; j < v->nrules; j++) {
      const struct tfr_rule *rule = tfr_variable_rule(v, j);
      size_t failing = 0;
      for (size_t i = 0; i < g[k].n; i++) {
        const struct tfr_variable *w = g[k].r[i]->v;
        failing +=
            j < w->nrules && tfr_variable_rule(w, j)->result == TFR_RULE_FAILED;
      }
      if (failing) { /* told first, with its message */
        lsp_append(md, n, "  - rule %zu failed", j + 1);
        if (g[k].n > 1)
          lsp_append(md, n, " in %zu of %zu", failing, g[k].n);
        lsp_append(md, n, "\n");
        continue;
      }
      lsp_append(md, n, "  - rule %zu %s%s", j + 1,
                 tfr_rule_result_name(rule->result),
                 rule->detail && !r0->secret ? ": " : "");
      for (const char *p = rule->detail && !r0->secret ? rule->detail : ""; *p;
           p++)
        lsp_append(md, n, "%c", *p == '\n' ? ' ' : *p); /* on its line */
      lsp_append(md, n, "\n");
    }
  }
  if (ng > HOVER_GROUPS)
    lsp_append(md, n,
               "- and %zu more (%stfresolve explain %s%s lists them "
               "all)\n",
               ng - HOVER_GROUPS, q, root, q);
}

/* The part of value v at path (".a[2].b", as tfr_locus.path), or NULL. */
static const tfr_value *value_at(const tfr_value *v, const char *path) {
  while (v && *path) {
    if (tfr_value_is_null(v) || !tfr_value_is_known(v))
      return NULL;
    const tfr_type *t = v->type;
    if (*path == '[') {
      unsigned long i = strtoul(path + 1, NULL, 10);
      const char *e = strchr(path, ']');
      if (!e ||
          (t->kind != TFR_LIST && t->kind != TFR_TUPLE && t->kind != TFR_SET) ||
          i >= v->n)
        return NULL;
      v = v->elems[i];
      path = e + 1;
      continue;
    }
    size_t n = strcspn(path + 1, ".[");
    const tfr_value *next = NULL;
    if (t->kind == TFR_OBJECT) {
      long j = tfr_type_attr(t, path + 1, n);
      next = j >= 0 ? v->elems[j] : NULL;
    } else if (t->kind == TFR_MAP) {
      for (uint32_t k = 0; k < v->n && !next; k++)
        if (v->keylens[k] == n && !memcmp(v->keys[k], path + 1, n))
          next = v->elems[k];
    }
    v = next;
    path += 1 + n;
  }
  return v;
}

/* Whether the error a variable's preview meets is rule r failing. */
static bool rule_failed_in_preview(tfr_arena *a, const struct tfr_variable *v,
                                   const struct tfr_rule *r) {
  const struct tfr_diag *e = v->preview_error;
  if (v->value || !e || e->code != TFR_CODE_RULE_FAILED)
    return false;
  if (v->nrules == 1)
    return true;
  return r->range.filename && e->detail &&
         strstr(e->detail,
                tfr_arena_printf(a, "%s:%d,%d", r->range.filename,
                                 r->range.start.line, r->range.start.column));
}

/* A hover being written. */
struct hov {
  tfr_arena *a;
  bool mark;         /* markdown */
  const char *B, *Q; /* bold, code */
  char *md;
  size_t n;
  const struct module *m;
  const struct tfr_variable *v;
  const struct cursor *c;
  const struct doc *d;
  const struct cli_story *st; /* explain's story of v (explain.h) */
};

/* Its first line: the name, type and flags. */
static void hover_head(struct hov *h) {
  tfr_arena *a = h->a;
  const struct tfr_variable *v = h->v;
  const char *B = h->B, *Q = h->Q;
  bool mark = h->mark;
  bool opt = false;
  const tfr_type *t = lsp_type_at(v->declared, h->c->at.path, &opt);
  const char *ty = t ? cli_var_type_text(a, h->m->res, v, t, h->c->at.path, 0)
                     : "(not in the type)";
  const char *flags = tfr_arena_printf(a, "%s%s%s", opt ? " (optional)" : "",
                                       v->sensitive ? ", sensitive" : "",
                                       v->ephemeral ? ", ephemeral" : "");
  if (strchr(ty, '\n')) { /* folded: a block of its own */
    lsp_append(&h->md, &h->n, "%svar.%s%s%s%s:\n", B, v->name, h->c->at.path, B,
               flags);
    put_block(&h->md, &h->n, mark, "", ty, NULL);
  } else {
    lsp_append(&h->md, &h->n, "%svar.%s%s%s: %s%s%s%s\n", B, v->name,
               h->c->at.path, B, Q, ty, Q, flags);
  }
}

/* After the failures and the value: an attribute's default, the
** attributes of an object that does not declare it, the description. */
static void hover_about(struct hov *h) {
  tfr_arena *a = h->a;
  const struct tfr_variable *v = h->v;
  const char *Q = h->Q;
  bool opt = false;
  const tfr_type *t = lsp_type_at(v->declared, h->c->at.path, &opt);
  const tfr_value *dflt =
      *h->c->at.path
          ? tfr_resolution_attr_default(h->m->res, v->name, h->c->at.path)
          : NULL;
  if (dflt && !v->sensitive)
    lsp_append(&h->md, &h->n, "\nDefault when left out: %s%s%s\n", Q,
               tfr_value_console(a, dflt), Q);
  if (*h->c->at.path && !t) {
    /* the object the attribute is in: its attributes */
    char *parent = tfr_arena_strdup(a, h->c->at.path);
    char *cut = strrchr(parent, '.');
    if (cut) {
      *cut = '\0';
      bool o2;
      const tfr_type *pt = lsp_type_at(v->declared, parent, &o2);
      if (pt && pt->kind == TFR_OBJECT) {
        lsp_append(&h->md, &h->n,
                   "\nThe type does not declare this attribute: "
                   "Terraform drops it. Its attributes:");
        for (uint32_t i = 0; i < pt->n; i++)
          lsp_append(&h->md, &h->n, " %s%s%s", Q, pt->names[i], Q);
        lsp_append(&h->md, &h->n, "\n");
      }
    }
  }
  /* the declaration's lines explain prints under "declared at" */
  for (size_t i = 0; !*h->c->at.path && i < h->st->nnotes; i++) {
    const struct cli_story_note *x = &h->st->notes[i];
    if (!x->label)
      lsp_append(&h->md, &h->n, "\nThe %s\n", x->text);
    else if (!strcmp(x->label, "description"))
      lsp_append(&h->md, &h->n, "\n%s\n", x->text);
    else if (!strcmp(x->label, "deprecated"))
      lsp_append(&h->md, &h->n, "\nDeprecated: %s\n", x->text);
  }
}

/* Where the value comes from, and the value (never a sensitive one). */
static void hover_value(struct hov *h) {
  tfr_arena *a = h->a;
  const struct tfr_variable *v = h->v;
  const struct doc *d = h->d;
  const char *Q = h->Q;
  bool mark = h->mark;
  /* provenance: what wins, and what it overrides */
  const char *src = cli_source_text(a, v->source, v->source_file,
                                    v->source_line, v->name, v->source_via);
  const tfr_value *val = h->st->value ? h->st->value : h->st->preview;
  if (*h->c->at.path) {
    /* an attribute: its own value, from its own line */
    const char *here =
        tfr_arena_printf(a, "%s:%d", d->path, h->c->at.name.start.line);
    const tfr_value *x = value_at(val, h->c->at.path);
    bool wins = v->source_file && !strcmp(v->source_file, d->path);
    if (v->sensitive || (x && tfr_value_has_mark(x, TFR_V_SENSITIVE))) {
      lsp_append(&h->md, &h->n, "\nValue from %s (sensitive: not shown)\n",
                 here);
    } else if (wins && x) {
      lsp_append(&h->md, &h->n, "\nValue (from %s):\n", here);
      put_value(&h->md, &h->n, mark, a, "", x, NULL);
    } else if (lsp_is_tfvars(d->path) && h->c->at.value.end.byte <= d->len) {
      /* as written here (another source wins, or it is not resolved) */
      const char *w = d->text + h->c->at.value.start.byte;
      size_t wl = h->c->at.value.end.byte - h->c->at.value.start.byte;
      const char *eq = memchr(w, '=', wl);
      if (!eq || *h->c->at.path == '[')
        eq = NULL;
      const char *text =
          eq ? tfr_arena_strndup(a, eq + 1, wl - (size_t)(eq + 1 - w))
             : tfr_arena_strndup(a, w, wl);
      while (*text == ' ' || *text == '\t')
        text++;
      lsp_append(&h->md, &h->n, "\nValue here (%s)%s%s:\n", here,
                 wins ? "" : ", the variable's value from ", wins ? "" : src);
      put_value(&h->md, &h->n, mark, a, "", NULL, text);
    }
  } else if (val && !v->sensitive) {
    lsp_append(&h->md, &h->n, "\nValue (from %s):\n", src);
    put_value(&h->md, &h->n, mark, a, "", val, NULL);
  } else if (v->given && !v->sensitive &&
             !tfr_value_has_mark(v->given, TFR_V_SENSITIVE)) {
    /* not resolved: what was given, before conversion */
    lsp_append(&h->md, &h->n, "\nValue given (from %s):\n", src);
    put_value(&h->md, &h->n, mark, a, "", v->given, NULL);
  } else {
    lsp_append(&h->md, &h->n, "\nValue from %s%s\n", src,
               v->sensitive ? " (sensitive: not shown)" : "");
  }
  (void)Q;
}

/* The words a hover says after a source for its state. */
static const char *state_words(enum cli_source_state x) {
  switch (x) {
  case CLI_SOURCE_USED:
    return "used: nothing else sets it";
  case CLI_SOURCE_WINS:
    return "wins";
  case CLI_SOURCE_INVALID:
    return "last, but invalid";
  default:
    return "overridden";
  }
}

/* A source's value in a hover's line: short and on one line, else
** nothing (explain prints it whole); a hidden one never. */
static const char *source_value(struct hov *h,
                                const struct cli_story_source *x) {
  const char *t = x->value  ? tfr_value_console(h->a, x->value)
                  : x->text ? tfr_arena_strndup(h->a, x->text, x->len)
                            : NULL;
  if (!t || strlen(t) > 80 || strpbrk(t, "\n`"))
    return "";
  return tfr_arena_printf(h->a, ": %s%s%s", h->Q, t, h->Q);
}

/* Why it is not resolved; its sources as explain tells them (explain's
** story), when more than one tried to set it. */
static void hover_sources(struct hov *h) {
  const struct tfr_variable *v = h->v;
  const struct cli_story *st = h->st;
  if (!v->value && st->reason)
    lsp_append(&h->md, &h->n, "\nNot resolved: %s\n", st->reason);
  if (*h->c->at.path)
    return;
  if (st->conv_from) {
    const char *from = cli_type_text(h->a, st->conv_from, 0, false, NULL);
    const char *to = cli_type_text(h->a, st->conv_to, 0, false, NULL);
    if (strcmp(from, to) && !strchr(from, '\n') && !strchr(to, '\n'))
      lsp_append(&h->md, &h->n, "\nConversion: %s%s%s -> %s%s%s\n", h->Q, from,
                 h->Q, h->Q, to, h->Q);
  }
  if (st->nsources < 2)
    return; /* (one: told with the value) */
  lsp_append(&h->md, &h->n, "\nSources, lowest precedence first:\n");
  for (size_t i = 0; i < st->nsources; i++) {
    const struct cli_story_source *x = &st->sources[i];
    lsp_append(&h->md, &h->n, "- %s%s (%s)\n", x->where, source_value(h, x),
               state_words(x->state));
  }
}

/* Its rules, as the diagnostics tell them. */
static void hover_rules(struct hov *h) {
  tfr_arena *a = h->a;
  const struct tfr_variable *v = h->v;
  /* the rules as the diagnostics tell them: when plan stops before this
  ** variable, the preview's (what the diagnostics publish) */
  for (size_t i = 0; i < h->st->nrules; i++) {
    const struct tfr_rule *r = h->st->rules[i].rule;
    const char *result = tfr_rule_result_name(r->result);
    const char *detail = r->detail;
    if (r->result == TFR_RULE_SKIPPED && rule_failed_in_preview(a, v, r)) {
      result = "failed (plan stops before it at another error; this is "
               "what it would say)";
      detail = h->st->preview_failure;
      if (!strncmp(detail, "its validation rule: ", 21))
        detail += 21;
    } else if (r->result == TFR_RULE_SKIPPED && !v->value && v->preview) {
      result = "passes on the value it would have (plan stops before it at "
               "another error)";
      detail = NULL;
    }
    lsp_append(&h->md, &h->n, "%sValidation rule %zu: %s%s%s\n", i ? "" : "\n",
               i + 1, result, detail && !v->sensitive ? ": " : "",
               detail && !v->sensitive ? detail : "");
  }
}

/* Whether instance variable v of in (in caller module res) holds or
** reads a sensitive value, through any root variable (cli_reaches). */
static bool secret_in(tfr_arena *a, const struct tfr_resolution *res,
                      const struct tfr_instance *in,
                      const struct tfr_variable *v) {
  if (v->sensitive ||
      (v->value && tfr_value_has_mark(v->value, TFR_V_SENSITIVE)) ||
      (v->given && tfr_value_has_mark(v->given, TFR_V_SENSITIVE)))
    return true;
  for (size_t i = 0; i < res->n; i++) {
    struct cli_reach *r;
    size_t nr = cli_reaches(a, res, tfr_resolution_variable(res, i)->name, &r);
    for (size_t k = 0; k < nr; k++)
      if (r[k].in == in && r[k].v == v && r[k].secret)
        return true;
  }
  return false;
}

/* What a caller's instance passes the hovered variable, as a hover line's
** end (a sensitive value never). */
static const char *passed_text(struct hov *h, const struct module *x,
                               const struct tfr_instance *in,
                               const struct tfr_variable *v) {
  if (secret_in(h->a, x->res, in, v))
    return "(sensitive value)";
  if (!v->value)
    return tfr_arena_printf(h->a, "not resolved%s%s%s", v->reason ? " (" : "",
                            v->reason ? v->reason : "", v->reason ? ")" : "");
  bool cut;
  const char *t = cut_utf8(h->a, tfr_value_console(h->a, v->value), 400, &cut);
  if (!cut && !strchr(t, '\n') && !strchr(t, '`'))
    return tfr_arena_printf(h->a, "%s%s%s", h->Q, t, h->Q);
  size_t nl = strcspn(t, "\n");
  if (nl > 120)
    nl = 120;
  while (nl > 0 && ((unsigned char)t[nl] & 0xC0) == 0x80)
    nl--;
  return tfr_arena_printf(h->a, "%s%.*s …%s", strchr(t, '`') ? "" : h->Q,
                          (int)nl, t, strchr(t, '`') ? "" : h->Q);
}

/* What the instances of module x that load directory st (by identity:
** a symbolic link is the same directory) pass the hovered variable: the
** instances of one call told once when they pass the same; a sensitive
** value never.  *said: the lines written so far. */
static void callers_in(struct hov *h, const struct module *x,
                       const struct stat *st, size_t *said) {
  size_t ni = x->res ? x->res->ninstances : 0, n = 0;
  const struct tfr_instance **ins =
      tfr_arena_alloc(h->a, (ni ? ni : 1) * sizeof *ins);
  const struct tfr_variable **vs =
      tfr_arena_alloc(h->a, (ni ? ni : 1) * sizeof *vs);
  for (size_t k = 0; k < ni; k++) {
    const struct tfr_instance *in = tfr_resolution_instance(x->res, k);
    char *child = in->dir ? lsp_clean_join(x->dir, in->dir) : NULL;
    struct stat cs;
    bool same = child && stat(child, &cs) == 0 && cs.st_dev == st->st_dev &&
                cs.st_ino == st->st_ino;
    free(child);
    for (size_t j = 0; same && j < in->n; j++)
      if (!strcmp(tfr_instance_variable(in, j)->name, h->v->name)) {
        ins[n] = in;
        vs[n++] = tfr_instance_variable(in, j);
      }
  }
  bool *told = tfr_arena_alloc(h->a, (n ? n : 1) * sizeof *told);
  memset(told, 0, (n ? n : 1) * sizeof *told);
  for (size_t i = 0; i < n && *said < 20; i++) {
    if (told[i])
      continue;
    const char *call = cli_call_path(h->a, ins[i]->address);
    const char *text = passed_text(h, x, ins[i], vs[i]);
    size_t count = 0;
    bool alike = true;
    for (size_t k = i; k < n; k++)
      if (!strcmp(cli_call_path(h->a, ins[k]->address), call)) {
        told[k] = true;
        count++;
        alike &= !strcmp(passed_text(h, x, ins[k], vs[k]), text);
      }
    lsp_append(&h->md, &h->n, "%s- ",
               (*said)++ ? "" : "\nPassed by its callers:\n");
    if (count == 1)
      lsp_append(&h->md, &h->n, "%s%s%s", h->Q, ins[i]->address, h->Q);
    else
      lsp_append(&h->md, &h->n, "%s%s%s (%zu instances%s)", h->Q, call, h->Q,
                 count, alike ? ", each" : "; the first");
    lsp_append(&h->md, &h->n, " (%s): %s\n", x->dir, text);
    /* where it comes from: the first links of explain's chain (the
    ** caller's variables its argument reads, an element of one) */
    const struct cli_story *st =
        cli_explain_story(h->a, x->res, vs[i], ins[i], false);
    for (size_t k = 0; k < st->nchain; k++)
      if (st->chain[k].depth == 1)
        lsp_append(&h->md, &h->n, "  from %s%s%s (%s)\n", h->Q,
                   st->chain[k].name, h->Q, st->chain[k].from);
  }
}

/* The callers of a child module hovered alone a hover resolves, at most
** (the roots of the workspace with no open document). */
enum { HOVER_CALLERS = 4 };

/* On a variable of a module other modules call (a child module opened
** alone): what each calling instance passes it, from the open modules'
** resolutions, else from the workspace's roots that call it, resolved
** for this (their files need not be open). */
static void hover_callers(struct hov *h, struct server *s) {
  char *dir = lsp_dir_of(h->d->path);
  struct stat st;
  bool there = stat(dir, &st) == 0;
  size_t said = 0;
  for (size_t i = 0; there && i < s->nmods; i++)
    if (&s->mods[i] != h->m)
      callers_in(h, &s->mods[i], &st, &said);
  bool open_said = said > 0;
  for (size_t i = 0; there && !open_said && i < h->m->ncallers; i++)
    callers_in(h, h->m->callers[i], &st, &said); /* kept (documents.c) */
  struct cli_names roots = {0};
  if (there && !said && !h->m->ncallers && !lsp_is_tfvars(h->d->path))
    lsp_closed_callers(s, dir, &roots, HOVER_CALLERS);
  for (size_t i = 0; i < roots.n; i++) {
    struct module *x = lsp_resolve_caller(s, roots.v[i]);
    callers_in(h, x, &st, &said);
    lsp_free_caller(x);
  }
  cli_names_free(&roots);
  free(dir);
}

/* The variable under the cursor c of d (on a `variable "x"` header of a
** configuration file: that one), its module in *m; NULL when none. */
static const struct tfr_variable *hovered(struct server *s, struct doc *d,
                                          struct cursor *c, struct module **m) {
  if (c->in_default)
    c->found = false; /* (a default's value is told on its header) */
  if (!c->found && !lsp_is_tfvars(d->path)) {
    struct module *x = lsp_fresh_module(s, d);
    for (size_t i = 0; x->res && i < x->res->n && !c->found; i++) {
      const struct tfr_variable *v = tfr_resolution_variable(x->res, i);
      if (v->decl.filename && !strcmp(v->decl.filename, d->path) &&
          c->byte >= v->decl.start.byte && c->byte <= v->decl.end.byte) {
        c->found = true;
        c->at.variable = v->name;
        c->at.path = "";
        c->at.name = v->decl;
      }
    }
  }
  *m = c->found ? lsp_fresh_module(s, d) : NULL;
  return *m ? lsp_variable(*m, c->at.variable) : NULL;
}

json_t *lsp_hover(struct server *s, struct doc *d, json_t *params) {
  struct cursor c = lsp_locate(s, d, json_object_get(params, "position"));
  struct module *m;
  const struct tfr_variable *v = hovered(s, d, &c, &m);
  if (!v) {
    tfr_arena_free(c.a);
    return json_null();
  }
  bool mark = !s->plaintext;
  /* explain's story of it (explain.h), its values hidden if sensitive */
  const struct cli_story *st = cli_explain_story(c.a, m->res, v, NULL, false);
  struct hov h = {
      c.a, mark, mark ? "**" : "", mark ? "`" : "", NULL, 0, m, v, &c, d, st};
  /* led by what fails and the value; the rest after */
  size_t ng;
  struct reach_group *g =
      group_reaches(c.a, st->reaches, *c.at.path ? 0 : st->nreaches, &ng);
  bool own_fails = st->rule_failed;
  hover_head(&h);
  if (own_fails)
    hover_rules(&h);
  hover_child_fails(&h.md, &h.n, mark, g, ng);
  /* a module other modules call, with no value of its own: its callers
  ** set it (below), not "(not set)" */
  bool by_callers = m->called && !v->value && v->source == TFR_SRC_NONE;
  if (by_callers)
    lsp_append(&h.md, &h.n, "\nSet by the modules that call this one.\n");
  else
    hover_value(&h);
  hover_about(&h);
  if (!by_callers)
    hover_sources(&h);
  if (!own_fails && !by_callers) /* (a called module's: per caller) */
    hover_rules(&h);
  hover_children(&h.md, &h.n, c.a, mark, g, ng, v->name);
  if (!*c.at.path && m->called)
    hover_callers(&h, s);
  json_t *result =
      json_pack("{s:{s:s, s:s}, s:o}", "contents", "kind",
                mark ? "markdown" : "plaintext", "value", h.md, "range",
                lsp_range_of(d->text, d->len, &c.at.name));
  free(h.md);
  tfr_arena_free(c.a);
  return result;
}
