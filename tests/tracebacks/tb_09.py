len(5)
