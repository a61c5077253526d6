import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x.exp() * 2).sum()
y.backward()
print(x.grad)
y.backward()
print(x.grad)
