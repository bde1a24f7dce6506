a = [for, x]
