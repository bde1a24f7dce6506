# only
// comments
/* and
   more */
