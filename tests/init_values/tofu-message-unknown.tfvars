# The case's rule rejects its default on purpose (to show the unknown
# message); the filled template gives the value the rule wants.
ami = "ami-0abc"
