# env: one of local.allowed; name: short and lower case (local.name_rule).
env = "dev"
name = "app"
