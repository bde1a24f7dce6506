empty {
}

also_empty "label" {}

with_blank_lines {


}
