import torch
x = torch.tensor([[1., 2.], [3., 4.]])
print(x + 1)
print(2 * x)
print(x - 0.5)
print(1 / x)
print(x ** 2)
print(2 ** torch.tensor([0, 1, 2]))
print(x + torch.tensor(10.))
