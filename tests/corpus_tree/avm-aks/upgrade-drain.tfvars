name      = "aks-prod-weu"
location  = "westeurope"
parent_id = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-aks"

kubernetes_version = "1.30"

default_agent_pool = {
  name      = "system"
  vm_size   = "Standard_D4ds_v5"
  count_of  = 3
  os_sku    = "AzureLinux"
  availability_zones = ["1", "2", "3"]
  upgrade_settings = {
    max_surge = "33%"
  }
}

agent_pools = {
  user = {
    name      = "userpool"
    vm_size   = "Standard_D8ds_v5"
    mode      = "User"
    os_sku    = "Ubuntu2204"
    count_of  = 2
    max_pods  = 110
    node_labels = { workload = "apps" }
    kubelet_config = {
      container_log_max_files = 5
      seccomp_default         = "RuntimeDefault"
    }
    upgrade_settings = {
      drain_timeout_in_minutes      = 2000
      node_soak_duration_in_minutes = 5
      max_surge                     = "10%"
    }
  }
}

maintenanceconfiguration = {
  nodeos = {
    name = "aksManagedNodeOSUpgradeSchedule"
    maintenance_window = {
      duration_hours = 4
      start_time     = "02:00"
      utc_offset     = "+01:00"
      schedule = {
        weekly = { day_of_week = "Sunday", interval_weeks = 1 }
      }
    }
  }
}

namespace = {
  payments = {
    name   = "payments"
    labels = { team = "payments" }
    default_network_policy = {
      ingress = "AllowSameNamespace"
      egress  = "AllowAll"
    }
    default_resource_quota = {
      cpu_limit    = "8"
      memory_limit = "16Gi"
    }
  }
}
