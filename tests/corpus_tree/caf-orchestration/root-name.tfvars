root_id            = "contoso"
root_name          = "Contoso Landing Zones (EMEA)"
primary_location   = "northeurope"
secondary_location = "westeurope"

subscription_id_connectivity = "22222222-2222-2222-2222-222222222222"
subscription_id_identity     = "33333333-3333-3333-3333-333333333333"
subscription_id_management   = "11111111-1111-1111-1111-111111111111"

email_security_contact = "secops@contoso.example"
log_retention_in_days  = 90
enable_ddos_protection = false

connectivity_resources_tags = {
  deployedBy = "terraform"
  costCenter = "platform-network"
}
