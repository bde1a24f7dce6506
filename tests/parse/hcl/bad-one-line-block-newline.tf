block { a = 1
}
