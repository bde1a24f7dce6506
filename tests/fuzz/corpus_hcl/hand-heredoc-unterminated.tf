a = <<EOT
never ends ${x}
