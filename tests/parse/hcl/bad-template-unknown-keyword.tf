a = "%{fi x}y%{endif}"
