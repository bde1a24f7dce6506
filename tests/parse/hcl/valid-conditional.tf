a = var.on ? "yes" : "no"
b = var.a ? 1 : var.b ? 2 : 3
c = (var.a ? var.b : var.c) ? 1 : 2
d = var.x == 1 || var.y ? [1] : []
e = var.a ? var.b ? 1 : 2 : 3
