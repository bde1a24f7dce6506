variable "a" { default = 1 }
variable "b" {}
locals { x = [1, 2] }
outer { inner { v = "x" } }
