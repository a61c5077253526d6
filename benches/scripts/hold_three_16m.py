# Issue 15's memory figure: a script holding three 16M-element float32 tensors (peak RSS).
import torch

a = torch.randn(16_000_000)
b = torch.randn(16_000_000)
c = a + b
print(c.shape)
