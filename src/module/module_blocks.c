/*
** The other top-level blocks the loader reads itself: locals, the
** objects a rule may refer to (resources, data sources, ephemeral
** resources, module calls), a terraform block's required_providers, and
** the moved and removed blocks that name module calls.
*/
#include "module/module.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/arena_int.h"
#include "syntax/body.h"
#include "syntax/parse.h"
#include "module/module_int.h"

/* ---- locals ------------------------------------------------------------ */

/* One local value; an override file's replaces the one of that name. */
static void add_local(struct loader *l, struct src_file *src, const char *name,
                      size_t len, const struct ast *expr, struct span span,
                      bool ovr) {
  struct module *m = l->m;
  const char *nm = tfr_arena_strndup(l->a, name, len);
  size_t i;
  if (strmap_get(&l->lnames, nm, &i)) {
    struct local_decl *d = &m->locals[i];
    if (ovr) {
      d->expr = expr;
      d->src = src;
      d->span = span;
      return;
    }
    struct tfr_range was = src_range(d->src, d->span);
    char where[512];
    tfr_range_format(&was, where, sizeof where);
    loader_error_at(l, src, span, "Duplicate local value definition",
                    tfr_arena_printf(l->a,
                                     "A local value named \"%s\" was already "
                                     "defined at %s. Local value names must be "
                                     "unique within a module.",
                                     nm, where),
                    NULL);
    return;
  }
  if (m->nlocals == l->lcap) {
    l->lcap = l->lcap ? l->lcap * 2 : 16;
    struct local_decl *nl = tfr_arena_alloc(l->a, l->lcap * sizeof *nl);
    if (m->nlocals)
      memcpy(nl, m->locals, m->nlocals * sizeof *nl);
    m->locals = nl;
  }
  strmap_put(&l->lnames, nm, m->nlocals);
  m->locals[m->nlocals++] = (struct local_decl){nm, expr, src, span};
}

/* The local values a locals body defines, in either syntax (in JSON,
** strings are templates). */
void loader_locals_items(struct loader *l, struct src_file *src,
                         const struct ast *body, bool json, bool ovr) {
  struct body_iter iter = body_start(body, json, NULL);
  struct body_item x;
  while (body_next(&iter, &x)) {
    const struct body_item *it = &x;
    if (it->is_block)
      continue;
    const struct ast *v = it->value;
    if (json && v->kind == AST_STRING) {
      struct ast_file *t = parse_embedded(l->a, l->diags, src, v, true);
      if (!t)
        continue;
      v = t->body;
    }
    add_local(l, src, it->name, it->len, v, it->span, ovr);
  }
}

/* In JSON, "locals" is an object (or an array of objects). */
void loader_json_locals(struct loader *l, struct src_file *src,
                        const struct ast *x, bool ovr) {
  const struct ast *one;
  size_t n;
  const struct ast *const *objs = ast_json_blocks(x, &one, &n);
  for (size_t i = 0; i < n; i++) {
    loader_locals_items(l, src, objs[i], true, ovr);
  }
}

/* ---- resources, data sources, module calls ------------------------------ */

static void add_object(struct loader *l, const char *name) {
  struct module *m = l->m;
  if (m->nobjects == l->ocap) {
    l->ocap = l->ocap ? l->ocap * 2 : 32;
    const char **nv = tfr_arena_alloc(l->a, l->ocap * sizeof *nv);
    if (m->nobjects)
      memcpy(nv, m->objects, m->nobjects * sizeof *nv);
    m->objects = nv;
  }
  m->objects[m->nobjects++] = name;
}

static bool is_kind(const struct ast *block, const char *kind) {
  size_t n = strlen(kind);
  return block->n == n && !memcmp(block->str, kind, n);
}

/* A native block that declares something a rule may refer to. */
static void native_object(struct loader *l, const struct ast *it) {
  const struct ast *labels = it->kids[0];
  size_t n = labels ? labels->n : 0;
  const char *prefix = is_kind(it, "resource")    ? ""
                       : is_kind(it, "data")      ? "data."
                       : is_kind(it, "ephemeral") ? "ephemeral."
                                                  : NULL;
  if (prefix && n == 2)
    add_object(
        l, tfr_arena_printf(l->a, "%s%.*s.%.*s", prefix,
                            (int)labels->items[0]->n, labels->items[0]->str,
                            (int)labels->items[1]->n, labels->items[1]->str));
  else if (is_kind(it, "module") && n == 1)
    add_object(l,
               tfr_arena_printf(l->a, "module.%.*s", (int)labels->items[0]->n,
                                labels->items[0]->str));
}

/* The same in JSON: {"resource": {"TYPE": {"NAME": ...}}}, {"module":
** {"NAME": ...}}, each level an object or an array of objects. */
static void json_objects(struct loader *l, const struct ast *x, int depth,
                         const char *prefix) {
  struct json_members m;
  for (ast_json_members(&m, x); ast_json_next(&m);) {
    const char *name =
        tfr_arena_printf(l->a, "%s%s%.*s", prefix, *prefix ? "." : "",
                         (int)m.key->n, m.key->str);
    if (depth == 1)
      add_object(l, name);
    else
      json_objects(l, m.value, depth - 1, name);
  }
}

