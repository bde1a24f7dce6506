# region: a validation rule wants an EU region.
region = "eu-west-1"
