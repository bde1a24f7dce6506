a = <<EOT
%{if x
EOT
