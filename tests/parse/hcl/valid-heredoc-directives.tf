a = <<-EOT
  %{ for x in xs ~}
  item ${x}
  %{ endfor ~}
  EOT
b = <<EOT
%{ if c ~}
yes
%{ else ~}
no
%{ endif ~}
EOT
