import torch

preds = [torch.tensor([0.1, 0.9]), torch.tensor([0.8, 0.2])]
print(torch.stack(preds))
print(torch.tensor([p.argmax().item() for p in preds]))
print(torch.tensor(preds))
