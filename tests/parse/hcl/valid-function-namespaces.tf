a = provider::terraform::encode_tfvars({ x = 1 })
b = core::upper("x")
c = provider::aws::arn_parse(var.arn).account_id
