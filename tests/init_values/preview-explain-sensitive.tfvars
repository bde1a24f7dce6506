name = "good"
