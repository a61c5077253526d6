import torch

torch.manual_seed(0)
print(torch.normal(0.0, 1.0, size=(3,)))
print(torch.normal(0.0, -1.0, size=(3,)))
