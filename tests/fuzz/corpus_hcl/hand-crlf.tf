a = 1
b = "x"
c = <<EOT
line
EOT