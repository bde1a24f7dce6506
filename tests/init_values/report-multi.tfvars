# environment: dev or prod, by its validation rule.
environment = "dev"
