xs = [3, 1]
xs.sort(key=lambda v: v / 0)
