a = var.list.*.id
b = var.list.*.tags.name
c = var.list.*.ids.0
d = var.list.*.id[0]
e = var.list.*
f = var.list.*.a.b.c[1].d
