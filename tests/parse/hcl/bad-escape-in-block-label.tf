block "\q" {
}
