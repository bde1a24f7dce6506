a = <<-EOT
    first

    after an empty line
  
    after a blank line of spaces
    EOT
