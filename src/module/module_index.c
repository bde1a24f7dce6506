/*
** A loaded module's declarations in order and indexed: variables sorted
** by name, their names and the local values' hashed, their types
** numbered, and the look-ups module.h offers on them.
*/
#include "module/module.h"
#include "base/heap.h"

#include <stdlib.h>
#include <string.h>

#include "base/strutil.h"
#include "module/module_int.h"

static int name_tie(const void *ctx, uint32_t i, uint32_t j) {
  const struct module *m = ctx;
  return strcmp(m->vars[i].name, m->vars[j].name);
}

/* The declarations in name order: sorted by reference, then the array
** permuted in place, cycle by cycle. */
void loader_sort_vars(struct module *m) {
  size_t n = m->nvars;
  struct str_key *order = heap_alloc(2 * n * sizeof *order);
  size_t *from = heap_alloc(n * sizeof *from);
  for (size_t i = 0; i < n; i++) {
    str_prefix(m->vars[i].name, strlen(m->vars[i].name), order[i].pre);
    order[i].i = (uint32_t)i;
  }
  str_sort(order, order + n, n, name_tie, m);
  for (size_t i = 0; i < n; i++)
    from[i] = order[i].i; /* vars[i] gets vars[from[i]] */
  for (size_t i = 0; i < n; i++) {
    if (from[i] == i)
      continue;
    struct var_decl tmp = m->vars[i];
    size_t j = i;
    while (from[j] != i) {
      size_t k = from[j];
      m->vars[j] = m->vars[k];
      from[j] = j;
      j = k;
    }
    m->vars[j] = tmp;
    from[j] = j;
  }
  free(order);
  free(from);
}

/* The hash of the variable names, for module_var: slots of 8 bytes and
** the names copied together, so that a lookup (one per value a tfvars
** file sets) touches no declaration and few cache lines. */
void loader_index_vars(tfr_arena *a, struct module *m) {
  size_t n = 16, pool = 0;
  while (n < 2 * m->nvars)
    n *= 2;
  for (size_t i = 0; i < m->nvars; i++)
    pool += strlen(m->vars[i].name) + 1;
  struct var_slot *slots = tfr_arena_alloc(a, n * sizeof *slots);
  uint32_t *at = tfr_arena_alloc(a, (m->nvars ? m->nvars : 1) * sizeof *at);
  char *names = tfr_arena_alloc_raw(a, pool ? pool : 1);
  size_t off = 0;
  for (size_t i = 0; i < m->nvars; i++) {
    const char *name = m->vars[i].name;
    size_t len = strlen(name);
    memcpy(names + off, name, len + 1);
    at[i] = (uint32_t)off;
    off += len + 1;
    uint32_t h = (uint32_t)str_hash(name, len);
    size_t k = h & (n - 1);
    while (slots[k].index1)
      k = (k + 1) & (n - 1);
    slots[k] = (struct var_slot){h, (uint32_t)i + 1};
  }
  m->var_slots = slots;
  m->nslots = n;
  m->name_pool = names;
  m->name_at = at;
}

/* The local values' names hashed, for module_local_index. */
void loader_index_locals(tfr_arena *a, struct module *m) {
  size_t n = 16;
  while (n < 2 * m->nlocals)
    n *= 2;
  struct var_slot *slots = tfr_arena_alloc(a, n * sizeof *slots);
  for (size_t i = 0; i < m->nlocals; i++) {
    const char *name = m->locals[i].name;
    uint32_t h = (uint32_t)str_hash(name, strlen(name));
    size_t k = h & (n - 1);
    while (slots[k].index1)
      k = (k + 1) & (n - 1);
    slots[k] = (struct var_slot){h, (uint32_t)i + 1};
  }
  m->local_slots = slots;
  m->nlocal_slots = n;
}

struct tfr_rule *module_skipped_rules(tfr_arena *a, const struct var_decl *v) {
  struct tfr_rule *rules =
      v->nvalidations ? tfr_arena_alloc_raw(a, v->nvalidations * sizeof *rules)
                      : NULL;
  for (size_t i = 0; i < v->nvalidations; i++)
    rules[i] = (struct tfr_rule){
        v->validations[i].refs
            ? v->validations[i].range
            : src_range(v->validations[i].src, v->validations[i].block),
        TFR_RULE_SKIPPED, "resolving stopped at earlier errors"};
  return rules;
}

long module_local_index(const struct module *m, const char *name, size_t len) {
  if (!m->nlocal_slots)
    return -1;
  uint32_t h = (uint32_t)str_hash(name, len);
  for (size_t k = h & (m->nlocal_slots - 1); m->local_slots[k].index1;
       k = (k + 1) & (m->nlocal_slots - 1)) {
    if (m->local_slots[k].hash != h)
      continue;
    uint32_t i = m->local_slots[k].index1 - 1;
    const char *v = m->locals[i].name;
    if (!strncmp(v, name, len) && v[len] == '\0')
      return (long)i;
  }
  return -1;
}

long module_var_index(const struct module *m, const char *name, size_t len) {
  if (!m->nslots)
    return -1;
  uint32_t h = (uint32_t)str_hash(name, len);
  for (size_t k = h & (m->nslots - 1); m->var_slots[k].index1;
       k = (k + 1) & (m->nslots - 1)) {
    if (m->var_slots[k].hash != h)
      continue;
    uint32_t i = m->var_slots[k].index1 - 1;
    const char *v = m->name_pool + m->name_at[i];
    if (!memcmp(v, name, len) && v[len] == '\0')
      return (long)i;
  }
  return -1;
}

const struct var_decl *module_var(const struct module *m, const char *name,
                                  size_t len) {
  long i = module_var_index(m, name, len);
  return i < 0 ? NULL : &m->vars[i];
}

/* Number the distinct (type, defaults) pairs of the variables, which the
** type memo shares, so that later stages do their work per type. */
void loader_type_ids(tfr_arena *a, struct module *m) {
  size_t n = 16;
  while (n < 2 * m->nvars)
    n *= 2;
  struct var_decl **first = heap_calloc(n, sizeof *first);
  uint32_t *ids = tfr_arena_alloc(a, (m->nvars ? m->nvars : 1) * sizeof *ids);
  m->var_type = ids;
  for (size_t i = 0; i < m->nvars; i++) {
    struct var_decl *v = &m->vars[i];
    uintptr_t key[2] = {(uintptr_t)v->type, (uintptr_t)v->defaults};
    size_t h = str_hash((const char *)key, sizeof key) & (n - 1);
    while (first[h] &&
           (first[h]->type != v->type || first[h]->defaults != v->defaults))
      h = (h + 1) & (n - 1);
    if (first[h]) {
      ids[i] = v->type_id = first[h]->type_id;
      v->plain = first[h]->plain;
      continue;
    }
    first[h] = v;
    ids[i] = v->type_id = (uint32_t)m->ntypes++;
    v->plain = tfr_type_plain(a, v->type);
  }
  free(first);
}

const char *module_closest_var(const struct module *m, const char *name,
                               size_t below) {
  const char *best = NULL;
  size_t n = strlen(name);
  for (size_t i = 0; i < m->nvars; i++) {
    size_t d = str_distance(name, n, m->vars[i].name, strlen(m->vars[i].name));
    if (d < below) {
      below = d;
      best = m->vars[i].name;
    }
  }
  return best;
}
