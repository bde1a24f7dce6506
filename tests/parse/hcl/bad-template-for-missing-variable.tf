a = "%{for 1 in y}z%{endfor}"
