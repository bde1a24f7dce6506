a = [for x in var.list : upper(x)]
b = [for i, x in var.list : "${i}=${x}"]
c = [for x in var.list : x if x != ""]
d = [
  for x in var.list :
  x * 2
  if x > 0
]
e = [for x in [for y in var.ys : y] : x]
