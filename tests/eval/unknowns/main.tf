# Unknown values for tests/eval/funcs_unknowns.test: a data source's
# attributes are unknown here, and each local gives one a type
# (local.d keeps type any).
data "external" "u" {}

locals {
  s  = tostring(data.external.u.result)
  n  = tonumber(data.external.u.result)
  ls = convert(data.external.u.result, list(string))
  d  = data.external.u.result

  tmpl = "$${a}-$${b[1]}" # for templatestring, which takes no literal
}
