a = "%{if x}y%{endif z}"
