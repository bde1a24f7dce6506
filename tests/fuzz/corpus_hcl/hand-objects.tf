a = {
  "quoted key" = 1
  (var.k) = 2
  x: 3,
  y = { z = [1, 2, { w = null }] }
}
b = {}
c = []
d = [1, "two", true, null,]
