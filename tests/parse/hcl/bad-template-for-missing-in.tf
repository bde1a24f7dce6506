a = "%{for x of y}z%{endfor}"
