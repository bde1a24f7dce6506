outer { inner { v = 1 } }
