a = "%{ for k, v in m ~}${k}=${v},%{ endfor }"
b = "%{if a}A%{else}B%{endif}"
c = "%{~ if true ~} t %{~ endif ~}"
