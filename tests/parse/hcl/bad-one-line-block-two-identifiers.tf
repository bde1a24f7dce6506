block { a b = 1 }
