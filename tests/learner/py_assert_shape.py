import torch

x = torch.zeros(3, 2)
assert x.ndim == 2
print("ndim ok")
assert x.shape == (3, 2), "first check"
print("shape ok")
y = x.T
assert y.shape == (3, 2), f"bad shape {y.shape}"
print("not reached")
