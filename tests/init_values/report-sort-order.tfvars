delta = "long enough"
