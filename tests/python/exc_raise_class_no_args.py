print("x")
raise ValueError
