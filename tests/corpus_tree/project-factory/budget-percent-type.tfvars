name            = "payments-prod"
org_id          = "123456789012"
folder_id       = "folders/345678901234"
billing_account = "01ABCD-23EF45-6789AB"
random_project_id = true

activate_apis = [
  "compute.googleapis.com",
  "container.googleapis.com",
  "secretmanager.googleapis.com",
]
activate_api_identities = [
  {
    api   = "container.googleapis.com"
    roles = ["roles/container.serviceAgent"]
  },
]

labels = {
  team        = "payments"
  environment = "prod"
}

budget_amount               = 2500
budget_alert_spent_percents = ["50%", "90%"]
budget_calendar_period      = "MONTH"
budget_labels               = { team = "payments" }

essential_contacts = {
  "payments-oncall@example.com" = ["ALL"]
}
