/*
** libFuzzer target: load and resolve a whole module from files, as `show`
** does.  The input is up to five sections separated by a line "#--":
**
**   0  main.tf               (written to a scratch module directory)
**   1  terraform.tfvars      (written; the general path when a value is
**                             an expression, the fast path otherwise)
**   2  x.auto.tfvars.json    (written)
**   3  a -var-file's content (in memory, named extra.tfvars)
**   4  lines NAME=VALUE: odd lines are -var options, even ones TF_VAR_
**      environment variables
**
** The resolution is rendered as `show -json` (with and without
** -show-sensitive) and every diagnostic as text, JSON and short lines; the
** module's interface (tfr_module_interface: what inspect and docs print)
** is read whole.  A
** value budget of 256 MB makes bombs end in diagnostics, as -max-memory
** does.  Build and run: see tests/fuzz/README.md.
*/
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { NSECT = 5, MAXLINES = 16 };

static const char *const file_names[] = {"main.tf", "terraform.tfvars",
                                         "x.auto.tfvars.json", NULL};

/* The scratch module directory (in $TMPDIR), made once per process. */
static const char *fuzz_dir(void) {
  return fuzz_scratch_dir("fuzzmod", file_names);
}

static void put(FILE *out, const char *s) {
  if (s)
    fputs(s, out);
}

/* Every string of the module's interface, written to out. */
static void interface(FILE *out, tfr_arena *a, const char *dir, bool tofu) {
  tfr_diags *d = tfr_diags_new(a);
  const struct tfr_interface *f =
      tfr_module_interface(a, tfr_module_load(a, d, dir, tofu));
  const struct tfr_iface_variable *v;
  for (size_t i = 0; (v = tfr_interface_variable(f, i)); i++) {
    put(out, v->type);
    const struct tfr_iface_rule *r;
    for (size_t k = 0; (r = tfr_iface_variable_rule(v, k)); k++) {
      put(out, r->condition);
      put(out, r->error_message);
      put(out, r->message);
    }
    const struct tfr_iface_default *x;
    for (size_t k = 0; (x = tfr_iface_variable_default(v, k)); k++)
      put(out, x->path);
  }
  const struct tfr_iface_output *o;
  for (size_t i = 0; (o = tfr_interface_output(f, i)); i++) {
    put(out, o->description);
    put(out, o->type);
    put(out, o->value);
  }
  const struct tfr_iface_provider *p;
  for (size_t i = 0; (p = tfr_interface_provider(f, i)); i++)
    for (size_t k = 0; k < p->nversions; k++)
      put(out, p->versions[k]);
  const struct tfr_iface_resource *r;
  for (size_t i = 0; (r = tfr_interface_resource(f, i)); i++)
    put(out, r->alias);
  const struct tfr_iface_call *c;
  for (size_t i = 0; (c = tfr_interface_call(f, i)); i++)
    put(out, c->source_expr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *sec[NSECT];
  size_t len[NSECT];
  size_t nsec = fuzz_split(data, size, sec, len, NSECT);
  const char *dir = fuzz_dir();
  for (size_t i = 0; i < 3; i++)
    fuzz_put_file(dir, file_names[i], i < nsec ? sec[i] : NULL,
                  i < nsec ? len[i] : 0, i < nsec);

  tfr_set_memory_budget((size_t)256 << 20);
  tfr_arena *a = tfr_arena_new();
  tfr_diags *diags = tfr_diags_new(a);

  struct tfr_cli_arg args[1 + MAXLINES];
  char *env[MAXLINES + 1];
  size_t nargs = 0, nenv = 0;
  if (nsec > 3)
    args[nargs++] = (struct tfr_cli_arg){.file = true,
                                         .value = "extra.tfvars",
                                         .content = (const char *)sec[3],
                                         .content_len = len[3]};
  if (nsec > 4) {
    const char *p = (const char *)sec[4], *end = p + len[4];
    for (size_t line = 0; p < end && line < MAXLINES; line++) {
      const char *nl = memchr(p, '\n', (size_t)(end - p));
      size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
      if (line % 2 == 0) {
        args[nargs++] =
            (struct tfr_cli_arg){.value = tfr_arena_strndup(a, p, n)};
      } else {
        env[nenv++] = tfr_arena_printf(a, "TF_VAR_%.*s", (int)n, p);
      }
      p += n + (nl != NULL);
    }
  }
  env[nenv] = NULL;

  struct tfr_resolve_opts o = TFR_RESOLVE_OPTS_INIT;
  o.dir = dir;
  o.env = env;
  o.args = args;
  o.nargs = nargs;
  o.opentofu = size > 0 && (data[0] & 1);
  o.keep_given = size > 0 && (data[0] & 2);
  o.strict = size > 0 && (data[0] & 4);
  o.missing_required_info = size > 0 && (data[0] & 8);
  const struct tfr_resolution *res = tfr_resolve(a, diags, &o);
  if (!res && !tfr_diags_has_errors(diags))
    abort(); /* no resolution must be explained by an error */

  struct tfr_render_opts ropts = TFR_RENDER_OPTS_INIT;
  ropts.color = true;
  ropts.unicode = true;
  FILE *out = fuzz_sink();
  if (res) {
    tfr_resolution_write_json(out, a, res, diags, false);
    tfr_resolution_write_json(out, a, res, diags, true);
    /* what an editor's completion asks: the values each rule allows */
    for (size_t i = 0; i < res->n; i++) {
      size_t n;
      const char **v = tfr_resolution_allowed(
          a, res, tfr_resolution_variable(res, i)->name, &n);
      for (size_t k = 0; k < n; k++)
        if (!v[k])
          abort();
    }
  }
  tfr_diags_render_text(diags, out, &ropts);
  tfr_diags_render_json(diags, out);
  tfr_diags_render_short(diags, out);
  interface(out, a, dir, o.opentofu);
  tfr_arena_free(a);
  return 0;
}
