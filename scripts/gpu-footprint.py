# The same small workload for cudatutor (`run --backend cuda`) and python3 with torch, for
# gpu-check.sh's card-footprint comparison: matrix products (cuBLAS and its workspace),
# reductions, a Linear layer and softmax, then a pause so nvidia-smi's per-process samples
# catch the process at rest with everything it loaded. Small sizes: what a process holds
# beside its tensors (context, kernels, cuBLAS, scratch) is the question, and the emulated
# device (gpu-check.sh's dry run) runs it within `run`'s 10 s.
import time
import torch
import torch.nn as nn

x = torch.randn(256, 256, device='cuda')
w = torch.randn(256, 256, device='cuda')
y = (x @ w).relu().sum(dim=1)
lin = nn.Linear(256, 128).cuda()
z = lin(x).softmax(dim=1).mean()
torch.cuda.synchronize()
print("allocated", torch.cuda.memory_allocated(), "reserved", torch.cuda.memory_reserved(),
      "peak", torch.cuda.max_memory_allocated())
free, total = torch.cuda.mem_get_info()
print("card in use (all processes)", total - free)
time.sleep(2)
