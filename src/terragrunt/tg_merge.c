/*
** Merging a unit's include blocks into it as terragrunt does
** (pkg/config/include.go:125-210): bottom-most include first, each
** included config taking the unit (as merged so far) on top of it with
** its block's strategy -- no_merge leaves it out, shallow is
** TerragruntConfig.Merge (include.go:317-430), deep is DeepMerge
** (include.go:446-639), whose inputs mergo merges (include.go:807-817,
** dario.cat/mergo v1.0.2 merge.go:103-224).
*/
#include <string.h>

#include "terragrunt/tg_int.h"

static bool is_obj(const tfr_value *v) {
  return v && !(v->flags & (TFR_V_NULL | TFR_V_UNKNOWN)) &&
         (v->type->kind == TFR_OBJECT || v->type->kind == TFR_MAP);
}

static bool is_seq(const tfr_value *v) {
  return v && !(v->flags & (TFR_V_NULL | TFR_V_UNKNOWN)) &&
         (v->type->kind == TFR_LIST || v->type->kind == TFR_TUPLE ||
          v->type->kind == TFR_SET);
}

static const char *key_at(tfr_arena *a, const tfr_value *v, uint32_t i) {
  if (v->type->kind == TFR_OBJECT)
    return v->type->names[i];
  return tfr_arena_strndup(a, v->keys[i], v->keylens[i]);
}

/* The Go type a JSON value decodes to (ctyhelper.ParseCtyValueToMap with
** UseNumber), as mergo's error names it. */
static const char *go_type(const tfr_value *v) {
  if (is_obj(v))
    return "map[string]interface {}";
  switch (v->type->kind) {
  case TFR_NUMBER:
    return "json.Number";
  case TFR_BOOL:
    return "bool";
  default:
    return "string";
  }
}

static const tfr_value *merge_objects(tfr_arena *a, const tfr_value *dst,
                                      const tfr_value *src, const char **err) {
  size_t cap = (size_t)dst->n + src->n + 1, n = 0;
  const char **names = tfr_arena_alloc(a, cap * sizeof *names);
  const tfr_value **vals = tfr_arena_alloc(a, cap * sizeof *vals);
  for (uint32_t i = 0; i < dst->n; i++) {
    names[n] = key_at(a, dst, i);
    vals[n++] = dst->elems[i];
  }
  for (uint32_t i = 0; i < src->n; i++) {
    const char *k = key_at(a, src, i);
    size_t j = 0;
    while (j < n && strcmp(names[j], k))
      j++;
    const tfr_value *v = src->elems[i];
    if (j < n) {
      v = tg_deep_merge(a, vals[j], v, err);
      if (!v)
        return NULL;
    } else {
      names[n] = k;
    }
    vals[j] = v;
    n += j == n;
  }
  return tfr_object(a, n, names, vals);
}

const tfr_value *tg_deep_merge(tfr_arena *a, const tfr_value *dst,
                               const tfr_value *src, const char **err) {
  if (!dst || (dst->flags & TFR_V_NULL))
    return src;
  if (is_obj(src))
    return is_obj(dst) ? merge_objects(a, dst, src, err) : src;
  if (!is_seq(src))
    return src;       /* WithOverride: the child's value wins */
  if (!is_seq(dst)) { /* merge.go:171-174 */
    *err = tfr_arena_printf(a,
                            "cannot append two slices with different type "
                            "([]interface {}, %s)",
                            go_type(dst));
    return NULL;
  }
  size_t n = (size_t)dst->n + src->n;
  const tfr_value **e = tfr_arena_alloc(a, (n + 1) * sizeof *e);
  if (dst->n) /* (a NULL array when empty) */
    memcpy(e, dst->elems, dst->n * sizeof *e);
  if (src->n) /* (a NULL array when empty) */
    memcpy(e + dst->n, src->elems, src->n * sizeof *e);
  return tfr_tuple(a, n, e);
}

/* ---- the config ---------------------------------------------------------- */

/* mergeExtraArgs (include.go:773-795): a child's block replaces the
** parent's of the same name in place, others come after. */
static void merge_extra(tfr_arena *a, struct tg_cfg *out,
                        const struct tg_cfg *parent,
                        const struct tg_cfg *child) {
  size_t n = parent->nextra;
  struct tg_extra *v = tfr_arena_alloc(a, (n + child->nextra + 1) * sizeof *v);
  if (n) /* (a NULL array when empty) */
    memcpy(v, parent->extra, n * sizeof *v);
  for (size_t i = 0; i < child->nextra; i++) {
    size_t j = 0;
    while (j < n && strcmp(v[j].name, child->extra[i].name))
      j++;
    v[j] = child->extra[i];
    n += j == n;
  }
  out->extra = v;
  out->nextra = n;
}

