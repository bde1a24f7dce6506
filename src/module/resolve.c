/*
** Values for a module's variables: the raw values collected from every
** source (collect.c) parsed against the declarations and chosen by
** precedence, each variable's final value (finalize.c) and its rules,
** then the module tree's walks (tree.h), stage by stage as Terraform runs
** them: when a stage reports an error, later stages do not run.
*/
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <strings.h>
#include <sys/stat.h>

#include "base/dirlist.h"
#include "module/engine_tofu.h"
#include "module/finalize.h"
#include "base/arena_int.h"
#include "syntax/body.h"
#include "module/opts.h"
#include "tfresolve/tfresolve.h"
#include "base/diag_int.h"
#include "eval/eval.h"
#include "module/fastval.h"
#include "module/module.h"
#include "syntax/parse.h"
#include "base/strutil.h"
#include "module/strict.h"
#include "module/modcache.h"
#include "module/tree.h"
#include "module/validate.h"
#include "values/secret.h"
#include "module/varfile_secrets.h"
#include "base/heap.h"

/* ---- resolution -------------------------------------------------------- */

struct resolver {
  tfr_arena *a;
  tfr_diags *diags;
  struct module *m;
  struct tfr_variable *out;
  const tfr_value **given;         /* stage-3 value per variable, or NULL:
                                      final already when its winner came
                                      with one (raw->fast, fastval.c) */
  const struct raw_value **winner; /* its source */
  size_t *nattempts, *first;       /* raw values of each variable: */
  size_t *raw_index;               /* raw_index[first[k] ...] */
  bool strict;                     /* -strict */
  bool undeclared_each;            /* tfr_resolve_opts.undeclared_each */
  bool missing_info;               /* missing_required_info */
  bool warn_dropped;               /* warn_dropped */
  tfr_diags *unsaid;               /* what reading the values said while
                                      plan was already stopped (preview):
                                      each variable's own error stops its
                                      preview */
  bool config_failed;              /* plan stopped at loading the module */
  bool blocks_failed;              /* ... at the root's module or output
                                      blocks (its variables are sound) */

  /* the rules of the engine, where OpenTofu's differ (engine_tofu.h) */
  const struct engine_rules *engine;
};

/* The declaration a raw value is for, or NULL. */
static const struct var_decl *raw_decl(const struct module *m,
                                       const struct raw_value *raw) {
  if (raw->var)
    return raw->var > 0 ? &m->vars[raw->var - 1] : NULL;
  return module_var(m, raw->name, strlen(raw->name));
}

/* Group the raw values by variable, in one pass, for explain. */
static void group_raws(struct resolver *r) {
  const struct module *m = r->m;
  size_t n = m->nvars ? m->nvars : 1;
  r->nattempts = tfr_arena_alloc(r->a, n * sizeof *r->nattempts);
  r->first = tfr_arena_alloc(r->a, n * sizeof *r->first);
  r->raw_index =
      tfr_arena_alloc(r->a, (m->nraws ? m->nraws : 1) * sizeof *r->raw_index);
  long *owner = heap_alloc((m->nraws ? m->nraws : 1) * sizeof *owner);
  for (size_t i = 0; i < m->nraws; i++) {
    const struct var_decl *v = raw_decl(m, &m->raws[i]);
    owner[i] = v ? (long)(v - m->vars) : -1;
    if (v)
      r->nattempts[owner[i]]++;
  }
  size_t at = 0;
  for (size_t k = 0; k < m->nvars; k++) {
    r->first[k] = at;
    at += r->nattempts[k];
    r->nattempts[k] = 0;
  }
  for (size_t i = 0; i < m->nraws; i++)
    if (owner[i] >= 0)
      r->raw_index[r->first[owner[i]] + r->nattempts[owner[i]]++] = i;
  free(owner);
}

static void var_error(struct resolver *r, const struct tfr_range *at,
                      enum tfr_severity sev, const char *summary,
                      const char *detail, const char *var) {
  tfr_diags_add(r->diags, sev, at, summary, detail);
  tfr_diags_set_variable(r->diags, var);
}

/* A diagnostic of tfresolve's own, not Terraform's (JSON "origin"). */
static void ours(struct resolver *r) { tfr_diags_set_ours(r->diags); }

/* var_error with a code (enum tfr_diag_code). */
static void var_error_code(struct resolver *r, enum tfr_diag_code code,
                           const struct tfr_range *at, enum tfr_severity sev,
                           const char *summary, const char *detail,
                           const char *var) {
  var_error(r, at, sev, summary, detail, var);
  tfr_diags_set_code(r->diags, code);
}

/* Evaluate a raw value: files hold expressions; env and -var strings are
** literal or HCL by the declaration's parse mode. */
static const tfr_value *parse_raw(struct resolver *r,
                                  const struct raw_value *raw,
                                  const struct var_decl *v) {
  size_t before = tfr_diags_count(r->diags);
  const tfr_value *val;
  if (raw->unknown)
    return tfr_unknown(r->a, &tfr_t_dynamic);
  if (raw->src) {
    const struct ast *expr = module_raw_expr(r->m, r->a, r->diags, raw);
    if (!expr)
      return NULL;
    struct eval_ctx c = {0};
    c.a = r->a;
    c.diags = r->diags;
    c.src = raw->src;
    /* a long list of objects: its elements share their types */
    c.objtypes = expr->kind == AST_TUPLE && expr->n > 1
                     ? heap_calloc(VALUE_OBJECT_CACHE, sizeof *c.objtypes)
                     : NULL;
    val = eval_expr(&c, expr);
    free(c.objtypes);
  } else if (!v || v->literal_mode) {
    val = tfr_string(r->a, raw->text, raw->len);
  } else {
    const char *name = tfr_arena_printf(r->a, "<value for var.%s>", v->name);
    tfr_file *f = parse_bytes_expr(r->a, r->diags, name, raw->text, raw->len);
    val = f ? eval_const(r->a, r->diags, f->f.src, f->f.body) : NULL;
  }
  if (tfr_diags_count(r->diags) > before || !val) {
    for (size_t i = before; i < tfr_diags_count(r->diags); i++) {
      diags_at(r->diags, i)->variable = raw->name;
      /* a sensitive value's text is not quoted back, in the source line
      ** nor in the message (a repeated key) */
      if (v && v->sensitive)
        secret_hide_near(r->diags, i, raw->src ? raw->src->text : raw->text,
                         raw->src ? raw->src->len : raw->len, NULL, NULL);
    }
    if (r->strict && !raw->src && v && v->type->kind == TFR_DYNAMIC) {
      /* ours: a sensitive value is not quoted back */
      const char *shown =
          v->sensitive
              ? "the value"
              : tfr_arena_printf(r->a, "\"%.*s\"", (int)raw->len, raw->text);
      const char *quoted =
          v->sensitive
              ? "'\"...\"'"
              : tfr_arena_printf(r->a, "'\"%.*s\"'", (int)raw->len, raw->text);
      var_error(
          r, NULL, TFR_DIAG_WARNING, "Value parsed as an expression",
          tfr_arena_printf(r->a,
                           "var.%s has type any, so %s parses "
                           "the value of %s as an HCL expression, not "
                           "as a plain string, and %s is not a "
                           "valid expression. To pass it as a string, "
                           "quote it: %s%s.",
                           v->name, r->engine->product,
                           raw->kind == TFR_SRC_ENV
                               ? tfr_arena_printf(r->a, "TF_VAR_%s", v->name)
                               : "-var",
                           shown,
                           raw->kind == TFR_SRC_ENV
                               ? tfr_arena_printf(r->a, "TF_VAR_%s=", v->name)
                               : tfr_arena_printf(r->a, "-var %s=", v->name),
                           quoted),
          v->name);
    }
    if (r->strict && !raw->src && v && v->type->kind == TFR_DYNAMIC)
      ours(r);
    return NULL;
  }
  return val;
}

