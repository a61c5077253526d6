def matmul(a, b):
    return [[sum(x * y for x, y in zip(row, col)) for col in zip(*b)] for row in a]
A = [[1, 2], [3, 4]]
B = [[5, 6], [7, 8]]
print(matmul(A, B))
I = [[1 if i == j else 0 for j in range(2)] for i in range(2)]
print(matmul(A, I) == A)
print([list(r) for r in zip(*A)])
