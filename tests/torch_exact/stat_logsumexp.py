import torch

x = torch.linspace(-3, 8, 30).reshape(3, 10)
print(torch.logsumexp(x, dim=1).tolist())
print(torch.logsumexp(x, dim=0).tolist())
print(repr(torch.logsumexp(x.flatten(), dim=0).item()))
big = torch.tensor([1000.0, 1000.5, 999.0])
print(torch.logsumexp(big, dim=0).item())
