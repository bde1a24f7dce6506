a = "# not a comment"
b = "// not a comment"
c = "/* not a comment */"
d = <<EOT
# kept
// kept
/* kept */
EOT
e = "http://example.com/#frag"
