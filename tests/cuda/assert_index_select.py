import torch
x = torch.randn(5, device='cuda')
y = x.index_select(0, torch.tensor([7], device='cuda'))
print(y.cpu())
