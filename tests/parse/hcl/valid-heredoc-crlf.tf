a = <<EOT
line one
  line two
EOT
b = <<-EOT
    x
      y
    EOT
