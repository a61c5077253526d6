import torch

torch.manual_seed(0)
probs = torch.tensor([0.1, 0.2, 0.3, 0.4])
print(torch.multinomial(probs, 5, replacement=True))
print(torch.multinomial(probs, 3))
print(torch.bernoulli(torch.full((6,), 0.5)))
print(torch.normal(0.0, 1.0, size=(2, 3)))
print(torch.normal(torch.zeros(3), torch.ones(3)))
