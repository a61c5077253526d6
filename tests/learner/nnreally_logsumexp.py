import torch

x = torch.tensor([[1.0, 2.0, 3.0], [100.0, 100.0, 100.0]])
naive = x.exp().sum(-1).log()
print(naive)
print(torch.logsumexp(x, dim=-1))
m = x.max(-1)[0]
print(m + (x - m.unsqueeze(-1)).exp().sum(-1).log())
print(x - torch.logsumexp(x, dim=1, keepdim=True))
