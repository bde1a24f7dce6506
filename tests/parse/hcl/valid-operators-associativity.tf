sub  = 10 - 4 - 3
div  = 100 / 10 / 5
mod  = 10 % 4 % 3
mix  = 1 - 2 + 3
muls = 2 * 3 / 4 % 5
ors  = a || b || c
ands = a && b && c
eqs  = a == b == c
lts  = a < b < c
