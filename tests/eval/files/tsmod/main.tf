# Module for the templatestring and path tests of ../../funcs_file.test
# (run there with -chdir=files/tsmod).

locals {
  greeting_template = "Hello, $${name}!"
  templates = {
    short = "short: $${x}"
    long  = "long: $${x}, $${y}"
  }
  template_list = ["one $${x}", "two $${x}"]
  not_a_string  = true
  null_template = null
  bad_template  = "$${"
  wrap_template = "$${x}"
  file_template = "$${file(\"main.tf\")}"
  core_template = "$${core::filemd5(\"main.tf\")}"
  rec_template  = "$${templatestring(t, {})}"
  tfile_template = "$${core::templatefile(\"main.tf\", {})}"
  exists_template = "$${fileexists(\"main.tf\")}"
  abspath_template = "$${abspath(\"/a/../b\")} $${pathexpand(\"/c\")}"
  arity_template = "$${upper()}"
  func_template = "%%{ for s in list ~}$${upper(s)} %%{ endfor ~}"
  secret        = sensitive("secret: $${x}")
  key           = "short"
}

variable "tpl" {
  type    = string
  default = "from var: $${x}"
}
