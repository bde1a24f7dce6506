block "x" = {
}
