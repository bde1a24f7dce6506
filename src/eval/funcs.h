/*
** Terraform's built-in functions: a table of specs (name, parameters,
** result type) and one implementation per function, called the way cty's
** function package calls them (cty/function/function.go).
**
** The caller (funcs.c) checks arity, converts each argument to its
** parameter type, handles null, unknown and marked arguments, and turns
** errors into Terraform's diagnostics, so an implementation only sees
** what its spec allows and only computes its result.  As in cty, an
** argument that is known at the top level reaches the implementation even
** when it holds unknown elements or attributes: each implementation
** decides what they make of its result (keep them, or answer unknown as
** its cty or Terraform source does).
*/
#ifndef TFR_FUNCS_H
#define TFR_FUNCS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/compat.h"
#include "eval/eval.h"
#include "tfresolve/value.h"

enum {
  FP_ALLOW_NULL = 1 << 0,    /* a null argument reaches the function */
  FP_ALLOW_UNKNOWN = 1 << 1, /* an argument unknown as a whole reaches the
                             ** function (one with unknowns inside always
                             ** does) */
  FP_ALLOW_DYNAMIC = 1 << 2, /* a value of type any reaches the function */
  FP_ALLOW_MARKED = 1 << 3,  /* sensitive values reach it with their marks */
};

struct func_param {
  const char *name;
  const tfr_type *type; /* NULL means any (cty.DynamicPseudoType) */
  unsigned flags;
};

/* A string or number parameter of a spec table, with no flags. */
#define STR(name)                                                              \
  { name, &tfr_t_string, 0 }
#define NUM(name)                                                              \
  { name, &tfr_t_number, 0 }

/* One call in progress: what an implementation may use. */
struct fcall {
  struct eval_ctx *c;
  tfr_arena *a;
  const struct ast *call; /* the call expression */
  const struct func_spec *spec;
  const tfr_value *const *args; /* after conversion */
  size_t nargs;
  bool failed;
  /* the texts of the sensitive arguments (strings, keys, numbers), which
  ** an error message may not show */
  const char **secrets;
  size_t nsecrets;
};

/*
** The result type from the (converted) arguments, or NULL after
** fcall_error / fcall_arg_error.  NULL here means the spec's fixed ret.
*/
typedef const tfr_type *(*func_type_fn)(struct fcall *f);

/* The result; NULL after fcall_error / fcall_arg_error. */
typedef const tfr_value *(*func_impl_fn)(struct fcall *f, const tfr_type *ret);

struct func_spec {
  const char *name;
  int nparams;
  struct func_param params[4];
  const struct func_param *variadic; /* or NULL */
  const tfr_type *ret;               /* fixed result type, or NULL */
  func_type_fn type;                 /* result type from the arguments */
  func_impl_fn impl;
};

/* The function's name as the call wrote it ("core::upper"), which HCL's
** messages give (hclsyntax/expression.go: e.Name); in f's arena. */
const char *fcall_name(const struct fcall *f);

/* "Error in function call": Call to function "f" failed: <message>. */
void fcall_error(struct fcall *f, const char *fmt, ...) TFR_PRINTF(2, 3);

/* Mark the error just reported as tfresolve's own (JSON "origin"): a limit
** of ours (-max-memory, a nesting depth) that Terraform does not have. */
void fcall_ours(struct fcall *f);

/* "Invalid function argument": Invalid value for "<param>" parameter:
** <message>.  i is the argument's index. */
void fcall_arg_error(struct fcall *f, size_t i, const char *fmt, ...)
    TFR_PRINTF(3, 4);

/* An unknown value of type t refined as not null (cty's
** UnknownVal(t).RefineNotNull()), in a's memory. */
const tfr_value *funcs_unknown_notnull(tfr_arena *a, const tfr_type *t);

/* Register a group of functions (each funcs_<group>.c has one table). */
struct func_group {
  const struct func_spec *specs;
  size_t n;
};

/* The function table: every group, looked up by name (also "core::NAME").
** Usable as the eval_funcs of an eval_ctx. */
extern const struct eval_funcs funcs_table;

/* go-cty-yaml's timestamp recognition (funcs_time.c), for yamldecode: the
** RFC 3339 text of a YAML timestamp scalar, or NULL. */
const char *time_yaml_stamp(tfr_arena *a, const char *s, size_t n);

/* convert(value, type): the second argument is a type constraint, not a
** value (Terraform 1.15); funcs_typeconv.c. */
const tfr_value *funcs_convert(struct eval_ctx *c, const struct ast *call);

/* type(value), the console-only function: a string marked TFR_V_TYPE
** holding the type as the console prints it (funcs_typeconv.c). */
const tfr_value *funcs_type(struct eval_ctx *c, const struct ast *call);

/* Whether a function is impure (its result is unknown during plan). */
bool funcs_impure(const char *name, size_t len);

/* The digest of n bytes with algo ("md5", "sha1", "sha256", "sha512"),
** as lower-case hex or (base64) standard Base64 with padding. */
const tfr_value *funcs_hash(tfr_arena *a, const char *algo, bool base64,
                            const void *data, size_t n);

/* Groups, defined by the funcs_*.c files; the *_tofu groups exist only
** with -engine=opentofu. */
extern const struct func_group funcs_numeric, funcs_string, funcs_collection,
    funcs_sets, funcs_encoding, funcs_typeconv, funcs_time, funcs_crypto,
    funcs_file, funcs_net, funcs_net_tofu, funcs_encoding_tofu,
    funcs_assume_tofu, funcs_provider, funcs_yaml, funcs_yaml_emit, funcs_json,
    funcs_format;

struct sbuf;

/* The bytes gathered in b as a string value (copied, NFC as
** cty.StringVal); b's memory is freed. */
const tfr_value *sbuf_value(tfr_arena *a, struct sbuf *b);

#endif
