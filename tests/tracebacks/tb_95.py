squares = (n * n for n in range(3))
print(sum(squares))
print(next(squares))
