region = "a"
region = "b"
