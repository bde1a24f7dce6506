db_password = "a-long-enough-password"
