a = <<EOT
line one
  line two indented
EOT
b = <<EOT
${var.x} at start, then %{if var.y}y%{endif}
EOT
c = <<EOT
EOT
d = <<END_OF_TEXT
backslash \n stays literal, "quotes" too, $${escaped} and %%{escaped}
lone $ and % signs
END_OF_TEXT
