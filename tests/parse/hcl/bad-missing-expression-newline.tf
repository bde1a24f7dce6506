a =
b = 1
