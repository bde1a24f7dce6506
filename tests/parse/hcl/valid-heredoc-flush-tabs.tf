a = <<-EOT
		one
			two
	EOT
b = <<-EOT
	  mixed
  spaces
  EOT
