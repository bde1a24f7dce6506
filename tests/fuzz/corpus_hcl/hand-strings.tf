a = "tab\there\nnewline \"q\" \\ \u00e9 \U0001F600"
b = "unicode é ü 日本"
c = ""
