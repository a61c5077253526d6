y = int("x") + 1
