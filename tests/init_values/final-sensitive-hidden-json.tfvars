# The password rule wants 12 characters or more.
password = "correct-horse-battery"
