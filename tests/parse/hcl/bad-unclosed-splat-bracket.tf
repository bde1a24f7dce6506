a = b[*
