y = max(len(s) for s in [1])
