import torch

x = torch.tensor([-3.5, -1.0, -0.1, 0.0, 0.25, 1.0, 2.5])
print(torch.exp(x).tolist())
for v in x.exp():
    print(repr(v.item()))
print(repr(torch.exp(torch.tensor(1.0)).item()))
