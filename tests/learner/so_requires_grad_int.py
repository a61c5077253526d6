import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x)
y = torch.tensor([1, 2], requires_grad=True)
print(y)
