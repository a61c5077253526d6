import torch
x = torch.randn(3, 4, device='cuda')
idx = torch.tensor([[0, 4], [1, 2], [3, 0]], device='cuda')
y = torch.gather(x, 1, idx)
print(y.sum().item())
