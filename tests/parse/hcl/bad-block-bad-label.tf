block "x" 1 {
}
