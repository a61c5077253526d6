import torch
x = torch.randn(10, device='cuda')
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
del x
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
torch.cuda.empty_cache()
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
