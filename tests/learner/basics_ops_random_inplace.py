import torch

torch.manual_seed(0)
t = torch.empty(2, 3)
t.uniform_(-1, 1)
print(t)
t.normal_(0, 0.5)
print(t)
t.random_(0, 10)
print(t)
print(torch.empty(4).bernoulli_(0.5))
print(torch.empty(3).exponential_())
print(torch.rand(2, 2, dtype=torch.float64))
