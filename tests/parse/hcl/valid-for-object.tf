a = { for k, v in var.map : k => upper(v) }
b = { for x in var.list : x.name => x }
c = { for x in var.list : x.group => x.name... }
d = { for x in var.list : x.group => x... if x.enabled }
e = {
  for k, v in var.map :
  k => v
  if v != null
}
f = {
  for s in var.subnets : s.id => s
}
