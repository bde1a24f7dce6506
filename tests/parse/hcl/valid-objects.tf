empty  = {}
equals = { a = 1, b = 2 }
colons = { a: 1, b: 2 }
lines = {
  a = 1
  b = 2
}
comma_and_newline = {
  a = 1,
  b = 2,
}
trailing = { a = 1, }
nested = {
  inner = { x = [1, { y = 2 }] }
}
blank_lines = {

  a = 1


  b = 2

}
