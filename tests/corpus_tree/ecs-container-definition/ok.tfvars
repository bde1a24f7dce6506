region          = "eu-west-1"
namespace       = "acme"
stage           = "prod"
name            = "orders-api"

container_name               = "orders-api"
container_image              = "123456789012.dkr.ecr.eu-west-1.amazonaws.com/orders-api:1.4.2"
container_memory             = 1024
container_memory_reservation = 512
container_cpu                = 256
essential                    = true
readonly_root_filesystem     = true

container_environment = [
  { name = "LOG_LEVEL", value = "info" },
  { name = "PORT", value = "8080" },
]

port_mappings = [
  { containerPort = 8080, hostPort = 8080, protocol = "tcp", name = "http" },
]

log_configuration = {
  logDriver = "awslogs"
  options = {
    "awslogs-group"         = "/ecs/orders-api"
    "awslogs-region"        = "eu-west-1"
    "awslogs-stream-prefix" = "orders"
  }
}

restart_policy = {
  enabled              = true
  ignoredExitCodes     = [0]
  restartAttemptPeriod = 300
}
