# name: lower case letters and dashes, by its validation rule.
name = "web-app"
