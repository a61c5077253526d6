for a, b in [(1, 2, 3)]:
    pass
