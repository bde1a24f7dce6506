/*
** tfresolve init: a tfvars template for the module's variables.
*/
#include "cli.h"

int cmd_init(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fputs("tfresolve init: not implemented yet\n", stderr);
  return EXIT_USAGE;
}
