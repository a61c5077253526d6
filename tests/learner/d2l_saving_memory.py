import torch

X = torch.arange(12, dtype=torch.float32).reshape((3, 4))
Y = torch.tensor([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
before = id(Y)
Y = Y + X
print(id(Y) == before)

Z = torch.zeros_like(Y)
z_id = id(Z)
Z[:] = X + Y
print(id(Z) == z_id)

before = id(X)
X += Y
print(id(X) == before)
print(X)
