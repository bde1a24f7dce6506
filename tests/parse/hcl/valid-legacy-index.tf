a = foo.0.bar
b = foo.0
c = foo.10.bar[1]
d = aws_instance.web.0.id
