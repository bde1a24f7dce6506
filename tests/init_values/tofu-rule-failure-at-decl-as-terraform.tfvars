# The case's rules reject its values on purpose (to show where the
# failures point); the filled template gives values the rules want.
region = "eu-west-1"
zones = 3
size = "s"
