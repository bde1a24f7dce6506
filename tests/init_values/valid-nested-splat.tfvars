# The defaults hold a null on purpose: the nested splats fail.
v = [1, 2]
w = [{ a = 1 }, { a = 2 }]
