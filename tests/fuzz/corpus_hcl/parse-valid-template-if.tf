a = "%{if var.on}yes%{endif}"
b = "%{if var.on}yes%{else}no%{endif}"
c = "x%{if a}%{if b}ab%{endif}%{endif}y"
d = "%{ if cond }spaced%{ else }other%{ endif }"
