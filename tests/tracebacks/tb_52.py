y = [x for x in [1] for z in 5]
