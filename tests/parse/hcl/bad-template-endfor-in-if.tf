a = "%{if a}x%{endfor}"
