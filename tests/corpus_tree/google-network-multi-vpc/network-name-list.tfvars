project_id      = "acme-net-test"
network_01_name = ["vpc-blue"]
network_02_name = "vpc-green"
