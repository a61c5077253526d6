x = y = 1
x, y = 5
