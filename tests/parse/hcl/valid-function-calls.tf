none      = timestamp()
one       = upper("x")
many      = join(", ", ["a", "b"])
trailing  = max(1, 2,)
expand    = max(var.numbers...)
expand2   = concat(["a"], var.rest...)
multiline = format(
  "%s-%s",
  var.a,
  var.b,
)
nested = lower(upper(trim(" x ", " ")))
