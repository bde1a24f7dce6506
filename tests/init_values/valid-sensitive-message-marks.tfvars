x = "long enough to pass every rule"
