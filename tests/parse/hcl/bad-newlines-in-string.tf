a = "one


  two
 three"
