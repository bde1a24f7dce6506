a = max(1 2)
