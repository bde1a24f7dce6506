name    = "web"
count   = 3
enabled = true
nothing = null
off     = false
ref     = var.region
