/*
** The narrowest place of a failing element (issue 41): which one path
** below its variable a validation rule reads, and the item of a var
** file's value that path names (`port = 80` rather than the whole map).
*/
#ifndef TFR_TREE_ELEMENT_H
#define TFR_TREE_ELEMENT_H

#include <stdbool.h>

#include "module/module.h"
#include "syntax/ast.h"

/* The one attribute and index path (".port", `["listen"].port`) below
** var.name through which rule's condition and error message read it, all
** steps constant; NULL when they read it whole anywhere (var.cfg,
** var.cfg[local.k], a splat, a for over it, var[...]), through two
** different paths, or not at all.  rule's trees may be another rule's
** (its alias): their references to that rule's variable stand for
** name. */
const char *element_read_path(tfr_arena *a, const struct validation *rule,
                              const char *name);

/* Where the value at path inside x (a var file's value) is written as an
** item: `key = value` for an object's attribute, the element for a
** tuple's, in *at; false when the syntax does not hold the whole path
** (an attribute left to its default, a value built some other way). */
bool element_item_at(const struct ast *x, const char *path, struct span *at);

#endif
