import torch
a = torch.empty(3 * 1024 * 1024 // 4, device='cuda')
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
b = torch.empty(12 * 1024 * 1024 // 4, device='cuda')
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
c = torch.empty(30 * 1024 * 1024 // 4, device='cuda')
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
del a, b
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved(), torch.cuda.max_memory_allocated())
torch.cuda.reset_peak_memory_stats()
print(torch.cuda.max_memory_allocated())
torch.cuda.empty_cache()
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
