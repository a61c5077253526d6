import torch
x = torch.randn(5, device='cuda')
i = torch.tensor([0, 7, 1], device='cuda')
y = x[i]
print(y.cpu())
