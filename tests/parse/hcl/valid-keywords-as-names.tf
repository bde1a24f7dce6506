for     = 1
in      = 2
if      = 3
endif   = 4
true_ish = true
literals = [true, false, null]
variable "for" {
  default = in
}
x = for_each.value
