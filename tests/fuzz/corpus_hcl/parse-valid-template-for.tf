a = "%{for x in var.list}${x},%{endfor}"
b = "%{for k, v in var.map}${k}=${v};%{endfor}"
c = "[%{for x in xs}%{if x > 0}${x}%{endif}%{endfor}]"
