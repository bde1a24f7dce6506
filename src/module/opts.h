/*
** Reading the options a program passes, as include/tfresolve/resolution.h
** says they grow: its layout's size, the args at its stride.
*/
#ifndef TFR_OPTS_H
#define TFR_OPTS_H

#include <stdbool.h>
#include <stddef.h>

#include "tfresolve/diag.h"
#include "tfresolve/resolution.h"

/* The "Invalid options" error (TFR_CODE_BAD_OPTIONS) for a struct `what`
** whose size the program gives as size (at least min; init: the macro
** that sets it).  Returns false. */
bool opts_bad(tfr_arena *a, tfr_diags *diags, const char *what, size_t size,
              size_t min, const char *init);

/* A struct of the program's (size bytes) as ours (have bytes) in out:
** false, after opts_bad, when in is NULL or size below min. */
bool opts_read(tfr_arena *a, tfr_diags *diags, void *out, size_t have,
               const void *in, size_t size, size_t min, const char *what,
               const char *init);

/* The program's -var/-var-file array (*n of them, *stride bytes apart) at
** this library's stride: an arena copy when the strides differ.  False,
** after opts_bad, when its stride is below the first layout. */
bool opts_read_args(tfr_arena *a, tfr_diags *diags,
                    const struct tfr_cli_arg **args, size_t n, size_t *stride,
                    const char *init);

#endif
