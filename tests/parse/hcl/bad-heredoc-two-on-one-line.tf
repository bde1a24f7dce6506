list = [<<A, <<B]
first
A
second
B
