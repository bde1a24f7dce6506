/*
** Child modules loaded once (modcache.c): the trees of many resolutions
** (check -recursive, -var-file-each) that call the same module directory
** share one parse of it, across threads.
*/
#ifndef TFR_MODCACHE_H
#define TFR_MODCACHE_H

#include <stdbool.h>

#include "module/module.h"

struct tfr_cache; /* tfresolve.h */

/* The module in dir, loaded (with validate_static) and its load
** diagnostics added to diags: from cache when one is given (shared,
** read-only, alive as long as the cache; the struct returned is the
** caller's own copy in a), else loaded into a. */
struct module *modcache_load(struct tfr_cache *cache, tfr_arena *a,
                             tfr_diags *diags, const char *dir, bool opentofu,
                             const struct overlays *ov);

/* The same, without the copy: the cache's own module (shared: never to
** be changed; loaded into a without a cache), with in *fresh the bytes
** this call read into the cache (the module's arena, when this call
** loaded it; 0 when it was there, or without a cache): the tree charges
** them to the memory budget and copies a module only once it is walked
** (src/module/tree_load.c). */
const struct module *modcache_load_counted(struct tfr_cache *cache,
                                           tfr_arena *a, tfr_diags *diags,
                                           const char *dir, bool opentofu,
                                           const struct overlays *ov,
                                           size_t *fresh);

#endif
