resource "a" "b" {
  x = 1

resource "c" "d" {
}
