resource "aws_security_group" "sg" {
  name = "sg"

  ingress {
    from_port = 443

    cidr_blocks = ["0.0.0.0/0"]
  }

  dynamic "egress" {
    for_each = var.rules
    content {
      port = egress.value.port
    }
  }
}
