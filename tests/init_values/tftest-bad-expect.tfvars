# x must be positive (its validation rule).
x = 1
