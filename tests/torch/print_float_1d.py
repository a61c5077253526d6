import torch
print(torch.tensor([1.0, 2.5]))
print(torch.tensor([1.0, 2.0, 3.0]))
print(torch.tensor([0.1, 0.2, 0.3]))
print(torch.tensor([1.23456789]))
print(torch.tensor([100.5, -3.25]))
print(torch.tensor([0.5]))
print(repr(torch.tensor([2.0])))
print(str(torch.tensor([1.5, 2.0])))
