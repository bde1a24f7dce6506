/*
** Embedding libtfresolve: resolve the input variables of a module as
** `terraform plan` would, and print each one with its source.  Build it
** against the installed library:
**
**   cc -std=c11 -o example example.c $(pkg-config --cflags --libs tfresolve)
**   ./example path/to/module
**
** Everything the library returns lives in the arena passed to it, freed at
** once at the end; problems come back as diagnostics, never printed or
** fatal inside the library.  The suite builds and runs this file against
** the installed headers and pkg-config file (tests/install.sh).
*/
#include <stdio.h>
#include <stdlib.h>

#include <tfresolve/tfresolve.h>

/* A writer: the library's output, to a destination of the caller's. */
static size_t to_stderr(void *ctx, const char *data, size_t n) {
  *(size_t *)ctx += n;
  return fwrite(data, 1, n, stderr);
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  printf("libtfresolve %s (compiled against %s)\n", tfr_version(),
         TFR_VERSION_STRING);

  tfr_arena *a = tfr_arena_new();
  tfr_diags *diags = tfr_diags_new(a);
  /* options start from their _INIT macro, which records the size of the
  ** struct this program knows: a newer library reads that much */
  struct tfr_resolve_opts opts = TFR_RESOLVE_OPTS_INIT;
  opts.dir = dir;
  const struct tfr_resolution *res = tfr_resolve(a, diags, &opts);

  /* the variables through the accessor, never res->vars[i]: the
  ** library's struct may have grown past this program's sizeof */
  for (size_t i = 0; res && i < res->n; i++) {
    const struct tfr_variable *v = tfr_resolution_variable(res, i);
    if (!v->value)
      printf("%s: (not resolved)\n", v->name);
    else if (v->sensitive)
      printf("%s: (sensitive)\n", v->name);
    else if (tfr_number_text(a, v->value))
      printf("%s = %s (the number %g)\n", v->name, tfr_number_text(a, v->value),
             tfr_number_double(v->value));
    else
      printf("%s = %s\n", v->name, tfr_value_console(a, v->value));
  }

  /* Terraform's own rendering of the problems, if any, through a callback
  ** (here it only counts and forwards to stderr) */
  /* the defaults of the _INIT macro: no colour, the ASCII frame */
  static const struct tfr_render_opts plain = TFR_RENDER_OPTS_INIT;
  size_t bytes = 0;
  FILE *out = tfr_writer_open(to_stderr, &bytes);
  if (out) {
    tfr_diags_render_text(diags, out, &plain);
    fclose(out);
  }
  printf("%zu bytes of diagnostics\n", bytes);
  int status = res && res->valid ? EXIT_SUCCESS : EXIT_FAILURE;
  tfr_arena_free(a);
  return status;
}
