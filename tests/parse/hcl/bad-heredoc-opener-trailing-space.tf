a = <<EOT 
abc
EOT
