import torch

x = torch.tensor([[1.0, -2.0], [3.0, -4.0]])
mask = x > 0
print(torch.masked_select(x, mask))
print(x[mask])
print(x.masked_fill(~mask, 0.0))
y = x.clone()
y[y < 0] = -1
print(y)
print(torch.nonzero(mask))
print(mask.nonzero(as_tuple=True))
