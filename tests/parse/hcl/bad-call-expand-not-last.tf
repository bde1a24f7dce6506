a = max(a..., b)
