block "x
" {
}
