int      = 42
zero     = 0
frac     = 3.14159
exp      = 1e10
exp_sign = 1.5E-3
exp_plus = 2e+2
leading0 = 007
big      = 123456789012345678901234567890
