a = "%{if a}x%{else}y%{else}z%{endif}"
