import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
print(x.mean().grad_fn.name())
print(x.mean(dim=0).grad_fn.name())
print(x.sum(dim=1).grad_fn.name())
print((x @ x.T).grad_fn.name())
print(x.view(6).grad_fn.name(), x.t().grad_fn.name())
print(x[0].grad_fn.name(), x[:, 1:].grad_fn.name())
print(torch.relu(x).grad_fn.name(), torch.sigmoid(x).grad_fn.name())
print(nn.Embedding(4, 2)(torch.tensor([1])).grad_fn.name())
print(nn.functional.cross_entropy(x, torch.tensor([0, 2])).grad_fn.name())
