import torch

torch.manual_seed(0)
pred = torch.randn(3)
print(pred.max().item())
print(pred[0].item())
print(pred.item())
