import torch

torch.manual_seed(2024)
a = torch.randn(3)
torch.manual_seed(2024)
b = torch.randn(3)
print(torch.equal(a, b))
print(a)
state = torch.get_rng_state()
c = torch.rand(2)
torch.set_rng_state(state)
d = torch.rand(2)
print(torch.equal(c, d), c)
print(torch.initial_seed())
