# The issue-5 end-to-end workload: a 2-layer MLP forward on a 64x784 batch plus cross_entropy.
# scripts/bench.sh runs it with `cudatutor run` (sim backend, device 'cuda') and with
# python3 + PyTorch on the CPU (device replaced by 'cpu'), and prints the ratio.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = 'cuda'
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10)).to(device)
x = torch.randn(64, 784, device=device)
y = torch.randint(0, 10, (64,), device=device)
loss = F.cross_entropy(model(x), y)
print(loss.shape, loss.dtype)
