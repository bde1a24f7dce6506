a = @x
