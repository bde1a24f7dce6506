outer { inner "x" { v = 1 } }
