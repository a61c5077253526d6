y = [a for a, b in [1]]
