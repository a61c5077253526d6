import torch
print(torch.tensor([1.0, 2.0], device='cuda'))
print(torch.tensor([1, 2], device='cuda'))
print(torch.tensor([[1.5, 2.0], [3.0, 4.0]], device='cuda'))
print(torch.tensor([True, False], device='cuda'))
