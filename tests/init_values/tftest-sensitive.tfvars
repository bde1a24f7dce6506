# password: 8 characters or more (its validation rule).
password = "correct-horse"
