a = 
b = [1, 2
c = "unterminated
d = ${x}
e = 1 +
f = ~}
