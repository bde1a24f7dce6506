a = foo.*.[0]
