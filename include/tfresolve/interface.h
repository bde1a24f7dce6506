/*
** libtfresolve: a module's interface as data -- what `tfresolve inspect`
** and `tfresolve docs` print: its input variables as declared (type as
** written, optional-attribute defaults, default, every argument of the
** block, each validation rule's text), its outputs, its requirements
** (required_version, required_providers), its resources and data
** sources, and its module calls.  A superset of what HashiCorp's
** terraform-config-inspect reads (its tfconfig package), read with this
** library's parser and loader: Terraform 1.15's const variables in
** module sources and OpenTofu's .tofu files included.
**
** Everything lives in the arena given; the arrays are reached through
** the accessor functions (the structs may grow, as resolution.h says).
** Since 0.4.0.
*/
#ifndef TFRESOLVE_INTERFACE_H
#define TFRESOLVE_INTERFACE_H

#include "tfresolve/export.h"

#include <stdbool.h>
#include <stddef.h>

#include "tfresolve/arena.h"
#include "tfresolve/diag.h"
#include "tfresolve/value.h"

#ifdef __cplusplus
extern "C" {
#endif

struct tfr_module;

/** A bound a rule's condition puts on a number or on a length: the
 *  numbers as written (JSON numbers), NULL: none.  Since 0.4.0. */
struct tfr_iface_bound {
  const char *min, *max;
  bool min_excl, max_excl; /* > and < rather than >= and <= */
};

/** One validation rule of a variable, as written, and what its
 *  condition says of the variable's values, read from its syntax tree as
 *  tfr_resolution_allowed reads all of a variable's rules: an allow-list
 *  (contains([...], var.x), anytrue([var.x == "a", ...]), var.x == "a",
 *  or a disjunction of these) alone or joined to others by &&, the
 *  negated forms (!..., var.x != "a", alltrue([var.x != "a", ...])) so
 *  joined, and conjuncts comparing var.x or length(var.x) with a number
 *  (<, <=, >, >=, either side). */
struct tfr_iface_rule {
  struct tfr_range range;     /* the validation block */
  const char *condition;      /* its condition's source text */
  const char *error_message;  /* its error_message's source text */
  const char *message;        /* the message itself when it is a constant
                                 string (no template interpolation), else
                                 NULL */
  const char *const *allowed; /* the strings it allows, those it forbids
                                 left out; NULL: it is no allow-list.
                                 Since 0.4.0 */
  size_t nallowed;
  const char *const *forbidden; /* the strings it forbids */
  size_t nforbidden;
  struct tfr_iface_bound bounds;        /* var.x >= N and the like */
  struct tfr_iface_bound length_bounds; /* length(var.x) >= N and the like */
};

/** The default of an optional attribute of a type constraint. */
struct tfr_iface_default {
  const char *path; /* ".a.b", "[*]" an element of a list, set or map,
                       "[2]" a tuple element: ".rules[*].port" */
  const tfr_value *value;
};

/** One declared input variable (override files merged). */
struct tfr_iface_variable {
  const char *name;
  struct tfr_range decl;          /* `variable "x"` */
  const char *type;               /* the type constraint as written, or NULL */
  const tfr_type *constraint;     /* the constraint, with optional attributes
                                     (any when it has no type) */
  const tfr_value *default_given; /* the default as written (evaluated,
                                     not converted), or NULL: none */
  const tfr_value *default_value; /* converted to the type, optional
                                     defaults applied; NULL: none */
  bool required;                  /* no default argument */
  const char *description;        /* NULL: none */
  const char *deprecated;         /* its message, NULL: not deprecated */
  bool sensitive, nullable, ephemeral, is_const;
  const struct tfr_iface_rule *rules; /* in order: tfr_iface_variable_rule */
  size_t nrules;
  const struct tfr_iface_default *defaults; /* optional-attribute
                                               defaults, depth first */
  size_t ndefaults;
};

/** One output. */
struct tfr_iface_output {
  const char *name;
  struct tfr_range decl;
  const char *description, *deprecated; /* NULL: none */
  const char *type;                     /* its type as written, or NULL */
  bool sensitive, ephemeral;
  const char *value; /* its value's source text, or NULL */
};

/** One provider requirement, by local name (required_providers, provider
 *  blocks and the providers resources imply, as terraform-config-inspect
 *  collects them). */
struct tfr_iface_provider {
  const char *name;
  const char *source;          /* NULL: none given */
  const char *const *versions; /* version constraints, in order */
  size_t nversions;
  const char *const *aliases; /* configuration_aliases: "aws.east" */
  size_t naliases;
};

/** A provider block (a provider configuration). */
struct tfr_iface_provider_config {
  const char *name;  /* its local name */
  const char *alias; /* NULL: the default configuration */
  struct tfr_range decl;
};

/** A resource or data source block. */
struct tfr_iface_resource {
  bool data; /* a data block (else a managed resource) */
  const char *type, *name;
  const char *provider, *alias; /* its provider's local name, and alias
                                   (NULL: the default configuration) */
  struct tfr_range decl;
};

/** A module call. */
struct tfr_iface_call {
  const char *name;
  struct tfr_range decl;
  const char *source;      /* the literal source, or NULL */
  const char *source_expr; /* a source that is an expression (const
                              variables, local values): its text; NULL
                              for a literal */
  const char *version;     /* NULL: none */
};

/** A module's interface. */
struct tfr_interface {
  const char *path; /* the directory as given */
  bool has_config;
  const struct tfr_iface_variable *vars; /* sorted by name */
  size_t nvars;
  const struct tfr_iface_output *outputs; /* sorted by name */
  size_t noutputs;
  const char *const *required_core; /* required_version, each given */
  size_t nrequired_core;
  const struct tfr_iface_provider *providers; /* sorted by name */
  size_t nproviders;
  const struct tfr_iface_provider_config *configs; /* provider blocks,
                                                      sorted by name and
                                                      alias */
  size_t nconfigs;
  const struct tfr_iface_resource *resources; /* managed, then data;
                                                 each sorted by address */
  size_t nresources;
  const struct tfr_iface_call *calls; /* sorted by name */
  size_t ncalls;
};

/**
 * The interface of a loaded module (tfr_module_load).  Reading the files
 * again for the blocks the loader does not keep, it adds no diagnostic
 * the load did not give (those of the load are the module's).
 * @returns the interface, owned by @p a.  Since 0.4.0.
 */
TFR_API const struct tfr_interface *
tfr_module_interface(tfr_arena *a, const struct tfr_module *m);

/** The i-th variable, output, provider, provider block, resource, call
 *  of an interface,
 *  or NULL when @p i is past the end.  Since 0.4.0. */
TFR_API const struct tfr_iface_variable *
tfr_interface_variable(const struct tfr_interface *f, size_t i);
TFR_API const struct tfr_iface_output *
tfr_interface_output(const struct tfr_interface *f, size_t i);
TFR_API const struct tfr_iface_provider *
tfr_interface_provider(const struct tfr_interface *f, size_t i);
TFR_API const struct tfr_iface_provider_config *
tfr_interface_provider_config(const struct tfr_interface *f, size_t i);
TFR_API const struct tfr_iface_resource *
tfr_interface_resource(const struct tfr_interface *f, size_t i);
TFR_API const struct tfr_iface_call *
tfr_interface_call(const struct tfr_interface *f, size_t i);

/** The i-th rule, optional-attribute default of a variable, or NULL.
 *  Since 0.4.0. */
TFR_API const struct tfr_iface_rule *
tfr_iface_variable_rule(const struct tfr_iface_variable *v, size_t i);
TFR_API const struct tfr_iface_default *
tfr_iface_variable_default(const struct tfr_iface_variable *v, size_t i);

struct tfr_resolution;
struct tfr_instance;

/**
 * Every module of a resolution's configuration tree (tfr_resolve_opts
 * .tree) once, under its call path (address and call both
 * "module.a.module.b"), whatever the instances of its call: a call with
 * count = 0 or for_each = {}, or whose instances were not checked, is
 * there too, as a configuration lists every module call it loads
 * (Terraform's internal/command/jsonconfig/config.go marshalModuleCalls).
 * Its variables are as declared, each with its argument (arg_expr), and
 * have no value.  Depth first, calls by name; *@p n of them (0 when the
 * resolution has no tree: tfr_resolution.tree).  Owned by the arena of the
 * resolution; not to be called by two threads at once on one
 * resolution.  Since 0.4.0.
 */
TFR_API const struct tfr_instance *
tfr_resolution_config_modules(const struct tfr_resolution *res, size_t *n);

/**
 * The depends_on of the module call of the @p i-th module of
 * tfr_resolution_config_modules: each reference as Terraform's plan JSON
 * writes it (internal/command/jsonconfig/config.go marshalModuleCall:
 * addrs.ParseRef's subject, "aws_s3_bucket.b" for aws_s3_bucket.b.arn;
 * "" for a reference ParseRef rejects), in order.  A quoted reference
 * (deprecated, with a warning) is not among them.  *@p n of them; NULL
 * when there are none or @p i is past the end.  Owned by the arena of
 * the resolution.  Since 0.4.0.
 */
TFR_API const char *const *
tfr_resolution_config_depends_on(const struct tfr_resolution *res, size_t i,
                                 size_t *n);

/**
 * An expression's value as Terraform's plan JSON writes it as
 * `constant_value` (internal/command/jsonconfig/expression.go: hcl's
 * Value with no evaluation context): in the native syntax what
 * tfr_eval_const gives, in a .tf.json file's value (tfr_variable.arg_expr,
 * tfr_instance.count_expr...) the JSON value as written, every string in
 * it verbatim ("${var.x}" too: hcl's JSON expressions evaluate no
 * template without a context).  NULL when it has an error (a reference,
 * a function call); the value may still be unknown.  Since 0.4.0.
 */
TFR_API const tfr_value *tfr_expr_constant_value(tfr_arena *a,
                                                 const tfr_file *expr);

#ifdef __cplusplus
}
#endif

#endif
