import torch

x = torch.tensor([[1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 8.0]])
print(x.var(), x.var(unbiased=False))
print(x.std(dim=1), x.std(dim=1, correction=0))
print(torch.var_mean(x, dim=0))
print(x.norm(), x.norm(dim=1), x.norm(p=1))
print(torch.corrcoef(x))
print(torch.cov(x))
print(x.quantile(0.5, dim=1))
