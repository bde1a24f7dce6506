# hash comment
// slash comment
/* block comment */
/*
  multi-line
  block comment
*/
a = 1 # after an attribute
b = 2 // after an attribute
c = /* inline */ 3
d = [
  1, # inside a tuple
  /* inside */ 2,
]
block { # after the brace
  e = 4 /* block comment before newline */
}
