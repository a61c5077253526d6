import torch
m = torch.randn(10, device='meta')
print(m.shape, m.device, m.dtype)
print(m)
print(torch.zeros(2, 3, device='meta'))
print((m * 2).shape, (m * 2).device)
