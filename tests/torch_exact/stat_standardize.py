import torch

x = torch.tensor([2.0, 4.5, 4.0, 4.1, 5.0, 5.3, 7.0, 9.9])
z = (x - x.mean()) / x.std()
print(z.tolist())
print(repr(z.mean().item()), repr(z.std().item()))
mn, mx = x.min(), x.max()
print(((x - mn) / (mx - mn)).tolist())
