locals {
  ok = (
    var.a == "x"
    || var.b == "y"
    && var.c
  )
  also = anytrue([
    var.a
    || var.b,
  ])
}
