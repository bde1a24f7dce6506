a = <<EOT
${var.x
EOT
