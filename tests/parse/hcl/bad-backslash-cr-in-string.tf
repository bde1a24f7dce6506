a = "x\y"
