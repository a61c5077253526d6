import torch

g = torch.Generator().manual_seed(123)
print(torch.rand(3, generator=g))
print(torch.randn(2, generator=g))
print(torch.randint(0, 100, (4,), generator=g))
print(torch.randperm(6, generator=g))
g2 = torch.Generator()
g2.manual_seed(123)
print(torch.rand(3, generator=g2))
print(g.initial_seed())
