/*
** Module source addresses as Terraform normalises them (source.c): the
** text `terraform init` records in .terraform/modules/modules.json and the
** loader compares a call's source with.
*/
#ifndef TFR_MODSOURCE_H
#define TFR_MODSOURCE_H

#include <stdbool.h>

#include "tfresolve/arena.h"

/* Terraform's default module registry, and OpenTofu's. */
#define SOURCE_TERRAFORM_REGISTRY "registry.terraform.io"
#define SOURCE_OPENTOFU_REGISTRY "registry.opentofu.org"

/* Why a source does not parse: Go's error text, and for an address no
** detector applies to (moduleaddrs.MaybeRelativePathErr) that address. */
struct source_error {
  const char *text;
  const char *relative;
};

/* raw as ParseModuleSource reads it and its String() prints it, in a:
** `./x` cleaned, a registry address with its host (registry_host when it
** names none), anything else as go-getter's detectors rewrite it
** (`github.com/o/r//sub?ref=v1` is `git::https://github.com/o/r.git//sub?
** ref=v1`).  registry_only: only a registry address is read (a call with
** a `version`).  NULL when the parse fails, why in *err (when not NULL):
** Terraform reports it as an invalid source (node_module_install.go). */
const char *source_normal(tfr_arena *a, const char *raw,
                          const char *registry_host, bool registry_only,
                          struct source_error *err);

/* The first control character (below U+0020, or U+007F) of the n bytes
** of a source address, or -1.  Terraform reads such an address as any
** other (a local path is only cleaned: source_parsing.go:99-133), and
** then no directory of that name is found; a NUL ends a C string early,
** at another directory, so the tree refuses them all (tree_load.c). */
int source_control_char(const char *s, size_t n);

/* Whether raw starts as a local path does ("./", "../", ".\", "..\"). */
bool source_is_local(const char *raw);

#endif
