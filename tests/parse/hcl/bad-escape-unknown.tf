a = "bad \x escape"
