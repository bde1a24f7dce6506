a = foo."bar"