/* A declared name close to an undeclared one (beyond Terraform), by
** Terraform's rule for suggestions (didyoumean.NameSuggestion: a
** Levenshtein distance below 3; the closest, the first of equals). */
static const char *closest(const struct module *m, const char *name) {
  return module_closest_var(m, name, 3);
}

/* A name or file name as Terraform's %q writes it. */
#define GOQ(r, s) str_go_quote((r)->a, (s), strlen(s))

/* The note of a value for an undeclared name: the declared name it
** may be meant for (NULL when none is close), or the notes of several. */
static const char *did_you_mean(struct resolver *r, const char *name) {
  const char *c = closest(r->m, name);
  return c ? tfr_arena_printf(r->a, "Did you mean \"%s\"?", c) : NULL;
}

/* TF_VAR_REGION for a declared "region": Terraform ignores it silently
** (names are case-sensitive); we warn, beyond Terraform. */
static void env_case(struct resolver *r, const struct raw_value *raw) {
  bool found = false;
  for (size_t i = 0; i < r->m->nvars && !found; i++)
    if (!strcasecmp(r->m->vars[i].name, raw->name)) {
      found = true;
      var_error_code(
          r, TFR_CODE_ENV_NAME_CASE, NULL, TFR_DIAG_WARNING,
          "Environment variable differs from a variable name in case",
          tfr_arena_printf(r->a,
                           "TF_VAR_%s sets nothing: variable names are "
                           "case-sensitive, and this module declares "
                           "\"%s\". %s ignores it too. Use "
                           "TF_VAR_%s instead.",
                           raw->name, r->m->vars[i].name, r->engine->product,
                           r->m->vars[i].name),
          r->m->vars[i].name);
      ours(r);
    }
  const char *near = found || !r->strict ? NULL : closest(r->m, raw->name);
  if (near) /* -strict: a near miss is worth a word too */
    var_error_code(
        r, TFR_CODE_ENV_UNDECLARED, NULL, TFR_DIAG_WARNING,
        "Environment variable for an undeclared variable",
        tfr_arena_printf(r->a,
                         "TF_VAR_%s sets nothing: this module declares "
                         "no variable \"%s\". Did you mean "
                         "TF_VAR_%s?",
                         raw->name, raw->name, near),
        near);
  if (near)
    ours(r);
}

/* Terraform's warning for a value in a file that no variable is declared
** for (backendrun/unparsed_value.go). */
static const char *undeclared_in_file(struct resolver *r,
                                      const struct raw_value *raw) {
  return tfr_arena_printf(r->a,
                          "The root module does not declare a variable "
                          "named %s but a value was found in file "
                          "%s. If you meant to use this value, add a "
                          "\"variable\" block to the configuration.\n\n"
                          "To silence these warnings, use TF_VAR_... "
                          "environment variables to provide certain "
                          "\"global\" settings to all configurations in "
                          "your organization. To reduce the verbosity "
                          "of these warnings, use the -compact-warnings "
                          "option.",
                          GOQ(r, raw->name), GOQ(r, raw->file));
}

/* Values for names the module does not declare: warnings, or errors with
 * -strict. */
static void undeclared(struct resolver *r, const struct raw_value **names,
                       size_t n) {
  const struct raw_value **fr = heap_alloc((n ? n : 1) * sizeof *fr);
  size_t nf = 0;
  for (size_t i = 0; i < n; i++) {
    const struct raw_value *raw = names[i];
    if (raw->kind == TFR_SRC_ENV) {
      env_case(r, raw);
      continue;
    }
    if (raw->kind == TFR_SRC_CLI) {
      var_error_code(
          r, TFR_CODE_UNDECLARED_VALUE, NULL, TFR_DIAG_ERROR,
          "Value for undeclared variable",
          tfr_arena_printf(r->a,
                           "A variable named %s was assigned on "
                           "the command line, but the root module does "
                           "not declare a variable of that name. To use "
                           "this value, add a \"variable\" block to the "
                           "configuration.",
                           GOQ(r, raw->name)),
          raw->name);
      tfr_diags_set_note(r->diags, did_you_mean(r, raw->name));
      continue;
    }
    /* a value that is not even a constant is silently ignored (what
    ** fastval.c read is one); -strict says each name */
    if (!raw->lazy && !r->strict) {
      struct eval_ctx c = {0};
      tfr_diags *scratch = tfr_diags_new(r->a);
      c.a = r->a;
      c.diags = scratch;
      c.src = raw->src;
      eval_expr(&c, raw->expr);
      if (tfr_diags_has_errors(scratch))
        continue;
    }
    if (r->strict) {
      /* -strict: each one is an error, at the line that sets it, in
      ** Terraform's words (it only warns) */
      struct tfr_range at = raw_name_range(raw);
      var_error_code(r, TFR_CODE_UNDECLARED_VALUE, &at, TFR_DIAG_ERROR,
                     "Value for undeclared variable",
                     undeclared_in_file(r, raw), raw->name);
      const char *hint = did_you_mean(r, raw->name);
      tfr_diags_set_note(r->diags,
                         tfr_arena_printf(r->a,
                                          "An error with -strict (%s only "
                                          "warns).%s%s",
                                          r->engine->product, hint ? " " : "",
                                          hint ? hint : ""));
      ours(r);
      diags_set_strict(r->diags);
      continue;
    }
    fr[nf++] = raw;
  }
  /* Terraform names the first two and counts the rest (an editor: each
  ** at its name) */
  for (size_t i = 0; i < nf && (i < 2 || r->undeclared_each); i++) {
    struct tfr_range at = raw_name_range(fr[i]);
    var_error_code(r, TFR_CODE_UNDECLARED_VALUE,
                   r->undeclared_each ? &at : NULL, TFR_DIAG_WARNING,
                   "Value for undeclared variable",
                   undeclared_in_file(r, fr[i]), fr[i]->name);
    tfr_diags_set_note(r->diags, did_you_mean(r, fr[i]->name));
  }
  if (nf > 2 && !r->undeclared_each) {
    /* the folded names still get their suggestions, in the note */
    const char *hints = "";
    for (size_t i = 2; i < nf; i++) {
      const char *c = closest(r->m, fr[i]->name);
      if (c)
        hints = tfr_arena_printf(r->a, "%s%sDid you mean \"%s\" for \"%s\"?",
                                 hints, *hints ? " " : "", c, fr[i]->name);
    }
    tfr_diags_add(r->diags, TFR_DIAG_WARNING, NULL,
                  "Values for undeclared variables",
                  tfr_arena_printf(r->a,
                                   "In addition to the other similar "
                                   "warnings shown, %zu other variable(s) "
                                   "defined without being declared.",
                                   nf - 2));
    tfr_diags_set_code(r->diags, TFR_CODE_UNDECLARED_VALUE);
    tfr_diags_set_note(r->diags, *hints ? hints : NULL);
  }
  free(fr);
}

