/*
** libtfresolve: evaluate Terraform/OpenTofu input variables offline.
**
** This header is the library's public API.  Everything a call returns is
** owned by the tfr_arena passed to it; diagnostics are appended to a
** tfr_diags list and never printed by the library.
*/
#ifndef TFRESOLVE_H
#define TFRESOLVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "tfresolve/arena.h"
#include "tfresolve/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The library version, e.g. "0.1.0". */
const char *tfr_version(void);

/** A parsed configuration or variables file (opaque). */
typedef struct tfr_file tfr_file;

enum tfr_syntax {
  TFR_SYNTAX_AUTO, /* by file name: *.json is JSON, anything else HCL */
  TFR_SYNTAX_HCL,
  TFR_SYNTAX_JSON,
};

/**
 * Parse one file.
 * @param[in]  a      Arena that owns the returned file and its AST.
 * @param[out] diags  Appended to, never cleared; the file's text is
 *                    registered with it so that renderers can quote it.
 * @param[in]  path   File to read.
 * @returns the file, or NULL when it could not be read or has syntax
 *          errors (see diags).
 */
tfr_file *tfr_parse_file(tfr_arena *a, tfr_diags *diags, const char *path,
                         enum tfr_syntax syntax);

/**
 * Parse bytes already in memory, named @p name in diagnostics.  The bytes
 * are copied into @p a.
 */
tfr_file *tfr_parse_bytes(tfr_arena *a, tfr_diags *diags, const char *name,
                          const char *text, size_t len,
                          enum tfr_syntax syntax);

/** Write the file's syntax tree as JSON (for debugging and tests). */
void tfr_file_dump_json(const tfr_file *f, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
