doc = <<-EOT
    indented ${var.x}
      more %{~ for i in xs ~} ${i} %{~ endfor ~}
    EOT
other = <<EOF2
EOF
EOF2
