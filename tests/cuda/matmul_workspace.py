import torch
import torch.nn as nn
a = torch.randn(64, 128, device='cuda')
b = torch.randn(128, 32, device='cuda')
print("before", torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
c = a @ b
torch.cuda.synchronize()
print("after mm", torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
lin = nn.Linear(128, 32).cuda()
y = lin(a)
torch.cuda.synchronize()
print("after linear", torch.cuda.memory_allocated(), torch.cuda.memory_reserved(), torch.cuda.max_memory_allocated())
