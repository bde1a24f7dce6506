a = foo.*.0.1
