a = "x%{endif}"
