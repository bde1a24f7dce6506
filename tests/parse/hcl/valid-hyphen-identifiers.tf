resource "google_binary_authorization_attestor" "attestor" {
  name = var.attestor-name
  note = local.my-local.some-attr
}
my-attribute = 1
trailing- = 2
minus = var.a - var.b
tight = var.a-1
