# name: longer than 2 characters (its validation rule).
name = "web"
