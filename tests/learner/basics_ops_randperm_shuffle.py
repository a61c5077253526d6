import torch

torch.manual_seed(0)
print(torch.randperm(10))
data = torch.arange(10) * 10
idx = torch.randperm(len(data))
print(data[idx])
print(torch.randint(0, 10, (2, 3)))
print(torch.randn(3, dtype=torch.float64))
print(torch.rand(1).item())
