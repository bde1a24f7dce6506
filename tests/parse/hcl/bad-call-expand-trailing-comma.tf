a = max(a...,)
