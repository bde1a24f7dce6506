/*
** report_multi FORMAT DIR VARFILE...
**
** The CI reports (src/cli/report.c) of a module checked once per environment:
** DIR resolved with each VARFILE on top of its own value sources (no
** TF_VAR_*), the reports written for all of them at once as `check
** -var-file-each` does.  FORMAT is sarif, github or junit.  Exit status
** 1 when an environment is invalid, as check's.  Used by check_sarif.py.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_module.h"

int main(int argc, char **argv) {
  if (argc < 4 || chdir(argv[2]) != 0) {
    fprintf(stderr, "usage: report_multi sarif|github|junit DIR VARFILE...\n");
    return 2;
  }
  enum out_format f = !strcmp(argv[1], "sarif")    ? FMT_SARIF
                      : !strcmp(argv[1], "github") ? FMT_GITHUB
                                                   : FMT_JUNIT;
  size_t n = (size_t)argc - 3;
  struct report_env *envs = calloc(n, sizeof *envs);
  struct tfr_cli_arg *args = calloc(n, sizeof *args);
  tfr_arena *a = tfr_arena_new();
  int rc = 0;
  for (size_t i = 0; i < n; i++) {
    args[i].file = true;
    args[i].value = argv[3 + i];
    struct tfr_resolve_opts ro = TFR_RESOLVE_OPTS_INIT;
    ro.dir = ".";
    ro.args = &args[i];
    ro.nargs = 1;
    tfr_diags *d = tfr_diags_new(a);
    envs[i].name = argv[3 + i];
    envs[i].res = tfr_resolve(a, d, &ro);
    envs[i].diags = d;
    if (!envs[i].res->valid)
      rc = 1;
  }
  report_write(stdout, f, envs, n);
  tfr_arena_free(a);
  free(args);
  free(envs);
  return rc;
}
