block { a = 1 b }
