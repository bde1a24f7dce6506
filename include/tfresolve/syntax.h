/*
** libtfresolve: the types of parsed files, and what an editor asks of a
** variables file (tfresolve.h declares how files are parsed).
*/
#ifndef TFRESOLVE_SYNTAX_H
#define TFRESOLVE_SYNTAX_H

#include "tfresolve/export.h"

#include <stdbool.h>
#include <stddef.h>

#include "tfresolve/arena.h"
#include "tfresolve/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A parsed configuration or variables file (opaque). */
typedef struct tfr_file tfr_file;

enum tfr_syntax {
  TFR_SYNTAX_AUTO, /* by file name: *.json is JSON, anything else HCL */
  TFR_SYNTAX_HCL,
  TFR_SYNTAX_JSON,
};

/** What is at a byte of a variables file (tfr_file_locate). */
struct tfr_locus {
  const char *variable;   /* the variable whose value holds the byte */
  const char *path;       /* the attribute path below it to the innermost
                             value holding the byte: ".a[2].b", "" at the
                             variable's own value (every object key is
                             ".key", map keys too; tuple elements "[i]") */
  struct tfr_range name;  /* the innermost key on the way (the variable's
                             name at the top) */
  struct tfr_range value; /* the value of the innermost definition (key
                             through value, or tuple element) holding the
                             byte */
  bool in_key;            /* the byte is on that key itself */
};

/** Where byte @p byte (from 0) of variables file @p f (.tfvars or
 *  .tfvars.json, from tfr_parse_bytes or tfr_parse_file) is: false when
 *  it is in no variable's definition.  Since 0.2.0. */
TFR_API bool tfr_file_locate(tfr_arena *a, const tfr_file *f, size_t byte,
                             struct tfr_locus *out);

/** The names a variables file sets, in file order (*n of them), and (in
 *  *at, unless @p at is NULL) the range of each name.  Since 0.2.0. */
TFR_API const char **tfr_file_attribute_names(tfr_arena *a, const tfr_file *f,
                                              size_t *n,
                                              const struct tfr_range **at);

#ifdef __cplusplus
}
#endif

#endif
