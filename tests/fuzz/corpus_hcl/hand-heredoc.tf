doc = <<EOT
hello ${name}
  %{ if x }yes%{ else }no%{ endif }
EOT
