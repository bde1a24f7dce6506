# The case's rules reject their defaults on purpose (to show which rules
# run); the filled template gives values the rules want.
name = "web-1"
port = 2000
ok = 5
