/*
** Filesystem functions, relative to the evaluation's base directory
** (Terraform's working directory: the module directory).
*/
#include "funcs.h"

const struct func_group funcs_file = {NULL, 0};