static int cmp_raw_name(const void *x, const void *y) {
  return strcmp((*(const struct raw_value *const *)x)->name,
                (*(const struct raw_value *const *)y)->name);
}

/* "Object attribute is ignored" for v's value (finalize.h); warned: the
** engine warns about it itself (OpenTofu, in a default).  Of a sensitive
** variable the path's map keys and the name are the value's (secret.h). */
static void dropped_diag(struct resolver *r, const struct var_decl *v,
                         const char *path, const char *name,
                         const struct tfr_range *at, const tfr_type *object,
                         bool constructor, bool warned,
                         enum dropped_mode mode) {
  struct dropped_report rep = {tfr_arena_printf(r->a, "var.%s", v->name),
                               v->name,
                               v->sensitive,
                               mode,
                               warned,
                               NULL,
                               false};
  var_dropped(r->a, r->diags, r->engine, &rep, path, name, object, constructor,
              at);
}

struct dropped_ctx {
  struct resolver *r;
  const struct var_decl *v;
  struct src_file *src;
};

static void on_dropped(void *ctx, const struct dropped_attr *d) {
  struct dropped_ctx *c = ctx;
  struct tfr_range at = c->src ? src_range(c->src, d->at) : c->v->decl;
  dropped_diag(c->r, c->v, d->path, d->name, &at, d->object, d->constructor,
               false, c->r->strict ? DROPPED_ERROR : DROPPED_WARNING);
}

/* A raw value as an expression, to say where in it something is: a
** file's, or a -var or TF_VAR_ value in HCL mode parsed once more (into
** *src; diagnostics dropped); NULL for a literal one. */
static const struct ast *raw_expr(struct resolver *r,
                                  const struct raw_value *raw,
                                  const struct var_decl *v,
                                  struct src_file **src) {
  *src = raw->src;
  if (raw->src)
    return module_raw_expr(r->m, r->a, r->diags, raw);
  if (v->literal_mode)
    return NULL;
  const char *name = tfr_arena_printf(r->a, "<value for var.%s>", v->name);
  tfr_file *f =
      parse_bytes_expr(r->a, tfr_diags_new(r->a), name, raw->text, raw->len);
  *src = f ? f->f.src : NULL;
  return f ? f->f.body : NULL;
}

/* -strict: the attributes that each value of a declared variable sets
** and its type drops, in every file (the winning value and those it
** overrides), in the winning -var or TF_VAR_ value, and in its default. */
static void strict_values(struct resolver *r) {
  struct module *m = r->m;
  for (size_t i = 0; i < m->nraws; i++) {
    const struct raw_value *raw = &m->raws[i];
    const struct var_decl *v = raw_decl(m, raw);
    if (!v)
      continue;
    size_t k = (size_t)(v - m->vars);
    const tfr_value *val = r->winner[k] == raw ? r->given[k] : NULL;
    if ((!raw->src && !val) || raw->unknown)
      continue; /* a -var or TF_VAR_ overridden: never parsed */
    if (raw->fast && !raw->fast_dropped)
      continue; /* the fast path saw every attribute kept */
    struct dropped_ctx c = {r, v, NULL};
    const struct ast *x = raw_expr(r, raw, v, &c.src);
    if (x)
      strict_dropped(r->a, x, val, v->type, on_dropped, &c);
    else if (!raw->src)
      strict_dropped_value(r->a, val, v->type, on_dropped, &c);
  }
  for (size_t k = 0; k < m->nvars; k++) {
    const struct var_decl *v = &m->vars[k];
    for (size_t j = 0; j < v->ndropped; j++) {
      const struct dropped_default *d = &v->dropped[j];
      bool warned =
          r->engine->warns_dropped_default && d->constructor && !d->json;
      if (!r->strict && warned)
        continue; /* the engine's own warning says it (its words) */
      dropped_diag(r, v, d->path, d->name, &d->at, d->object, d->constructor,
                   warned, r->strict ? DROPPED_ERROR : DROPPED_WARNING);
    }
  }
}

/* The engine's own warnings about a default's object constructors
** (native syntax) that set attributes the type drops (OpenTofu's);
** -strict makes them errors (strict_values). */
static void engine_default_warnings(struct resolver *r) {
  for (size_t k = 0; k < r->m->nvars; k++) {
    const struct var_decl *v = &r->m->vars[k];
    for (size_t j = 0; j < v->ndropped; j++) {
      const struct dropped_default *d = &v->dropped[j];
      if (d->constructor && !d->json)
        dropped_diag(r, v, d->path, d->name, &d->at, d->object, true, true,
                     DROPPED_ENGINE);
    }
  }
}

/* The winning raw value of each declared name (the last one given) in
** r->winner; with und, the undeclared names (the last value of each)
** there, their number returned. */
static size_t choose_winners(struct resolver *r, const struct raw_value **und) {
  struct module *m = r->m;
  size_t nu = 0, seen;
  struct strmap names = {0};
  for (size_t i = m->nraws; i-- > 0;) {
    const struct raw_value *raw = &m->raws[i];
    const struct var_decl *v = raw_decl(m, raw);
    if (v) {
      size_t k = (size_t)(v - m->vars);
      if (!r->winner[k])
        r->winner[k] = raw;
    } else if (und && !strmap_get(&names, raw->name, &seen)) {
      strmap_put(&names, raw->name, i);
      und[nu++] = raw;
    }
  }
  strmap_free(&names);
  return nu;
}

/* Stage 3: the winning raw value of each name, parsed against its
** declaration; undeclared names; required variables. */
static void stage_parse(struct resolver *r) {
  struct module *m = r->m;
  const struct raw_value **und =
      heap_alloc((m->nraws ? m->nraws : 1) * sizeof *und);
  size_t nu = choose_winners(r, und);
  if (nu > 1)
    qsort(und, nu, sizeof *und, cmp_raw_name);
  /* in name order, as the declarations are */
  for (size_t k = 0; k < m->nvars; k++) {
    const struct raw_value *raw = r->winner[k];
    if (!raw)
      continue;
    r->given[k] = raw->fast ? raw->fast : parse_raw(r, raw, &m->vars[k]);
  }
  if (r->strict || r->warn_dropped)
    strict_values(r);
  undeclared(r, und, nu);
  for (size_t k = 0; k < m->nvars; k++) {
    const struct var_decl *v = &m->vars[k];
    if (r->given[k] || v->has_default)
      continue;
    var_error_code(
        r, TFR_CODE_NO_VALUE, &v->decl,
        r->missing_info ? TFR_DIAG_WARNING : TFR_DIAG_ERROR,
        "No value for required variable",
        tfr_arena_printf(r->a,
                         "The root module input variable \"%s\" is "
                         "not set, and has no default value. Use a "
                         "-var or -var-file command line argument to "
                         "provide a value for this variable.",
                         v->name),
        v->name);
    if (r->missing_info)
      tfr_diags_set_note(r->diags,
                         "A warning here, not an error: with "
                         "-missing-required=info, a required variable "
                         "is the caller's to set.");
  }
  free(und);
}

