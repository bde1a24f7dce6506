location  = "westeurope"
parent_id = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-network"
name      = "vnet-hub"
address_space = ["10.0.0.0/16"]
subnets = {
  app = {
    name             = "snet-app"
    address_prefixes = ["10.0.1.0/24"]
    service_endpoints = ["Microsoft.Storage"]
  }
  data = {
    name           = "snet-data"
    address_prefix = "10.0.2.0/24"
    private_endpoint_network_policies = "Enabled"
    delegations = [{
      name = "postgres"
      service_delegation = { name = "Microsoft.DBforPostgreSQL/flexibleServers" }
    }]
  }
}
peerings = {
  spoke = {
    name                               = "hub-to-spoke"
    remote_virtual_network_resource_id = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-spoke"
    allow_forwarded_traffic            = true
    create_reverse_peering             = true
    reverse_name                       = "spoke-to-hub"
  }
}
