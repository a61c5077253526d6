import torch
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(5, 4)
y = torch.tensor([0, 3, 1, 1, 2])


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


print(nll(log_softmax(logits), y))
print(F.nll_loss(F.log_softmax(logits, dim=-1), y))
print(F.cross_entropy(logits, y))
print(torch.allclose(log_softmax(logits), F.log_softmax(logits, dim=1)))