/* Where inside the value conversion failed, beyond Terraform's message
** (which names the element only for some mismatches): "The element that
** does not convert is var.x["c"].tags[2].v (terraform.tfvars:6,55-62).",
** or NULL when it is the value itself. */
static const char *failing_element(struct resolver *r, const struct var_decl *v,
                                   const struct raw_value *raw,
                                   const tfr_value *given,
                                   struct tfr_range *element) {
  const char *path = strict_failing_path(r->a, given, v->type);
  if (!path)
    return NULL;
  char where[512] = "";
  struct src_file *src = NULL;
  const struct ast *x = raw ? raw_expr(r, raw, v, &src) : NULL;
  const struct ast *at = x ? strict_locate(x, path) : NULL;
  if (at && at != x && src) {
    struct tfr_range rg = src_range(src, at->span);
    tfr_range_format(&rg, where, sizeof where);
    if (raw->src) /* a file's: a line to point at */
      *element = rg;
  }
  return tfr_arena_printf(
      r->a, "The element that does not convert is var.%s%s%s%s%s.", v->name,
      path, *where ? " (" : "", where, *where ? ")" : "");
}

/* failing_element as the finaliser asks for it. */
struct element_of {
  struct resolver *r;
  const struct var_decl *v;
  const struct raw_value *raw;
};

static const char *element_note(void *ud, const tfr_value *given,
                                struct tfr_range *at) {
  const struct element_of *e = ud;
  return failing_element(e->r, e->v, e->raw, given, at);
}

/* Stage 5 for one variable: its final value (finalize.h). */
static void final_value(struct resolver *r, size_t k) {
  const struct var_decl *v = &r->m->vars[k];
  struct tfr_variable *out = &r->out[k];
  const struct raw_value *raw = r->given[k] ? r->winner[k] : NULL;
  if (!r->given[k])
    out->source = TFR_SRC_DEFAULT;
  struct element_of e = {r, v, raw};
  struct finalizer f = {r->a,
                        r->diags,
                        r->engine,
                        v,
                        tfr_arena_printf(r->a, "var.%s", v->name),
                        true,
                        element_note,
                        &e,
                        false};
  struct given_value g = {r->given[k], raw ? raw->kind : TFR_SRC_DEFAULT,
                          raw && raw->src ? raw_range(raw)
                                          : (struct tfr_range){0},
                          raw && raw->fast};
  const tfr_value *val = var_final(&f, &g);
  if (!val)
    return;
  if (v->deprecated && raw && !(r->given[k]->flags & TFR_V_NULL) &&
      r->engine->deprecated_warns)
    var_deprecated_warning(r->a, r->diags, r->engine, v, &v->deprecated_range);
  out->value = val;
  out->type = val->type;
  out->error = false;
}

/* Every attempt to set the variable, for explain. */
static void attempts(struct resolver *r, size_t k) {
  const struct module *m = r->m;
  const struct var_decl *v = &m->vars[k];
  struct tfr_variable *out = &r->out[k];
  size_t n = r->nattempts ? r->nattempts[k] : 0;
  struct tfr_attempt *at = tfr_arena_alloc(r->a, (n ? n : 1) * sizeof *at);
  size_t j = 0;
  for (size_t q = 0; q < n; q++) {
    const struct raw_value *raw = &m->raws[r->raw_index[r->first[k] + q]];
    at[j].source = raw->kind;
    at[j].file = raw->file;
    if (raw->src) {
      at[j].line = raw->line;
      at[j].text = raw->src->text + raw->span.start;
      at[j].text_len = raw->span.end - raw->span.start;
    } else {
      at[j].text = raw->text;
      at[j].text_len = raw->len;
    }
    at[j].via = raw->via;
    at[j].won = raw == r->winner[k] && r->given[k];
    at[j].failed = raw == r->winner[k] && !r->given[k];
    j++;
  }
  out->attempts = at;
  out->nattempts = n;
  out->default_value = v->has_default ? v->dflt : NULL;
  out->declared = v->type;
  out->given = r->winner[k] && r->winner[k]->fast ? NULL : r->given[k];
  out->literal_mode = v->literal_mode;
  out->typed = v->typed;
  out->nullable = v->nullable;
  out->description = v->description;
}

static void describe_source(struct resolver *r, size_t k, bool collected) {
  const struct raw_value *raw = r->winner[k];
  struct tfr_variable *out = &r->out[k];
  attempts(r, k);
  if (!collected) {
    out->source = TFR_SRC_NONE; /* Terraform stopped before looking */
    return;
  }
  if (!raw) {
    out->source = r->m->vars[k].has_default ? TFR_SRC_DEFAULT : TFR_SRC_NONE;
    return;
  }
  /* a value that failed to parse still says where it came from */
  out->source = raw->kind;
  out->source_file = raw->file;
  out->source_line = raw->src ? raw->line : 0;
  out->source_via = raw->via;
  if (raw->src)
    out->value_range = raw_range(raw);
}

/* Where variable k's rules' errors point: its value, or its declaration
** (a default). */
static struct tfr_range value_range(const void *ud, size_t k) {
  const struct resolver *r = ud;
  const struct raw_value *raw = r->winner[k];
  if (r->engine->errors_at_decl)
    return r->m->vars[k].decl;
  return raw && raw->src && r->given[k] ? raw_range(raw) : r->m->vars[k].decl;
}

/* What the rules are evaluated with: each variable's final value and
** whether it failed (const_only: the const variables', the others
** unknown), where its rules' failures point, and their outcomes. */
struct rule_inputs {
  const tfr_value **vals;
  bool *failed;
  struct tfr_rule **rules;
  struct value_place at;
};

static struct rule_inputs rule_inputs(struct resolver *r, bool const_only) {
  size_t n = r->m->nvars ? r->m->nvars : 1;
  struct rule_inputs in = {tfr_arena_alloc(r->a, n * sizeof *in.vals),
                           tfr_arena_alloc(r->a, n * sizeof *in.failed),
                           tfr_arena_alloc(r->a, n * sizeof *in.rules),
                           {value_range, r}};
  for (size_t k = 0; k < r->m->nvars; k++) {
    bool c = !const_only || r->m->vars[k].is_const;
    in.vals[k] = c ? r->out[k].value : NULL;
    in.failed[k] = c && r->out[k].error;
    in.rules[k] = UNCONST(struct tfr_rule *, r->out[k].rules);
  }
  return in;
}

/* Terraform's init walk (>= 1.15, backend_local.go BuildConfigWithGraph,
** graph_builder_init.go), a pass of the tree's walk over the root alone:
** the const variables' final values and their rules, the other variables
** unknown, before anything else is checked; false if it gave an error
** (plan stops there). */
static bool init_walk(struct resolver *r, struct tree *tree) {
  bool any = false;
  for (size_t k = 0; k < r->m->nvars; k++)
    if (r->m->vars[k].is_const) {
      final_value(r, k);
      any = true;
    }
  if (!any || diags_errors_since(r->diags, 0))
    return !any;
  struct rule_inputs in = rule_inputs(r, true);
  return tree_init_walk(tree, in.vals, &in.at, in.rules);
}

