a = <<-EOT
  line
  EOT # trailing comment
