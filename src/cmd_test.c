/*
** tfresolve test: the variable-only part of `terraform test` files.
*/
#include "cli.h"

int cmd_test(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fputs("tfresolve test: not implemented yet\n", stderr);
  return EXIT_USAGE;
}
