z = 1
y = z.bar(1, 2)
