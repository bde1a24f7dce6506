# Sensitive values for tests/eval/marks.test (a module of its own, so that
# the file functions' listings of files/ stay as they are).
variable "pw" {
  type      = string
  sensitive = true
  default   = "hunter2"
}

variable "pl" {
  type      = list(string)
  sensitive = true
  default   = ["a", "b"]
}

variable "pm" {
  type      = map(string)
  sensitive = true
  default   = { k = "v", key2 = "v2" }
}

variable "plain" {
  type    = list(string)
  default = ["x", "y"]
}
