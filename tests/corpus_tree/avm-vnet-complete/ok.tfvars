address_space_vnet1 = ["10.10.0.0/16"]
address_space_vnet2 = ["10.20.0.0/24"]
