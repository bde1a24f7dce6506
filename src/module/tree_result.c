/*
** The result: every instance as the resolution gives it.
*/
#include "module/tree_int.h"
#include "base/heap.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "base/diag_int.h"
#include "syntax/parse.h"
#include "syntax/refs_tf.h"

/* ---- the result --------------------------------------------------------- */

/* An expression of a module block as a parsed file (tfr_parse_expr's
** kind), for the public results (NULL for none). */
static const tfr_file *expr_file(struct tree *t, struct src_file *src,
                                 const struct ast *x) {
  if (!x)
    return NULL;
  struct tfr_file *f = tfr_arena_alloc(t->a, sizeof *f);
  f->f.src = src;
  f->f.body = UNCONST(struct ast *, x);
  return f;
}

/* The calling module's variables an argument reads, directly or through
** its local values (each once, in order). */
static void reads_of(struct tree *t, const struct module *caller,
                     const struct module_call *call, const struct ast *x,
                     struct tfr_variable *out) {
  bool repetition = false; /* each.* or count.* followed */
  size_t cap = 8, n = 0;
  const char **v = tfr_arena_alloc(t->a, cap * sizeof *v);
  const struct ast **todo =
      tfr_arena_alloc(t->a, (caller->nlocals + 2) * sizeof *todo);
  bool *seen = tfr_arena_alloc(t->a, (caller->nlocals + 1) * sizeof *seen);
  size_t ntodo = 0;
  todo[ntodo++] = x;
  while (ntodo) {
    struct tref_list l = tree_refs_of_x(t, todo[--ntodo]);
    for (size_t i = 0; i < l.n; i++) {
      const struct tref *r = &l.v[i];
      if ((tree_root_is(r, "each") || tree_root_is(r, "count")) &&
          !repetition) {
        repetition = true; /* the call's for_each or count */
        if (call->for_each || call->count)
          todo[ntodo++] = call->for_each ? call->for_each : call->count;
        continue;
      }
      if (!r->a1)
        continue;
      if (tree_root_is(r, "local")) {
        long k = scope_local_index(caller, r->a1, r->l1);
        if (k >= 0 && !seen[k]) {
          seen[k] = true;
          todo[ntodo++] = caller->locals[k].expr;
        }
        continue;
      }
      if (!tree_root_is(r, "var") || module_var_index(caller, r->a1, r->l1) < 0)
        continue;
      bool dup = false;
      for (size_t q = 0; q < n && !dup; q++)
        dup = strlen(v[q]) == r->l1 && !memcmp(v[q], r->a1, r->l1);
      if (dup)
        continue;
      if (n == cap) {
        const char **nv = tfr_arena_alloc(t->a, 2 * cap * sizeof *nv);
        memcpy(nv, v, n * sizeof *nv);
        v = nv;
        cap *= 2;
      }
      v[n++] = tfr_arena_strndup(t->a, r->a1, r->l1);
    }
  }
  out->reads = v;
  out->nreads = n;
}

/* tfr_variable.from_*: the root variable's element argument k of
** instance in takes its value from, whole. */
static void from_element(struct tree *t, const struct tinst *in, size_t k,
                         struct tfr_variable *out) {
  const char *from = NULL;
  struct tfr_range at = {0};
  if (!tree_trace_element(t, in, k, "", &at, &from) || !from)
    return;
  out->from_element = from;
  out->from_range = at;
  const tfr_value *val = in->vars[k];
  if (val && !in->tm->m->vars[k].sensitive &&
      !tfr_value_has_mark(val, TFR_V_SENSITIVE))
    out->from_value = tfr_value_unmark(t->a, val, TFR_V_EPHEMERAL, NULL);
}

static struct tfr_variable child_var(struct tree *t, const struct tmod *tm,
                                     const struct tinst *in, size_t k) {
  const struct var_decl *v = &tm->m->vars[k];
  const struct module_arg *arg = tm->args[k];
  struct tfr_variable out = {0};
  out.name = v->name;
  out.decl = v->decl;
  out.declared = v->type;
  out.typed = v->typed;
  out.nullable = v->nullable;
  out.description = v->description;
  out.deprecated = v->deprecated;
  out.ephemeral = v->ephemeral;
  out.default_value = v->has_default ? v->dflt : NULL;
  out.type_range = v->type_range;
  out.rules = in ? in->rules[k] : module_skipped_rules(t->a, v);
  out.nrules = v->nvalidations;
  if (arg) {
    out.source = TFR_SRC_CONFIG;
    out.arg_range = src_range(arg->file, arg->span);
    out.source_file = out.arg_range.filename;
    out.source_line = out.arg_range.start.line;
    struct tfr_attempt *at = tfr_arena_alloc(t->a, sizeof *at);
    at->source = TFR_SRC_CONFIG;
    at->file = out.source_file;
    at->line = out.source_line;
    at->text = arg->file->text + arg->span.start;
    at->text_len = arg->span.end - arg->span.start;
    at->won = in && in->var_done[k];
    at->failed = in && in->failed[k];
    out.attempts = at;
    out.nattempts = 1;
    reads_of(t, tm->parent->m, tm->call, arg->expr, &out);
    out.arg_expr = expr_file(t, arg->src, arg->expr);
    if (in)
      from_element(t, in, k, &out);

  } else
    out.source = v->has_default ? TFR_SRC_DEFAULT : TFR_SRC_NONE;
  const tfr_value *val = in && in->var_done[k] ? in->vars[k] : NULL;
  out.declared_sensitive = v->sensitive;
  out.sensitive =
      v->sensitive || (val && tfr_value_has_mark(val, TFR_V_SENSITIVE));
  if (!val) {
    out.error = true;
    out.type = tfr_type_plain(t->a, v->type);
    out.reason =
        in && in->failed[k] ? "its value has errors" : "plan stops before this";
    return out;
  }
  out.value =
      tfr_value_unmark(t->a, val, TFR_V_SENSITIVE | TFR_V_EPHEMERAL, NULL);
  out.type = out.value->type;
  return out;
}

