region = "eu-west-1"
token = "a-long-enough-token"
