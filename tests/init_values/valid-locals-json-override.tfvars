# The default of code is too long on purpose (the override sets max = 8).
code = "AB-12345"
