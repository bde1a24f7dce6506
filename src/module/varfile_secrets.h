/*
** Syntax errors in a var file that did not parse: which of their source
** lines may hold a sensitive variable's value (issue 31).  Terraform
** quotes the line of a syntax error whatever it holds; tfresolve does
** not quote one that may hold a secret (secret.h).
*/
#ifndef TFR_VARFILE_SECRETS_H
#define TFR_VARFILE_SECRETS_H

#include <stdbool.h>
#include <stddef.h>

#include "module/module.h"
#include "syntax/source.h"

/*
** The diagnostics of d since before about src (a var file, native or
** JSON) whose lines may hold the value of a sensitive variable of m: not
** quoted (hide_source), and a quoted part of their detail that is in the
** source around the error (an escape, a keyword) becomes "(sensitive
** value)" with secret.h's note.  A line may hold one when it is in the
** value of such a variable (from its `NAME =` or `"NAME":` to the next
** top-level one), when it names one anywhere, or when what it belongs to
** cannot be told and m declares a sensitive variable (fail closed).
*/
void varfile_hide_secrets(const struct module *m, tfr_diags *d, size_t before,
                          const struct src_file *src, bool json);

#endif
