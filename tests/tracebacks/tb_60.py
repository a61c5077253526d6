y = [[1/x for x in r] for r in [[0]]]
