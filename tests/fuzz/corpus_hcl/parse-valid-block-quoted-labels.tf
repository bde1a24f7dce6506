resource "aws_instance" "web" {
  ami = "ami-123"
}

variable "with spaces and \"quotes\"" {
  type = string
}

mixed "quoted" bare {
}
