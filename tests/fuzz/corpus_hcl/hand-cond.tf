a = var.enabled ? {
  x = 1
} : null
b = (var.a
  + var.b)
c = var.list[0] == "x" ? "yes" : "no"
