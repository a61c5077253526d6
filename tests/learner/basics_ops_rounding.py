import torch

x = torch.tensor([-1.5, -0.5, 0.5, 1.5, 2.5, 2.4999])
print(torch.round(x))
print(torch.round(torch.tensor([1.2345, 9.8765]), decimals=2))
print(torch.trunc(x), torch.frac(x))
print(torch.floor(x), torch.ceil(x))
print(torch.remainder(torch.tensor([-3, 3]), 2), torch.fmod(torch.tensor([-3, 3]), 2))
