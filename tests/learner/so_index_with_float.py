import torch

x = torch.arange(5) * 10
i = torch.tensor([0, 3])
print(x[i])
j = torch.tensor([0.0, 3.0])
print(x[j])
