block { "a" = 1 }
