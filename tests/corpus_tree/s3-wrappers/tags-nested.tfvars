defaults = {
  force_destroy           = false
  block_public_acls       = true
  block_public_policy     = true
  ignore_public_acls      = true
  restrict_public_buckets = true
  tags = {
    Owner = "platform"
  }
}

items = {
  logs = {
    bucket        = "acme-prod-access-logs"
    acl           = "log-delivery-write"
    control_object_ownership = true
    object_ownership         = "ObjectWriter"
    attach_elb_log_delivery_policy = true
    lifecycle_rule = [
      {
        id      = "expire-old-logs"
        enabled = true
        expiration = { days = 365 }
      },
    ]
  }
  assets = {
    bucket     = "acme-prod-assets"
    versioning = { enabled = true }
    server_side_encryption_configuration = {
      rule = {
        apply_server_side_encryption_by_default = { sse_algorithm = "AES256" }
      }
    }
    tags = {
      Owner = "web"
      Data  = { classification = "public" }
    }
  }
}
