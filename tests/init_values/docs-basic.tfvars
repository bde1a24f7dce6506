# its rule wants 1 to 10
size = 3