/* One instance of the result: in, or (NULL: the walk did not run) module
** tm once under its call's address, every variable in error. */
static void put_instance(struct tree *t, struct tfr_instance *o,
                         const struct tmod *tm, const struct tinst *in) {
  o->address = in ? in->addr : tm->addr;
  o->call = tm->addr;
  o->source = tm->source;
  o->dir = tm->rel;
  o->call_range = src_range(tm->call->src, tm->call->decl);
  o->parent = in ? in->parent->addr : tm->parent->addr;
  o->version = tm->call->version;
  const struct manifest_rec *rec =
      t->has_man ? tree_manifest_find(t, tree_manifest_key(t, tm->addr)) : NULL;
  o->installed_version =
      rec && rec->version && *rec->version ? rec->version : NULL;
  o->count_expr = expr_file(t, tm->call->count_src, tm->call->count);
  o->for_each_expr = expr_file(t, tm->call->for_each_src, tm->call->for_each);
  struct tfr_variable *vars =
      tfr_arena_alloc(t->a, (tm->m->nvars ? tm->m->nvars : 1) * sizeof *vars);
  for (size_t k = 0; k < tm->m->nvars; k++)
    vars[k] = child_var(t, tm, in, k);
  o->vars = vars;
  o->n = tm->m->nvars;
}

/* Mark the diagnostics about third-party modules' code (tfr_diag
** .third_party): the CLI counts their warnings in one line. */
static void mark_third_party(struct tree *t) {
  for (size_t i = 0; i < tfr_diags_count(t->diags); i++) {
    struct tfr_diag *g = diags_at(t->diags, i);
    if (g->subject.filename && g->module && *g->module)
      g->third_party = tree_third_party_path(t, g->subject.filename);
  }
}

static int by_address(const void *x, const void *y) {
  return strcmp(((const struct tfr_unchecked *)x)->address,
                ((const struct tfr_unchecked *)y)->address);
}

void tree_result(struct tree *t, struct tfr_resolution *res) {
  mark_third_party(t);
  /* else a tree of one module: no module block, or none followed */
  res->tree = t->root->m->ncalls > 0 && !t->root_only;
  size_t n = 0;
  /* a tree cut at a limit is not followed: no child is listed (each
  ** would be "not resolved", up to TREE_MAX_INSTANCES of them) */
  for (size_t i = 1; !t->cut && i < t->nall; i++)
    n += t->planned ? t->all[i]->ninsts : 1;
  struct tfr_instance *out = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *out);
  size_t j = 0;
  /* depth first through the instances: a child's after its caller's */
  struct tinst **stack = NULL;
  size_t sp = 0, cap = 0;
  if (t->planned && t->root->ninsts) {
    cap = 16;
    stack = heap_alloc(cap * sizeof *stack);
    stack[sp++] = t->root->insts[0];
  }
  while (sp) {
    struct tinst *in = stack[--sp];
    if (in->tm->parent)
      put_instance(t, &out[j++], in->tm, in);
    /* children in reverse, so that they pop in order */
    const struct module *m = in->tm->m;
    for (size_t c = m->ncalls; c-- > 0;) {
      const struct texp *e = in->calls[c];
      for (size_t q = e ? e->n : 0; q-- > 0;) {
        if (sp == cap) {
          cap *= 2;
          stack = heap_realloc(stack, cap * sizeof *stack);
        }
        stack[sp++] = e->insts[q];
      }
    }
  }
  free(stack);
  if (!t->planned)
    for (size_t i = 1; !t->cut && i < t->nall; i++)
      put_instance(t, &out[j++], t->all[i], NULL);
  res->instances = out;
  res->ninstances = j;
  if (t->nunchecked > 1)
    qsort(t->unchecked, t->nunchecked, sizeof *t->unchecked, by_address);
  res->unchecked = t->unchecked;
  res->nunchecked = t->nunchecked;
}

size_t tree_config_modules(struct tree *t,
                           const struct tfr_instance **modules) {
  size_t n = t->cut || t->root_only || !t->nall ? 0 : t->nall - 1;
  struct tfr_instance *out = tfr_arena_alloc(t->a, (n ? n : 1) * sizeof *out);
  for (size_t i = 0; i < n; i++)
    put_instance(t, &out[i], t->all[i + 1], NULL);
  *modules = out;
  return n;
}

const char *const *tree_config_depends_on(const struct tree *t, size_t i,
                                          size_t *n) {
  size_t nmods = t->cut || t->root_only || !t->nall ? 0 : t->nall - 1;
  const struct module_call *c = i < nmods ? t->all[i + 1]->call : NULL;
  *n = c ? c->ndepends_on : 0;
  if (!*n)
    return NULL;
  const char **out = tfr_arena_alloc(t->a, *n * sizeof *out);
  for (size_t k = 0; k < *n; k++)
    out[k] = refs_terraform_subject(t->a, c->depends_on[k]);
  return out;
}

void tree_mark_diags(tfr_diags *diags, size_t from) {
  diags_set_module_since(diags, from, "");
}
