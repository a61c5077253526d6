import torch

values = torch.tensor([0.1, 0.2, 1 / 3, 2.0 ** -25, 1e-8, 3.14159265, 65504.0, 1e30])
for v in values:
    print(repr(v.item()))
print(values.tolist())
print(torch.tensor(-2.9802322387695312e-08).item())
print(float(torch.tensor(0.7)))
