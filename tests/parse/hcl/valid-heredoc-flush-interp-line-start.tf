a = <<-EOT
    first
${x} at column one: nothing is stripped
    EOT
b = <<-EOT
    ${x} after indentation
      second
    EOT
