project_id        = "acme-gke-prod"
name              = "gke-prod-euw1"
region            = "europe-west1"
network           = "vpc-prod"
subnetwork        = "snet-gke-euw1"
ip_range_pods     = "gke-pods"
ip_range_services = "gke-services"
master_ipv4_cidr_block = "172.16.0.0/28"

master_authorized_networks = [
  { cidr_block = "10.10.0.0/16", name = "corp-vpn" },
]

node_pools = [
  {
    name           = "general"
    machine_type   = "e2-standard-4"
    node_locations = "europe-west1-b,europe-west1-c"
    min_count      = 1
    max_count      = 5
    disk_size_gb   = 100
    auto_upgrade   = true
  },
]

monitoring_enabled_components = ["SYSTEM_COMPONENTS", "APISERVER"]
timeouts = { create = "45m", update = "45m" }
