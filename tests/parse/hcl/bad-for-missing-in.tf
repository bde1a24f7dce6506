a = [for x of y : x]
