/*
** libtfresolve: source ranges and diagnostics.
**
** A diagnostic says what is wrong (summary), why and what to write instead
** (detail), and exactly where (subject range).  Parsers, the loader and the
** evaluator append to a tfr_diags list; only the CLI decides what an error
** means for the exit status.
*/
#ifndef TFRESOLVE_DIAG_H
#define TFRESOLVE_DIAG_H

#include "tfresolve/export.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "tfresolve/arena.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A position in a source file: 1-based line and column, 0-based byte. */
struct tfr_pos {
  int line;
  int column; /* counted in characters (grapheme clusters), as HCL does */
  size_t byte;
};

/** A source range; @c end is exclusive.  @c filename NULL = no source. */
struct tfr_range {
  const char *filename;
  struct tfr_pos start;
  struct tfr_pos end;
};

enum tfr_severity { TFR_DIAG_ERROR, TFR_DIAG_WARNING };

/**
 * Stable codes of the diagnostics a program decides on (whether a test
 * run failed as expected, which SARIF rule a finding is...).  Summaries
 * are Terraform's words and may be reworded; codes are not.  Most
 * diagnostics have TFR_CODE_NONE.
 */
enum tfr_diag_code {
  TFR_CODE_NONE = 0,
  TFR_CODE_RULE_FAILED,         /* "Invalid value for variable": a
                                   validation rule's condition was false */
  TFR_CODE_INVALID_INPUT,       /* "Invalid value for input variable": the
                                   value does not convert to the type */
  TFR_CODE_REQUIRED_NOT_SET,    /* "Required variable not set" */
  TFR_CODE_FUNCTION_FAILED,     /* "Error in function call" */
  TFR_CODE_MISSING_ARGUMENT,    /* "Not enough function arguments" */
  TFR_CODE_UNDECLARED_VALUE,    /* "Value(s) for undeclared variable(s)" */
  TFR_CODE_ENV_NAME_CASE,       /* a TF_VAR_ name that differs in case */
  TFR_CODE_RULE_DEFERRED,       /* a rule that cannot be decided offline */
  TFR_CODE_BAD_OPTIONS,         /* an options struct of a size the library
                                   cannot read (see resolution.h) */
  TFR_CODE_NO_VALUE,            /* "No value for required variable" */
  TFR_CODE_IGNORED_ATTRIBUTE,   /* "Object attribute is ignored": an
                                   attribute the variable's object type does
                                   not declare (-strict; OpenTofu warns) */
  TFR_CODE_VAR_FILE_UNREADABLE, /* since 0.3.0: "Failed to read variables
                                   file" (missing, a directory, a FIFO...) */
  TFR_CODE_ENV_UNDECLARED,      /* since 0.4.0: -strict's TF_VAR_ name near
                                   a declared one ("Environment variable for
                                   an undeclared variable") */
};

/** What a reference in the diagnostic's expression was when it was
 *  evaluated, as Terraform lists it under the source line: traversal
 *  "var.region", statement "is \"Europe West\"". */
struct tfr_diag_value {
  const char *traversal;
  const char *statement;
};

struct tfr_diag {
  enum tfr_severity sev;
  const char *summary;      /* terse: "Invalid character" */
  const char *detail;       /* what is wrong and what to write instead */
  struct tfr_range subject; /* exactly the bad construct */
  const char *variable;     /* the variable concerned, or NULL */
  bool hide_source;         /* the subject holds a sensitive value: do not
                               quote its source line */
  enum tfr_diag_code code;  /* TFR_CODE_NONE unless it is one of those */
  const char *note; /* since 0.2.0: what tfresolve adds after Terraform's
                       detail (where inside a value a conversion failed),
                       or NULL */
  const struct tfr_diag_value *values; /* since 0.2.0: the values of the
                                          references in the expression the
                                          diagnostic is about, sorted by
                                          traversal (never a sensitive or
                                          ephemeral one) */
  size_t nvalues;
  bool ours; /* since 0.2.0: a diagnostic of tfresolve's own, one Terraform
                does not give (JSON "origin": "tfresolve") */
  const char *module; /* since 0.3.0: when the module tree was followed,
                         the module instance the diagnostic is about
                         ("module.app[\"eu\"]"; "" for the root
                         module); NULL otherwise */
  bool strict;        /* since 0.4.0: an error of -strict's alone (ours too):
                         without -strict it would be a warning or nothing, and
                         what Terraform checks goes on past it (JSON "strict") */
  bool third_party;   /* since 0.4.0: about code inside a third-party module
                         (installed under the data directory, or outside the
                         checked directory): not the user's to fix (JSON
                         "third_party") */
  struct tfr_range element; /* since 0.4.0: where the element the
                               diagnostic is about is written, when that
                               is narrower than the subject or elsewhere
                               (the tfvars line a child module's argument
                               took the failing element from): CI
                               annotations point there; no filename: none */
};

typedef struct tfr_diags tfr_diags;

/** A new, empty diagnostics list owned by @p a. */
TFR_API tfr_diags *tfr_diags_new(tfr_arena *a);

/** Number of diagnostics in the list. */
TFR_API size_t tfr_diags_count(const tfr_diags *d);

