a = foo.*.*
