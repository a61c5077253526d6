import torch
from torch.distributions import multinomial

torch.manual_seed(0)
fair_probs = torch.ones([6]) / 6
print(multinomial.Multinomial(1, fair_probs).sample())
counts = multinomial.Multinomial(1000, fair_probs).sample()
print(counts, counts / 1000)
counts = multinomial.Multinomial(10, fair_probs).sample((5,))
print(counts)
cum_counts = counts.cumsum(dim=0)
estimates = cum_counts / cum_counts.sum(dim=1, keepdims=True)
print(estimates[:, 0])
m = multinomial.Multinomial(4, torch.tensor([0.5, 0.5]))
print(m.log_prob(torch.tensor([2.0, 2.0])), m.mean)
