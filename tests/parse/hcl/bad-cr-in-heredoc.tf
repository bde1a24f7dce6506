a = <<EOT
xy
EOT
b = 1
