block { a 1 }
