namespace   = "acme"
tenant      = "payments"
environment = "euw1"
stage       = "prod"
name        = "orders"
delimiter   = "-"
attributes  = ["api"]
tags = {
  Team = "orders"
}
label_order      = ["namespace", "environment", "stage", "name", "attributes"]
id_length_limit  = 4
label_key_case   = "title"
label_value_case = "lower"
