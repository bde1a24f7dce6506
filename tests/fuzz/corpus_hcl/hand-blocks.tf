resource "aws_s3_bucket" "b" {
  bucket = "x"
  dynamic "rule" {
    for_each = var.rules
    content {
      id = rule.value.id
    }
  }
  lifecycle { ignore_changes = [tags] }
}
variable "v" {
  type = map(object({ a = optional(string, "d"), b = list(number) }))
  default = {}
  validation {
    condition     = length(var.v) > 0
    error_message = "Must not be empty."
  }
}
