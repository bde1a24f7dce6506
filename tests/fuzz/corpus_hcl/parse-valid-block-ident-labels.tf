resource aws_instance web {
  ami = "ami-123"
}

terraform {
  required_version = ">= 1.0"
}
