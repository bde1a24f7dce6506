# The case's rules reject their defaults on purpose (to show the marked
# messages); the filled template gives values the rules want.
password = "long enough"
token = "tttt"
both = "bbbb"
