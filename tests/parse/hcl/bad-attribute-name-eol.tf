a = foo.
