a = "hello   ${~ "world" ~}   !"
b = "x  %{~ if true ~}  y  %{~ endif ~}  z"
c = "a \n%{~ for x in xs }  ${x}  %{ endfor ~}\n b"
d = "keep  ${"x"}  keep"
