a = var.list[*].id
b = var.list.*.name
c = var.m["k"][0].x[*].y
d = [for s in var.list : upper(s)]
e = foo.bar[*]
