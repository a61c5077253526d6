int("x")
