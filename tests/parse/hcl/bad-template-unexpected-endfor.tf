a = "x%{endfor}"
