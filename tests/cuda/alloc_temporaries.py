import torch
x = torch.ones(1000, device='cuda')
y = (x * 2 + 1).sum()
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
x = torch.ones(2000, device='cuda')
print(torch.cuda.memory_allocated())
print(y.item())
