a = "%{while x}"
