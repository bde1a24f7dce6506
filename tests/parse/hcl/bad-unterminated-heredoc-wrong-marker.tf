a = <<EOT
abc
EOF
