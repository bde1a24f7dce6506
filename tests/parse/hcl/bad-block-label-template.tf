block "${var.x}" {
}
