# Issue 15's elementwise figure: (x * 2 + 1).relu().sum() on 4M float32 values, timed inside the
# script (median of 12), the same for cudatutor and PyTorch CPU.
import time
import torch

x = torch.randn(4_000_000)
times = []
for _ in range(12):
    t = time.perf_counter()
    s = (x * 2 + 1).relu().sum()
    times.append(time.perf_counter() - t)
times.sort()
print("elementwise_ms", times[len(times) // 2] * 1e3)
