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

/** A text being edited, read by the tolerant reader (tfr_text_new):
 *  nothing of it needs to parse.  Opaque. */
typedef struct tfr_text tfr_text;

/** One `key = value` (JSON: `"key": value`) of a body or an object, as
 *  the tolerant reader finds it.  Since 0.4.0. */
struct tfr_text_item {
  const char *name;       /* the key, its quotes out */
  struct tfr_range key;   /* the key as written (quotes in) */
  struct tfr_range value; /* from the first byte after "=" or ":" and the
                             blanks to the value's end (blanks and comments
                             out); empty when it is not typed yet */
  size_t open, close;     /* a value that is an object: the bytes of its
                             braces (close: the end of the text when it is
                             not closed); 0 and 0 else */
};

/** Text @p text (@p len bytes, kept by the caller for the reader's life)
 *  of file @p filename (*.json: JSON) for the tolerant reader: an item
 *  ends at the end of its line, a comma or the bracket that closes its
 *  object unless a bracket or a string opened in it goes on, so what is
 *  half typed costs that item only.  Since 0.4.0. */
TFR_API tfr_text *tfr_text_new(tfr_arena *a, const char *filename,
                               const char *text, size_t len);

/** The items of the body or object between bytes @p start and @p end (an
 *  object's: the bytes between its braces), in order, *n of them.  Since
 *  0.4.0. */
TFR_API const struct tfr_text_item *tfr_text_items(tfr_text *x, size_t start,
                                                   size_t end, size_t *n);

/** The top-level items (a JSON file's: those of its outermost object).
 *  Since 0.4.0. */
TFR_API const struct tfr_text_item *tfr_text_top(tfr_text *x, size_t *n);

/** The byte of the bracket closing the one at @p open (`{`, `[` or `(`),
 *  looked for before @p end; @p end (or the text's length) when none.
 *  Since 0.4.0. */
TFR_API size_t tfr_text_closing(const tfr_text *x, size_t open, size_t end);

/** The `{` of the innermost object or body open at @p byte, or SIZE_MAX
 *  when the innermost open bracket there is none.  Since 0.4.0. */
TFR_API size_t tfr_text_enclosing(const tfr_text *x, size_t byte);

/** The opening quote of the string @p byte is in (on its line), or
 *  SIZE_MAX.  Since 0.4.0. */
TFR_API size_t tfr_text_quote(const tfr_text *x, size_t byte);

/** [*s, *e) without the blanks around it and without parentheses around
 *  the whole of it.  Since 0.4.0. */
TFR_API void tfr_text_trim(const tfr_text *x, size_t *s, size_t *e);

/** [start, end) cut at each @p sep ("&&", ",") outside brackets and
 *  strings, each part trimmed (tfr_text_trim), *n parts.  Since 0.4.0. */
TFR_API const struct tfr_range *tfr_text_split(tfr_text *x, size_t start,
                                               size_t end, const char *sep,
                                               size_t *n);

/** tfr_file_locate for a text that need not parse: what holds byte
 *  @p byte among the items between @p start and @p end (0 and the
 *  text's length: the top-level items), down through objects and
 *  tuples.  A value not typed yet holds the byte after its "=".  Since
 *  0.4.0. */
TFR_API bool tfr_text_locate(tfr_text *x, size_t start, size_t end, size_t byte,
                             struct tfr_locus *out);

#ifdef __cplusplus
}
#endif

#endif
