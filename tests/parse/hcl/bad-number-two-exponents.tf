a = 1e2e3
