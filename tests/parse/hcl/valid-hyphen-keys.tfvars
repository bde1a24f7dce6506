sales-re1 = {
  region-name = "eu-west-1"
  cidr-block  = "10.0.0.0/16"
}
prod-db-1 = "x"
