import torch

x = torch.tensor([1.1, 2.2, 3.3])
print(repr(float(x.sum())))
print(repr(float(x.mean())))
print(repr(float(x.prod())))
print(repr(float(x[0] * x[1])))
print(repr(float(x.std())))
print(repr(float(torch.tensor(2.0).sqrt())))
print(repr(float(torch.tensor(10.0).log())))
print(x.sum().item() == 6.6, x.sum().item())
