block "%{if x}y%{endif}" {
}
