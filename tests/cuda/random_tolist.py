import torch
torch.manual_seed(0)
print(torch.rand(6, device='cuda').tolist())
print(torch.randn(6, device='cuda').tolist())
print(torch.randint(0, 10, (6,), device='cuda').tolist())
torch.manual_seed(1)
print(torch.rand(3, dtype=torch.float64, device='cuda').tolist())
print(torch.randn(3, dtype=torch.float64, device='cuda').tolist())
