starter_locations = ["uksouth"]
starter_locations_short = {
  starter_location_01_short = "uks"
}
subscription_ids = {
  management   = "11111111-1111-1111-1111-111111111111"
  connectivity = "22222222-2222-2222-2222-222222222222"
  identity     = "33333333-3333-3333-3333-333333333333"
}
root_parent_management_group_id = "mg-contoso-root"
connectivity_type               = "hub_and_spoke"

custom_replacements = {
  names = {
    management_resource_group_name   = "rg-management-$${starter_location_01}"
    log_analytics_workspace_name     = "law-management-$${starter_location_01}"
    connectivity_hub_vnet_name       = "vnet-hub-$${starter_location_01_short}"
  }
}

management_resource_settings = {
  location                     = "$${starter_location_01}"
  log_analytics_workspace_name = "$${log_analytics_workspace_name}"
  resource_group_name          = "$${management_resource_group_name}"
}

management_group_settings = {
  location           = "$${starter_location_01}"
  parent_resource_id = "$${root_parent_management_group_id}"
  policy_default_values = {
    email_security_contact = "secops@contoso.example"
  }
  policy_assignments_to_modify = {}
  subscription_placement = {
    management = {
      subscription_id       = "$${subscription_id_management}"
      management_group_name = "management"
    }
  }
}

hub_virtual_networks = {
  primary = {
    location = "$${starter_location_01}"
    default_parent_id = "/subscriptions/22222222-2222-2222-2222-222222222222/resourceGroups/rg-hub"
    hub_virtual_network = {
      name          = "$${connectivity_hub_vnet_name}"
      address_space = ["10.0.0.0/22"]
    }
  }
}

tags = {
  deployed_by = "terraform"
  environment = "platform"
}
