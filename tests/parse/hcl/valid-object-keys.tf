keys = {
  ident         = 1
  "quoted key"  = 2
  (var.dynamic) = 3
  "${var.t}-x"  = 4
  true          = 5
  null          = 6
  for_each      = 7
  in            = 8
  "for"         = 9
  key : "value"
  1             = 10
}
