region             = "eu-west-1"
availability_zones = ["eu-west-1a", "eu-west-1b", "eu-west-1c"]

namespace = "acme"
stage     = "prod"
name      = "eks"
label_value_case = "camel"

kubernetes_version           = "1.31"
oidc_provider_enabled        = true
enabled_cluster_log_types    = ["api", "audit", "authenticator"]
cluster_log_retention_period = 30

instance_types = ["m6i.large"]
ami_type       = "AL2023_x86_64_STANDARD"
desired_size   = 3
min_size       = 2
max_size       = 6
kubernetes_labels = {
  workload = "general"
}

cluster_encryption_config_enabled = true

addons = [
  {
    addon_name               = "coredns"
    addon_version            = null
    resolve_conflicts        = "OVERWRITE"
    service_account_role_arn = null
  },
]

upgrade_policy = {
  support_type = "STANDARD"
}

remote_network_config = {
  remote_node_networks_cidrs = ["10.80.0.0/16"]
}
