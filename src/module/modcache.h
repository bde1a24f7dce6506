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

#endif
