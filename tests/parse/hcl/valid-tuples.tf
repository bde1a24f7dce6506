empty    = []
one      = [1]
commas   = [1, "two", true]
trailing = [1, 2,]
lines = [
  "a",
  "b"
]
lines_trailing = [
  "a",
  "b",
]
nested = [[1, 2], [], [[3]]]
mixed_breaks = [1,
  2
  , 3]