/* OpenTofu's static evaluation gave no value for v (static_scope.go:64-73,
** enhanceDiagnostics): "Unable to compute static value" at the range of
** the root module's call, which is empty, and named by its identifier,
** which is empty too. */
static void static_unavailable(struct resolver *r, const struct var_decl *v) {
  static const struct tfr_range nowhere = {.filename = ""};
  var_error(r, &nowhere, TFR_DIAG_ERROR, "Unable to compute static value",
            tfr_arena_printf(r->a, " depends on var.%s which is not available",
                             v->name),
            v->name);
}

/* One const variable's value as OpenTofu's static evaluation prepares it
** (static_scope.go:250-399, through the finaliser; the root's values:
** command/meta_config.go:93-128, without input).  Its rules are not
** checked there (389-396). */
static void static_const(struct resolver *r, size_t k) {
  const struct var_decl *v = &r->m->vars[k];
  const struct raw_value *raw = r->winner[k];
  const tfr_value *val = !raw        ? v->dflt
                         : raw->fast ? raw->fast
                                     : parse_raw(r, raw, v);
  if (!val) { /* static_scope.go:278-285: parse errors, or no value */
    if (!raw && r->missing_info)
      return; /* the caller's to set: stage_parse says so */
    if (!raw) /* meta_config.go:108-120: input is disabled */
      var_error(r, &v->decl, TFR_DIAG_ERROR,
                tfr_arena_printf(r->a,
                                 "Failed to request input from user for "
                                 "variable var.%s",
                                 v->name),
                "", v->name);
    static_unavailable(r, v);
    return;
  }
  struct finalizer f = {.a = r->a,
                        .diags = r->diags,
                        .engine = r->engine,
                        .v = v,
                        .addr = tfr_arena_printf(r->a, "var.%s", v->name),
                        .statically = true};
  struct given_value g = {raw ? val : NULL, raw ? raw->kind : TFR_SRC_DEFAULT,
                          (struct tfr_range){0}, raw && raw->fast};
  /* a value that does not convert is said alone (static_scope.go:
  ** 336-349); a null one, with what could not be computed (362-376) */
  if (!var_final(&f, &g) &&
      diags_at(r->diags, tfr_diags_count(r->diags) - 1)->code ==
          TFR_CODE_REQUIRED_NOT_SET)
    static_unavailable(r, v);
}

/* OpenTofu's static evaluation of the const variables while the module
** loads (configs/module.go:270-285: each const variable referenced,
** lang/eval.go:375-405 visits them all); an error stops the command
** there, before any other variable is looked at.  False if it gave one.
** OpenTofu visits them in its map's order, random: here, in name order. */
static bool static_consts(struct resolver *r) {
  size_t before = tfr_diags_count(r->diags);
  bool chosen = false;
  for (size_t k = 0; k < r->m->nvars; k++)
    if (r->m->vars[k].is_const) {
      if (!chosen)
        choose_winners(r, NULL);
      chosen = true;
      static_const(r, k);
    }
  return !diags_errors_since(r->diags, before);
}

/* -missing-required=info: the variables whose failed rules say that the
** caller must set them (validate_soften): no source sets them and their
** default is null.  NULL without -missing-required=info. */
static const bool *soft_vars(struct resolver *r) {
  if (!r->missing_info)
    return NULL;
  bool *soft = tfr_arena_alloc(r->a, (r->m->nvars ? r->m->nvars : 1));
  for (size_t k = 0; k < r->m->nvars; k++) {
    const struct var_decl *v = &r->m->vars[k];
    soft[k] =
        !r->given[k] && v->has_default && v->dflt && tfr_value_is_null(v->dflt);
  }
  return soft;
}

/* The module tree's plan walk with the root's final values: the root is
** its first instance, whose rules are evaluated in the walk as Terraform's
** one graph orders them (after the module outputs they read); a failed
** rule unresolves its variable. */
static void plan_tree(struct resolver *r, struct tree *tree) {
  struct rule_inputs in = rule_inputs(r, false);
  for (size_t k = 0; k < r->m->nvars; k++)
    in.vals[k] = r->out[k].error ? NULL : r->out[k].value;
  tree_plan(tree, r->diags, in.vals, &in.at, in.rules, soft_vars(r));
  for (size_t k = 0; k < r->m->nvars; k++)
    if (tree_root_failed(tree, k) && !r->out[k].error) {
      r->out[k].error = true;
      r->out[k].value = NULL;
      r->out[k].type = r->m->vars[k].plain;
    }
}

/* The preview's rules (a resolution stopped before the walk): the plan
** walk of a tree of the root alone. */
static void final_rules(struct resolver *r, const struct tfr_resolve_opts *o,
                        const struct overlays *ov) {
  struct tree_opts to = {.env = o->env,
                         .cache = o->cache,
                         .ov = ov,
                         .own_dir = o->own_dir,
                         .root_only = true};
  struct tree *tree = tree_new(r->a, r->diags, r->m, &to);
  if (tree_graph(tree, r->diags))
    plan_tree(r, tree);
}

/* The first diagnostic of each variable in d, by the variable's index
** (NULL: none): its first error, or (no_value) its "No value for required
** variable" warning (missing_required_info).  One pass over d. */
static const struct tfr_diag **own_diags(struct resolver *r, const tfr_diags *d,
                                         bool no_value) {
  size_t n = r->m->nvars;
  const struct tfr_diag **own =
      tfr_arena_alloc(r->a, (n ? n : 1) * sizeof *own);
  for (size_t i = 0; i < tfr_diags_count(d); i++) {
    const struct tfr_diag *e = tfr_diags_get(d, i);
    if (!e->variable || (e->module && *e->module) || /* a child's */
        (no_value ? e->code != TFR_CODE_NO_VALUE : e->sev != TFR_DIAG_ERROR))
      continue;
    const struct var_decl *v =
        module_var(r->m, e->variable, strlen(e->variable));
    if (v && !own[v - r->m->vars])
      own[v - r->m->vars] = e;
  }
  return own;
}

/* "plan stops before this: " and the first error in d, in a few words:
** "var.project has no value", "var.x: Invalid value for input variable",
** "Invalid value for input variable "x" in module.app" (a child's), or a
** summary and where it is. */
static const char *stop_reason(tfr_arena *a, const struct module *m,
                               const tfr_diags *d) {
  const struct tfr_diag *first = NULL;
  size_t n = 0;
  for (size_t i = 0; i < tfr_diags_count(d); i++) {
    const struct tfr_diag *e = tfr_diags_get(d, i);
    if (e->sev == TFR_DIAG_ERROR && !n++)
      first = e;
  }
  if (!first)
    return "plan stops before this";
  const char *what;
  if (first->variable && first->module && *first->module) /* a child's */
    what = tfr_arena_printf(a, "%s \"%s\" in %s", first->summary,
                            first->variable, first->module);
  else if (first->code == TFR_CODE_NO_VALUE && first->variable)
    what = tfr_arena_printf(a, "var.%s has no value", first->variable);
  else if (first->variable &&
           module_var(m, first->variable, strlen(first->variable)))
    what = tfr_arena_printf(a, "var.%s: %s", first->variable, first->summary);
  else if (first->variable) /* an undeclared name */
    what = tfr_arena_printf(a, "%s \"%s\"", first->summary, first->variable);
  else if (first->subject.filename) {
    char where[512];
    tfr_range_format(&first->subject, where, sizeof where);
    what = tfr_arena_printf(a, "%s at %s", first->summary, where);
  } else
    what = first->summary;
  if (n == 1)
    return tfr_arena_printf(a, "plan stops before this: %s", what);
  return tfr_arena_printf(a,
                          "plan stops before this: %s (and %zu more error%s)",
                          what, n - 1, n > 2 ? "s" : "");
}

