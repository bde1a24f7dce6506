mul_over_add = 1 + 2 * 3
add_over_cmp = 1 + 2 < 3 * 4
cmp_over_eq  = 1 < 2 == 3 > 4
eq_over_and  = a == b && c != d
and_over_or  = a || b && c
all          = a || b && c == d + e * f < g
parens       = (1 + 2) * 3
mod_div      = 7 % 3 / 2
le_ge        = a <= b != c >= d
