root_id                      = "contoso"
primary_location             = "northeurope"
secondary_location           = "westeurope"
subscription_id_connectivity = "22222222-2222-2222-2222-222222222222"
enable_ddos_protection       = true
connectivity_resources_tags = {
  deployedBy = "terraform"
  costCenter = "platform-network"
}
