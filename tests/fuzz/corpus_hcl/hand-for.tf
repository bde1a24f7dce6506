a = [for i, v in var.xs : v * 2 if i % 2 == 0]
b = {for k, v in var.m : k => v...}
c = {for k, v in var.m : upper(k) => [for x in v : x if x != null]}
d = [for v in [1, 2, 3] : { n = v }]
