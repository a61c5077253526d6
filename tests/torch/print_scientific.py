import torch
print(torch.tensor([1e-5, 1.0]))
print(torch.tensor([1e10, 1.0]))
print(torch.tensor([123456.7, 1.5]))
print(torch.tensor([0.0001, 0.5]))
print(torch.tensor([1e-8]))
print(torch.tensor([12345678.0]))
print(torch.tensor([1000.0, 0.001]))
