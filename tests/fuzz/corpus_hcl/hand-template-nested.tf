a = "x${"y${"z${1 + 2}"}"}w"
b = "$${literal} %%{literal}"
c = "${a}${b}"
