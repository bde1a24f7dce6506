address_space_vnet1 = ["10.10.0.0/16", "10.11.0.0"]
address_space_vnet2 = ["10.20.0.0/24"]
