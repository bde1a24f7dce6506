region = "eu-west-1"
tags = {
  Name = "x"
}
list = ["a", "b"]
