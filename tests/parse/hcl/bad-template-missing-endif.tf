a = "%{if x}y"
