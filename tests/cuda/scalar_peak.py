import torch
x = torch.zeros(1024, 1024, device='cuda')
torch.cuda.reset_peak_memory_stats()
y = x + 1
z = y * 2 - 0.5
print(torch.cuda.memory_allocated(), torch.cuda.max_memory_allocated())
print((z / 3).sum().item())