static int cmp_cstr(const void *x, const void *y) {
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

bool module_declares(const struct module *m, const char *name) {
  return m->nobjects && bsearch(&name, m->objects, m->nobjects,
                                sizeof *m->objects, cmp_cstr) != NULL;
}

/* The objects a block declares, for references to them (resources, data
** sources, ephemeral resources, module calls): the labels of a native
** block, the nested keys of a JSON one. */
void loader_block_objects(struct loader *l, const struct body_item *it,
                          bool json) {
  if (!json)
    native_object(l, it->node);
  else if (body_item_is(it, "resource"))
    json_objects(l, it->body, 2, "");
  else if (body_item_is(it, "data"))
    json_objects(l, it->body, 2, "data");
  else if (body_item_is(it, "ephemeral"))
    json_objects(l, it->body, 2, "ephemeral");
  else if (body_item_is(it, "module"))
    json_objects(l, it->body, 1, "module");
}

/* ---- required_providers ------------------------------------------------- */

/* Whether key (a native object's key, or a JSON property) is name. */
static bool key_is(const struct ast *key, const char *name) {
  size_t n = strlen(name);
  return (key->kind == AST_VARIABLE || key->kind == AST_STRING) &&
         key->n == n && !memcmp(key->str, name, n);
}

/* Whether the requirement x of local name "terraform" is the built-in
** provider: no source (addrs.ImpliedProviderForUnqualifiedType), or
** terraform.io/builtin/terraform. */
static bool builtin_terraform(const struct ast *x) {
  if (x->kind != AST_OBJECT)
    return true; /* a version constraint alone */
  for (uint32_t j = 0; j < x->n; j++) {
    const struct ast *v = x->items[2 * j + 1];
    if (key_is(x->items[2 * j], "source"))
      return v->kind == AST_STRING && v->n == 30 &&
             !strncasecmp(v->str, "terraform.io/builtin/terraform", 30);
  }
  return true;
}

/* One required_providers block's providers, by local name. */
static void required_providers(struct loader *l, const struct ast *body,
                               bool json) {
  struct eval_providers *p = &l->m->providers;
  struct body_iter iter = body_start(body, json, NULL);
  struct body_item it;
  while (body_next(&iter, &it)) {
    if (it.is_block || !it.value)
      continue;
    ARENA_GROW(l->a, p->names, p->n, l->pcap, 8);
    p->names[p->n++] = tfr_arena_strndup(l->a, it.name, it.len);
    if (body_item_is(&it, "terraform") && builtin_terraform(it.value))
      p->builtin_terraform = true;
  }
}

/* A terraform block: its required_providers (the provider functions
** the module may call). */
void loader_terraform_block(struct loader *l, const struct body_item *it,
                            bool json) {
  static const char *const blocks[] = {"required_providers", NULL};
  const struct ast *one;
  size_t n = 1;
  const struct ast *const *bodies =
      json ? ast_json_blocks(it->body, &one, &n) : &it->body;
  for (size_t i = 0; i < n; i++) {
    struct body_iter iter = body_start(bodies[i], json, blocks);
    struct body_item rp;
    while (body_next(&iter, &rp)) {
      if (!rp.is_block || !body_item_is(&rp, "required_providers"))
        continue;
      const struct ast *one2;
      size_t n2 = 1;
      const struct ast *const *rbodies =
          json ? ast_json_blocks(rp.body, &one2, &n2) : &rp.body;
      for (size_t j = 0; j < n2; j++)
        required_providers(l, rbodies[j], json);
    }
  }
}

/* ---- moved and removed blocks ------------------------------------------ */

/* The call NAME of a traversal module.NAME, or NULL. */
static const char *call_named(struct loader *l, const struct ast *x) {
  if (!x || x->kind != AST_GETATTR || x->kids[0]->kind != AST_VARIABLE ||
      x->kids[0]->n != 6 || memcmp(x->kids[0]->str, "module", 6))
    return NULL;
  return tfr_arena_strndup(l->a, x->str, x->n);
}

/* A native moved or removed block of a primary file: kept when its
** addresses are module calls (the tree checks them). */
void loader_refactor_block(struct loader *l, struct src_file *src,
                           const struct body_item *it) {
  struct refactor_stmt r = {0};
  r.removed = body_item_is(it, "removed");
  r.src = src;
  r.decl = it->name_span;
  struct body_iter iter = body_start(it->body, false, NULL);
  struct body_item a;
  while (body_next(&iter, &a)) {
    if (a.is_block)
      continue;
    if (body_item_is(&a, "from"))
      r.from = call_named(l, loader_built(l, src, a.value));
    else if (body_item_is(&a, "to"))
      r.to = call_named(l, loader_built(l, src, a.value));
  }
  if (!r.from || (!r.removed && !r.to))
    return;
  struct module *m = l->m;
  struct refactor_stmt *nv =
      tfr_arena_alloc(l->a, (m->nrefactors + 1) * sizeof *nv);
  if (m->nrefactors)
    memcpy(nv, m->refactors, m->nrefactors * sizeof *nv);
  nv[m->nrefactors++] = r;
  m->refactors = nv;
}
