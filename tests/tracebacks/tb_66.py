for a, b in [1]:
    pass
