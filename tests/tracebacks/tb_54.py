y = [x for x in [1] if x/0]
