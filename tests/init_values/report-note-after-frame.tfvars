db_password = "correct horse battery"
