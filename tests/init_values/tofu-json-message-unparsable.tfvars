# The case's rule rejects its default on purpose (to show the literal
# message); the filled template gives the value the rule wants.
x = "b"
