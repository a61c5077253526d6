import torch
a = torch.randn(3, device='cuda')
b = torch.randn(3)
print(a + b)
