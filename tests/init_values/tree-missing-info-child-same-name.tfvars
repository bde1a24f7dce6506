app_name = "web"
name     = "web"
