/*
** explain's story of one variable as data (explain_story.c): what
** `tfresolve explain` prints as text and JSON (explain.c) and what the
** language server's hover renders as Markdown (src/lsp/hover.c), built
** once from the public API.  A value the story hides (a sensitive
** variable's, without -show-sensitive) is not in it.
*/
#ifndef TFR_CLI_EXPLAIN_H
#define TFR_CLI_EXPLAIN_H

#include "cli_module.h"

/* What became of one source of the value. */
enum cli_source_state {
  CLI_SOURCE_USED,       /* the default, as nothing else sets it */
  CLI_SOURCE_OVERRIDDEN, /* the default, a source sets it */
  CLI_SOURCE_WINS,       /* the last source to set it */
  CLI_SOURCE_INVALID,    /* the last one, but invalid */
  CLI_SOURCE_LATER       /* overridden by a later source */
};

/* One source, lowest precedence first: the default, then each attempt. */
struct cli_story_source {
  const char *where;      /* "default", "terraform.tfvars:2", "-var" */
  const tfr_value *value; /* the default's (NULL: hidden, or an attempt) */
  const char *text;       /* an attempt's text as written (NULL: hidden) */
  size_t len;
  enum cli_source_state state;
  const struct tfr_attempt *attempt; /* NULL for the default */
};

/* One link of a child instance's variable's chain up its callers: the
** caller's variable its argument reads (or the element of a root
** variable it takes whole), with its value and where that is set. */
struct cli_story_link {
  int depth;              /* 1: the caller's, 2: its caller's... */
  const char *name;       /* "module.a.var.x", "var.x", "var.m.k" */
  const tfr_value *value; /* NULL: hidden or no value */
  bool hidden;            /* a sensitive value */
  bool element;           /* name is an element of a root variable */
  const char *from;       /* "terraform.tfvars:2"; an element's range */
};

/* A line of the declaration: "description" and its text; a label NULL
** for a whole line ("type from ..."). */
struct cli_story_note {
  const char *label, *text;
};

/* An attribute the type filled from its default, or dropped; its path
** from the variable (".a[0].b"). */
struct cli_story_attr {
  const char *path;
  const tfr_value *value;
};

/* A rule, where it is written ("main.tf:4,5-30"). */
struct cli_story_rule {
  const struct tfr_rule *rule;
  const char *at;
};

struct cli_story {
  const struct tfr_variable *v;
  const struct tfr_instance *in; /* NULL: a root variable */
  bool hide;                     /* its values are not told */
  const char *name;              /* "var.x", "module.a.var.x" */
  const char *type;              /* as explain's first line says it */
  const char *type_expr;         /* as its JSON says it */
  const char *declared_at;       /* "variables.tf:1,1-15" */
  struct cli_story_note *notes;  /* under "declared at" */
  size_t nnotes;
  struct cli_story_source *sources;
  size_t nsources;
  struct cli_story_link *chain; /* a child's, up its callers */
  size_t nchain;
  const char *parse_mode; /* "literal", "hcl", NULL when no raw source */
  const char *parse_why;  /* the sentence after "Parse mode: " */
  /* the conversion and what the type did to the attributes (NULL, 0
  ** when not told: no given value, or hidden) */
  const tfr_type *conv_from, *conv_to;
  bool attrs_told;
  struct cli_story_attr *defaults, *dropped;
  size_t ndefaults, ndropped;
  struct cli_story_rule *rules;
  size_t nrules;
  bool rule_failed;
  struct cli_reach *reaches; /* a root variable's, in child instances */
  size_t nreaches;
  const tfr_value *value, *preview; /* the value, else the preview */
  const char *reason;               /* why there is no value */
  const char *preview_failure;      /* what the preview fails with */
};

/* The story of variable v (of instance in, NULL for the root) of res;
** sensitive values hidden unless show_sensitive. */
struct cli_story *cli_explain_story(tfr_arena *a,
                                    const struct tfr_resolution *res,
                                    const struct tfr_variable *v,
                                    const struct tfr_instance *in,
                                    bool show_sensitive);

/* The words explain says after a source for its state. */
const char *cli_source_state_text(enum cli_source_state s);

#endif
