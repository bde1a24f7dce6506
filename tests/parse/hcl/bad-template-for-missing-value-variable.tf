a = "%{for k, 1 in y}z%{endfor}"
