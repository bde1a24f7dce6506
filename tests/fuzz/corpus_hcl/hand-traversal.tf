a = var.x.y[0]["k"].z
b = local.m[var.k][1 + 2]
c = data.aws_iam_policy_document.p.json
d = module.m.out[count.index]
e = self.x.0.y
