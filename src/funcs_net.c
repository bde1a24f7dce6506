/*
** IP network functions (Terraform's internal/lang/funcs/cidr.go).
*/
#include "funcs.h"

const struct func_group funcs_net = {NULL, 0};
const struct func_group funcs_net_tofu = {NULL, 0};
