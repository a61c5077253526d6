import torch
x = torch.randn(1000)
print(x.is_pinned())
p = x.pin_memory()
print(p.is_pinned())
y = p.to('cuda', non_blocking=True)
print(y.device, torch.cuda.memory_allocated())
