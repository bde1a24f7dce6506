x = "abcd"
