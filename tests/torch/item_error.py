import torch
x = torch.randn(3)
print(x[0].item() == x[0].item())
x.item()