/** The @p i-th diagnostic; valid until the arena is freed. */
TFR_API const struct tfr_diag *tfr_diags_get(const tfr_diags *d, size_t i);

/** True when at least one diagnostic is an error. */
TFR_API bool tfr_diags_has_errors(const tfr_diags *d);

/** Append a diagnostic; the strings are copied into the list's arena. */
TFR_API void tfr_diags_add(tfr_diags *d, enum tfr_severity sev,
                           const struct tfr_range *subject, const char *summary,
                           const char *detail);

/** Append a copy of @p g, every field of it (strings and values copied
 *  into the list's arena): one call instead of tfr_diags_add and the
 *  tfr_diags_set_* calls after it.  Since 0.3.0. */
TFR_API void tfr_diags_add_full(tfr_diags *d, const struct tfr_diag *g);

/** Mark the most recent diagnostic: its subject is a sensitive value, so
 *  renderers must not quote the source line. */
TFR_API void tfr_diags_hide_source(tfr_diags *d);

/** Name the variable the most recently added diagnostic concerns. */
TFR_API void tfr_diags_set_variable(tfr_diags *d, const char *name);

/** Give the last diagnostic added a code (enum tfr_diag_code). */
TFR_API void tfr_diags_set_code(tfr_diags *d, enum tfr_diag_code code);

/** Give the last diagnostic added a note (tfr_diag.note).  Since 0.2.0. */
TFR_API void tfr_diags_set_note(tfr_diags *d, const char *note);

/** Mark the last diagnostic as tfresolve's own (not Terraform's). */
TFR_API void tfr_diags_set_ours(tfr_diags *d);

/** Register a file's text so that renderers can show the source line.
 *  The text must outlive the list (normally it is in the same arena). */
TFR_API void tfr_diags_add_source(tfr_diags *d, const char *filename,
                                  const char *text, size_t len);

/** Format a range as HCL does ("file:1,3-7" or "file:1,3-2,5") into buf. */
TFR_API void tfr_range_format(const struct tfr_range *r, char *buf,
                              size_t size);

/** Options of the human renderer: start from TFR_RENDER_OPTS_INIT (the
 *  struct grows as resolution.h says). */
struct tfr_render_opts {
  size_t size;  /* sizeof(struct tfr_render_opts) */
  bool color;   /* ANSI colour and underline */
  bool unicode; /* the ╷ │ ╵ frame; ASCII otherwise */
  /* Since 0.2.0: no frame, as Terraform draws diagnostics with -no-color
  ** (format.DiagnosticPlain): a blank line before each, the detail
  ** wrapped at width - 1 columns when width > 1.  No colour either. */
  bool plain;
  unsigned width; /* with plain: Terraform's stderr width (78 off a tty) */
};

/** The defaults of tfr_render_opts (no colour, the ASCII frame), with
 *  the program's struct size. */
#define TFR_RENDER_OPTS_INIT                                                   \
  { .size = sizeof(struct tfr_render_opts) }

/**
 * Print the diagnostics as Terraform's CLI prints them: in Terraform's
 * order (warnings, then errors; sourceless first; then by file and
 * position), each warning with a source range whose summary an earlier
 * one had folded into that one ("(and N more similar warnings
 * elsewhere)"), a note on its own line after it; framed as
 * format.Diagnostic frames them, or plain (opts->plain) as
 * format.DiagnosticPlain draws them.  The list itself is not changed.
 * @p opts may be NULL
 * (the defaults).  Rendering has no diagnostics list to report a problem
 * to, and returns nothing, so options of a size this library cannot read
 * (0: TFR_RENDER_OPTS_INIT not used) render with the defaults: every
 * diagnostic is still printed, without colour and in the ASCII frame.
 */
TFR_API void tfr_diags_render_text(const tfr_diags *d, FILE *out,
                                   const struct tfr_render_opts *opts);

/** Print the list as a JSON array (the "diagnostics" member of `show -json`).
 */
TFR_API void tfr_diags_render_json(const tfr_diags *d, FILE *out);

/** A range as `show -json` writes it: {"filename", "start", "end"}. */
TFR_API void tfr_range_write_json(FILE *out, const struct tfr_range *r);

/** The diagnostics of @p d about variable @p name (their source excerpts
 * too), as a new list in @p a. */
TFR_API tfr_diags *tfr_diags_of_variable(tfr_arena *a, const tfr_diags *d,
                                         const char *name);

/** The diagnostics of @p d about variable @p name of the module instance
 *  @p module ("" or NULL: the root module's), in a new list (since
 *  0.3.0). */
TFR_API tfr_diags *tfr_diags_of_instance(tfr_arena *a, const tfr_diags *d,
                                         const char *name, const char *module);

/** One line per diagnostic: "file:line:column: error: summary". */
TFR_API void tfr_diags_render_short(const tfr_diags *d, FILE *out);

/** Let @p d show excerpts of the source files registered in @p from. */
TFR_API void tfr_diags_share_sources(tfr_diags *d, const tfr_diags *from);

#ifdef __cplusplus
}
#endif
#endif
