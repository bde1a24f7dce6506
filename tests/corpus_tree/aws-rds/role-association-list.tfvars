identifier = "orders-db"

engine               = "mysql"
engine_version       = "8.0"
family               = "mysql8.0"
major_engine_version = "8.0"
instance_class       = "db.t4g.large"

allocated_storage     = 20
max_allocated_storage = 100

db_name  = "orders"
username = "orders_admin"
port     = 3306

multi_az               = true
create_db_subnet_group = true
subnet_ids             = ["subnet-0a1b2c3d4e5f60718", "subnet-0f1e2d3c4b5a69870"]
vpc_security_group_ids = ["sg-0123456789abcdef0"]

maintenance_window      = "Mon:00:00-Mon:03:00"
backup_window           = "03:00-06:00"
backup_retention_period = 7

parameters = [
  { name = "character_set_client", value = "utf8mb4" },
  { name = "character_set_server", value = "utf8mb4" },
]

options = [
  {
    option_name = "MARIADB_AUDIT_PLUGIN"
    option_settings = [
      { name = "SERVER_AUDIT_EVENTS", value = "CONNECT" },
    ]
  },
]

option_group_timeouts = { delete = "15m" }

tags = {
  Owner       = "orders-team"
  Environment = "prod"
}
db_instance_role_associations = {
  s3Import = ["arn:aws:iam::123456789012:role/rds-s3-import"]
}
