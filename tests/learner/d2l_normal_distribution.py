import math
import numpy as np
import torch


def normal(x, mu, sigma):
    p = 1 / math.sqrt(2 * math.pi * sigma**2)
    return p * np.exp(-0.5 / sigma**2 * (x - mu)**2)


x = np.arange(-7, 7, 2.0)
params = [(0, 1), (0, 2), (3, 1)]
for mu, sigma in params:
    print(f'mean {mu}, std {sigma}:', np.round(normal(x, mu, sigma), 4))
t = torch.distributions.Normal(0.0, 1.0)
print(t.log_prob(torch.tensor([0.0, 1.0])).exp())
