# Values that satisfy the validation rules (the case itself breaks them).
environment = "dev"
db_password = "correct-horse-battery"
api_key = 42
