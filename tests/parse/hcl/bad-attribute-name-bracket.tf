a = foo.[0]
