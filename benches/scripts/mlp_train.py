# Issue 15's training benchmark: an MLP 784-256-10 training step at batch 64 (forward,
# cross_entropy, backward, SGD step) on the CPU. scripts/bench.sh runs it with `cudatutor run`
# and with python3 + PyTorch in the same run; each prints its own median milliseconds per step
# (and per forward / backward), timed inside the script so process start-up is not counted.
import time
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
x = torch.randn(64, 784)
y = torch.randint(0, 10, (64,))


def median(v):
    v = sorted(v)
    return v[len(v) // 2]


steps, fwd, bwd = [], [], []
for i in range(12):
    t0 = time.perf_counter()
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    t1 = time.perf_counter()
    loss.backward()
    t2 = time.perf_counter()
    opt.step()
    t3 = time.perf_counter()
    if i >= 2:
        steps.append(t3 - t0)
        fwd.append(t1 - t0)
        bwd.append(t2 - t1)
print("step_ms", round(median(steps) * 1000, 3))
print("forward_ms", round(median(fwd) * 1000, 3))
print("backward_ms", round(median(bwd) * 1000, 3))
print("loss", loss.item())
