import torch
import torch.nn as nn

t = torch.tensor([1.0])
print(isinstance(t, torch.Tensor), type(t))
print(type(t).__name__, t.type())
print(torch.tensor([1]).type(), torch.tensor([True]).type())
p = nn.Parameter(torch.zeros(1))
print(isinstance(p, torch.Tensor), type(p).__name__)
print(isinstance(nn.Linear(1, 1), nn.Module))
print(torch.is_tensor(3), torch.is_tensor(t), torch.is_floating_point(t))
print(type(t.shape).__name__, isinstance(t.shape, tuple))
