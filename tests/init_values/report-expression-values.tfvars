# The size rule wants one of local.allowed.
size = "small"
