import torch
torch.cuda.set_per_process_memory_fraction(0.01)
a = torch.empty(256 * 1024 * 1024, device='cuda')
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
b = torch.empty(1024 * 1024 * 1024, device='cuda')