/* Whether the errors from diags[from] on are all "Failed to read
** variables file" (the other value sources were read). */
static bool only_unreadable(const tfr_diags *diags, size_t from) {
  for (size_t i = from; i < tfr_diags_count(diags); i++) {
    const struct tfr_diag *g = tfr_diags_get(diags, i);
    if (g->sev == TFR_DIAG_ERROR && g->code != TFR_CODE_VAR_FILE_UNREADABLE)
      return false;
  }
  return true;
}

/* When plan stops before the final values (a stage failed), the value
** each variable would have without the errors that stop it: its own
** winning source, defaults, conversion and rules, evaluated as in the
** final stage into a resolver and diagnostics of their own.  Variables
** with errors of their own get no preview. */
static void preview(struct resolver *r, const struct tfr_resolve_opts *o,
                    const struct overlays *ov, bool any_rules) {
  size_t n = r->m->nvars;
  struct resolver p = *r;
  p.diags = tfr_diags_new(r->a);
  tfr_diags_share_sources(p.diags, r->diags);
  p.out = tfr_arena_alloc(r->a, (n ? n : 1) * sizeof *p.out);
  const struct tfr_diag **own = own_diags(r, r->diags, false);
  for (size_t k = 0; r->config_failed && k < n; k++) /* in a broken file */
    for (size_t i = 0; !own[k] && i < tfr_diags_count(r->diags); i++) {
      const struct tfr_diag *e = tfr_diags_get(r->diags, i);
      const char *f = r->m->vars[k].decl.filename;
      if (e->sev == TFR_DIAG_ERROR && e->subject.filename && f &&
          !strcmp(e->subject.filename, f))
        own[k] = e;
    }
  const struct tfr_diag **pre =
      r->unsaid ? own_diags(r, r->unsaid, false) : NULL;
  for (size_t k = 0; k < n; k++) {
    p.out[k] = r->out[k];
    if (r->out[k].nrules) { /* the preview's outcomes are its own */
      struct tfr_rule *rules =
          tfr_arena_alloc(r->a, r->out[k].nrules * sizeof *rules);
      memcpy(rules, r->out[k].rules, r->out[k].nrules * sizeof *rules);
      p.out[k].rules = rules;
    }
    if (!own[k] && !(pre && pre[k]))
      final_value(&p, k);
  }
  if (any_rules)
    final_rules(&p, o, ov);
  const char *why = stop_reason(r->a, r->m, r->diags);
  const struct tfr_diag **would = own_diags(r, p.diags, false);
  for (size_t k = 0; k < n; k++) {
    if (own[k])
      continue;
    r->out[k].reason = why;
    if (pre && pre[k]) { /* its value would not even parse */
      r->out[k].preview_error = pre[k];
      continue;
    }
    r->out[k].preview = p.out[k].value;
    if (!p.out[k].value)
      r->out[k].preview_error = would[k];
  }
}

/* Why each unresolved variable has no value (tfr_variable.reason). */
static void reasons(struct resolver *r) {
  const char *why = NULL;
  const struct tfr_diag **own = NULL, **nv = NULL;
  for (size_t k = 0; k < r->m->nvars; k++) {
    struct tfr_variable *v = &r->out[k];
    if (!v->error || v->reason)
      continue;
    if (!own) { /* made once, when a variable needs them */
      own = own_diags(r, r->diags, false);
      nv = r->missing_info ? own_diags(r, r->diags, true) : NULL;
    }
    const struct tfr_diag *e = own[k] ? own[k] : nv ? nv[k] : NULL;
    if (e) {
      v->reason = e->summary;
      continue;
    }
    if (!why)
      why = stop_reason(r->a, r->m, r->diags);
    v->reason = why;
  }
}

/* A loaded module: the configuration, shared read-only by resolutions. */
struct tfr_module {
  struct module m; /* first: a tfr_module is its module (module_of) */
  bool failed;     /* loading reported errors: Terraform stops there */
};

static tfr_module *load(tfr_arena *a, tfr_diags *diags, const char *dir,
                        bool opentofu, bool shared, struct tfr_cache *cache,
                        const struct overlays *ov) {
  tfr_module *mod = tfr_arena_alloc(a, sizeof *mod);
  size_t before = 0;
  for (size_t i = 0; i < tfr_diags_count(diags); i++)
    before += tfr_diags_get(diags, i)->sev == TFR_DIAG_ERROR;
  if (cache) /* a root that other trees may call: read once for all */
    mod->m = *modcache_load(cache, a, diags, dir ? dir : ".", opentofu, ov);
  else {
    mod->m = *module_load(a, diags, dir ? dir : ".", opentofu, shared, ov);
    validate_static(&mod->m, a, diags); /* checks needing the whole module */
  }
  size_t after = 0;
  for (size_t i = 0; i < tfr_diags_count(diags); i++)
    after += tfr_diags_get(diags, i)->sev == TFR_DIAG_ERROR;
  mod->failed = after > before;
  return mod;
}

bool tfr_config_file_read(const char *const *names, size_t n, const char *name,
                          bool opentofu) {
  return name &&
         module_file_read(engine_rules(opentofu), names, n, name, false);
}

tfr_module *tfr_module_load(tfr_arena *a, tfr_diags *diags, const char *dir,
                            bool opentofu) {
  return load(a, diags, dir, opentofu, true, NULL, NULL);
}

/*
** The first sized layouts (resolution.h): a program's size below them is
** not one of ours.  They never change: later fields are appended past
** them.
*/
static const size_t resolve_opts_v1 =
    STRUCT_END(struct tfr_resolve_opts, keep_given);

/*
** A program's options as this library's struct, in *out: the fields past
** the program's size at their defaults, and its args at this library's
** stride.  False, after an error diagnostic, when they cannot be read.
*/
static bool read_opts(tfr_arena *a, tfr_diags *diags,
                      const struct tfr_resolve_opts *o,
                      struct tfr_resolve_opts *out) {
  static const char *init = "TFR_RESOLVE_OPTS_INIT";
  return opts_read(a, diags, out, sizeof *out, o, o ? o->size : 0,
                   resolve_opts_v1, "struct tfr_resolve_opts", init) &&
         opts_read_args(a, diags, &out->args, out->nargs, &out->arg_size, init);
}

/* A new resolution, zeroed, in a. */
static struct tfr_resolution *new_resolution(tfr_arena *a) {
  return tfr_arena_alloc(a, sizeof(struct tfr_resolution));
}

