/*
** Reading a validation rule's text as written (rule_text.c): the bytes
** of HCL that brackets, strings, comments and heredocs span, and what a
** condition says of the values it allows -- the language server's
** completion of allowed values (lsp.c) and the rules `inspect -json` and
** `docs` describe (cmd_inspect.c, cmd_docs.c) read them the same way.
*/
#ifndef TFR_CLI_RULE_TEXT_H
#define TFR_CLI_RULE_TEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "tfresolve/tfresolve.h"

/* A byte of a name ([A-Za-z0-9_-]). */
bool text_name_char(char ch);
/* The byte after the string opening at i (t[i] == '"'), templates and
** escapes inside it skipped; n when it does not close. */
size_t text_skip_string(const char *t, size_t n, size_t i);
/* The byte after a comment or heredoc starting at i, or i when none
** starts there. */
size_t text_skip_comment(const char *t, size_t n, size_t i);
/* The next bracket at or after *i outside comments and strings: its
** index, with *i just past it; n when there is none before n. */
size_t text_next_bracket(const char *t, size_t n, size_t *i);
/* The byte of the bracket closing the one at i ({ [ or (), or n. */
size_t text_close_of(const char *t, size_t n, size_t i);

/* The bounds a condition puts on a number (var.NAME) or on a length
** (length(var.NAME)): each NULL when it puts none; the texts are the
** numbers as written. */
struct rule_bounds {
  const char *min, *max;
  bool min_excl, max_excl; /* > and < rather than >= and <= */
  const char *len_min, *len_max;
  bool len_min_excl, len_max_excl;
};

/* The values the condition t[s, e) allows var.NAME: the strings of a
** `contains([...], var.NAME)` alone or joined to others by && (a value
** must be in every such list), as a new JSON array of their console
** texts, or NULL when no conjunct reads that way; the strings of each
** `!contains([...], var.NAME)` so joined are appended to forbidden; the
** bounds of conjuncts `var.NAME >= N` (and <=, <, >, N on either side,
** length(var.NAME) too) go to *b unless b is NULL.  One under `||` says
** nothing. */
json_t *rule_allowed(tfr_arena *a, const char *t, size_t s, size_t e,
                     const char *name, json_t *forbidden,
                     struct rule_bounds *b);
/* The values of lists acc and one both hold (acc NULL: all of one's);
** both are released. */
json_t *rule_meet(json_t *acc, json_t *one);
/* allowed without the values in forbidden. */
void rule_remove(json_t *allowed, json_t *forbidden);

#endif
