import torch

torch.manual_seed(0)
targets = torch.randint(0, 4, (30,))
preds = torch.where(torch.rand(30) < 0.7, targets, torch.randint(0, 4, (30,)))
confusion = torch.zeros(4, 4, dtype=torch.int64)
for t, p in zip(targets, preds):
    confusion[t, p] += 1
print(confusion)
print(confusion.diag().sum().item() / confusion.sum().item())
print(confusion.diag() / confusion.sum(1))
