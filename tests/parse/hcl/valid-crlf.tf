a = 1
b = "two"
# comment
block "x" {
  c = [
    1,
  ]
}
