policy = jsonencode(<<EOT
{"a": 1}
EOT
)
list = [<<A
first
A
, <<B
second
B
]
