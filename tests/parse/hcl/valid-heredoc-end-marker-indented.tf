a = <<EOF
  content
  EOF
b = <<EOF
trailing spaces after the marker
EOF  
c = <<-EOF
  x
	EOF	
