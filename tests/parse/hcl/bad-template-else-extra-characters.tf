a = "%{if x}y%{else z}w%{endif}"