/* The tree is in the public struct (tfr_resolution.walked), so that a
** copy of it made by value -- tfr_policy_check's, a terragrunt unit's --
** keeps it and one a caller makes from nothing has none: a struct the
** library alone knew the size of was read past the end of those
** (show -format=plan-json of a terragrunt unit crashed). */
const struct tree *resolve_tree(const struct tfr_resolution *res) {
  return res ? (const struct tree *)res->walked : NULL;
}

/* What a call with options it cannot read returns: no variables. */
static const struct tfr_resolution *no_resolution(tfr_arena *a,
                                                  const tfr_module *mod) {
  struct tfr_resolution *res = new_resolution(a);
  res->module = mod;
  return res;
}

static const struct tfr_resolution *resolve(tfr_arena *a, tfr_diags *diags,
                                            const tfr_module *mod,
                                            const struct tfr_resolve_opts *o,
                                            const struct overlays *ov);

/* The editor's open files of the options, as the readers take them. */
static const struct overlays *overlays_of(tfr_arena *a,
                                          const struct tfr_resolve_opts *o) {
  if (!o->noverlays)
    return NULL;
  struct overlay *v = tfr_arena_alloc(a, o->noverlays * sizeof *v);
  for (size_t i = 0; i < o->noverlays; i++)
    v[i] = (struct overlay){o->overlays[i].path, o->overlays[i].text,
                            o->overlays[i].len};
  struct overlays *ov = tfr_arena_alloc(a, sizeof *ov);
  *ov = (struct overlays){v, o->noverlays};
  return ov;
}

const struct tfr_resolution *tfr_resolve(tfr_arena *a, tfr_diags *diags,
                                         const struct tfr_resolve_opts *o) {
  struct tfr_resolve_opts ro;
  if (!read_opts(a, diags, o, &ro))
    return no_resolution(a, NULL);
  const struct overlays *ov = overlays_of(a, &ro);
  tfr_module *mod =
      load(a, diags, ro.dir, ro.opentofu, false, ro.tree ? ro.cache : NULL, ov);
  /* errors from before (a bad flag) stop resolution too */
  mod->failed |= tfr_diags_has_errors(diags);
  return resolve(a, diags, mod, &ro, ov);
}

const struct tfr_resolution *
tfr_resolve_module(tfr_arena *a, tfr_diags *diags, const tfr_module *mod,
                   const struct tfr_resolve_opts *o) {
  struct tfr_resolve_opts ro;
  if (!read_opts(a, diags, o, &ro))
    return no_resolution(a, mod);
  return resolve(a, diags, mod, &ro, overlays_of(a, &ro));
}

/* Each variable's result before anything is resolved: in error, every
** rule skipped until the validation stage says otherwise; whether any
** variable has rules. */
static bool init_out(struct resolver *r) {
  const struct module *m = r->m;
  size_t n = m->nvars ? m->nvars : 1;
  r->out = tfr_arena_alloc(r->a, n * sizeof *r->out);
  r->given = tfr_arena_alloc(r->a, n * sizeof *r->given);
  r->winner = tfr_arena_alloc(r->a, n * sizeof *r->winner);
  bool any_rules = false;
  for (size_t k = 0; k < m->nvars; k++) {
    const struct var_decl *v = &m->vars[k];
    r->out[k] = (struct tfr_variable){.name = v->name,
                                      .type = v->plain,
                                      .sensitive = v->sensitive,
                                      .error = true,
                                      .decl = v->decl};
    any_rules |= v->nvalidations > 0;
    r->out[k].rules = module_skipped_rules(r->a, v);
    r->out[k].nrules = v->nvalidations;
    r->out[k].deprecated = v->deprecated;
    r->out[k].ephemeral = v->ephemeral;
    r->out[k].is_const = v->is_const;
    r->out[k].type_range = v->type_range;
    r->out[k].type_overridden = v->type_overridden;
  }
  return any_rules;
}

/* Where the resolution got to, stage by stage. */
struct progress {
  bool stop;      /* plan stops here */
  bool collected; /* the values were read */
  bool parsed;    /* each variable's winning value is known */
};

static void collect(struct resolver *r, const struct tfr_resolve_opts *o,
                    const struct overlays *ov, tfr_diags *d) {
  /* -strict looks at each value as written: no fast path */
  struct collect_opts co = {o->env,
                            o->args,
                            o->nargs,
                            !o->keep_given && !o->strict,
                            o->skip_editor_files,
                            ov,
                            o->unknown,
                            o->nunknown};
  module_collect(r->m, r->a, d, &co);
}

/* Stages 1-3: the values read and parsed; when plan stops before (a var
** file it cannot read, an error of the configuration) those it can read
** as a preview, what reading and parsing them says unsaid (plan would say
** it once the error is fixed), each variable's own error its preview's. */
static struct progress read_values(struct resolver *r,
                                   const struct tfr_resolve_opts *o,
                                   const struct overlays *ov) {
  struct progress p = {0};
  bool failed = r->config_failed || r->blocks_failed;
  p.stop = failed || tfr_diags_has_errors(r->diags) || o->declarations_only;
  p.collected = !p.stop;
  bool unread = false;
  if (!p.stop) {
    size_t before = tfr_diags_count(r->diags);
    collect(r, o, ov, r->diags);
    p.stop = tfr_diags_has_errors(r->diags);
    unread = p.stop && only_unreadable(r->diags, before);
  }
  if (!p.stop && !r->m->has_config) {
    module_no_config_error(r->diags, r->engine->product);
    p.stop = true;
  }
  if (!p.stop && r->engine->const_static_eval)
    p.stop = !static_consts(r);
  p.parsed = !p.stop;
  if (!p.stop) {
    stage_parse(r);
    p.stop = diags_errors_since(r->diags, 0); /* -strict's go on (issue 37) */
  } else if ((unread || (failed && !p.collected && !o->declarations_only)) &&
             r->m->has_config) {
    r->unsaid = tfr_diags_new(r->a);
    tfr_diags_share_sources(r->unsaid, r->diags);
    tfr_diags *said = r->diags;
    r->diags = r->unsaid;
    if (!p.collected) /* each source is described with its preview */
      collect(r, o, ov, r->unsaid);
    stage_parse(r);
    p.parsed = true;
    r->diags = said;
  }
  return p;
}

/* The module tree (the root alone with -no-modules): the root first, its
** init walk, then its children loaded, their arguments checked, the
** graph built.  NULL when the init walk stopped plan. */
static struct tree *load_tree(struct resolver *r,
                              const struct tfr_resolve_opts *o,
                              const struct overlays *ov, bool *stop) {
  const struct module *m = r->m;
  size_t n = m->nvars ? m->nvars : 1;
  const tfr_value **cv = tfr_arena_alloc(r->a, n * sizeof *cv);
  struct tree_opts to = {cv,        o->env,          o->cache,
                         o->strict, o->warn_dropped, o->unchecked_error,
                         ov,        o->own_dir,      !o->tree};
  struct tree *tree = tree_new(r->a, r->diags, r->m, &to);
  if (r->engine->const_init_walk && !init_walk(r, tree)) {
    *stop = true;
    return NULL;
  }
  for (size_t k = 0; k < m->nvars; k++) /* what module sources may use */
    cv[k] = m->vars[k].is_const && !r->out[k].error ? r->out[k].value : NULL;
  *stop = !tree_load_children(tree) || !tree_graph(tree, r->diags);
  return tree;
}

