project_id   = "acme-net-host-prod"
network_name = "vpc-prod-shared"
routing_mode = "GLOBAL"
shared_vpc_host = true

subnets = [
  {
    subnet_name           = "snet-euw1-apps"
    subnet_ip             = "10.10.0.0/20"
    subnet_region         = "europe-west1"
    subnet_private_access = "true"
    subnet_flow_logs      = "true"
  },
  {
    subnet_name   = "snet-euw1-apps"
    subnet_ip     = "10.20.0.0/20"
    subnet_region = "europe-west1"
    description   = "data platform"
  },
]

secondary_ranges = {
  "snet-euw1-apps" = [
    { range_name = "gke-pods", ip_cidr_range = "10.100.0.0/16" },
    { range_name = "gke-services", ip_cidr_range = "10.101.0.0/20" },
  ]
}

routes = [
  {
    name              = "egress-internet"
    description       = "route through IGW to access internet"
    destination_range = "0.0.0.0/0"
    tags              = ["egress-inet"]
    next_hop_internet = true
  },
]

ingress_rules = [
  {
    name          = "allow-iap-ssh"
    source_ranges = ["35.235.240.0/20"]
    allow         = [{ protocol = "tcp", ports = ["22"] }]
  },
  {
    name          = "allow-health-checks"
    source_ranges = ["130.211.0.0/22", "35.191.0.0/16"]
    target_tags   = ["web"]
    allow         = [{ protocol = "tcp", ports = ["80", "443"] }]
    log_config    = { metadata = "INCLUDE_ALL_METADATA" }
  },
]
