a = var.list[*].id
b = var.list[*].tags["name"]
c = var.list[*].ids[0].x
d = var.list[*]
e = var.list[*].a[*].b
f = var.list[*].a.*.b
