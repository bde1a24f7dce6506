a = "%{if x y}z%{endif}"
