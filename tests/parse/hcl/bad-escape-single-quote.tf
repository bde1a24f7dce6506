a = "it\'s"
