variable "settings" {
  description = <<-EOT
    Settings for the service. Example:

    ```hcl
    settings = {
      name = "web" # a comment
      tags = { env = "prod" }
    }
    ```

    Write $${var.name} or %%{if} to show them literally; 100% sure.
    /* not a comment */ and // not one either
  EOT
  type = any
}
