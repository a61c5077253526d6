# torch.distributions.kl_divergence for the pairs a learner meets (VAE losses, policy KL).
import torch
from torch.distributions import Bernoulli, Categorical, Normal, Uniform, kl_divergence
from torch.distributions.kl import register_kl

print(kl_divergence(Normal(0.0, 1.0), Normal(1.0, 2.0)))
mu = torch.tensor([0.5, -1.0, 2.0])
sigma = torch.tensor([1.0, 0.5, 3.0])
print(kl_divergence(Normal(mu, sigma), Normal(torch.zeros(3), torch.ones(3))))
print(kl_divergence(Categorical(probs=torch.tensor([0.2, 0.3, 0.5])), Categorical(logits=torch.tensor([0.0, 1.0, 2.0]))))
print(kl_divergence(Categorical(probs=torch.tensor([0.5, 0.5, 0.0])), Categorical(probs=torch.tensor([0.0, 0.5, 0.5]))))
print(kl_divergence(Bernoulli(torch.tensor([0.3, 0.0, 1.0])), Bernoulli(torch.tensor([0.5, 0.5, 0.2]))))
print(kl_divergence(Uniform(0.0, 1.0), Uniform(-1.0, 2.0)), kl_divergence(Uniform(-1.0, 2.0), Uniform(0.0, 1.0)))
m = torch.tensor([0.3], requires_grad=True)
kl = kl_divergence(Normal(m, torch.tensor([1.0])), Normal(0.0, 1.0)).sum()
kl.backward()
print(kl, m.grad)
try:
    kl_divergence(Normal(0.0, 1.0), Bernoulli(0.5))
except NotImplementedError as e:
    print(e)


@register_kl(Bernoulli, Normal)
def _mine(p, q):
    return p.probs * 0 + 7


print(kl_divergence(Bernoulli(0.5), Normal(0.0, 1.0)))
