/*
** Expression evaluation, as hclsyntax's Expression.Value does it.
**
** With no scope and no functions this is the constant evaluation Terraform
** uses for tfvars values and variable defaults: variables and function
** calls are errors.  Later layers add a scope (var.*, local.*, path.*) and
** a function table through the hooks below, without changing this code.
*/
#ifndef TFR_EVAL_H
#define TFR_EVAL_H

#include "syntax/ast.h"
#include "tfresolve/diag.h"
#include "tfresolve/value.h"
#include "values/value_int.h"

struct eval_ctx;

/* Resolves a root name (var, local, path, ...) and the traversal after it
** is up to the scope; NULL means "no such variable". */
struct eval_scope {
  const tfr_value *(*lookup)(void *ud, struct eval_ctx *c,
                             const struct ast *root, const char *name,
                             size_t len);
  void *ud;
  /* optional: name.attr at once (local.x), NULL meaning "ask lookup";
  ** a scope whose root objects are costly to build answers here */
  const tfr_value *(*attr)(void *ud, const char *name, size_t len,
                           const char *attr, size_t alen);
};

/* Calls a function by name; args holds the nargs arguments evaluated, or
** is NULL: then the callback evaluates the call's own argument expressions,
** in HCL's order.  NULL means "no such function" (the callback reports
** other errors itself).  special, when
** set, is asked first and may take over a call whose arguments are not
** all values (convert's type constraint); NULL means it did not. */
struct eval_funcs {
  const tfr_value *(*call)(void *ud, struct eval_ctx *c, const struct ast *call,
                           const char *name, size_t len, size_t nargs,
                           const tfr_value *const *args);
  void *ud;
  const tfr_value *(*special)(void *ud, struct eval_ctx *c,
                              const struct ast *call, const char *name,
                              size_t len);
};

/* A variable bound by a for expression. */
struct eval_binding {
  const char *name;
  uint32_t len;
  const tfr_value *value;
  const struct eval_binding *next;
};

/*
** The providers a module requires, by the local names of its
** required_providers blocks: Terraform offers provider::NAME::f there for
** those only (eval_context_builtin.go:538-578, lang/functions.go:128-135).
** builtin_terraform: "terraform" is one of them, the built-in provider
** (addrs.ImpliedProviderForUnqualifiedType), whose functions tfresolve has;
** any other provider's function gives an unknown result.
*/
struct eval_providers {
  const char **names;
  size_t n;
  bool builtin_terraform;
};

/* What a call of a function that does not exist says (funcs.c). */
enum eval_unknown_funcs {
  EVAL_FUNCS_TERRAFORM, /* Terraform's texts for provider functions
                           (lang/eval.go:555-651) */
  EVAL_FUNCS_HCL,       /* hcl's own (a validation rule's error_message:
                           eval_variable.go:337 does not rewrite them) */
  EVAL_FUNCS_INIT,      /* Terraform's init walk: a namespaced one is
                           unknown, in silence (eval_variable.go:336) */
};

struct eval_ctx {
  tfr_arena *a;
  tfr_diags *diags;
  struct src_file *src;
  const struct eval_scope *scope; /* NULL: variables not allowed */
  const struct eval_funcs *funcs; /* NULL: function calls not allowed */
  const struct eval_binding *bindings;
  const tfr_value *splat_item;
  bool in_for;     /* inside a for expression: an unknown name is "Unknown
                      variable", not "Variables not allowed" (as HCL) */
  const char *dir; /* base directory of file functions (NULL: the current
                      one), as Terraform's working directory */
  const struct eval_engine *engine; /* its functions' engine (engine.h;
                                      NULL: Terraform's) */
  bool console;          /* terraform console: the type() function exists,
                            plantimestamp() does not */
  const struct ast *top; /* the whole expression (console's type()) */
  bool plan;             /* as during terraform plan (validation rules): impure
                            functions (timestamp, uuid, bcrypt) are unknown and
                            plantimestamp is known; else impure functions
                            are known and plantimestamp is unknown */
  const struct eval_providers *providers; /* NULL: not a module's context
                                            (every provider:: function but
                                            terraform's is another's) */
  enum eval_unknown_funcs unknown_funcs;  /* with providers */
  const tfr_type **objtypes; /* NULL, or VALUE_OBJECT_CACHE recent object
                                types: equal object literals share one */
  uint32_t *attr_hint;       /* NULL, or the index of the last object attribute
                                found, tried first by the next lookup: 10,000
                                rules sharing one tree look up the same var.x */
};

/* Evaluate x.  Errors are added to c->diags and give an unknown value of
** type any, so that evaluation goes on without a cascade. */
const tfr_value *eval_expr(struct eval_ctx *c, const struct ast *x);

/* x of src evaluated with no scope (what tfr_eval_const does). */
const tfr_value *eval_const(tfr_arena *a, tfr_diags *diags,
                            struct src_file *src, const struct ast *x);

/* Report an error at a node's range (for scopes and functions). */
void eval_error(struct eval_ctx *c, const struct ast *at, const char *summary,
                const char *detail);

/* Report an error at a byte span of c's source. */
void eval_error_span(struct eval_ctx *c, struct span s, const char *summary,
                     const char *detail);

/* Ranges HCL reports function-call errors at: a call's name through its
** "(" (StartRange), its ")", and the start of an argument expression
** (StartRange: "[" of a tuple, the left operand of a binary operator...). */
struct span eval_call_start(const struct eval_ctx *c, const struct ast *x);
struct span eval_call_close(const struct eval_ctx *c, const struct ast *x);
struct span eval_start_span(const struct eval_ctx *c, const struct ast *x);

/* The error of an evaluation stopped at the memory budget (-max-memory;
** ours): said once per run by the evaluator, whose later expressions
** then stop silently with an unknown result while the arena stays over
** the budget (arena_value_budget). */
extern const char eval_budget_summary[], eval_budget_detail[];
/* Whether d holds that error already. */
bool eval_budget_said(const tfr_diags *d);

/* The value every failed evaluation returns: unknown, of type any. */
const tfr_value *eval_dynamic(struct eval_ctx *c);

/* Apply one attribute access / index to a value, as HCL's traversal
** steps do (shared with scopes that resolve var.x.y). */
const tfr_value *eval_getattr(struct eval_ctx *c, struct span at,
                              const tfr_value *v, const char *name, size_t len);
const tfr_value *eval_index(struct eval_ctx *c, struct span at,
                            const tfr_value *v, const tfr_value *key);

/*
** The values Terraform lists under a diagnostic about expression x
** (views/json's NewDiagnostic): for each reference, the longest prefix of
** its traversal (root and one step at least) that evaluates in c's scope
** without an error, and what it is ("is \"a\"", "is a list of string
** with 2 elements", "is a string" for an unknown), by traversal, each
** once; never a sensitive or ephemeral value.  unknown: the diagnostic is
** about an unknown value (then unknowns say "known only after apply").
** Given to the last diagnostic of diags; nothing without a scope.
*/
void eval_diag_values(struct eval_ctx *c, const struct ast *x, bool unknown,
                      tfr_diags *diags);

/*
** After the object 'for' expression x gave v: when v is sensitive (its
** collection, an 'if' value or a key was), each quoted part of the
** diagnostics since before that are about x's key expression (HCL's
** "Duplicate object key" quotes the key) becomes "(sensitive value)",
** with secret.h's note.  Terraform prints the key.
*/
void eval_hide_for_keys(struct eval_ctx *c, const struct ast *x, size_t before,
                        const tfr_value *v);

#endif
