a = <<-EOT
    four
      six
    four
    EOT
b = <<-EOT
  marker indentation does not matter
        EOT