/* tfr_resolve_module with options this library's struct holds, and their
** overlays as the readers take them. */
static const struct tfr_resolution *resolve(tfr_arena *a, tfr_diags *diags,
                                            const tfr_module *mod,
                                            const struct tfr_resolve_opts *o,
                                            const struct overlays *ov) {
  struct tfr_resolution *res = new_resolution(a);
  size_t first = tfr_diags_count(diags);
  /* this resolution's copy: the raw values are its own */
  struct module *m = tfr_arena_alloc(a, sizeof *m);
  *m = mod->m;
  m->raws = NULL;
  m->nraws = 0;
  struct resolver r = {.a = a,
                       .diags = diags,
                       .m = m,
                       .strict = o->strict,
                       .undeclared_each = o->undeclared_each,
                       .engine = engine_rules(m->opentofu),
                       .missing_info = o->missing_required_info,
                       .warn_dropped = o->warn_dropped,
                       .config_failed = mod->failed};
  /* the root's module and output blocks' errors are configuration errors
  ** too, before any value (the tree's loading says the rest) */
  if (!mod->failed && o->tree && !o->declarations_only && m->tree_diags &&
      tfr_diags_has_errors(m->tree_diags))
    r.blocks_failed = tree_root_diags(m, diags);
  bool any_rules = init_out(&r);
  res->vars = r.out;
  res->n = m->nvars;
  res->has_config = m->has_config;
  res->config_failed = (r.config_failed || r.blocks_failed) && m->has_config;
  res->module = mod;
  if (r.engine->warns_dropped_default && !r.strict)
    engine_default_warnings(&r);
  struct progress p = read_values(&r, o, ov);
  struct tree *tree = NULL;
  if (!p.stop)
    tree = load_tree(&r, o, ov, &p.stop);
  /* Terraform's validate walk, every root variable unknown: the rules of
  ** every instance, the root's included (a cycle stopped at the graph,
  ** checked before it is walked: graph_builder.go:83) */
  if (!p.stop)
    p.stop = !tree_validate(tree, diags);
  group_raws(&r);
  for (size_t k = 0; k < m->nvars; k++) {
    if (!p.stop)
      final_value(&r, k);
    describe_source(&r, k, p.collected);
  }
  if (!p.stop) /* (the tree is there: load_tree ran) */
    plan_tree(&r, tree);
  if (p.stop && p.parsed)
    preview(&r, o, ov, any_rules);
  res->preview_diags = r.unsaid;
  for (size_t k = 0; !p.collected && p.parsed && k < m->nvars; k++)
    if (r.out[k].preview || r.out[k].preview_error)
      describe_source(&r, k, true);
  reasons(&r);
  if (tree) {
    tree_result(tree, res);
    res->walked = tree;
  } else if (o->tree && m->ncalls)
    res->tree = true; /* stopped before the tree was loaded */
  if (res->tree)
    tree_mark_diags(diags, 0); /* the load's too: the root's */
  else if (tree) /* a tree of one module: its walk's are no module's */
    diags_unset_root_module(diags, first);
  res->valid = !tfr_diags_has_errors(diags);
  return res;
}

const char *tfr_resolution_suggest(const struct tfr_resolution *res,
                                   const char *name) {
  if (!res || !res->module || !name)
    return NULL;
  const struct module *m = &res->module->m;
  return closest(m, name);
}

/* The variables of v[0..n) that keep keeps, in a copy (*kept of them). */
static struct tfr_variable *
kept_vars(tfr_arena *a, const struct tfr_variable *v, size_t n,
          bool (*keep)(const struct tfr_variable *v, void *ctx), void *ctx,
          size_t *kept) {
  struct tfr_variable *out = tfr_arena_alloc(a, (n ? n : 1) * sizeof *out);
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (keep(&v[i], ctx))
      out[k++] = v[i];
  *kept = k;
  return out;
}

const struct tfr_resolution *
tfr_resolution_select(tfr_arena *a, const struct tfr_resolution *res,
                      bool (*keep)(const struct tfr_variable *v, void *ctx),
                      void *ctx) {
  struct tfr_resolution *out = new_resolution(a);
  *out = *res;
  out->vars = kept_vars(a, res->vars, res->n, keep, ctx, &out->n);
  /* the child instances' variables too; an instance left with none goes
  ** (one that has none at all stays) */
  struct tfr_instance *ins =
      tfr_arena_alloc(a, (res->ninstances ? res->ninstances : 1) * sizeof *ins);
  size_t ni = 0;
  for (size_t i = 0; i < res->ninstances; i++) {
    const struct tfr_instance *in = &res->instances[i];
    size_t k;
    struct tfr_variable *iv = kept_vars(a, in->vars, in->n, keep, ctx, &k);
    if (in->n && !k)
      continue;
    ins[ni] = *in;
    ins[ni].vars = iv;
    ins[ni++].n = k;
  }
  out->instances = ins;
  out->ninstances = ni;
  return out;
}

const tfr_value *tfr_resolution_attr_default(const struct tfr_resolution *res,
                                             const char *name,
                                             const char *path) {
  if (!res || !res->module || !name || !path)
    return NULL;
  const struct module *m = &res->module->m;
  const struct var_decl *v = module_var(m, name, strlen(name));
  const struct tfr_defaults *d = v ? v->defaults : NULL;
  const tfr_type *t = v ? v->type : NULL;
  while (d && t && *path) {
    bool attr = *path == '.';
    size_t n = attr ? strcspn(path + 1, ".[") : strcspn(path, "]") + 1;
    const char *key = attr ? path + 1 : "";
    size_t klen = attr ? n : 0;
    const char *rest = path + (attr ? 1 + n : n);
    if (attr && t->kind == TFR_OBJECT && !*rest) /* the attribute itself */
      for (uint32_t i = 0; i < d->nvalues; i++)
        if (strlen(d->value_names[i]) == klen &&
            !memcmp(d->value_names[i], key, klen))
          return d->values[i];
    /* a map's keys and a collection's indexes: its element's defaults */
    if (t->kind == TFR_MAP || t->kind == TFR_LIST || t->kind == TFR_SET)
      key = "", klen = 0, t = t->elem;
    else if (t->kind == TFR_OBJECT && attr) {
      long j = tfr_type_attr(t, key, klen);
      t = j < 0 ? NULL : t->types[j];
    } else
      return NULL;
    const struct tfr_defaults *next = NULL;
    for (uint32_t i = 0; i < d->nchildren && !next; i++)
      if (strlen(d->child_keys[i]) == klen &&
          !memcmp(d->child_keys[i], key, klen))
        next = d->children[i];
    d = next;
    path = rest;
  }
  return NULL;
}

const struct tfr_variable *tfr_resolution_find(const struct tfr_resolution *res,
                                               const char *name) {
  if (!res || !name)
    return NULL;
  size_t lo = 0, hi = res->n; /* vars are sorted by name, in byte order */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(res->vars[mid].name, name);
    if (!c)
      return &res->vars[mid];
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}
