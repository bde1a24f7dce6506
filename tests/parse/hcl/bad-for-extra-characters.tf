a = [for x in y : x z]
