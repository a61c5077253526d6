import torch

torch.set_printoptions(precision=10)
x = torch.tensor([0.1, 1 / 3, 2 / 3, 1e-4, 123.456])
print(x)
print(x * 3)
print(x.sum(), x.mean())
print(torch.sqrt(x))
print(torch.tensor([[1.0, 2.5], [1e-8, 1e8]]))
torch.set_printoptions(precision=4)
print(x)
