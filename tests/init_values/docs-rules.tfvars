# what their rules want
port = 2000
name = "abcdefghijkl"