/* mergeDependencyBlocks (include.go:690-722): by name, the child's
** replaces the parent's; deep merge (deepMergeDependencyBlocks) merges
** the blocks, which the mock outputs only need here as a whole. */
static void merge_deps(tfr_arena *a, struct tg_cfg *out,
                       const struct tg_cfg *parent,
                       const struct tg_cfg *child) {
  size_t n = parent->ndeps;
  struct tg_dep *v = tfr_arena_alloc(a, (n + child->ndeps + 1) * sizeof *v);
  if (n) /* (a NULL array when empty) */
    memcpy(v, parent->deps, n * sizeof *v);
  for (size_t i = 0; i < child->ndeps; i++) {
    size_t j = 0;
    while (j < n && strcmp(v[j].name, child->deps[i].name))
      j++;
    v[j] = child->deps[i];
    n += j == n;
  }
  out->deps = v;
  out->ndeps = n;
}

/* The inputs: the parent's (their chains saying through which include),
** the child's on top -- replacing a name (shallow: mergeInputs,
** include.go:797-805) or merged into it (deep). */
static bool merge_inputs(struct tg_run *r, struct tg_cfg *out,
                         const struct tg_cfg *parent,
                         const struct tg_cfg *child, const struct tg_incl *in) {
  tfr_arena *a = r->a;
  bool deep = in->merge == TG_DEEP;
  size_t n = 0;
  struct tg_input *v =
      tfr_arena_alloc(a, (parent->ninputs + child->ninputs + 1) * sizeof *v);
  for (size_t i = 0; i < parent->ninputs; i++) {
    v[n] = parent->inputs[i];
    v[n++].chain = tfr_arena_printf(
        a, "%s (include%s%s%s, merged %s)", parent->inputs[i].chain,
        *in->name ? " \"" : "", in->name, *in->name ? "\"" : "",
        deep ? "deep" : "shallow");
  }
  for (size_t i = 0; i < child->ninputs; i++) {
    const struct tg_input *c = &child->inputs[i];
    size_t j = 0;
    while (j < n && strcmp(v[j].name, c->name))
      j++;
    struct tg_input m = *c;
    if (j < n && deep) {
      const char *err = NULL;
      m.v = tg_deep_merge(a, v[j].v, c->v, &err);
      if (!m.v) {
        tfr_diags_add(r->d, TFR_DIAG_ERROR, &c->at, "Inputs cannot be merged",
                      err);
        tfr_diags_set_ours(r->d);
        return false;
      }
      if (m.v != c->v)
        m.chain = tfr_arena_printf(a, "%s, deep-merged into %s", c->chain,
                                   v[j].chain);
    }
    v[j] = m;
    n += j == n;
  }
  out->inputs = v;
  out->ninputs = n;
  out->has_inputs = parent->has_inputs || child->has_inputs;
  return true;
}

/* parent.Merge(child) or parent.DeepMerge(child), as a new config. */
static struct tg_cfg *merge_one(struct tg_run *r, const struct tg_cfg *parent,
                                const struct tg_cfg *child,
                                const struct tg_incl *in) {
  struct tg_cfg *out = tfr_arena_alloc(r->a, sizeof *out);
  *out = *child;
  out->source = child->source ? child->source : parent->source;
  out->remote_state =
      child->remote_state ? child->remote_state : parent->remote_state;
  out->source_at = child->source ? child->source_at : parent->source_at;
  merge_extra(r->a, out, parent, child);
  merge_deps(r->a, out, parent, child);
  /* generate blocks: by name, the child's wins (include.go:421, 634) */
  out->gens = tfr_arena_alloc(r->a, (parent->ngens + child->ngens + 1) *
                                        sizeof *out->gens);
  out->ngens = 0;
  for (size_t i = 0; i < parent->ngens + child->ngens; i++) {
    const struct tg_gen *g =
        i < parent->ngens ? &parent->gens[i] : &child->gens[i - parent->ngens];
    size_t j = 0;
    while (j < out->ngens && strcmp(out->gens[j].name, g->name))
      j++;
    out->gens[j] = *g;
    out->ngens += j == out->ngens;
  }
  if (!merge_inputs(r, out, parent, child, in))
    return NULL;
  return out;
}

bool tg_merge_includes(struct tg_run *r, struct tg_cfg *c,
                       const struct tg_incl *incl, size_t n) {
  struct tg_cfg *base = c;
  for (size_t i = n; i-- > 0;) {
    if (incl[i].merge == TG_NO_MERGE)
      continue;
    base = merge_one(r, incl[i].cfg, base, &incl[i]);
    if (!base)
      return false;
  }
  const char *path = c->path;
  const tfr_value *locals = c->locals;
  *c = *base;
  c->path = path;     /* the unit's own */
  c->locals = locals; /* locals are not merged (include.go:445) */
  return true;
}
