import sys
import torch

x = torch.tensor([1.0, 2.0, 3.0])
total = x.sum().item()
print("total", total)
if total > 5:
    print("too big, stopping")
    sys.exit(3)
print("not reached")
