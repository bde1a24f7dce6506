a = 'single'
b = 1; c = 2
d = 1 & 2
e	= 3
