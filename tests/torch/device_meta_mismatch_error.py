import torch
a = torch.randn(10, device='meta')
b = torch.randn(10)
print(a.device, b.device)
a + b
