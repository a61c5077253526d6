import torch

torch.manual_seed(0)
print(torch.randint(0, 2, (5,)))
print(torch.randint(5, 5, (3,)))
